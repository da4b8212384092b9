/*
 * counter.c - a flexible array's counted_by counter as GIMPLE: the
 * reference to it, the count it gives (never negative), and whether the
 * code after an allocation sets the counter itself or fills the array
 * from a counter of zero.  The counter store (rewrite.c), the object
 * sizes (object-size.c) and the bounds checks (bounds.c) all reach the
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

/* ---- counters filled from zero -------------------------------------------- */

/* How a statement meets the counter.  */
enum counter_use
{
  USE_NONE,
  USE_INDEX,			/* reads it as an index of the array:
				   p->items[p->count++] = x */
  USE_ZERO,			/* stores 0 */
  USE_SET			/* stores anything else */
};

/* What find_fam_index looks for: an ARRAY_REF of the flexible array
   FAM indexed by INDEX.  */
struct index_search
{
  tree fam, index;
};

static tree
find_fam_index (tree *tp, int *walk_subtrees, void *data)
{
  const struct index_search *s
    = (const struct index_search *) ((struct walk_stmt_info *) data)->info;
  tree t = *tp;
  if (TREE_CODE (t) == ARRAY_REF && TREE_OPERAND (t, 1) == s->index)
    {
      tree base = TREE_OPERAND (t, 0);
      if ((TREE_CODE (base) == COMPONENT_REF
	   && TREE_OPERAND (base, 1) == s->fam)
	  || kalloc_access_with_size_field (base) == s->fam)
	return t;
    }
  if (TYPE_P (t))
    *walk_subtrees = 0;
  return NULL_TREE;
}

static bool
indexes_fam (gimple *stmt, tree fam, tree index)
{
  struct index_search s = { fam, index };
  struct walk_stmt_info wi;
  memset (&wi, 0, sizeof wi);
  wi.info = &s;
  return walk_gimple_op (stmt, find_fam_index, &wi) != NULL_TREE;
}

/* Is VALUE (a counter just read), or a copy or conversion of it (DEPTH
   more levels), an index of the array FAM somewhere?  */
static bool
used_as_index (tree value, tree fam, int depth)
{
  imm_use_iterator it;
  gimple *use;
  FOR_EACH_IMM_USE_STMT (use, it, value)
    {
      if (indexes_fam (use, fam, value))
	return true;
      if (depth > 0 && is_gimple_assign (use)
	  && (gimple_assign_ssa_name_copy_p (use)
	      || CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (use)))
	  && TREE_CODE (gimple_assign_lhs (use)) == SSA_NAME
	  && used_as_index (gimple_assign_lhs (use), fam, depth - 1))
	return true;
    }
  return false;
}

static enum counter_use
stmt_counter_use (gimple *stmt, const struct flex_member *flex)
{
  tree field = flex->counter[flex->counter_depth - 1];
  if (!gimple_assign_single_p (stmt))
    return USE_NONE;
  tree lhs = gimple_assign_lhs (stmt), rhs = gimple_assign_rhs1 (stmt);
  if (TREE_CODE (lhs) == COMPONENT_REF && TREE_OPERAND (lhs, 1) == field)
    return integer_zerop (rhs) ? USE_ZERO : USE_SET;
  if (TREE_CODE (rhs) == COMPONENT_REF && TREE_OPERAND (rhs, 1) == field
      && TREE_CODE (lhs) == SSA_NAME && used_as_index (lhs, flex->fam, 3))
    return USE_INDEX;
  return USE_NONE;
}

/* The current function's blocks in reverse post-order, and each block's
   position in it, computed once per function and CFG: a function with
   100,000 allocations asked for it once per site.  A block added since
   (a bit-field counter's store splits the call's block) changes
   last_basic_block and makes it anew.  */
struct block_order
{
  function *fun;
  int last_block;
  int count;
  int *rpo;
  int *position;
};

static struct block_order order_cache;

static const struct block_order *
block_order_get (void)
{
  struct block_order *o = &order_cache;
  if (o->fun == cfun && o->last_block == last_basic_block_for_fn (cfun)
      && o->count)
    return o;
  o->fun = cfun;
  o->last_block = last_basic_block_for_fn (cfun);
  o->rpo = XRESIZEVEC (int, o->rpo, n_basic_blocks_for_fn (cfun));
  o->position = XRESIZEVEC (int, o->position, o->last_block);
  o->count = pre_and_rev_post_order_compute_fn (cfun, NULL, o->rpo, false);
  for (int i = 0; i < o->last_block; i++)
    o->position[i] = o->count;	/* unreachable: nothing after it */
  for (int i = 0; i < o->count; i++)
    o->position[o->rpo[i]] = i;
  return o;
}

/* A new function: the cached block order is another's.  */
void
counter_reset_function (void)
{
  order_cache.fun = NULL;
  order_cache.count = 0;
}

/* What the code after CALL, in its function, does first with FLEX's
   counter (in reverse post-order, statement order within a block): store
   a value (COUNTER_SET_HERE, the counter means elements allocated, and
   kalloc may set it at allocation as kmalloc_flex () does), store 0 or
   read it as an index of the array (COUNTER_FILLED_FROM_ZERO: it counts
   the elements used so far, p->items[p->count++] = x after kzalloc (),
   and a counter set to the capacity would send the next element past the
   end), or neither (COUNTER_NOT_SET_HERE: another function sets or fills
   it, which kalloc does not see; ASoC's snd_soc_rtd_add_component ()
   fills rtd->components[] from the zero of the kzalloc () in
   soc_new_pcm_runtime ()).  Other reads (a test, a loop bound) do not
   decide; a counter of any object of the same structure type counts.  */
enum counter_fate
counter_fate_after (gcall *call, const struct flex_member *flex)
{
  if (!flex->counter_depth || !flex->fam)
    return COUNTER_NOT_SET_HERE;
  const struct block_order *order = block_order_get ();
  basic_block call_bb = gimple_bb (call);
  enum counter_use use = USE_NONE;
  gimple_stmt_iterator gsi = gsi_for_stmt (call);
  gsi_next (&gsi);
  for (int i = order->position[call_bb->index];
       i < order->count && use == USE_NONE; i++)
    {
      if (i != order->position[call_bb->index])
	gsi = gsi_start_bb (BASIC_BLOCK_FOR_FN (cfun, order->rpo[i]));
      for (; !gsi_end_p (gsi) && use == USE_NONE; gsi_next (&gsi))
	use = stmt_counter_use (gsi_stmt (gsi), flex);
    }
  switch (use)
    {
    case USE_SET:
      return COUNTER_SET_HERE;
    case USE_INDEX:
    case USE_ZERO:
      return COUNTER_FILLED_FROM_ZERO;
    default:
      return COUNTER_NOT_SET_HERE;
    }
}
