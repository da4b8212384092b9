/*
 * size.c - what an allocation size is made of.
 *
 * The size argument is followed back through its SSA definitions into a
 * small tree of sums and products: wrapping arithmetic the program wrote
 * (n * sizeof (*p) + 16), the kernel's saturating helpers (size_mul (),
 * size_add (), array_size (), __ab_c_size ()), constants, and leaves
 * kalloc does not look into.  Only arithmetic in the size's own unsigned
 * type is followed, so that a leaf is exactly what the program converted
 * to size_t (a widened count stays a leaf).
 *
 * C's size_t arithmetic is modular, and a term converted from a signed
 * type (int adj = -3) or a constant GCC wrote wrapped (x - 4 is
 * x + 0xff..fc) may stand for a negative number: its sum is a
 * subtraction, not a carry.  Such leaves keep their signed value, so
 * that the rewrites can tell the sums and products the program means
 * (docs/rewrites.md) from the ones that overflow.
 */
#include "kalloc.h"

#define SIZE_PARSE_DEPTH 8

/* The kernel's size helpers, which return SIZE_MAX on overflow.  */
struct size_helper
{
  const char *name;
  int nargs;
  enum size_op outer;		/* op of the result */
  enum size_op inner;		/* op of the first two args, for 3-arg ones */
};

static const struct size_helper size_helpers[] = {
  { "size_mul",     2, SIZE_SAT_MUL, SIZE_LEAF },
  { "size_add",     2, SIZE_SAT_ADD, SIZE_LEAF },
  { "array_size",   2, SIZE_SAT_MUL, SIZE_LEAF },
  { "array3_size",  3, SIZE_SAT_MUL, SIZE_SAT_MUL },
  { "__ab_c_size",  3, SIZE_SAT_ADD, SIZE_SAT_MUL },
  /* include/kalloc.h's typed allocators.  */
  { "__kalloc_size_mul", 2, SIZE_SAT_MUL, SIZE_LEAF },
  { "__kalloc_size_add", 2, SIZE_SAT_ADD, SIZE_LEAF },
};

static const struct size_helper *
find_size_helper (const gimple *stmt)
{
  tree fndecl = kalloc_call_fndecl (stmt);
  if (!fndecl || !DECL_NAME (fndecl))
    return NULL;
  const char *name = IDENTIFIER_POINTER (DECL_NAME (fndecl));
  for (size_t i = 0; i < ARRAY_SIZE (size_helpers); i++)
    if (!strcmp (size_helpers[i].name, name)
	&& gimple_call_num_args (stmt) == (unsigned) size_helpers[i].nargs)
      return &size_helpers[i];
  return NULL;
}

static int
add_node (struct size_expr *expr, enum size_op op, tree value, int a, int b)
{
  if (expr->count >= SIZE_EXPR_MAX)
    return -1;
  struct size_node *node = &expr->node[expr->count];
  node->op = op;
  node->value = value;
  node->signed_value = NULL_TREE;
  node->a = a;
  node->b = b;
  return expr->count++;
}

/* Is TYPE the size type's own arithmetic: unsigned, same precision?  */
static bool
same_arith_type (const struct size_expr *expr, tree type)
{
  return INTEGRAL_TYPE_P (type) && TYPE_UNSIGNED (type)
	 && TYPE_PRECISION (type) == TYPE_PRECISION (expr->type);
}

/* Does the unsigned constant CST stand for a negative number, as
   "x - 4" is written "x + 0xff..fc" in GIMPLE?  */
static bool
is_wrapped_negative (tree cst)
{
  return TREE_CODE (cst) == INTEGER_CST
	 && wi::neg_p (wi::to_wide (cst), SIGNED);
}

static int parse (struct size_expr *expr, tree t, int depth);

/* Does converting a value of TYPE to the size type keep its sign (a
   signed type no wider: the conversion sign-extends or keeps the bits)?  */
static bool
sign_extends (const struct size_expr *expr, tree type)
{
  return INTEGRAL_TYPE_P (type) && !TYPE_UNSIGNED (type)
	 && TYPE_PRECISION (type) <= TYPE_PRECISION (expr->type);
}

/* How kalloc can read a value of the size type that it does not look
   into (a PHI, a conditional, a minimum).  */
enum value_sign
{
  SIGN_UNSIGNED,		/* what it holds is what it means */
  SIGN_SIGNED,			/* may stand for a negative number, and its
				   bits read as signed are that number:
				   c ? -8 : 8, a sign-extended int */
  SIGN_UNKNOWN			/* may be negative, after arithmetic that
				   may have wrapped: neither reading is
				   exact (GCC folds (c ? a : b) * 8 into the
				   arms of the conditional) */
};

