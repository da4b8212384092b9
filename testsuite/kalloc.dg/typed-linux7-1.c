/* Linux 7.x's typed allocators, in the shapes of 7.2's slab.h: the size
   is size_mul () or struct_size_t () of the type, and kmalloc_flex ()
   stores the counter itself (through __builtin_counted_by_ref () where
   the compiler has it).  Such a site is typed already: reported as
   "typed", never warned about, saturated or given a second counter
   store.  A legacy call beside them is still rewritten.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-dump -fplugin-arg-kalloc-report=kalloc-report.json" } */

#include "kernel.h"

#if defined(__has_builtin) && __has_builtin(__builtin_counted_by_ref)
#define __flex_counter(FAM) __builtin_counted_by_ref (FAM)
#else
#define __flex_counter(FAM) ((void *) NULL)
#endif
#define __set_flex_counter(FAM, COUNT)                                        \
  ({                                                                          \
    *_Generic (__flex_counter (FAM),                                          \
	       void *: &(size_t){ 0 },                                        \
	       default: __flex_counter (FAM)) = (COUNT);                      \
  })
#define __default_gfp(a, b, ...) b
#define default_gfp(...) __default_gfp (, ##__VA_ARGS__, GFP_KERNEL)
#define __alloc_objs(KMALLOC, GFP, TYPE, COUNT)                               \
  ({                                                                          \
    const size_t __obj_size = size_mul (sizeof (TYPE), COUNT);                \
    (TYPE *) KMALLOC (__obj_size, GFP);                                       \
  })
#define __alloc_flex(KMALLOC, GFP, TYPE, FAM, COUNT)                          \
  ({                                                                          \
    const size_t __count = (COUNT);                                           \
    const size_t __obj_size = struct_size_t (TYPE, FAM, __count);             \
    TYPE *__obj_ptr = KMALLOC (__obj_size, GFP);                              \
    if (__obj_ptr)                                                            \
      __set_flex_counter (__obj_ptr->FAM, __count);                           \
    __obj_ptr;                                                                \
  })
#define kmalloc_obj(VAR_OR_TYPE, ...)                                         \
  __alloc_objs (kmalloc, default_gfp (__VA_ARGS__), typeof (VAR_OR_TYPE), 1)
#define kzalloc_objs(P, COUNT, ...)                                           \
  __alloc_objs (kzalloc, default_gfp (__VA_ARGS__), typeof (P), COUNT)
#define kzalloc_flex(P, FAM, COUNT, ...)                                      \
  __alloc_flex (kzalloc, default_gfp (__VA_ARGS__), typeof (P), FAM, COUNT)

struct item { u64 a, b; };
struct table { u8 n; struct item items[] __counted_by (n); };

struct item *one (void)
{
  struct item *it = kmalloc_obj (*it); /* { dg-bogus "warning" } */
  return it;
}

struct item *many (size_t n)
{
  struct item *v = kzalloc_objs (*v, n); /* { dg-bogus "warning" } */
  return v;
}

struct table *flex (size_t n)
{
  struct table *t = kzalloc_flex (*t, items, n); /* { dg-bogus "warning" } */
  return t;
}

struct item *legacy (size_t n)
{
  return kmalloc (n * sizeof (struct item), GFP_KERNEL);
}

/* { dg-final { scan-kalloc-dump-times " typed" 3 } } */
/* { dg-final { scan-kalloc-dump-times "typed \[a-z-\]" 0 } } */
/* { dg-final { scan-kalloc-dump-times "line 69 kmalloc kind=array pointee=struct item count=\[^ \]* saturate" 1 } } */
/* { dg-final { scan-report "\"line\":51,\[^\n\]*\"typed\":true\[^\n\]*\"rewrites\":\\\[\\\],\"warnings\":\\\[\\\]" } } */
/* { dg-final { scan-report "\"line\":57,\[^\n\]*\"typed\":true\[^\n\]*\"rewrites\":\\\[\\\],\"warnings\":\\\[\\\]" } } */
/* { dg-final { scan-report "\"line\":63,\[^\n\]*\"typed\":true\[^\n\]*\"rewrites\":\\\[\\\],\"warnings\":\\\[\\\]" } } */
