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

/* The first use of one counter after every call of the function, found
   by one walk backwards over the blocks in reverse post-order and kept
   per counter: a scan from each of 100,000 sites to the end of the
   function was quadratic.  Made at the first question about a counter,
   before any site of its structure is rewritten (rewrite_site () asks
   before it emits), so kalloc's own stores never count as the code's.  */
struct call_use
{
  const gimple *call;
  enum counter_use use;
};

struct counter_uses
{
  tree field, fam;
  int count;
  struct call_use *calls;	/* sorted by address, for bsearch () */
};

static struct counter_uses *uses_cache;
static int uses_cache_count;

static int
compare_call_use (const void *a, const void *b)
{
  uintptr_t x = (uintptr_t) ((const struct call_use *) a)->call;
  uintptr_t y = (uintptr_t) ((const struct call_use *) b)->call;
  return x < y ? -1 : x > y;
}

static const struct counter_uses *
counter_uses_get (const struct flex_member *flex)
{
  tree field = flex->counter[flex->counter_depth - 1];
  for (int i = 0; i < uses_cache_count; i++)
    if (uses_cache[i].field == field && uses_cache[i].fam == flex->fam)
      return &uses_cache[i];

  uses_cache = XRESIZEVEC (struct counter_uses, uses_cache,
			   uses_cache_count + 1);
  struct counter_uses *u = &uses_cache[uses_cache_count++];
  u->field = field;
  u->fam = flex->fam;
  u->count = 0;
  u->calls = NULL;
  int room = 0;
  int *rpo = XNEWVEC (int, n_basic_blocks_for_fn (cfun));
  int blocks = pre_and_rev_post_order_compute_fn (cfun, NULL, rpo, false);
  enum counter_use next = USE_NONE;	/* the first use after this point */
  for (int i = blocks - 1; i >= 0; i--)
    {
      basic_block bb = BASIC_BLOCK_FOR_FN (cfun, rpo[i]);
      for (gimple_stmt_iterator gsi = gsi_last_bb (bb); !gsi_end_p (gsi);
	   gsi_prev (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (is_gimple_call (stmt))
	    {
	      if (u->count == room)
		{
		  room = room ? 2 * room : 64;
		  u->calls = XRESIZEVEC (struct call_use, u->calls, room);
		}
	      u->calls[u->count].call = stmt;
	      u->calls[u->count++].use = next;
	    }
	  enum counter_use use = stmt_counter_use (stmt, flex);
	  if (use != USE_NONE)
	    next = use;
	}
    }
  XDELETEVEC (rpo);
  qsort (u->calls, u->count, sizeof *u->calls, compare_call_use);
  return u;
}

/* A new function: the cached counter uses are another's.  */
void
counter_reset_function (void)
{
  for (int i = 0; i < uses_cache_count; i++)
    XDELETEVEC (uses_cache[i].calls);
  uses_cache_count = 0;
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
  const struct counter_uses *u = counter_uses_get (flex);
  struct call_use key = { call, USE_NONE };
  const struct call_use *found
    = (const struct call_use *) bsearch (&key, u->calls, u->count,
					 sizeof *u->calls, compare_call_use);
  /* A call in an unreachable block, or one made since: nothing after.  */
  enum counter_use use = found ? found->use : USE_NONE;
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
