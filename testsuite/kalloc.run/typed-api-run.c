/* include/kalloc.h's Linux 7.0 typed allocators: typed, overflow-checked,
   the GFP argument optional; kmalloc_flex () sets the counted_by counter
   (kalloc does it) and refuses counts the counter cannot hold.  */
/* { dg-do run } */

#include "kernel.h"
#include "kalloc.h"

struct foo { long long a, b, c; };
struct fw { u32 version; u8 nr; u32 sect[] __counted_by (nr); };

int
main (void)
{
  size_t n = OPAQUE ((size_t) 4);
  struct foo *p = kmalloc_obj (*p);
  CHECK (p && kstub_last_size == sizeof (struct foo));
  kfree (p);
  p = kzalloc_obj (struct foo, GFP_ATOMIC);
  CHECK (p && p->a == 0 && kstub_last_size == sizeof (struct foo));
  kfree (p);
  p = kmalloc_objs (*p, n);
  CHECK (p && kstub_last_size == 4 * sizeof (struct foo));
  kfree (p);
  p = kvzalloc_objs (*p, OPAQUE (SIZE_MAX / 8));
  CHECK (p == NULL);

  struct fw *f = kmalloc_flex (*f, sect, n);
  CHECK (f && f->nr == 4 && kstub_last_size == sizeof (*f) + 16);
  kfree (f);
  f = kzalloc_flex (*f, sect, OPAQUE ((size_t) 255), GFP_KERNEL);
  CHECK (f && f->nr == 255);
  kfree (f);
  f = kvmalloc_flex (*f, sect, OPAQUE ((size_t) 256));
  CHECK (f == NULL);
  return kstub_failures != 0;
}

/* { dg-final { fails-without-plugin } } */
