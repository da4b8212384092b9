/* A product of two run-time values (a * b) is left as the program wrote
   it, as upstream's typed allocators leave it: Linux's own overflow KUnit
   test (lib/overflow_kunit.c, overflow_allocation_test) allocates a
   wrapping a * b on purpose and expects it to succeed.  With a constant
   element size (a * b * sizeof (T)) the product is checked.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

#define TEST_SIZE (5 * 4096)

int
main (void)
{
  volatile size_t a = TEST_SIZE;
  volatile size_t b = (SIZE_MAX / TEST_SIZE) + 1;
  void *ptr = kmalloc (a * b, GFP_KERNEL);
  CHECK (ptr != NULL);		/* wrapped to 16 KiB, as written */
  CHECK (kstub_last_size == (size_t) TEST_SIZE * ((SIZE_MAX / TEST_SIZE) + 1));
  kfree (ptr);
  ptr = kmalloc (array_size (a, b), GFP_KERNEL);
  CHECK (ptr == NULL);		/* the kernel's own saturation */
  u64 *v = kmalloc (a * b * sizeof (u64), GFP_KERNEL);
  CHECK (v == NULL);		/* an element size: checked */
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump-times " saturate" 1 } } */
