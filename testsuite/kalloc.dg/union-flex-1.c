/* A structure that is only its flexible array: a union of a header and
   the array at offset 0, allocated as count * element (Linux's
   struct net_generic, net/core/net_namespace.c).  On 32-bit arm the
   kernel's offsetof (struct net_generic, ptr[n]) is n * 4 in size_t and
   kalloc took it for an array of 4-byte elements of a 12-byte structure.
   With size_t counts the same shape is seen on 64-bit targets.  */
/* { dg-do compile } */

#include "kernel.h"

#define DECLARE_FLEX_ARRAY(TYPE, NAME) \
  struct { struct { } __empty_##NAME; TYPE NAME[]; }

struct rcu { void *next; void (*func) (struct rcu *); };

struct net_generic
{
  union
  {
    struct { unsigned int len; struct rcu rcu; } s;
    DECLARE_FLEX_ARRAY (void *, ptr);
  };
};

/* A header of three longs and an int array.  */
struct plain_union
{
  union
  {
    struct { long len; long more; long extra; } s;
    DECLARE_FLEX_ARRAY (int, ids);
  };
};

struct net_generic *
net_alloc_generic (unsigned int gen_ptrs)
{
  size_t generic_size = offsetof (struct net_generic, ptr[gen_ptrs]);
  struct net_generic *ng = kzalloc (generic_size, GFP_KERNEL); /* { dg-bogus "element size" } */
  return ng;
}

struct net_generic *
net_alloc_generic_count (size_t n)
{
  struct net_generic *ng = kzalloc (n * sizeof (void *), GFP_KERNEL); /* { dg-bogus "element size" } */
  return ng;
}

struct plain_union *
plain (size_t n)
{
  struct plain_union *p = kmalloc_array (n, sizeof (int), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

/* Still a bug: the array starts after a header the size leaves out.  */
struct after_header { unsigned long long a, b; unsigned int data[]; };

struct after_header *
missing_header (size_t n)
{
  struct after_header *p = kmalloc_array (n, sizeof (unsigned int), GFP_KERNEL); /* { dg-warning "element size 4 does not match 'struct after_header' of 16 bytes" } */
  return p;
}

/* Still a bug: an element of the wrong size.  */
struct plain_union *
wrong_element (size_t n)
{
  struct plain_union *p = kmalloc_array (n, sizeof (short), GFP_KERNEL); /* { dg-warning "element size 2 does not match" } */
  return p;
}
