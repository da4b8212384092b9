/*
 * counter-fate.c - may kalloc set a counted_by counter at allocation?
 *
 * kmalloc_flex () stores the counter right after the allocation.  kalloc
 * does the same for a legacy call only where that store provably changes
 * nothing the program can observe:
 *
 *   - in memory the allocator zeroes (kzalloc (), calloc (), __GFP_ZERO),
 *     the counter reads 0 until the program stores it, and a program may
 *     rely on that zero: count up from it (p->n++), test it, pass the
 *     object to a function that does, or publish the object first.  Any
 *     read of the counter's bytes, any code kalloc does not see that can
 *     reach the object (a call that receives it, or any call once it has
 *     escaped; the caller after a return), before the program's own plain
 *     store of the counter, means kalloc must not store;
 *   - in memory that is not zeroed, the counter is indeterminate until the
 *     program writes it, so only a read of a value the program wrote
 *     counts, and a write other than a plain store of the counter (a
 *     memset (), a memcpy (), a call that receives the object) makes what
 *     follows read such a value: from there the zeroed rule applies;
 *   - a counter whose first store is 0 counts elements used, not
 *     allocated: it is never set, and never range-checked either.
 *
 * The answer comes from one forward walk over the CFG from the call, per
 * site, stopped by the program's store on each path.  The walk knows the
 * object through the SSA names derived from the result and through
 * memory it was stored to and is read back from (followed along the
 * virtual operands); it asks GCC's alias oracle, without type-based
 * aliasing (kernels build with -fno-strict-aliasing), whether a load or
 * store touches the counter.  Whatever it cannot decide leaves the
 * counter alone.
 */
#include "kalloc.h"
#include "tree-ssa-alias.h"

/* How many statements one site's walk may look at before it gives up.  */
#define FATE_WALK_BUDGET 2000
/* How far a memory slot's history is followed back.  */
#define SLOT_CHAIN_BUDGET 64

/* What a reader of the counter's bytes would see without kalloc, at a
   point after the allocation.  The order is the join's.  */
enum counter_state
{
  STATE_UNSEEN,			/* no path from the call gets here */
  STATE_INDETERMINATE,		/* what kmalloc () left: no defined read */
  STATE_DEFINED			/* zero, or what the program wrote */
};

/* The state of one path: the counter, and whether the object may be
   reached by code kalloc does not see.  */
struct path_state
{
  unsigned char counter;	/* enum counter_state */
  bool escaped;
};

struct fate_walk
{
  gcall *call;
  const struct flex_member *flex;
  tree record;			/* the allocated structure's type */
  tree slot;			/* the call's lhs when it is memory, or NULL */
  bitmap derived;		/* SSA versions that may point into the object */
  bitmap equal;			/* ... and those equal to its address */
  int budget;
  enum counter_fate verdict;	/* COUNTER_SET_HERE while undecided */
};

/* ---- the names of the object --------------------------------------------- */

static bool
is_derived (const struct fate_walk *w, tree name)
{
  return TREE_CODE (name) == SSA_NAME
	 && bitmap_bit_p (w->derived, SSA_NAME_VERSION (name));
}

static bool
is_equal (const struct fate_walk *w, tree name)
{
  return TREE_CODE (name) == SSA_NAME
	 && bitmap_bit_p (w->equal, SSA_NAME_VERSION (name));
}

/* A pointer whose value was fixed before the allocation (a parameter, an
   address of a declared object): it cannot point into the new block.  */
static bool
predates_object (tree ptr)
{
  if (TREE_CODE (ptr) == ADDR_EXPR)
    return DECL_P (get_base_address (TREE_OPERAND (ptr, 0)));
  return TREE_CODE (ptr) == SSA_NAME && SSA_NAME_IS_DEFAULT_DEF (ptr);
}

/* Does USE, a statement that reads NAME, compute a value from NAME's
   value (a copy, a cast, pointer arithmetic, &NAME->f), as opposed to
   loading through it or testing it?  *SAME: the value is NAME's own.  */
