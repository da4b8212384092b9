/*
 * kernel.h - a userspace stand-in for the kernel's allocation API, for
 * kalloc's tests.
 *
 * Two shapes, as real kernels have them:
 *   default          Linux 6.1: kmalloc () and friends are static inline
 *                    (kmalloc () __always_inline) functions;
 *   -DKSHAPE_HOOKS   Linux 6.10+: kmalloc (...) is a macro,
 *                    alloc_hooks (kmalloc_noprof (...)), and the result
 *                    passes through a statement-expression temporary.
 * The wrappers keep the kernel's own bodies (overflow checks in the
 * array forms, __GFP_ZERO for the z forms); the bottom allocator is
 * malloc (), fails above KMALLOC_MAX_SIZE like the slab allocator, and
 * records the size it was asked for.  Memory that is not zeroed is
 * poisoned, so an unset counter is visible.
 */
#ifndef KALLOC_TEST_KERNEL_H
#define KALLOC_TEST_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* As the kernel builds (-Walloc-size-larger-than=18446744073709551615EiB):
   its size helpers saturate to SIZE_MAX on purpose, and GCC 11 warns when
   an inlined path passes that to an __alloc_size allocator.  Only the
   stand-in's own lines are concerned.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Walloc-size-larger-than="

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;
#if __STDC_VERSION__ < 202311L
typedef _Bool bool;
#define true 1
#define false 0
#endif

#define __GFP_ZERO 0x100u
#define GFP_KERNEL 0xcc0u
#define GFP_ATOMIC 0x820u
#define NUMA_NO_NODE (-1)
#define KMALLOC_MAX_SIZE ((size_t) 1 << 30)
#define SIZE_MAX_T ((size_t) -1)

#undef __always_inline
#define __always_inline inline __attribute__ ((__always_inline__))
#define __must_check __attribute__ ((__warn_unused_result__))
#define __maybe_unused __attribute__ ((__unused__))
#define __alloc_size(...) __attribute__ ((__alloc_size__ (__VA_ARGS__)))
#define __malloc __attribute__ ((__malloc__))

#include "counted-by.h"

#define DECLARE_FLEX_ARRAY(TYPE, NAME)                                        \
  struct                                                                      \
  {                                                                           \
    struct                                                                    \
    {                                                                         \
    } __empty_##NAME;                                                         \
    TYPE NAME[];                                                              \
  }

struct device
{
  int id;
};

/* ---- the bottom allocator --------------------------------------------- */

static size_t kstub_last_size __maybe_unused;
static unsigned kstub_calls __maybe_unused;

#ifdef KSTUB_SIZE_ONLY
/* Differential tests that only read kstub_last_size: no memory is
   allocated or touched (their sizes go up to KMALLOC_MAX_SIZE).  */
static char kstub_no_memory[64] __maybe_unused;
#endif

/* __alloc_size, as the kernel's own bottom allocators (__kmalloc ()) have
   it: kalloc takes such functions for allocators and leaves their bodies
   alone, so the malloc () and realloc () below are no sites.  */
__attribute__ ((__noinline__, __unused__)) __alloc_size (1) static void *
kstub_alloc (size_t size, gfp_t flags)
{
  void *p;
  kstub_calls++;
  kstub_last_size = size;
  if (size > KMALLOC_MAX_SIZE)
    return NULL;
#ifdef KSTUB_SIZE_ONLY
  return kstub_no_memory;
#endif
  p = malloc (size ? size : 1);
  if (p)
    memset (p, (flags & __GFP_ZERO) ? 0 : 0xa5, size);
  return p;
}

__attribute__ ((__noinline__, __unused__)) __alloc_size (2) static void *
kstub_realloc (void *old, size_t size, gfp_t flags)
{
  kstub_calls++;
  kstub_last_size = size;
  if (size > KMALLOC_MAX_SIZE)
    return NULL;
  (void) flags;
  return realloc (old, size ? size : 1);
}

