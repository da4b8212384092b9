/* The report names a count as the program wrote it: include/kalloc.h's
   typed macros hold it in a variable of their own, whose name is
   kalloc's, not the program's.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"
#include "kalloc.h"

struct bag { int n; int fam[] __counted_by (n); };

struct bag *
make_bag (int count)
{
  struct bag *b = kmalloc_flex (*b, fam, count, GFP_KERNEL);
  return b;
}

/* { dg-final { scan-report "\"line\":15,\[^\n\]*\"count\":\"count\"" } } */