static bool
derives_value (gimple *use, tree name, bool *same)
{
  *same = false;
  if (gimple_code (use) == GIMPLE_PHI)
    return !virtual_operand_p (gimple_phi_result (use));
  if (!is_gimple_assign (use)
      || TREE_CODE (gimple_assign_lhs (use)) != SSA_NAME)
    return false;
  enum tree_code code = gimple_assign_rhs_code (use);
  tree rhs = gimple_assign_rhs1 (use);
  if (TREE_CODE_CLASS (code) == tcc_comparison)
    return false;
  if (gimple_assign_single_p (use))
    {
      if (rhs == name)
	{
	  *same = true;
	  return true;
	}
      if (TREE_CODE (rhs) == ADDR_EXPR)
	return true;
      /* A load through NAME: the value comes from memory.  */
      return !(REFERENCE_CLASS_P (rhs) || TREE_CODE (rhs) == MEM_REF);
    }
  *same = (CONVERT_EXPR_CODE_P (code)
	   && POINTER_TYPE_P (TREE_TYPE (gimple_assign_lhs (use))))
	  || (code == POINTER_PLUS_EXPR && rhs == name
	      && integer_zerop (gimple_assign_rhs2 (use)));
  return true;
}

/* Add NAME (EQUAL: with the object's address) and every value computed
   from it to the object's names.  */
static void
add_name (struct fate_walk *w, tree name, bool equal)
{
  auto_vec<tree, 16> work;
  auto_vec<bool, 16> work_equal;
  work.safe_push (name);
  work_equal.safe_push (equal);
  while (!work.is_empty ())
    {
      tree n = work.pop ();
      bool eq = work_equal.pop ();
      bool new_derived = bitmap_set_bit (w->derived, SSA_NAME_VERSION (n));
      bool new_equal = eq && bitmap_set_bit (w->equal, SSA_NAME_VERSION (n));
      if (!new_derived && !new_equal)
	continue;
      imm_use_iterator it;
      use_operand_p use_p;
      FOR_EACH_IMM_USE_FAST (use_p, it, n)
	{
	  gimple *use = USE_STMT (use_p);
	  bool same;
	  if (is_gimple_debug (use) || !derives_value (use, n, &same))
	    continue;
	  tree lhs = gimple_code (use) == GIMPLE_PHI ? gimple_phi_result (use)
						     : gimple_assign_lhs (use);
	  work.safe_push (lhs);
	  work_equal.safe_push (eq && same);
	}
    }
}

/* The counter of the object PTR points to, as a reference the alias
   oracle can compare with the program's.  */
static void
counter_ao_ref (const struct fate_walk *w, tree ptr, ao_ref *ref)
{
  tree object = build2 (MEM_REF, w->record, ptr,
			build_int_cst (build_pointer_type (w->record), 0));
  ao_ref_init (ref, counter_ref (object, w->flex));
}

/* Is the memory reference REF's base a pointer the object is known by?
   Returns that pointer, or NULL.  */
static tree
ref_pointer (tree ref)
{
  tree base = get_base_address (ref);
  if (base && (TREE_CODE (base) == MEM_REF
	       || TREE_CODE (base) == TARGET_MEM_REF))
    return TREE_OPERAND (base, 0);
  return NULL_TREE;
}

/* May REF (a load or store of the program's) touch the counter's bytes,
   on a path in state ST?  */
static bool
ref_touches_counter (const struct fate_walk *w, tree ref,
		     const struct path_state *st)
{
  tree base = get_base_address (ref);
  if (!base || DECL_P (base) || CONSTANT_CLASS_P (base))
    return false;		/* a declared object is never the block */
  tree ptr = ref_pointer (ref);
  if (!ptr)
    return true;
  if (is_equal (w, ptr))
    {
      ao_ref counter, other;
      counter_ao_ref (w, ptr, &counter);
      ao_ref_init (&other, ref);
      return refs_may_alias_p_1 (&counter, &other, false);
    }
  if (is_derived (w, ptr))
    return true;
  return st->escaped && !predates_object (ptr);
}

/* Is OP a pointer into the object: one of its names, or &name->f?  */
static bool
names_object (const struct fate_walk *w, tree op)
{
  if (!op)
    return false;
  if (TREE_CODE (op) == ADDR_EXPR)
    {
      tree ptr = ref_pointer (TREE_OPERAND (op, 0));
      return ptr && is_derived (w, ptr);
    }
  return is_derived (w, op);
}

