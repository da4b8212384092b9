/*
 * counter.c - a flexible array's counted_by counter as GIMPLE: the
 * reference to it, the count it gives (never negative), the largest count
 * it holds, and its store after an allocation, as kmalloc_flex () does
 * it.  The rewrite (rewrite.c), the store's safety (counter-fate.c), the
 * object sizes (object-size.c) and the bounds checks (bounds.c) all
 * reach the counter this way.
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

/* The largest count the counter can hold, in the size type, or NULL
   when the counter holds every size_t.  */
tree
counter_limit (tree counter_type, tree size_type)
{
  int bits = TYPE_PRECISION (counter_type) - !TYPE_UNSIGNED (counter_type);
  if (bits >= (int) TYPE_PRECISION (size_type))
    return NULL_TREE;
  return wide_int_to_tree (size_type,
			   wi::mask (bits, false, TYPE_PRECISION (size_type)));
}

/* Put STMT, at LOC, after GSI and move GSI to it.  */
static void
insert_after (gimple_stmt_iterator *gsi, gimple *stmt, location_t loc)
{
  gimple_set_location (stmt, loc);
  gsi_insert_after (gsi, stmt, GSI_NEW_STMT);
}

/* The counter's value: COUNT in the counter's type, converted before
   GSI where it is not a constant.  */
static tree
counter_value (gimple_stmt_iterator *gsi, tree counter_type, tree count,
	       location_t loc)
{
  if (TREE_CODE (count) == INTEGER_CST)
    return fold_convert (counter_type, count);
  if (useless_type_conversion_p (counter_type, TREE_TYPE (count)))
    return count;
  tree value = make_ssa_name (counter_type);
  insert_after (gsi, gimple_build_assign (value, NOP_EXPR, count), loc);
  return value;
}

/* Can the counter's address be taken?  Not for a bit-field, and not in
   a packed record, where a store through a pointer of the counter's
   type could assume more alignment than the field has.  */
static bool
counter_addressable (const struct flex_member *flex)
{
  for (int i = 0; i < flex->counter_depth; i++)
    {
      tree field = flex->counter[i];
      if (DECL_BIT_FIELD (field) || DECL_PACKED (field)
	  || TYPE_PACKED (DECL_CONTEXT (field)))
	return false;
    }
  return true;
}

/* Where the counter store goes when the allocation failed: a static of
   the translation unit, never read (16 bytes, aligned for any counter).  */
