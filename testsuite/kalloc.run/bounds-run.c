/* -fsanitize=bounds checks an index into a counted_by flexible array
   against the counter, as GCC 15 does natively: same message, same
   location.  In bounds is silent.  */
/* { dg-do run } */
/* { dg-require-sanitize-bounds "" } */
/* { dg-options "-fsanitize=bounds" } */

#include "kernel.h"

struct foo { int a; int counter; short array[] __counted_by (counter); };

__attribute__ ((noinline)) static int
get (struct foo *p, int i)
{
  return p->array[i];
}

__attribute__ ((noinline)) static void
set (struct foo *p, int i, short v)
{
  p->array[i] = v;
}

int
main (void)
{
  struct foo *h = malloc (sizeof (*h) + 10 * sizeof (short));
  h->counter = 3;
  set (h, OPAQUE (2), 5);
  CHECK (get (h, OPAQUE (2)) == 5);
  set (h, OPAQUE (3), 7);	/* out of bounds for the counter */
  free (h);
  return kstub_failures != 0;
}

/* { dg-output "bounds-run.c:21:\[0-9\]+: runtime error: index 3 out of bounds for type 'short int \\\[\\\*\\\]'" } */
/* { dg-final { fails-without-plugin "unless-native-counted-by" } } */