/* May the pointer argument ARG reach the object on a path in state ST? */
static bool
pointer_reaches_object (const struct fate_walk *w, tree arg,
			const struct path_state *st)
{
  if (names_object (w, arg))
    return true;
  if (TREE_CODE (arg) == ADDR_EXPR)
    return ref_touches_counter (w, TREE_OPERAND (arg, 0), st);
  return st->escaped && !predates_object (arg);
}

/* Does the load LOAD read back the object's address from memory (the
   call's own lhs, or a slot the program stored it to), on every path,
   with nothing in between that may have changed that memory?  Follows
   the virtual operands back from LOAD; never past the call, whose next
   execution is another object.  */
static bool
slot_holds_object (const struct fate_walk *w, tree slot, tree vuse,
		   bitmap visited, int *budget)
{
  ao_ref slot_ref;
  ao_ref_init (&slot_ref, slot);
  tree slot_ptr = ref_pointer (slot);
  while (vuse && TREE_CODE (vuse) == SSA_NAME)
    {
      if (--*budget < 0)
	return false;
      gimple *def = SSA_NAME_DEF_STMT (vuse);
      if (gimple_nop_p (def))
	return false;
      if (def == w->call)
	return w->slot && operand_equal_p (w->slot, slot, 0);
      if (gimple_code (def) == GIMPLE_PHI)
	{
	  if (!bitmap_set_bit (visited, SSA_NAME_VERSION (vuse)))
	    return true;	/* a cycle adds no other value */
	  for (unsigned i = 0; i < gimple_phi_num_args (def); i++)
	    if (!slot_holds_object (w, slot, gimple_phi_arg_def (def, i),
				    visited, budget))
	      return false;
	  return true;
	}
      if (gimple_assign_single_p (def)
	  && operand_equal_p (gimple_assign_lhs (def), slot, 0))
	return is_equal (w, gimple_assign_rhs1 (def));
      /* A store into the object itself cannot change a slot outside it. */
      tree store_ptr = gimple_assign_single_p (def)
		       ? ref_pointer (gimple_assign_lhs (def)) : NULL_TREE;
      bool own_store = store_ptr && is_derived (w, store_ptr)
		       && (!slot_ptr || predates_object (slot_ptr)
			   || DECL_P (get_base_address (slot)));
      if (!own_store && stmt_may_clobber_ref_p_1 (def, &slot_ref, false))
	return false;
      vuse = gimple_vuse (def);
    }
  return false;
}

/* STMT loads a pointer: is it the object's address?  Then its value
   joins the object's names.  */
static void
note_slot_load (struct fate_walk *w, gimple *stmt)
{
  if (!gimple_assign_single_p (stmt) || !gimple_vuse (stmt))
    return;
  tree lhs = gimple_assign_lhs (stmt), rhs = gimple_assign_rhs1 (stmt);
  if (TREE_CODE (lhs) != SSA_NAME || !POINTER_TYPE_P (TREE_TYPE (lhs))
      || is_equal (w, lhs) || TREE_THIS_VOLATILE (rhs)
      || !(REFERENCE_CLASS_P (rhs) || DECL_P (rhs)))
    return;
  auto_bitmap visited;
  int budget = SLOT_CHAIN_BUDGET;
  if (slot_holds_object (w, rhs, gimple_vuse (stmt), visited, &budget))
    add_name (w, lhs, true);
}

/* ---- events -------------------------------------------------------------- */

static void
decide (struct fate_walk *w, enum counter_fate fate)
{
  if (w->verdict == COUNTER_SET_HERE)
    w->verdict = fate;
}

/* The program reads the counter's bytes (FATE says how).  */
static void
on_read (struct fate_walk *w, const struct path_state *st,
	 enum counter_fate fate)
{
  if (st->counter == STATE_DEFINED)
    decide (w, fate);
}

/* The program may write the counter's bytes, other than by a plain
   store: later reads may see what it wrote.  */
static void
on_write (struct path_state *st)
{
  st->counter = STATE_DEFINED;
}

/* Code kalloc does not see runs: it may read the counter, then write it. */
static void
on_unseen_code (struct fate_walk *w, struct path_state *st)
{
  on_read (w, st, COUNTER_ESCAPES_UNSET);
  on_write (st);
}

/* ---- statements ----------------------------------------------------------- */

