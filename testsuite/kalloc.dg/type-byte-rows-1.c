/* Rows of bytes: one byte per element is "counting bytes"
   for a byte buffer, but for a pointer to rows of two bytes a run-time
   count of sizeof (s8) is one byte per row, the classic bug.  A
   constant count that fills the object, and byte buffers, stay silent. */
/* { dg-do compile } */

#include "kernel.h"

typedef s8 pair_t[2];

s8 (*rows (size_t n))[2]
{
  s8 (*r)[2] = kcalloc (n, sizeof (s8), GFP_KERNEL); /* { dg-warning "'kcalloc' element size 1 does not match 's8\\\[2\\\]' \\{aka '\[^'\]*'\\} of 2 bytes; did you mean 'sizeof \\(\\*r\\)'" } */
  return r;
}

pair_t *rows_typedef (size_t n)
{
  pair_t *r = kmalloc_array (n, sizeof (u8), GFP_KERNEL); /* { dg-warning "'kmalloc_array' element size 1 does not match 'pair_t'" } */
  return r;
}

u8 (*rows_right (size_t n))[4]
{
  u8 (*r)[4] = kcalloc (n, sizeof (*r), GFP_KERNEL); /* { dg-bogus "element size" } */
  return r;
}

s8 (*one_row (void))[2]
{
  s8 (*r)[2] = kcalloc (2, sizeof (s8), GFP_KERNEL); /* { dg-bogus "element size" } */
  return r;
}

u8 *bytes (size_t n)
{
  u8 *b = kcalloc (n, sizeof (u8), GFP_KERNEL); /* { dg-bogus "element size" } */
  return b;
}
