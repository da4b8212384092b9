/*
 * wrappers.c - allocator wrappers, learnt from their bodies or read from
 * a wrapper file.
 *
 * A function is a wrapper when every value it returns is the result of
 * a call to a known allocator (or NULL), and that call's size (and
 * count) arguments are the function's own parameters, passed through
 * unchanged (copies and conversions that keep every bit).  Its GFP role
 * is a parameter passed through as the inner GFP argument, constant
 * flags or'ed in or not (kcalloc () is kmalloc_array (..., flags |
 * __GFP_ZERO) in 6.10+).  The result
 * may be compared and memset (), nothing else: a result that is stored
 * elsewhere, offset or passed to another function makes no wrapper.
 * Several allocator calls are fine when they agree on the roles
 * (kvmalloc ()-style: vmalloc (size) or kmalloc (size, gfp)).
 *
 * Only pass-through parameters are roles, because the caller's hardening
 * saturates the size to SIZE_MAX, which must make the inner allocation
 * fail: size + HDR or n * size computed inside would wrap back to a small
 * number.  For the same reason the parameter must be as wide as the inner
 * size argument (a u32 size would turn SIZE_MAX into 4 GiB - 1).
 * Wrappers of resizing allocators (krealloc (), realloc ()) are left out:
 * a wrapper file could not say that their counters are the code's.
 *
 * GCC runs kalloc's pass function by function, callees before callers
 * (ipa_reverse_postorder ()), so a wrapper is learnt before the calls to
 * it are looked at; a wrapper seen after its caller (recursion, or an
 * always_inline wrapper around a wrapper that is not) is found nowhere.
 *
 * A wrapper file (-fplugin-arg-kalloc-wrappers=FILE) has one wrapper a
 * line, NAME:ROLE,ROLE,... as alloc= takes it; '#' starts a comment.
 */
#include "kalloc.h"

/* What the function's returned values have shown so far.  */
struct learning
{
  const struct allocator *inner;	/* the first inner allocator */
  int calls;			/* inner allocator calls seen */
  int size_pos, count_pos, gfp_pos;	/* parameter positions, or -1 */
  auto_sbitmap *seen;		/* SSA names looked at */
};

#define GFP_UNSEEN (-2)		/* no inner allocator with GFP flags yet */

/* The position of the parameter whose incoming value T is, or -1.  With
   EXACT, only through copies and conversions that keep the precision;
   else also with constant bits or'ed in (flags | __GFP_ZERO).  */
static int
param_position (tree t, bool exact)
{
  while (TREE_CODE (t) == SSA_NAME && !SSA_NAME_IS_DEFAULT_DEF (t))
    {
      gimple *def = SSA_NAME_DEF_STMT (t);
      if (!is_gimple_assign (def))
	return -1;
      enum tree_code code = gimple_assign_rhs_code (def);
      tree from = gimple_assign_rhs1 (def);
      if (!exact && code == BIT_IOR_EXPR
	  && TREE_CODE (gimple_assign_rhs2 (def)) == INTEGER_CST)
	{
	  t = from;
	  continue;
	}
      if (code != SSA_NAME && !CONVERT_EXPR_CODE_P (code))
	return -1;
      if (exact && (!INTEGRAL_TYPE_P (TREE_TYPE (from))
		    || TYPE_PRECISION (TREE_TYPE (from))
		       != TYPE_PRECISION (TREE_TYPE (t))))
	return -1;
      t = from;
    }
  if (TREE_CODE (t) != SSA_NAME || !SSA_NAME_VAR (t)
      || TREE_CODE (SSA_NAME_VAR (t)) != PARM_DECL)
    return -1;
  int pos = 0;
  for (tree parm = DECL_ARGUMENTS (current_function_decl); parm;
       parm = DECL_CHAIN (parm), pos++)
    if (parm == SSA_NAME_VAR (t))
      return pos;
  return -1;
}

/* CALL's result is returned: is it an allocator call whose roles are
   parameters, agreeing with the calls seen before?  */