struct ref_visit
{
  struct fate_walk *w;
  struct path_state *st;
};

static bool
visit_load (gimple *, tree, tree ref, void *data)
{
  struct ref_visit *v = (struct ref_visit *) data;
  if (ref_touches_counter (v->w, ref, v->st))
    on_read (v->w, v->st, COUNTER_READ_BEFORE_SET);
  return false;
}

/* Is STMT the program's plain store of the whole counter of the object?
   *VALUE: what it stores.  */
static bool
plain_counter_store (const struct fate_walk *w, gimple *stmt, tree *value)
{
  if (!gimple_assign_single_p (stmt))
    return false;
  tree lhs = gimple_assign_lhs (stmt);
  tree ptr = ref_pointer (lhs);
  if (!ptr || !is_equal (w, ptr) || !INTEGRAL_TYPE_P (TREE_TYPE (lhs))
      || TREE_THIS_VOLATILE (lhs))
    return false;
  ao_ref counter;
  counter_ao_ref (w, ptr, &counter);
  if (!stmt_kills_ref_p (stmt, &counter))
    return false;
  *value = gimple_assign_rhs1 (stmt);
  return true;
}

/* Is CALL a deallocation of the object itself?  */
static bool
frees_object (const struct fate_walk *w, gcall *call)
{
  static const char *const names[] = {
    "kfree", "kvfree", "kfree_sensitive", "kzfree", "vfree", "free"
  };
  tree fndecl = kalloc_call_fndecl (call);
  if (!fndecl || gimple_call_num_args (call) != 1
      || !is_equal (w, gimple_call_arg (call, 0)))
    return false;
  if (fndecl_built_in_p (fndecl, BUILT_IN_FREE))
    return true;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (size_t i = 0; i < ARRAY_SIZE (names); i++)
    if (!strcmp (name, names[i]))
      return true;
  return false;
}

/* The C library's memory functions: what they read and write is their
   pointer arguments' memory, and they keep no pointer.  */
static bool
visit_memory_builtin (struct fate_walk *w, gcall *call,
		      struct path_state *st)
{
  if (!gimple_call_builtin_p (call, BUILT_IN_NORMAL))
    return false;
  int dest = -1, src = -1, src2 = -1;
  switch (DECL_FUNCTION_CODE (gimple_call_fndecl (call)))
    {
    case BUILT_IN_MEMSET:
    case BUILT_IN_BZERO:
      dest = 0;
      break;
    case BUILT_IN_MEMCPY:
    case BUILT_IN_MEMMOVE:
    case BUILT_IN_MEMPCPY:
      dest = 0;
      src = 1;
      break;
    case BUILT_IN_BCOPY:
      dest = 1;
      src = 0;
      break;
    case BUILT_IN_MEMCMP:
    case BUILT_IN_BCMP:
      src = 0;
      src2 = 1;
      break;
    default:
      return false;
    }
  if ((src >= 0 && pointer_reaches_object (w, gimple_call_arg (call, src), st))
      || (src2 >= 0
	  && pointer_reaches_object (w, gimple_call_arg (call, src2), st)))
    on_read (w, st, COUNTER_READ_BEFORE_SET);
  if (dest >= 0 && pointer_reaches_object (w, gimple_call_arg (call, dest), st))
    on_write (st);
  return true;
}

/* Does STMT hand a pointer into the object to code kalloc does not see
   (a call, an asm, memory, the caller)?  */
static bool
hands_out_object (const struct fate_walk *w, gimple *stmt)
{
  switch (gimple_code (stmt))
    {
    case GIMPLE_ASSIGN:
      return TREE_CODE (gimple_assign_lhs (stmt)) != SSA_NAME
	     && gimple_assign_single_p (stmt)
	     && names_object (w, gimple_assign_rhs1 (stmt));
    case GIMPLE_CALL:
      for (unsigned i = 0; i < gimple_call_num_args (stmt); i++)
	if (names_object (w, gimple_call_arg (stmt, i)))
	  return true;
      return false;
    case GIMPLE_RETURN:
      return names_object (w, gimple_return_retval (as_a<greturn *> (stmt)));
    case GIMPLE_ASM:
      {
	gasm *asm_stmt = as_a<gasm *> (stmt);
	for (unsigned i = 0; i < gimple_asm_ninputs (asm_stmt); i++)
	  if (names_object (w, TREE_VALUE (gimple_asm_input_op (asm_stmt, i))))
	    return true;
	return false;
      }
    default:
      return false;
    }
}

