/* Calls to the wrappers of drv-lib.c (wrappers.exp): with the wrapper
   file a build of drv-lib.c's report made, they are sites.  */
#include "kernel.h"

void *drv_alloc (size_t size, gfp_t gfp);
void *drv_calloc (void *pool, size_t n, size_t size);

struct foo
{
  u64 a, b, c;
};

struct foo *
use (void *pool, size_t n)
{
  struct foo *p = drv_alloc (sizeof (p), GFP_KERNEL);
  struct foo *q = drv_calloc (pool, n, sizeof (q));
  struct foo *r = drv_alloc (sizeof (*r), GFP_KERNEL);
  (void) q; (void) r;
  return p;
}
