/* no-wrappers: no wrapper is learnt from its body; calls to it are no
   sites, and the allocator call in its body is one again.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-wrappers -fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct foo
{
  u64 a, b, c;
};

static void *
drv_alloc (size_t size, gfp_t gfp)
{
  return kmalloc (size, gfp);
}

struct foo *
use (void)
{
  struct foo *p = drv_alloc (sizeof (p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  return p;
}

/* { dg-final { scan-kalloc-dump-not "kalloc: wrapper" } } */
/* { dg-final { scan-kalloc-dump-times "kalloc: line 16 kmalloc kind=opaque" 1 } } */
/* { dg-final { scan-kalloc-dump-not "drv_alloc kind" } } */
