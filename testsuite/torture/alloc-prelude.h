/*
 * alloc-prelude.h - kernel-style allocators force-included (-include) into
 * foreign test programs (GCC's torture suite, csmith programs), so that
 * every translation unit has allocation calls for kalloc to recognise and
 * rewrite, whatever the flags the program is built with.
 *
 * It must compile as any C dialect the programs use (-std=c89, gnu89,
 * c99, with -fgnu89-inline...): no header, no // comment, no `inline'
 * keyword, declarations first, only reserved or kernel names.  It defines
 * no size_t and no struct_size() macro (torture tests use those names).
 *
 * It adds one constructor, __kp_selftest (), which runs before main ():
 * kmalloc (n * size), kzalloc, kcalloc, kmalloc_array and a
 * struct_size ()-shaped counted flexible-array kzalloc, with a count read
 * from a volatile global so that nothing folds; it checks the memory
 * (zeroing, the last element of each) and aborts on a mismatch, then
 * frees everything.  It has no loop, to keep compile time down.  Sizes never overflow,
 * so builds with and without kalloc must behave the same.  Define
 * KALLOC_PRELUDE_NO_SELFTEST to leave the constructor out, and
 * KALLOC_PRELUDE_MIX to get __kp_heap_mix () (for csmith programs).
 */
#ifndef KALLOC_ALLOC_PRELUDE_H
#define KALLOC_ALLOC_PRELUDE_H

typedef __SIZE_TYPE__ __kp_size_t;
typedef unsigned int __kp_gfp_t;

#define __KP_GFP_KERNEL 0xcc0u
#define __KP_GFP_ZERO 0x100u
#define __KP_SIZE_MAX ((__kp_size_t) -1)

static __inline__ __attribute__ ((__unused__)) __kp_size_t
size_mul (__kp_size_t a, __kp_size_t b)
{
  __kp_size_t r;
  if (__builtin_mul_overflow (a, b, &r))
    return __KP_SIZE_MAX;
  return r;
}

static __inline__ __attribute__ ((__unused__)) __kp_size_t
size_add (__kp_size_t a, __kp_size_t b)
{
  __kp_size_t r;
  if (__builtin_add_overflow (a, b, &r))
    return __KP_SIZE_MAX;
  return r;
}

static __inline__ __attribute__ ((__unused__, __alloc_size__ (1))) void *
kmalloc (__kp_size_t size, __kp_gfp_t flags)
{
  void *p;
  if (size > ((__kp_size_t) 1 << 30))
    return (void *) 0;
  p = __builtin_malloc (size ? size : 1);
  if (p && (flags & __KP_GFP_ZERO))
    __builtin_memset (p, 0, size);
  return p;
}

static __inline__ __attribute__ ((__unused__, __alloc_size__ (1))) void *
kzalloc (__kp_size_t size, __kp_gfp_t flags)
{
  return kmalloc (size, flags | __KP_GFP_ZERO);
}

static __inline__ __attribute__ ((__unused__, __alloc_size__ (1, 2))) void *
kmalloc_array (__kp_size_t n, __kp_size_t size, __kp_gfp_t flags)
{
  __kp_size_t bytes;
  if (__builtin_mul_overflow (n, size, &bytes))
    return (void *) 0;
  return kmalloc (bytes, flags);
}

static __inline__ __attribute__ ((__unused__, __alloc_size__ (1, 2))) void *
kcalloc (__kp_size_t n, __kp_size_t size, __kp_gfp_t flags)
{
  return kmalloc_array (n, size, flags | __KP_GFP_ZERO);
}

static __inline__ __attribute__ ((__unused__)) void
kfree (const void *p)
{
  __builtin_free ((void *) p);
}

/* counted_by, which kalloc provides on GCC 11-14 in mode=harden.  */
#if defined (__has_attribute)
#if __has_attribute (__counted_by__)
#define __KP_COUNTED_BY(m) __attribute__ ((__counted_by__ (m)))
#endif
#endif
#ifndef __KP_COUNTED_BY
#define __KP_COUNTED_BY(m)
#endif

#ifndef KALLOC_PRELUDE_NO_SELFTEST

struct __kp_flex
{
  int __kp_n;
  long __kp_hdr;
  short __kp_fam[] __KP_COUNTED_BY (__kp_n);
};

struct __kp_pair
{
  int __kp_a;
  char __kp_b[3];
};

static volatile __kp_size_t __kp_count = 5;

