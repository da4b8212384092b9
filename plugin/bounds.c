/*
 * bounds.c - -fsanitize=bounds for counted_by flexible arrays, where
 * kalloc provides the attribute (GCC 11 to 14).
 *
 * GCC 15 checks an index into an annotated flexible array against the
 * counter: p->fam[i] with i >= MAX (p->counter, 0) (or i negative) is
 * reported by UBSan as "index I out of bounds for type 'T [*]'".  GCC's
 * own bounds instrumentation cannot know the bound of a flexible array,
 * so this does it for each load and store of p->fam[i]: the counter is
 * read, and a failing comparison reports through GCC's own .UBSAN_BOUNDS
 * (the same runtime handler and message as GCC's instrumentation).
 */
#include "kalloc.h"

/* The annotated FAM element that REF reads or writes, if any:
   OBJECT.FAM[INDEX].  */
static bool
fam_element (tree ref, tree *array_ref, struct flex_member *flex)
{
  for (tree t = ref; handled_component_p (t); t = TREE_OPERAND (t, 0))
    {
      if (TREE_CODE (t) != ARRAY_REF
	  || TREE_CODE (TREE_OPERAND (t, 0)) != COMPONENT_REF)
	continue;
      tree fam_ref = TREE_OPERAND (t, 0);
      tree object = TREE_OPERAND (fam_ref, 0);
      if (flex_counter_for (TREE_TYPE (object), TREE_OPERAND (fam_ref, 1),
			    flex))
	{
	  *array_ref = t;
	  return true;
	}
    }
  return false;
}

static tree
emit (gimple_stmt_iterator *gsi, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
  return gimple_get_lhs (stmt);
}

/* Before STMT, which accesses ARRAY_REF: if the index is not below the
   counter, report it.  */
static void
instrument (gimple *stmt, tree array_ref, const struct flex_member *flex)
{
  location_t loc = gimple_location (stmt);
  gimple_stmt_iterator gsi = gsi_for_stmt (stmt);
  tree fam_ref = TREE_OPERAND (array_ref, 0);
  /* Report where the array is named, as GCC does.  */
  if (EXPR_HAS_LOCATION (array_ref))
    loc = EXPR_LOCATION (array_ref);
  tree index = TREE_OPERAND (array_ref, 1);

  tree bound = counter_count (&gsi, TREE_OPERAND (fam_ref, 0), flex,
			     gimple_vuse (stmt), loc);
  tree unsigned_index = index;
  if (TREE_CODE (index) == INTEGER_CST)
    unsigned_index = fold_convert (sizetype, index);
  else
    unsigned_index = emit (&gsi, gimple_build_assign (make_ssa_name (sizetype),
						      NOP_EXPR, index), loc);
  /* Split after what was just inserted: the check goes there.  */
  gsi_prev (&gsi);
  gimple *last = gsi_stmt (gsi);

  gcond *cond = gimple_build_cond (GE_EXPR, unsigned_index, bound, NULL_TREE,
				   NULL_TREE);
  gimple_set_location (cond, loc);
  basic_block report_bb = insert_cond_bb (gimple_bb (last), last, cond,
					  profile_probability::very_unlikely ());

  /* Report through GCC's own .UBSAN_BOUNDS (lowered by the sanopt pass
     into the handler call with its data), with a bound that makes it
     fire for this index: index > index - 1.  */
  gimple_stmt_iterator report = gsi_start_bb (report_bb);
  tree signed_index = make_ssa_name (ssizetype);
  gassign *conv = gimple_build_assign (signed_index, NOP_EXPR, index);
  gimple_set_location (conv, loc);
  gsi_insert_after (&report, conv, GSI_NEW_STMT);
  tree below = make_ssa_name (ssizetype);
  gassign *minus = gimple_build_assign (below, MINUS_EXPR, signed_index,
					build_int_cst (ssizetype, 1));
  gimple_set_location (minus, loc);
  gsi_insert_after (&report, minus, GSI_NEW_STMT);
  tree array_ptr = build_int_cst (build_pointer_type (TREE_TYPE (fam_ref)), 0);
  gcall *call = gimple_build_call_internal (IFN_UBSAN_BOUNDS, 3, array_ptr,
					    index, below);
  gimple_set_location (call, loc);
  gsi_insert_after (&report, call, GSI_NEW_STMT);
}

/* Instrument FUN's accesses to annotated flexible arrays.  Returns true
   when the CFG changed.  */
bool
bounds_instrument_function (function *fun)
{
  if (!(flag_sanitize & SANITIZE_BOUNDS) || !counted_by_provided ())
    return false;

  /* Collect first: instrumenting splits blocks.  */
  gimple **stmts = NULL;
  tree *refs = NULL;
  struct flex_member *flexes = NULL;
  int count = 0, size = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gimple *stmt = gsi_stmt (gsi);
	if (!gimple_assign_single_p (stmt) || !gimple_vuse (stmt))
	  continue;
	tree array_ref;
	struct flex_member flex;
	if (!fam_element (gimple_assign_lhs (stmt), &array_ref, &flex)
	    && !fam_element (gimple_assign_rhs1 (stmt), &array_ref, &flex))
	  continue;
	if (count == size)
	  {
	    size = size ? 2 * size : 8;
	    stmts = XRESIZEVEC (gimple *, stmts, size);
	    refs = XRESIZEVEC (tree, refs, size);
	    flexes = XRESIZEVEC (struct flex_member, flexes, size);
	  }
	stmts[count] = stmt;
	refs[count] = array_ref;
	flexes[count++] = flex;
      }
  for (int i = 0; i < count; i++)
    instrument (stmts[i], refs[i], &flexes[i]);
  free (stmts);
  free (refs);
  free (flexes);
  if (count)
    mark_virtual_operands_for_renaming (fun);
  return count > 0;
}
