/*
 * kalloc.h - what code built with the kalloc GCC plugin may use.
 *
 * Everything here works, and does nothing, without the plugin, so code
 * using it builds with any compiler.
 *
 *   KALLOC_IGNORE_NEXT      before a line whose allocation is short on
 *                           purpose (a test of the allocator, say): no
 *                           kalloc warning for the calls on that line.
 *   __kalloc_ignore         on a function: no kalloc warning inside it.
 *
 * Example (a KASAN-style test that allocates 3 bytes short):
 *
 *	KALLOC_IGNORE_NEXT
 *	ptr = kmalloc(sizeof(*ptr) - 3, GFP_KERNEL);
 *
 *	static void __kalloc_ignore test_short_alloc(struct kunit *test)
 */
#ifndef KALLOC_KALLOC_H
#define KALLOC_KALLOC_H

#if defined(__has_attribute)
#if __has_attribute(__kalloc_ignore__)
#define KALLOC_PLUGIN_LOADED 1
#endif
#endif

#ifdef KALLOC_PLUGIN_LOADED
#define KALLOC_IGNORE_NEXT _Pragma("kalloc ignore")
#define __kalloc_ignore __attribute__((__kalloc_ignore__))
#else
#define KALLOC_IGNORE_NEXT
#define __kalloc_ignore
#endif

#endif /* KALLOC_KALLOC_H */
