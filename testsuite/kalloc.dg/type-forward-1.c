/* A tag used while incomplete (struct b_ops *) and defined later is
   still known by name for the type warning; uses of the complete type
   after its definition change nothing.  */
/* { dg-do compile } */

#include "kernel.h"

struct a_ops;
struct b_ops;
struct holder { struct a_ops *a; struct b_ops *b; };
struct a_ops { long x, y; };
struct b_ops { long u, v; };
struct b_ops *again (struct b_ops *p);

struct b_ops *wrong (void)
{
  struct b_ops *p = kzalloc (sizeof (struct a_ops), GFP_KERNEL); /* { dg-warning "'struct a_ops'" } */
  return p;
}

struct b_ops *right (void)
{
  struct b_ops *p = kzalloc (sizeof (struct b_ops), GFP_KERNEL); /* { dg-bogus "kzalloc" } */
  return p;
}
