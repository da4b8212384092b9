/* no-warn= of the other kinds leaves the type warning on; all takes it. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=object,array,flex" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct bar { long long x, y, z; };

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (struct bar), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct bar' for 'struct foo'" } */
  kfree (p);
  p = kcalloc (n, sizeof (p), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}
