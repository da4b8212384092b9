/*
 * flex.c - flexible array members: where a structure's trailing array
 * is, what its elements are, and which member counts them.
 *
 * T fam[], the GNU T fam[0] and the old-style T fam[1] at the end of a
 * structure, directly or inside anonymous members (the kernel's
 * DECLARE_FLEX_ARRAY ()); the counter named by counted_by, as a path of
 * members (record.c finds it).  The warnings, the rewrites, the counter
 * store, the object sizes and the bounds checks all ask here.
 */
#include "kalloc.h"

/* T fam[] or T fam[0].  */
bool
flex_array_type_p (tree type)
{
  if (TREE_CODE (type) != ARRAY_TYPE)
    return false;
  tree domain = TYPE_DOMAIN (type);
  if (!domain || !TYPE_MAX_VALUE (domain))
    return true;				/* T fam[] */
  return TYPE_SIZE (type) && integer_zerop (TYPE_SIZE (type)); /* T fam[0] */
}

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
      if (flex_array_type_p (TREE_TYPE (f)))
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

  if (flex_array_type_p (TREE_TYPE (last)))
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
tree
flex_counter_name (tree fam)
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
bool
flex_counter_type_ok (tree type)
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

  tree name = flex_counter_name (out->fam);
  if (name && find_member (record, name, out)
      && flex_counter_type_ok (flex_counter_type (out)))
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
  return flex_array_type_p (type) || one_element;
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
flex_array_member_at (tree record, unsigned HOST_WIDE_INT offset,
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
	  && flex_array_member_at (ftype, offset - here, elem))
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
      if (flex_array_type_p (ftype))
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


/* FAM, a member of RECORD: is it annotated, and where is its counter?
   Fills OUT's FAM, ELEM_SIZE and counter path.  */
bool
flex_counter_for (tree record, tree fam, struct flex_member *out)
{
  memset (out, 0, sizeof *out);
  if (!record || !RECORD_OR_UNION_TYPE_P (record)
      || TREE_CODE (fam) != FIELD_DECL
      || !flex_array_type_p (TREE_TYPE (fam))
      || !elem_size_of (TREE_TYPE (fam), &out->elem_size))
    return false;
  out->fam = fam;
  tree name = flex_counter_name (fam);
  return name && find_member (record, name, out)
	 && flex_counter_type_ok (flex_counter_type (out));
}

/* Does RECORD end in an annotated flexible array?  Fills OUT, with the
   array's offset.  */
bool
flex_counted_member (tree record, struct flex_member *out)
{
  if (!record || TREE_CODE (record) != RECORD_TYPE
      || !COMPLETE_TYPE_P (record))
    return false;
  tree last = last_field (record);
  unsigned HOST_WIDE_INT offset;
  if (!last || !field_offset (last, &offset)
      || !flex_counter_for (record, last, out))
    return false;
  out->offset = offset;
  return true;
}
