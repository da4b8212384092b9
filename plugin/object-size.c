/*
 * object-size.c - __builtin_dynamic_object_size () that follows
 * counted_by, where kalloc provides the attribute (GCC 12 to 14).
 *
 * GCC 15 gives a pointer into an annotated flexible array the size its
 * counter says, whatever the allocation: for &p->fam[i] (or p->fam + i,
 * or a byte offset into it), MAX (counter, 0) * sizeof (elem) minus the
 * offset, and 0 past the end, in every mode.  Pointers to the whole
 * structure keep GCC's own answer, and at -O0 nothing is known, as in
 * GCC 15.  This pass, placed just before GCC's object-size pass (after
 * inlining, so FORTIFY_SOURCE-style wrappers are seen through), replaces
 * each such __builtin_dynamic_object_size () call with that computation.
 */
#include "kalloc.h"

#if KALLOC_HAVE_DYNAMIC_OBJECT_SIZE && !KALLOC_NATIVE_COUNTED_BY

#define FAM_WALK_DEPTH 8

/* Where a pointer points into an annotated flexible array.  */
struct fam_pointer
{
  tree object;			/* the structure, as a reference */
  struct flex_member flex;
  tree offset;			/* bytes past the array's start (sizetype) */
};

static tree
add_offset (tree a, tree b)
{
  if (!a)
    return b;
  return fold_build2 (PLUS_EXPR, sizetype, a, fold_convert (sizetype, b));
}

/* REF is a reference to an object; is it P->FAM, or P->FAM[I]?  */
static bool
fam_reference (tree ref, struct fam_pointer *out)
{
  tree index = NULL_TREE;
  if (TREE_CODE (ref) == ARRAY_REF)
    {
      index = TREE_OPERAND (ref, 1);
      ref = TREE_OPERAND (ref, 0);
    }
  if (TREE_CODE (ref) != COMPONENT_REF)
    return false;
  tree object = TREE_OPERAND (ref, 0);
  tree field = TREE_OPERAND (ref, 1);
  if (!flex_counter_for (TREE_TYPE (object), field, &out->flex))
    return false;
  out->object = object;
  if (index)
    {
      tree scaled = fold_build2 (MULT_EXPR, sizetype,
				 fold_convert (sizetype, index),
				 size_int (out->flex.elem_size));
      out->offset = add_offset (out->offset, scaled);
    }
  return true;
}

/* A pointer to an annotated structure plus a constant past the array's
   start: what GCC folds (char *) p->fam + 3 into.  */
static bool
fam_from_struct_pointer (tree ptr, struct fam_pointer *out)
{
  if (!POINTER_TYPE_P (TREE_TYPE (ptr)) || !out->offset
      || !tree_fits_uhwi_p (out->offset))
    return false;
  tree record = TREE_TYPE (TREE_TYPE (ptr));
  if (!flex_counted_member (record, &out->flex))
    return false;
  unsigned HOST_WIDE_INT offset = tree_to_uhwi (out->offset);
  if (offset < out->flex.offset)
    return false;
  out->object = build2 (MEM_REF, record, ptr,
			build_int_cst (build_pointer_type (record), 0));
  out->offset = size_int (offset - out->flex.offset);
  return true;
}

/* Follow PTR back to the address of an annotated flexible array.  */
static bool
find_fam_pointer (tree ptr, struct fam_pointer *out)
{
  memset (out, 0, sizeof *out);
  for (int depth = 0; depth < FAM_WALK_DEPTH; depth++)
    {
      if (TREE_CODE (ptr) == ADDR_EXPR)
	return fam_reference (TREE_OPERAND (ptr, 0), out);
      if (TREE_CODE (ptr) != SSA_NAME)
	return false;
      gimple *def = SSA_NAME_DEF_STMT (ptr);
      if (!is_gimple_assign (def))
	return fam_from_struct_pointer (ptr, out);
      enum tree_code code = gimple_assign_rhs_code (def);
      if (code == POINTER_PLUS_EXPR)
	{
	  out->offset = add_offset (out->offset, gimple_assign_rhs2 (def));
	  ptr = gimple_assign_rhs1 (def);
	}
      else if (code == SSA_NAME || code == ADDR_EXPR
	       || CONVERT_EXPR_CODE_P (code))
	ptr = gimple_assign_rhs1 (def);
      else
	return fam_from_struct_pointer (ptr, out);
    }
  return false;
}

static tree
emit (gimple_stmt_iterator *gsi, gimple *stmt, tree lhs)
{
  gsi_insert_before (gsi, stmt, GSI_SAME_STMT);
  return lhs;
}

/* Replace CALL, __builtin_dynamic_object_size (ptr, mode), by the size
   the counter gives FAM.  */
static void
replace_with_counted_size (gcall *call, const struct fam_pointer *fam)
{
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  tree lhs = gimple_call_lhs (call);
  location_t loc = gimple_location (call);

  /* The counter, read where the size is asked for.  */
  tree count = counter_count (&gsi, fam->object, &fam->flex,
			      gimple_vuse (call), loc);
  tree bytes = make_ssa_name (sizetype);
  emit (&gsi, gimple_build_assign (bytes, MULT_EXPR, count,
				   size_int (fam->flex.elem_size)), bytes);

  tree result = bytes;
  if (fam->offset && !integer_zerop (fam->offset))
    {
      /* MAX (bytes, offset) - offset: 0 past the end, no branch.  */
      gimple_seq seq = NULL;
      tree offset = force_gimple_operand (fam->offset, &seq, true, NULL_TREE);
      gsi_insert_seq_before (&gsi, seq, GSI_SAME_STMT);
      tree top = make_ssa_name (sizetype);
      emit (&gsi, gimple_build_assign (top, MAX_EXPR, bytes, offset), top);
      result = make_ssa_name (sizetype);
      emit (&gsi, gimple_build_assign (result, MINUS_EXPR, top, offset),
	    result);
    }

  if (!lhs)
    {
      gsi_remove (&gsi, true);
      return;
    }
  gassign *copy = gimple_build_assign (lhs, NOP_EXPR, result);
  gimple_set_location (copy, loc);
  gsi_replace (&gsi, copy, true);
}

static unsigned int
object_size_execute (function *fun)
{
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);)
      {
	gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	gsi_next (&gsi);
	if (!call || !gimple_call_builtin_p (call, BUILT_IN_DYNAMIC_OBJECT_SIZE)
	    || gimple_call_num_args (call) != 2
	    || !tree_fits_uhwi_p (gimple_call_arg (call, 1)))
	  continue;
	struct fam_pointer fam;
	if (find_fam_pointer (gimple_call_arg (call, 0), &fam))
	  replace_with_counted_size (call, &fam);
      }
  return 0;
}

static bool
object_size_gate (function *)
{
  return optimize > 0;
}

const struct kalloc_pass object_size_pass = {
  "kalloc_objsz", object_size_gate, object_size_execute, TODO_update_ssa
};

#else

const struct kalloc_pass object_size_pass = { NULL, NULL, NULL, 0 };

#endif