static bool
note_inner_call (struct learning *l, gcall *call)
{
  const struct allocator *row = alloc_find (kalloc_call_fndecl (call));
  unsigned nargs = gimple_call_num_args (call);
  if (!row || row->resize || (unsigned) row->size_arg >= nargs
      || (row->count_arg >= 0 && (unsigned) row->count_arg >= nargs)
      || (row->gfp_arg >= 0 && (unsigned) row->gfp_arg >= nargs))
    return false;
  tree size = gimple_call_arg (call, row->size_arg);
  if (!INTEGRAL_TYPE_P (TREE_TYPE (size)))
    return false;
  int size_pos = param_position (size, true);
  int count_pos = row->count_arg >= 0
		  ? param_position (gimple_call_arg (call, row->count_arg),
				    true) : -1;
  int gfp_pos = row->gfp_arg >= 0
		? param_position (gimple_call_arg (call, row->gfp_arg),
				  false) : -1;
  if (size_pos < 0 || (row->count_arg >= 0 && count_pos < 0)
      || size_pos == count_pos)
    return false;
  if (gfp_pos == size_pos || gfp_pos == count_pos)
    gfp_pos = -1;
  /* The GFP role: what every inner allocator with GFP flags gets.  */
  if (row->gfp_arg >= 0)
    l->gfp_pos = l->gfp_pos == GFP_UNSEEN || l->gfp_pos == gfp_pos
		 ? gfp_pos : -1;
  if (l->calls++ == 0)
    {
      l->inner = row;
      l->size_pos = size_pos;
      l->count_pos = count_pos;
      return true;
    }
  return size_pos == l->size_pos && count_pos == l->count_pos;
}

/* Is T, returned, NULL or an inner allocator's result?  */
static bool
returned_value (struct learning *l, tree t)
{
  if (integer_zerop (t))
    return true;
  if (TREE_CODE (t) != SSA_NAME)
    return false;
  if (bitmap_bit_p (*l->seen, SSA_NAME_VERSION (t)))
    return true;
  bitmap_set_bit (*l->seen, SSA_NAME_VERSION (t));

  gimple *def = SSA_NAME_DEF_STMT (t);
  if (gphi *phi = dyn_cast<gphi *> (def))
    {
      for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
	if (!returned_value (l, gimple_phi_arg_def (phi, i)))
	  return false;
      return true;
    }
  if (gcall *call = dyn_cast<gcall *> (def))
    return gimple_call_lhs (call) == t && note_inner_call (l, call);
  if (!is_gimple_assign (def))
    return false;
  enum tree_code code = gimple_assign_rhs_code (def);
  tree from = gimple_assign_rhs1 (def);
  if (code == INTEGER_CST)
    return integer_zerop (from);
  if ((code == SSA_NAME || CONVERT_EXPR_CODE_P (code))
      && POINTER_TYPE_P (TREE_TYPE (from)))
    return returned_value (l, from);
  return false;
}

/* Does the block NAME points to stay the caller's: is NAME (or a copy
   of it) only compared, memset () or returned?  */
static bool
result_stays (tree name, sbitmap checked)
{
  if (bitmap_bit_p (checked, SSA_NAME_VERSION (name)))
    return true;
  bitmap_set_bit (checked, SSA_NAME_VERSION (name));
  imm_use_iterator iter;
  use_operand_p use_p;
  FOR_EACH_IMM_USE_FAST (use_p, iter, name)
    {
      gimple *use = USE_STMT (use_p);
      if (is_gimple_debug (use) || gimple_code (use) == GIMPLE_RETURN
	  || gimple_code (use) == GIMPLE_COND)
	continue;
      if (gphi *phi = dyn_cast<gphi *> (use))
	{
	  if (!result_stays (gimple_phi_result (phi), checked))
	    return false;
	  continue;
	}
      if (gcall *call = dyn_cast<gcall *> (use))
	{
	  /* memset (p, 0, size): only as the block, result unused.  */
	  if (!gimple_call_builtin_p (call, BUILT_IN_MEMSET)
	      || gimple_call_lhs (call) || gimple_call_arg (call, 0) != name
	      || gimple_call_arg (call, 1) == name
	      || gimple_call_arg (call, 2) == name)
	    return false;
	  continue;
	}
      if (!is_gimple_assign (use))
	return false;
      enum tree_code code = gimple_assign_rhs_code (use);
      tree lhs = gimple_assign_lhs (use);
      if (TREE_CODE_CLASS (code) == tcc_comparison)
	continue;
      if ((code == SSA_NAME || CONVERT_EXPR_CODE_P (code))
	  && TREE_CODE (lhs) == SSA_NAME && POINTER_TYPE_P (TREE_TYPE (lhs)))
	{
	  if (!result_stays (lhs, checked))
	    return false;
	  continue;
	}
      return false;
    }
  return true;
}

