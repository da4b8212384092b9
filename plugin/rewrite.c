/*
 * rewrite.c - legacy calls made to behave like kmalloc_objs () and
 * kmalloc_flex ().
 *
 *   overflow-checked size  every wrapping product and sum of the size
 *                          is recomputed with .MUL_OVERFLOW/.ADD_OVERFLOW
 *                          and saturated branch-free (r | -overflow), so
 *                          an overflow asks for SIZE_MAX and the
 *                          allocation fails, as size_mul () makes it;
 *   counter range check    a count the counted_by counter cannot hold
 *                          also asks for SIZE_MAX (size | -(count > max));
 *   counter store          after a non-NULL result, counter = count.
 *
 * The new code goes right before (and, for the counter, after) the call;
 * the program's own statements are never changed, only the size
 * argument the allocator receives.  No call is added.
 */
#include "kalloc.h"

struct emitter
{
  gimple_stmt_iterator gsi;	/* insert before this statement */
  location_t loc;
  tree type;			/* the allocator's size type */
  tree value[SIZE_EXPR_MAX];	/* saturated value of each size node */
};

static tree
emit_stmt (struct emitter *e, gimple *stmt, tree lhs)
{
  gimple_set_location (stmt, e->loc);
  gsi_insert_before (&e->gsi, stmt, GSI_SAME_STMT);
  return lhs;
}

static tree
emit (struct emitter *e, enum tree_code code, tree type, tree a, tree b)
{
  tree lhs = make_ssa_name (type);
  gassign *stmt = b ? gimple_build_assign (lhs, code, a, b)
		    : gimple_build_assign (lhs, code, a);
  return emit_stmt (e, stmt, lhs);
}

static tree
convert_to (struct emitter *e, tree type, tree value)
{
  if (useless_type_conversion_p (type, TREE_TYPE (value)))
    return value;
  if (TREE_CODE (value) == INTEGER_CST)
    return fold_convert (type, value);
  return emit (e, NOP_EXPR, type, value, NULL_TREE);
}

/* VALUE, or all ones when OVERFLOW (0 or 1, in E's type) is set.  */
static tree
saturate (struct emitter *e, tree value, tree overflow)
{
  tree mask = emit (e, NEGATE_EXPR, e->type, overflow, NULL_TREE);
  return emit (e, BIT_IOR_EXPR, e->type, value, mask);
}

/* A op B in E's type, saturated: IFN is .MUL_OVERFLOW or .ADD_OVERFLOW. */
static tree
emit_saturating (struct emitter *e, enum internal_fn ifn, tree a, tree b)
{
  tree ctype = build_complex_type (e->type);
  tree pair = make_ssa_name (ctype);
  gcall *call = gimple_build_call_internal (ifn, 2, a, b);
  gimple_call_set_lhs (call, pair);
  emit_stmt (e, call, pair);
  tree result = make_ssa_name (e->type);
  emit_stmt (e, gimple_build_assign (result, build1 (REALPART_EXPR, e->type,
						      pair)), result);
  tree overflow = make_ssa_name (e->type);
  emit_stmt (e, gimple_build_assign (overflow, build1 (IMAGPART_EXPR, e->type,
							pair)), overflow);
  return saturate (e, result, overflow);
}

/* Does node N's value depend on arithmetic that wraps?  */
static bool
wraps_below (const struct size_expr *expr, int n)
{
  const struct size_node *node = &expr->node[n];
  switch (node->op)
    {
    case SIZE_MUL:
    case SIZE_ADD:
      return true;
    case SIZE_SAT_MUL:
    case SIZE_SAT_ADD:
      return wraps_below (expr, node->a) || wraps_below (expr, node->b);
    default:
      return false;
    }
}

/* The saturated value of node N, emitting what it takes.  */
static tree
saturated (struct emitter *e, const struct size_expr *expr, int n)
{
  if (e->value[n])
    return e->value[n];
  const struct size_node *node = &expr->node[n];
  tree value;
  switch (node->op)
    {
    case SIZE_LEAF:
    case SIZE_CONST:
      value = convert_to (e, e->type, node->value);
      break;
    case SIZE_SAT_MUL:
    case SIZE_SAT_ADD:
      /* The helper's own result is right when its inputs are.  */
      if (node->value && !wraps_below (expr, n))
	{
	  value = convert_to (e, e->type, node->value);
	  break;
	}
      /* Fall through.  */
    default:
      {
	bool mul = node->op == SIZE_MUL || node->op == SIZE_SAT_MUL;
	tree a = saturated (e, expr, node->a);
	tree b = saturated (e, expr, node->b);
	value = emit_saturating (e, mul ? IFN_MUL_OVERFLOW : IFN_ADD_OVERFLOW,
				 a, b);
      }
    }
  e->value[n] = value;
  return value;
}

/* The largest count the counter can hold, in the size type, or NULL
   when the counter holds every size_t.  */
static tree
counter_limit (tree counter_type, tree size_type)
{
  int bits = TYPE_PRECISION (counter_type) - !TYPE_UNSIGNED (counter_type);
  if (bits >= (int) TYPE_PRECISION (size_type))
    return NULL_TREE;
  return wide_int_to_tree (size_type,
			   wi::mask (bits, false, TYPE_PRECISION (size_type)));
}

