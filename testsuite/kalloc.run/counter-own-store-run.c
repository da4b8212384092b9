/* kalloc's own counter stores are not the code's.  Sites are rewritten
   last first; a counter store kalloc added after a later allocation of
   the same structure must not count as "the allocating function sets
   the counter" for an earlier one.  Here the earlier allocation is
   zeroed and its array is filled from zero elsewhere (pool_add ()), the
   later one is not zeroed and gets kalloc's store: the earlier counter
   must be left alone, or the first pool_add () writes past the end.
   The first use after each call is found once per function and counter
   (counter.c), before any rewrite.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct pool { long id; u32 used; u32 items[] __counted_by (used); };

__attribute__ ((__noinline__)) static void
pool_add (struct pool *p, u32 v)
{
  p->items[p->used++] = v;
}

__attribute__ ((__noinline__)) static void
two_pools (size_t n, struct pool **zeroed, struct pool **set)
{
  *zeroed = kzalloc (struct_size (*zeroed, items, n), GFP_KERNEL);
  *set = kmalloc (struct_size (*set, items, n), GFP_KERNEL);
}

int
main (void)
{
  size_t cap = OPAQUE ((size_t) 3);
  struct pool *zeroed, *set;
  two_pools (cap, &zeroed, &set);
  CHECK (zeroed && set);
  if (zeroed && set)
    {
      CHECK (zeroed->used == 0);
      pool_add (zeroed, 7);
      CHECK (zeroed->used == 1 && zeroed->items[0] == 7);
      CHECK (set->used == 3);
    }
  kfree (zeroed);
  kfree (set);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct pool \[^\n\]*counter-left=\"escapes before set\"" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct pool \[^\n\]*counter-store" } } */
