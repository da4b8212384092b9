/* A count the counter cannot hold fails the allocation, so where every
   count it can hold gives a size that fits (a u16 counter), kalloc
   computes the size from the count with no other check: a count that
   makes the size wrap must still fail, by the range check.  Where a
   count the counter holds can wrap the size (a long counter), the
   size's own arithmetic stays checked.  */
/* { dg-do run } */

#include "kernel.h"

struct u16_count { u64 id; u16 count; u32 data[] __counted_by (count); };
struct long_count { long count; u32 data[] __counted_by (count); };

int
main (void)
{
  struct u16_count *a;
  struct long_count *b;
  /* n * 4 wraps to 0.  */
  size_t wrap = OPAQUE (SIZE_MAX / 4 + 1);

  a = kmalloc (sizeof (*a) + wrap * sizeof (u32), GFP_KERNEL);
  CHECK (a == NULL);
  kfree (a);

  a = kzalloc (struct_size (a, data, wrap), GFP_KERNEL);
  CHECK (a == NULL);
  kfree (a);

  a = kmalloc (sizeof (*a) + OPAQUE ((size_t) 65535) * sizeof (u32), GFP_KERNEL);
  CHECK (a && a->count == 65535);
  CHECK (kstub_last_size == sizeof (*a) + 65535 * sizeof (u32));
  kfree (a);

  b = kmalloc (sizeof (*b) + wrap * sizeof (u32), GFP_KERNEL);
  CHECK (b == NULL);
  kfree (b);

  b = kmalloc (sizeof (*b) + OPAQUE ((size_t) 3) * sizeof (u32), GFP_KERNEL);
  CHECK (b && b->count == 3);
  CHECK (kstub_last_size == sizeof (*b) + 3 * sizeof (u32));
  kfree (b);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
