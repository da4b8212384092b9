/*
 * alloc-path.c - the allocation path micro-benchmark of `make bench`.
 *
 * Links against codegen.c built three ways (hardened by kalloc, Linux
 * 7.0's macros, unhardened legacy) and calls each of its functions ITERS
 * times with small counts (the fast path: nothing overflows, every count
 * fits the counter).  __kmalloc () is a trivial bump allocator here, out
 * of line in this file, so what differs between the builds is the code
 * around the call.  bench/run-bench.py runs it under callgrind and divides
 * each function's instructions by ITERS.
 *
 *   alloc-path [ITERS]      (default 100000)
 */
#include <stddef.h>
#include <stdlib.h>

struct obj;
struct plain;
struct counted;
struct obj *array (size_t n);
struct plain *flex (size_t n);
struct counted *flex_counter (size_t n);
struct counted *flex_checked (size_t n);

static unsigned char arena[1 << 20] __attribute__ ((aligned (16)));
static size_t arena_top;
unsigned long warnings;

__attribute__ ((noinline)) void *
__kmalloc (size_t size, unsigned int flags)
{
  (void) flags;
  if (size > sizeof arena)
    return NULL;
  if (arena_top + size > sizeof arena)
    arena_top = 0;
  void *p = arena + arena_top;
  arena_top = (arena_top + size + 15) & ~(size_t) 15;
  return p;
}

__attribute__ ((noinline)) void
warn_slowpath (void)
{
  warnings++;
}

/* Keep every result.  */
void *volatile sink;

/* One loop per function, so callgrind's per-function totals are per
   call times ITERS.  */
__attribute__ ((noinline)) static void
run_array (long iters)
{
  for (long i = 0; i < iters; i++)
    sink = array (i & 31);
}

__attribute__ ((noinline)) static void
run_flex (long iters)
{
  for (long i = 0; i < iters; i++)
    sink = flex (i & 31);
}

__attribute__ ((noinline)) static void
run_flex_counter (long iters)
{
  for (long i = 0; i < iters; i++)
    sink = flex_counter (i & 31);
}

__attribute__ ((noinline)) static void
run_flex_checked (long iters)
{
  for (long i = 0; i < iters; i++)
    sink = flex_checked (i & 31);
}

int
main (int argc, char **argv)
{
  long iters = argc > 1 ? atol (argv[1]) : 100000;
  run_array (iters);
  run_flex (iters);
  run_flex_counter (iters);
  run_flex_checked (iters);
  return warnings != 0;
}
