/* A flexible-array size whose element is smaller than the array's: short
   for any count above a few.  Open-coded, with the
   kernel's helpers, or struct_size () with another array member.  */
/* { dg-do compile } */

#include "kernel.h"

struct wide { u32 n; u64 fam[]; };
struct wide2 { u64 id; u32 n; u32 other[3]; u64 fam[] __counted_by (n); };

struct wide *open_coded (size_t n)
{
  struct wide *p = kmalloc (sizeof (*p) + n * sizeof (u32), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 4-byte elements for 'struct wide', whose flexible array 'fam' has 8-byte elements; did you mean 'struct_size \\(p, fam, count\\)'" } */
  return p;
}

struct wide *open_coded_int (int n)
{
  struct wide *p = kzalloc (sizeof (*p) + n * sizeof (u32), GFP_KERNEL); /* { dg-warning "'kzalloc' allocates 4-byte elements for 'struct wide'" } */
  return p;
}

struct wide *offsetof_header (size_t n)
{
  struct wide *p = kmalloc (offsetof (struct wide, fam) + n * sizeof (u16), GFP_KERNEL); /* { dg-warning "allocates 2-byte elements for 'struct wide', whose flexible array 'fam' has 8-byte elements" } */
  return p;
}

struct wide *helpers (size_t n)
{
  struct wide *p = kmalloc (size_add (sizeof (*p), size_mul (n, sizeof (u32))), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct wide'" } */
  return p;
}

struct wide2 *wrong_member (size_t n)
{
  struct wide2 *p = kmalloc (struct_size (p, other, n), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct wide2', whose flexible array 'fam' has 8-byte elements; did you mean 'struct_size \\(p, fam, count\\)'" } */
  return p;
}

struct wide2 *to_field (struct wide2 **slot, size_t n)
{
  *slot = kvmalloc (sizeof (**slot) + n * sizeof (u32), GFP_KERNEL); /* { dg-warning "'kvmalloc' allocates 4-byte elements" } */
  return *slot;
}

struct wide *returned (size_t n)
{
  return kmalloc (sizeof (struct wide) + n * sizeof (u32), GFP_KERNEL); /* { dg-warning "whose flexible array 'fam' has 8-byte elements; did you mean 'struct_size_t \\(struct wide, fam, count\\)'" } */
}

/* Right or larger elements, and byte counts, say nothing.  */
struct wide *right (size_t n, size_t len)
{
  struct wide *p = kmalloc (sizeof (*p) + n * sizeof (u64), GFP_KERNEL); /* { dg-bogus "allocates|element" } */
  kfree (p);
  p = kmalloc (struct_size (p, fam, n), GFP_KERNEL); /* { dg-bogus "allocates|element" } */
  kfree (p);
  p = kmalloc (sizeof (*p) + n * 16, GFP_KERNEL); /* { dg-bogus "allocates|element" } */
  kfree (p);
  p = kmalloc (sizeof (*p) + len, GFP_KERNEL); /* { dg-bogus "allocates|element" } */
  return p;
}

/* A bare number for the element is the program's own count of bytes:
   drivers/tty/tty_buffer.c allocates sizeof (struct tty_buffer)
   + 2 * size for an unsigned long data[] it uses as two byte arrays
   (a false positive on Linux 6.1 and 6.12 defconfig).  A sizeof names
   a type, and that is still warned.  */
struct tty_like { unsigned int used, size; bool flags; u64 data[]; };

struct tty_like *bytes_by_number (int size)
{
  struct tty_like *p = kmalloc (sizeof (struct tty_like) + 2 * size, GFP_ATOMIC); /* { dg-bogus "allocates|element" } */
  kfree (p);
  p = kmalloc (sizeof (*p) + size * 4, GFP_KERNEL); /* { dg-bogus "allocates|element" } */
  kfree (p);
  p = kzalloc (offsetof (struct tty_like, data) + (size_t) size * 2, GFP_KERNEL); /* { dg-bogus "allocates|element" } */
  kfree (p);
  p = kmalloc (sizeof (struct tty_like) + 2 * size * sizeof (u16), GFP_KERNEL); /* { dg-warning "allocates \[24\]-byte elements for 'struct tty_like', whose flexible array 'data' has 8-byte elements" } */
  kfree (p);
  return kmalloc (size_add (sizeof (*p), size_mul (size, sizeof (u32))), GFP_KERNEL); /* { dg-warning "allocates 4-byte elements for 'struct tty_like'" } */
}
