/*
 * counted-by.c - flexible array members and their counted_by counters.
 *
 * GCC 15 knows __attribute__((counted_by (member))) itself.  On older
 * releases kalloc registers an attribute of that name, so that
 * __has_attribute (__counted_by__) is true and kernel headers switch
 * their __counted_by() annotations on; the attribute then records which
 * member counts the flexible array, and kalloc sets that counter when it
 * allocates the structure, as kmalloc_flex () does.
 */
#include "kalloc.h"

/* ---- the attribute ---------------------------------------------------- */

static bool
is_flexible_array_type (tree type)
{
  if (TREE_CODE (type) != ARRAY_TYPE)
    return false;
  tree domain = TYPE_DOMAIN (type);
  if (!domain || !TYPE_MAX_VALUE (domain))
    return true;				/* T fam[] */
  return TYPE_SIZE (type) && integer_zerop (TYPE_SIZE (type)); /* T fam[0] */
}

/* What GCC 15's C front end calls a flexible array member
   (c_flexible_array_member_type_p): T fam[], not the GNU T fam[0].  */
static bool
is_c99_flexible_array_type (tree type)
{
  return TREE_CODE (type) == ARRAY_TYPE && !TYPE_SIZE (type)
	 && TYPE_DOMAIN (type) && !TYPE_MAX_VALUE (TYPE_DOMAIN (type));
}

/* Misuse is an error with GCC 15's words, in GCC 15's order, so that
   code accepted here is accepted by GCC 15's native counted_by too
   (handle_counted_by_attribute in GCC 15's c-attribs.cc).  */
static tree
handle_counted_by (tree *node, tree name, tree args, int, bool *no_add_attrs)
{
  tree decl = *node;
  tree arg = args ? TREE_VALUE (args) : NULL_TREE;
  tree old = lookup_attribute ("counted_by", DECL_ATTRIBUTES (decl));
  if (TREE_CODE (decl) != FIELD_DECL)
    {
      error_at (DECL_SOURCE_LOCATION (decl),
		"%qE attribute is not allowed for a non-field declaration %q+D",
		name, decl);
      *no_add_attrs = true;
    }
  else if (TREE_CODE (TREE_TYPE (decl)) != ARRAY_TYPE)
    {
      /* A pointer member: GCC 16 counts it natively, GCC 15 refuses.  */
      error_at (DECL_SOURCE_LOCATION (decl),
		"%qE attribute is not allowed for a non-array field", name);
      *no_add_attrs = true;
    }
  else if (!is_c99_flexible_array_type (TREE_TYPE (decl)))
    {
      error_at (DECL_SOURCE_LOCATION (decl),
		"%qE attribute is not allowed for a non-flexible array "
		"member field", name);
      *no_add_attrs = true;
    }
  else if (!arg || TREE_CODE (arg) != IDENTIFIER_NODE)
    {
      error_at (DECL_SOURCE_LOCATION (decl),
		"%<counted_by%> argument is not an identifier");
      *no_add_attrs = true;
    }
  /* A second counted_by naming another member; the same one again is
     a duplicate GCC drops.  */
  else if (old && TREE_VALUE (old)
	   && TREE_CODE (TREE_VALUE (TREE_VALUE (old))) == IDENTIFIER_NODE
	   && TREE_VALUE (TREE_VALUE (old)) != arg)
    {
      error_at (DECL_SOURCE_LOCATION (decl),
		"%<counted_by%> argument %qE conflicts with previous "
		"declaration %qE", arg, TREE_VALUE (TREE_VALUE (old)));
      *no_add_attrs = true;
    }
  return NULL_TREE;
}

static struct attribute_spec counted_by_spec = {
  "counted_by", 1, 1, true, false, false, false, handle_counted_by, NULL
};

static bool (*target_takes_identifier) (const_tree);

/* counted_by's argument is a member name, not an expression: without
   this the C parser looks the name up as a variable and fails.  */
static bool
takes_identifier (const_tree name)
{
  if (is_attribute_p ("counted_by", name))
    return true;
  return target_takes_identifier (name);
}

/* At plugin start: hook the parser so the member name parses.  */
void
counted_by_init (void)
{
  if (KALLOC_NATIVE_COUNTED_BY || !kalloc_opts.counted_by)
    return;
  target_takes_identifier = targetm.attribute_takes_identifier_p;
  targetm.attribute_takes_identifier_p = takes_identifier;
}

