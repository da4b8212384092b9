/* A structure used only as far as its count: offsetof (T, fixed[n])
   allocates the header and the first n elements of a fixed-size array
   (net/core/scm.c's kmemdup (fpl, offsetof (struct scm_fp_list,
   fp[fpl->count])), a false positive on Linux 6.12: its fp[253] is no
   flexible array, and the size was warned as an array of pointers).
   An array of the structure's members with no header still warns.  */
/* { dg-do compile } */

#include <stddef.h>
#include "kernel.h"

struct file;
struct scm_like {
  short count, count_unix, max;
  bool inflight, dead;
  void *vertices[2];
  void *edges, *user;
  struct file *fp[253];
};
struct nested { u32 id; struct { u32 n; u16 v[64]; } in; };

extern void *kmemdup (const void *src, size_t len, gfp_t gfp) __alloc_size (2);

struct scm_like *dup (struct scm_like *fpl)
{
  struct scm_like *n = kmemdup (fpl, offsetof (struct scm_like, fp[fpl->count]), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return n;
}

struct scm_like *prefix (size_t count)
{
  struct scm_like *p = kmalloc (offsetof (struct scm_like, fp[count]), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  kfree (p);
  p = kzalloc (offsetof (struct scm_like, fp) + count * sizeof (struct file *), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

struct nested *inner_prefix (unsigned int count)
{
  struct nested *p = kmalloc (offsetof (struct nested, in.v[count]), GFP_KERNEL); /* { dg-bogus "element size|allocates" } */
  return p;
}

/* No header: an array of pointers stored as one structure.  */
struct scm_like *no_header (size_t count)
{
  struct scm_like *p = kmalloc (count * sizeof (struct file *), GFP_KERNEL); /* { dg-warning "'kmalloc' element size \[48\] does not match 'struct scm_like'" } */
  return p;
}
