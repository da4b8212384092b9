/* suggest: the cases where scoring against upstream's Coccinelle run over
   Linux 6.12 (testsuite/suggest/score-cocci.sh) found kalloc and upstream
   apart (docs/suggest.md).  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest -fplugin-arg-kalloc-suggest-keep-gfp" } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct holder { u8 *buf; u32 *words; struct holder *next; };
void take (void *);

void
assigned (struct holder *h, size_t n)
{
  /* Upstream's first rule, VAR = ALLOC (sizeof (*VAR), GFP), converts
     whatever VAR's type: kmalloc_obj (*VAR) has VAR's own type.  */
  u32 *w = kmalloc (sizeof (*w), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*w, GFP_KERNEL\\)'" } */
  h->buf = kzalloc (sizeof (*h->buf), GFP_KERNEL); /* { dg-message "typed form: 'kzalloc_obj\\(\\*h->buf, GFP_KERNEL\\)'" } */
  w = kmalloc (sizeof (*w), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*w, GFP_KERNEL\\)'" } */
  take (w);
  /* ... but not another expression of that type, nor the array forms,
     nor a tail of the left-hand side.  */
  h->words = kmalloc (sizeof (*w), GFP_KERNEL); /* { dg-bogus "typed form" } */
  struct holder *next = h->next;
  h->next->buf = kmalloc (sizeof (*next->buf), GFP_KERNEL); /* { dg-bogus "typed form" } */
  h->words = kcalloc (n, sizeof (*h->words), GFP_KERNEL); /* { dg-bogus "typed form" } */
  u8 *b = kmalloc (sizeof (u8), GFP_KERNEL); /* { dg-bogus "typed form" } */
  take (b);
  /* Byte destinations count for the exclusions (kalloc's own analysis
     treats them as untyped buffers).  */
  b = kcalloc (n, sizeof (*b), GFP_KERNEL); /* { dg-bogus "typed form" } */
  take (b);
  char *text = kmalloc (sizeof (*b), GFP_KERNEL); /* { dg-bogus "typed form" } */
  take (text);
}

void
argument (void)
{
  /* A call that is another call's argument: GCC locates it at the outer
     call (static inline allocators).  */
  take (kmalloc (sizeof (struct foo), GFP_KERNEL)); /* { dg-message "typed form: 'kmalloc_obj\\(struct foo, GFP_KERNEL\\)'" } */
}

/* A flexible array that is a member of a member (net/core/flow_offload.c):
   kalloc's size analysis finds no flexible array of the pointee, the
   call's text converts all the same.  */
struct entries { unsigned int num; struct foo entries[]; };
struct rule { long match; struct entries action; };

struct rule *
nested (unsigned int n)
{
  struct rule *r = kzalloc (struct_size (r, action.entries, n), GFP_KERNEL); /* { dg-message "typed form: 'kzalloc_flex\\(\\*r, action.entries, n, GFP_KERNEL\\)'" } */
  return r;
}

/* sizeof without parentheses takes a unary expression only.  */
struct foo *
unparenthesized (size_t n)
{
  struct foo *p = kmalloc (sizeof *p, GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*p, GFP_KERNEL\\)'" } */
  take (p);
  p = kmalloc (sizeof *p * n, GFP_KERNEL); /* { dg-bogus "typed form" } */
  return p;
}
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 18 } */
