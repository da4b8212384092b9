/* A function declared with alloc_size is an allocator with no option: a
   driver's own wrapper (__alloc_size, a gfp_t argument) and a GLib-style
   g_malloc_n () are hardened at their callers as kmalloc () is: a product
   with a constant element size that wraps asks for SIZE_MAX and fails;
   a counted_by counter is set.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct rec
{
  u64 a, b;
};

struct table
{
  u32 pad[4];
  u16 n;
  u32 slots[] __counted_by (n);
};

/* The driver's wrapper, in another file as far as kalloc knows.  */
__attribute__ ((__noinline__)) __alloc_size (1) __malloc static void *
drv_zalloc (size_t size, gfp_t gfp)
{
  return kzalloc (size, gfp);
}

/* GLib's g_malloc_n () checks its own product; g_malloc () does not.  */
__attribute__ ((__noinline__)) __alloc_size (1) __malloc static void *
my_g_malloc (size_t n_bytes)
{
  return kmalloc (n_bytes, GFP_KERNEL);
}

int
main (void)
{
  volatile size_t n = SIZE_MAX / sizeof (struct rec) + 2;
  volatile size_t ok = 5;

  struct rec *r = drv_zalloc (n * sizeof (*r), GFP_KERNEL);
  CHECK (r == NULL);
  CHECK (kstub_last_size == SIZE_MAX_T);
  kfree (r);

  r = my_g_malloc (n * sizeof (struct rec));
  CHECK (r == NULL);
  kfree (r);

  r = my_g_malloc (ok * sizeof (struct rec));
  CHECK (r != NULL);
  kfree (r);

  /* The counter, set from the count at allocation: in zeroed memory
     only because nothing reads it before the code's own store (the
     dump shows the store); a counter left to another function, or read
     first, is left alone.  */
  struct table *t = drv_zalloc (struct_size (t, slots, ok), GFP_KERNEL);
  CHECK (t != NULL);
  if (t)
    {
      t->n = ok;
      CHECK (t->n == 5);
    }
  kfree (t);
  /* A count the u16 counter cannot hold fails.  */
  volatile size_t big = 70000;
  t = drv_zalloc (struct_size (t, slots, big), GFP_KERNEL);
  CHECK (t == NULL);
  if (t)
    t->n = big;
  kfree (t);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump-times "drv_zalloc kind=flex pointee=struct table count=\\S+ counter-check counter-store" 2 } } */
