/* kalloc false positive, from Linux 6.1 drivers/hid/hid-core.c:148
   (open_collection): array3_size() with the element size first and a
   constant factor last.  16 * n * 2 bytes for 2n elements of 16 bytes is
   right; kalloc takes the last factor, 2, for the element size:
     warning: 'kmalloc' element size 2 does not match 'struct hid_collection'
     of 16 bytes
   gcc -fplugin=plugin/kalloc.so -Itestsuite/include -O2 -c THIS.c  */
#include "kernel.h"

struct hid_collection { int parent_idx; unsigned type, usage, level; };

struct hid_collection *grow (unsigned n)
{
  return kmalloc (array3_size (sizeof (struct hid_collection), n, 2),
		  GFP_KERNEL);
}
