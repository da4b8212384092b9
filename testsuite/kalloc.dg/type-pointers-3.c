/* sizeof (u64 *) for u64 elements where pointers are 4 bytes: short, and
   the array warning names both sizes (type-pointers-2.c has 8-byte
   pointers).  */
/* { dg-do compile } */
/* { dg-require-pointer-size 4 } */

#include "kernel.h"

u64 *
pointer_for_object (size_t n)
{
  u64 *stamps = kcalloc (n, sizeof (u64 *), GFP_KERNEL); /* { dg-warning "'kcalloc' element size 4 does not match 'u64' \[^\n\]* of 8 bytes; did you mean 'sizeof \\(\\*stamps\\)'" } */
  return stamps;
}