/* A call: what it may do to the object.  */
static void
visit_call (struct fate_walk *w, gcall *call, struct path_state *st)
{
  if (gimple_call_internal_p (call))
    return;			/* instrumentation, .ACCESS_WITH_SIZE */
  if (frees_object (w, call))
    {
      st->counter = STATE_UNSEEN;	/* nothing may read it now */
      return;
    }
  if (visit_memory_builtin (w, call, st))
    return;
  bool hands_out = hands_out_object (w, call);
  /* A call without virtual operands touches no memory (__builtin_expect
     () of if (unlikely (!p))); one given the object may still return it,
     which loads through the result must then respect.  */
  if (!gimple_vuse (call))
    {
      st->escaped |= hands_out;
      return;
    }
  /* Another allocation by the kernel or the C library does not touch
     this object (a wrapper's body is the program's code, and may).  */
  const struct allocator *other = alloc_find (kalloc_call_fndecl (call));
  if (!hands_out && alloc_is_library (other))
    return;
  if (hands_out)
    st->escaped = true;
  if (st->escaped)
    on_unseen_code (w, st);
}

/* One statement on a path in state ST.  */
static void
visit_stmt (struct fate_walk *w, gimple *stmt, struct path_state *st)
{
  if (is_gimple_debug (stmt))
    return;
  if (gimple_code (stmt) == GIMPLE_ASSIGN)
    note_slot_load (w, stmt);

  /* The program's own store of the counter ends the question.  */
  tree value;
  if (plain_counter_store (w, stmt, &value))
    {
      if (integer_zerop (value))
	decide (w, COUNTER_FILLED_FROM_ZERO);
      st->counter = STATE_UNSEEN;
      return;
    }

  struct ref_visit v = { w, st };
  walk_stmt_load_store_ops (stmt, &v, visit_load, NULL);

  switch (gimple_code (stmt))
    {
    case GIMPLE_ASSIGN:
      if (hands_out_object (w, stmt))
	st->escaped = true;
      if (!(TREE_CODE (gimple_assign_lhs (stmt)) == SSA_NAME)
	  && ref_touches_counter (w, gimple_assign_lhs (stmt), st))
	on_write (st);
      break;
    case GIMPLE_CALL:
      {
	tree lhs = gimple_call_lhs (stmt);
	visit_call (w, as_a<gcall *> (stmt), st);
	if (lhs && TREE_CODE (lhs) != SSA_NAME
	    && ref_touches_counter (w, lhs, st))
	  on_write (st);
	break;
      }
    case GIMPLE_RETURN:
      if (hands_out_object (w, stmt))
	st->escaped = true;
      /* The caller, and whoever it gives the object to, may read it.  */
      if (st->escaped)
	on_read (w, st, COUNTER_ESCAPES_UNSET);
      break;
    case GIMPLE_ASM:
      if (hands_out_object (w, stmt))
	st->escaped = true;
      if (st->escaped || gimple_vdef (stmt))
	on_unseen_code (w, st);
      break;
    default:
      /* Anything else that touches memory is not understood.  */
      if (gimple_vdef (stmt) || gimple_vuse (stmt))
	decide (w, COUNTER_UNDECIDED);
      break;
    }
}

/* ---- the walk ------------------------------------------------------------ */

/* Does A != 0 say whether the object's address is NULL: +1 when it
   means NULL (A = p == 0), -1 when it means not NULL (A = p), 0 when it
   says nothing?  Through conversions, __builtin_expect () (unlikely
   (!p)) and comparisons with 0, a few levels deep.  */
