/* report=FILE: one JSON object per line and site, with kind, pointee,
   count, counter, rewrites and warnings.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct flex { long id; u16 n; u32 data[] __counted_by (n); };

struct foo *
sites (size_t count, struct flex **out)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates" } */
  kfree (p);
  *out = kmalloc (struct_size (*out, data, count), GFP_KERNEL);
  return kcalloc (count, sizeof (struct foo), GFP_KERNEL);
}

/* { dg-final { scan-report "\"file\":\"\[^\"\]*report-1.c\",\"line\":14,\"column\":\[0-9\]+,\"function\":\"sites\",\"allocator\":\"kmalloc\",\"kind\":\"object\",\"pointee\":\"struct foo\"\[^\n\]*\"warnings\":\\\[\"object\"\\\]" } } */
/* { dg-final { scan-report "\"line\":16,\[^\n\]*\"allocator\":\"kmalloc\",\"kind\":\"flex\",\"pointee\":\"struct flex\",\"count\":\"count\"\[^\n\]*\"flex\":\"data\",\"counter\":\"n\",\"counter_left\":null,\"rewrites\":\\\[\"counter-check\",\"counter-store\"\\\]" } } */
/* { dg-final { scan-report "\"line\":17,\[^\n\]*\"allocator\":\"kcalloc\",\"kind\":\"array\",\"pointee\":\"struct foo\"" } } */
