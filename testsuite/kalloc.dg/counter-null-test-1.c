/* The walk that decides a counter store does not follow the path on
   which the allocation failed, however the test is written: if (!p),
   if (p), if (unlikely (!h->b)) through __builtin_expect ().  A zeroed
   object stored into a caller's structure and set before anything can
   read it gets its counter set; on the failure path there is no object
   to escape.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct bag { u32 n; u32 pad; u64 items[] __counted_by (n); };
struct holder { struct bag *b; };

int
expect_null (struct holder *h, size_t cap)
{
  h->b = kzalloc (struct_size (h->b, items, cap), GFP_KERNEL);
  if (__builtin_expect (!h->b, 0))
    return -1;
  h->b->n = cap;
  return 0;
}

int
expect_set (struct holder *h, size_t cap)
{
  h->b = kzalloc (struct_size (h->b, items, cap), GFP_KERNEL);
  if (__builtin_expect (h->b != NULL, 1))
    {
      h->b->n = cap;
      return 0;
    }
  return -1;
}

/* Without the test, the zeroed object reaches the caller unset.  */
int
no_test (struct holder *h, size_t cap)
{
  h->b = kzalloc (struct_size (h->b, items, cap), GFP_KERNEL);
  return h->b != NULL;
}

/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct bag \[^\n\]*counter-store" 2 } } */
/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct bag \[^\n\]*counter-left=\"escapes before set\"" 1 } } */
