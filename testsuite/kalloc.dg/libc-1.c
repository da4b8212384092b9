/* The C library's allocators and functions declared with alloc_size are
   allocators, with kmalloc ()'s warnings on the very line.  */
/* { dg-do compile } */

#include <stdlib.h>

struct foo { long long a, b, c; };
struct wrong { int x; };

/* GLib's declarations, as gmem.h has them.  */
void *g_malloc (size_t n_bytes) __attribute__ ((__malloc__, __alloc_size__ (1)));
void *g_malloc_n (size_t n_blocks, size_t n_block_bytes)
  __attribute__ ((__malloc__, __alloc_size__ (1, 2)));
void *g_realloc (void *mem, size_t n_bytes) __attribute__ ((__alloc_size__ (2)));
void *plain_alloc (size_t n);	/* no attribute: not an allocator */

struct foo *
use (size_t n, struct foo *o1, struct foo *o2, struct foo *o3)
{
  struct foo *p = malloc (sizeof (p)); /* { dg-warning "'malloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo'" } */
  struct foo *q = calloc (n, sizeof (struct wrong)); /* { dg-warning "'calloc' element size 4 does not match 'struct foo' of 24 bytes" } */
  struct foo *r = realloc (o1, n * sizeof (struct wrong)); /* { dg-warning "'realloc' element size 4 does not match 'struct foo'" } */
  struct foo *s = reallocarray (o2, n, sizeof (struct wrong)); /* { dg-warning "'reallocarray' element size 4 does not match 'struct foo'" } */
  struct foo *t = aligned_alloc (64, sizeof (t)); /* { dg-warning "'aligned_alloc' allocates \[48\] bytes" } */
  struct foo *u = g_malloc (sizeof (u)); /* { dg-warning "'g_malloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo'" } */
  struct foo *v = g_malloc_n (n, sizeof (struct wrong)); /* { dg-warning "'g_malloc_n' element size 4 does not match 'struct foo'" } */
  struct foo *w = g_realloc (o3, n * sizeof (struct wrong)); /* { dg-warning "'g_realloc' element size 4 does not match 'struct foo'" } */
  struct foo *x = plain_alloc (sizeof (x)); /* { dg-bogus "allocates" } */
  (void) q; (void) r; (void) s; (void) t; (void) u; (void) v; (void) w;
  (void) x;
  return p;
}

/* Correct code: nothing said.  */
struct foo *
correct (size_t n, struct foo *o1, struct foo *o2)
{
  struct foo *p = malloc (sizeof (*p)); /* { dg-bogus "allocates|element size|warning" } */
  struct foo *q = calloc (n, sizeof (*q)); /* { dg-bogus "element size|warning" } */
  struct foo *r = realloc (o1, n * sizeof (*r)); /* { dg-bogus "element size|warning" } */
  struct foo *s = reallocarray (o2, n, sizeof (struct foo)); /* { dg-bogus "element size|warning" } */
  struct foo *t = aligned_alloc (64, 2 * sizeof (struct foo)); /* { dg-bogus "allocates|warning" } */
  struct foo *u = g_malloc_n (n, sizeof (*u)); /* { dg-bogus "element size|warning" } */
  char *bytes = malloc (n); /* { dg-bogus "warning" } */
  struct foo **ptrs = calloc (n, sizeof (struct foo *)); /* { dg-bogus "warning" } */
  (void) q; (void) r; (void) s; (void) t; (void) u; (void) bytes;
  (void) ptrs;
  return p;
}

/* A wrapper's own body is not a site: its callers are.  */
__attribute__ ((__malloc__, __alloc_size__ (1))) void *
xmalloc (size_t n)
{
  void *p = malloc (n); /* { dg-bogus "warning" } */
  if (!p)
    abort ();
  return p;
}

struct foo *
use_wrapper (void)
{
  struct foo *p = xmalloc (sizeof (p)); /* { dg-warning "'xmalloc' allocates \[48\] bytes, the size of a pointer" } */
  return p;
}
