/*
 * codegen.c - the allocation path, hardened by kalloc from legacy calls
 * (LEGACY) or written with Linux 7.0's macros (UPSTREAM, no plugin).
 * bench/codegen compares the two builds' functions: instructions, bytes,
 * conditional branches and calls.
 */
#include <stddef.h>

typedef unsigned int gfp_t;
typedef unsigned char u8;
typedef unsigned int u32;
#define GFP_KERNEL 0xcc0u
#define SIZE_MAX_ ((size_t)-1)

void *__kmalloc(size_t size, gfp_t flags) __attribute__((__malloc__, __alloc_size__(1)));
void warn_slowpath(void);
static inline __attribute__((__always_inline__)) void *kmalloc(size_t size, gfp_t flags)
{
	return __kmalloc(size, flags);
}

static inline __attribute__((__always_inline__)) size_t size_mul(size_t a, size_t b)
{
	size_t r;
	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX_ : r;
}
static inline __attribute__((__always_inline__)) size_t size_add(size_t a, size_t b)
{
	size_t r;
	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX_ : r;
}
#define struct_size_t(T, FAM, N) size_add(sizeof(T), size_mul(sizeof(((T *)0)->FAM[0]), N))

#if defined(__has_attribute)
#if __has_attribute(__counted_by__)
#define __counted_by(m) __attribute__((__counted_by__(m)))
#endif
#endif
#ifndef __counted_by
#define __counted_by(m)
#endif

struct obj { long a, b, c; };
struct plain { u32 id; u32 len; u32 data[]; };
struct counted { u32 id; u8 nr; u32 data[] __counted_by(nr); };

#ifdef UPSTREAM
/* Linux 7.0 (include/linux/slab.h), with the counter set explicitly
   where the compiler cannot (__flex_counter needs GCC 15).  */
#define kmalloc_objs(P, COUNT, GFP) \
	({ const size_t __s = size_mul(sizeof(P), COUNT); (__typeof__(P) *)kmalloc(__s, GFP); })
#define kmalloc_flex_nocounter(T, FAM, COUNT, GFP) \
	({ const size_t __c = (COUNT); T *__p = kmalloc(struct_size_t(T, FAM, __c), GFP); __p; })
#define kmalloc_flex_counter(T, FAM, CNT, COUNT, GFP) \
	({ const size_t __c = (COUNT); T *__p = kmalloc(struct_size_t(T, FAM, __c), GFP); \
	   if (__p) __p->CNT = __c; __p; })
/* The range check as first merged (WARN_ON_ONCE and a branch), before
   commit fa5c82f4d2bb removed it.  */
#define kmalloc_flex_checked(T, FAM, CNT, COUNT, GFP) \
	({ const size_t __c = (COUNT); T *__p; \
	   if (__builtin_expect(__c > (__typeof__(((T *)0)->CNT))-1, 0)) { warn_slowpath(); __p = NULL; } \
	   else __p = kmalloc(struct_size_t(T, FAM, __c), GFP); \
	   if (__p) __p->CNT = __c; __p; })

struct obj *array(size_t n) { return kmalloc_objs(struct obj, n, GFP_KERNEL); }
struct plain *flex(size_t n) { return kmalloc_flex_nocounter(struct plain, data, n, GFP_KERNEL); }
struct counted *flex_counter(size_t n) { return kmalloc_flex_counter(struct counted, data, nr, n, GFP_KERNEL); }
struct counted *flex_checked(size_t n) { return kmalloc_flex_checked(struct counted, data, nr, n, GFP_KERNEL); }
#else
/* The legacy calls, as drivers wrote them; kalloc hardens them.  */
struct obj *array(size_t n) { return kmalloc(n * sizeof(struct obj), GFP_KERNEL); }
struct plain *flex(size_t n) { struct plain *p; p = kmalloc(sizeof(*p) + n * sizeof(p->data[0]), GFP_KERNEL); return p; }
struct counted *flex_counter(size_t n) { struct counted *p; p = kmalloc(struct_size_t(struct counted, data, n), GFP_KERNEL); return p; }
struct counted *flex_checked(size_t n) { return flex_counter(n); }
#endif
