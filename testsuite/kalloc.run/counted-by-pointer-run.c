/* GCC 16 counts pointer members with counted_by itself; with kalloc
   loaded the answers stay GCC's (docs/object-size.md): at -O2 the object
   size of p->data follows the counter, and an allocation stored into
   the member does not set the counter (kalloc sets counters of flexible
   arrays only, as kmalloc_flex () does).  */
/* { dg-do run } */
/* { dg-require-pointer-counted-by yes } */

#include "kernel.h"

struct buf { int n; s16 *data __attribute__ ((__counted_by__ (n))); };

static volatile int opaque_index = 3;

__attribute__ ((noinline)) static size_t
data_size (struct buf *b)
{
  return __builtin_dynamic_object_size (b->data, 1);
}

__attribute__ ((noinline)) static size_t
tail_size (struct buf *b, int i)
{
  return __builtin_dynamic_object_size (&b->data[i], 1);
}

int
main (void)
{
  struct buf *b = kmalloc (sizeof (*b), GFP_KERNEL);
  b->n = 0;
  b->data = kmalloc_array (10, sizeof (*b->data), GFP_KERNEL);
  CHECK (b->n == 0);
#ifdef __OPTIMIZE__
  CHECK (data_size (b) == 0);
  b->n = 5;
  CHECK (data_size (b) == 10);
  CHECK (tail_size (b, opaque_index) == 4);
  b->n = -1;
  CHECK (data_size (b) == 0);
#else
  CHECK (data_size (b) == (size_t) -1);
#endif
  kfree (b->data);
  kfree (b);
  return kstub_failures != 0;
}
