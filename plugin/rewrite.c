/*
 * rewrite.c - legacy calls made to behave like kmalloc_objs () and
 * kmalloc_flex ().
 *
 *   overflow-checked size  every wrapping product and sum of the size
 *                          is recomputed with .MUL_OVERFLOW/.ADD_OVERFLOW
 *                          (a product, when optimizing, as a widening
 *                          multiply whose high half is the overflow) and
 *                          saturated branch-free (r | -overflow), so
 *                          an overflow asks for SIZE_MAX and the
 *                          allocation fails, as size_mul () makes it;
 *                          arithmetic with a term that may be negative
 *                          (a signed count, a subtraction) is checked
 *                          in a signed type twice as wide, where it is
 *                          exact: only a value above SIZE_MAX is an
 *                          overflow, and any other keeps the program's
 *                          own bits;
 *   counter range check    a count the counted_by counter cannot hold
 *                          also asks for SIZE_MAX (size | -(count > max));
 *                          when every count the counter can hold gives a
 *                          size that fits, the size is recomputed from
 *                          the count without overflow checks: the range
 *                          check is the only one it needs;
 *   counter store          after a non-NULL result, counter = count,
 *                          branch-free: the store goes to a sink
 *                          when the allocation failed.
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

/* The signed type twice as wide as the size type, or NULL: sums and
   products of N-bit terms of either sign are exact in it, but for a
   product of two run-time values near the top, which .MUL_OVERFLOW
   reports.  */
static tree
exact_type (const struct emitter *e)
{
  unsigned prec = TYPE_PRECISION (e->type);
  tree wide = lang_hooks.types.type_for_size (2 * prec, 0);
  if (!wide || TYPE_PRECISION (wide) != 2 * prec || TYPE_UNSIGNED (wide))
    return NULL_TREE;
  return wide;
}

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

/* The unsigned type twice as wide as E's, or NULL.  Only when GCC's
   widening_mul pass will run: it makes the product one instruction
   (x86-64's mul, arm64's mul/umulh, arm's umull), where -O0 or -O1
   could expand a double-word multiply, or call libgcc for it.  */
static tree
widening_type (struct emitter *e)
{
  if (!optimize || !flag_expensive_optimizations)
    return NULL_TREE;
  unsigned prec = TYPE_PRECISION (e->type);
  tree wide = lang_hooks.types.type_for_size (2 * prec, 1);
  if (!wide || TYPE_PRECISION (wide) != 2 * prec)
    return NULL_TREE;
  return wide;
}

/* A * B in E's type, saturated, as a widening multiply in WIDE: the
   high half is the overflow, and x86-64 makes "high != 0 ? -1 : 0" a
   neg/sbb pair where .MUL_OVERFLOW's flag takes seto/movzbl/neg.  */
static tree
emit_saturating_mul_wide (struct emitter *e, tree wide, tree a, tree b)
{
  unsigned prec = TYPE_PRECISION (e->type);
  tree product = emit (e, MULT_EXPR, wide, convert_to (e, wide, a),
		       convert_to (e, wide, b));
  tree low = emit (e, NOP_EXPR, e->type, product, NULL_TREE);
  tree high = emit (e, RSHIFT_EXPR, wide, product,
		    build_int_cst (integer_type_node, prec));
  high = emit (e, NOP_EXPR, e->type, high, NULL_TREE);
  tree overflow = emit (e, NE_EXPR, boolean_type_node, high,
			build_zero_cst (e->type));
  tree mask = make_ssa_name (e->type);
  emit_stmt (e, gimple_build_assign (mask, COND_EXPR, overflow,
				     build_all_ones_cst (e->type),
				     build_zero_cst (e->type)), mask);
  return emit (e, BIT_IOR_EXPR, e->type, low, mask);
}

/* A op B in TYPE, with IFN (.MUL_OVERFLOW, .ADD_OVERFLOW or
   .SUB_OVERFLOW): the result, and in *OVERFLOW 1 or 0 in TYPE.  */
