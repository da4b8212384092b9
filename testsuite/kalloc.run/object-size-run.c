/* __builtin_dynamic_object_size () of pointers into a counted_by
   flexible array follows the counter, as GCC 15's native attribute
   does: MAX (counter, 0) * sizeof (elem) minus the offset, directly and
   through FORTIFY_SOURCE-style wrappers; whole-structure pointers keep
   GCC's own answer.  (At -O0 nothing is known, as in GCC 15.)  */
/* { dg-do run } */
/* { dg-require-dynamic-object-size "" } */
/* { dg-options "-O2" } */

#include "kernel.h"

struct foo { int a; u32 counter; s16 array[] __counted_by (counter); };
struct neg { long id; int n; u64 data[] __counted_by (n); };

static __always_inline size_t
member_size (const void *p)
{
  return __builtin_dynamic_object_size (p, 1);
}

__attribute__ ((noinline)) static void
check_foo (struct foo *p, int i)
{
  CHECK (__builtin_dynamic_object_size (p->array, 0) == 14);
  CHECK (__builtin_dynamic_object_size (p->array, 1) == 14);
  CHECK (__builtin_dynamic_object_size (p->array, 2) == 14);
  CHECK (__builtin_dynamic_object_size (p->array, 3) == 14);
  CHECK (__builtin_dynamic_object_size (&p->array[3], 1) == 8);
  CHECK (__builtin_dynamic_object_size (&p->array[i], 1) == 10);
  CHECK (__builtin_dynamic_object_size (p->array + i, 0) == 10);
  CHECK (__builtin_dynamic_object_size ((char *) p->array + 3, 1) == 11);
  CHECK (member_size (p->array) == 14);
  CHECK (member_size (&p->array[i]) == 10);
  /* The whole structure through an unknown pointer: unknown.  */
  CHECK (__builtin_dynamic_object_size (p, 0) == (size_t) -1);
}

__attribute__ ((noinline)) static void
check_neg (struct neg *p, int i)
{
  CHECK (__builtin_dynamic_object_size (p->data, 1) == 0);
  CHECK (__builtin_dynamic_object_size (&p->data[i], 0) == 0);
}

int
main (void)
{
  int i = OPAQUE (2);
  /* Ten elements allocated, seven counted: the counter wins.  */
  struct foo *h = malloc (sizeof (*h) + 10 * sizeof (s16));
  h->counter = 7;
  check_foo (h, i);
  CHECK (__builtin_dynamic_object_size (h, 0) == sizeof (*h) + 20);
  h->counter = 20;
  CHECK (__builtin_dynamic_object_size (h->array, 1) == 40);
  free (h);

  struct neg *n = malloc (sizeof (*n) + 4 * sizeof (u64));
  n->n = -3;
  check_neg (n, i);
  free (n);

  /* Linux's DEFINE_RAW_FLEX: an on-stack union, counter left at 0.  */
  union { u8 bytes[sizeof (struct foo) + 2 * sizeof (s16)]; struct foo obj; } u = { .obj = { 0 } };
  struct foo *two = (struct foo *) &u;
  CHECK (__builtin_dynamic_object_size (two, 0) == 12);
  CHECK (__builtin_dynamic_object_size (two->array, 1) == 0);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin "unless-native-counted-by" } } */
