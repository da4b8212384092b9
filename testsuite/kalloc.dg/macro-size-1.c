/* A size written with macros is read as the compiler expanded it, the
   same text a .i holds (a distcc helper compiles that): object-like
   and function-like macros, nesting, # and ##, variadic arguments.
   The helpers kalloc knows by name stay as written.  */
/* { dg-do compile } */

#include "kernel.h"

struct foo { int a, b; };
struct bar { int c, d; };
struct bar_tag { int c, d; };
struct wide { u32 n; u64 fam[]; };
struct hdr { u32 n; u32 items[]; };

#define OBJ_SIZE sizeof (struct bar)
#define FOO_SIZE sizeof (struct foo)
#define SIZE_OF(x) sizeof (x)
#define ELEM u32
#define WIDE_SIZE(n) (sizeof (struct wide) + (n) * sizeof (ELEM))
#define TAG_SIZE(t) sizeof (struct t##_tag)
#define FIRST(x, ...) x
#define COUNT_OF(...) (0, ##__VA_ARGS__)
#define HDR_SIZE(p, n) struct_size (p, items, n)
#define n_items n_items

struct foo *object_like (void)
{
  struct foo *f = kmalloc (OBJ_SIZE, GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct bar' for 'struct foo': the sizes match \\(8 bytes\\) only by accident" } */
  return f;
}

struct foo *object_like_right (void)
{
  struct foo *f = kmalloc (FOO_SIZE, GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return f;
}

struct foo *function_like (void)
{
  struct foo *f = kmalloc (SIZE_OF (struct bar), GFP_KERNEL); /* { dg-warning "sizes 'struct bar' for 'struct foo'" } */
  return f;
}

struct wide *nested (size_t n)
{
  struct wide *w = kmalloc (WIDE_SIZE (n), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 4-byte elements for 'struct wide', whose flexible array 'fam' has 8-byte elements" } */
  return w;
}

struct foo *pasted (void)
{
  struct foo *f = kmalloc (TAG_SIZE (bar), GFP_KERNEL); /* { dg-warning "sizes 'struct bar_tag' for 'struct foo'" } */
  return f;
}

struct foo *variadic (void)
{
  struct foo *f = kmalloc (FIRST (sizeof (struct bar), 1, 2), GFP_KERNEL); /* { dg-warning "sizes 'struct bar' for 'struct foo'" } */
  return f;
}

struct foo *variadic_none (void)
{
  struct foo *f = kmalloc (sizeof (struct foo) + COUNT_OF (), GFP_KERNEL); /* { dg-bogus "warning" } */
  return f;
}

/* A macro that names itself is left alone, as cpp leaves it.  */
struct foo *self_named (size_t n_items)
{
  struct foo *f = kcalloc (n_items, sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "warning" } */
  return f;
}

/* struct_size () inside a macro: recognised by its name.  */
struct hdr *helper_inside (size_t n)
{
  struct hdr *h = kmalloc (HDR_SIZE (h, n), GFP_KERNEL); /* { dg-bogus "warning" } */
  return h;
}
