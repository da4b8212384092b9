/* A term converted from a signed value may be negative: C's size_t
   arithmetic is modular, so n * sizeof (u64) + adj with adj = -3 is a
   subtraction, not a carry.  Such sizes keep the program's own bytes, as
   do subtractions, negated terms and struct_size () of a sum with a
   negative term; only a size whose exact value is above SIZE_MAX is an
   overflow, which must still fail the allocation.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct hdr { u64 id; u32 data[]; };

int
main (void)
{
  size_t n = OPAQUE ((size_t) 10);
  int adj = OPAQUE (-3);
  long skip = OPAQUE (-3L);
  s8 off = OPAQUE ((s8) -2);
  size_t base = OPAQUE ((size_t) 5);
  size_t m = OPAQUE ((size_t) 4);
  /* Times 8, 2 ** N + 16: past SIZE_MAX by 17 bytes.  */
  size_t big = OPAQUE (SIZE_MAX / 8 + 3);

  u64 *p = kmalloc (n * sizeof (u64) + adj, GFP_KERNEL);
  CHECK (p && kstub_last_size == 77);
  kfree (p);

  p = kmalloc ((n + skip) * sizeof (*p), GFP_KERNEL);
  CHECK (p && kstub_last_size == 56);
  kfree (p);

  p = kmalloc (n * sizeof (u64) - 4, GFP_KERNEL);
  CHECK (p && kstub_last_size == 76);
  kfree (p);

  p = kmalloc ((n - m) * sizeof (u64), GFP_KERNEL);
  CHECK (p && kstub_last_size == 48);
  kfree (p);

  p = kmalloc (n * sizeof (u64) - m * 2 * sizeof (u64), GFP_KERNEL);
  CHECK (p && kstub_last_size == 16);
  kfree (p);

  struct hdr *h = kmalloc (struct_size (h, data, base + off), GFP_KERNEL);
  CHECK (h && kstub_last_size == sizeof (*h) + 3 * sizeof (u32));
  kfree (h);

  /* A negative size stays the program's wrapped value.  */
  p = kmalloc (m * sizeof (u64) + (long) adj * 16, GFP_KERNEL);
  CHECK (kstub_last_size == (size_t) 32 - 48);
  kfree (p);

  /* The product leaves size_t before the negative term brings it back:
     3 less is still above it.  */
  p = kmalloc (big * sizeof (u64) + adj, GFP_KERNEL);
  CHECK (p == NULL && kstub_last_size == SIZE_MAX);

  /* ... and 32 less brings it back to 2 ** N - 16: no overflow.  */
  p = kmalloc (big * sizeof (u64) + adj * 11 + 1, GFP_KERNEL);
  CHECK (kstub_last_size == (size_t) 0 - 16);
  kfree (p);

  /* GCC folds (-4 - 4 * n) * 12 into ~n * 48: ~n is -1 - n, a negative
     term, not a carry.  */
  p = kmalloc (((size_t) 12 - ((size_t) 16 + n * 4)) * 12 + n, GFP_KERNEL);
  CHECK (p == NULL && kstub_last_size == (size_t) -518);
  kfree (p);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
/* { dg-final { scan-kalloc-dump-times " saturate" 10 } } */
