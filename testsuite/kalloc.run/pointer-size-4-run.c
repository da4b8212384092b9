/* On a 32-bit target size_t is 32 bits: n * sizeof (struct foo) wraps
   at 4 GiB, far below where it wraps on LP64.  kalloc checks it in the
   target's size_t.  */
/* { dg-do run } */
/* { dg-require-pointer-size 4 } */

#include "kernel.h"

struct foo { long a, b, c; };	/* 12 bytes */

int
main (void)
{
  /* 12 * 0x15555556 = 0x100000008: 8 bytes after the 32-bit wrap.  */
  size_t n = OPAQUE ((size_t) 0x15555556u);
  struct foo *p = kmalloc (n * sizeof (*p), GFP_KERNEL);
  CHECK (p == NULL && kstub_last_size == 0xffffffffu);
  p = kmalloc (OPAQUE ((size_t) 5) * sizeof (*p), GFP_KERNEL);
  CHECK (p && kstub_last_size == 60);
  kfree (p);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
