/* Arrays whose element size is not the pointee's, for every array
   allocator and the open-coded n * size.  */
/* { dg-do compile } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *kcalloc_ptr (size_t n)
{
  struct foo *p = kcalloc (n, sizeof (p), GFP_KERNEL); /* { dg-warning "'kcalloc' element size \[48\] does not match 'struct foo' of 24 bytes; did you mean 'sizeof \\(\\*p\\)'" } */
  return p;
}

struct foo *kmalloc_array_ptr (size_t n)
{
  struct foo *p = kmalloc_array (n, sizeof (struct foo *), GFP_KERNEL); /* { dg-warning "'kmalloc_array' element size \[48\]" } */
  return p;
}

struct foo *kcalloc_node_ptr (size_t n)
{
  struct foo *p = kcalloc_node (n, sizeof (p), GFP_KERNEL, 0); /* { dg-warning "element size \[48\]" } */
  return p;
}

struct foo *kmalloc_array_node_ptr (size_t n)
{
  struct foo *p = kmalloc_array_node (n, sizeof (p), GFP_KERNEL, 0); /* { dg-warning "'kmalloc_array_node' element size \[48\]" } */
  return p;
}

struct foo *kvcalloc_ptr (size_t n)
{
  struct foo *p = kvcalloc (n, sizeof (p), GFP_KERNEL); /* { dg-warning "'kvcalloc' element size \[48\]" } */
  return p;
}

struct foo *kvmalloc_array_ptr (size_t n)
{
  struct foo *p = kvmalloc_array (n, sizeof (p), GFP_KERNEL); /* { dg-warning "'kvmalloc_array' element size \[48\]" } */
  return p;
}

struct foo *devm_kcalloc_ptr (struct device *dev, size_t n)
{
  struct foo *p = devm_kcalloc (dev, n, sizeof (p), GFP_KERNEL); /* { dg-warning "'devm_kcalloc' element size \[48\]" } */
  return p;
}

struct foo *devm_kmalloc_array_ptr (struct device *dev, size_t n)
{
  struct foo *p = devm_kmalloc_array (dev, n, sizeof (p), GFP_KERNEL); /* { dg-warning "'devm_kmalloc_array' element size \[48\]" } */
  return p;
}

struct foo *krealloc_array_ptr (struct foo *old, size_t n)
{
  struct foo *p = krealloc_array (old, n, sizeof (p), GFP_KERNEL); /* { dg-warning "'krealloc_array' element size \[48\]" } */
  return p;
}

/* Open-coded products, either order, through a temporary.  */
struct foo *open_coded (size_t n, int m, unsigned short k)
{
  struct foo *p = kmalloc (n * sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' element size \[48\] does not match 'struct foo'" } */
  kfree (p);
  p = kzalloc (sizeof (p) * m, GFP_KERNEL); /* { dg-warning "'kzalloc' element size \[48\]" } */
  kfree (p);
  size_t bytes = k * sizeof (struct foo *);
  p = kvmalloc (bytes, GFP_KERNEL); /* { dg-warning "'kvmalloc' element size \[48\]" } */
  return p;
}

/* A count expression: (n + 1) elements of a pointer's size.  */
struct foo *count_expression (size_t n)
{
  struct foo *p = kmalloc ((n + 1) * sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' element size \[48\] does not match 'struct foo'" } */
  kfree (p);
  p = kzalloc (sizeof (*p) * (n + 2), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

/* Smaller element type.  */
u64 *short_elements (size_t n)
{
  u64 *v = kcalloc (n, sizeof (u32), GFP_KERNEL); /* { dg-warning "'kcalloc' element size 4 does not match 'u64' {aka '\[^'\]*'} of 8 bytes; did you mean 'sizeof \\(\\*v\\)'" } */
  return v;
}

/* Correct arrays say nothing, in either argument order.  */
struct foo *correct (struct device *dev, size_t n)
{
  struct foo *p = kcalloc (n, sizeof (*p), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kcalloc (sizeof (*p), n, GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kmalloc_array (n, sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kmalloc (n * sizeof (*p), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kmalloc (sizeof (*p) * 2 * n, GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kcalloc (n, 2 * sizeof (*p), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kcalloc (1, sizeof (*p), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kcalloc (sizeof (*p), 4, GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  return devm_kcalloc (dev, n, sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "element size" } */
}
