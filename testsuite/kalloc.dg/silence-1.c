/* A user can silence one line or one function; the rest of the file is
   still checked.  */
/* { dg-do compile } */

#include "kernel.h"
#include "kalloc.h"

struct foo { long long a, b, c; };

#if !KALLOC_PLUGIN_LOADED
#error "kalloc.h should see the plugin"
#endif

struct foo *one_line (void)
{
  struct foo *p;
  KALLOC_IGNORE_NEXT
  p = kmalloc (sizeof (*p) - 3, GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
#pragma kalloc ignore
  p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

static struct foo * __kalloc_ignore
whole_function (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  return p;
}

struct foo *caller (void)
{
  return whole_function ();
}
