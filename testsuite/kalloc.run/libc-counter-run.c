/* A counted_by structure allocated with malloc () or an alloc_size
   wrapper marked malloc gets its counter set at allocation, as with
   kmalloc (); realloc () and a wrapper without the malloc attribute
   (g_realloc ()) may return the old block, whose counter is the
   program's: left as the program has it.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run-check.h"

#include "counted-by.h"

struct vec
{
  long pad[2];			/* past what malloc's free lists overwrite */
  unsigned count;
  short items[] __counted_by (count);
};



__attribute__ ((__noinline__, __malloc__, __alloc_size__ (1))) static void *
x_malloc (size_t size)
{
  void *p = malloc (size);
  if (p)
    memset (p, 0x5a, size);	/* as a reused block may be */
  return p;
}

__attribute__ ((__noinline__, __alloc_size__ (2))) static void *
x_realloc (void *old, size_t size)
{
  return realloc (old, size);
}

/* Leave a block of SIZE bytes full of 0x5a on malloc's free list, so the
   next malloc () of that size returns it with its bytes as they are.  */
__attribute__ ((__noinline__)) static void
dirty (size_t size)
{
  void *volatile p = malloc (size);
  memset (p, 0x5a, size);
  free (p);
}

int
main (void)
{
  volatile size_t n = 37;
  volatile size_t more = 74;
  size_t size = sizeof (struct vec) + 37 * sizeof (short);

  dirty (size);
  struct vec *v = malloc (sizeof (*v) + n * sizeof (v->items[0]));
  CHECK (v != NULL);
  if (v)
    CHECK (v->count == 37);

  /* kalloc cannot tell whether a wrapper zeroes (this one does not):
     its counter is set only where nothing reads it before the program's
     own store, so no run can see it; the dump shows the store.  */
  struct vec *w = x_malloc (sizeof (*w) + n * sizeof (w->items[0]));
  CHECK (w != NULL);

  /* The program counts what it uses; a resize keeps its count.  */
  if (v)
    {
      v->count = 2;
      v = realloc (v, sizeof (*v) + more * sizeof (v->items[0]));
      CHECK (v != NULL);
      if (v)
	CHECK (v->count == 2);
    }
  if (w)
    {
      w->count = 3;
      w = x_realloc (w, sizeof (*w) + more * sizeof (w->items[0]));
      CHECK (w != NULL);
      if (w)
	CHECK (w->count == 3);
    }
  free (v);
  free (w);
  return kstub_failures != 0;
}

/* A 32-bit unsigned counter holds every size_t count on 32-bit targets:
   no range check there.  */
/* { dg-final { scan-kalloc-dump-times "kind=flex pointee=struct vec count=\\S+ saturate (counter-check )?counter-store" 2 } } */
/* { dg-final { scan-kalloc-dump-times "realloc kind=flex pointee=struct vec count=\\S+ saturate\n" 2 } } */
