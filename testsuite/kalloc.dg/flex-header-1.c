/* A flexible-array allocation whose header is smaller than the offset
   of the flexible array.  */
/* { dg-do compile } */

#include "kernel.h"

struct flex { long long id; int n; u32 data[]; };

struct flex *short_header (size_t n)
{
  struct flex *p = kmalloc (sizeof (p) + n * sizeof (p->data[0]), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates a \[48\]-byte header for 'struct flex', whose flexible array 'data' starts at offset 12; did you mean 'struct_size \\(p, data, count\\)'" } */
  return p;
}

struct flex *right_header (size_t n)
{
  struct flex *p = kmalloc (__builtin_offsetof (struct flex, data) + n * sizeof (u32), GFP_KERNEL); /* { dg-bogus "header" } */
  return p;
}
