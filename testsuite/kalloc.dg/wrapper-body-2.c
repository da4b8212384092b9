/* Functions that are no allocator wrappers (docs/allocators.md): their
   size is computed from their parameters (the caller's hardening would
   saturate it to SIZE_MAX, which + 16 wraps), their result is offset,
   stored elsewhere, another block or a constant other than NULL, their size parameter is narrower
   than size_t, or they wrap a resizing allocator.  Calls to them are no
   sites: nothing is said about them.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct foo
{
  u64 a, b, c;
};

static void *
hdr_alloc (size_t size)
{
  return kmalloc (size + 16, GFP_KERNEL);
}

static void *
prod_alloc (size_t n, size_t size)
{
  return kmalloc (n * size, GFP_KERNEL);
}

static void *
offset_alloc (size_t size)
{
  char *p = kmalloc (size, GFP_KERNEL);
  return p ? p + 8 : NULL;
}

static void *last_block;

static void *
tracked_alloc (size_t size)
{
  void *p = kmalloc (size, GFP_KERNEL);
  last_block = p;
  return p;
}

static char pool[64];

static void *
pool_or_alloc (size_t size)
{
  if (size <= sizeof pool)
    return pool;
  return kmalloc (size, GFP_KERNEL);
}

/* A pointer that is no block (the kernel's ZERO_SIZE_PTR): a counter
   store at the caller would write through it.  */
static void *
zero_size_alloc (size_t size)
{
  if (!size)
    return (void *) 16;
  return kmalloc (size, GFP_KERNEL);
}

static void *
narrow_alloc (u16 size)
{
  return kmalloc (size, GFP_KERNEL);
}

static void *
fixed_alloc (size_t size)
{
  (void) size;
  return kmalloc (64, GFP_KERNEL);
}

static void *
grow (void *old, size_t size)
{
  return realloc (old, size);
}

struct foo *
use (void *old)
{
  struct foo *a = hdr_alloc (sizeof (a)); /* { dg-bogus "allocates" } */
  struct foo *b = prod_alloc (1, sizeof (b)); /* { dg-bogus "allocates|element size" } */
  struct foo *c = offset_alloc (sizeof (c)); /* { dg-bogus "allocates" } */
  struct foo *d = tracked_alloc (sizeof (d)); /* { dg-bogus "allocates" } */
  struct foo *e = pool_or_alloc (sizeof (e)); /* { dg-bogus "allocates" } */
  struct foo *f = narrow_alloc (sizeof (f)); /* { dg-bogus "allocates" } */
  struct foo *g = fixed_alloc (sizeof (g)); /* { dg-bogus "allocates" } */
  struct foo *h = grow (old, sizeof (h)); /* { dg-bogus "allocates" } */
  struct foo *i = zero_size_alloc (sizeof (i)); /* { dg-bogus "allocates" } */
  (void) i;
  (void) b; (void) c; (void) d; (void) e; (void) f; (void) g; (void) h;
  return a;
}

/* { dg-final { scan-kalloc-dump-not "kalloc: wrapper" } } */
