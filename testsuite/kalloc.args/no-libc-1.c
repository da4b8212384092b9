/* no-libc: the C library's allocators are no sites, neither by their row
   nor by glibc's alloc_size on them; other functions declared with
   alloc_size still are.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-libc -fplugin-arg-kalloc-dump" } */

#include <stdlib.h>

struct foo { long long a, b, c; };
void *g_malloc (size_t n_bytes) __attribute__ ((__malloc__, __alloc_size__ (1)));

struct foo *
use (size_t n, struct foo *old)
{
  struct foo *p = malloc (sizeof (p)); /* { dg-bogus "allocates" } */
  struct foo *q = calloc (n, sizeof (int)); /* { dg-bogus "element size" } */
  struct foo *r = realloc (old, n * sizeof (int)); /* { dg-bogus "element size" } */
  struct foo *s = aligned_alloc (64, sizeof (s)); /* { dg-bogus "allocates" } */
  struct foo *t = g_malloc (sizeof (t)); /* { dg-warning "'g_malloc' allocates \[48\] bytes, the size of a pointer" } */
  (void) q; (void) r; (void) s; (void) t;
  return p;
}

/* { dg-final { scan-kalloc-dump-times "kalloc: line" 1 } } */
/* { dg-final { scan-kalloc-dump-not " (malloc|calloc|realloc|aligned_alloc) kind" } } */
