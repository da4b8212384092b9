/* Pointer elements sized with the object they point to: a star
   forgotten (upstream's badty.cocci, T **x = ... sizeof (T)).  Right
   by accident where the object is as big as a pointer, wasteful where
   it is bigger, short where it is smaller.  */
/* { dg-do compile } */

#include "kernel.h"

struct row { int a, b; };
struct big { long a, b, c; };
struct table { struct row **rows; struct big **bigs; };

int forgot_star (struct table *t, size_t n)
{
  t->rows = kcalloc (n, sizeof (struct row), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'struct row' for elements of 'struct row \\*': the object, not a pointer to it; did you mean 'sizeof \\(\\*t->rows\\)'" } */
  t->bigs = kmalloc_array (n, sizeof (struct big), GFP_KERNEL); /* { dg-warning "'kmalloc_array' sizes 'struct big' for elements of 'struct big \\*'" } */
  struct row **r = kzalloc (n * sizeof (struct row), GFP_KERNEL); /* { dg-warning "sizes 'struct row' for elements of 'struct row \\*'" } */
  return t->rows && t->bigs && r;
}

typedef struct row row_t;

int typedef_spelling (size_t n)
{
  const row_t **r = kcalloc (n, sizeof (row_t), GFP_KERNEL); /* { dg-warning "the object, not a pointer to it" } */
  return r != 0;
}

/* Pointers and their objects in one block, another structure, and the
   right sizes stay silent.  */
int silent (size_t n)
{
  struct big **both = kmalloc (n * (sizeof (struct big *) + sizeof (struct big)), GFP_KERNEL); /* { dg-bogus "sizes" } */
  struct big **sum = kmalloc (n * sizeof (struct big *) + n * sizeof (struct big), GFP_KERNEL); /* { dg-bogus "sizes" } */
  struct row **other = kcalloc (n, sizeof (struct big), GFP_KERNEL); /* { dg-bogus "sizes" } */
  struct row **right = kcalloc (n, sizeof (*right), GFP_KERNEL); /* { dg-bogus "sizes" } */
  struct row **typed = kcalloc (n, sizeof (struct row *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  void **any = kcalloc (n, sizeof (struct row), GFP_KERNEL); /* { dg-bogus "sizes" } */
  return both && sum && other && right && typed && any;
}
