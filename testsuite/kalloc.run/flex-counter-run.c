/* kmalloc (struct_size (p, fam, n)) behaves as kmalloc_flex (): the
   counted_by counter is set at allocation, in its own type and
   position; the size is exact.  In zeroed memory (kzalloc () and the
   like) the counter is set early only where nothing can read it before
   the function's own store, so no correct program sees the difference
   there: the dump shows the store, the run that nothing else changed
   (counter-set-elsewhere-run.c and counter-read-before-set-run.c have
   the counters left alone).  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct u8_first { u8 count; long pad; u32 data[] __counted_by (count); };
struct u16_middle { long a; u16 count; short b; u64 data[] __counted_by (count); };
struct int_last { long a; int b; int count; u8 data[] __counted_by (count); };
struct size_counter { size_t count; struct { int x, y; } data[] __counted_by (count); };
struct nested { long id; struct { int flags; unsigned short count; }; u16 data[] __counted_by (count); };

static struct device dev;

int
main (void)
{
  size_t n = OPAQUE ((size_t) 5);
  int m = OPAQUE (7);

  struct u8_first *a = kmalloc (struct_size (a, data, n), GFP_KERNEL);
  CHECK (a && a->count == 5);
  CHECK (kstub_last_size == sizeof (*a) + 5 * sizeof (u32));
  kfree (a);

  struct u16_middle *b = kzalloc (struct_size (b, data, m), GFP_KERNEL);
  if (b)
    b->count = m;		/* the code's own store, after kalloc's */
  CHECK (b && b->count == 7 && b->a == 0 && b->b == 0);
  CHECK (kstub_last_size == sizeof (*b) + 7 * sizeof (u64));
  kfree (b);

  /* Open-coded: sizeof (*p) + n * sizeof (p->fam[0]).  */
  struct int_last *c = kmalloc (sizeof (*c) + n * sizeof (c->data[0]), GFP_KERNEL);
  CHECK (c && c->count == 5);
  CHECK (kstub_last_size == sizeof (*c) + 5);
  kfree (c);

  struct size_counter *d = kvmalloc (struct_size (d, data, n), GFP_KERNEL);
  CHECK (d && d->count == 5);
  kvfree (d);

  struct nested *e = devm_kzalloc (&dev, struct_size (e, data, m), GFP_KERNEL);
  if (e)
    e->count = m;
  CHECK (e && e->count == 7 && e->flags == 0);
  kfree (e);

  struct u8_first *f = kvzalloc (struct_size_t (struct u8_first, data, n), GFP_KERNEL);
  if (f)
    f->count = n;
  CHECK (f && f->count == 5);
  kvfree (f);

  struct u16_middle *g = kmalloc_node (struct_size (g, data, n), GFP_KERNEL, 0);
  CHECK (g && g->count == 5);
  kfree (g);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
/* { dg-final { scan-kalloc-dump "line 28 kmalloc kind=flex pointee=struct u8_first\[^\n\]* counter-store" } } */
/* { dg-final { scan-kalloc-dump "line 33 kzalloc kind=flex pointee=struct u16_middle\[^\n\]* counter-store" } } */
/* { dg-final { scan-kalloc-dump "line 50 devm_kzalloc kind=flex pointee=struct nested\[^\n\]* counter-store" } } */
/* { dg-final { scan-kalloc-dump "line 56 \[a-z_\]+ kind=flex pointee=struct u8_first\[^\n\]* counter-store" } } */