static int
null_when_nonzero (const struct fate_walk *w, tree a, int depth)
{
  if (TREE_CODE (a) != SSA_NAME || depth > 6)
    return 0;
  if (is_equal (w, a))
    return -1;
  gimple *def = SSA_NAME_DEF_STMT (a);
  if (gimple_call_builtin_p (def, BUILT_IN_EXPECT)
      && gimple_call_num_args (def) >= 1)
    return null_when_nonzero (w, gimple_call_arg (def, 0), depth + 1);
  if (!is_gimple_assign (def))
    return 0;
  enum tree_code code = gimple_assign_rhs_code (def);
  tree x = gimple_assign_rhs1 (def);
  if (CONVERT_EXPR_CODE_P (code) || code == SSA_NAME)
    return null_when_nonzero (w, x, depth + 1);
  if ((code == EQ_EXPR || code == NE_EXPR)
      && integer_zerop (gimple_assign_rhs2 (def)))
    {
      int sign = null_when_nonzero (w, x, depth + 1);
      return code == EQ_EXPR ? -sign : sign;
    }
  if (code == BIT_XOR_EXPR && integer_onep (gimple_assign_rhs2 (def))
      && TREE_CODE (TREE_TYPE (x)) == BOOLEAN_TYPE)
    return -null_when_nonzero (w, x, depth + 1);
  return 0;
}

/* Is E the edge taken when the object's address is NULL (if (!p), if
   (unlikely (!p)))?  No object, no counter to read there.  */
static bool
null_edge (const struct fate_walk *w, edge e)
{
  gimple_stmt_iterator gsi = gsi_last_bb (e->src);
  gimple *last = gsi_end_p (gsi) ? NULL : gsi_stmt (gsi);
  if (!last || gimple_code (last) != GIMPLE_COND)
    return false;
  gcond *cond = as_a<gcond *> (last);
  enum tree_code code = gimple_cond_code (cond);
  if (!integer_zerop (gimple_cond_rhs (cond))
      || (code != EQ_EXPR && code != NE_EXPR))
    return false;
  int sign = null_when_nonzero (w, gimple_cond_lhs (cond), 0);
  if (!sign)
    return false;
  /* The condition is true when LHS != 0 (NE) or LHS == 0 (EQ).  */
  bool true_means_nonzero = code == NE_EXPR;
  bool null_on_true = (sign > 0) == true_means_nonzero;
  return e->flags & (null_on_true ? EDGE_TRUE_VALUE : EDGE_FALSE_VALUE);
}

/* Join FROM into the entry state of BB; true when it changed.  */
static bool
join_state (struct path_state *entry, const struct path_state *from)
{
  struct path_state old = *entry;
  if (from->counter > entry->counter)
    entry->counter = from->counter;
  entry->escaped |= from->escaped;
  return old.counter != entry->counter || old.escaped != entry->escaped;
}

/* Per function: each block's position in reverse post-order (the walk
   takes the earliest pending block first, so the reason it gives is the
   first in the program's order), and each block's entry state, stamped
   with the walk it belongs to so no site clears what another left.  */
static int *rpo_position;
static int *rpo_block;		/* the block at each position */
static struct path_state *entry_state;
static unsigned *entry_walk;
static int blocks_known;
static unsigned walk_number;

void
counter_fate_reset_function (void)
{
  XDELETEVEC (rpo_position);
  XDELETEVEC (rpo_block);
  XDELETEVEC (entry_state);
  XDELETEVEC (entry_walk);
  rpo_position = NULL;
  rpo_block = NULL;
  entry_state = NULL;
  entry_walk = NULL;
  blocks_known = 0;
}

/* Made at the first site of a function, before any site is rewritten.  */
static void
blocks_prepare (void)
{
  if (rpo_position)
    return;
  blocks_known = last_basic_block_for_fn (cfun);
  rpo_position = XNEWVEC (int, blocks_known);
  entry_state = XNEWVEC (struct path_state, blocks_known);
  entry_walk = XCNEWVEC (unsigned, blocks_known);
  rpo_block = XNEWVEC (int, n_basic_blocks_for_fn (cfun));
  int n = pre_and_rev_post_order_compute_fn (cfun, NULL, rpo_block, false);
  for (int i = 0; i < blocks_known; i++)
    rpo_position[i] = INT_MAX;
  for (int i = 0; i < n; i++)
    rpo_position[rpo_block[i]] = i;
}

static struct path_state *
entry_of (basic_block bb)
{
  gcc_checking_assert (bb->index < blocks_known);
  if (entry_walk[bb->index] != walk_number)
    {
      entry_walk[bb->index] = walk_number;
      entry_state[bb->index].counter = STATE_UNSEEN;
      entry_state[bb->index].escaped = false;
    }
  return &entry_state[bb->index];
}

