/* What the type warning leaves alone: the same type spelt
   another way, and the shapes real code uses on purpose.  */
/* { dg-do compile } */

#include <stddef.h>
#include "kernel.h"
#include "kalloc.h"

struct foo { long a, b; };
typedef struct foo foo_t;
typedef struct { int x, y; } point_t;
typedef struct { int x, y; } coord_t;
struct wrapped { struct foo inner; };
struct bar { long c, d; };
union u { struct foo f; struct bar b; };
struct one_byte { u8 v; };
struct counter { u32 v; };
struct flex_hdr { u32 n; u32 pad; u64 items[]; };
struct msg { struct { u32 len; u32 type; } h; u8 body[]; };

struct holder { const struct foo *src; struct foo *dst; };

/* The same type through typedefs, qualifiers, expressions.  */
struct foo *same_type (struct foo *other, const struct foo *csrc,
		       struct holder *h)
{
  struct foo *p = kmalloc (sizeof (foo_t), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  p = kmalloc (sizeof (const struct foo), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  p = kmalloc (sizeof (*other), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  p = kmalloc (sizeof (*csrc), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  p = kmalloc (sizeof *h->src, GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  foo_t *q = kcalloc (4, sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (q);
  volatile struct foo *v = kmalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree ((void *) v);
  h->dst = kmalloc (sizeof (*h->src), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-bogus "only by accident" } */
}

/* Two identical anonymous definitions are one layout.  */
point_t *anonymous (void)
{
  point_t *p = kmalloc (sizeof (coord_t), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return p;
}

/* A larger object stored as a pointer to its first member.  */
struct foo *container (void)
{
  struct foo *f = kzalloc (sizeof (struct wrapped), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return f;
}

/* Unions are views of one object.  */
struct foo *unions (union u *x)
{
  struct foo *f = kmalloc (sizeof (union u), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (f);
  union u *y = kmalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (y);
  return kmalloc (sizeof (*x), GFP_KERNEL); /* { dg-bogus "only by accident" } */
}

/* Byte buffers and scalars: no structure to grow.  */
void *buffers (size_t n)
{
  u8 *b = kmalloc (sizeof (struct counter), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (b);
  char *c = kcalloc (n, sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (c);
  u32 *w = kmalloc (sizeof (struct counter), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (w);
  struct one_byte *o = kmalloc (n * sizeof (u8), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (o);
  int *i = kcalloc (n, sizeof (u32), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (i);
  return kmalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "only by accident" } */
}

/* Arrays of pointers: void * is "some pointer"; a pointer to another
   structure is the wrong type (type-pointers-1.c has the rest).  */
struct foo **pointer_arrays (size_t n)
{
  struct foo **v = kcalloc (n, sizeof (void *), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (v);
  v = kmalloc_array (n, sizeof (struct bar *), GFP_KERNEL); /* { dg-warning "sizes 'struct bar \\*' for elements of 'struct foo \\*': pointers to other types" } */
  return v;
}

/* Flexible-array headers written with offsetof ().  */
struct flex_hdr *offsetof_headers (size_t n)
{
  struct flex_hdr *p = kmalloc (offsetof (struct flex_hdr, items) + n * sizeof (u64), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  struct msg *m = kmalloc (offsetof (struct msg, body) + n, GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (m);
  p = kmalloc (struct_size (p, items, n), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return p;
}

/* What kalloc cannot read is not guessed at: casts, typeof.  (Macros
   are read as the compiler expanded them: macro-size-1.c.)  */
struct foo *unreadable (struct bar *b)
{
  struct foo *f = kmalloc (sizeof (*(struct bar *) b), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (f);
  f = kmalloc (sizeof (__typeof__ (*b)), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return f;
}

/* A local name hides a file-scope one of another type.  */
struct bar *file_bar;
struct foo *shadowed (void)
{
  struct foo *file_bar = kmalloc (sizeof (struct foo), GFP_KERNEL);
  struct foo *f = kmalloc (sizeof (*file_bar), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (file_bar);
  return f;
}

/* The usual silencing works for this kind too.  */
struct foo *silenced (void)
{
  struct foo *f;
  KALLOC_IGNORE_NEXT
  f = kmalloc (sizeof (struct bar), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (f);
  f = kmalloc (sizeof (struct bar), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct bar' for 'struct foo'" } */
  return f;
}

/* A sum whose '*' binds a constant only: the header is *h, not a u64
   (the same size on every target).  */
struct one_u64 { u64 v; };
struct one_u64 *header_and_payload (struct one_u64 *q)
{
  struct one_u64 *h = kmalloc (sizeof (*h) + 4 * sizeof (u64), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (h);
  h = kmalloc (q->v * sizeof (struct counter) * 2, GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return h;
}

/* A structure that is its first member and a flexible array, allocated
   as the member's size and a tail (crypto/drbg.c, struct sdesc, in
   Linux 6.1: a false positive on a real kernel).  A structure that only
   wraps its first member, with no tail, is still another type.  */
struct desc { void *tfm; u64 flags; };
struct sdesc { struct desc shash; char ctx[]; };
struct sdesc_nested { struct wrapped w; u8 tail[]; };
struct sdesc *header_with_tail (unsigned int descsize)
{
  struct sdesc *s = kzalloc (sizeof (struct desc) + descsize, GFP_KERNEL); /* { dg-bogus "only by accident|allocates|element" } */
  kfree (s);
  s = kmalloc (sizeof (struct desc), GFP_KERNEL); /* { dg-bogus "only by accident|allocates" } */
  kfree (s);
  struct sdesc_nested *n = kzalloc (sizeof (struct foo) + descsize, GFP_KERNEL); /* { dg-bogus "only by accident|allocates|element" } */
  kfree (n);
  return kzalloc (sizeof (struct desc) + descsize, GFP_KERNEL); /* { dg-bogus "only by accident|allocates|element" } */
}

struct wrapped *wrapper_without_tail (void)
{
  struct wrapped *w = kmalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct foo' for 'struct wrapped'" } */
  return w;
}
