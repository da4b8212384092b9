/*
 * drv-wrappers.h - a vendor driver's allocation wrappers, as static
 * inline functions in a header, for kalloc's wrapper tests: kalloc
 * learns them from their bodies (include kernel.h first).
 */
#ifndef KALLOC_TEST_DRV_WRAPPERS_H
#define KALLOC_TEST_DRV_WRAPPERS_H

static inline void *
osal_zalloc (size_t size, gfp_t flags)
{
  return kzalloc (size, flags);
}

static inline void *
osal_calloc (size_t n, size_t size, gfp_t flags)
{
  if (!n)
    return NULL;
  return kcalloc (n, size, flags);
}

#endif
