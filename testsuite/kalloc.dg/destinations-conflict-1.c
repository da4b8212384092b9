/* Two destinations of different types: kalloc does not guess which one
   the allocation is for, and says nothing, whichever it meets first.
   Each type alone would warn (the size is short for both), so a plugin
   that took either one would.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct baz { long long x, y; };

void *two_types (struct foo **a, struct baz **b)
{
  void *mem = kmalloc (8, GFP_KERNEL); /* { dg-bogus "allocates" } */
  *a = mem;
  *b = mem;
  return mem;
}

void *two_types_reversed (struct foo **a, struct baz **b)
{
  void *mem = kzalloc (12, GFP_KERNEL); /* { dg-bogus "allocates" } */
  *b = mem;
  *a = mem;
  return mem;
}

/* A field and the return value disagree.  */
struct holder { struct baz *b; };
struct foo *field_and_return (struct holder *h, size_t n)
{
  void *mem = kcalloc (n, 4, GFP_KERNEL); /* { dg-bogus "element size" } */
  h->b = mem;
  return mem;
}

/* One type through two destinations is no conflict.  */
void *same_type (struct foo **a, struct foo **b)
{
  void *mem;
  /* Not at column 15: DejaGnu would take ":43:15:" for line 15 too.  */
  mem = kmalloc (8, GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 8 bytes.* for 'struct foo', which needs 24" } */
  *a = mem;
  *b = mem;
  return mem;
}

/* { dg-final { scan-kalloc-dump-times "pointee=" 1 } } */