static inline __maybe_unused void
kfree (const void *p)
{
#ifdef KSTUB_SIZE_ONLY
  if (p == kstub_no_memory)
    return;
#endif
  free ((void *) p);
}
#define kvfree kfree

/* ---- include/linux/overflow.h ------------------------------------------ */

#define check_mul_overflow(a, b, d) __builtin_mul_overflow (a, b, d)
#define check_add_overflow(a, b, d) __builtin_add_overflow (a, b, d)
#define __is_constexpr(x)                                                     \
  (sizeof (int) == sizeof (*(8 ? ((void *) ((long) (x) * 0l)) : (int *) 8)))
#define __must_be_array(a) 0

static inline size_t __must_check __maybe_unused
size_mul (size_t factor1, size_t factor2)
{
  size_t bytes;
  if (check_mul_overflow (factor1, factor2, &bytes))
    return SIZE_MAX;
  return bytes;
}

static inline size_t __must_check __maybe_unused
size_add (size_t addend1, size_t addend2)
{
  size_t bytes;
  if (check_add_overflow (addend1, addend2, &bytes))
    return SIZE_MAX;
  return bytes;
}

#define array_size(a, b) size_mul (a, b)
#define array3_size(a, b, c) size_mul (size_mul (a, b), c)
#define flex_array_size(p, member, count)                                     \
  __builtin_choose_expr (__is_constexpr (count),                              \
			 (count) * sizeof (*(p)->member)                      \
			   + __must_be_array ((p)->member),                   \
			 size_mul (count, sizeof (*(p)->member)               \
					    + __must_be_array ((p)->member)))
#define struct_size(p, member, count)                                         \
  __builtin_choose_expr (__is_constexpr (count),                              \
			 sizeof (*(p)) + flex_array_size (p, member, count),  \
			 size_add (sizeof (*(p)),                             \
				   flex_array_size (p, member, count)))
#define struct_size_t(type, member, count)                                    \
  struct_size ((type *) NULL, member, count)

/* ---- include/linux/slab.h ---------------------------------------------- */

#ifdef KSHAPE_HOOKS
/* Linux 6.10+: FOO () is alloc_hooks (FOO_noprof ()).  */
#define KSTUB(name) name##_noprof
#else
#define KSTUB(name) name
#endif

static __always_inline __alloc_size (1) __maybe_unused void *
KSTUB (kmalloc) (size_t size, gfp_t flags)
{
  return kstub_alloc (size, flags);
}

static inline __alloc_size (1) __maybe_unused void *
KSTUB (kzalloc) (size_t size, gfp_t flags)
{
  return KSTUB (kmalloc) (size, flags | __GFP_ZERO);
}

static __always_inline __alloc_size (1) __maybe_unused void *
KSTUB (kmalloc_node) (size_t size, gfp_t flags, int node)
{
  (void) node;
  return kstub_alloc (size, flags);
}

static inline __alloc_size (1, 2) __maybe_unused void *
KSTUB (kmalloc_array) (size_t n, size_t size, gfp_t flags)
{
  size_t bytes;
  if (check_mul_overflow (n, size, &bytes))
    return NULL;
  return kstub_alloc (bytes, flags);
}

static inline __alloc_size (1, 2) __maybe_unused void *
KSTUB (kmalloc_array_node) (size_t n, size_t size, gfp_t flags, int node)
{
  size_t bytes;
  (void) node;
  if (check_mul_overflow (n, size, &bytes))
    return NULL;
  return kstub_alloc (bytes, flags);
}

static inline __must_check __maybe_unused void *
KSTUB (krealloc_array) (void *p, size_t new_n, size_t new_size, gfp_t flags)
{
  size_t bytes;
  if (check_mul_overflow (new_n, new_size, &bytes))
    return NULL;
  return kstub_realloc (p, bytes, flags);
}

#ifdef KSHAPE_HOOKS
/* The extern vmalloc-or-kmalloc entry, with CONFIG_SLAB_BUCKETS's
   bucket argument.  */
