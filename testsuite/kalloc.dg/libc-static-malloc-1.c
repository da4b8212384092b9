/* A static function named malloc () is the program's own, not the C
   library's: the kernel's boot decompressor defines one
   (include/linux/decompress/mm.h, int size, a bump allocator) and its
   calls are left alone.  */
/* { dg-do compile } */
/* { dg-options "-ffreestanding -fplugin-arg-kalloc-dump" } */

struct foo { long long a, b, c; };

static char heap[4096];
static long heap_used;

static void *
malloc (int size)
{
  void *p;
  if (size < 0 || heap_used + size > (long) sizeof (heap))
    return 0;
  p = heap + heap_used;
  heap_used += size;
  return p;
}

struct foo *
use (int n)
{
  struct foo *p = malloc (sizeof (p)); /* { dg-bogus "allocates" } */
  struct foo *q = malloc (n * sizeof (*q)); /* { dg-bogus "warning" } */
  (void) q;
  return p;
}

/* { dg-final { scan-kalloc-dump-not "kalloc: line" } } */
