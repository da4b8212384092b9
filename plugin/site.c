/*
 * site.c - one allocation call, described once for everyone.
 *
 * site_analyze () puts together the allocator row, the parsed size, the
 * pointee type and, for structures with a flexible array member, that
 * member and its counter.  The kind it decides (object, array, flex or
 * opaque) is what the warnings, the rewrites and the report go by.
 */
#include "kalloc.h"

static location_t
user_location (gcall *call)
{
  location_t loc = gimple_location (call);
  if (loc == UNKNOWN_LOCATION)
    return loc;
  /* The 6.10+ kmalloc () is a macro: point at the line that uses it. */
  return linemap_resolve_location (line_table, loc,
				   LRK_MACRO_EXPANSION_POINT, NULL);
}

/* The allocator's name as the user wrote it: in 6.10+ kernels the
   call is kmalloc_noprof () inside the kmalloc () macro, and kzalloc ()
   or kvcalloc () are macros over other allocators.  The outermost macro
   that names an allocator is what the user wrote; a macro around that
   (or around a plain call) means the call is written in a macro body.
   ALLOC is NULL for a call that is an allocator only by its spelling:
   NULL then when no macro names one.  */
/* Is CALL one of Linux 7.x's typed allocations (kmalloc_obj (),
   kmalloc_objs (), kmalloc_flex () and their kz/kv/kvz forms)?  They
   expand through __alloc_objs () and __alloc_flex (), which pass the
   allocator a local __obj_size: size_mul () or struct_size_t () of the
   type; __alloc_flex () stores the counter itself.  The variable is
   what tells, not the macros: a .i has no macro maps, and must give the
   same verdict.  include/kalloc.h's own forms pass __kalloc_obj_size or
   __kalloc_flex_size and leave the counter to kalloc: not typed here.  */
static bool
kernel_typed_call (gcall *call, const struct allocator *alloc)
{
  tree size = gimple_call_arg (call, alloc->size_arg);
  tree var = TREE_CODE (size) == SSA_NAME ? SSA_NAME_VAR (size) : size;
  return var && VAR_P (var) && DECL_NAME (var)
	 && !strcmp (IDENTIFIER_POINTER (DECL_NAME (var)), "__obj_size");
}

static const char *
user_name (gcall *call, const struct allocator *alloc, bool *in_macro,
	   const char **outer_macro)
{
  const char *name = alloc ? alloc->name : NULL;
  location_t loc = gimple_location (call);
  int depth = 0, alloc_depth = -1;
  while (linemap_location_from_macro_expansion_p (line_table, loc))
    {
      const line_map *map = linemap_lookup (line_table, loc);
      if (!map || !linemap_macro_expansion_map_p (map))
	break;
      const line_map_macro *macro = linemap_check_macro (map);
      const char *macro_name = linemap_map_get_macro_name (macro);
      *outer_macro = macro_name;
      if (macro_name && alloc_find_name (macro_name))
	{
	  name = macro_name;
	  alloc_depth = depth;
	}
      loc = kalloc_expansion_point (macro);
      depth++;
    }
  *in_macro = depth > alloc_depth + 1;
  return name;
}

static unsigned HOST_WIDE_INT
type_size (tree type)
{
  return tree_to_uhwi (TYPE_SIZE_UNIT (type));
}

/* Is ELEM a sensible element size for arrays of POINTEE: its size or a
   multiple of it (arrays of pairs)?  */
static bool
elem_fits_pointee (unsigned HOST_WIDE_INT elem, tree pointee)
{
  unsigned HOST_WIDE_INT size = type_size (pointee);
  return elem && elem % size == 0;
}

/* kcalloc (n, size) and friends: the element size is a constant
   argument.  Either order is accepted (argument order is style).  */
static void
analyze_array_call (struct alloc_site *site)
{
  tree count = gimple_call_arg (site->call, site->alloc->count_arg);
  tree elem = gimple_call_arg (site->call, site->alloc->size_arg);
  bool elem_const = tree_fits_uhwi_p (elem);
  bool count_const = tree_fits_uhwi_p (count);

  if (elem_const && count_const && site->pointee
      && !elem_fits_pointee (tree_to_uhwi (elem), site->pointee)
      && elem_fits_pointee (tree_to_uhwi (count), site->pointee))
    {
      tree tmp = count;
      count = elem;
      elem = tmp;
      site->swapped = true;
    }
  else if (!elem_const && count_const)
    {
      /* kcalloc (sizeof (*p), n): only trust it when the sizes agree. */
      if (!site->pointee
	  || !elem_fits_pointee (tree_to_uhwi (count), site->pointee))
	return;
      tree tmp = count;
      count = elem;
      elem = tmp;
      site->swapped = true;
    }
  else if (!elem_const)
    return;

  site->kind = SITE_ARRAY;
  site->elem_size = tree_to_uhwi (elem);
  site->count = count;
}

