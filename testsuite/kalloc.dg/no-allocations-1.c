/* A translation unit without allocation calls compiles to the same code
   with the plugin (in mode=harden) as without it.  */
/* { dg-do compile } */

#include <stddef.h>
#include <string.h>

struct node { struct node *next; int key; char name[16]; };

static struct node pool[64];
static int used;

struct node *node_new (int key, const char *name)
{
  if (used == 64)
    return NULL;
  struct node *n = &pool[used++];
  n->key = key;
  strncpy (n->name, name, sizeof (n->name) - 1);
  return n;
}

int list_sum (const struct node *head)
{
  int sum = 0;
  for (; head; head = head->next)
    sum += head->key * (int) sizeof (*head);
  return sum;
}

size_t sizes (size_t n)
{
  return n * sizeof (struct node) + sizeof (pool);
}

/* { dg-final { same-code-without-plugin } } */
