/* suggest: calls written as an allocator whose macro calls something
   else.  The x86 boot decompressor includes lib/xz/xz_dec_stream.c after
   "#define kmalloc(size, flags) malloc(size)"; upstream's conversion
   (Linux 7.0) rewrote those calls too, and with the kmalloc_obj () of
   <linux/slab.h> expanding through that kmalloc () the result builds.
   Such a call gets a fix-it and nothing else: no warning, no rewrite.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-suggest -fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct xz_dec { long long state[4]; };

static void *preboot_malloc (int size);
static void preboot_free (void *where);

#undef kmalloc
#undef kfree
#define kmalloc(size, flags) preboot_malloc (size)
#define kfree(ptr) preboot_free (ptr)

struct xz_dec *
xz_dec_init (void)
{
  struct xz_dec *s = kmalloc (sizeof (*s), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*s\\)'" } */
  return s;
}

struct xz_dec *
wrong_size (void)
{
  /* kalloc knows nothing of preboot_malloc's arguments: no warning (a
     recognised kmalloc () would get one: 8 bytes for a 32-byte struct),
     but the typed form, which makes the mistake a type error.  */
  struct xz_dec *d = kmalloc (sizeof (d), GFP_KERNEL); /* { dg-bogus "allocates" } */
  /* { dg-message "typed form: 'kmalloc_obj\\(d\\)'" "" { target *-*-* } 35 } */
  return d;
}

/* A kmalloc () that expands to the allocator and another pointer-valued
   call on the same line (allocation profiling saves a tag): the
   allocator's own site makes the one fix-it.  */
extern struct alloc_tag *tag_save (void);
extern void tag_restore (struct alloc_tag *);
#undef kmalloc
#define kmalloc(size, flags)						\
  ({ struct alloc_tag *_old = tag_save ();				\
     void *_res = kzalloc (size, flags);				\
     tag_restore (_old);						\
     _res; })

struct xz_dec *
profiled (void)
{
  struct xz_dec *s = kmalloc (sizeof (*s), GFP_KERNEL); /* { dg-message "typed form: 'kmalloc_obj\\(\\*s\\)'" } */
  return s;
}

/* Two other calls on the line, neither an allocator: which one is the
   allocation is not known, so no fix-it.  */
extern void *pool_get (int size);
extern void *pool_track (void *p);
#undef kmalloc
#define kmalloc(size, flags) pool_track (pool_get (size))

struct xz_dec *
ambiguous (void)
{
  struct xz_dec *s = kmalloc (sizeof (*s), GFP_KERNEL); /* { dg-bogus "typed form" } */
  return s;
}

static void *
preboot_malloc (int size)
{
  static unsigned char heap[4096];
  static int used;
  void *p = heap + used;
  used += size;
  return p;
}

static void
preboot_free (void *where)
{
  (void) where;
}

/* { dg-final { scan-fixit "fix-it:.\[^\n\]*suggest-4.c.:.25:22-25:55.:.kmalloc_obj\\(\\*s\\)." } } */
/* { dg-final { scan-fixit ".55:22-55:55.:.kmalloc_obj\\(\\*s\\)." } } */
/* The tree lacks the typed allocators: said once, at the first conversion.  */
/* { dg-message "kalloc: .k\[a-z_\]*. is not defined here: .*<kalloc.h>" "" { target *-*-* } 25 } */
