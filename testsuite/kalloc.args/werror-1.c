/* -Werror turns kalloc's warnings into errors, like GCC's own.  */
/* { dg-do compile } */
/* { dg-options "-Werror" } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *f (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-error "allocates \[48\] bytes" } */
  return p;
}
/* { dg-prune-output "all warnings being treated as errors" } */