static enum value_sign
sign_join (enum value_sign a, enum value_sign b)
{
  return a > b ? a : b;
}

/* PHIs being looked into: a loop brings value_sign () back to one, and
   a cycle adds no value of its own (i = PHI <0, i + 1>).  */
struct phi_path
{
  gphi *phi[SIZE_PARSE_DEPTH + 2];
  int depth;
};

static enum value_sign value_sign_1 (const struct size_expr *expr, tree t,
				     int depth, struct phi_path *path);

static enum value_sign value_sign_1 (const struct size_expr *expr, tree t,
				     int depth, struct phi_path *path);

/* The sign of PHI's arguments joined; a PHI already on PATH (a loop)
   adds nothing.  */
static enum value_sign
phi_sign (const struct size_expr *expr, gphi *phi, int depth,
	  struct phi_path *path)
{
  for (int i = 0; i < path->depth; i++)
    if (path->phi[i] == phi)
      return SIGN_UNSIGNED;
  path->phi[path->depth++] = phi;
  enum value_sign sign = SIGN_UNSIGNED;
  for (unsigned i = 0; i < gimple_phi_num_args (phi); i++)
    sign = sign_join (sign, value_sign_1 (expr, gimple_phi_arg_def (phi, i),
					depth + 1, path));
  path->depth--;
  return sign;
}

/* T's sign, as kalloc may read it (enum value_sign).  */
static enum value_sign
value_sign (const struct size_expr *expr, tree t, int depth)
{
  struct phi_path path;
  path.depth = 0;
  return value_sign_1 (expr, t, depth, &path);
}

static enum value_sign
value_sign_1 (const struct size_expr *expr, tree t, int depth,
	      struct phi_path *path)
{
  if (TREE_CODE (t) == INTEGER_CST)
    return is_wrapped_negative (fold_convert (expr->type, t))
	   ? SIGN_SIGNED : SIGN_UNSIGNED;
  if (TREE_CODE (t) != SSA_NAME)
    return SIGN_UNSIGNED;
  if (depth > SIZE_PARSE_DEPTH)
    return SIGN_UNKNOWN;
  gimple *def = SSA_NAME_DEF_STMT (t);
  if (gphi *phi = dyn_cast<gphi *> (def))
    return phi_sign (expr, phi, depth, path);
  if (!is_gimple_assign (def))
    return SIGN_UNSIGNED;	/* a load, a call's size_t result */
  tree rhs1 = gimple_assign_rhs1 (def);
  switch (gimple_assign_rhs_code (def))
    {
    case INTEGER_CST:
    case SSA_NAME:
      return value_sign_1 (expr, rhs1, depth + 1, path);
    CASE_CONVERT:
      if (same_arith_type (expr, TREE_TYPE (rhs1)))
	return value_sign_1 (expr, rhs1, depth + 1, path);
      return sign_extends (expr, TREE_TYPE (rhs1))
	     ? SIGN_SIGNED : SIGN_UNSIGNED;
    case NEGATE_EXPR:
    case MINUS_EXPR:
    case BIT_NOT_EXPR:
      return SIGN_UNKNOWN;
    case PLUS_EXPR:
    case MULT_EXPR:
      {
	enum value_sign sign
	  = sign_join (value_sign_1 (expr, rhs1, depth + 1, path),
		       value_sign_1 (expr, gimple_assign_rhs2 (def), depth + 1,
				     path));
	return sign == SIGN_UNSIGNED ? SIGN_UNSIGNED : SIGN_UNKNOWN;
      }
    case MIN_EXPR:
    case MAX_EXPR:
      return sign_join (value_sign_1 (expr, rhs1, depth + 1, path),
			value_sign_1 (expr, gimple_assign_rhs2 (def),
				    depth + 1, path));
    case COND_EXPR:
      return sign_join (value_sign_1 (expr, gimple_assign_rhs2 (def),
				    depth + 1, path),
			value_sign_1 (expr, gimple_assign_rhs3 (def),
				    depth + 1, path));
    default:
      return SIGN_UNSIGNED;
    }
}

/* A leaf for T, of the size type: signed when it may be negative; a
   value whose sign cannot be read makes the whole size one kalloc does
   not understand (size_parse () leaves it as the program has it).  */
static int
add_leaf (struct size_expr *expr, tree t)
{
  int n = add_node (expr, SIZE_LEAF, t, -1, -1);
  if (n < 0)
    return n;
  switch (value_sign (expr, t, 0))
    {
    case SIGN_SIGNED:
      expr->node[n].signed_value = t;
      break;
    case SIGN_UNKNOWN:
      expr->unknown_sign = true;
      break;
    default:
      break;
    }
  return n;
}

