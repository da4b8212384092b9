/* A driver's allocation wrappers, in their own file (wrappers.exp): the
   first build learns them and writes them into its report.  */
#include "kernel.h"

void *drv_alloc (size_t size, gfp_t gfp);
void *drv_calloc (void *pool, size_t n, size_t size);

void *
drv_alloc (size_t size, gfp_t gfp)
{
  void *p = kmalloc (size, gfp);
  if (!p)
    return NULL;
  return p;
}

void *
drv_calloc (void *pool, size_t n, size_t size)
{
  (void) pool;
  return kcalloc (n, size, GFP_KERNEL);
}

/* Only this file can call it: no line in the wrapper file.  */
static void *
local_alloc (size_t size)
{
  return kzalloc (size, GFP_KERNEL);
}

void *drv_local (void);

void *
drv_local (void)
{
  return local_alloc (64);
}
