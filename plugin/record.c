/*
 * record.c - the members of structures and unions as C names them.
 *
 * C finds a member through anonymous structures and unions at any depth
 * (the kernel's DECLARE_FLEX_ARRAY, struct_group): p->count may be a
 * member of a member without a name.  One lookup serves the sizeof
 * reader, the counted_by attribute and the counter's path.
 */
#include "kalloc.h"

/* Is FIELD a structure or union member without a name, whose members
   are the enclosing record's?  */
bool
record_anonymous_member_p (tree field)
{
  return TREE_CODE (field) == FIELD_DECL && !DECL_NAME (field)
	 && RECORD_OR_UNION_TYPE_P (TREE_TYPE (field));
}

/* Find the member NAME of RECORD, through anonymous members, as GCC's
   lookup_field does: fill PATH with the FIELD_DECLs from RECORD's own
   member down to it, at most MAX, and return their number; 0 when there
   is none.  */
int
record_member_path (tree record, tree name, tree *path, int max)
{
  if (!record || !RECORD_OR_UNION_TYPE_P (record) || !name || max <= 0)
    return 0;
  for (tree f = TYPE_FIELDS (record); f; f = DECL_CHAIN (f))
    {
      if (TREE_CODE (f) != FIELD_DECL)
	continue;
      path[0] = f;
      if (DECL_NAME (f) == name)
	return 1;
      if (record_anonymous_member_p (f))
	{
	  int depth = record_member_path (TREE_TYPE (f), name, path + 1,
					  max - 1);
	  if (depth)
	    return depth + 1;
	}
    }
  return 0;
}

/* The member NAME of RECORD, through anonymous members, or NULL.  */
tree
record_member (tree record, tree name)
{
  tree path[FLEX_PATH_MAX];
  int depth = record_member_path (record, name, path, FLEX_PATH_MAX);
  return depth ? path[depth - 1] : NULL_TREE;
}