static bool
is_wrapping_op (enum size_op op)
{
  return op == SIZE_ADD || op == SIZE_SUB || op == SIZE_MUL;
}

/* In the program's own wrapping arithmetic, a wrapped negative constant
   is that negative number; a saturating helper takes it as it is.  */
static void
note_negative_constant (struct size_expr *expr, enum size_op op, int n)
{
  struct size_node *node = &expr->node[n];
  if (is_wrapping_op (op) && node->op == SIZE_CONST
      && is_wrapped_negative (node->value))
    node->signed_value = fold_convert (signed_type_for (expr->type),
				       node->value);
}

static int
parse_binary (struct size_expr *expr, enum size_op op, tree value, tree a,
	      tree b, int depth)
{
  int na = parse (expr, a, depth + 1);
  int nb = parse (expr, b, depth + 1);
  if (na < 0 || nb < 0)
    return -1;
  note_negative_constant (expr, op, na);
  note_negative_constant (expr, op, nb);
  return add_node (expr, op, value, na, nb);
}

/* T converts the signed SOURCE to the size type: a leaf whose value is
   SOURCE's, negative or not, when the conversion sign-extends it (or
   keeps its width); a narrowing conversion is the program's modulo.  */
static int
add_converted_leaf (struct size_expr *expr, tree t, tree source)
{
  int n = add_node (expr, SIZE_LEAF, t, -1, -1);
  if (n >= 0 && sign_extends (expr, TREE_TYPE (source)))
    expr->node[n].signed_value = source;
  return n;
}

static int
parse_helper_call (struct size_expr *expr, gimple *stmt,
		   const struct size_helper *helper, int depth)
{
  tree value = gimple_call_lhs (stmt);
  if (!value || !same_arith_type (expr, TREE_TYPE (value)))
    return add_node (expr, SIZE_LEAF, value, -1, -1);
  for (int i = 0; i < helper->nargs; i++)
    if (!same_arith_type (expr, TREE_TYPE (gimple_call_arg (stmt, i))))
      return add_node (expr, SIZE_LEAF, value, -1, -1);

  if (helper->nargs == 2)
    return parse_binary (expr, helper->outer, value, gimple_call_arg (stmt, 0),
			 gimple_call_arg (stmt, 1), depth);

  int inner = parse_binary (expr, helper->inner, NULL_TREE,
			    gimple_call_arg (stmt, 0),
			    gimple_call_arg (stmt, 1), depth);
  int last = parse (expr, gimple_call_arg (stmt, 2), depth + 1);
  if (inner < 0 || last < 0)
    return -1;
  return add_node (expr, helper->outer, value, inner, last);
}

static int
parse (struct size_expr *expr, tree t, int depth)
{
  if (TREE_CODE (t) == INTEGER_CST)
    return add_node (expr, SIZE_CONST, t, -1, -1);
  if (TREE_CODE (t) != SSA_NAME || depth > SIZE_PARSE_DEPTH
      || !same_arith_type (expr, TREE_TYPE (t)))
    return add_node (expr, SIZE_LEAF, t, -1, -1);

  gimple *def = SSA_NAME_DEF_STMT (t);
  if (is_gimple_call (def))
    {
      const struct size_helper *helper = find_size_helper (def);
      if (helper)
	return parse_helper_call (expr, def, helper, depth);
      return add_node (expr, SIZE_LEAF, t, -1, -1);
    }
  if (!is_gimple_assign (def))
    return add_leaf (expr, t);

  enum tree_code code = gimple_assign_rhs_code (def);
  tree rhs1 = gimple_assign_rhs1 (def);
  switch (code)
    {
    case MULT_EXPR:
      return parse_binary (expr, SIZE_MUL, t, rhs1, gimple_assign_rhs2 (def),
			   depth);
    case PLUS_EXPR:
      return parse_binary (expr, SIZE_ADD, t, rhs1, gimple_assign_rhs2 (def),
			   depth);
    case MINUS_EXPR:
      return parse_binary (expr, SIZE_SUB, t, rhs1, gimple_assign_rhs2 (def),
			   depth);
    case NEGATE_EXPR:
      return parse_binary (expr, SIZE_SUB, t, build_zero_cst (expr->type),
			   rhs1, depth);
    case BIT_NOT_EXPR:
      /* ~x is -1 - x: GCC folds (-4 - 4 * x) * 12 into ~x * 48.  */
      return parse_binary (expr, SIZE_SUB, t,
			   build_all_ones_cst (expr->type), rhs1, depth);
    case SSA_NAME:
    CASE_CONVERT:
      /* A copy, or a conversion that keeps every bit.  */
      if (same_arith_type (expr, TREE_TYPE (rhs1)))
	return parse (expr, rhs1, depth + 1);
      return add_converted_leaf (expr, t, rhs1);
    case INTEGER_CST:
      return add_node (expr, SIZE_CONST, fold_convert (expr->type, rhs1),
		       -1, -1);
    default:
      return add_leaf (expr, t);
    }
}

