/* A 32-bit target: pointers are 4 bytes, long is 4, and kalloc takes
   every size from the target, never from the host.  */
/* { dg-do compile } */
/* { dg-require-pointer-size 4 } */

#include "kernel.h"

struct foo { long a, b, c; };	/* 12 bytes here, 24 on LP64 */

struct foo *f (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 4 bytes, the size of a pointer, for 'struct foo', which needs 12" } */
  kfree (p);
  p = kcalloc (n, sizeof (long long), GFP_KERNEL); /* { dg-warning "'kcalloc' element size 8 does not match 'struct foo' of 12 bytes" } */
  kfree (p);
  p = kmalloc (sizeof (long long) + sizeof (int), GFP_KERNEL); /* { dg-bogus "allocates" } */
  return p;
}
