/* The sizeof (p) bug: a single object allocated with the size of a
   pointer, for every size-taking allocator.  */
/* { dg-do compile } */

#include "kernel.h"

struct foo { long long a, b, c; };

struct foo *kmalloc_ptr (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo', which needs 24; did you mean 'sizeof \\(\\*p\\)'" } */
  return p;
}

struct foo *kzalloc_ptr (void)
{
  struct foo *p = kzalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "'kzalloc' allocates \[48\] bytes" } */
  return p;
}

struct foo *kmalloc_node_ptr (void)
{
  struct foo *p = kmalloc_node (sizeof (p), GFP_KERNEL, 0); /* { dg-warning "'kmalloc_node' allocates \[48\] bytes" } */
  return p;
}

struct foo *kzalloc_node_ptr (void)
{
  struct foo *p = kzalloc_node (sizeof (p), GFP_KERNEL, 0); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *kvmalloc_ptr (void)
{
  struct foo *p = kvmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *kvzalloc_ptr (void)
{
  struct foo *p = kvzalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *kvmalloc_node_ptr (void)
{
  struct foo *p = kvmalloc_node (sizeof (p), GFP_KERNEL, 0); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *kvzalloc_node_ptr (void)
{
  struct foo *p = kvzalloc_node (sizeof (p), GFP_KERNEL, 0); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *devm_kmalloc_ptr (struct device *dev)
{
  struct foo *p = devm_kmalloc (dev, sizeof (p), GFP_KERNEL); /* { dg-warning "'devm_kmalloc' allocates \[48\] bytes" } */
  return p;
}

struct foo *devm_kzalloc_ptr (struct device *dev)
{
  struct foo *p = devm_kzalloc (dev, sizeof (p), GFP_KERNEL); /* { dg-warning "'devm_kzalloc' allocates \[48\] bytes" } */
  return p;
}

/* Another structure's size, smaller than the pointee.  */
struct small { int x; };

struct foo *other_struct (void)
{
  struct foo *p = kmalloc (sizeof (struct small), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 4 bytes\[^\n\]* for 'struct foo', which needs 24; did you mean 'sizeof \\(\\*p\\)'" } */
  return p;
}

/* The correct forms say nothing.  */
struct foo *correct (struct device *dev)
{
  struct foo *p = kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kzalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kvmalloc (sizeof (*p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kvfree (p);
  return devm_kzalloc (dev, sizeof (*p), GFP_KERNEL); /* { dg-bogus "allocates" } */
}
