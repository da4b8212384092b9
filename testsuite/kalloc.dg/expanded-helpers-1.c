/* struct_size () and flex_array_size () as a .i holds them, expanded by
   the preprocessor (what a distcc or icecream helper compiles): Linux
   6.2+'s __builtin_choose_expr () form, 6.1's __ab_c_size (), and
   struct_size_t ()'s (TYPE *) NULL.  Read as the helpers written.  */
/* { dg-do compile } */

#include "kernel.h"

struct wide2 { u64 id; u32 n; u32 other[3]; u64 fam[] __counted_by (n); };
struct other_hdr { u32 n; u32 pad; u32 items[]; };
struct hdr { u32 n; u32 pad; u32 items[]; };

/* Linux 6.1: struct_size (p, other, n).  */
static inline size_t
__ab_c_size (size_t a, size_t b, size_t c)
{
  return size_add (size_mul (a, b), c);
}

struct wide2 *linux61_wrong_member (size_t n)
{
  struct wide2 *p = kmalloc (__ab_c_size (n, sizeof (*(p)->other) + 0, sizeof (*(p))), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct wide2', whose flexible array 'fam' has 8-byte elements" } */
  return p;
}

struct wide2 *linux61_right (size_t n)
{
  struct wide2 *p = kmalloc (__ab_c_size (n, sizeof (*(p)->fam) + 0, sizeof (*(p))), GFP_KERNEL); /* { dg-bogus "warning" } */
  return p;
}

/* Linux 6.2+: struct_size (o, items, n) with another structure's pointer.  */
struct hdr *choose_other_pointer (size_t n, struct other_hdr *o)
{
  struct hdr *p = kmalloc (__builtin_choose_expr (__builtin_constant_p (n), sizeof (*(o)) + (n) * sizeof (*(o)->items), size_add (sizeof (*(o)), __builtin_choose_expr (__builtin_constant_p (n), (n) * sizeof (*(o)->items) + 0, size_mul (n, sizeof (*(o)->items) + 0)))), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct other_hdr' for 'struct hdr': the sizes match \\(8 bytes\\) only by accident" } */
  return p;
}

/* struct_size_t (struct wide2, other, n), NULL expanded.  */
struct wide2 *by_type_wrong_member (size_t n)
{
  return kmalloc (size_add (sizeof (*((struct wide2 *) ((void *) 0))), size_mul (n, sizeof (*((struct wide2 *) ((void *) 0))->other) + 0)), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct wide2'" } */
}

/* sizeof (*p) + flex_array_size (p, fam, n), expanded: right.  */
struct wide2 *flex_array_size_right (size_t n)
{
  struct wide2 *p = kmalloc (sizeof (*p) + __builtin_choose_expr (__builtin_constant_p (n), (n) * sizeof (*(p)->fam) + 0, size_mul (n, sizeof (*(p)->fam) + 0)), GFP_KERNEL); /* { dg-bogus "warning" } */
  return p;
}
