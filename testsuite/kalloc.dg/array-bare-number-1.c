/* The array warning asks the text whether a sizeof names the element.
   With no sizeof at all the split between count and element size is the
   program's own byte scheme: fs/gfs2/dir.c doubles a byte count with
   kmalloc_array (hsize_bytes, 2) for a table of __be64.  */
/* { dg-do compile } */

#include "kernel.h"

typedef u64 __be64;

__be64 *double_table (u32 depth)
{
  u32 hsize = 1u << depth;
  u32 hsize_bytes = hsize * sizeof (__be64);
  __be64 *hc2 = kmalloc_array (hsize_bytes, 2, GFP_KERNEL); /* { dg-bogus "element size" } */
  return hc2;
}

u64 *bytes_times_four (size_t n)
{
  u64 *p = kmalloc (n * 4, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

/* A sizeof anywhere in the size still names an element.  */
u64 *named_element (size_t n)
{
  u64 *p = kmalloc_array (n, sizeof (u32), GFP_KERNEL); /* { dg-warning "'kmalloc_array' element size 4 does not match 'u64' \\{aka '\[^'\]*'\\} of 8 bytes" } */
  return p;
}

u64 *named_in_count (size_t n)
{
  u64 *p = kcalloc (n * sizeof (u16), 2, GFP_KERNEL); /* { dg-warning "element size" } */
  return p;
}

u64 *open_coded (size_t n)
{
  u64 *p = kmalloc (n * sizeof (u32), GFP_KERNEL); /* { dg-warning "'kmalloc' element size 4 does not match 'u64'" } */
  return p;
}

/* Macros are read expanded: a number stays a number, a sizeof a sizeof.  */
#define ELEM_BYTES 2
#define ELEM_TYPED sizeof (u16)

u64 *macro_number (size_t n)
{
  u64 *p = kmalloc_array (n, ELEM_BYTES, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

u64 *macro_sizeof (size_t n)
{
  u64 *p = kmalloc_array (n, ELEM_TYPED, GFP_KERNEL); /* { dg-warning "'kmalloc_array' element size 2 does not match 'u64'" } */
  return p;
}
