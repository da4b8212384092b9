/* -fplugin-arg-kalloc-suggest: fix-its to Linux 7.0's typed allocators,
   with upstream's choices, in the program's own spelling.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest -fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct flex { int n; u32 data[] __counted_by (n); };
struct holder { struct foo *many; struct flex *fl; };

struct foo *
convert (struct holder *h, size_t n, gfp_t gfp)
{
  struct foo *p = kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*p\\)'" } */
  kfree (p);
  p = kzalloc (sizeof (struct foo), gfp); /* { dg-message "typed form: 'kzalloc_obj\\(struct foo, gfp\\)'" } */
  h->many = kcalloc (n, sizeof (*h->many), GFP_KERNEL); /* { dg-message "typed form: 'kzalloc_objs\\(\\*h->many, n\\)'" } */
  h->many = kmalloc_array (sizeof (struct foo), n, GFP_ATOMIC); /* { dg-message "typed form: 'kmalloc_objs\\(struct foo, n, GFP_ATOMIC\\)'" } */
  h->many = kvcalloc (n, sizeof (struct foo), GFP_KERNEL); /* { dg-message "typed form: 'kvzalloc_objs\\(struct foo, n\\)'" } */
  h->fl = kvzalloc (struct_size (h->fl, data, n), GFP_KERNEL); /* { dg-message "typed form: 'kvzalloc_flex\\(\\*h->fl, data, n\\)'" } */
  h->fl = kmalloc (struct_size_t (struct flex, data, n), gfp); /* { dg-message "typed form: 'kmalloc_flex\\(struct flex, data, n, gfp\\)'" } */
  p = (struct foo *) kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*p\\)'" } */
  return p;
}

/* Upstream leaves these alone, and so does kalloc.  */
void *
leave (size_t n, struct device *dev)
{
  /* (u32 *bytes = kmalloc (sizeof (*bytes)) is converted: suggest-3.c.)  */
  u32 *bytes = kcalloc (n, sizeof (*bytes), GFP_KERNEL); /* { dg-bogus "typed form" } */
  u8 **byte_ptrs = kcalloc (n, sizeof (u8 *), GFP_KERNEL); /* { dg-bogus "typed form" } */
  void **ptrs = kmalloc (sizeof (void *), GFP_KERNEL); /* { dg-bogus "typed form" } */
  struct foo *q = kmalloc_node (sizeof (*q), GFP_KERNEL, 0); /* { dg-bogus "typed form" } */
  struct foo *r = devm_kzalloc (dev, sizeof (*r), GFP_KERNEL); /* { dg-bogus "typed form" } */
  char *s = kmalloc (sizeof ("literal"), GFP_KERNEL); /* { dg-bogus "typed form" } */
  (void) bytes; (void) byte_ptrs; (void) ptrs; (void) q; (void) r; (void) s;
  return NULL;
}

/* { dg-final { scan-fixit "fix-it:.\[^\n\]*suggest-1.c.:.15:19-15:52.:.kmalloc_obj\\(\\*p\\)." } } */
/* { dg-final { scan-fixit ".23:7-23:55.:.kmalloc_obj\\(\\*p\\)." } } */
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 15 } */
