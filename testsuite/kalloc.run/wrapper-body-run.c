/* A wrapper learnt from its body is hardened at its callers as the
   allocator it wraps would be: wrapper (n * sizeof (T)) whose product
   wraps asks for SIZE_MAX and fails (without kalloc: a 16-byte block for
   more than SIZE_MAX / 16 records); a counted_by counter is set.  The
   wrapper passes its size through unchanged, so SIZE_MAX reaches the
   allocator.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"
#include "drv-wrappers.h"

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

__attribute__ ((__noinline__)) static void *
drv_alloc (size_t size, gfp_t gfp)
{
  void *p = kmalloc (size, gfp);
  if (!p)
    return NULL;
  return p;
}

int
main (void)
{
  size_t n = OPAQUE (SIZE_MAX / sizeof (struct rec) + 2);
  size_t ok = OPAQUE ((size_t) 5);

  struct rec *r = drv_alloc (n * sizeof (*r), GFP_KERNEL);
  CHECK (r == NULL);
  CHECK (kstub_last_size == SIZE_MAX_T);
  kfree (r);

  r = osal_zalloc (n * sizeof (struct rec), GFP_KERNEL);
  CHECK (r == NULL);
  CHECK (kstub_last_size == SIZE_MAX_T);
  kfree (r);

  r = drv_alloc (ok * sizeof (*r), GFP_KERNEL);
  CHECK (r != NULL);
  CHECK (kstub_last_size == 5 * sizeof (*r));
  kfree (r);

  /* Set at allocation, before the code's own store: a wrapper may
     zero, so only where nothing reads the counter before that store
     (the dump shows the store).  */
  struct table *t = drv_alloc (struct_size (t, slots, ok), GFP_KERNEL);
  CHECK (t != NULL);
  if (t)
    {
      t->n = ok;
      CHECK (t->n == 5);
    }
  kfree (t);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump "wrapper drv_alloc:size,gfp calls kmalloc" } } */
/* { dg-final { scan-kalloc-dump-times "line \[0-9\]+ drv_alloc kind=array pointee=struct rec count=\\S+ saturate" 2 } } */
/* { dg-final { scan-kalloc-dump "line 58 drv_alloc kind=flex pointee=struct table count=\\S+ counter-check counter-store" } } */
/* { dg-final { fails-without-plugin } } */
