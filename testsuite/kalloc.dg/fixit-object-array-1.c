/* The object and array warnings carry the fix their text names: the
   sizeof operand replaced with the destination's pointee.  */
/* { dg-do compile } */
/* { dg-options "-fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct foo { long a, b, c; };

struct foo *object (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates \[48\] bytes" } */
  return p;
}

struct foo *array (size_t n)
{
  struct foo *q = kcalloc (n, sizeof (q), GFP_KERNEL); /* { dg-warning "'kcalloc' element size \[48\] does not match" } */
  return q;
}

/* { dg-final { scan-fixit "fix-it:\"\[^\"\]*fixit-object-array-1.c\":\\\{12:\[0-9\]+-12:\[0-9\]+\\\}:\"\\*p\"" } } */
/* { dg-final { scan-fixit "fix-it:\"\[^\"\]*fixit-object-array-1.c\":\\\{18:\[0-9\]+-18:\[0-9\]+\\\}:\"\\*q\"" } } */
