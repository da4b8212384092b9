/* sizeof (u64 *) for u64 elements where pointers are 8 bytes: right by
   accident, so the type warning (type-pointers-3.c: where pointers are
   4 bytes the size is short, and the array warning says so).  */
/* { dg-do compile } */
/* { dg-options "-fdiagnostics-parseable-fixits" } */
/* { dg-require-pointer-size 8 } */

#include "kernel.h"

u64 *
pointer_for_object (size_t n)
{
  u64 *stamps = kcalloc (n, sizeof (u64 *), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'u64 \\*' \[^\n\]*for elements of 'u64' \[^\n\]*: a pointer and an object, whose sizes agree on some targets only; did you mean 'sizeof \\(\\*stamps\\)'" } */
  return stamps;
}

/* { dg-final { scan-diagnostics-times "fix-it:" 1 } } */
