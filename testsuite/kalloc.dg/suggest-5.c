/* suggest never writes code that warns.  kmalloc_obj (X)
   returns a pointer to typeof (X): from a const source that is a pointer
   to const, and from another type a pointer to that type, either of
   which the destination would not take without a diagnostic.  A
   qualified operand becomes *VAR of the destination; another type is left
   to the type warning.  Calls already written with the typed macros get
   no note at all.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest -fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct foo { long a, b; };
struct bar { long c, d; };
struct big { long e[8]; };
struct flex { int n; int pad; long items[]; };

/* Linux 6.12 stable's typed macros (a backport in some trees).  */
#define __alloc_objs(KMALLOC, GFP, TYPE, COUNT)				\
  ({ const size_t __obj_size = size_mul (sizeof (TYPE), COUNT);		\
     (TYPE *) KMALLOC (__obj_size, GFP); })
#define kvmalloc_objs(VAR_OR_TYPE, COUNT, GFP)				\
  __alloc_objs (kvmalloc, GFP, __typeof__ (VAR_OR_TYPE), COUNT)
#define kmalloc_obj(VAR_OR_TYPE, GFP)					\
  __alloc_objs (kmalloc, GFP, __typeof__ (VAR_OR_TYPE), 1)

struct foo *const_source (const struct foo *src, size_t n)
{
  struct foo *p = kmalloc (sizeof (*src), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*p\\)'" } */
  kfree (p);
  p = kcalloc (n, sizeof (*src), GFP_KERNEL); /* { dg-message "typed form: 'kzalloc_objs\\(\\*p, n\\)'" } */
  kfree (p);
  p = kzalloc (sizeof (const struct foo), GFP_KERNEL); /* { dg-message "typed form: 'kzalloc_obj\\(\\*p\\)'" } */
  return p;
}

struct flex *const_flex (const struct flex *src, size_t n)
{
  struct flex *p = kmalloc (struct_size (src, items, n), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_flex\\(\\*p, items, n\\)'" } */
  return p;
}

/* The call's own operand where it fits, qualifiers of the destination
   included.  */
const struct foo *const_dest (const struct foo *src)
{
  const struct foo *p = kmalloc (sizeof (*src), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*src\\)'" } */
  return p;
}

/* No variable to name: leave it.  */
struct foo *returned (const struct foo *src)
{
  return kmalloc (sizeof (*src), GFP_KERNEL); /* { dg-bogus "typed form" } */
}

/* Another type: converting would change the size or the result's type;
   the type warning speaks, and a note says the call is not converted (a
   typed form there would be an excess message).  */
struct bar *other_type (size_t n)
{
  struct bar *b = kmalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-warning "'kmalloc' sizes 'struct foo' for 'struct bar'" } */
  /* { dg-message "'kmalloc' not converted to its typed form: its size is wrong" "" { target *-*-* } 62 } */
  kfree (b);
  b = kmalloc (sizeof (struct big), GFP_KERNEL); /* { dg-bogus "typed form" } */
  kfree (b);
  b = kcalloc (n, sizeof (struct foo), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'struct foo' for 'struct bar'" } */
  /* { dg-message "'kcalloc' not converted to its typed form: its size is wrong" "" { target *-*-* } 67 } */
  return b;
}

/* Already typed: nothing to say, not even "written in a macro body".  */
struct foo *typed_already (size_t n)
{
  struct foo *p = kvmalloc_objs (struct foo, n, GFP_KERNEL); /* { dg-bogus "typed form|macro body" } */
  kvfree (p);
  p = kmalloc_obj (*p, GFP_KERNEL); /* { dg-bogus "typed form|macro body" } */
  return p;
}
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 31 } */
