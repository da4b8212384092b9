/* Wrong types of the right size: sizeof names another
   structure than the one the result is stored as.  The sizes match, so
   nothing overflows today; the day one of the structures grows, it
   does.  kmalloc_obj () would have refused each of these.  */
/* { dg-do compile } */
/* { dg-options "-fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct foo_ops { void (*open) (void); void (*close) (void); };
struct bar_ops { void (*start) (void); void (*stop) (void); };
typedef struct bar_ops bar_ops_t;
struct a { u32 x, y; };
struct b { u64 z; };
struct node { struct node *next; long key; };
struct elem { long key; struct node *next; };
struct hdr { u32 n; u32 pad; struct b items[]; };
struct other_hdr { u64 n; struct b items[]; };

struct holder { struct bar_ops *ops; struct b *v; };

/* The classic: another ops structure's sizeof.  */
struct bar_ops *named_tag (void)
{
  struct bar_ops *ops = kzalloc (sizeof (struct foo_ops), GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct foo_ops' for 'struct bar_ops': the sizes match \\(\[0-9\]+ bytes\\) only by accident; did you mean 'sizeof \\(\\*ops\\)'" } */
  return ops;
}

/* Through a typedef of the destination: still the wrong type.  */
bar_ops_t *typedef_dest (void)
{
  bar_ops_t *ops = kmalloc (sizeof (struct foo_ops), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct foo_ops' for 'bar_ops_t' \\{aka 'struct bar_ops'\\}: the sizes match" } */
  return ops;
}

/* sizeof (*other), copied from the line above.  */
void copied_line (struct holder *h, struct foo_ops *fops)
{
  fops = kzalloc (sizeof (*fops), GFP_KERNEL);
  h->ops = kzalloc (sizeof (*fops), GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct foo_ops' for 'struct bar_ops': the sizes match \\(\[0-9\]+ bytes\\) only by accident; did you mean 'sizeof \\(\\*h->ops\\)'" } */
  kfree (fops);
}

/* An array of one structure sized with another's element.  */
struct b *array_of_other (size_t n)
{
  struct b *v = kcalloc (n, sizeof (struct a), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'struct a' for 'struct b': the sizes match \\(8 bytes\\) only by accident; did you mean 'sizeof \\(\\*v\\)'" } */
  return v;
}

struct b *array_open_coded (size_t n, struct a *src)
{
  struct b *v = kmalloc_array (n, sizeof (*src), GFP_KERNEL); /* { dg-warning "'kmalloc_array' sizes 'struct a' for 'struct b'" } */
  kfree (v);
  v = kmalloc (n * sizeof (struct a), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct a' for 'struct b'" } */
  kfree (v);
  v = kcalloc (sizeof (src[0]), n, GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'struct a' for 'struct b'" } */
  return v;
}

/* Same members, other order: a different structure.  */
struct elem *reordered (void)
{
  struct elem *e = kmalloc (sizeof (struct node), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct node' for 'struct elem'" } */
  return e;
}

/* A member's type through -> and [].  */
struct a *member_path (struct holder *h)
{
  struct a *x = kmalloc (sizeof (h->v[0]), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct b' for 'struct a'" } */
  return x;
}

/* struct_size () with another structure's pointer.  */
struct hdr *flex_other (size_t n, struct other_hdr *o)
{
  struct hdr *p = kmalloc (struct_size (o, items, n), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct other_hdr' for 'struct hdr': the sizes match \\(8 bytes\\) only by accident; did you mean 'struct_size \\(p, ...\\)'" } */
  return p;
}

/* The fix-it replaces the operand with the destination.  */
struct bar_ops *fixit (void)
{
  struct bar_ops *q = kmalloc (sizeof (struct foo_ops), GFP_KERNEL); /* { dg-warning "only by accident" } */
  return q;
}
/* { dg-final { scan-fixit "fix-it:\"\[^\"\]*type-1.c\":\{\[0-9\]+:\[0-9\]+-\[0-9\]+:\[0-9\]+\}:\"\\*q\"" } } */

/* Where the result goes: returned, through an out-parameter, after a
   cast; the allocator: devm_, kvcalloc, an open product, array_size ().  */
struct bar_ops *returned (void)
{
  return kzalloc (sizeof (struct foo_ops), GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct foo_ops' for 'struct bar_ops'" } */
}

void out_param (struct bar_ops **out)
{
  *out = kzalloc (sizeof (struct foo_ops), GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct foo_ops' for 'struct bar_ops'" } */
}

struct bar_ops *cast (void)
{
  struct bar_ops *ops = (struct bar_ops *) kzalloc (sizeof (struct foo_ops), GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct foo_ops' for 'struct bar_ops'" } */
  return ops;
}

struct b *allocators (struct device *dev, size_t n)
{
  struct b *v = devm_kzalloc (dev, sizeof (struct a), GFP_KERNEL); /* { dg-warning "'devm_kzalloc' sizes 'struct a' for 'struct b'" } */
  v = kvcalloc (n, sizeof (struct a), GFP_KERNEL); /* { dg-warning "'kvcalloc' sizes 'struct a' for 'struct b'" } */
  kvfree (v);
  v = kmalloc (sizeof (struct a) * n, GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct a' for 'struct b'" } */
  kfree (v);
  v = kmalloc (array_size (n, sizeof (struct a)), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct a' for 'struct b'" } */
  return v;
}

/* A local that only sizeof uses: optimisation drops it from its block,
   kalloc still knows it.  */
struct b *sizeof_only_local (void)
{
  struct a tmp;
  struct b *v = kmalloc (sizeof (tmp), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct a' for 'struct b'" } */
  return v;
}

/* A constant number of them: an object of a constant size to kalloc.  */
struct b *constant_count (struct a *src)
{
  struct b *v = kzalloc (sizeof (struct a) * 4, GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct a' for 'struct b'" } */
  kfree (v);
  v = kmalloc (2 * sizeof (*src), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct a' for 'struct b'" } */
  kfree (v);
  v = kmalloc (4 * sizeof (struct b), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return v;
}
