/* report=FILE: a record for each wrapper learnt from its body (name,
   roles as alloc= takes them, where it is defined, linkage, the
   allocator it calls), and its callers' sites name it.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"

struct foo { long long a, b, c; };

void *drv_pool_alloc (void *pool, size_t size, gfp_t gfp);

void *
drv_pool_alloc (void *pool, size_t size, gfp_t gfp)
{
  (void) pool;
  return kmalloc (size, gfp);
}

static void *
drv_zalloc (size_t size)
{
  return kzalloc (size, GFP_KERNEL);
}

struct foo *
use (void *pool)
{
  struct foo *p = drv_pool_alloc (pool, sizeof (*p), GFP_KERNEL);
  struct foo *q = drv_zalloc (sizeof (*q));
  (void) q;
  return p;
}

/* { dg-final { report-is-utf8-json } } */
/* { dg-final { scan-report {\{"kalloc":"[0-9.]+","wrapper":"drv_pool_alloc","roles":"_,size,gfp","file":"[^"]*report-wrapper-1.c","line":14,"linkage":"extern","calls":"kmalloc"\}} } } */
/* { dg-final { scan-report {\{"kalloc":"[0-9.]+","wrapper":"drv_zalloc","roles":"size","file":"[^"]*report-wrapper-1.c","line":21,"linkage":"static","calls":"kzalloc"\}} } } */
/* { dg-final { scan-report {"line":29,"column":\d+,"function":"use","allocator":"drv_pool_alloc","kind":"object"} } } */
/* { dg-final { scan-report {"line":30,"column":\d+,"function":"use","allocator":"drv_zalloc","kind":"object"} } } */
