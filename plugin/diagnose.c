/*
 * diagnose.c - the warnings, and every message string kalloc prints
 * about user code.
 *
 * A warning goes at the line of the call (the outermost macro expansion
 * point), names the pointee type, both sizes and the likely fix.  Style
 * (argument order, sizeof (struct x) against sizeof (*p)) is never
 * warned about; neither are byte buffers, objects larger than their
 * type, arrays of multi-element records, or correct struct_size ().
 */
#include "kalloc.h"

/* Locations warned about in the current function: the alloc_hooks ()
   macro expands one call into two, and one line deserves one warning. */
static struct location_set warned_lines;

void
diagnose_reset_function (void)
{
  warned_lines.count = 0;
}

/* One warning a line, by line (not location): a .i has no macro
   expansion points, so a macro's two calls there have two columns.  */
static bool
already_warned (location_t loc)
{
  expanded_location here = expand_location (loc);
  for (int i = 0; i < warned_lines.count; i++)
    {
      expanded_location seen = expand_location (warned_lines.locs[i]);
      if (seen.line == here.line && seen.file && here.file
	  && !strcmp (seen.file, here.file))
	return true;
    }
  return !site_location_set_add (&warned_lines, loc);
}

static const char *
alloc_name (const struct alloc_site *site)
{
  return site->name;
}

/* Is the variable DECL declared before AT, so that a fix-it at AT may
   name it?  (void *m = kmalloc (...); struct a *q = m; must not be told
   to use sizeof (*q).)  */
static bool
declared_before (tree decl, location_t at)
{
  if (TREE_CODE (decl) == PARM_DECL || is_global_var (decl))
    return true;
  location_t where = DECL_SOURCE_LOCATION (decl);
  if (where == UNKNOWN_LOCATION || at == UNKNOWN_LOCATION)
    return false;
  return linemap_compare_locations (line_table, where,
				    expansion_point_location (at)) > 0;
}

/* Write into BUF how the program spells the pointer the result is
   stored in (p, h->f, table.slot), as the code at AT can name it, or
   return false.  */
static bool
render_dest (tree t, location_t at, char *buf, size_t len)
{
  if (!t)
    return false;
  switch (TREE_CODE (t))
    {
    case VAR_DECL:
    case PARM_DECL:
      if (!DECL_NAME (t) || DECL_ARTIFICIAL (t) || !declared_before (t, at))
	return false;
      snprintf (buf, len, "%s", IDENTIFIER_POINTER (DECL_NAME (t)));
      return true;
    case SSA_NAME:
      return render_dest (SSA_NAME_VAR (t), at, buf, len);
    case MEM_REF:
      {
	/* *out = kmalloc_array (...): the destination is *out.  */
	char inner[256];
	if (!integer_zerop (TREE_OPERAND (t, 1))
	    || !render_dest (TREE_OPERAND (t, 0), at, inner, sizeof inner))
	  return false;
	int n = snprintf (buf, len, "*%s", inner);
	return n > 0 && (size_t) n < len;
      }
    case COMPONENT_REF:
      {
	tree base = TREE_OPERAND (t, 0);
	tree field = TREE_OPERAND (t, 1);
	if (!DECL_NAME (field))
	  return false;
	const char *sep = ".";
	if (TREE_CODE (base) == MEM_REF && integer_zerop (TREE_OPERAND (base, 1)))
	  {
	    base = TREE_OPERAND (base, 0);
	    sep = "->";
	  }
	char inner[256];
	if (!render_dest (base, at, inner, sizeof inner))
	  return false;
	int n = snprintf (buf, len, "%s%s%s", inner, sep,
			  IDENTIFIER_POINTER (DECL_NAME (field)));
	return n > 0 && (size_t) n < len;
      }
    default:
      return false;
    }
}

static unsigned HOST_WIDE_INT
pointee_size (const struct alloc_site *site)
{
  return tree_to_uhwi (TYPE_SIZE_UNIT (site->pointee));
}

/* One warning a line; *WARNED records the kind either way.  */
static bool
should_warn (const struct alloc_site *site, unsigned *warned,
	     enum kalloc_warning kind)
{
  *warned |= kind;
  return !already_warned (site->loc);
}

