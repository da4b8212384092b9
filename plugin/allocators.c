/*
 * allocators.c - the table of allocation functions kalloc recognises.
 *
 * One row per allocator: which argument is the size (the element size
 * for array allocators), which the element count, which the GFP flags.
 * The kernels since 6.10 call FOO_noprof() through an alloc_hooks()
 * macro; those names match the row of FOO.  docs/allocators.md holds
 * the same table for users; a new allocator is one row here and there.
 */
#include "kalloc.h"

#define NO_ARG (-1)

static const struct allocator kernel_allocators[] = {
  /* name                  size count gfp  typed family (NULL: none
                                              upstream converts to) */
  { "kmalloc",              0, NO_ARG, 1, "kmalloc" },
  { "kzalloc",              0, NO_ARG, 1, "kzalloc" },
  { "kmalloc_node",         0, NO_ARG, 1, NULL },
  { "kzalloc_node",         0, NO_ARG, 1, NULL },
  { "kcalloc",              1, 0,      2, "kzalloc" },
  { "kmalloc_array",        1, 0,      2, "kmalloc" },
  { "kcalloc_node",         1, 0,      2, NULL },
  { "kmalloc_array_node",   1, 0,      2, NULL },
  { "kvmalloc",             0, NO_ARG, 1, "kvmalloc" },
  { "kvzalloc",             0, NO_ARG, 1, "kvzalloc" },
  { "kvmalloc_node",        0, NO_ARG, 1, NULL },
  { "kvzalloc_node",        0, NO_ARG, 1, NULL },
  { "__kvmalloc_node",      0, NO_ARG, NO_ARG, NULL },
  { "kvcalloc",             1, 0,      2, "kvzalloc" },
  { "kvmalloc_array",       1, 0,      2, "kvmalloc" },
  { "kvcalloc_node",        1, 0,      2, NULL },
  { "kvmalloc_array_node",  1, 0,      2, NULL },
  { "devm_kmalloc",         1, NO_ARG, 2, NULL },
  { "devm_kzalloc",         1, NO_ARG, 2, NULL },
  { "devm_kcalloc",         2, 1,      3, NULL },
  { "devm_kmalloc_array",   2, 1,      3, NULL },
  { "krealloc_array",       2, 1,      3, NULL },
};

#define NOPROF_SUFFIX "_noprof"

/* Allocators named with -fplugin-arg-kalloc-alloc=. */
static struct allocator *user_allocators;
static int user_allocator_count;

static const struct allocator *
find_in (const struct allocator *table, int count, const char *name,
	 size_t len)
{
  for (int i = 0; i < count; i++)
    if (strlen (table[i].name) == len && !strncmp (table[i].name, name, len))
      return &table[i];
  return NULL;
}

/* The table row for the allocator called NAME (or NAME_noprof).  */
const struct allocator *
alloc_find_name (const char *name)
{
  size_t len = strlen (name);
  const struct allocator *row
    = find_in (user_allocators, user_allocator_count, name, len);
  if (row)
    return row;

  size_t suffix = strlen (NOPROF_SUFFIX);
  if (len > suffix && !strcmp (name + len - suffix, NOPROF_SUFFIX))
    len -= suffix;
  return find_in (kernel_allocators, ARRAY_SIZE (kernel_allocators),
		  name, len);
}

/* The table row for the function FNDECL, or NULL.  */
const struct allocator *
alloc_find (tree fndecl)
{
  if (!fndecl || TREE_CODE (fndecl) != FUNCTION_DECL || !DECL_NAME (fndecl))
    return NULL;
  return alloc_find_name (IDENTIFIER_POINTER (DECL_NAME (fndecl)));
}

/* Parse one ROLE of a user allocator's spec into *ARG at position POS.  */
static bool
set_role (struct allocator *row, const char *role, size_t len, int pos)
{
  signed char *slot;
  if (len == 4 && !strncmp (role, "size", 4))
    slot = &row->size_arg;
  else if (len == 5 && !strncmp (role, "count", 5))
    slot = &row->count_arg;
  else if (len == 3 && !strncmp (role, "gfp", 3))
    slot = &row->gfp_arg;
  else if (len == 1 && role[0] == '_')
    return true;
  else
    return false;
  if (*slot != NO_ARG)
    return false;
  *slot = pos;
  return true;
}

/* Add a user allocator from SPEC, "NAME:ROLE,ROLE,..." where each ROLE
   is size, count, gfp or _ for an argument kalloc ignores.  Returns
   false, having said nothing, when SPEC is malformed.  */
bool
alloc_add_user (const char *spec)
{
  const char *colon = strchr (spec, ':');
  if (!colon || colon == spec)
    return false;
  for (const char *p = spec; p < colon; p++)
    if (!ISIDNUM (*p))
      return false;

  struct allocator row = { NULL, NO_ARG, NO_ARG, NO_ARG, NULL };
  int pos = 0;
  for (const char *role = colon + 1;; pos++)
    {
      const char *end = strchr (role, ',');
      size_t len = end ? (size_t) (end - role) : strlen (role);
      if (pos > 16 || !set_role (&row, role, len, pos))
	return false;
      if (!end)
	break;
      role = end + 1;
    }
  if (row.size_arg == NO_ARG)
    return false;

  row.name = xstrndup (spec, colon - spec);
  user_allocators = XRESIZEVEC (struct allocator, user_allocators,
				user_allocator_count + 1);
  user_allocators[user_allocator_count++] = row;
  return true;
}

static void
print_rows (FILE *out, const struct allocator *table, int count)
{
  for (int i = 0; i < count; i++)
    fprintf (out, "%-22s size=%d count=%d gfp=%d\n", table[i].name,
	     table[i].size_arg, table[i].count_arg, table[i].gfp_arg);
}

/* Print the table, for -fplugin-arg-kalloc-list-allocators.  */
void
alloc_print_table (FILE *out)
{
  print_rows (out, kernel_allocators, ARRAY_SIZE (kernel_allocators));
  print_rows (out, user_allocators, user_allocator_count);
}
