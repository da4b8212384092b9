/* no-counter-store: counted_by counters are left as the program has
   them (poisoned by kmalloc (), zero from kzalloc ()), while counts the
   counter cannot hold still fail the allocation.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-no-counter-store -fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct u8_count { int id; u8 count; u32 data[] __counted_by (count); };
struct int_count { long id; int count; u16 data[] __counted_by (count); };

int
main (void)
{
  size_t n = OPAQUE ((size_t) 5);
  struct u8_count *a;
  struct int_count *b;

  /* Not stored: kmalloc () memory keeps its poison (0xa5).  */
  a = kmalloc (struct_size (a, data, n), GFP_KERNEL);
  CHECK (a && a->count == 0xa5);
  CHECK (kstub_last_size == sizeof (*a) + 5 * sizeof (u32));
  kfree (a);

  b = kzalloc (sizeof (*b) + n * sizeof (b->data[0]), GFP_KERNEL);
  CHECK (b && b->count == 0);
  kfree (b);

  /* Still checked: 256 does not fit a u8 counter.  */
  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 256)), GFP_KERNEL);
  CHECK (a == NULL);
  kfree (a);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct u8_count .*counter-check" } } */
/* { dg-final { scan-kalloc-dump-not "kalloc: line \\d+ \[^\\n\]* counter-store" } } */
