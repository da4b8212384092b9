/*
 * counter.c - a flexible array's counted_by counter as GIMPLE: the
 * reference to it and the count it gives (never negative).  The counter
 * store (rewrite.c), its safety (counter-fate.c), the object sizes
 * (object-size.c) and the bounds checks (bounds.c) all reach the
 * counter this way.
 */
#include "kalloc.h"

/* OBJECT.counter, down FLEX's path of fields (anonymous members nest
   it).  OBJECT is used as it is: unshare it first if it is used twice. */
tree
counter_ref (tree object, const struct flex_member *flex)
{
  tree ref = object;
  for (int i = 0; i < flex->counter_depth; i++)
    ref = build3 (COMPONENT_REF, TREE_TYPE (flex->counter[i]), ref,
		  flex->counter[i], NULL_TREE);
  return ref;
}

static tree
emit_assign (gimple_stmt_iterator *gsi, tree lhs, enum tree_code code,
	     tree a, tree b, location_t loc)
{
  gassign *stmt = b ? gimple_build_assign (lhs, code, a, b)
		    : gimple_build_assign (lhs, code, a);
  gimple_set_location (stmt, loc);
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
  return lhs;
}

/* Before GSI, read OBJECT's counter (memory state VUSE) and return
   MAX (counter, 0) as a sizetype value: a negative counter means no
   elements, as GCC's own counted_by does.  */
tree
counter_count (gimple_stmt_iterator *gsi, tree object,
	       const struct flex_member *flex, tree vuse, location_t loc)
{
  tree ref = counter_ref (unshare_expr (object), flex);
  tree type = TREE_TYPE (ref);
  tree counter = make_ssa_name (type);
  gassign *load = gimple_build_assign (counter, ref);
  gimple_set_vuse (load, vuse);
  gimple_set_location (load, loc);
  gsi_insert_before (gsi, load, GSI_SAME_STMT);
  if (!TYPE_UNSIGNED (type))
    counter = emit_assign (gsi, make_ssa_name (type), MAX_EXPR, counter,
			   build_zero_cst (type), loc);
  return emit_assign (gsi, make_ssa_name (sizetype), NOP_EXPR, counter,
		      NULL_TREE, loc);
}
