/* no-counted-by: kalloc does not provide the counted_by attribute, so
   __has_attribute (__counted_by__) is false on GCC 11-14 (kernel headers
   keep their annotations off) and nothing sets a counter.  GCC 15 and
   later have their own attribute.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-counted-by -fplugin-arg-kalloc-dump" } */

#include "kernel.h"

#if __GNUC__ < 15 && defined(__has_attribute)
#if __has_attribute (__counted_by__)
#error "no-counted-by: kalloc provides counted_by"
#endif
#endif

struct flex { int n; u32 data[] __counted_by (n); };

struct flex *f (size_t n)
{
  struct flex *p = kmalloc (struct_size (p, data, n), GFP_KERNEL); /* { dg-bogus "allocates" } */
  return p;
}

/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct flex" } } */
