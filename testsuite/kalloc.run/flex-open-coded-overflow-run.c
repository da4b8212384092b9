/* An open-coded flexible size, sizeof (*p) + n * sizeof (elem), wraps
   without kalloc; with it, every step saturates and the allocation
   fails.  */
/* { dg-do run } */

#include "kernel.h"

struct msg { u64 id; u32 len; u32 data[]; };

int
main (void)
{
  struct msg *p;
  /* 16 + n * 4 wraps to 12 for this n.  */
  size_t wrap = OPAQUE (SIZE_MAX / 4);
  p = kmalloc (sizeof (*p) + wrap * sizeof (u32), GFP_KERNEL);
  CHECK (p == NULL);
  p = kzalloc (sizeof (*p) + OPAQUE ((size_t) 3) * sizeof (p->data[0]), GFP_KERNEL);
  CHECK (p && kstub_last_size == 28);
  kfree (p);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
