/*
 * allocators.c - the table of allocation functions kalloc recognises.
 *
 * One row per allocator: which argument is the size (the element size
 * for array allocators), which the element count, which the GFP flags.
 * The kernels since 6.10 call FOO_noprof() through an alloc_hooks()
 * macro; those names match the row of FOO.  The C library's allocators
 * are a second table, switched off as a group with no-libc.  A function
 * in neither table whose type has alloc_size (N) or alloc_size (N, M)
 * is an allocator too, with its roles from the attribute.
 * docs/allocators.md holds the same tables for users; a new allocator
 * is one row here and there.
 */
#include "kalloc.h"

/* Bumped whenever a row is added: alloc_find ()'s cache is then stale.  */
static unsigned table_generation = 1;

#define NO_ARG (-1)

static const struct allocator kernel_allocators[] = {
  /* name                  size count gfp  typed family (NULL: none
                                              upstream converts to), resize */
  { "kmalloc",              0, NO_ARG, 1, "kmalloc", false },
  { "kzalloc",              0, NO_ARG, 1, "kzalloc", false },
  { "kmalloc_node",         0, NO_ARG, 1, NULL, false },
  { "kzalloc_node",         0, NO_ARG, 1, NULL, false },
  { "kcalloc",              1, 0,      2, "kzalloc", false },
  { "kmalloc_array",        1, 0,      2, "kmalloc", false },
  { "kcalloc_node",         1, 0,      2, NULL, false },
  { "kmalloc_array_node",   1, 0,      2, NULL, false },
  { "kvmalloc",             0, NO_ARG, 1, "kvmalloc", false },
  { "kvzalloc",             0, NO_ARG, 1, "kvzalloc", false },
  { "kvmalloc_node",        0, NO_ARG, 1, NULL, false },
  { "kvzalloc_node",        0, NO_ARG, 1, NULL, false },
  { "__kvmalloc_node",      0, NO_ARG, NO_ARG, NULL, false },
  { "kvcalloc",             1, 0,      2, "kvzalloc", false },
  { "kvmalloc_array",       1, 0,      2, "kvmalloc", false },
  { "kvcalloc_node",        1, 0,      2, NULL, false },
  { "kvmalloc_array_node",  1, 0,      2, NULL, false },
  { "devm_kmalloc",         1, NO_ARG, 2, NULL, false },
  { "devm_kzalloc",         1, NO_ARG, 2, NULL, false },
  { "devm_kcalloc",         2, 1,      3, NULL, false },
  { "devm_kmalloc_array",   2, 1,      3, NULL, false },
  { "krealloc_array",       2, 1,      3, NULL, true },
};

/* The C library's: no GFP argument; calloc () and reallocarray () check
   their own product.  A failed realloc () keeps the old block.  */
static const struct allocator libc_allocators[] = {
  /* name                  size count gfp     family resize */
  { "malloc",               0, NO_ARG, NO_ARG, NULL, false },
  { "calloc",               1, 0,      NO_ARG, NULL, false },
  { "realloc",              1, NO_ARG, NO_ARG, NULL, true },
  { "reallocarray",         2, 1,      NO_ARG, NULL, true },
  { "aligned_alloc",        1, NO_ARG, NO_ARG, NULL, false },
};


/* Allocators named with -fplugin-arg-kalloc-alloc= or a wrapper file,
   and where each was named (for the message when one is named twice). */
static struct allocator *user_allocators;
static char **user_allocator_origins;
static int user_allocator_count;

/* Allocator wrappers learnt from their bodies (wrappers.c), one row
   each, allocated one by one: sites keep pointers to them.  */
static struct allocator **wrapper_allocators;
static int wrapper_allocator_count;

/* Allocators known by their alloc_size attribute, one row each
   (allocated one by one: sites keep pointers to them).  */
static struct allocator **attribute_allocators;
static int attribute_allocator_count;