/* Parse the size argument ARG into EXPR.  */
void
size_parse (tree arg, struct size_expr *expr)
{
  expr->type = TREE_TYPE (arg);
  expr->count = 0;
  expr->root = -1;
  expr->unknown_sign = false;
  if (INTEGRAL_TYPE_P (expr->type) && TYPE_UNSIGNED (expr->type))
    expr->root = parse (expr, arg, 0);
  if (expr->root < 0 || expr->unknown_sign)
    {
      /* Too big, not unsigned, or a term whose sign kalloc cannot read:
	 one opaque leaf.  */
      expr->count = 0;
      expr->root = add_node (expr, SIZE_LEAF, arg, -1, -1);
    }
}

bool
size_is_const (const struct size_expr *expr, int n,
	       unsigned HOST_WIDE_INT *value)
{
  const struct size_node *node = &expr->node[n];
  if (node->op != SIZE_CONST || node->signed_value
      || !tree_fits_uhwi_p (node->value))
    return false;
  *value = tree_to_uhwi (node->value);
  return true;
}

/* Is node N "CONSTANT op OTHER" for one of the two OPs?  */
static bool
split_const (const struct size_expr *expr, int n, enum size_op op1,
	     enum size_op op2, unsigned HOST_WIDE_INT *constant, int *other)
{
  const struct size_node *node = &expr->node[n];
  if (node->op != op1 && node->op != op2)
    return false;
  if (size_is_const (expr, node->b, constant)
      && expr->node[node->a].op != SIZE_CONST)
    {
      *other = node->a;
      return true;
    }
  if (size_is_const (expr, node->a, constant)
      && expr->node[node->b].op != SIZE_CONST)
    {
      *other = node->b;
      return true;
    }
  return false;
}

/* Is node N a product FACTOR * OTHER, wrapping or saturating?  */
bool
size_split_product (const struct size_expr *expr, int n,
		    unsigned HOST_WIDE_INT *factor, int *other)
{
  return split_const (expr, n, SIZE_MUL, SIZE_SAT_MUL, factor, other);
}

static bool
collect_product (const struct size_expr *expr, int n,
		 unsigned HOST_WIDE_INT *constant, int *other, bool *any)
{
  const struct size_node *node = &expr->node[n];
  unsigned HOST_WIDE_INT value;
  if (size_is_const (expr, n, &value))
    {
      *any = true;
      return !__builtin_mul_overflow (*constant, value, constant);
    }
  if (node->op == SIZE_MUL || node->op == SIZE_SAT_MUL)
    return collect_product (expr, node->a, constant, other, any)
	   && collect_product (expr, node->b, constant, other, any);
  *other = *other == -1 ? n : -2;
  return true;
}

/* Is node N a product with constant factors anywhere in it
   (array3_size (sizeof (T), n, 2), n * 2 * sizeof (T))?  *CONSTANT gets
   their product, *OTHER the one other factor, or -2 when there are
   several.  */
bool
size_product (const struct size_expr *expr, int n,
	      unsigned HOST_WIDE_INT *constant, int *other)
{
  enum size_op op = expr->node[n].op;
  bool any = false;
  *constant = 1;
  *other = -1;
  return (op == SIZE_MUL || op == SIZE_SAT_MUL)
	 && collect_product (expr, n, constant, other, &any) && any
	 && *other != -1;
}

/* Is node N a sum ADDEND + OTHER, wrapping or saturating?  */
bool
size_split_sum (const struct size_expr *expr, int n,
		unsigned HOST_WIDE_INT *addend, int *other)
{
  return split_const (expr, n, SIZE_ADD, SIZE_SAT_ADD, addend, other);
}

static bool linear_term (const struct size_expr *, int,
			 unsigned HOST_WIDE_INT, struct size_linear *);

/* Add SCALE * node N to LIN, through sums and products by constants;
   any other node is a term.  */
