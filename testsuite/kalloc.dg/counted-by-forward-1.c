/* A structure declared before it is defined, and used while incomplete,
   is checked at its definition all the same: the front end reports the
   type at every use, and kalloc skips only repeats of a complete type
   (its cache of finished types).  */
/* { dg-do compile } */
/* { dg-require-no-native-counted-by "" } */

struct later;
struct later *first_use (struct later *p);
struct later *second_use (struct later *p, struct later *q);
struct later { float n; int a[] __attribute__ ((counted_by (n))); }; /* { dg-error "argument 'n' to the 'counted_by' attribute is not a field declaration with an integer type" } */
struct later *after (struct later *p) { return p; }

struct fine;
struct fine *use_fine (struct fine *p);
struct fine { int n; int a[] __attribute__ ((counted_by (n))); }; /* { dg-bogus "counted_by" } */
struct fine *after_fine (struct fine *p) { return p; }