/* At PLUGIN_ATTRIBUTES.  */
void
counted_by_register (void)
{
  if (KALLOC_NATIVE_COUNTED_BY || !kalloc_opts.counted_by)
    return;
  register_attribute (&counted_by_spec);
}

/* ---- finding the flexible array and its counter ------------------------ */

static tree
last_field (tree record)
{
  tree last = NULL_TREE;
  for (tree f = TYPE_FIELDS (record); f; f = DECL_CHAIN (f))
    if (TREE_CODE (f) == FIELD_DECL)
      last = f;
  return last;
}

static bool
field_offset (tree field, unsigned HOST_WIDE_INT *offset)
{
  tree pos = byte_position (field);
  if (!tree_fits_uhwi_p (pos))
    return false;
  *offset = tree_to_uhwi (pos);
  return true;
}

static bool
elem_size_of (tree array_type, unsigned HOST_WIDE_INT *size)
{
  tree unit = TYPE_SIZE_UNIT (TREE_TYPE (array_type));
  if (!unit || !tree_fits_uhwi_p (unit))
    return false;
  *size = tree_to_uhwi (unit);
  return true;
}

static bool find_fam (tree record, unsigned HOST_WIDE_INT elem_size,
		      unsigned HOST_WIDE_INT base, struct flex_member *out);

/* The one member of the anonymous union UNION_TYPE (at BASE) that is, or
   ends with, a flexible array of ELEM_SIZE-byte elements; none when two
   do (ambiguous).  */
static bool
find_fam_in_union (tree union_type, unsigned HOST_WIDE_INT elem_size,
		   unsigned HOST_WIDE_INT base, struct flex_member *out)
{
  bool found = false;
  for (tree f = TYPE_FIELDS (union_type); f; f = DECL_CHAIN (f))
    {
      struct flex_member candidate;
      memset (&candidate, 0, sizeof candidate);
      if (TREE_CODE (f) != FIELD_DECL)
	continue;
      bool match = false;
      unsigned HOST_WIDE_INT size, off;
      if (is_flexible_array_type (TREE_TYPE (f)))
	{
	  match = elem_size_of (TREE_TYPE (f), &size) && size == elem_size
		  && field_offset (f, &off);
	  if (match)
	    {
	      candidate.fam = f;
	      candidate.offset = base + off;
	      candidate.elem_size = size;
	    }
	}
      else if (record_anonymous_member_p (f)
	       && TREE_CODE (TREE_TYPE (f)) == RECORD_TYPE)
	match = field_offset (f, &off)
		&& find_fam (TREE_TYPE (f), elem_size, base + off, &candidate);
      if (match)
	{
	  if (found)
	    return false;		/* ambiguous */
	  *out = candidate;
	  found = true;
	}
    }
  return found;
}

/* Find in RECORD's trailing position a flexible array of ELEM_SIZE-byte
   elements, looking into anonymous structs and unions (the kernel's
   DECLARE_FLEX_ARRAY ()).  BASE is RECORD's own offset.  */
static bool
find_fam (tree record, unsigned HOST_WIDE_INT elem_size,
	  unsigned HOST_WIDE_INT base, struct flex_member *out)
{
  tree last = last_field (record);
  if (!last)
    return false;

  unsigned HOST_WIDE_INT offset;
  if (!field_offset (last, &offset))
    return false;

  if (is_flexible_array_type (TREE_TYPE (last)))
    {
      unsigned HOST_WIDE_INT size;
      if (!elem_size_of (TREE_TYPE (last), &size) || size != elem_size)
	return false;
      out->fam = last;
      out->offset = base + offset;
      out->elem_size = size;
      return true;
    }
  if (!record_anonymous_member_p (last))
    return false;
  tree inner = TREE_TYPE (last);
  if (TREE_CODE (inner) == RECORD_TYPE)
    return find_fam (inner, elem_size, base + offset, out);

  return find_fam_in_union (inner, elem_size, base + offset, out);
}

/* Find the member called NAME in RECORD; record the path of FIELD_DECLs
   in OUT.  */
static bool
find_member (tree record, tree name, struct flex_member *out)
{
  out->counter_depth = record_member_path (record, name, out->counter,
					   FLEX_PATH_MAX);
  return out->counter_depth > 0;
}

/* The identifier naming FAM's counter, or NULL.  */
static tree
counter_name (tree fam)
{
  tree attr = lookup_attribute ("counted_by", DECL_ATTRIBUTES (fam));
  if (!attr || !TREE_VALUE (attr))
    return NULL_TREE;
  tree arg = TREE_VALUE (TREE_VALUE (attr));
  if (arg && TREE_CODE (arg) == IDENTIFIER_NODE)
    return arg;
  if (arg && TREE_CODE (arg) == FIELD_DECL)
    return DECL_NAME (arg);
  return NULL_TREE;
}

