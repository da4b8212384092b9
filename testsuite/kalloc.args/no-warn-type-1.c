/* no-warn=type switches the wrong-type warning off, and only it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=type" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct bar { long long x, y, z; };

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (struct bar), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  p = kcalloc (n, sizeof (struct bar), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  kfree (p);
  p = kcalloc (n, sizeof (p), GFP_KERNEL); /* { dg-warning "element size \[48\]" } */
  return p;
}
