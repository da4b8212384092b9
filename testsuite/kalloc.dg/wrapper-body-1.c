/* Allocator wrappers learnt from their bodies (docs/allocators.md): a
   function that returns a known allocator's result (or NULL) and passes
   its own size, count and GFP parameters to it unchanged is an
   allocator too, and its callers' lines are warned about.  Static
   functions of this file, static inline ones from a header, wrappers
   of wrappers, wrappers defined after their callers.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"
#include "drv-wrappers.h"

struct foo
{
  u64 a, b, c;
};

static void *
drv_alloc (size_t size, gfp_t gfp)
{
  return kmalloc (size, gfp);
}

static void *
drv_zalloc (size_t size)
{
  void *p = kzalloc (size, GFP_KERNEL);
  if (!p)
    return NULL;
  return p;
}

static void *
drv_xzalloc (size_t size)
{
  void *p = malloc (size);
  if (p)
    memset (p, 0, size);
  return p;
}

/* A pool handle first, the size second.  */
static void *
pool_get (void *pool, size_t size, gfp_t gfp)
{
  (void) pool;
  return drv_alloc (size, gfp);
}

/* kvmalloc ()-like: two allocators, the same roles.  */
static void *
drv_big_alloc (size_t size, gfp_t gfp)
{
  if (size > 4096)
    return malloc (size);
  return kmalloc (size, gfp);
}

static void *drv_late_alloc (size_t size);

struct foo *
use (size_t n, void *pool)
{
  struct foo *a = drv_alloc (sizeof (a), GFP_KERNEL); /* { dg-warning "'drv_alloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo', which needs 24" } */
  struct foo *b = drv_zalloc (sizeof (b)); /* { dg-warning "'drv_zalloc' allocates \[48\] bytes" } */
  struct foo *c = drv_xzalloc (sizeof (c)); /* { dg-warning "'drv_xzalloc' allocates \[48\] bytes" } */
  struct foo *d = pool_get (pool, sizeof (d), GFP_KERNEL); /* { dg-warning "'pool_get' allocates \[48\] bytes" } */
  struct foo *e = drv_big_alloc (sizeof (e), GFP_KERNEL); /* { dg-warning "'drv_big_alloc' allocates \[48\] bytes" } */
  struct foo *f = drv_late_alloc (sizeof (f)); /* { dg-warning "'drv_late_alloc' allocates \[48\] bytes" } */
  struct foo *g = osal_zalloc (sizeof (g), GFP_KERNEL); /* { dg-warning "'osal_zalloc' allocates \[48\] bytes" } */
  struct foo *h = osal_calloc (n, sizeof (h), GFP_KERNEL); /* { dg-warning "'osal_calloc' element size \[48\] does not match 'struct foo'" } */
  /* Correct calls.  */
  struct foo *i = drv_alloc (sizeof (*i), GFP_KERNEL); /* { dg-bogus "allocates" } */
  struct foo *j = osal_calloc (n, sizeof (*j), GFP_KERNEL); /* { dg-bogus "element size" } */
  struct foo *k = drv_zalloc (n * sizeof (*k)); /* { dg-bogus "element size" } */
  (void) b; (void) c; (void) d; (void) e; (void) f; (void) g; (void) h;
  (void) i; (void) j; (void) k;
  return a;
}

static void *
drv_late_alloc (size_t size)
{
  return kmalloc (size, GFP_ATOMIC);
}

/* { dg-final { scan-kalloc-dump "wrapper drv_alloc:size,gfp calls kmalloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper drv_zalloc:size calls kzalloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper drv_xzalloc:size calls malloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper pool_get:_,size,gfp calls drv_alloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper drv_big_alloc:size,gfp calls k?malloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper drv_late_alloc:size calls kmalloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper osal_zalloc:size,gfp calls kzalloc" } } */
/* { dg-final { scan-kalloc-dump "wrapper osal_calloc:count,size,gfp calls (kcalloc|kmalloc_array)" } } */
/* The wrappers' own calls are no sites: their callers' are.  */
/* { dg-final { scan-kalloc-dump-times "kalloc: line" 11 } } */
