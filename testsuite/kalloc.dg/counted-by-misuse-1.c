/* Misusing counted_by is an error, in GCC 15's words, whether GCC or
   kalloc provides the attribute.  */
/* { dg-do compile } */

struct not_flexible { int count; int data[4] __attribute__ ((__counted_by__ (count))); }; /* { dg-error "'counted_by' attribute is not allowed for a non-flexible array member field" } */
int not_a_field __attribute__ ((__counted_by__ (count))); /* { dg-error "'counted_by' attribute is not allowed for a non-field declaration" } */
struct no_counter { int count; int data[] __attribute__ ((__counted_by__ (missing))); }; /* { dg-error "argument 'missing' to the 'counted_by' attribute is not a field declaration in the same structure" } */
struct float_counter { float count; int data[] __attribute__ ((__counted_by__ (count))); }; /* { dg-error "argument 'count' to the 'counted_by' attribute is not a field declaration with an integer type" } */
