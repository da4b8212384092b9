/* What GCC 15's native counted_by accepts, kalloc's accepts too: any
   integral counter (_Bool, enumerations, bit-fields, const), counters
   nested in anonymous structures and unions at any depth, the same
   annotation twice (make check-counted-by compares this file with
   GCC 15 itself).  */
/* { dg-do compile } */
/* { dg-require-no-native-counted-by "" } */

enum count { NONE, ONE, TWO };

struct bool_counter { _Bool n; int a[] __attribute__ ((counted_by (n))); };
struct enum_counter { enum count n; int a[] __attribute__ ((counted_by (n))); };
struct packed_enum_counter { enum __attribute__ ((packed)) { P0, P1 } n; char a[] __attribute__ ((counted_by (n))); };
struct nested { struct { short flags; struct { unsigned char n; }; }; int a[] __attribute__ ((counted_by (n))); };
struct deep { struct { struct { struct { struct { union { long l; _Bool n; }; }; }; }; }; long a[] __attribute__ ((counted_by (n))); };
struct in_union { union { long l; unsigned n; }; int a[] __attribute__ ((counted_by (n))); };
struct inner_both { int m; struct { int n; int a[] __attribute__ ((counted_by (n))); }; };
struct bit_field { unsigned n : 4; int a[] __attribute__ ((counted_by (n))); };
struct const_counter { const int n; int a[] __attribute__ ((counted_by (n))); };
struct twice { int n; int a[] __attribute__ ((counted_by (n), counted_by (n))); };
struct twice_apart { int n; int a[] __attribute__ ((counted_by (n))) __attribute__ ((__counted_by__ (n))); };
struct before { int n; __attribute__ ((counted_by (n))) int a[]; };
struct rows { int n; int a[][4] __attribute__ ((counted_by (n))); };
typedef struct { long long n; int a[] __attribute__ ((counted_by (n))); } long_typedef;

int
use (struct bool_counter *b, struct enum_counter *e, struct deep *d,
     struct inner_both *i, long_typedef *t)
{
  return b->a[0] + e->a[1] + d->a[2] + i->a[3] + t->a[4]
	 + sizeof (struct bool_counter) + sizeof (long_typedef);
}
