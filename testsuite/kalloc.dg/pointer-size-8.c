/* A 64-bit target: pointers and long are 8 bytes.  */
/* { dg-do compile } */
/* { dg-require-pointer-size 8 } */

#include "kernel.h"

struct foo { long a, b, c; };	/* 24 bytes here, 12 on ILP32 */

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 8 bytes, the size of a pointer, for 'struct foo', which needs 24" } */
  kfree (p);
  p = kcalloc (n, sizeof (int) * 3, GFP_KERNEL); /* { dg-warning "'kcalloc' element size 12 does not match 'struct foo' of 24 bytes" } */
  return p;
}
