/* Under -fsanitize=thread the counter store of a kernel-style allocation
   whose result leaves the function (returned, stored in a global, passed
   to a call, allocated in a loop) is stored under a branch; with a local
   sink of the function, cc1 crashed at -O1 and above (internal compiler
   error in make_decl_rtl).  */
/* { dg-do run } */
/* { dg-options "-fsanitize=thread -fplugin-arg-kalloc-dump" } */
/* { dg-require-sanitize-thread "" } */

#include "kernel.h"

struct bag { u32 n; u32 pad; u64 items[] __counted_by (n); };

struct bag *bag_new (size_t n);
struct bag *
bag_new (size_t n)
{
  struct bag *b = kmalloc (struct_size (b, items, n), GFP_KERNEL);
  return b;
}

struct bag *last;

void bag_publish (size_t n);
void
bag_publish (size_t n)
{
  last = kmalloc (struct_size (last, items, n), GFP_KERNEL);
}

__attribute__ ((__noinline__)) static u32
bag_count (const struct bag *b)
{
  return b ? b->n : 0;
}

__attribute__ ((__noinline__)) static u32
bag_loop (size_t n)
{
  u32 sum = 0;
  for (size_t i = 1; i <= n; i++)
    {
      struct bag *b = kmalloc (struct_size (b, items, i), GFP_KERNEL);
      sum += bag_count (b);
      kfree (b);
    }
  return sum;
}

int
main (void)
{
  struct bag *b = bag_new (OPAQUE ((size_t) 3));
  CHECK (b && b->n == 3);
  kfree (b);
  bag_publish (OPAQUE ((size_t) 4));
  CHECK (last && last->n == 4);
  kfree (last);
  CHECK (bag_loop (OPAQUE ((size_t) 4)) == 10);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct bag \[^\n\]*counter-store counter-store-branch" 3 } } */
/* { dg-final { fails-without-plugin } } */
