/* disable: the plugin loads and does nothing.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-disable" } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (n * sizeof (p), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}
/* { dg-final { same-code-without-plugin } } */