/* GCC 15 takes any integral counter: _Bool and enumerations too.  */
static bool
is_counter_type (tree type)
{
  return type && INTEGRAL_TYPE_P (type);
}

/* Find RECORD's flexible array member of ELEM_SIZE-byte elements, and
   its counted_by counter if it has one.  */
bool
flex_find (tree record, unsigned HOST_WIDE_INT elem_size,
	   struct flex_member *out)
{
  memset (out, 0, sizeof *out);
  if (!record || TREE_CODE (record) != RECORD_TYPE || !COMPLETE_TYPE_P (record)
      || !find_fam (record, elem_size, 0, out))
    {
      /* A search that failed half way leaves nothing behind.  */
      memset (out, 0, sizeof *out);
      return false;
    }

  tree name = counter_name (out->fam);
  if (name && find_member (record, name, out)
      && is_counter_type (flex_counter_type (out)))
    return true;
  out->counter_depth = 0;
  return true;
}

/* Is TYPE an array kalloc treats as flexible at the end of a structure:
   T a[], T a[0] or the old-style T a[1]?  */
static bool
is_trailing_array_type (tree type)
{
  if (TREE_CODE (type) != ARRAY_TYPE)
    return false;
  tree domain = TYPE_DOMAIN (type);
  bool one_element = domain && TYPE_MAX_VALUE (domain)
		     && integer_zerop (TYPE_MAX_VALUE (domain))
		     && TYPE_MIN_VALUE (domain)
		     && integer_zerop (TYPE_MIN_VALUE (domain));
  return is_flexible_array_type (type) || one_element;
}

/* The bytes TYPE needs before its trailing array, in *NEED, when it has
   one: a structure's last member is the array or holds it (a named
   member structure); a union of views needs its largest view, a view
   ending in an array only its header (struct net_generic's header view
   still needs all of itself).  */
static bool
trailing_array_header (tree type, unsigned HOST_WIDE_INT *need, int depth)
{
  if (!type || depth > 4 || !RECORD_OR_UNION_TYPE_P (type))
    return false;
  if (TREE_CODE (type) == UNION_TYPE)
    {
      bool any = false;
      *need = 0;
      for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
	{
	  if (TREE_CODE (f) != FIELD_DECL)
	    continue;
	  unsigned HOST_WIDE_INT here;
	  tree ftype = TREE_TYPE (f);
	  if (is_trailing_array_type (ftype))
	    here = 0, any = true;
	  else if (trailing_array_header (ftype, &here, depth + 1))
	    any = true;
	  else if (TYPE_SIZE_UNIT (ftype)
		   && tree_fits_uhwi_p (TYPE_SIZE_UNIT (ftype)))
	    here = tree_to_uhwi (TYPE_SIZE_UNIT (ftype));
	  else
	    return false;
	  *need = MAX (*need, here);
	}
      return any;
    }
  tree last = last_field (type);
  unsigned HOST_WIDE_INT offset, inner;
  if (!last || !field_offset (last, &offset))
    return false;
  if (is_trailing_array_type (TREE_TYPE (last)))
    {
      *need = offset;
      return true;
    }
  if (!trailing_array_header (TREE_TYPE (last), &inner, depth + 1))
    return false;
  *need = offset + inner;
  return true;
}

/* Does RECORD end in an array kalloc treats as flexible (T a[], T a[0],
   or the old-style T a[1]), directly or in its last member (a named
   member structure, a union of views)?  Gives the bytes needed before
   it: the array's offset, or a union's largest view.  */
bool
flex_trailing_array (tree record, unsigned HOST_WIDE_INT *offset)
{
  return trailing_array_header (record, offset, 0);
}

/* Does RECORD hold, at byte OFFSET, an array of ELEM-byte elements of
   any length: offsetof (struct scm_fp_list, fp[n]) allocates the header
   and the first n of a fixed fp[253] (net/core/scm.c), a structure
   used only as far as its count.  */
