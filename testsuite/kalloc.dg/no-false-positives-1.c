/* Correct code that kalloc must never warn about.  */
/* { dg-do compile } */

#include "kernel.h"

struct foo { long long a, b, c; };
struct flex { int n; u32 data[]; };
struct hdr { u32 len; u16 type; u16 flags; };
struct old_style { int n; int items[1]; };
struct zero_len { long n; short items[0]; };

/* Byte buffers are untyped.  */
void *bytes (size_t len)
{
  u8 *a = kmalloc (4, GFP_KERNEL); /* { dg-bogus "allocates" } */
  char *b = kzalloc (len * sizeof (u32), GFP_KERNEL); /* { dg-bogus "element size" } */
  unsigned char *c = kcalloc (len, sizeof (u64), GFP_KERNEL); /* { dg-bogus "element size" } */
  signed char *d = kmalloc (sizeof (void *), GFP_KERNEL); /* { dg-bogus "allocates" } */
  void *e = kmalloc (1, GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (a);
  kfree (b);
  kfree (c);
  kfree (d);
  return e;
}

/* A single object larger than its type: containers, trailing payloads. */
struct hdr *payload (size_t len)
{
  struct hdr *h = kmalloc (sizeof (*h) + len, GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (h);
  h = kmalloc (sizeof (*h) + 64, GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (h);
  h = kmalloc (sizeof (*h) + len * sizeof (u32), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (h);
  h = kmalloc (sizeof (struct foo), GFP_KERNEL); /* { dg-bogus "allocates" } */
  return h;
}

/* Arrays of pointers.  */
struct foo **pointers (size_t n)
{
  struct foo **v = kcalloc (n, sizeof (struct foo *), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (v);
  void **w = kmalloc_array (n, sizeof (void *), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (w);
  v = kcalloc (n, sizeof (*v), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (v);
  /* Larger elements are never short (no "element size" warning: it
     would be an excess error), but the star is forgotten.  */
  v = kcalloc (n, sizeof (struct foo), GFP_KERNEL); /* { dg-warning "the object, not a pointer to it" } */
  return v;
}

/* struct_size () in all its shapes, and its open-coded forms.  */
struct flex *flexible (size_t n, int m)
{
  struct flex *p = kmalloc (struct_size (p, data, n), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  kfree (p);
  p = kzalloc (struct_size (p, data, 4), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  kfree (p);
  p = kmalloc (sizeof (*p) + n * sizeof (p->data[0]), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  kfree (p);
  p = kmalloc (sizeof (*p) + m * sizeof (u32), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  kfree (p);
  p = kmalloc (sizeof (*p), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kcalloc (1, struct_size (p, data, n), GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kvzalloc (struct_size_t (struct flex, data, n), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

/* Old-style trailing arrays: the header is enough.  */
struct old_style *old (int n)
{
  struct old_style *p = kmalloc (__builtin_offsetof (struct old_style, items), GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kmalloc (sizeof (*p) + (n - 1) * sizeof (int), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
  return p;
}

struct zero_len *zero (size_t n)
{
  return kmalloc (sizeof (struct zero_len) + n * sizeof (short), GFP_KERNEL); /* { dg-bogus "allocates|element size" } */
}

/* Sizes kalloc cannot see are left alone.  */
struct foo *unknown (size_t size, size_t n, size_t m)
{
  struct foo *p = kmalloc (size, GFP_KERNEL); /* { dg-bogus "allocates" } */
  kfree (p);
  p = kcalloc (n, m, GFP_KERNEL); /* { dg-bogus "element size" } */
  kfree (p);
  p = kmalloc (n * m, GFP_KERNEL); /* { dg-bogus "element size" } */
  return p;
}

/* Incomplete and function types.  */
struct opaque;
typedef void handler_fn (void);
struct opaque *incomplete (void)
{
  return kmalloc (8, GFP_KERNEL); /* { dg-bogus "allocates" } */
}
handler_fn *function (void)
{
  return kmalloc (8, GFP_KERNEL); /* { dg-bogus "allocates" } */
}

/* A zero-size allocation is a kernel idiom (ZERO_SIZE_PTR).  */
struct foo *empty (void)
{
  return kmalloc (0, GFP_KERNEL); /* { dg-bogus "allocates" } */
}

/* Linux 6.1 fs/select.c: one buffer cut into six bitmaps; the first is
   stored as unsigned long *, the others by pointer arithmetic.  */
struct fd_set_bits { unsigned long *in, *out, *ex, *res_in, *res_out, *res_ex; };
int carved (size_t size, struct fd_set_bits *fds)
{
  void *bits;
  size_t alloc_size = 6 * size;
  bits = kvmalloc (alloc_size, GFP_KERNEL); /* { dg-bogus "element size" } */
  if (!bits)
    return -1;
  fds->in = bits;
  fds->out = bits + size;
  fds->ex = bits + 2 * size;
  fds->res_in = bits + 3 * size;
  fds->res_out = bits + 4 * size;
  fds->res_ex = bits + 5 * size;
  return 0;
}

/* Linux 6.1 drivers/hid/hid-core.c: array3_size (sizeof (T), n, 2).  */
static inline size_t array3 (size_t a, size_t b, size_t c)
{
  return size_mul (size_mul (a, b), c);
}
struct hid_collection { int parent_idx; unsigned type, usage, level; };
struct hid_collection *grow (unsigned collection_size)
{
  struct hid_collection *collection;
  collection = kmalloc (array3_size (sizeof (struct hid_collection), collection_size, 2), GFP_KERNEL); /* { dg-bogus "element size" } */
  return collection;
}

/* Linux 6.12 net/ethtool/cmis_fw_update.c: a byte count for a structure
   pointer (sizeof (u8) elements).  */
struct fw_block { u8 data[2048]; };
struct fw_block *bytes_for_struct (size_t len)
{
  struct fw_block *epl = kmalloc_array (len, sizeof (u8), GFP_KERNEL); /* { dg-bogus "element size" } */
  return epl;
}
