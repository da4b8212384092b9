/* no-warn= switches warning kinds off one by one.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=object" } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kcalloc (n, sizeof (p), GFP_KERNEL); /* { dg-warning "element size \[48\]" } */
  return p;
}
