/* A pointer advanced by an offset that a sizeof scales twice: C counts
   in elements.  dahdi's echo cancellers carve a buffer's tail as
   (int16_t *) (pvt + sizeof (*pvt)).  Bytes through a char or void
   pointer, and the division idiom, are right and silent.  */
/* { dg-do compile } */

#include "kernel.h"

struct ec_pvt { int taps; int pos; s16 *history; s32 *fir; u64 state[3]; };

struct ec_pvt *echo_can_create (int taps)
{
  struct ec_pvt *pvt = kzalloc (sizeof (*pvt) + taps * 3 * sizeof (s16), GFP_KERNEL);
  if (!pvt)
    return NULL;
  pvt->fir = (s32 *) (pvt + sizeof (*pvt) + taps * 2 * sizeof (s16)); /* { dg-warning "'\\+ sizeof \\(\\*pvt\\)' advances a 'struct ec_pvt \\*' by (48 elements, 2304|40 elements, 1600) bytes" } */
  pvt->history = (s16 *) (pvt + sizeof (*pvt)); /* { dg-warning "'\\+ sizeof \\(\\*pvt\\)' advances a 'struct ec_pvt \\*' by (48 elements, 2304|40 elements, 1600) bytes: pointer arithmetic counts elements, not bytes; did you mean '\\+ 1'\\?" } */
  return pvt;
}

u32 *words (size_t n)
{
  u32 *w = kmalloc (64, GFP_KERNEL);
  if (!w)
    return NULL;
  u32 *x = w + n * sizeof (u32); /* { dg-warning "'\\+ n \\* sizeof \\(u32\\)' advances a 'u32 \\*' \[^\n\]* by 4 elements, 16 bytes for each unit of the count: pointer arithmetic counts elements, not bytes; add bytes to a 'char \\*', or elements without the 'sizeof'" } */
  u32 *y = &w[sizeof (u32)]; /* { dg-warning "'\\\[sizeof \\(u32\\)\\\]' advances a 'u32 \\*' \[^\n\]*by 4 elements, 16 bytes in a 64-byte allocation\[^\n\]*did you mean '\\\[1\\\]'" } */
  w += sizeof (u32); /* { dg-warning "'\\+ sizeof \\(u32\\)' advances" } */
  *x = *y = 0;
  return w;
}

struct hdr { u32 a, b; };
void use (u32 *, size_t);

void idioms (u32 *p, size_t n, size_t len, char *c, void *v, struct hdr *h, u8 *b)
{
  use (p + 2, n + sizeof (u16));		/* { dg-bogus "advances" } */
  use (p + len / sizeof (*p), 0);		/* { dg-bogus "advances" } */
  use ((u32 *) (c + sizeof (struct hdr)), 0);	/* { dg-bogus "advances" } */
  use ((u32 *) (v + sizeof (struct hdr)), 0);	/* { dg-bogus "advances" } */
  use ((u32 *) (b + n * sizeof (u32)), 0);	/* { dg-bogus "advances" } */
  use ((u32 *) h + sizeof (struct hdr) / 4, 0);	/* { dg-bogus "advances" } */
  use ((u32 *) (h + 1), 0);			/* { dg-bogus "advances" } */
  use (p + 1, sizeof (u32));			/* { dg-bogus "advances" } */
}

/* Any pointer, not only an allocation's; the pragma silences it.  */
u32 *plain (u32 *w)
{
  return w + sizeof (u64);			/* { dg-warning "'\\+ sizeof \\(u64\\)' advances a 'u32 \\*' \[^\n\]*by 8 elements, 32 bytes: pointer" } */
}

u32 *silenced (u32 *w)
{
#pragma kalloc ignore
  return w + sizeof (u64);			/* { dg-bogus "advances" } */
}
