/* For check-ecosystem's distcc run with the sources out of the helper's
   reach: one warning of each kind that reads the call's text or not,
   and a bare byte count for a flexible array that must stay silent.  */
#include <stdlib.h>
#include "kernel.h"

struct a { long x, y; };
struct b { long u, v; };
struct wide { u32 id; unsigned long fam[]; };
struct foo { long p, q, r; };
struct row { int c; };

struct a *
other_type (void)
{
  struct a *p = malloc (sizeof (struct b));	/* type */
  return p;
}

struct wide *
bare_bytes (size_t size)
{
  struct wide *p = malloc (sizeof (struct wide) + 2 * size);	/* silent */
  return p;
}

struct foo *
pointer_size (void)
{
  struct foo *f = kmalloc (sizeof (f), GFP_KERNEL);	/* object */
  return f;
}

struct foo *
short_elements (size_t n)
{
  struct foo *f = kcalloc (n, sizeof (long), GFP_KERNEL);	/* array */
  return f;
}

struct wide *
short_flex (size_t n)
{
  struct wide *w = kmalloc (sizeof (*w) + n * sizeof (u32), GFP_KERNEL);	/* flex */
  return w;
}

struct row **
own_type (size_t n)
{
  struct row **r = kcalloc (n, sizeof (r), GFP_KERNEL);	/* type, pointers */
  return r;
}