static tree unit_sink;
const struct ggc_root_tab counter_roots[] = {
  { &unit_sink, 1, sizeof (unit_sink), &gt_ggc_mx_tree_node,
    &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static tree
counter_sink (void)
{
  if (!unit_sink)
    {
      tree array = build_array_type_nelts (unsigned_char_type_node, 16);
      tree sink = build_decl (UNKNOWN_LOCATION, VAR_DECL,
			      create_tmp_var_name ("kalloc_counter_sink"),
			      array);
      TREE_STATIC (sink) = 1;
      TREE_PUBLIC (sink) = 0;
      TREE_USED (sink) = 1;
      TREE_ADDRESSABLE (sink) = 1;
      DECL_ARTIFICIAL (sink) = 1;
      DECL_IGNORED_P (sink) = 1;
      SET_DECL_ALIGN (sink, 16 * BITS_PER_UNIT);
      DECL_USER_ALIGN (sink) = 1;
      varpool_node::finalize_decl (sink);
      /* Kept even when the function that first used it is removed: a
	 later function's store may still need it.  */
      varpool_node::get (sink)->force_output = 1;
      unit_sink = sink;
    }
  return unit_sink;
}

/* The counter's byte offset in its record into *OFFSET, or false when
   it is not a constant.  */
static bool
counter_offset (const struct flex_member *flex, HOST_WIDE_INT *offset)
{
  *offset = 0;
  for (int i = 0; i < flex->counter_depth; i++)
    {
      tree pos = byte_position (flex->counter[i]);
      if (!tree_fits_shwi_p (pos))
	return false;
      *offset += tree_to_shwi (pos);
    }
  return true;
}

/* After the call (statement LAST, which defines RESULT, a pointer to
   RECORD): store COUNT into the counter of the structure RESULT points
   to when it is not NULL, without a branch.  The store's base is RESULT
   or, when that is NULL, the sink less the counter's OFFSET, chosen by a
   conditional move, so the call's block is not split (GCC's inliner
   works per block: a split per call made 100k-call functions
   superlinear, docs/results/performance.md).  */
static void
emit_counter_store_select (gimple *last, tree result, tree record,
			   const struct flex_member *flex,
			   HOST_WIDE_INT offset, tree count, location_t loc)
{
  gimple_stmt_iterator gsi = gsi_for_stmt (last);
  tree counter_type = flex_counter_type (flex);
  tree value = counter_value (&gsi, counter_type, count, loc);
  tree result_type = TREE_TYPE (result);
  tree record_ptr = build_pointer_type (record);

  tree nonnull = make_ssa_name (boolean_type_node);
  insert_after (&gsi, gimple_build_assign (nonnull, NE_EXPR, result,
					   build_int_cst (result_type, 0)),
		loc);
  tree sink_decl = counter_sink ();
  tree sink = build_fold_addr_expr (sink_decl);
  tree sink_base = build_fold_addr_expr_with_type
    (build2 (MEM_REF, record, sink, build_int_cst (record_ptr, -offset)),
     result_type);
  tree base = make_ssa_name (result_type);
  gassign *select = gimple_build_assign (base, COND_EXPR, nonnull, result,
					 sink_base);
  insert_after (&gsi, select, loc);
  /* The call graph's references were recorded before this pass: without
     one, a static sink is dropped as unused.  */
  if (TREE_STATIC (sink_decl))
    cgraph_node::get (current_function_decl)
      ->create_reference (varpool_node::get_create (sink_decl),
			  IPA_REF_ADDR, select);
  tree ref = counter_ref (build2 (MEM_REF, record, base,
				  build_int_cst (record_ptr, 0)), flex);
  insert_after (&gsi, gimple_build_assign (ref, value), loc);
}

/* After SITE's call, when its result is not NULL: store COUNT into the
   counter of the structure it points to.  True when the store needed a
   branch.  */
bool
counter_store_after (const struct alloc_site *site, tree count)
{
  gcall *call = site->call;
  gimple *last = call;
  tree result = gimple_call_lhs (call);
  location_t loc = gimple_location (call);

  if (TREE_CODE (result) != SSA_NAME)
    {
      /* Give the result a name the condition can test.  */
      tree tmp = make_ssa_name (TREE_TYPE (result));
      gimple_call_set_lhs (call, tmp);
      update_stmt (call);
      gimple_stmt_iterator gsi = gsi_for_stmt (call);
      insert_after (&gsi, gimple_build_assign (result, tmp), loc);
      last = gsi_stmt (gsi);
      result = tmp;
    }

  tree record = TYPE_MAIN_VARIANT (site->pointee);
  mark_virtual_operands_for_renaming (cfun);

  HOST_WIDE_INT offset;
  /* Under -fsanitize=thread (KCSAN too) two threads whose allocations
     failed would race on the shared sink: store under a branch there.  */
  if (!(flag_sanitize & SANITIZE_THREAD)
      && counter_addressable (&site->flex)
      && counter_offset (&site->flex, &offset))
    {
      emit_counter_store_select (last, result, record, &site->flex, offset,
				 count, loc);
      return false;
    }

  tree ref = counter_ref (build2 (MEM_REF, record, result,
				  build_int_cst (build_pointer_type (record),
						 0)), &site->flex);
  tree counter_type = flex_counter_type (&site->flex);

  /* A bit-field or packed counter, or TSan: store under a condition.  */
  gcond *cond = gimple_build_cond (NE_EXPR, result,
				   build_int_cst (TREE_TYPE (result), 0),
				   NULL_TREE, NULL_TREE);
  gimple_set_location (cond, loc);
  basic_block store_bb = insert_cond_bb (gimple_bb (last), last, cond,
					 profile_probability::likely ());
  gimple_stmt_iterator gsi = gsi_start_bb (store_bb);
  tree value = counter_value (&gsi, counter_type, count, loc);
  insert_after (&gsi, gimple_build_assign (ref, value), loc);
  return true;
}