/* Is FUN a wrapper?  Then add its row, report it and return true.  */
bool
wrapper_learn (function *fun)
{
  tree decl = fun->decl;
  if (!DECL_NAME (decl) || !POINTER_TYPE_P (TREE_TYPE (DECL_RESULT (decl))))
    return false;

  auto_sbitmap seen (num_ssa_names);
  bitmap_clear (seen);
  struct learning l = { NULL, 0, -1, -1, GFP_UNSEEN, &seen };
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    {
      greturn *ret = safe_dyn_cast<greturn *> (gsi_stmt (gsi_last_bb (bb)));
      if (!ret)
	continue;
      tree value = gimple_return_retval (ret);
      if (!value || !returned_value (&l, value))
	return false;
    }
  if (!l.calls)
    return false;

  /* Every inner call's result stays the caller's.  */
  auto_sbitmap checked (num_ssa_names);
  bitmap_clear (checked);
  for (unsigned i = 1; i < num_ssa_names; i++)
    {
      tree name = ssa_name (i);
      if (!name || !bitmap_bit_p (seen, i))
	continue;
      gcall *call = dyn_cast<gcall *> (SSA_NAME_DEF_STMT (name));
      if (call && !result_stays (name, checked))
	return false;
    }

  struct allocator *row = XNEW (struct allocator);
  row->name = xstrdup (IDENTIFIER_POINTER (DECL_NAME (decl)));
  row->size_arg = l.size_pos;
  row->count_arg = l.count_pos;
  row->gfp_arg = MAX (l.gfp_pos, -1);
  row->family = NULL;		/* upstream's typed forms are kmalloc's */
  row->resize = false;
  alloc_add_wrapper (row);
  report_wrapper (row, decl, l.inner);
  if (dump_file)
    {
      char roles[64];
      alloc_roles_text (row, roles, sizeof roles);
      fprintf (dump_file, "kalloc: wrapper %s:%s calls %s\n", row->name,
	       roles, l.inner->name);
    }
  return true;
}

/* Read the wrapper file FILE: its rows are allocators as alloc= rows
   are.  Says what is wrong (file:line) and returns false when it
   cannot be read or a line is bad.  */
bool
wrappers_read_file (const char *file)
{
  FILE *in = fopen (file, "r");
  if (!in)
    {
      error ("kalloc: cannot read wrapper file %qs: %m", file);
      return false;
    }
  char *line = NULL;
  size_t size = 0;
  int lineno = 0;
  bool ok = true;
  ssize_t got;
  while ((got = getline (&line, &size, in)) >= 0)
    {
      lineno++;
      if ((size_t) got != strlen (line))
	{
	  error ("kalloc: %s:%d: NUL byte in the wrapper file", file, lineno);
	  ok = false;
	  continue;
	}
      char *end = strchr (line, '#');
      if (!end)
	end = line + strlen (line);
      while (end > line && ISSPACE (end[-1]))
	end--;
      *end = 0;
      char *spec = line;
      while (ISSPACE (*spec))
	spec++;
      char origin[PATH_MAX + 32];
      snprintf (origin, sizeof origin, "%s:%d", file, lineno);
      if (*spec && !alloc_add_user (spec, origin))
	{
	  error ("kalloc: %s:%d: bad wrapper line %qs: expected "
		 "%<NAME:ROLE,ROLE,...%> where each ROLE is %<size%>, "
		 "%<count%>, %<gfp%> or %<_%>", file, lineno, spec);
	  ok = false;
	}
    }
  if (ferror (in))
    {
      error ("kalloc: cannot read wrapper file %qs: %m", file);
      ok = false;
    }
  free (line);
  fclose (in);
  return ok;
}