static void __attribute__ ((__constructor__, __used__))
__kp_selftest (void)
{
  __kp_size_t n = __kp_count;
  int *ints;
  long *longs;
  struct __kp_pair *pair, *pairs;
  struct __kp_flex *flex;

  ints = (int *) kmalloc (n * sizeof (*ints), __KP_GFP_KERNEL);
  longs = (long *) kcalloc (n, sizeof (*longs), __KP_GFP_KERNEL);
  pair = (struct __kp_pair *) kzalloc (sizeof (*pair), __KP_GFP_KERNEL);
  pairs = (struct __kp_pair *) kmalloc_array (n + 1, sizeof (*pairs),
					      __KP_GFP_KERNEL);
  flex = (struct __kp_flex *)
    kzalloc (size_add (sizeof (*flex), size_mul (n, sizeof (flex->__kp_fam[0]))),
	     __KP_GFP_KERNEL);
  if (!ints || !longs || !pair || !pairs || !flex)
    __builtin_abort ();
  if (longs[0] != 0 || longs[n - 1] != 0 || flex->__kp_fam[n - 1] != 0
      || pair->__kp_a != 0 || pair->__kp_b[2] != 0)
    __builtin_abort ();
  flex->__kp_n = (int) n;
  ints[n - 1] = 1;
  longs[n - 1] = 2;
  flex->__kp_fam[n - 1] = 3;
  pairs[n].__kp_b[2] = 4;
  if (ints[n - 1] + longs[n - 1] + flex->__kp_fam[n - 1] + pairs[n].__kp_b[2]
      != 10)
    __builtin_abort ();
  kfree (flex);
  kfree (pairs);
  kfree (pair);
  kfree (longs);
  kfree (ints);
}

#endif /* KALLOC_PRELUDE_NO_SELFTEST */

#ifdef KALLOC_PRELUDE_MIX
/* __kp_heap_mix (V): allocations whose counts come from the program's
   state V (run-csmith passes its running checksum after func_1 ()), with
   kmalloc (n * size), kcalloc, kmalloc_array and a struct_size ()-shaped
   counted flexible array; returns a value folded from what was stored, or
   0xdead if an allocation failed.  Counts stay below 64: no overflow.  */
struct __kp_mix_flex
{
  unsigned char __kp_n;
  unsigned int __kp_seed;
  unsigned long long __kp_fam[] __KP_COUNTED_BY (__kp_n);
};

static __attribute__ ((__unused__)) unsigned int
__kp_heap_mix (unsigned int v)
{
  __kp_size_t n = (v % 61u) + 1;
  __kp_size_t m = ((v >> 8) % 7u) + 1;
  __kp_size_t i;
  unsigned int sum = 0;
  int *ints;
  unsigned short *shorts;
  unsigned int *words;
  struct __kp_mix_flex *flex;

  ints = (int *) kmalloc (n * sizeof (*ints), __KP_GFP_KERNEL);
  shorts = (unsigned short *) kcalloc (m, sizeof (*shorts), __KP_GFP_KERNEL);
  words = (unsigned int *) kmalloc_array (n, sizeof (unsigned int), __KP_GFP_KERNEL);
  flex = (struct __kp_mix_flex *)
    kzalloc (size_add (sizeof (*flex), size_mul (m, sizeof (flex->__kp_fam[0]))),
	     __KP_GFP_KERNEL);
  if (!ints || !shorts || !words || !flex)
    sum = 0xdead;
  else
    {
      flex->__kp_n = (unsigned char) m;
      flex->__kp_seed = v;
      for (i = 0; i < n; i++)
	{
	  ints[i] = (int) (v ^ (unsigned int) i);
	  words[i] = (unsigned int) ints[i] * 2654435761u;
	  shorts[i % m] += (unsigned short) words[i];
	  flex->__kp_fam[i % m] += words[i];
	}
      for (i = 0; i < n; i++)
	sum = sum * 31u + words[i] + (unsigned int) ints[n - 1 - i];
      for (i = 0; i < m; i++)
	sum = sum * 17u + shorts[i] + (unsigned int) flex->__kp_fam[i];
      sum ^= flex->__kp_seed + flex->__kp_n;
    }
  kfree (flex);
  kfree (words);
  kfree (shorts);
  kfree (ints);
  return sum;
}
#endif /* KALLOC_PRELUDE_MIX */
#endif /* KALLOC_ALLOC_PRELUDE_H */
