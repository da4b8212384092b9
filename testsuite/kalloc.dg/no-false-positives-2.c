/* Correct code that can never be short must not warn:
   pointers to arrays allocated as whole arrays, offsetof () headers of
   flexible arrays nested in a member structure or in a union of views,
   and strides that over-allocate.  An array warns only when its element
   is smaller than the pointee's.  */
/* { dg-do compile } */

#include "kernel.h"

#define ALIGN(x, a) (((x) + (a) - 1) & ~((size_t) (a) - 1))

/* ---- a pointer to an array, a constant count that fills it ---------- */

u8 (*bytes16 (void))[16]
{
  u8 (*p)[16] = kmalloc (16, GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

u32 (*words_kcalloc (void))[4]
{
  u32 (*p)[4] = kcalloc (4, sizeof (u32), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

u32 (*words_array (void))[4]
{
  u32 (*p)[4] = kmalloc_array (4, sizeof (u32), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

u32 (*words_two (void))[4]
{
  u32 (*p)[4] = kcalloc (8, sizeof (u32), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

u32 (*words_swapped (void))[4]
{
  u32 (*p)[4] = kcalloc (sizeof (u32), 4, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

u32 (*words_open (void))[4]
{
  u32 (*p)[4] = kmalloc (4 * sizeof (u32), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

u64 (*rows (size_t n))[8]
{
  u64 (*p)[8] = kcalloc (n, sizeof (*p), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

/* Still a bug: three words do not fill a u32[4].  */
u32 (*words_short (void))[4]
{
  u32 (*p)[4] = kcalloc (3, sizeof (u32), GFP_KERNEL); /* { dg-warning "'kcalloc' element size 4 does not match 'u32\\\[4\\\]'" } */
  return p;
}

/* Still a bug: a run-time count of words for rows of four.  */
u32 (*words_count (size_t n))[4]
{
  u32 (*p)[4] = kcalloc (n, sizeof (u32), GFP_KERNEL); /* { dg-warning "element size 4 does not match" } */
  return p;
}

/* ---- a flexible array nested in a member structure ------------------- */

struct inner { u32 n; u16 vals[]; };
struct outer { u64 id; struct inner in; };

struct outer *nested_sum (size_t n)
{
  struct outer *p = kmalloc (offsetof (struct outer, in.vals) + n * sizeof (u16), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

struct outer *nested_index (size_t n)
{
  struct outer *p = kzalloc (offsetof (struct outer, in.vals[n]), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

struct outer *nested_header (void)
{
  struct outer *p = kmalloc (offsetof (struct outer, in.vals), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

struct outer *nested_int (int n)
{
  struct outer *p = kmalloc (offsetof (struct outer, in.vals) + n * sizeof (p->in.vals[0]), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

/* Still a bug: the header stops before the nested array.  */
struct outer *nested_short (void)
{
  struct outer *p = kmalloc (offsetof (struct outer, in), GFP_KERNEL); /* { dg-warning "'kmalloc' allocates 8 bytes.* for 'struct outer', which needs 12" } */
  return p;
}

/* ---- a union of two same-size flexible-array views ------------------- */

union views
{
  struct { u64 len; u32 words[]; } w;
  struct { u64 len; u32 raw[]; } r;
};

union views *views_sum (size_t n)
{
  union views *p = kmalloc (offsetof (union views, w.words) + n * sizeof (u32), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

union views *views_index (size_t n)
{
  union views *p = kmalloc (offsetof (union views, r.raw[n]), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

union views *views_header (void)
{
  union views *p = kzalloc (offsetof (union views, w.words), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

/* The header ends before the union's padding: offsetof () is less than
   sizeof (union padded_views), and the array starts there.  */
union padded_views
{
  struct { u64 seq; u32 len; u16 half[]; } h;
  struct { u64 seq; u32 len; u16 code[]; } c;
};

union padded_views *padded_sum (size_t n)
{
  union padded_views *p = kmalloc (offsetof (union padded_views, h.half) + n * sizeof (u16), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

union padded_views *padded_index (size_t n)
{
  union padded_views *p = kmalloc (offsetof (union padded_views, c.code[n]), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

union padded_views *padded_header (void)
{
  union padded_views *p = kmalloc (offsetof (union padded_views, c.code), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

/* Still a bug: a view without an array needs all of itself, as the
   header of struct net_generic does.  */
struct rcu_head { void *next; void (*func) (struct rcu_head *); };
struct generic
{
  union
  {
    struct { unsigned int len; struct rcu_head rcu; } s;
    DECLARE_FLEX_ARRAY (void *, ptr);
  };
};

struct generic *generic_short (void)
{
  struct generic *g;
  g = kzalloc (sizeof (void *), GFP_KERNEL); /* { dg-warning "'kzalloc' allocates \[48\] bytes.* for 'struct generic', which needs \(12|24\)" } */
  return g;
}

struct framed
{
  u32 kind;
  union
  {
    struct { u32 len; u16 halves[]; } h;
    struct { u32 len; u16 codes[]; } c;
  } u;
};

struct framed *framed_sum (int n)
{
  struct framed *p = kmalloc (offsetof (struct framed, u.h.halves) + n * sizeof (u16), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

/* ---- strides that over-allocate ----------------------------------------- */

struct rec { u32 a, b, c; };

struct rec *padded (size_t n)
{
  struct rec *p = kmalloc (n * (sizeof (*p) + 8), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

struct rec *padded_kcalloc (size_t n)
{
  struct rec *p = kcalloc (n, sizeof (*p) + 8, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

struct rec *aligned (size_t n)
{
  struct rec *p = kmalloc_array (n, ALIGN (sizeof (*p), 16), GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

struct rec *aligned_open (unsigned int n)
{
  struct rec *p = kzalloc (ALIGN (sizeof (struct rec), 64) * n, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

struct rec *fixed_stride (size_t n)
{
  struct rec *p = kvcalloc (n, 20, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

/* Still a bug: a stride smaller than the element.  */
struct rec *short_stride (size_t n)
{
  struct rec *p = kcalloc (n, sizeof (*p) - 4, GFP_KERNEL); /* { dg-warning "'kcalloc' element size 8 does not match 'struct rec' of 12 bytes" } */
  return p;
}
