/* A header followed by several trailing arrays of different element
   sizes carved from one allocation is no one array or flexible array:
   no warning (GCC folds sizeof (*p) + n * 4 + n * 3 * 2 into
   ((n + 4) * 2 + n * 3) * 2, which reads as 2-byte elements, with
   the advice sizeof (*p)).  The real under-allocations around it still
   warn.  */
/* { dg-do compile } */

#include "kernel.h"

struct hdr { u32 n; u64 id; };
struct hdr_fam { u32 n; s16 tail[]; };
struct wide { u32 n; u64 fam[]; };

struct hdr *same_count (int n)
{
  struct hdr *p = kzalloc (sizeof (*p) + n * sizeof (s32) + n * 3 * sizeof (s16), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

struct hdr *same_count_size_t (size_t n)
{
  struct hdr *p = kzalloc (sizeof (*p) + n * sizeof (s32) + n * 3 * sizeof (s16), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

struct hdr *two_counts (size_t n, size_t m)
{
  struct hdr *p = kmalloc (sizeof (*p) + n * sizeof (s32) + m * sizeof (s16), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

struct hdr *three_arrays (unsigned int n, unsigned int m)
{
  struct hdr *p = kzalloc (sizeof (struct hdr) + n * sizeof (u64) + m * sizeof (u32) + n * sizeof (u8), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

struct hdr_fam *with_fam (int n)
{
  struct hdr_fam *p = kzalloc (sizeof (*p) + n * sizeof (s32) + n * 3 * sizeof (s16), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

struct hdr *helpers (size_t n, size_t m)
{
  struct hdr *p = kzalloc (size_add (size_add (sizeof (*p), size_mul (n, sizeof (s32))), size_mul (m, sizeof (s16))), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

/* Still warned: one element size, or no header.  */
struct hdr *no_header (size_t n)
{
  struct hdr *p = kmalloc (n * sizeof (s16), GFP_KERNEL); /* { dg-warning "'kmalloc' element size 2 does not match 'struct hdr' of 16 bytes" } */
  return p;
}

struct wide *one_short_array (size_t n)
{
  struct wide *p = kmalloc (sizeof (*p) + n * sizeof (u32), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct wide', whose flexible array 'fam' has 8-byte elements" } */
  return p;
}

struct wide *same_size_twice (size_t n, size_t m)
{
  struct wide *p = kmalloc (sizeof (*p) + n * sizeof (u32) + m * sizeof (u32), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct wide'" } */
  return p;
}
