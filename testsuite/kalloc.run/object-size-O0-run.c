/* At -O0 GCC 15 knows no object size, counted_by or not; neither does
   kalloc.  At -O2 the counter is followed (object-size-run.c).  */
/* { dg-do run } */
/* { dg-require-dynamic-object-size "" } */

#include "kernel.h"

struct foo { int a; u32 counter; s16 array[] __counted_by (counter); };

int
main (void)
{
  struct foo *h = malloc (sizeof (*h) + 10 * sizeof (s16));
  h->counter = 7;
#ifdef __OPTIMIZE__
  CHECK (__builtin_dynamic_object_size (h->array, 1) == 14);
#else
  CHECK (__builtin_dynamic_object_size (h->array, 1) == (size_t) -1);
  CHECK (__builtin_dynamic_object_size (h->array, 2) == 0);
#endif
  free (h);
  return kstub_failures != 0;
}