__attribute__ ((__noinline__, __unused__)) static void *
__kvmalloc_node_noprof (size_t size, void *b, gfp_t flags, int node)
{
  (void) b;
  (void) node;
  return kstub_alloc (size, flags);
}
#define kvmalloc_node_noprof(size, flags, node)                               \
  __kvmalloc_node_noprof (size, NULL, flags, node)

static inline __alloc_size (1, 2) __maybe_unused void *
kvmalloc_array_node_noprof (size_t n, size_t size, gfp_t flags, int node)
{
  size_t bytes;
  if (check_mul_overflow (n, size, &bytes))
    return NULL;
  return kvmalloc_node_noprof (bytes, flags, node);
}
#else
__attribute__ ((__noinline__, __unused__)) static void *
kvmalloc_node (size_t size, gfp_t flags, int node)
{
  (void) node;
  return kstub_alloc (size, flags);
}

static inline __alloc_size (1) __maybe_unused void *
kvmalloc (size_t size, gfp_t flags)
{
  return kvmalloc_node (size, flags, NUMA_NO_NODE);
}

static inline __alloc_size (1) __maybe_unused void *
kvzalloc (size_t size, gfp_t flags)
{
  return kvmalloc (size, flags | __GFP_ZERO);
}

static inline __alloc_size (1) __maybe_unused void *
kvzalloc_node (size_t size, gfp_t flags, int node)
{
  return kvmalloc_node (size, flags | __GFP_ZERO, node);
}

static inline __alloc_size (1, 2) __maybe_unused void *
kvmalloc_array (size_t n, size_t size, gfp_t flags)
{
  size_t bytes;
  if (check_mul_overflow (n, size, &bytes))
    return NULL;
  return kvmalloc (bytes, flags);
}

static inline __alloc_size (1, 2) __maybe_unused void *
kvcalloc (size_t n, size_t size, gfp_t flags)
{
  return kvmalloc_array (n, size, flags | __GFP_ZERO);
}

static inline __alloc_size (1) __maybe_unused void *
kzalloc_node (size_t size, gfp_t flags, int node)
{
  return kmalloc_node (size, flags | __GFP_ZERO, node);
}

static inline __alloc_size (1, 2) __maybe_unused void *
kcalloc (size_t n, size_t size, gfp_t flags)
{
  return kmalloc_array (n, size, flags | __GFP_ZERO);
}

static inline __alloc_size (1, 2) __maybe_unused void *
kcalloc_node (size_t n, size_t size, gfp_t flags, int node)
{
  return kmalloc_array_node (n, size, flags | __GFP_ZERO, node);
}
#endif

#ifdef KSHAPE_HOOKS
/* include/linux/alloc_tag.h, CONFIG_MEM_ALLOC_PROFILING off.  */
struct alloc_tag;
#define DEFINE_ALLOC_TAG(_alloc_tag)
#define alloc_tag_save(_tag) NULL
#define alloc_tag_restore(_tag, _old)                                         \
  do                                                                          \
    {                                                                         \
    }                                                                         \
  while (0)
#define alloc_hooks_tag(_tag, _do_alloc)                                      \
  ({                                                                          \
    struct alloc_tag *__maybe_unused _old = alloc_tag_save (_tag);            \
    typeof (_do_alloc) _res = _do_alloc;                                      \
    alloc_tag_restore (_tag, _old);                                           \
    _res;                                                                     \
  })
#define alloc_hooks(_do_alloc)                                                \
  ({                                                                          \
    DEFINE_ALLOC_TAG (_alloc_tag);                                            \
    alloc_hooks_tag (&_alloc_tag, _do_alloc);                                 \
  })

#define kmalloc(...) alloc_hooks (kmalloc_noprof (__VA_ARGS__))
#define kzalloc(...) alloc_hooks (kzalloc_noprof (__VA_ARGS__))
#define kmalloc_node(...) alloc_hooks (kmalloc_node_noprof (__VA_ARGS__))
#define kzalloc_node(_size, _flags, _node)                                    \
  kmalloc_node (_size, (_flags) | __GFP_ZERO, _node)
