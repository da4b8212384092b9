/* report=FILE is UTF-8 JSON whatever bytes a file name has: a byte that
   starts no well-formed UTF-8 sequence (a lone 0xff, 0xc0, an overlong
   0xe0 0x80, a surrogate 0xed 0xa0 0x80, 0xf4 0x90 0x80 0x80 above
   U+10FFFF) is written as \u00XX; well-formed UTF-8 (e-acute) stays as
   it is (read here as UTF-8 or as its two bytes); quotes are escaped.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"

struct foo { long long a, b, c; };

#line 100 "bad\377\300\340\200-\303\251-\355\240\200-\364\220\200\200-\"q\".c"
struct foo *
sites (size_t count)
{
  return kcalloc (count, sizeof (struct foo), GFP_KERNEL);
}

/* { dg-final { scan-report "\"file\":\"bad\\\\u00ff\\\\u00c0\\\\u00e0\\\\u0080-(\u00e9|\u00c3\u00a9)-\\\\u00ed\\\\u00a0\\\\u0080-\\\\u00f4\\\\u0090\\\\u0080\\\\u0080-\\\\\"q\\\\\".c\",\"line\":103," } } */
/* { dg-final { report-is-utf8-json } } */
