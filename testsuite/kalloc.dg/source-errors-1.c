/* A source with errors: kalloc does nothing and does not crash.  */
/* { dg-do compile } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *broken (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  struct foo *q = kcalloc (n, sizeof (*q), GFP_KERNEL);
  undeclared_variable = q; /* { dg-error "undeclared" } */
  /* { dg-prune-output "each undeclared identifier" } */
  return p + q; /* { dg-error "invalid operands" } */
}

struct flex { int n; int data[] __counted_by (n); };

struct flex *more (size_t n)
{
  struct flex *f = kmalloc (struct_size (f, data, n), GFP_KERNEL);
  return f->missing; /* { dg-error "has no member" } */
}
