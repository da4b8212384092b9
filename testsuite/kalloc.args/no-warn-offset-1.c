/* no-warn=offset switches the scaled pointer-arithmetic warning off, and
   only it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=offset" } */

#include "kernel.h"

struct ec_pvt { int taps; int pos; s16 *history; u64 state[4]; };

struct ec_pvt *f (int taps)
{
  struct ec_pvt *pvt = kzalloc (sizeof (*pvt) + taps * sizeof (s16), GFP_KERNEL);
  if (!pvt)
    return NULL;
  pvt->history = (s16 *) (pvt + sizeof (*pvt)); /* { dg-bogus "advances" } */
  return pvt;
}

struct ec_pvt *g (void)
{
  return kmalloc (sizeof (struct ec_pvt *), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
}