static const struct allocator *
find_in (const struct allocator *table, int count, const char *name,
	 size_t len)
{
  /* The first character first: every function's name is looked up, and
     most share none with an allocator.  */
  for (int i = 0; i < count; i++)
    if (table[i].name[0] == name[0] && !strncmp (table[i].name, name, len)
	&& table[i].name[len] == 0)
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

  if (kalloc_opts.libc)
    {
      row = find_in (libc_allocators, ARRAY_SIZE (libc_allocators), name,
		     len);
      if (row)
	return row;
    }

  size_t suffix = strlen (NOPROF_SUFFIX);
  size_t stem = len;
  if (len > suffix && !strcmp (name + len - suffix, NOPROF_SUFFIX))
    stem -= suffix;
  row = find_in (kernel_allocators, ARRAY_SIZE (kernel_allocators), name,
		 stem);
  if (row)
    return row;
  for (int i = 0; i < wrapper_allocator_count; i++)
    if (!strcmp (wrapper_allocators[i]->name, name))
      return wrapper_allocators[i];
  for (int i = 0; i < attribute_allocator_count; i++)
    if (!strcmp (attribute_allocators[i]->name, name))
      return attribute_allocators[i];
  return NULL;
}

/* Is TYPE the kernel's gfp_t, through typedefs of it?  */
static bool
is_gfp_type (tree type)
{
  for (; type; type = DECL_ORIGINAL_TYPE (TYPE_NAME (type)))
    {
      tree name = TYPE_NAME (type);
      if (!name || TREE_CODE (name) != TYPE_DECL)
	return false;
      if (DECL_NAME (name)
	  && !strcmp (IDENTIFIER_POINTER (DECL_NAME (name)), "gfp_t"))
	return true;
    }
  return false;
}

/* The position of FNTYPE's first gfp_t parameter, or NO_ARG.  */
static int
gfp_position (tree fntype)
{
  int pos = 0;
  for (tree parm = fntype ? TYPE_ARG_TYPES (fntype) : NULL_TREE;
       parm && pos <= 64; parm = TREE_CHAIN (parm), pos++)
    if (is_gfp_type (TREE_VALUE (parm)))
      return pos;
  return NO_ARG;
}

/* The 0-based argument an alloc_size position ARG (1-based) names, or
   NO_ARG.  */
static int
attribute_position (tree arg)
{
  if (!arg || TREE_CODE (arg) != INTEGER_CST || !tree_fits_uhwi_p (arg))
    return NO_ARG;
  unsigned HOST_WIDE_INT pos = tree_to_uhwi (arg);
  return pos >= 1 && pos <= 64 ? (int) pos - 1 : NO_ARG;
}

/* A row for FNDECL from its alloc_size attribute, or NULL: alloc_size (N)
   is the size, alloc_size (N, M) a count N of M-byte elements, as
   calloc () is declared; the GFP argument is a gfp_t parameter.  Only
   a function marked malloc returns a new block: any other (realloc (),
   krealloc ()) may return the old one, whose counter is the code's.  */
static const struct allocator *
attribute_row (tree fndecl)
{
  /* alloca () has alloc_size, but its memory is the stack frame's.  */
  if (fndecl_built_in_p (fndecl, BUILT_IN_NORMAL))
    switch (DECL_FUNCTION_CODE (fndecl))
      {
      CASE_BUILT_IN_ALLOCA:
	return NULL;
      default:
	break;
      }
  tree attr = lookup_attribute ("alloc_size",
				TYPE_ATTRIBUTES (TREE_TYPE (fndecl)));
  if (!attr || !TREE_VALUE (attr))
    return NULL;
  tree args = TREE_VALUE (attr);
  int first = attribute_position (TREE_VALUE (args));
  int second = TREE_CHAIN (args) ? attribute_position (TREE_VALUE
						       (TREE_CHAIN (args)))
				 : NO_ARG;
  if (first == NO_ARG || (TREE_CHAIN (args) && second == NO_ARG))
    return NULL;

  struct allocator *row = XNEW (struct allocator);
  row->name = xstrdup (IDENTIFIER_POINTER (DECL_NAME (fndecl)));
  row->size_arg = second == NO_ARG ? first : second;
  row->count_arg = second == NO_ARG ? NO_ARG : first;
  row->gfp_arg = NO_ARG;
  row->family = NULL;
  row->resize = !DECL_IS_MALLOC (fndecl);
  row->gfp_arg = gfp_position (TREE_TYPE (fndecl));
  attribute_allocators = XRESIZEVEC (struct allocator *, attribute_allocators,
				     attribute_allocator_count + 1);
  attribute_allocators[attribute_allocator_count++] = row;
  table_generation++;
  return row;
}

