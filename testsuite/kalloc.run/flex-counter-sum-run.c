/* A struct_size () count that is itself a sum of differently scaled
   terms (n * 80 + size_add (n, 3) * 2, with a signed n) is one count:
   size_mul () keeps it apart from the header, so it is no header with
   several trailing arrays.  The counter holds it, or the allocation
   fails when it cannot (check-sizes t207 found this site left opaque,
   the counter neither checked nor set).  */
/* { dg-do run } */

#include "kernel.h"

struct u8_count { u32 id; u8 count; u32 data[] __counted_by (count); };

__attribute__ ((__noinline__)) static struct u8_count *
alloc_sum (long n)
{
  struct u8_count *p;
  p = kmalloc (struct_size (p, data, (((size_t) 0 + n) * 40 + size_add (n, (size_t) 3)) * 2), GFP_KERNEL);
  return p;
}

int
main (void)
{
  struct u8_count *p = alloc_sum (OPAQUE (2L));
  /* (2 * 40 + 5) * 2 = 170 elements.  */
  CHECK (p && p->count == 170);
  CHECK (kstub_last_size == sizeof (*p) + 170 * 4);
  kfree (p);

  /* (100 * 40 + 103) * 2 = 8206: no u8 holds it.  */
  p = alloc_sum (OPAQUE (100L));
  CHECK (p == NULL);
  kfree (p);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