/* A fix-it replacing the sizeof operand ST->operand with TEXT, when it
   is on one line of the user's file.  */
static void
fix_operand (rich_location *richloc, const struct alloc_site *site,
	     const struct sizeof_type *st, const char *text)
{
  if (!source_same_line (st->operand.from, st->operand.to))
    return;
  location_t first = source_location_at (site->loc, st->operand.from);
  location_t last = source_location_at (site->loc, st->operand.to - 1);
  if (first == UNKNOWN_LOCATION || last == UNKNOWN_LOCATION)
    return;
  source_range range;
  range.m_start = first;
  range.m_finish = last;
  richloc->add_fixit_replace (range, text);
}

/* A fix-it on RICHLOC replacing SITE's sizeof operand with *DEST, when
   the text names one plainly (sizeof (p) -> sizeof (*p)).  */
static void
fix_sizeof_to_dest (rich_location *richloc, const struct alloc_site *site,
		    const char *dest)
{
  struct sizeof_type st;
  char text[260];
  if (!sizeof_type_of_site (site, &st) || st.pointer)
    return;
  snprintf (text, sizeof text, "*%s", dest);
  fix_operand (richloc, site, &st, text);
}

static void
check_object (const struct alloc_site *site, unsigned *warned)
{
  unsigned HOST_WIDE_INT need = pointee_size (site);
  unsigned HOST_WIDE_INT fam_offset;
  /* A structure with a trailing array needs only its header.  */
  if (flex_trailing_array (site->pointee, &fam_offset))
    need = fam_offset;
  if (site->size >= need || site->size == 0
      || !should_warn (site, warned, KW_OBJECT))
    return;

  const char *ptr_note = "";
  if (site->size == tree_to_uhwi (TYPE_SIZE_UNIT (ptr_type_node)))
    ptr_note = ", the size of a pointer,";
  char dest[256];
  if (render_dest (site->dest, site->loc, dest, sizeof dest))
    {
      rich_location richloc (line_table, site->loc);
      fix_sizeof_to_dest (&richloc, site, dest);
      warning_at (&richloc, 0,
		  "%qs allocates %wu bytes%s for %qT, which needs %wu; "
		  "did you mean %<sizeof (*%s)%>?",
		  alloc_name (site), site->size, ptr_note, site->pointee, need,
		  dest);
    }
  else
    warning_at (site->loc, 0,
		"%qs allocates %wu bytes%s for %qT, which needs %wu; "
		"did you mean %<sizeof (%T)%>?",
		alloc_name (site), site->size, ptr_note, site->pointee, need,
		site->pointee);
}

/* Is SITE's pointee a row of bytes (u8 [2]) counted at run time?  */
static bool
byte_rows (const struct alloc_site *site)
{
  tree row = site->pointee;
  return TREE_CODE (row) == ARRAY_TYPE
	 && INTEGRAL_TYPE_P (TREE_TYPE (row))
	 && TYPE_PRECISION (TREE_TYPE (row)) == BITS_PER_UNIT
	 && pointee_size (site) > 1
	 && site->count && TREE_CODE (site->count) != INTEGER_CST;
}

