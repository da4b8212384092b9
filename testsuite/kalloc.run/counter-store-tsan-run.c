/* Under -fsanitize=thread (the kernel's KCSAN too) the counter is stored
   under a branch, never to the translation unit's static sink: two
   threads whose allocations fail at once would be reported as racing on
   it.  Here two threads allocate counted structures, every other count
   too large for the counter (the allocation fails); ThreadSanitizer
   exits non-zero on any race it sees.  The allocations are freed in the
   worker, returned from a function, and stored in a global: each once
   crashed cc1 at -O1 and above.  */
/* { dg-do run } */
/* { dg-options "-fsanitize=thread -pthread" } */
/* { dg-require-sanitize-thread "" } */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "run-check.h"

#include "counted-by.h"

struct vec
{
  long id;
  unsigned char count;
  int items[] __counted_by (count);
};

/* malloc (SIZE_MAX) returns NULL, as it does without the sanitizer.  */
const char *__tsan_default_options (void);
const char *
__tsan_default_options (void)
{
  return "allocator_may_return_null=1";
}

static volatile size_t sizes[2] = { 7, 300 };
static int wrong[2];

struct vec *vec_new (size_t n);
__attribute__ ((__noinline__)) struct vec *
vec_new (size_t n)
{
  struct vec *v = malloc (sizeof (*v) + n * sizeof (v->items[0]));
  return v;
}

static struct vec *last;

void vec_publish (size_t n);
__attribute__ ((__noinline__)) void
vec_publish (size_t n)
{
  last = malloc (sizeof (*last) + n * sizeof (last->items[0]));
}

static void *
worker (void *arg)
{
  int *failures = arg;
  for (int i = 0; i < 2000; i++)
    {
      size_t n = sizes[i & 1];
      struct vec *v = malloc (sizeof (*v) + n * sizeof (v->items[0]));
      if (i & 1 ? v != NULL : !v || v->count != n)
	(*failures)++;
      free (v);
      v = vec_new (n);
      if (i & 1 ? v != NULL : !v || v->count != n)
	(*failures)++;
      free (v);
    }
  return NULL;
}

int
main (void)
{
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    CHECK (pthread_create (&t[i], NULL, worker, &wrong[i]) == 0);
  for (int i = 0; i < 2; i++)
    CHECK (pthread_join (t[i], NULL) == 0);
  CHECK (wrong[0] == 0 && wrong[1] == 0);
  vec_publish (sizes[0]);
  CHECK (last && last->count == 7);
  free (last);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
