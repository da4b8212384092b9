/* suggest: calls over several lines keep their layout; calls written in
   a macro body get no fix-it but are listed; -fdiagnostics-generate-patch
   prints the patch; suggest-keep-gfp keeps GFP_KERNEL.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest -fplugin-arg-kalloc-suggest-keep-gfp -fdiagnostics-generate-patch" } */

#include "kernel.h"

struct foo { long long a, b, c; };
#define ALLOC_FOO() kmalloc (sizeof (struct foo), GFP_KERNEL)

struct foo *
f (size_t n)
{
  struct foo *p = kmalloc_array (n,
				 sizeof (*p),
				 GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_objs\\(\\*p, n, GFP_KERNEL\\)'" "" { target *-*-* } 15 } */
  kfree (p);
  p = ALLOC_FOO (); /* { dg-message "'kmalloc' is written in a macro body: no fix-it" } */
  kfree (p);
  return kzalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-message "typed form: 'kzalloc_obj\\(struct foo, GFP_KERNEL\\)'" } */
}

/* { dg-final { scan-patch "\\+  struct foo \\*p = kmalloc_objs \\(\\*p,\n\\+\t\t\t\t n,\n" } } */
/* { dg-final { scan-patch "\\+  return kzalloc_obj\\(struct foo, GFP_KERNEL\\);" } } */
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 15 } */
