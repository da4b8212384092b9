/* A counter its allocating function never sets, in memory that may be
   zeroed, is left alone: another function may fill the array from that
   zero.  Linux 6.12's ASoC allocates a runtime with kzalloc () in
   soc_new_pcm_runtime () and fills rtd->components[] in
   snd_soc_rtd_add_component () as
   rtd->components[++rtd->num_components - 1] = component; a counter set
   to the capacity at allocation sends the first component past the end.
   In memory that is not zeroed (kmalloc () with constant flags) correct
   code must set the counter before it reads it, so kalloc still sets it
   at allocation.  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-dump" } */

#include "kernel.h"

struct component { int id; };
struct runtime
{
  long id;
  int num_components;
  struct component *components[] __counted_by (num_components);
};
struct zeroed_flags { long id; u32 used; u32 items[] __counted_by (used); };
struct any_flags { long id; u32 used; u32 items[] __counted_by (used); };
struct not_zeroed { long id; u32 n; u32 items[] __counted_by (n); };

__attribute__ ((__noinline__)) static struct runtime *
runtime_new (size_t n)
{
  return kzalloc (struct_size ((struct runtime *) 0, components, n),
		  GFP_KERNEL);
}

__attribute__ ((__noinline__)) static void
runtime_add (struct runtime *rtd, struct component *c)
{
  rtd->num_components++;
  rtd->components[rtd->num_components - 1] = c;
}

__attribute__ ((__noinline__)) static struct zeroed_flags *
zeroed_flags_new (size_t n)
{
  struct zeroed_flags *p;
  return kmalloc (struct_size (p, items, n), GFP_KERNEL | __GFP_ZERO);
}

__attribute__ ((__noinline__)) static struct any_flags *
any_flags_new (size_t n, gfp_t gfp)
{
  struct any_flags *p;
  return kmalloc (struct_size (p, items, n), gfp);
}

/* Flags without __GFP_ZERO: the counter is set at allocation; the code
   sets it itself elsewhere before any use.  */
__attribute__ ((__noinline__)) static struct not_zeroed *
not_zeroed_new (size_t n)
{
  struct not_zeroed *p;
  return kmalloc (struct_size (p, items, n), GFP_KERNEL);
}

int
main (void)
{
  struct component a = { 1 }, b = { 2 };
  size_t cap = OPAQUE ((size_t) 3);

  struct runtime *rtd = runtime_new (cap);
  CHECK (rtd && rtd->num_components == 0);
  if (rtd)
    {
      runtime_add (rtd, &a);
      runtime_add (rtd, &b);
      CHECK (rtd->num_components == 2);
      CHECK (rtd->components[0] == &a && rtd->components[1] == &b);
      CHECK (rtd->components[2] == NULL);
    }
  kfree (rtd);

  struct zeroed_flags *z = zeroed_flags_new (cap);
  CHECK (z && z->used == 0);
  if (z)
    z->items[z->used++] = 5;
  CHECK (z && z->used == 1);
  kfree (z);

  struct any_flags *f = any_flags_new (cap, OPAQUE (GFP_KERNEL | __GFP_ZERO));
  CHECK (f && f->used == 0);
  kfree (f);

  struct not_zeroed *s = not_zeroed_new (cap);
  CHECK (s && s->n == 3);
  kfree (s);
  return kstub_failures != 0;
}

/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct runtime \[^\n\]*counter-left=\"escapes before set\"" } } */
/* { dg-final { scan-kalloc-dump-not "pointee=struct runtime \[^\n\]*counter-(store|check)" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct zeroed_flags \[^\n\]*counter-left=\"escapes before set\"" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct any_flags \[^\n\]*counter-left=\"escapes before set\"" } } */
/* { dg-final { scan-kalloc-dump "kind=flex pointee=struct not_zeroed \[^\n\]*counter-store" } } */
