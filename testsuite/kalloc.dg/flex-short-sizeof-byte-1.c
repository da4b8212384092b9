/* A flexible array's element named by a sizeof of a shorter type is
   short, even when that type is one byte: sizeof (*p) + n * sizeof (u8)
   for a u64 array.  A bare byte count (sizeof (*p) + len, the kernel's
   tty_buffer) is the program's own scheme and gets nothing.  */
/* { dg-do compile } */

#include <stdlib.h>
#include "kernel.h"

struct wide { u32 id; u64 fam[]; };

struct wide *
named (size_t n)
{
  struct wide *p = malloc (sizeof (*p) + n * sizeof (u8)); /* { dg-warning "'malloc' allocates 1-byte elements for 'struct wide', whose flexible array 'fam' has 8-byte elements" } */
  return p;
}

struct wide *
bytes (size_t len)
{
  struct wide *p = malloc (sizeof (*p) + len); /* { dg-bogus "flexible array" } */
  return p;
}

/* GCC folds (1L << w) * sizeof (struct slot) into a shift: the size
   reads as bytes, but the sizeof names the array's own element
   (drivers/scsi/mvsas/mv_init.c).  */
struct slot { char bytes[88]; };
struct info { int id; struct slot slots[]; };

struct info *
shifted (int w)
{
  struct info *p = kzalloc (sizeof (*p) + (1L << w) * sizeof (struct slot), GFP_KERNEL); /* { dg-bogus "flexible array" } */
  return p;
}

struct wide *
doubled (size_t size)
{
  struct wide *p = malloc (sizeof (struct wide) + 2 * size); /* { dg-bogus "flexible array" } */
  return p;
}