static bool
linear_add (const struct size_expr *expr, int n, unsigned HOST_WIDE_INT scale,
	    struct size_linear *lin)
{
  const struct size_node *node = &expr->node[n];
  unsigned HOST_WIDE_INT value;
  if (size_is_const (expr, n, &value))
    return !__builtin_mul_overflow (scale, value, &value)
	   && !__builtin_add_overflow (lin->constant, value, &lin->constant);
  /* A negative constant or a difference: no plain sum of terms.  A
     signed leaf is a term like any other (an int count).  */
  if (node->op == SIZE_CONST || node->op == SIZE_SUB)
    return false;
  if (node->op == SIZE_ADD || node->op == SIZE_SAT_ADD)
    return linear_add (expr, node->a, scale, lin)
	   && linear_add (expr, node->b, scale, lin);
  int other = -1;
  if (node->op == SIZE_MUL || node->op == SIZE_SAT_MUL)
    other = size_is_const (expr, node->a, &value) ? node->b
	    : size_is_const (expr, node->b, &value) ? node->a : -1;
  if (other >= 0)
    {
      if (__builtin_mul_overflow (scale, value, &scale))
	return false;
      /* size_mul (4, count) is one array of COUNT elements, whatever
	 sum COUNT is (struct_size (p, data, n * 80 + m * 2)): GCC
	 folded nothing across the helper.  */
      if (node->op == SIZE_SAT_MUL)
	return linear_term (expr, other, scale, lin);
      return linear_add (expr, other, scale, lin);
    }
  return linear_term (expr, n, scale, lin);
}

/* Add SCALE * node N to LIN as one term.  */
static bool
linear_term (const struct size_expr *expr, int n, unsigned HOST_WIDE_INT scale,
	     struct size_linear *lin)
{
  const struct size_node *node = &expr->node[n];
  /* The same value twice (n * 4 + n * 6) is one term.  */
  for (int i = 0; i < lin->nterms; i++)
    if (node->value && expr->node[lin->term[i]].value
	&& operand_equal_p (node->value, expr->node[lin->term[i]].value, 0))
      return !__builtin_add_overflow (lin->coef[i], scale, &lin->coef[i]);
  if (lin->nterms >= SIZE_EXPR_MAX)
    return false;
  lin->term[lin->nterms] = n;
  lin->coef[lin->nterms++] = scale;
  return true;
}

/* Node N as CONSTANT + the sum of COEF[i] * TERM[i]: GCC folds
   16 + n * 4 + m * 2 into ((n + 4) * 2 + m) * 2, and this undoes it.
   False when a subtraction or a negative constant takes part.  */
bool
size_linear (const struct size_expr *expr, int n, struct size_linear *lin)
{
  lin->constant = 0;
  lin->nterms = 0;
  return linear_add (expr, n, 1, lin);
}

/* Can some of the size's arithmetic wrap?  */
bool
size_wraps (const struct size_expr *expr)
{
  for (int i = 0; i <= expr->root; i++)
    if (is_wrapping_op (expr->node[i].op))
      return true;
  return false;
}

/* May node N's value, in the mathematics the program means, be below
   zero: does its wrapping arithmetic involve a subtraction or a signed
   term?  A saturating helper's result never is.  */
bool
size_may_be_negative (const struct size_expr *expr, int n)
{
  const struct size_node *node = &expr->node[n];
  switch (node->op)
    {
    case SIZE_LEAF:
    case SIZE_CONST:
      return node->signed_value != NULL_TREE;
    case SIZE_SUB:
      return true;
    case SIZE_ADD:
    case SIZE_MUL:
      return size_may_be_negative (expr, node->a)
	     || size_may_be_negative (expr, node->b);
    default:
      return false;
    }
}

/* Does the size multiply by a constant (an element size: n * sizeof (T),
   hdr + n * C), and can some of its arithmetic wrap?  A sum alone
   (len + 1) is left as it is, and so is a product of two run-time
   values (a * b): upstream's typed allocators check sizeof (T) * count,
   and Linux's own overflow KUnit test allocates a wrapping a * b on
   purpose.  */
bool
size_needs_saturation (const struct size_expr *expr)
{
  bool wraps = false, scales = false;
  /* Nodes are stored children first, so the root's tree is 0..root.  */
  for (int i = 0; i <= expr->root; i++)
    {
      const struct size_node *node = &expr->node[i];
      wraps |= is_wrapping_op (node->op);
      /* A negative constant scales too: GCC folds (c - n) * 24 into
	 n * -24 + 24 * c.  */
      if (node->op == SIZE_MUL || node->op == SIZE_SAT_MUL)
	scales |= expr->node[node->a].op == SIZE_CONST
		  || expr->node[node->b].op == SIZE_CONST;
    }
  return wraps && scales;
}
