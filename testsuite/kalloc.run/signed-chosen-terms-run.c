/* A term whose sign is chosen at run time: a conditional, a select, a
   PHI of an if/else, a minimum or maximum, a value cast through a
   narrower signed type, a signed function result.  c ? -8 : 8 is -8 in
   the program's mathematics, not SIZE_MAX - 7: the exact size is small
   and must stay the program's own, while a size whose exact value is
   above SIZE_MAX must still fail the allocation.  A chosen term that is
   itself arithmetic which may have wrapped (c ? m - 40 : m) has no sign
   kalloc can read: that size stays the program's, overflow or not.  */
/* { dg-do run } */

#include "kernel.h"

static volatile int opaque_sink;

__attribute__ ((__noinline__)) static long
delta (int c)
{
  opaque_sink = c;
  return c ? -16 : 16;
}

__attribute__ ((__noinline__)) static void *
choose_constant (size_t n, int c)
{
  return kmalloc (n * 8 + (c ? -8 : 8), GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void *
choose_in_factor (size_t n, int c)
{
  return kmalloc ((n + (c ? -1 : 1)) * 8, GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void *
choose_by_if (size_t n, int c)
{
  size_t adj;
  if (c)
    adj = -24;
  else
    adj = 24;
  return kmalloc (n * sizeof (u64) + adj, GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void *
choose_minimum (size_t n, int a, int b)
{
  return kmalloc (n * 8 + min (a, b), GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void *
choose_subtraction (size_t n, size_t m, int c)
{
  return kmalloc (n * 8 + (c ? m - 40 : m), GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void *
narrow_cast (size_t n, int a)
{
  return kmalloc (n * 8 + (size_t) (short) a, GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void *
function_result (size_t n, int c)
{
  return kmalloc (n * 8 + (size_t) delta (c), GFP_KERNEL);
}

int
main (void)
{
  size_t n = OPAQUE ((size_t) 10);
  size_t big = OPAQUE (SIZE_MAX / 8 + 3);
  int yes = OPAQUE (1), no = OPAQUE (0);
  void *p;

  p = choose_constant (n, yes);
  CHECK (p && kstub_last_size == 72);
  kfree (p);
  p = choose_constant (n, no);
  CHECK (p && kstub_last_size == 88);
  kfree (p);
  CHECK (choose_constant (big, no) == NULL);

  p = choose_in_factor (n, yes);
  CHECK (p && kstub_last_size == 72);
  kfree (p);
  CHECK (choose_in_factor (big, no) == NULL);

  p = choose_by_if (n, yes);
  CHECK (p && kstub_last_size == 56);
  kfree (p);
  CHECK (choose_by_if (big, no) == NULL);

  p = choose_minimum (n, OPAQUE (-8), OPAQUE (3));
  CHECK (p && kstub_last_size == 72);
  kfree (p);

  p = choose_subtraction (n, OPAQUE ((size_t) 8), yes);
  CHECK (p && kstub_last_size == 48);
  kfree (p);
  p = choose_subtraction (big, OPAQUE ((size_t) 8), no);
  CHECK (p && kstub_last_size == big * 8 + 8);
  kfree (p);

  p = narrow_cast (n, OPAQUE (0x1fff8));
  CHECK (p && kstub_last_size == 72);
  kfree (p);

  p = function_result (n, yes);
  CHECK (p && kstub_last_size == 64);
  kfree (p);
  CHECK (function_result (big, no) == NULL);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
