/* suggest on sizeof (struct foo[2]) stored in a struct foo *: never
   kmalloc_obj (struct foo[2]), which returns a pointer to the array
   (kmalloc_objs (*p, 2) is the conversion; kalloc leaves it alone).  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest" } */

#include "kernel.h"

struct foo { long a, b; };

struct foo *
pair (void)
{
  struct foo *p = kmalloc (sizeof (struct foo[2]), GFP_KERNEL); /* { dg-bogus "typed form" } */
  return p;
}

u32 *
words (void)
{
  u32 *w = kmalloc (sizeof (u32[4]), GFP_KERNEL); /* { dg-bogus "typed form" } */
  return w;
}

struct foo *
one (void)
{
  struct foo *p = kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*p\\)'" } */
  return p;
}
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 28 } */