/* A size that is HEADER + COUNT * ELEM, with COUNT in node COUNT_NODE:
   a flexible array allocation when the pointee's trailing array has
   ELEM-byte elements and HEADER is the structure's size or the array's
   offset, as struct_size () makes it.  A trailing array with another
   header keeps HAS_FLEX for the header warning but stays opaque.  */
static bool
analyze_flex (struct alloc_site *site, unsigned HOST_WIDE_INT header,
	      unsigned HOST_WIDE_INT elem, int count_node)
{
  if (!site->pointee)
    return false;
  if (!flex_find (site->pointee, elem, &site->flex))
    {
      /* Elements smaller than the flexible array's (n * sizeof (u32) for
	 a u64 array) make it short for large counts: HAS_FLEX for the
	 warning, opaque for everything else.  An element of 1 is one
	 too (the warning asks the text whether a sizeof names it, or
	 it counts bytes: sizeof (*h) + len).  */
      unsigned HOST_WIDE_INT offset, fam_elem;
      if (elem >= 1
	  && flex_nested_array (site->pointee, &offset, &fam_elem, 0)
	  && fam_elem > elem && flex_find (site->pointee, fam_elem, &site->flex))
	{
	  site->has_flex = true;
	  site->base_size = header;
	  site->elem_size = elem;
	}
      return false;
    }
  site->has_flex = true;
  site->base_size = header;
  site->elem_size = elem;
  if (header != type_size (site->pointee) && header != site->flex.offset)
    return false;
  site->kind = SITE_FLEX;
  site->count_node = count_node;
  site->count = site->expr.node[count_node].value;
  return true;
}

static void
set_array (struct alloc_site *site, unsigned HOST_WIDE_INT elem, int count)
{
  site->kind = SITE_ARRAY;
  site->elem_size = elem;
  site->count_node = count;
  site->count = count >= 0 ? site->expr.node[count].value : NULL_TREE;
}

/* A header followed by several trailing arrays of different element
   sizes carved from one allocation, sizeof (*p) + n * sizeof (s32)
   + n * 3 * sizeof (s16): no one element size is the array's (GCC
   folds it to ((n + 4) * 2 + n * 3) * 2, which looked like 2-byte
   elements), so the site is opaque.  */
static bool
several_arrays (const struct size_expr *expr)
{
  struct size_linear lin;
  if (!size_linear (expr, expr->root, &lin) || !lin.constant)
    return false;
  for (int i = 1; i < lin.nterms; i++)
    if (lin.coef[i] != lin.coef[0])
      return true;
  return false;
}

static void
analyze_size_call (struct alloc_site *site)
{
  struct size_expr *expr = &site->expr;
  unsigned HOST_WIDE_INT constant, factor, addend;
  int other, count_node;

  size_parse (gimple_call_arg (site->call, site->alloc->size_arg), expr);
  if (size_is_const (expr, expr->root, &constant))
    {
      site->kind = SITE_OBJECT;
      site->size = constant;
    }
  else if (several_arrays (expr))
    return;
  else if (size_product (expr, expr->root, &factor, &other))
    {
      /* Constant factors anywhere in the product make the element:
	 array3_size (sizeof (T), n, 2) is an array of T pairs.  */
      if (other < 0)
	{
	  set_array (site, factor, -1);
	  return;
	}
      /* GCC folds sizeof (*p) + n * 4 into (n + 2) * 4: a product of a
	 sum may be a header and a flexible array.  */
      if (size_split_sum (expr, other, &addend, &count_node))
	{
	  /* Not flex: (n + 1) * C is an array, unless the "header" part
	     holds a whole pointee (sizeof (*h) + n * C folded that way),
	     the pointee ends in an old-style items[1] array, or it holds
	     an array of C-byte elements right after the header
	     (offsetof (T, fixed[n])).  */
	  unsigned HOST_WIDE_INT trailing, header = addend * factor;
	  if (!analyze_flex (site, header, factor, count_node)
	      && site->pointee && !site->has_flex
	      && (elem_fits_pointee (factor, site->pointee)
		  || (header < type_size (site->pointee)
		      && !flex_trailing_array (site->pointee, &trailing)
		      && !flex_array_member_at (site->pointee, header, factor))))
	    set_array (site, factor, other);
	}
      else
	set_array (site, factor, other);
    }
  else if (size_split_sum (expr, expr->root, &addend, &other))
    {
      if (size_split_product (expr, other, &factor, &count_node))
	analyze_flex (site, addend, factor, count_node);
      else
	/* Byte elements: sizeof (*p) + n * 1 is folded to n + sizeof.  */
	analyze_flex (site, addend, 1, other);
    }
}

