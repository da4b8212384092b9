/* kalloc false positive, from Linux 6.1 fs/select.c:659 (core_sys_select):
   one allocation holds 6 bitmaps of SIZE bytes each; the constant 6 is a
   count, not an element size, and the buffer is then cut up as unsigned
   long *.  kalloc reads 6 * size as SIZE elements of 6 bytes:
     warning: 'kvmalloc' element size 6 does not match 'long unsigned int'
     of 8 bytes; did you mean 'sizeof (*fds.in)'?
   gcc -fplugin=plugin/kalloc.so -Itestsuite/include -O2 -c THIS.c  */
#include "kernel.h"

struct fd_set_bits { unsigned long *in, *out, *ex, *res_in, *res_out, *res_ex; };

int select_bits (struct fd_set_bits *fds, size_t size)
{
  void *bits;
  if (size > SIZE_MAX / 6)
    return -1;
  bits = kvmalloc (6 * size, GFP_KERNEL);
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
