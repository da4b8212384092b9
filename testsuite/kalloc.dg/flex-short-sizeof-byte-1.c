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

struct wide *
doubled (size_t size)
{
  struct wide *p = malloc (sizeof (struct wide) + 2 * size); /* { dg-bogus "flexible array" } */
  return p;
}
