/*
 * counted-by.c - the counted_by attribute where GCC lacks it.
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

/* Does kalloc provide counted_by here: a GCC without its own (before 15),
   and the attribute not switched off (no-counted-by, or a mode other than
   harden)?  The one test of it: the attribute, the bounds checks and the
   object sizes all ask here.  */
bool
counted_by_provided (void)
{
  return !KALLOC_NATIVE_COUNTED_BY && kalloc_opts.counted_by;
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
  if (!counted_by_provided ())
    return;
  target_takes_identifier = targetm.attribute_takes_identifier_p;
  targetm.attribute_takes_identifier_p = takes_identifier;
}

/* At PLUGIN_ATTRIBUTES.  */
void
counted_by_register (void)
{
  if (!counted_by_provided ())
    return;
  register_attribute (&counted_by_spec);
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
  if (!counted_by_provided () || !type
      || !RECORD_OR_UNION_TYPE_P (type))
    return;
  tree fam = NULL_TREE;
  for (tree f = TYPE_FIELDS (type); f; f = DECL_CHAIN (f))
    if (TREE_CODE (f) == FIELD_DECL && flex_counter_name (f))
      fam = f;
  if (!fam)
    return;
  tree name = flex_counter_name (fam);
  tree counter = record_member (type, name);
  if (!counter)
    error_at (DECL_SOURCE_LOCATION (fam),
	      "argument %qE to the %<counted_by%> attribute is not a field "
	      "declaration in the same structure as %qD", name, fam);
  else if (!flex_counter_type_ok (TREE_TYPE (counter)))
    error_at (DECL_SOURCE_LOCATION (fam),
	      "argument %qE to the %<counted_by%> attribute is not a field "
	      "declaration with an integer type", name);
  else
    return;
  DECL_ATTRIBUTES (fam) = remove_attribute ("counted_by",
					    DECL_ATTRIBUTES (fam));
}
