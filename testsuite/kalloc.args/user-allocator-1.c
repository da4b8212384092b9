/* Users name their own allocators: xmalloc-style wrappers.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-alloc=xmalloc:size -fplugin-arg-kalloc-alloc=xcalloc:count,size -fplugin-arg-kalloc-alloc=pool_alloc:_,size,gfp" } */

#include <stddef.h>

struct foo { long long a, b, c; };
void *xmalloc (size_t);
void *xcalloc (size_t, size_t);
void *pool_alloc (void *pool, size_t size, unsigned flags);
void *other_alloc (size_t);

struct foo *use (void *pool, size_t n)
{
  struct foo *p = xmalloc (sizeof (p)); /* { dg-warning "'xmalloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo'" } */
  struct foo *q = xcalloc (n, sizeof (q)); /* { dg-warning "'xcalloc' element size \[48\] does not match 'struct foo'" } */
  struct foo *r = pool_alloc (pool, sizeof (r), 0); /* { dg-warning "'pool_alloc' allocates \[48\] bytes" } */
  struct foo *s = other_alloc (sizeof (s)); /* { dg-bogus "allocates" } */
  struct foo *t = xmalloc (sizeof (*t)); /* { dg-bogus "allocates" } */
  (void) q; (void) r; (void) s; (void) t;
  return p;
}
