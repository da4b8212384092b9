/* GCC 13+: -fdiagnostics-format=sarif-file carries kalloc's warnings,
   with their locations.  */
/* { dg-do compile } */
/* { dg-require-sarif "" } */
/* { dg-options "-fdiagnostics-format=sarif-file" } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *f (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL);
  return p;
}

/* { dg-final { scan-sarif "\"level\": \"warning\"" } } */
/* { dg-final { scan-sarif "'kmalloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo', which needs 24" } } */
/* { dg-final { scan-sarif "\"startLine\": 13" } } */
