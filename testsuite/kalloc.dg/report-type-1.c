/* report=FILE names every warning kind a site got, "type" too (the
   report's names are no-warn='s kinds).  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"

struct a { long x; };
struct b { long y; };

struct a *
f (void)
{
  struct a *p = kmalloc (sizeof (struct b), GFP_KERNEL); /* { dg-warning "sizes 'struct b' for 'struct a'" } */
  return p;
}

/* { dg-final { scan-report "\"line\":14,\[^\n\]*\"pointee\":\"struct a\"\[^\n\]*\"warnings\":\\\[\"type\"\\\]" } } */
