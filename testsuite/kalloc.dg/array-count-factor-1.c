/* A constant factor in the count times the element size that makes
   whole elements is exact: calloc (2 * n, sizeof (u32)) is n u64s.  A
   factor that does not make whole elements still warns.  */
/* { dg-do compile } */

#include <stdlib.h>
#include "kernel.h"

u64 *
pairs (size_t n)
{
  u64 *p = calloc (2 * n, sizeof (u32)); /* { dg-bogus "element size" } */
  return p;
}

u64 *
quads (size_t n)
{
  u64 *p = kcalloc (n * 4, sizeof (u16), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

u64 *
triples (size_t n)
{
  u64 *p = calloc (3 * n, sizeof (u32)); /* { dg-warning "'calloc' element size 4 does not match 'u64' \[^\n\]* of 8 bytes" } */
  return p;
}
