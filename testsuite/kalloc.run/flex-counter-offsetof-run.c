/* A flexible-array size with an offsetof () header (the array's offset,
   less than sizeof where the structure has tail padding) is a flex site
   like struct_size (): the counter is set and the size kept exact.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct padded { u64 id; u32 count; u32 data[] __counted_by (count); };
struct bytes { u64 id; u8 count; u8 data[] __counted_by (count); };

int
main (void)
{
  size_t n = OPAQUE ((size_t) 5);
  struct padded *a;
  struct bytes *b;

  CHECK (offsetof (struct padded, data) < sizeof (struct padded));
  a = kmalloc (offsetof (struct padded, data) + n * sizeof (u32), GFP_KERNEL);
  CHECK (a && a->count == 5);
  CHECK (kstub_last_size == offsetof (struct padded, data) + 5 * sizeof (u32));
  kfree (a);

  a = kmalloc (offsetof (struct padded, data[n]), GFP_KERNEL);
  CHECK (a && a->count == 5);
  kfree (a);

  b = kmalloc (offsetof (struct bytes, data) + n, GFP_KERNEL);
  CHECK (b && b->count == 5);
  CHECK (kstub_last_size == offsetof (struct bytes, data) + 5);
  kfree (b);

  /* 256 does not fit the u8 counter.  */
  b = kmalloc (offsetof (struct bytes, data[OPAQUE ((size_t) 256)]), GFP_KERNEL);
  CHECK (b == NULL);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct padded \[^\\n\]*counter-store" 2 } } */