static void
walk_from_call (struct fate_walk *w, struct path_state start)
{
  blocks_prepare ();
  walk_number++;
  /* Pending blocks by RPO position; the call's own block once more only
     when a loop brings the walk back to it.  */
  auto_bitmap pending;
  basic_block call_bb = gimple_bb (w->call);
  struct path_state st = start;
  gimple_stmt_iterator gsi = gsi_for_stmt (w->call);
  gsi_next (&gsi);
  basic_block bb = call_bb;
  for (;;)
    {
      for (; !gsi_end_p (gsi) && st.counter != STATE_UNSEEN; gsi_next (&gsi))
	{
	  gimple *stmt = gsi_stmt (gsi);
	  if (stmt == w->call)
	    {
	      /* The next execution is another object; this one may stay
		 reachable by code kalloc does not see.  */
	      if (st.escaped)
		on_read (w, &st, COUNTER_ESCAPES_UNSET);
	      st.counter = STATE_UNSEEN;
	      break;
	    }
	  if (--w->budget < 0)
	    decide (w, COUNTER_UNDECIDED);
	  visit_stmt (w, stmt, &st);
	  if (w->verdict != COUNTER_SET_HERE)
	    return;
	}
      if (st.counter != STATE_UNSEEN)
	{
	  edge e;
	  edge_iterator ei;
	  FOR_EACH_EDGE (e, ei, bb->succs)
	    {
	      if (e->dest == EXIT_BLOCK_PTR_FOR_FN (cfun) || null_edge (w, e))
		continue;
	      if (e->flags & (EDGE_ABNORMAL | EDGE_EH))
		{
		  decide (w, COUNTER_UNDECIDED);
		  return;
		}
	      struct path_state *entry = entry_of (e->dest);
	      bool unseen = entry->counter == STATE_UNSEEN;
	      int pos = rpo_position[e->dest->index];
	      if ((join_state (entry, &st) || unseen) && pos != INT_MAX)
		bitmap_set_bit (pending, pos);
	    }
	}
      if (bitmap_empty_p (pending))
	return;
      int pos = bitmap_first_set_bit (pending);
      bitmap_clear_bit (pending, pos);
      bb = BASIC_BLOCK_FOR_FN (cfun, rpo_block[pos]);
      st = *entry_of (bb);
      gsi = gsi_start_bb (bb);
    }
}

/* May kalloc store SITE's counter (and check its range)?  COUNTER_SET_HERE
   when it may; otherwise why not.  ZEROED: the allocator may zero the
   block.  */
enum counter_fate
counter_fate_of (const struct alloc_site *site, bool zeroed)
{
  tree lhs = gimple_call_lhs (site->call);
  if (!lhs || !site->pointee || !RECORD_OR_UNION_TYPE_P (site->pointee))
    return COUNTER_UNDECIDED;

  struct fate_walk w;
  memset (&w, 0, sizeof w);
  w.call = site->call;
  w.flex = &site->flex;
  w.record = TYPE_MAIN_VARIANT (site->pointee);
  w.budget = FATE_WALK_BUDGET;
  w.verdict = COUNTER_SET_HERE;
  auto_bitmap derived, equal;
  w.derived = derived;
  w.equal = equal;

  struct path_state start;
  start.counter = zeroed ? STATE_DEFINED : STATE_INDETERMINATE;
  start.escaped = false;
  if (TREE_CODE (lhs) == SSA_NAME)
    add_name (&w, lhs, true);
  else
    {
      /* Stored straight into memory: code kalloc does not see may read
	 it from there (a cleanup's &p, a global).  */
      w.slot = lhs;
      start.escaped = true;
    }
  walk_from_call (&w, start);
  return w.verdict;
}

/* The words the dump and the report use for each reason.  */
const char *
counter_fate_name (enum counter_fate fate)
{
  switch (fate)
    {
    case COUNTER_SET_HERE:
      return NULL;
    case COUNTER_FILLED_FROM_ZERO:
      return "filled from zero";
    case COUNTER_READ_BEFORE_SET:
      return "read before set";
    case COUNTER_ESCAPES_UNSET:
      return "escapes before set";
    case COUNTER_UNDECIDED:
      return "not decided";
    }
  gcc_unreachable ();
}