/* Is NAME one of the C library's allocators?  */
static bool
is_libc_name (const char *name)
{
  return find_in (libc_allocators, ARRAY_SIZE (libc_allocators), name,
		  strlen (name)) != NULL;
}

/* The table row for the function FNDECL, or NULL.  The tables win over
   the attribute; with no-libc, the C library's allocators are none.  */
static const struct allocator *alloc_find_uncached (tree fndecl);

const struct allocator *
alloc_find (tree fndecl)
{
  if (!fndecl || TREE_CODE (fndecl) != FUNCTION_DECL || !DECL_NAME (fndecl))
    return NULL;
  /* Every call of every function asks, mostly about the same few
     callees: a direct-mapped cache of answers, by declaration (its UID
     too, since a collected declaration's address can be reused) and
     table generation.  */
  struct cached { tree fndecl; int uid; unsigned generation;
		  const struct allocator *row; };
  static struct cached cache[512];
  unsigned slot = ((unsigned) DECL_UID (fndecl) * 2654435761u) >> 23;
  struct cached *c = &cache[slot];
  if (c->fndecl == fndecl && c->uid == (int) DECL_UID (fndecl)
      && c->generation == table_generation)
    return c->row;
  const struct allocator *row = alloc_find_uncached (fndecl);
  c->fndecl = fndecl;
  c->uid = DECL_UID (fndecl);
  c->generation = table_generation;
  c->row = row;
  return row;
}

static const struct allocator *
alloc_find_uncached (tree fndecl)
{
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  const struct allocator *row = alloc_find_name (name);
  /* A static malloc () is the program's own, not the C library's: the
     kernel's boot decompressor has one (include/linux/decompress/mm.h).  */
  if (is_libc_name (name)
      && (!kalloc_opts.libc || !TREE_PUBLIC (fndecl))
      && !find_in (user_allocators, user_allocator_count, name,
		   strlen (name)))
    return NULL;
  if (row)
    return row;
  return attribute_row (fndecl);
}

/* May CALL, through ROW, return zeroed memory?  A counter the code never
   sets may then be relying on that zero (rewrite.c).  True for the z and
   c forms, for GFP flags that are not a constant or have a zeroing bit,
   and for every allocator not in the two tables (a wrapper, an
   alloc_size function, one named with alloc=), whose flags kalloc does
   not know.  A row without a GFP column (6.12's __kvmalloc_node (), whose
   flags move with CONFIG_SLAB_BUCKETS) is read by its gfp_t parameter.
   The zeroing bit is __GFP_ZERO, 0x100 in Linux 6.x; 0x8000, older
   kernels' value, counts too, so an unknown kernel errs on the side of
   leaving the counter alone.  */
static bool
is_kernel_row (const struct allocator *row)
{
  return row >= kernel_allocators
	 && row < kernel_allocators + ARRAY_SIZE (kernel_allocators);
}

static bool
is_libc_row (const struct allocator *row)
{
  return row >= libc_allocators
	 && row < libc_allocators + ARRAY_SIZE (libc_allocators);
}

/* Is ROW one of the kernel's or the C library's own allocators, whose
   code reads none of the program's objects (a wrapper learnt from its
   body, or one named by alloc=, is the program's own code)?  */
bool
alloc_is_library (const struct allocator *row)
{
  return row && (is_kernel_row (row) || is_libc_row (row));
}