static tree
emit_overflow_op (struct emitter *e, enum internal_fn ifn, tree type, tree a,
		  tree b, tree *overflow)
{
  tree pair = make_ssa_name (build_complex_type (type));
  gcall *call = gimple_build_call_internal (ifn, 2, a, b);
  gimple_call_set_lhs (call, pair);
  emit_stmt (e, call, pair);
  tree result = make_ssa_name (type);
  emit_stmt (e, gimple_build_assign (result, build1 (REALPART_EXPR, type,
						      pair)), result);
  *overflow = make_ssa_name (type);
  emit_stmt (e, gimple_build_assign (*overflow, build1 (IMAGPART_EXPR, type,
							 pair)), *overflow);
  return result;
}

/* A op B in E's type, saturated: IFN is .MUL_OVERFLOW or .ADD_OVERFLOW. */
static tree
emit_saturating (struct emitter *e, enum internal_fn ifn, tree a, tree b)
{
  if (ifn == IFN_MUL_OVERFLOW)
    {
      tree wide = widening_type (e);
      if (wide)
	return emit_saturating_mul_wide (e, wide, a, b);
    }
  tree overflow;
  tree result = emit_overflow_op (e, ifn, e->type, a, b, &overflow);
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
    case SIZE_SUB:
      return true;
    case SIZE_SAT_MUL:
    case SIZE_SAT_ADD:
      return wraps_below (expr, node->a) || wraps_below (expr, node->b);
    default:
      return false;
    }
}

static tree saturated (struct emitter *e, const struct size_expr *expr,
		       int n);

/* Node N's exact value in WIDE (exact_type ()), emitting what it takes;
   *OVERFLOW gets 1 (in E's type) where even WIDE does not hold it.
   Leaves keep their sign; a saturating helper's result is its own.  */
static tree
exact (struct emitter *e, const struct size_expr *expr, int n, tree wide,
       tree *overflow)
{
  const struct size_node *node = &expr->node[n];
  enum internal_fn ifn;
  switch (node->op)
    {
    case SIZE_LEAF:
    case SIZE_CONST:
      if (node->signed_value)
	{
	  tree value = node->signed_value;
	  if (TYPE_UNSIGNED (TREE_TYPE (value)))
	    value = convert_to (e, signed_type_for (TREE_TYPE (value)), value);
	  return convert_to (e, wide, value);
	}
      return convert_to (e, wide, convert_to (e, e->type, node->value));
    case SIZE_ADD:
      ifn = IFN_ADD_OVERFLOW;
      break;
    case SIZE_SUB:
      ifn = IFN_SUB_OVERFLOW;
      break;
    case SIZE_MUL:
      ifn = IFN_MUL_OVERFLOW;
      break;
    default:
      return convert_to (e, wide, saturated (e, expr, n));
    }
  tree a = exact (e, expr, node->a, wide, overflow);
  tree b = exact (e, expr, node->b, wide, overflow);
  tree flag;
  tree value = emit_overflow_op (e, ifn, wide, a, b, &flag);
  flag = convert_to (e, e->type, flag);
  *overflow = *overflow ? emit (e, BIT_IOR_EXPR, e->type, *overflow, flag)
			: flag;
  return value;
}

/* Node N, whose arithmetic may go below zero, computed exactly: its own
   value, or all ones when that is above SIZE_MAX.  A negative value
   keeps its wrapped bits, as the program has them (no allocator takes
   them).  Without a wider type, the program's own value.  */
static tree
saturated_signed (struct emitter *e, const struct size_expr *expr, int n)
{
  tree wide = exact_type (e);
  if (!wide)
    return convert_to (e, e->type, expr->node[n].value);
  tree overflow = NULL_TREE;
  tree value = exact (e, expr, n, wide, &overflow);
  tree max = fold_convert (wide, TYPE_MAX_VALUE (e->type));
  tree above = emit (e, GT_EXPR, boolean_type_node, value, max);
  tree flag = emit (e, NOP_EXPR, e->type, above, NULL_TREE);
  flag = emit (e, BIT_IOR_EXPR, e->type, flag, overflow);
  return saturate (e, convert_to (e, e->type, value), flag);
}

