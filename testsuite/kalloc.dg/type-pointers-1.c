/* Arrays of pointers sized with the wrong pointer, and pointers against
   objects: the shapes upstream fixed again and again.  Each is right on
   x86_64 only because the two sizes agree there (a u64 is 8 bytes on a
   32-bit target, a pointer 4).  A pointer for a u64 element is in
   type-pointers-2.c (8-byte pointers) and -3.c (4-byte ones).  */
/* { dg-do compile } */
/* { dg-options "-fdiagnostics-parseable-fixits" } */

#include "kernel.h"

struct sk_buff { int len; };
struct row { int a; };
struct gpio_chip { int b; };
struct gpio_desc { int c; };
struct priv { struct sk_buff **queues; };
struct tbl { struct row **rows; };
struct ctx { struct row **list; };
typedef struct row row_t;
typedef void (*handler_t) (void);

struct sk_buff **
own_type (size_t n)
{
  struct sk_buff **skbs = kcalloc (n, sizeof (skbs), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'struct sk_buff \\*\\*', the destination's own type, for elements of 'struct sk_buff \\*'; did you mean 'sizeof \\(\\*skbs\\)'" } */
  return skbs;
}

void
own_member (struct priv *priv, size_t n)
{
  priv->queues = kmalloc_array (n, sizeof (priv->queues), GFP_KERNEL); /* { dg-warning "the destination's own type, for elements of 'struct sk_buff \\*'; did you mean 'sizeof \\(\\*priv->queues\\)'" } */
}

void
own_type_name (struct tbl *tbl, size_t n)
{
  tbl->rows = kcalloc (n, sizeof (struct row **), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'struct row \\*\\*', the destination's own type, for elements of 'struct row \\*'; did you mean 'sizeof \\(\\*tbl->rows\\)'" } */
}

void
own_deref (struct row ***out, size_t n)
{
  *out = kmalloc_array (n, sizeof (*out), GFP_KERNEL); /* { dg-warning "did you mean 'sizeof \\(\\*\\*out\\)'" } */
}

struct row **
own_other_lvalue (struct ctx *ctx, size_t n)
{
  struct row **list = kcalloc (n, sizeof (ctx->list), GFP_KERNEL); /* { dg-warning "the destination's own type" } */
  return list;
}

struct gpio_desc **
other_pointer (size_t n)
{
  struct gpio_desc **descs = kzalloc (n * sizeof (struct gpio_chip *), GFP_KERNEL); /* { dg-warning "'kzalloc' sizes 'struct gpio_chip \\*' for elements of 'struct gpio_desc \\*': pointers to other types, the sizes match \\(\[48\] bytes\\) only by accident" } */
  return descs;
}

void **
object_for_pointer (size_t n)
{
  void **slots = kcalloc (n, sizeof (u64), GFP_KERNEL); /* { dg-warning "'kcalloc' sizes 'u64' \[^\n\]*for elements of 'void \\*': a pointer and an object" } */
  return slots;
}

/* Correct, or "some pointer" on purpose: nothing.  */
struct row **
fine (size_t n)
{
  struct row **a = kcalloc (n, sizeof (*a), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (a);
  a = kcalloc (n, sizeof (void *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (a);
  a = kcalloc (n, sizeof (row_t *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (a);
  const struct row **c = kcalloc (n, sizeof (struct row *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (c);
  void **v = kcalloc (n, sizeof (unsigned long), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (v);
  unsigned long *u = kcalloc (n, sizeof (void *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (u);
  char **s = kcalloc (n, sizeof (char *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (s);
  handler_t *h = kcalloc (n, sizeof (handler_t), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (h);
  /* Integers of one width (drivers/net/ethernet/mellanox/mlx4/mr.c).  */
  unsigned long **bits = kcalloc (n, sizeof (long *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  kfree (bits);
  return a;
}

/* Two views of one pointer in a union, allocated for one and stored
   through the other (drivers/md/dm-crypt.c).  */
struct cipher { int c; };
struct aead { int d; };
struct crypt_config
{
  union
  {
    struct cipher **tfms;
    struct aead **tfms_aead;
  } cipher_tfm;
};

int
union_views (struct crypt_config *cc)
{
  cc->cipher_tfm.tfms = kmalloc (sizeof (struct aead *), GFP_KERNEL); /* { dg-bogus "sizes" } */
  return cc->cipher_tfm.tfms != NULL;
}

/* { dg-final { scan-diagnostics-times "fix-it:" 7 } } */