bool
alloc_may_zero (const struct allocator *row, gcall *call)
{
  bool kernel_row = is_kernel_row (row);
  bool libc_row = is_libc_row (row);
  if ((!kernel_row && !libc_row)
      || strstr (row->name, "zalloc") || strstr (row->name, "calloc"))
    return true;
  if (libc_row)
    return false;		/* malloc (), aligned_alloc () */
  int pos = row->gfp_arg != NO_ARG ? row->gfp_arg
	    : gfp_position (gimple_call_fntype (call));
  /* With -flto the typedef names are gone by now; __kvmalloc_node ()'s
     flags are its second-to-last argument with or without buckets.  */
  if (pos == NO_ARG && !strcmp (row->name, "__kvmalloc_node")
      && gimple_call_num_args (call) >= 3)
    pos = gimple_call_num_args (call) - 2;
  if (pos == NO_ARG || (unsigned) pos >= gimple_call_num_args (call))
    return true;
  tree gfp = gimple_call_arg (call, pos);
  /* An inlined wrapper's flags reach the call through copies that
     constant propagation has not folded yet.  */
  for (int depth = 0; TREE_CODE (gfp) == SSA_NAME && depth < 8; depth++)
    {
      gimple *def = SSA_NAME_DEF_STMT (gfp);
      if (!is_gimple_assign (def)
	  || !(gimple_assign_single_p (def)
	       || CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))))
	break;
      gfp = gimple_assign_rhs1 (def);
    }
  if (TREE_CODE (gfp) != INTEGER_CST || !tree_fits_uhwi_p (gfp))
    return true;
  return (tree_to_uhwi (gfp) & (0x100 | 0x8000)) != 0;
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
alloc_add_user (const char *spec, const char *origin)
{
  const char *colon = strchr (spec, ':');
  if (!colon || colon == spec)
    return false;
  for (const char *p = spec; p < colon; p++)
    if (!ISIDNUM (*p))
      return false;

  struct allocator row = { NULL, NO_ARG, NO_ARG, NO_ARG, NULL, false };
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

  /* Named again: the same roles are the same allocator; other roles
     would make its sites depend on which came first.  */
  for (int i = 0; i < user_allocator_count; i++)
    {
      const struct allocator *old = &user_allocators[i];
      if (strlen (old->name) != (size_t) (colon - spec)
	  || strncmp (old->name, spec, colon - spec))
	continue;
      if (old->size_arg == row.size_arg && old->count_arg == row.count_arg
	  && old->gfp_arg == row.gfp_arg)
	return true;
      char roles[64];
      alloc_roles_text (old, roles, sizeof roles);
      error ("kalloc: %s: %qs named with other roles (%qs) than at %s (%qs)",
	     origin, old->name, colon + 1, user_allocator_origins[i], roles);
      return true;		/* said so: no second message */
    }

  row.name = xstrndup (spec, colon - spec);
  user_allocators = XRESIZEVEC (struct allocator, user_allocators,
				user_allocator_count + 1);
  user_allocator_origins = XRESIZEVEC (char *, user_allocator_origins,
				       user_allocator_count + 1);
  user_allocator_origins[user_allocator_count] = xstrdup (origin);
  user_allocators[user_allocator_count++] = row;
  table_generation++;
  return true;
}

/* -fplugin-arg-kalloc-alloc=SPEC.  */
bool
alloc_add_option (const char *spec)
{
  char *origin = concat ("-fplugin-arg-kalloc-alloc=", spec, NULL);
  bool ok = alloc_add_user (spec, origin);
  free (origin);
  return ok;
}

/* Add ROW, a wrapper learnt from its body (allocated by the caller,
   kept for good: sites point to it).  */
void
alloc_add_wrapper (struct allocator *row)
{
  wrapper_allocators = XRESIZEVEC (struct allocator *, wrapper_allocators,
				   wrapper_allocator_count + 1);
  wrapper_allocators[wrapper_allocator_count++] = row;
  table_generation++;
}

/* ROW's roles as alloc= takes them, "_,size,gfp", into BUF.  */
void
alloc_roles_text (const struct allocator *row, char *buf, size_t size)
{
  int last = MAX (row->size_arg, MAX (row->count_arg, row->gfp_arg));
  size_t len = 0;
  buf[0] = 0;
  for (int pos = 0; pos <= last && len < size; pos++)
    {
      const char *role = pos == row->size_arg ? "size"
			 : pos == row->count_arg ? "count"
			 : pos == row->gfp_arg ? "gfp" : "_";
      len += snprintf (buf + len, size - len, "%s%s", pos ? "," : "", role);
    }
}

static void
print_row (FILE *out, const struct allocator *row)
{
  fprintf (out, "%-22s size=%d count=%d gfp=%d\n", row->name,
	   row->size_arg, row->count_arg, row->gfp_arg);
}

static void
print_rows (FILE *out, const struct allocator *table, int count)
{
  for (int i = 0; i < count; i++)
    print_row (out, &table[i]);
}

/* Print the table, for -fplugin-arg-kalloc-list-allocators.  */
void
alloc_print_table (FILE *out)
{
  print_rows (out, kernel_allocators, ARRAY_SIZE (kernel_allocators));
  if (kalloc_opts.libc)
    print_rows (out, libc_allocators, ARRAY_SIZE (libc_allocators));
  print_rows (out, user_allocators, user_allocator_count);
}
