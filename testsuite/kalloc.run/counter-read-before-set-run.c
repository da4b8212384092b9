/* In zeroed memory a program may rely on the counter's zero: count up
   from it, test it, add to it, read it through another member of a
   union, copy it, hand the object to a function that does, before any
   store of its own.  kalloc then must not set the counter: each function
   below prints what it prints without kalloc (a counter set to the
   capacity would send the fills past the end, or change what is
   printed).  kmalloc () followed by memset () is zeroed memory too.  */
/* { dg-do run } */
/* GCC 11 at -O2 -flto warns that struct_size ()'s saturated SIZE_MAX
   may reach kmalloc () in memset_then_count (), with or without kalloc.  */
/* { dg-options "-fplugin-arg-kalloc-dump -Wno-alloc-size-larger-than" } */

#include <string.h>
#include "kernel.h"

struct bag { u32 n; u32 pad; u64 items[] __counted_by (n); };
struct raw_bag { union { u32 n; u32 raw; }; u32 pad; u64 items[] __counted_by (n); };

static u32 seen;

__attribute__ ((__noinline__)) static struct bag *
increment_first (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  for (u32 i = 0; i < 2; i++)
    {
      b->n++;
      b->items[b->n - 1] = i + 10;
    }
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
pre_increment_index (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  b->items[++b->n - 1] = 5;
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
test_for_zero (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (b && b->n == 0)
    b->pad = 77;
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
compound_add (size_t cap, u32 k)
{
  struct bag *b = kvzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  b->n += k;
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
count_up_loop (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  while (b->n < 2)
    b->n++;
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
through_pointer (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  u32 *n = &b->n;
  seen = *n;
  b->n = 1;
  return b;
}

__attribute__ ((__noinline__)) static struct raw_bag *
union_member (size_t cap)
{
  struct raw_bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  seen = b->raw;
  b->n = 1;
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
copy_out (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  struct bag head;
  memcpy (&head, b, sizeof head);
  seen = head.n;
  b->n = 1;
  return b;
}

__attribute__ ((__noinline__)) static struct bag *
memset_then_count (size_t cap)
{
  struct bag *b = kmalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  memset (b, 0, struct_size (b, items, cap));
  b->n++;
  b->items[b->n - 1] = 1;
  return b;
}

__attribute__ ((__noinline__)) static void
add_one (struct bag *b, u64 v)
{
  b->items[b->n++] = v;
}

__attribute__ ((__noinline__)) static struct bag *
passed_to_call (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  add_one (b, 3);
  add_one (b, 4);
  return b;
}

static struct bag *published;

__attribute__ ((__noinline__)) static void
add_published (u64 v)
{
  published->items[published->n++] = v;
}

__attribute__ ((__noinline__)) static struct bag *
published_first (size_t cap)
{
  struct bag *b = kzalloc (struct_size (b, items, cap), GFP_KERNEL);
  if (!b)
    return NULL;
  published = b;
  add_published (6);
  return b;
}

int
main (void)
{
  size_t cap = OPAQUE ((size_t) 8);
  struct bag *b;

  b = increment_first (cap);
  CHECK (b && b->n == 2 && b->items[1] == 11);
  kfree (b);
  b = pre_increment_index (cap);
  CHECK (b && b->n == 1 && b->items[0] == 5);
  kfree (b);
  b = test_for_zero (cap);
  CHECK (b && b->n == 0 && b->pad == 77);
  kfree (b);
  b = compound_add (cap, OPAQUE (3u));
  CHECK (b && b->n == 3);
  kvfree (b);
  b = count_up_loop (cap);
  CHECK (b && b->n == 2);
  kfree (b);
  seen = 99;
  b = through_pointer (cap);
  CHECK (b && seen == 0);
  kfree (b);
  seen = 99;
  struct raw_bag *r = union_member (cap);
  CHECK (r && seen == 0 && r->n == 1);
  kfree (r);
  seen = 99;
  b = copy_out (cap);
  CHECK (b && seen == 0);
  kfree (b);
  b = memset_then_count (cap);
  CHECK (b && b->n == 1 && b->items[0] == 1);
  kfree (b);
  b = passed_to_call (cap);
  CHECK (b && b->n == 2 && b->items[1] == 4);
  kfree (b);
  b = published_first (cap);
  CHECK (b && b->n == 1 && b->items[0] == 6);
  kfree (b);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct bag \[^\n\]*counter-left=\"read before set\"" 8 } } */
/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct bag \[^\n\]*counter-left=\"escapes before set\"" 2 } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct raw_bag \[^\n\]*counter-left=\"read before set\"" } } */
/* { dg-final { scan-kalloc-dump-not "counter-(store|check)" } } */