/* The saturated value of node N, emitting what it takes.  */
static tree
saturated (struct emitter *e, const struct size_expr *expr, int n)
{
  if (e->value[n])
    return e->value[n];
  const struct size_node *node = &expr->node[n];
  tree value;
  if (node->op != SIZE_LEAF && node->op != SIZE_CONST
      && size_may_be_negative (expr, n))
    {
      value = saturated_signed (e, expr, n);
      e->value[n] = value;
      return value;
    }
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

/* Can node N of EXPR exceed the size type when the count (node COUNT_NODE)
   is at most LIMIT?  Every other leaf must be a constant; sums and
   products of unsigned values grow with the count, so N's value at
   count = LIMIT, in *MAX, bounds them all.  */
static bool
bounded_by_count (const struct size_expr *expr, int n, int count_node,
		  tree limit, wide_int *max)
{
  unsigned prec = TYPE_PRECISION (expr->type);
  const struct size_node *node = &expr->node[n];
  if (n == count_node)
    {
      *max = wi::to_wide (limit);
      return true;
    }
  switch (node->op)
    {
    case SIZE_LEAF:
    case SIZE_CONST:
      if (!node->value || TREE_CODE (node->value) != INTEGER_CST
	  || node->signed_value
	  || wi::min_precision (wi::to_wide (node->value), UNSIGNED) > prec)
	return false;
      *max = wide_int::from (wi::to_wide (node->value), prec, UNSIGNED);
      return true;
    case SIZE_SUB:
      return false;
    default:
      {
	wide_int a, b;
	if (!bounded_by_count (expr, node->a, count_node, limit, &a)
	    || !bounded_by_count (expr, node->b, count_node, limit, &b))
	  return false;
	wi::overflow_type overflow;
	bool mul = node->op == SIZE_MUL || node->op == SIZE_SAT_MUL;
	*max = mul ? wi::mul (a, b, UNSIGNED, &overflow)
		   : wi::add (a, b, UNSIGNED, &overflow);
	return overflow == wi::OVF_NONE;
      }
    }
}

/* Node N of EXPR computed from COUNT (node COUNT_NODE's value) with
   plain arithmetic: only for sizes bounded_by_count () allows, behind a
   range check that fails the allocation when COUNT is above the limit
   (where this may wrap).  */
static tree
unchecked (struct emitter *e, const struct size_expr *expr, int n,
	   int count_node, tree count)
{
  if (n == count_node)
    return count;
  const struct size_node *node = &expr->node[n];
  if (node->op == SIZE_LEAF || node->op == SIZE_CONST)
    return convert_to (e, e->type, node->value);
  tree a = unchecked (e, expr, node->a, count_node, count);
  tree b = unchecked (e, expr, node->b, count_node, count);
  enum tree_code code = node->op == SIZE_MUL || node->op == SIZE_SAT_MUL
			? MULT_EXPR : PLUS_EXPR;
  if (TREE_CODE (a) == INTEGER_CST && TREE_CODE (b) == INTEGER_CST)
    return fold_build2 (code, e->type, a, b);
  return emit (e, code, e->type, a, b);
}

/* SIZE, or all ones when COUNT exceeds LIMIT.  The test is the carry
   of COUNT + ~LIMIT (.ADD_OVERFLOW), which x86-64 makes add/sbb: GCC
   turns "COUNT > LIMIT" into cmp/seta/neg, five bytes more for a limit
   above 127, and every other formulation back into that compare.  */
static tree
fold_counter_check (struct emitter *e, tree size, tree count, tree limit)
{
  tree complement = fold_build1 (BIT_NOT_EXPR, e->type,
				 fold_convert (e->type, limit));
  tree overflow;
  emit_overflow_op (e, IFN_ADD_OVERFLOW, e->type, convert_to (e, e->type, count),
		    complement, &overflow);
  return saturate (e, size, overflow);
}

/* Can the counter be stored after CALL?  The condition needs the call
   to be a plain statement in the middle of a block.  */
static bool
can_store_after (gcall *call)
{
  return gimple_call_lhs (call) && !stmt_ends_bb_p (call)
	 && POINTER_TYPE_P (TREE_TYPE (gimple_call_lhs (call)));
}

/* Is NAME one of the Linux 7.0 typed forms that promise to set the
   counter (include/kalloc.h provides them)?  The program asked for the
   store, whatever the allocating function does afterwards.  */
static bool
typed_flex_macro (const char *name)
{
  static const char *const typed[] = {
    "kmalloc_flex", "kzalloc_flex", "kvmalloc_flex", "kvzalloc_flex"
  };
  for (size_t i = 0; name && i < ARRAY_SIZE (typed); i++)
    if (!strcmp (name, typed[i]))
      return true;
  return false;
}

/* Does SITE allocate a structure whose counted_by counter kalloc would
   check and store?  A resized block (realloc ()) keeps its contents: its
   counter is the code's to keep.  */
static bool
has_settable_counter (const struct alloc_site *site)
{
  return site->kind == SITE_FLEX && site->flex.counter_depth
	 && site->count_node >= 0 && !site->alloc->resize;
}

/* Decide, before any site of the function is rewritten, what
   rewrite_site () may do at SITE: saturate its size; check and store its
   counter when counter-fate.c allows it, and otherwise record why not in
   SITE->counter_left.  The typed forms (kmalloc_flex ()) promise the
   store: the program asked for it.  */
void
rewrite_plan_site (struct alloc_site *site)
{
  site->plan = 0;
  site->counter_left = COUNTER_SET_HERE;
  if (kalloc_opts.mode != KALLOC_MODE_HARDEN || !site->call)
    return;
  /* A product is a size to check; so is a flexible array's sum.  */
  const struct size_expr *expr = &site->expr;
  if (site->alloc->count_arg < 0
      && (size_needs_saturation (expr)
	  || (site->kind == SITE_FLEX && size_wraps (expr))))
    site->plan |= RW_SATURATE;
  if (!has_settable_counter (site)
      || !(kalloc_opts.counter_store || kalloc_opts.counter_check))
    return;
  if (!typed_flex_macro (site->outer_macro))
    site->counter_left
      = counter_fate_of (site, alloc_may_zero (site->alloc, site->call));
  if (site->counter_left != COUNTER_SET_HERE)
    return;
  /* site_consistent () checked the count's node; the store needs an
     integral counter at the end of its path.  */
  if (!kalloc_invariant (site->flex.counter_depth > 0
			 && INTEGRAL_TYPE_P (flex_counter_type (&site->flex))))
    {
      site->plan = 0;
      return;
    }
  if (kalloc_opts.counter_check)
    site->plan |= RW_COUNTER_CHECK;
  if (kalloc_opts.counter_store && can_store_after (site->call))
    site->plan |= RW_COUNTER_STORE;
}

/* How far back from a rewritten call dead statements are looked for.  */
#define DEAD_SCAN_MAX 64

/* Remove the computations before CALL that nothing uses any more: the
   program's own size, now replaced, and parts of kalloc's own that the
   rewrite did not need (an overflow pair's unused half).  At -O0 no pass
   would; at -O2 this saves DCE the work.  Only unnamed temporaries
   without memory access or traps: a user's variable keeps its value for
   the debugger, and a debug statement's use keeps a statement.  */
static void
remove_dead_before (gcall *call)
{
  bool removed = true;
  for (int round = 0; removed && round < 8; round++)
    {
      removed = false;
      gimple_stmt_iterator gsi = gsi_for_stmt (call);
      gsi_prev (&gsi);
      for (int n = 0; !gsi_end_p (gsi) && n < DEAD_SCAN_MAX; n++)
	{
	  gimple *stmt = gsi_stmt (gsi);
	  tree lhs = is_gimple_assign (stmt) || is_gimple_call (stmt)
		     ? gimple_get_lhs (stmt) : NULL_TREE;
	  bool dead = lhs && TREE_CODE (lhs) == SSA_NAME && num_imm_uses (lhs) == 0
		      && (!SSA_NAME_VAR (lhs) || DECL_IGNORED_P (SSA_NAME_VAR (lhs))
			  || DECL_ARTIFICIAL (SSA_NAME_VAR (lhs)))
		      && !gimple_vuse (stmt) && !gimple_vdef (stmt)
		      && !gimple_could_trap_p (stmt)
		      && (is_gimple_assign (stmt)
			  || gimple_call_internal_p (stmt, IFN_MUL_OVERFLOW)
			  || gimple_call_internal_p (stmt, IFN_ADD_OVERFLOW)
			  || gimple_call_internal_p (stmt, IFN_SUB_OVERFLOW));
	  if (!dead)
	    {
	      gsi_prev (&gsi);
	      continue;
	    }
	  gimple_stmt_iterator here = gsi;
	  gsi_prev (&gsi);
	  gsi_remove (&here, true);
	  release_defs (stmt);
	  removed = true;
	}
    }
}

/* Harden SITE in place.  Returns true when the function's CFG or
   virtual operands changed and SSA needs updating.  */
bool
rewrite_site (const struct alloc_site *site, struct site_outcome *done)
{
  if (!site->plan
      || !kalloc_invariant (site->expr.type
			    && INTEGRAL_TYPE_P (site->expr.type)))
    return false;

  const struct size_expr *expr = &site->expr;
  bool saturate_size = site->plan & RW_SATURATE;
  bool flex_counter = site->plan & (RW_COUNTER_CHECK | RW_COUNTER_STORE);
  tree limit = NULL_TREE;
  if (site->plan & RW_COUNTER_CHECK)
    limit = counter_limit (flex_counter_type (&site->flex), expr->type);
  bool store = site->plan & RW_COUNTER_STORE;

  if (!saturate_size && !limit && !store)
    return false;

  struct emitter e;
  memset (&e, 0, sizeof e);
  e.gsi = gsi_for_stmt (site->call);
  e.loc = gimple_location (site->call);
  e.type = expr->type;

  tree size = gimple_call_arg (site->call, site->alloc->size_arg);
  tree count = flex_counter ? saturated (&e, expr, site->count_node)
			    : NULL_TREE;
  bool check = limit && !(TREE_CODE (count) == INTEGER_CST
			  && tree_int_cst_le (count, limit));
  wide_int largest;
  if (check && bounded_by_count (expr, expr->root, site->count_node, limit,
				 &largest))
    /* The range check below covers every overflow: no other check, and
       none of the program's own (size_mul () and friends) either.  */
    size = unchecked (&e, expr, expr->root, site->count_node, count);
  else if (saturate_size)
    size = saturated (&e, expr, expr->root);
  if (saturate_size)
    done->rewrites |= RW_SATURATE;
  if (check)
    {
      size = fold_counter_check (&e, size, count, limit);
      done->rewrites |= RW_COUNTER_CHECK;
    }
  if (size != gimple_call_arg (site->call, site->alloc->size_arg))
    {
      gimple_call_set_arg (site->call, site->alloc->size_arg, size);
      update_stmt (site->call);
      remove_dead_before (site->call);
    }
  if (store)
    {
      done->counter_store_branch = counter_store_after (site, count);
      done->rewrites |= RW_COUNTER_STORE;
      return true;
    }
  return false;
}