static void
check_array (const struct alloc_site *site, unsigned *warned)
{
  unsigned HOST_WIDE_INT size = pointee_size (site);
  unsigned HOST_WIDE_INT elem = site->elem_size;
  /* elem 1 counts bytes (kmalloc_array (len, sizeof (u8))), not
     elements of a type, but a run-time count of single bytes for rows
     of several (s8 (*)[2]) is one byte per row; a larger element (a
     padded or aligned stride, sizeof (*p) + 8) over-allocates, which is
     never short.  */
  if (site->swapped || !elem || (elem <= 1 && !byte_rows (site))
      || elem >= size)
    return;
  /* A count whose constant factor times the element fills whole
     objects: kcalloc (4, sizeof (u32)) for a u32 (*)[4], calloc (2 * n,
     sizeof (u32)) for a u64 *.  */
  unsigned HOST_WIDE_INT factor = 0;
  if (site->count && tree_fits_uhwi_p (site->count))
    factor = tree_to_uhwi (site->count);
  else if (site->count && TREE_CODE (site->count) == SSA_NAME)
    {
      struct size_expr count;
      int other;
      size_parse (site->count, &count);
      other = -1;
      if (!size_product (&count, count.root, &factor, &other))
	factor = 0;
    }
  if (factor && factor <= HOST_WIDE_INT_M1U / elem
      && (factor * elem) % size == 0)
    return;
  /* A structure whose flexible array starts at offset 0 (a union of a
     header and the array, as in struct net_generic) is allocated as
     count * element: offsetof (struct net_generic, ptr[n]).  */
  unsigned HOST_WIDE_INT fam_offset, fam_elem;
  if (flex_nested_array (site->pointee, &fam_offset, &fam_elem, 0)
      && fam_offset == 0 && fam_elem == elem)
    return;
  /* No sizeof in the text: the split between count and element is the
     program's own (kmalloc_array (bytes, 2) doubles a byte count).  */
  if (sizeof_size_bare (site))
    return;
  if (!should_warn (site, warned, KW_ARRAY))
    return;

  char dest[256];
  if (render_dest (site->dest, site->loc, dest, sizeof dest))
    {
      rich_location richloc (line_table, site->loc);
      fix_sizeof_to_dest (&richloc, site, dest);
      warning_at (&richloc, 0,
		  "%qs element size %wu does not match %qT of %wu bytes; "
		  "did you mean %<sizeof (*%s)%>?",
		  alloc_name (site), elem, site->pointee, size, dest);
    }
  else
    warning_at (site->loc, 0,
		"%qs element size %wu does not match %qT of %wu bytes; "
		"did you mean %<sizeof (%T)%>?",
		alloc_name (site), elem, site->pointee, size, site->pointee);
}

static void
check_flex (const struct alloc_site *site, unsigned *warned)
{
  bool short_elem = site->elem_size < site->flex.elem_size;
  /* Short elements are a bug when a sizeof names them; a bare number
     (2 * size) is the program's own count of bytes.  */
  if ((!short_elem && site->base_size >= site->flex.offset)
      || (short_elem && !sizeof_element_typed (site))
      || !should_warn (site, warned, KW_FLEX))
    return;
  const char *fam = IDENTIFIER_POINTER (DECL_NAME (site->flex.fam));
  char dest[256], fix[400];
  if (render_dest (site->dest, site->loc, dest, sizeof dest))
    snprintf (fix, sizeof fix, "struct_size (%s, %s, count)", dest, fam);
  else
    {
      char *type = print_generic_expr_to_str (site->pointee);
      snprintf (fix, sizeof fix, "struct_size_t (%s, %s, count)", type, fam);
      free (type);
    }
  if (short_elem)
    warning_at (site->loc, 0,
		"%qs allocates %wu-byte elements for %qT, whose flexible "
		"array %qs has %wu-byte elements; did you mean %qs?",
		alloc_name (site), site->elem_size, site->pointee, fam,
		site->flex.elem_size, fix);
  else
    warning_at (site->loc, 0,
		"%qs allocates a %wu-byte header for %qT, whose flexible array "
		"%qs starts at offset %wu; did you mean %qs?",
		alloc_name (site), site->base_size, site->pointee, fam,
		site->flex.offset, fix);
}

/* The pointer-type mistakes: the destination's own type, a pointer to
   another type, a pointer for an object, an object for a pointer, the
   pointed-to object for a pointer.  The
   fix is sizeof (*DEST), with a fix-it, or sizeof (the element type).  */
