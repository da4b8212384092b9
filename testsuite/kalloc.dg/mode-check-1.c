/* mode=check warns and leaves the generated code exactly as it would
   be without the plugin.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-mode=check" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct flex { long id; int count; u32 data[] __counted_by (count); };

struct foo *array (size_t n)
{
  return kmalloc (n * sizeof (struct foo), GFP_KERNEL);
}

struct flex *flexible (size_t n)
{
  struct flex *p = kzalloc (sizeof (*p) + n * sizeof (u32), GFP_KERNEL);
  return p;
}

struct foo *wrong (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

/* { dg-final { same-code-without-plugin } } */
