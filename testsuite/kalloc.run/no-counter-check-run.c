/* no-counter-check: a count the counted_by counter cannot hold is
   allocated as the program asks (the counter gets the count truncated
   to its type), while counters are still set and sizes that overflow
   still fail.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-no-counter-check -fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct u8_count { int id; u8 count; u32 data[] __counted_by (count); };

int
main (void)
{
  struct u8_count *a;

  /* Still stored.  */
  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 5)), GFP_KERNEL);
  CHECK (a && a->count == 5);
  kfree (a);

  /* Not checked: 256 elements are allocated, the u8 counter wraps.  */
  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 256)), GFP_KERNEL);
  CHECK (a != NULL);
  CHECK (kstub_last_size == sizeof (*a) + 256 * sizeof (u32));
  CHECK (a && a->count == 0);
  kfree (a);

  /* An open-coded size that overflows still asks for SIZE_MAX.  */
  a = kmalloc (sizeof (*a) + OPAQUE (SIZE_MAX_T / 2) * sizeof (a->data[0]), GFP_KERNEL);
  CHECK (a == NULL);
  CHECK (kstub_last_size == SIZE_MAX_T);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct u8_count .*counter-store" } } */
/* { dg-final { scan-kalloc-dump-not "kalloc: line \\d+ \[^\\n\]* counter-check" } } */