bool
array_member_at (tree record, unsigned HOST_WIDE_INT offset,
		 unsigned HOST_WIDE_INT elem)
{
  if (!record || !RECORD_OR_UNION_TYPE_P (record))
    return false;
  for (tree f = TYPE_FIELDS (record); f; f = DECL_CHAIN (f))
    {
      unsigned HOST_WIDE_INT here, size;
      if (TREE_CODE (f) != FIELD_DECL || !field_offset (f, &here)
	  || here > offset)
	continue;
      tree ftype = TREE_TYPE (f);
      if (here == offset && TREE_CODE (ftype) == ARRAY_TYPE
	  && elem_size_of (ftype, &size) && size == elem)
	return true;
      if (RECORD_OR_UNION_TYPE_P (ftype)
	  && array_member_at (ftype, offset - here, elem))
	return true;
    }
  return false;
}

/* Does TYPE end in a flexible array, possibly inside the last member of
   a structure or any member of a union (DECLARE_FLEX_ARRAY in a union
   with a header, as struct net_generic does)?  Gives the array's offset
   and element size.  */
bool
flex_nested_array (tree type, unsigned HOST_WIDE_INT *offset,
		   unsigned HOST_WIDE_INT *elem, int depth)
{
  if (!type || depth > 4 || !RECORD_OR_UNION_TYPE_P (type))
    return false;
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    {
      if (TREE_CODE (f) != FIELD_DECL)
	continue;
      /* In a structure only the last member can hold it.  */
      if (TREE_CODE (type) == RECORD_TYPE && f != last_field (type))
	continue;
      unsigned HOST_WIDE_INT here, inner;
      if (!field_offset (f, &here))
	continue;
      tree ftype = TREE_TYPE (f);
      if (is_flexible_array_type (ftype))
	{
	  if (!elem_size_of (ftype, elem))
	    continue;
	  *offset = here;
	  return true;
	}
      if (flex_nested_array (ftype, &inner, elem, depth + 1))
	{
	  *offset = here + inner;
	  return true;
	}
    }
  return false;
}

tree
flex_counter_type (const struct flex_member *flex)
{
  if (!flex->counter_depth)
    return NULL_TREE;
  return TREE_TYPE (flex->counter[flex->counter_depth - 1]);
}

/* At PLUGIN_FINISH_TYPE, for every structure and union, anonymous ones
   included: GCC 15's verify_counted_by_attribute.  The counter must be
   an integral member of the structure that holds the array (through
   anonymous members); only the last annotated array is checked, and a
   wrong annotation is dropped, so the message comes once however often
   the type is named later.  */
void
counted_by_check_type (tree type)
{
  if (KALLOC_NATIVE_COUNTED_BY || !kalloc_opts.counted_by || !type
      || !RECORD_OR_UNION_TYPE_P (type))
    return;
  tree fam = NULL_TREE;
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    if (TREE_CODE (f) == FIELD_DECL && counter_name (f))
      fam = f;
  if (!fam)
    return;
  tree name = counter_name (fam);
  tree counter = record_member (type, name);
  if (!counter)
    error_at (DECL_SOURCE_LOCATION (fam),
	      "argument %qE to the %<counted_by%> attribute is not a field "
	      "declaration in the same structure as %qD", name, fam);
  else if (!is_counter_type (TREE_TYPE (counter)))
    error_at (DECL_SOURCE_LOCATION (fam),
	      "argument %qE to the %<counted_by%> attribute is not a field "
	      "declaration with an integer type", name);
  else
    return;
  DECL_ATTRIBUTES (fam) = remove_attribute ("counted_by",
					    DECL_ATTRIBUTES (fam));
}

/* FAM, a member of RECORD: is it annotated, and where is its counter?
   Fills OUT's FAM, ELEM_SIZE and counter path.  */
bool
flex_counter_for (tree record, tree fam, struct flex_member *out)
{
  memset (out, 0, sizeof *out);
  if (!record || !RECORD_OR_UNION_TYPE_P (record) || TREE_CODE (fam) != FIELD_DECL
      || !is_flexible_array_type (TREE_TYPE (fam))
      || !elem_size_of (TREE_TYPE (fam), &out->elem_size))
    return false;
  out->fam = fam;
  tree name = counter_name (fam);
  return name && find_member (record, name, out)
	 && is_counter_type (flex_counter_type (out));
}

/* Does RECORD end in an annotated flexible array?  Fills OUT, with the
   array's offset.  */
bool
flex_counted_member (tree record, struct flex_member *out)
{
  if (!record || TREE_CODE (record) != RECORD_TYPE || !COMPLETE_TYPE_P (record))
    return false;
  tree last = last_field (record);
  unsigned HOST_WIDE_INT offset;
  if (!last || !field_offset (last, &offset)
      || !flex_counter_for (record, last, out))
    return false;
  out->offset = offset;
  return true;
}
