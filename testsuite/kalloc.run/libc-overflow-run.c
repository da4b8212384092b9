/* The C library's allocators are hardened as kmalloc () is: a size whose
   product with a constant element size wraps makes malloc () and
   aligned_alloc () return NULL, never a short buffer; a wrapping
   realloc () returns NULL and leaves the old block allocated and
   untouched, as C says for a failed realloc ().  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run-check.h"

struct elem
{
  long long a, b;		/* 16 bytes */
};


/* Results escape here: GCC 15 removes an allocation whose result is only
   compared with NULL, and folds the comparison to false.  */
static void *volatile sink;


int
main (void)
{
  /* n * 16 wraps to 16: a 16-byte buffer for 2^60 + 1 elements.  */
  volatile size_t n = SIZE_MAX / sizeof (struct elem) + 2;
  volatile size_t small = 4;

  struct elem *p = malloc (n * sizeof (struct elem));
  sink = p;
  CHECK (p == NULL);
  free (p);

  struct elem *q = malloc (small * sizeof (*q));	/* a fitting size works */
  CHECK (q != NULL);

  /* The sum of a header and the wrapping array, as open-coded.  */
  char *h = malloc (64 + n * sizeof (struct elem));
  sink = h;
  CHECK (h == NULL);
  free (h);

  struct elem *a = aligned_alloc (64, n * sizeof (struct elem));
  sink = a;
  CHECK (a == NULL);
  free (a);

  /* realloc (): NULL, and the old block is still there, unchanged.  */
  for (size_t i = 0; i < small; i++)
    q[i].a = q[i].b = 0x1234 + i;
  struct elem *r = realloc (q, n * sizeof (struct elem));
  CHECK (r == NULL);
  if (r == NULL)
    {
      for (size_t i = 0; i < small; i++)
	CHECK (q[i].a == (long long) (0x1234 + i)
	       && q[i].b == (long long) (0x1234 + i));
      /* ... and still the program's to grow and free.  */
      r = realloc (q, 2 * small * sizeof (*q));
      CHECK (r != NULL);
      if (r)
	CHECK (r[small - 1].a == (long long) (0x1234 + small - 1));
    }
  free (r);

  /* calloc () and reallocarray () check their own product.  */
  void *c = calloc (n, sizeof (struct elem));
  sink = c;
  CHECK (c == NULL);
  free (c);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump-times " saturate" 6 } } */
