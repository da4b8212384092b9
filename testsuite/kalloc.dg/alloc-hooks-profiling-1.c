/* The alloc_hooks () of kernels with CONFIG_MEM_ALLOC_PROFILING, where
   the allocation is written twice (tag saved or not): two calls, one
   source line, one warning; the result reaches the pointer through a
   PHI of the statement-expression temporary.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

extern int profiling_enabled;
#define hooked(_do_alloc)                                                     \
  ({                                                                          \
    typeof (_do_alloc) _res;                                                  \
    if (profiling_enabled)                                                    \
      _res = _do_alloc;                                                       \
    else                                                                      \
      _res = _do_alloc;                                                       \
    _res;                                                                     \
  })
#undef kmalloc
#define kmalloc(...) hooked (kmalloc_noprof (__VA_ARGS__))
#ifndef KSHAPE_HOOKS
#define kmalloc_noprof(size, flags) (kmalloc) (size, flags)
#endif

struct foo { long long a, b, c; };

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates \[48\] bytes" } */
  kfree (p);
  return kmalloc (n * sizeof (struct foo), GFP_KERNEL);
}

/* Both copies of each call are seen and hardened.  */
/* { dg-final { scan-kalloc-dump-times "kind=object pointee=struct foo" 2 } } */
/* { dg-final { scan-kalloc-dump-times "kind=array pointee=struct foo count=\[^ \]* saturate" 2 } } */
