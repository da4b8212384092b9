/* What GCC 15's native counted_by rejects, kalloc's rejects too, with
   GCC 15's message, at GCC 15's line, once each (make check-counted-by
   compares this file with GCC 15 itself).  */
/* { dg-do compile } */
/* { dg-require-no-native-counted-by "" } */

struct not_array { int n; int a __attribute__ ((counted_by (n))); }; /* { dg-error "'counted_by' attribute is not allowed for a non-array field" } */
struct pointer { int n; int *a __attribute__ ((counted_by (n))); }; /* { dg-error "'counted_by' attribute is not allowed for a non-array field" } */
struct zero_length { int n; int a[0] __attribute__ ((counted_by (n))); }; /* { dg-error "'counted_by' attribute is not allowed for a non-flexible array member field" } */
struct number { int n; int a[] __attribute__ ((counted_by (3))); }; /* { dg-error "'counted_by' argument is not an identifier" } */

/* Two counted_by naming different members: an error, not a warning;
   naming the same member twice is fine.  */
struct two { int n, m; int a[] __attribute__ ((counted_by (n), counted_by (m))); }; /* { dg-error "'counted_by' argument 'm' conflicts with previous declaration 'n'" } */
struct three { int n, m, k; int a[] __attribute__ ((counted_by (n))) __attribute__ ((counted_by (m))) __attribute__ ((counted_by (k))); }; /* { dg-error "'counted_by' argument '\[mk\]' conflicts with previous declaration 'n'" } */
struct back { int n, m; int a[] __attribute__ ((counted_by (n), counted_by (m), counted_by (n))); }; /* { dg-error "'counted_by' argument 'm' conflicts with previous declaration 'n'" } */

/* The counter belongs to the structure that holds the array: an array
   in an anonymous structure does not see the enclosing one's members.  */
struct outer_counter { int n; struct { int x; int a[] __attribute__ ((counted_by (n))); }; }; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration in the same structure as 'a'" } */
struct named_member { struct inner { int n; } in; int a[] __attribute__ ((counted_by (n))); }; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration in the same structure as 'a'" } */

/* Unnamed types are checked too, through any depth of anonymous members.  */
typedef struct { float n; int a[] __attribute__ ((counted_by (n))); } float_typedef; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration with an integer type" } */
struct deep_pointer { struct { struct { struct { int *n; }; }; }; int a[] __attribute__ ((counted_by (n))); }; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration with an integer type" } */
struct struct_counter { struct { int q; } n; int a[] __attribute__ ((counted_by (n))); }; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration with an integer type" } */

/* Naming a rejected type again says nothing more.  */
struct used { float n; int a[] __attribute__ ((counted_by (n))); }; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration with an integer type" } */

int
use (struct used *p, struct two *q, struct outer_counter *r)
{
  struct used *copy = p;
  return sizeof (struct used) + copy->a[0] + q->a[1] + r->a[2] + sizeof (struct two);
}

/* Each message above exactly once (two for struct three).  */
/* { dg-final { scan-diagnostics-times "error: " 14 } } */
