/* A count the counter cannot hold fails the allocation, as Linux's
   deprecated.rst promises for kmalloc_flex (); the limit itself is
   allowed.  No counter is written through a failed (NULL) result.  */
/* { dg-do run } */

#include "kernel.h"

struct u8_count { int id; u8 count; u32 data[] __counted_by (count); };
struct s8_count { s8 count; u8 data[] __counted_by (count); };
struct u16_count { u16 count; u8 data[] __counted_by (count); };

int
main (void)
{
  struct u8_count *a;
  struct s8_count *b;
  struct u16_count *c;

  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 255)), GFP_KERNEL);
  CHECK (a && a->count == 255);
  CHECK (kstub_last_size == sizeof (*a) + 255 * 4);
  kfree (a);

  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 256)), GFP_KERNEL);
  CHECK (a == NULL);
  kfree (a);

  /* Zeroed memory: the code's own store, before any read, makes the
     counter kalloc's to set and check (one it never sets may be filled
     from that zero).  */
  b = kzalloc (struct_size (b, data, OPAQUE ((size_t) 127)), GFP_KERNEL);
  if (b)
    b->count = 127;
  CHECK (b && b->count == 127);
  kfree (b);

  b = kzalloc (struct_size (b, data, OPAQUE ((size_t) 128)), GFP_KERNEL);
  CHECK (b == NULL);
  if (b)
    b->count = 128;
  kfree (b);

  c = kvmalloc (sizeof (*c) + OPAQUE ((size_t) 65535) * sizeof (u8), GFP_KERNEL);
  CHECK (c && c->count == 65535);
  kvfree (c);

  c = kvmalloc (sizeof (*c) + OPAQUE ((size_t) 65536) * sizeof (u8), GFP_KERNEL);
  CHECK (c == NULL);
  kvfree (c);

  /* A failed allocation (too big for the allocator) writes nothing.  */
  struct big { size_t count; u64 data[] __counted_by (count); } *d;
  d = kmalloc (struct_size (d, data, OPAQUE (KMALLOC_MAX_SIZE)), GFP_KERNEL);
  CHECK (d == NULL);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
