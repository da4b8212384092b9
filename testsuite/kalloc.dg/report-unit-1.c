/* report=FILE names the unit compiled as well as the file of the call:
   a call in a header is reported with the header as "file" and this
   file as "unit", so that a reader can tell which objects it is in.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"
#include "report-unit-1.h"

struct unit_item *
use_header (void)
{
  return unit_item_new ();
}

long *
own_call (size_t n)
{
  return kcalloc (n, sizeof (long), GFP_KERNEL);
}

/* { dg-final { scan-report "\"file\":\"\[^\"\]*report-unit-1.h\",\"line\":8,\[^\n\]*\"unit\":\"\[^\"\]*report-unit-1.c\"\}" } } */
/* { dg-final { scan-report "\"file\":\"\[^\"\]*report-unit-1.c\",\"line\":19,\[^\n\]*\"unit\":\"\[^\"\]*report-unit-1.c\"\}" } } */
