/* The pointee type comes from where the result goes: a local, a field,
   a global, a return value, an array slot, through casts, copies and
   PHI nodes.  */
/* { dg-do compile } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct holder { int id; struct foo *f; struct foo *slots[4]; };
struct foo *global_foo;

void to_field (struct holder *h)
{
  h->f = kmalloc (sizeof (h->f), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates \[48\] bytes, the size of a pointer, for 'struct foo', which needs 24; did you mean 'sizeof \\(\\*h->f\\)'" } */
}

void to_global (void)
{
  global_foo = kzalloc (sizeof (global_foo), GFP_KERNEL); /* { dg-warning "did you mean 'sizeof \\(\\*global_foo\\)'" } */
}

struct foo *to_return (void)
{
  return kmalloc (sizeof (struct foo *), GFP_KERNEL); /* { dg-warning "for 'struct foo', which needs 24; did you mean 'sizeof \\(struct foo\\)'" } */
}

void to_slot (struct holder *h, int i)
{
  h->slots[i] = kmalloc (8, GFP_KERNEL); /* { dg-warning "for 'struct foo', which needs 24" } */
}

struct foo *through_cast (void)
{
  struct foo *p = (struct foo *) kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  return p;
}

struct foo *through_void (void)
{
  void *mem = kmalloc (16, GFP_KERNEL); /* { dg-warning "allocates 16 bytes for 'struct foo', which needs 24" } */
  struct foo *p = mem;
  return p;
}

struct foo *through_phi (int c)
{
  struct foo *p;
  if (c)
    p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  else
    p = kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  return p;
}

void escape (struct foo **);

struct foo *addressable (void)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates \[48\] bytes" } */
  escape (&p);
  return p;
}

/* Two destinations of different types: kalloc does not guess.  */
struct bar { char c[4]; };
void *two_types (struct foo **a, struct bar **b)
{
  void *mem = kmalloc (8, GFP_KERNEL); /* { dg-bogus "allocates" } */
  *a = mem;
  *b = mem;
  return mem;
}

typedef struct foo foo_t;
foo_t *typedef_name (void)
{
  foo_t *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "for 'foo_t' {aka 'struct foo'}, which needs 24" } */
  return p;
}
