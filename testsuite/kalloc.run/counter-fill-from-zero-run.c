/* Counters that count elements used, not allocated: a
   structure filled as p->items[p->count++] = x after kzalloc (), or
   after the code stores 0 itself.  Setting such a counter to the
   capacity at allocation, as kmalloc_flex () does, sends the first
   element past the end; kalloc leaves these counters alone and says why
   in the report: the zeroed counter is read before it is set (log), or
   the first store is 0 (ring).  A counter only tested in memory kmalloc ()
   does not zero is still set (table).  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct log { u32 count; u32 pad; u64 items[] __counted_by (count); };
struct ring { u16 used; u16 cap; u32 items[] __counted_by (used); };
struct table { int n; int pad; u32 items[] __counted_by (n); };

static struct log *
log_fill (size_t n)
{
  struct log *l = kzalloc (struct_size (l, items, n), GFP_KERNEL);
  if (!l)
    return NULL;
  for (size_t i = 0; i < n; i++)
    l->items[l->count++] = i * 3;
  return l;
}

static struct ring *
ring_fill (size_t n)
{
  struct ring *r = kmalloc (struct_size (r, items, n), GFP_KERNEL);
  if (!r)
    return NULL;
  r->used = 0;
  r->cap = n;
  while (r->used < r->cap)
    {
      r->items[r->used] = 7;
      r->used++;
    }
  return r;
}

/* Only tested, never used as an index: the counter is set.  */
static struct table *
table_new (size_t n)
{
  struct table *t = kmalloc (struct_size (t, items, n), GFP_KERNEL);
  if (t && t->n != (int) n)
    {
      kfree (t);
      return NULL;
    }
  return t;
}

int
main (void)
{
  size_t n = OPAQUE ((size_t) 4);
  struct log *l = log_fill (n);
  CHECK (l && l->count == 4 && l->items[3] == 9);
  CHECK (kstub_last_size == sizeof (*l) + 4 * sizeof (u64));
  kfree (l);

  struct ring *r = ring_fill (n);
  CHECK (r && r->used == 4 && r->items[3] == 7);
  kfree (r);

  struct table *t = table_new (n);
  CHECK (t && t->n == 4);
  kfree (t);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct log \[^\n\]*counter-left=\"read before set\"" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct ring \[^\n\]*counter-left=\"filled from zero\"" } } */
/* { dg-final { scan-kalloc-dump-not "kind=flex pointee=struct log \[^\n\]*counter-store" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct table \[^\n\]*counter-store" } } */
