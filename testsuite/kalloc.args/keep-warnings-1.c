/* keep-warnings: under -Werror (the kernel's CONFIG_WERROR) kalloc's
   warnings stay warnings, of every kind, while the compiler's own become
   errors as asked.  */
/* { dg-do compile } */
/* { dg-options "-Werror -Wunused-variable -fplugin-arg-kalloc-keep-warnings" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct other { long long x, y, z; };

struct foo *f (void)
{
  int unused; /* { dg-error "unused variable" } */
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *g (void)
{
  return kzalloc (sizeof (struct other), GFP_KERNEL); /* { dg-warning "'struct other'" } */
}

long *h (void)
{
  long *t = kmalloc (4 * sizeof (*t), GFP_KERNEL);
  long *u = t + sizeof (*t); /* { dg-warning "advances a .long int \\*. by \[48\] elements" } */
  *u = 0;
  return t;
}
/* { dg-prune-output "all warnings being treated as errors" } */
