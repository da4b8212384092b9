/*
 * kalloc.h - for code built with the kalloc GCC plugin, and for code
 * that wants to convert its source to Linux 7.0's typed allocators.
 * Everything here also works, and does the right thing, without the
 * plugin, so code using it builds with any GCC from 11 on.
 *
 * 1. Silencing kalloc where an allocation is short on purpose:
 *
 *	KALLOC_IGNORE_NEXT
 *	ptr = kmalloc(sizeof(*ptr) - 3, GFP_KERNEL);	(no warning here)
 *
 *	static void __kalloc_ignore test_short(struct kunit *test)
 *
 *    KALLOC_IGNORE_NEXT covers the allocation calls on the next line,
 *    __kalloc_ignore a whole function.  Both vanish without the plugin.
 *
 * 2. Linux 7.0's typed allocators, for trees (and userspace code with a
 *    kmalloc ()) that lack them.  Defined only where the tree has not
 *    defined them itself; the GFP argument is optional (GFP_KERNEL):
 *
 *	p = kmalloc_obj(*p);			one object
 *	p = kzalloc_objs(*p, n, GFP_ATOMIC);	n objects, overflow-checked
 *	p = kvmalloc_flex(*p, fam, n);		header + n elements of fam
 *
 *    They expand to kmalloc ()/kzalloc ()/kvmalloc ()/kvzalloc () of a
 *    saturating size (SIZE_MAX on overflow, so the allocation fails),
 *    cast to the type.  The _flex forms set the __counted_by counter:
 *    kalloc does it (and refuses counts the counter cannot hold); without
 *    the plugin, GCC 15's __builtin_counted_by_ref () does it; on other
 *    compilers the counter is left to the caller, as in Linux 7.0.
 */
#ifndef KALLOC_KALLOC_H
#define KALLOC_KALLOC_H

#if defined(__has_attribute)
#if __has_attribute(__kalloc_ignore__)
#define KALLOC_PLUGIN_LOADED 1
#endif
#endif

/* ---- 1. silencing -------------------------------------------------------- */

#ifdef KALLOC_PLUGIN_LOADED
#define KALLOC_IGNORE_NEXT _Pragma("kalloc ignore")
#define __kalloc_ignore __attribute__((__kalloc_ignore__))
#else
#define KALLOC_IGNORE_NEXT
#define __kalloc_ignore
#endif

/* ---- 2. the typed allocators --------------------------------------------- */

/* Saturating size arithmetic; kalloc knows these by name.  */
static inline __attribute__((__always_inline__, __unused__)) __SIZE_TYPE__
__kalloc_size_mul(__SIZE_TYPE__ factor1, __SIZE_TYPE__ factor2)
{
	__SIZE_TYPE__ bytes;

	if (__builtin_mul_overflow(factor1, factor2, &bytes))
		return (__SIZE_TYPE__)-1;
	return bytes;
}

static inline __attribute__((__always_inline__, __unused__)) __SIZE_TYPE__
__kalloc_size_add(__SIZE_TYPE__ addend1, __SIZE_TYPE__ addend2)
{
	__SIZE_TYPE__ bytes;

	if (__builtin_add_overflow(addend1, addend2, &bytes))
		return (__SIZE_TYPE__)-1;
	return bytes;
}

/* The optional last argument: the GFP flags, GFP_KERNEL when absent.  */
#define __kalloc_gfp_pick(a, b, ...) b
#define __kalloc_gfp(...) __kalloc_gfp_pick(, ##__VA_ARGS__, GFP_KERNEL)

/* Without the plugin, GCC 15 can find the counter itself.  */
#if !defined(KALLOC_PLUGIN_LOADED) && defined(__has_builtin)
#if __has_builtin(__builtin_counted_by_ref)
#define __kalloc_set_counter(PTR, FAM, COUNT)				\
	(*_Generic(__builtin_counted_by_ref((PTR)->FAM),		\
		   void *: &(__SIZE_TYPE__){ 0 },			\
		   default: __builtin_counted_by_ref((PTR)->FAM)) = (COUNT))
#endif
#endif
#ifndef __kalloc_set_counter
#define __kalloc_set_counter(PTR, FAM, COUNT) ((void)0)
#endif

#define __kalloc_objs(ALLOC, GFP, TYPE, COUNT)				\
({									\
	const __SIZE_TYPE__ __kalloc_obj_size =				\
		__kalloc_size_mul(sizeof(TYPE), (COUNT));		\
	(TYPE *)ALLOC(__kalloc_obj_size, GFP);				\
})

#define __kalloc_flex(ALLOC, GFP, TYPE, FAM, COUNT)			\
({									\
	const __SIZE_TYPE__ __kalloc_count = (COUNT);			\
	const __SIZE_TYPE__ __kalloc_flex_size = __kalloc_size_add(	\
		sizeof(TYPE),						\
		__kalloc_size_mul(sizeof(((TYPE *)0)->FAM[0]),		\
				  __kalloc_count));			\
	TYPE *__kalloc_ptr = ALLOC(__kalloc_flex_size, GFP);		\
	if (__kalloc_ptr)						\
		__kalloc_set_counter(__kalloc_ptr, FAM, __kalloc_count); \
	__kalloc_ptr;							\
})

#ifndef kmalloc_obj
#define kmalloc_obj(P, ...)						\
	__kalloc_objs(kmalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), 1)
#define kmalloc_objs(P, COUNT, ...)					\
	__kalloc_objs(kmalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), COUNT)
#define kmalloc_flex(P, FAM, COUNT, ...)				\
	__kalloc_flex(kmalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), FAM, COUNT)
#define kzalloc_obj(P, ...)						\
	__kalloc_objs(kzalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), 1)
#define kzalloc_objs(P, COUNT, ...)					\
	__kalloc_objs(kzalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), COUNT)
#define kzalloc_flex(P, FAM, COUNT, ...)				\
	__kalloc_flex(kzalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), FAM, COUNT)
#define kvmalloc_obj(P, ...)						\
	__kalloc_objs(kvmalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), 1)
#define kvmalloc_objs(P, COUNT, ...)					\
	__kalloc_objs(kvmalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), COUNT)
#define kvmalloc_flex(P, FAM, COUNT, ...)				\
	__kalloc_flex(kvmalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), FAM, COUNT)
#define kvzalloc_obj(P, ...)						\
	__kalloc_objs(kvzalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), 1)
#define kvzalloc_objs(P, COUNT, ...)					\
	__kalloc_objs(kvzalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), COUNT)
#define kvzalloc_flex(P, FAM, COUNT, ...)				\
	__kalloc_flex(kvzalloc, __kalloc_gfp(__VA_ARGS__), __typeof__(P), FAM, COUNT)
#endif /* kmalloc_obj */

#endif /* KALLOC_KALLOC_H */