/* SIZE, or all ones when COUNT exceeds LIMIT.  */
static tree
fold_counter_check (struct emitter *e, tree size, tree count, tree limit)
{
  tree too_big = emit (e, GT_EXPR, boolean_type_node, count, limit);
  tree flag = emit (e, NOP_EXPR, e->type, too_big, NULL_TREE);
  return saturate (e, size, flag);
}

/* After CALL, when its result is not NULL: store COUNT into the counter
   of the structure it points to.  */
static void
emit_counter_store (struct alloc_site *site, tree count)
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
      gassign *copy = gimple_build_assign (result, tmp);
      gimple_set_location (copy, loc);
      gimple_stmt_iterator gsi = gsi_for_stmt (call);
      gsi_insert_after (&gsi, copy, GSI_NEW_STMT);
      last = copy;
      result = tmp;
    }

  gcond *cond = gimple_build_cond (NE_EXPR, result,
				   build_int_cst (TREE_TYPE (result), 0),
				   NULL_TREE, NULL_TREE);
  gimple_set_location (cond, loc);
  basic_block store_bb = insert_cond_bb (gimple_bb (last), last, cond,
					 profile_probability::likely ());

  tree record = TYPE_MAIN_VARIANT (site->pointee);
  tree ref = build2 (MEM_REF, record, result,
		     build_int_cst (build_pointer_type (record), 0));
  for (int i = 0; i < site->flex.counter_depth; i++)
    {
      tree field = site->flex.counter[i];
      ref = build3 (COMPONENT_REF, TREE_TYPE (field), ref, field, NULL_TREE);
    }
  tree counter_type = flex_counter_type (&site->flex);

  gimple_stmt_iterator gsi = gsi_start_bb (store_bb);
  tree value = count;
  if (TREE_CODE (count) == INTEGER_CST)
    value = fold_convert (counter_type, count);
  else if (!useless_type_conversion_p (counter_type, TREE_TYPE (count)))
    {
      value = make_ssa_name (counter_type);
      gassign *conv = gimple_build_assign (value, NOP_EXPR, count);
      gimple_set_location (conv, loc);
      gsi_insert_after (&gsi, conv, GSI_NEW_STMT);
    }
  gassign *store = gimple_build_assign (ref, value);
  gimple_set_location (store, loc);
  gsi_insert_after (&gsi, store, GSI_NEW_STMT);
  mark_virtual_operands_for_renaming (cfun);
}

/* Can the counter be stored after CALL?  The condition needs the call
   to be a plain statement in the middle of a block.  */
static bool
can_store_after (gcall *call)
{
  return gimple_call_lhs (call) && !stmt_ends_bb_p (call)
	 && POINTER_TYPE_P (TREE_TYPE (gimple_call_lhs (call)));
}

/* Harden SITE in place.  Returns true when the function's CFG or
   virtual operands changed and SSA needs updating.  */
bool
rewrite_site (struct alloc_site *site)
{
  if (kalloc_opts.mode != KALLOC_MODE_HARDEN || !site->call)
    return false;

  const struct size_expr *expr = &site->expr;
  bool array_call = site->alloc->count_arg >= 0;
  /* A product is a size to check; so is a flexible array's sum.  */
  bool saturate_size = !array_call
		       && (size_needs_saturation (expr)
			   || (site->kind == SITE_FLEX && size_wraps (expr)));
  bool flex_counter = site->kind == SITE_FLEX && site->flex.counter_depth
		      && site->count_node >= 0;
  tree limit = NULL_TREE;
  if (flex_counter && kalloc_opts.counter_check)
    limit = counter_limit (flex_counter_type (&site->flex), expr->type);
  bool store = flex_counter && kalloc_opts.counter_store
	       && can_store_after (site->call);

  if (!saturate_size && !limit && !store)
    return false;

  struct emitter e;
  memset (&e, 0, sizeof e);
  e.gsi = gsi_for_stmt (site->call);
  e.loc = gimple_location (site->call);
  e.type = expr->type;

  tree size = gimple_call_arg (site->call, site->alloc->size_arg);
  if (saturate_size)
    {
      size = saturated (&e, expr, expr->root);
      site->rewrites |= RW_SATURATE;
    }
  tree count = flex_counter ? saturated (&e, expr, site->count_node)
			    : NULL_TREE;
  if (limit && !(TREE_CODE (count) == INTEGER_CST
		 && tree_int_cst_le (count, limit)))
    {
      size = fold_counter_check (&e, size, count, limit);
      site->rewrites |= RW_COUNTER_CHECK;
    }
  if (size != gimple_call_arg (site->call, site->alloc->size_arg))
    {
      gimple_call_set_arg (site->call, site->alloc->size_arg, size);
      update_stmt (site->call);
    }
  if (store)
    {
      emit_counter_store (site, count);
      site->rewrites |= RW_COUNTER_STORE;
      return true;
    }
  return false;
}
