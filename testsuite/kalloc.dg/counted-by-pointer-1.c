/* counted_by on a pointer member (GCC 16 counts it natively) is an
   error before GCC 16 in GCC 15's words, whether GCC 15 or kalloc
   provides the attribute, so a tree that probes for it (Linux's
   CONFIG_CC_HAS_COUNTED_BY_PTR) leaves it off.  */
/* { dg-do compile } */
/* { dg-require-pointer-counted-by no } */

struct pointer_member { int count; int *data __attribute__ ((__counted_by__ (count))); }; /* { dg-error "'counted_by' attribute is not allowed for a non-array field" } */
struct scalar_member { int count; long data __attribute__ ((__counted_by__ (count))); }; /* { dg-error "'counted_by' attribute is not allowed for a non-array field" } */
