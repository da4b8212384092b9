/* Open-coded array sizes (n * sizeof (*p)) are overflow-checked: a
   wrapping product asks for SIZE_MAX, so the allocation fails, as
   kmalloc_objs () does; in-range sizes are exact.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct foo { long long a, b, c; };

/* A count whose product with sizeof (struct foo) wraps to a few bytes.  */
#define WRAP_COUNT (SIZE_MAX / sizeof (struct foo) + 2)

static struct device dev;

static struct foo *
product_in_earlier_statement (size_t n)
{
  size_t bytes = n * sizeof (struct foo);
  struct foo *p = kmalloc (bytes, GFP_KERNEL);
  return p;
}

static struct foo *
narrow_signed_count (int n)
{
  struct foo *p = kzalloc (n * sizeof (*p), GFP_KERNEL);
  return p;
}

static void *
untyped_product (size_t n)
{
  return kvmalloc (sizeof (u64) * n, GFP_KERNEL);
}

static struct foo *
two_factors (size_t rows, size_t cols)
{
  return kmalloc (rows * cols * sizeof (struct foo), GFP_KERNEL);
}

int
main (void)
{
  size_t n = OPAQUE ((size_t) 10);
  size_t wrap = OPAQUE ((size_t) WRAP_COUNT);
  struct foo *p;

  /* In range: the exact size.  */
  p = kmalloc (n * sizeof (*p), GFP_KERNEL);
  CHECK (p && kstub_last_size == 10 * sizeof (struct foo));
  kfree (p);
  p = product_in_earlier_statement (n);
  CHECK (p && kstub_last_size == 10 * sizeof (struct foo));
  kfree (p);

  /* Wrapping: every family fails instead of returning 16 bytes.  */
  p = kmalloc (wrap * sizeof (*p), GFP_KERNEL);
  CHECK (p == NULL && kstub_last_size == SIZE_MAX);
  p = kzalloc (sizeof (*p) * wrap, GFP_KERNEL);
  CHECK (p == NULL);
  p = kmalloc_node (wrap * sizeof (*p), GFP_KERNEL, 0);
  CHECK (p == NULL);
  p = kzalloc_node (wrap * sizeof (*p), GFP_KERNEL, 0);
  CHECK (p == NULL);
  p = kvmalloc (wrap * sizeof (*p), GFP_KERNEL);
  CHECK (p == NULL);
  p = kvzalloc (wrap * sizeof (*p), GFP_KERNEL);
  CHECK (p == NULL);
  p = devm_kmalloc (&dev, wrap * sizeof (*p), GFP_KERNEL);
  CHECK (p == NULL);
  p = devm_kzalloc (&dev, wrap * sizeof (*p), GFP_KERNEL);
  CHECK (p == NULL);
  p = product_in_earlier_statement (wrap);
  CHECK (p == NULL);

  /* A negative int count widens to a huge size_t: it must fail.  */
  p = narrow_signed_count (OPAQUE (-1));
  CHECK (p == NULL);
  p = narrow_signed_count (OPAQUE (3));
  CHECK (p && kstub_last_size == 3 * sizeof (struct foo));
  kfree (p);

  /* Untyped buffers are sizes too.  */
  void *buf = untyped_product (OPAQUE ((SIZE_MAX >> 3) + 3));
  CHECK (buf == NULL);

  /* rows * cols wraps before the sizeof: both products are checked.  */
  p = two_factors (OPAQUE (SIZE_MAX / 4 + 1), OPAQUE ((size_t) 8));
  CHECK (p == NULL);
  p = two_factors (OPAQUE ((size_t) 2), OPAQUE ((size_t) 3));
  CHECK (p && kstub_last_size == 6 * sizeof (struct foo));
  kfree (p);

  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
/* { dg-final { scan-kalloc-dump "kind=array pointee=struct foo .* saturate" } } */
