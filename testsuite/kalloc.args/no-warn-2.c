/* no-warn=all: no kalloc warning at all.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=all" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct bar { long long x, y, z; };

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kcalloc (n, sizeof (p), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kmalloc (sizeof (struct bar), GFP_KERNEL); /* { dg-bogus "only by accident" } */
  return p;
}
