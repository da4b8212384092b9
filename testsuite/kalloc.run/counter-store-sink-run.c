/* The counter store is branch-free: after the call, its address is the
   counter's or, when the allocation failed, a sink's (a static of the
   translation unit), chosen by a conditional move.  A bit-field or
   packed counter, whose address cannot be taken, is stored under a
   branch.  Either way: counters set on success, nothing but the sink
   written on failure, in a loop and in several functions.  The helpers
   set their counters themselves too, as legacy code does, after a look
   at the counter kalloc stored in memory that kmalloc () does not zero
   (without kalloc that read sees whatever the block held).  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct plain { long id; u16 count; u32 data[] __counted_by (count); };
struct deep { long id; struct { int flags; struct { u8 count; }; }; u64 data[] __counted_by (count); };
struct bits { long id; unsigned count : 12; unsigned flags : 20; u16 data[] __counted_by (count); };
struct __attribute__ ((__packed__)) tight { char tag; u16 count; u32 data[] __counted_by (count); };

/* The counter as the allocation left it, before the helper's store.  */
static size_t seen_count;

static struct plain *
new_plain (size_t n)
{
  struct plain *p = kmalloc (struct_size (p, data, n), GFP_KERNEL);
  return p;
}

static struct deep *
new_deep (size_t n)
{
  struct deep *p = kmalloc (struct_size (p, data, n), GFP_KERNEL);
  if (p)
    {
      seen_count = p->count;	/* kalloc's, before the code's own */
      p->count = n;
      p->flags = 0;
    }
  return p;
}

static struct bits *
new_bits (size_t n)
{
  struct bits *p = kmalloc (struct_size (p, data, n), GFP_KERNEL);
  if (p)
    {
      seen_count = p->count;	/* kalloc's, before the code's own */
      p->count = n;
      p->flags = 0;
    }
  return p;
}

static struct tight *
new_tight (size_t n)
{
  struct tight *p = kmalloc (struct_size (p, data, n), GFP_KERNEL);
  if (p)
    {
      seen_count = p->count;	/* kalloc's, before the code's own */
      p->count = n;
      p->tag = 0;
    }
  return p;
}

int
main (void)
{
  /* Success and failure (a count the counter cannot hold) in turn, in
     one function: the failures write the sink, never memory at NULL.  */
  for (size_t i = 0; i < 8; i++)
    {
      size_t n = OPAQUE (i & 1 ? (size_t) 70000 : i);
      struct plain *p = kmalloc (struct_size (p, data, n), GFP_KERNEL);
      if (i & 1)
	CHECK (p == NULL);
      else
	CHECK (p && p->count == i && kstub_last_size == sizeof (*p) + 4 * i);
      kfree (p);
    }

  struct plain *a = new_plain (OPAQUE ((size_t) 9));
  CHECK (a && a->count == 9);
  kfree (a);
  CHECK (new_plain (OPAQUE ((size_t) 65536)) == NULL);

  struct deep *d = new_deep (OPAQUE ((size_t) 200));
  CHECK (d && seen_count == 200 && d->flags == 0);
  kfree (d);
  CHECK (new_deep (OPAQUE ((size_t) 256)) == NULL);

  struct bits *b = new_bits (OPAQUE ((size_t) 4095));
  CHECK (b && seen_count == 4095 && b->flags == 0);
  kfree (b);
  CHECK (new_bits (OPAQUE ((size_t) 4096)) == NULL);

  struct tight *t = new_tight (OPAQUE ((size_t) 3));
  CHECK (t && seen_count == 3 && t->tag == 0);
  kfree (t);
  CHECK (new_tight (OPAQUE ((size_t) 65536)) == NULL);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct plain\[^\n\]* counter-store(\n| counter-from| warned)" } } */
/* { dg-final { scan-kalloc-dump-not "pointee=struct plain\[^\n\]*counter-store-branch" } } */
/* { dg-final { scan-kalloc-dump-not "pointee=struct deep\[^\n\]*counter-store-branch" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct bits\[^\n\]* counter-store counter-store-branch" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct tight\[^\n\]* counter-store counter-store-branch" } } */
/* { dg-final { fails-without-plugin } } */
