/* Counters GCC 15 accepts and kalloc used to refuse or not to set: a
   _Bool counter (it holds 0 or 1: a count of 2 fails the allocation),
   an enumeration, and a counter nested three anonymous members deep.
   Each is set at allocation, as for any other counter.  */
/* { dg-do run } */

#include "kernel.h"

enum items { NO_ITEMS, FEW_ITEMS = 5, MANY_ITEMS = 300 };

struct bool_count { long id; _Bool count; u32 data[] __counted_by (count); };
struct enum_count { enum items count; u16 data[] __counted_by (count); };
struct deep_count
{
  struct { int flags; struct { union { long word; u8 count; }; }; };
  u64 data[] __counted_by (count);
};

int
main (void)
{
  struct bool_count *a;
  struct enum_count *b;
  struct deep_count *c;

  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 1)), GFP_KERNEL);
  CHECK (a && a->count == 1);
  CHECK (kstub_last_size == sizeof (*a) + 4);
  kfree (a);

  a = kmalloc (struct_size (a, data, OPAQUE ((size_t) 2)), GFP_KERNEL);
  CHECK (a == NULL);
  kfree (a);

  b = kmalloc (struct_size (b, data, OPAQUE ((size_t) 300)), GFP_KERNEL);
  CHECK (b && b->count == MANY_ITEMS);
  kfree (b);

  c = kmalloc (struct_size (c, data, OPAQUE ((size_t) 200)), GFP_KERNEL);
  CHECK (c && c->count == 200);
  kfree (c);

  c = kmalloc (struct_size (c, data, OPAQUE ((size_t) 256)), GFP_KERNEL);
  CHECK (c == NULL);
  kfree (c);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
