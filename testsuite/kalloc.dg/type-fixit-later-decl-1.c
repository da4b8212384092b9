/* A fix-it never names a variable that is not declared at the call: the
   destination declared on a later line is named by its type, without a
   fix-it.  */
/* { dg-do compile } */
/* { dg-options "-fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct a { long x, y; };
struct b { long u, v; };

struct a *
later (void)
{
  void *m = kmalloc (sizeof (struct b), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct b' for 'struct a': the sizes match \\(\[0-9\]+ bytes\\) only by accident; did you mean 'sizeof \\(struct a\\)'" } */
  struct a *q = m;
  return q;
}

/* { dg-final { scan-diagnostics-times "fix-it:" 0 } } */