#define kmalloc_array(...) alloc_hooks (kmalloc_array_noprof (__VA_ARGS__))
#define kcalloc(n, size, flags) kmalloc_array (n, size, (flags) | __GFP_ZERO)
#define kmalloc_array_node(...)                                               \
  alloc_hooks (kmalloc_array_node_noprof (__VA_ARGS__))
#define kcalloc_node(_n, _size, _flags, _node)                                \
  kmalloc_array_node (_n, _size, (_flags) | __GFP_ZERO, _node)
#define krealloc_array(...) alloc_hooks (krealloc_array_noprof (__VA_ARGS__))
#define kvmalloc_node(...) alloc_hooks (kvmalloc_node_noprof (__VA_ARGS__))
#define kvmalloc(_size, _flags) kvmalloc_node (_size, _flags, NUMA_NO_NODE)
#define kvzalloc(_size, _flags) kvmalloc (_size, (_flags) | __GFP_ZERO)
#define kvzalloc_node(_size, _flags, _node)                                   \
  kvmalloc_node (_size, (_flags) | __GFP_ZERO, _node)
#define kvmalloc_array_noprof(...)                                            \
  kvmalloc_array_node_noprof (__VA_ARGS__, NUMA_NO_NODE)
#define kvcalloc_node_noprof(_n, _s, _f, _node)                               \
  kvmalloc_array_node_noprof (_n, _s, (_f) | __GFP_ZERO, _node)
#define kvcalloc_noprof(...) kvcalloc_node_noprof (__VA_ARGS__, NUMA_NO_NODE)
#define kvmalloc_array(...) alloc_hooks (kvmalloc_array_noprof (__VA_ARGS__))
#define kvcalloc(...) alloc_hooks (kvcalloc_noprof (__VA_ARGS__))
#endif

/* ---- include/linux/device/devres.h (not _noprof in any kernel) --------- */

__attribute__ ((__noinline__, __unused__)) static void *
devm_kmalloc (struct device *dev, size_t size, gfp_t gfp)
{
  (void) dev;
  return kstub_alloc (size, gfp);
}

static inline __maybe_unused void *
devm_kzalloc (struct device *dev, size_t size, gfp_t gfp)
{
  return devm_kmalloc (dev, size, gfp | __GFP_ZERO);
}

static inline __maybe_unused void *
devm_kmalloc_array (struct device *dev, size_t n, size_t size, gfp_t flags)
{
  size_t bytes;
  if (check_mul_overflow (n, size, &bytes))
    return NULL;
  return devm_kmalloc (dev, bytes, flags);
}

static inline __maybe_unused void *
devm_kcalloc (struct device *dev, size_t n, size_t size, gfp_t flags)
{
  return devm_kmalloc_array (dev, n, size, flags | __GFP_ZERO);
}

/* ---- for run tests ------------------------------------------------------ */

#include "run-check.h"

/* <linux/minmax.h>, without its type checks.  */
#define min(x, y)                                                             \
  ({                                                                          \
    __typeof__ (x) _min_x = (x);                                              \
    __typeof__ (y) _min_y = (y);                                              \
    _min_x < _min_y ? _min_x : _min_y;                                        \
  })
#define max(x, y)                                                             \
  ({                                                                          \
    __typeof__ (x) _max_x = (x);                                              \
    __typeof__ (y) _max_y = (y);                                              \
    _max_x > _max_y ? _max_x : _max_y;                                        \
  })

/* Keep the optimiser from seeing a count's value.  */
#define OPAQUE(x)                                                             \
  ({                                                                          \
    __typeof__ (x) __v = (x);                                                 \
    __asm__ ("" : "+r"(__v));                                                 \
    __v;                                                                      \
  })

#pragma GCC diagnostic pop

#endif /* KALLOC_TEST_KERNEL_H */
