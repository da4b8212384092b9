/*
 * pointee.c - which type an allocation is for, from where its result goes.
 *
 * The call returns void *; the type comes from what the program does
 * with the value: the pointer it is assigned to (a local, a global, a
 * struct field), the function's return type, following copies, casts
 * and PHI nodes (the 6.10+ alloc_hooks () macro passes the result
 * through a statement-expression temporary).  Destinations that disagree
 * give no type, and neither does an untyped pointer that is offset (fs/
 * select.c's one kvmalloc () cut into six bitmaps): kalloc only reasons
 * about what it is sure of.
 */
#include "kalloc.h"

#define POINTEE_WALK_DEPTH 8
#define POINTEE_VISIT_MAX 32

/* Can kalloc reason about objects of TYPE?  Byte buffers (void, char,
   u8) and incomplete or variable-sized types are untyped.  */
bool
pointee_is_typed (tree type)
{
  if (!type || TREE_CODE (type) == VOID_TYPE || TREE_CODE (type) == FUNCTION_TYPE
      || TREE_CODE (type) == METHOD_TYPE || TREE_CODE (type) == ERROR_MARK)
    return false;
  if (!COMPLETE_TYPE_P (type) || !TYPE_SIZE_UNIT (type)
      || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (type))
      || integer_zerop (TYPE_SIZE_UNIT (type)))
    return false;
  if (INTEGRAL_TYPE_P (type) && TYPE_PRECISION (type) <= BITS_PER_UNIT)
    return false;
  return true;
}

struct pointee_walk
{
  bool bytes;			/* byte types count as types too */
  tree type;			/* the type found so far */
  tree dest;			/* where it was found */
  bool conflict;		/* two destinations disagree */
  bool carved;			/* an untyped pointer is offset: a buffer
				   cut into pieces, not one typed object */
  int visited[POINTEE_VISIT_MAX];
  int nvisited;
};

/* Is TYPE a type for WALK: typed, or in a bytes walk, a byte type.  */
static bool
walk_accepts (const struct pointee_walk *walk, tree type)
{
  if (pointee_is_typed (type))
    return true;
  return walk->bytes && type && INTEGRAL_TYPE_P (type)
	 && COMPLETE_TYPE_P (type);
}

/* Record that the value is stored as a pointer of type PTR_TYPE into
   DEST.  Untyped destinations say nothing.  */
static void
note_destination (struct pointee_walk *walk, tree ptr_type, tree dest)
{
  if (!POINTER_TYPE_P (ptr_type))
    return;
  tree type = TREE_TYPE (ptr_type);
  if (!walk_accepts (walk, type))
    return;
  if (!walk->type)
    {
      walk->type = type;
      walk->dest = dest;
    }
  else if (TYPE_MAIN_VARIANT (walk->type) != TYPE_MAIN_VARIANT (type))
    walk->conflict = true;
}

static bool
already_visited (struct pointee_walk *walk, tree name)
{
  int version = SSA_NAME_VERSION (name);
  for (int i = 0; i < walk->nvisited; i++)
    if (walk->visited[i] == version)
      return true;
  if (walk->nvisited == POINTEE_VISIT_MAX)
    return true;
  walk->visited[walk->nvisited++] = version;
  return false;
}

/* A user variable behind an SSA name, for messages.  */
static tree
named_variable (tree name)
{
  tree var = SSA_NAME_VAR (name);
  if (var && DECL_P (var) && DECL_NAME (var) && !DECL_ARTIFICIAL (var))
    return var;
  return NULL_TREE;
}

static void walk_value (struct pointee_walk *walk, tree name, int depth);

/* Where does the use of NAME in STMT take it?  */
static void
walk_use (struct pointee_walk *walk, tree name, gimple *stmt, int depth)
{
  if (gassign *assign = dyn_cast<gassign *> (stmt))
    {
      tree lhs = gimple_assign_lhs (assign);
      enum tree_code code = gimple_assign_rhs_code (assign);
      if (gimple_assign_rhs1 (assign) != name)
	return;
      if (code == POINTER_PLUS_EXPR)
	{
	  walk->carved = true;
	  return;
	}
      if (TREE_CODE (lhs) == SSA_NAME
	  && (code == SSA_NAME || CONVERT_EXPR_CODE_P (code)))
	walk_value (walk, lhs, depth + 1);
      else if (TREE_CODE (lhs) != SSA_NAME && code == SSA_NAME)
	note_destination (walk, TREE_TYPE (lhs), lhs);	/* a store */
    }
  else if (gphi *phi = dyn_cast<gphi *> (stmt))
    walk_value (walk, gimple_phi_result (phi), depth + 1);
  else if (gimple_code (stmt) == GIMPLE_RETURN)
    {
      tree result = DECL_RESULT (current_function_decl);
      if (result)
	note_destination (walk, TREE_TYPE (result), NULL_TREE);
    }
}

static void
walk_value (struct pointee_walk *walk, tree name, int depth)
{
  if (depth > POINTEE_WALK_DEPTH || already_visited (walk, name))
    return;
  tree type = TREE_TYPE (name);
  if (POINTER_TYPE_P (type) && walk_accepts (walk, TREE_TYPE (type)))
    {
      /* The value is typed here: later casts are the program's own.  */
      note_destination (walk, type, named_variable (name));
      return;
    }
  imm_use_iterator iter;
  use_operand_p use;
  FOR_EACH_IMM_USE_FAST (use, iter, name)
    {
      gimple *stmt = USE_STMT (use);
      if (!is_gimple_debug (stmt))
	walk_use (walk, name, stmt, depth);
    }
}

static tree
infer (gcall *call, tree *dest, bool bytes)
{
  struct pointee_walk walk;
  memset (&walk, 0, sizeof walk);
  walk.bytes = bytes;
  *dest = NULL_TREE;

  tree lhs = gimple_call_lhs (call);
  if (!lhs)
    return NULL_TREE;
  if (TREE_CODE (lhs) == SSA_NAME)
    walk_value (&walk, lhs, 0);
  else
    note_destination (&walk, TREE_TYPE (lhs), lhs);

  if (walk.conflict || walk.carved || !walk.type)
    return NULL_TREE;
  *dest = walk.dest;
  return walk.type;
}

/* The type CALL's result is an object of, or NULL_TREE.  *DEST is set
   to the variable or reference it is stored in, when there is one.  */
tree
pointee_infer (gcall *call, tree *dest)
{
  return infer (call, dest, false);
}

/* The same with byte types (u8, char) as types: what the pointer the
   result goes to is declared as, for suggest's exclusions.  */
tree
pointee_infer_declared (gcall *call)
{
  tree dest;
  return infer (call, &dest, true);
}
