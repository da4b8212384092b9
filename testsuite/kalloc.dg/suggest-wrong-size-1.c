/* suggest leaves a call whose size is wrong unconverted, and says so: a
   typed form would fix the size without a word.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest -fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct foo { long a, b, c; };

struct foo *
wrong_sizes (size_t n)
{
  struct foo *p = kmalloc (sizeof (p), GFP_KERNEL); /* { dg-warning "allocates 8 bytes|allocates 4 bytes" } */
  /* { dg-message "'kmalloc' not converted to its typed form: its size is wrong" "" { target *-*-* } 13 } */
  struct foo *q = kcalloc (n, sizeof (q), GFP_KERNEL); /* { dg-warning "element size" } */
  /* { dg-message "'kcalloc' not converted to its typed form" "" { target *-*-* } 15 } */
  struct foo *r = kmalloc (sizeof (*r), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*r\\)'" } */
  kfree (q);
  kfree (r);
  return p;
}
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 17 } */