/* Does the analysed SITE have the shape the warnings and rewrites
   assume?  */
static bool
site_consistent (const struct alloc_site *site)
{
  const struct size_expr *e = &site->expr;
  tree unit = site->pointee ? TYPE_SIZE_UNIT (site->pointee) : NULL_TREE;
  bool ok = kalloc_invariant (site->count_node < e->count)
	    && kalloc_invariant (!e->count
				 || (e->root >= 0 && e->root < e->count))
	    && kalloc_invariant (!site->pointee
				 || (unit && tree_fits_uhwi_p (unit)));
  if (ok && site->kind == SITE_ARRAY)
    ok = kalloc_invariant (site->elem_size > 0);
  if (ok && site->kind == SITE_FLEX)
    ok = kalloc_invariant (site->has_flex && site->flex.fam
			   && site->flex.elem_size > 0
			   && site->flex.counter_depth >= 0
			   && site->flex.counter_depth <= FLEX_PATH_MAX);
  return ok;
}

/* Fill SITE for CALL.  Returns false when CALL is not an allocation
   kalloc knows, or its arguments do not fit the table.  */
bool
site_analyze (gcall *call, struct alloc_site *site)
{
  memset (site, 0, sizeof *site);
  site->count_node = -1;
  site->alloc = alloc_find (kalloc_call_fndecl (call));
  if (!site->alloc)
    return false;

  unsigned nargs = gimple_call_num_args (call);
  const struct allocator *a = site->alloc;
  if ((unsigned) a->size_arg >= nargs
      || (a->count_arg >= 0 && (unsigned) a->count_arg >= nargs))
    return false;
  if (!INTEGRAL_TYPE_P (TREE_TYPE (gimple_call_arg (call, a->size_arg))))
    return false;

  site->call = call;
  site->loc = user_location (call);
  site->name = user_name (call, a, &site->in_macro, &site->outer_macro);
  site->typed = kernel_typed_call (call, a);
  site->pointee = pointee_infer (call, &site->dest);
  site->kind = SITE_OPAQUE;
  if (a->count_arg >= 0)
    analyze_array_call (site);
  else
    analyze_size_call (site);
  if (!site_consistent (site))
    {
      /* Not understood after all: reported, left as it is (no size
	 either, so that nothing is planned from it).  */
      site->kind = SITE_OPAQUE;
      site->pointee = NULL_TREE;
      site->has_flex = false;
      site->count = NULL_TREE;
      site->count_node = -1;
      site->expr.count = 0;
      site->expr.root = -1;
    }
  return true;
}

/* Fill SITE for CALL when it is written as an allocator but calls
   something else: the x86 boot decompressor includes lib/xz after
   "#define kmalloc(size, flags) malloc(size)".  Only its spelling is
   known (name, location, the type the result is stored as), so such a
   site is for suggest only: no warning, rewrite or report.
   site_spelled_candidate () is the cheap part of the test: a call that
   is no known allocator and whose result is a pointer.  */
bool
site_spelled_candidate (gcall *call)
{
  tree lhs = gimple_call_lhs (call);
  return lhs && POINTER_TYPE_P (TREE_TYPE (lhs))
	 && !alloc_find (kalloc_call_fndecl (call));
}

bool
site_spelled (gcall *call, struct alloc_site *site)
{
  memset (site, 0, sizeof *site);
  site->count_node = -1;
  if (!site_spelled_candidate (call))
    return false;
  site->name = user_name (call, NULL, &site->in_macro, &site->outer_macro);
  if (!site->name)
    return false;
  site->call = call;
  site->loc = user_location (call);
  site->pointee = pointee_infer (call, &site->dest);
  site->kind = SITE_OPAQUE;
  return true;
}

const char *
site_kind_name (enum site_kind kind)
{
  switch (kind)
    {
    case SITE_OBJECT:
      return "object";
    case SITE_ARRAY:
      return "array";
    case SITE_FLEX:
      return "flex";
    default:
      return "opaque";
    }
}

/* The rewrites' names, for the report and the dump alike.  */
const struct option_word site_rewrite_names[] = {
  { "saturate", RW_SATURATE, NULL },
  { "counter-check", RW_COUNTER_CHECK, NULL },
  { "counter-store", RW_COUNTER_STORE, NULL },
  { NULL, 0, NULL }
};

/* Add LOC to SET; false when it was there already.  */
bool
site_location_set_add (struct location_set *set, location_t loc)
{
  for (int i = 0; i < set->count; i++)
    if (set->locs[i] == loc)
      return false;
  if (set->count == set->alloc)
    {
      set->alloc = set->alloc ? 2 * set->alloc : 16;
      set->locs = XRESIZEVEC (location_t, set->locs, set->alloc);
    }
  set->locs[set->count++] = loc;
  return true;
}