static void
warn_pointer_type (const struct alloc_site *site, const struct sizeof_type *st,
		   enum type_mismatch kind, const char *dest)
{
  rich_location richloc (line_table, site->loc);
  char fix[260];
  if (dest)
    {
      snprintf (fix, sizeof fix, "*%s", dest);
      fix_operand (&richloc, site, st, fix);
    }
  else
    {
      char *type = print_generic_expr_to_str (site->pointee);
      snprintf (fix, sizeof fix, "%s", type);
      free (type);
    }
  switch (kind)
    {
    case TM_OWN_TYPE:
      warning_at (&richloc, 0,
		  "%qs sizes %qT, the destination%'s own type, for elements "
		  "of %qT; did you mean %<sizeof (%s)%>?",
		  alloc_name (site), st->type, site->pointee, fix);
      break;
    case TM_OTHER_POINTER:
      warning_at (&richloc, 0,
		  "%qs sizes %qT for elements of %qT: pointers to other "
		  "types, the sizes match (%wu bytes) only by accident; did "
		  "you mean %<sizeof (%s)%>?",
		  alloc_name (site), st->type, site->pointee,
		  pointee_size (site), fix);
      break;
    case TM_POINTER_FOR_OBJECT:
    case TM_OBJECT_FOR_POINTER:
      warning_at (&richloc, 0,
		  "%qs sizes %qT for elements of %qT: a pointer and an "
		  "object, whose sizes agree on some targets only; did you "
		  "mean %<sizeof (%s)%>?",
		  alloc_name (site), st->type, site->pointee, fix);
      break;
    case TM_TARGET_FOR_POINTER:
      warning_at (&richloc, 0,
		  "%qs sizes %qT for elements of %qT: the object, not a "
		  "pointer to it; did you mean %<sizeof (%s)%>?",
		  alloc_name (site), st->type, site->pointee, fix);
      break;
    default:
      gcc_unreachable ();
    }
}

/* The size is right by accident: sizeof names another type of the
   same size (kmalloc_obj () would have refused it).  */
static void
check_type (const struct alloc_site *site, unsigned *warned)
{
  struct sizeof_type st;
  if (!sizeof_type_of_site (site, &st))
    return;
  enum type_mismatch kind = sizeof_type_mismatch (site, &st);
  if (kind == TM_NONE || !should_warn (site, warned, KW_TYPE))
    return;
  char dest[256];
  bool named = render_dest (site->dest, site->loc, dest, sizeof dest);
  if (kind != TM_OTHER_TYPE)
    {
      warn_pointer_type (site, &st, kind, named ? dest : NULL);
      return;
    }
  unsigned HOST_WIDE_INT size = pointee_size (site);
  rich_location richloc (line_table, site->loc);
  char fix[260];
  if (named)
    {
      snprintf (fix, sizeof fix, "%s%s", st.pointer ? "" : "*", dest);
      fix_operand (&richloc, site, &st, fix);
      if (st.pointer)
	warning_at (&richloc, 0,
		    "%qs sizes %qT for %qT: the sizes match (%wu bytes) only "
		    "by accident; did you mean %<struct_size (%s, ...)%>?",
		    alloc_name (site), st.type, site->pointee, size, dest);
      else
	warning_at (&richloc, 0,
		    "%qs sizes %qT for %qT: the sizes match (%wu bytes) only "
		    "by accident; did you mean %<sizeof (%s)%>?",
		    alloc_name (site), st.type, site->pointee, size, fix);
    }
  else
    warning_at (site->loc, 0,
		"%qs sizes %qT for %qT: the sizes match (%wu bytes) only by "
		"accident; did you mean %<sizeof (%T)%>?",
		alloc_name (site), st.type, site->pointee, size, site->pointee);
}

/* Warn about SITE if its size cannot be right for its pointee; the
   kinds found (warned or not: one warning a line).  */
/* With keep-warnings, -Werror is lifted while kalloc warns: returns
   what kalloc_warnings_end () puts back.  */
bool
kalloc_warnings_begin (void)
{
  bool werror = kalloc_werror ();
  if (kalloc_opts.keep_warnings)
    kalloc_set_werror (false);
  return werror;
}

void
kalloc_warnings_end (bool werror)
{
  kalloc_set_werror (werror);
}

unsigned
diagnose_site (const struct alloc_site *site)
{
  unsigned warned = 0;
  if (!site->pointee || site->loc == UNKNOWN_LOCATION
      || silence_site (site->loc, current_function_decl))
    return 0;

  unsigned kinds = kalloc_opts.warnings;
  if (site->kind == SITE_OBJECT && (kinds & KW_OBJECT))
    check_object (site, &warned);
  else if (site->kind == SITE_ARRAY && (kinds & KW_ARRAY))
    check_array (site, &warned);
  else if (site->has_flex && DECL_NAME (site->flex.fam) && (kinds & KW_FLEX))
    check_flex (site, &warned);
  if (!warned && (kinds & KW_TYPE))
    check_type (site, &warned);
  return warned;
}
