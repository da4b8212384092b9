/* Without counted_by, kalloc stores no counter: the allocation is left
   exactly as the program wrote it (memory stays poisoned).  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct plain { u8 count; u32 data[]; };

int
main (void)
{
  size_t n = OPAQUE ((size_t) 300);
  struct plain *p = kmalloc (struct_size (p, data, n), GFP_KERNEL);
  CHECK (p && p->count == 0xa5);
  CHECK (kstub_last_size == sizeof (*p) + 300 * 4);
  kfree (p);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct plain" } } */
/* { dg-final { scan-kalloc-dump-not "counter-store" } } */
