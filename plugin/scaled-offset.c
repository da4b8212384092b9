/*
 * scaled-offset.c - pointer arithmetic scaled twice.
 *
 * C counts an offset added to a T * in elements of T: p + sizeof (*p)
 * moves sizeof (*p) elements, sizeof (*p) * sizeof (*p) bytes.  Code that
 * carves a block's tail means bytes: dahdi's echo cancellers write
 * (int16_t *) (pvt + sizeof (*pvt)) after kmalloc (sizeof (*pvt) + n),
 * and land far past the block.
 *
 * GIMPLE has only the product (pvt + 2304); the text says a sizeof was
 * written.  A warning needs both to agree: a pointer to elements larger
 * than a byte advanced by a constant, or by a product with a constant
 * factor, that is the element size times the value of a sizeof written
 * in the statement's text (p + sizeof (T), p + n * sizeof (T), p +=
 * sizeof (T), &p[sizeof (T)]).  A division (p + len / sizeof (*p)) is
 * the correct idiom and is left alone, as are void and character
 * pointers, which count bytes.
 */
#include "kalloc.h"

/* How far a statement's text is read.  */
#define STATEMENT_MAX 600

/* A term added to a pointer in the text: the operator, the sizeof in it
   and the whole term.  */
struct scaled_term
{
  long op;			/* '+', "+=" or '[' */
  struct span term;		/* what is added */
  struct span operand;		/* the sizeof's operand */
  unsigned HOST_WIDE_INT value;	/* the sizeof's value */
};

/* Is the code character before P the end of an operand (so that a '+'
   or '[' at P is binary, or an index)?  */
static bool
after_operand (long from, long p)
{
  while (p > from && ISSPACE (source_text[p - 1]))
    p--;
  if (p <= from)
    return false;
  char c = source_text[p - 1];
  return ISIDNUM (c) || c == ')' || c == ']';
}

/* The term that starts at FROM, up to the first character at its top
   level that ends it (not '*', which binds tighter than '+', nor the '-'
   of an arrow); for an index, up to its ']'.  False when it holds a
   division or a remainder, or runs past END.  */
static bool
read_term (long from, long end, bool index, struct span *term)
{
  int depth = 0;
  for (long p = from; p < end; p++)
    {
      char c = source_text[p];
      if (c == '"' || c == '\'')
	return false;
      if (c == '(' || c == '[' || c == '{')
	depth++;
      else if (c == ')' || c == ']' || c == '}')
	{
	  if (depth-- == 0)
	    {
	      term->from = from;
	      term->to = p;
	      source_trim (term);
	      return (!index || c == ']') && term->from < term->to;
	    }
	}
      else if (depth == 0 && !index
	       && (c == '+' || c == ',' || c == ';' || c == '?' || c == ':'
		   || c == '<' || c == '>' || c == '=' || c == '&'
		   || c == '|' || c == '^' || c == '!'
		   || (c == '-' && source_text[p + 1] != '>')))
	{
	  term->from = from;
	  term->to = p;
	  source_trim (term);
	  return term->from < term->to;
	}
      else if (c == '/' || c == '%')
	return false;
    }
  return false;
}

/* The name the program gives POINTER: its variable's, or the member's
   it was loaded from (p->buf); NULL for a temporary.  */
static const char *
pointer_name (tree pointer)
{
  for (int depth = 0; depth < 4 && TREE_CODE (pointer) == SSA_NAME; depth++)
    {
      tree var = SSA_NAME_VAR (pointer);
      if (var && DECL_NAME (var) && !DECL_ARTIFICIAL (var))
	return IDENTIFIER_POINTER (DECL_NAME (var));
      gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (pointer));
      if (!def)
	return NULL;
      tree rhs = gimple_assign_rhs1 (def);
      if (TREE_CODE (rhs) == COMPONENT_REF)
	{
	  tree field = TREE_OPERAND (rhs, 1);
	  return DECL_NAME (field) ? IDENTIFIER_POINTER (DECL_NAME (field))
				   : NULL;
	}
      if (TREE_CODE (rhs) == VAR_DECL || TREE_CODE (rhs) == PARM_DECL)
	return DECL_NAME (rhs) ? IDENTIFIER_POINTER (DECL_NAME (rhs)) : NULL;
      if (!gimple_assign_cast_p (def) && gimple_assign_rhs_code (def) != SSA_NAME)
	return NULL;
      pointer = rhs;
    }
  return NULL;
}

/* Is the operand the term at OP is added to (or indexes) spelled as
   something other than NAME?  A cast or a call ends in ')': not read.  */
static bool
other_operand (long op, const char *name)
{
  long p = op;
  while (p > 0 && ISSPACE (source_text[p - 1]))
    p--;
  long end = p;
  while (p > 0 && ISIDNUM (source_text[p - 1]))
    p--;
  if (p == end || !name)
    return false;
  return (size_t) (end - p) != strlen (name)
	 || strncmp (source_text + p, name, end - p);
}

/* The terms added to an operand with a sizeof in them, in the statement
   whose text STMT's location points into, up to MAX; their count.  */
static int
scaled_terms (gassign *stmt, struct scaled_term *terms, int max)
{
  const char *name = pointer_name (gimple_assign_rhs1 (stmt));
  long at = source_location_offset (gimple_location (stmt));
  if (at < 0)
    return 0;
  /* The location is an operator's (GCC folds p + a + b into one offset
     at the second '+'), or for a declaration's initialiser the
     declarator's: read the whole statement, from the ';', '{' or '}'
     before it.  */
  long start = at;
  while (start > 0 && at - start < STATEMENT_MAX
	 && !strchr (";{}", source_text[start - 1]))
    start--;
  long end = start + STATEMENT_MAX < source_len ? start + STATEMENT_MAX
						 : source_len;
  int n = 0, depth = 0;
  for (long p = start; p < end && n < max; p++)
    {
      char c = source_text[p];
      if (c == '"' || c == '\'' || (c == '/' && (source_text[p + 1] == '*'
						 || source_text[p + 1] == '/')))
	break;			/* literals and comments: not read */
      if (c == '(' || c == '{')
	depth++;
      else if (c == ')' || c == '}')
	depth--;
      if ((c == ';' && depth <= 0) || c == '{' || c == '}')
	break;
      bool plus = c == '+' && source_text[p + 1] != '+'
		  && (p == 0 || source_text[p - 1] != '+')
		  && after_operand (start > 200 ? start - 200 : 0, p);
      bool index = c == '[' && after_operand (start > 200 ? start - 200 : 0, p);
      if (!plus && !index)
	continue;
      long from = p + 1 + (plus && source_text[p + 1] == '=');
      if (other_operand (p, name))
	continue;		/* n + sizeof (u16) beside p + 2 */
      struct scaled_term t;
      t.op = p;
      /* A sizeof, or a product with one sizeof factor.  */
      if (!read_term (from, end, index, &t.term)
	  || !(source_sizeof_operand (t.term, &t.operand)
	       || source_size_one_term (t.term, '*', &t.operand)))
	continue;
      tree type = sizeof_operand_type (stmt, &t.operand);
      if (!type || !TYPE_SIZE_UNIT (type)
	  || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (type)))
	continue;
      t.value = tree_to_uhwi (TYPE_SIZE_UNIT (type));
      terms[n++] = t;
    }
  return n;
}

/* The terms GCC made of a POINTER_PLUS_EXPR's offset: constants, and
   products n * C (PRODUCT set).  GCC folds p + sizeof (*p) + n * 4 into
   one offset 5184 + n * 288, so a sum is taken apart.  */
struct offset_term
{
  unsigned HOST_WIDE_INT factor;
  bool product;
};

#define OFFSET_TERMS 4

static int
offset_terms (tree offset, struct offset_term *terms, int n, int depth)
{
  if (n >= OFFSET_TERMS || depth > 4)
    return n;
  if (TREE_CODE (offset) == INTEGER_CST)
    {
      /* A negative offset (p - sizeof (T)) is not read.  */
      if (tree_fits_shwi_p (offset) && tree_to_shwi (offset) > 0)
	{
	  terms[n].factor = tree_to_uhwi (offset);
	  terms[n++].product = false;
	}
      return n;
    }
  if (TREE_CODE (offset) != SSA_NAME)
    return n;
  gassign *def = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (offset));
  if (!def)
    return n;
  switch (gimple_assign_rhs_code (def))
    {
    case PLUS_EXPR:
      n = offset_terms (gimple_assign_rhs1 (def), terms, n, depth + 1);
      return offset_terms (gimple_assign_rhs2 (def), terms, n, depth + 1);
    case MULT_EXPR:
      {
	tree c = gimple_assign_rhs2 (def);
	if (TREE_CODE (c) == INTEGER_CST && tree_fits_shwi_p (c)
	    && tree_to_shwi (c) > 0)
	  {
	    terms[n].factor = tree_to_uhwi (c);
	    terms[n++].product = true;
	  }
	return n;
      }
    CASE_CONVERT:
      return offset_terms (gimple_assign_rhs1 (def), terms, n, depth + 1);
    default:
      return n;
    }
}

/* The size of the block POINTER points to the start of, when an
   allocation site of SITES made it with a constant size; else 0.  */
static unsigned HOST_WIDE_INT
allocation_size (tree pointer, const struct alloc_site *sites, int nsites)
{
  /* 6.10+'s kmalloc () returns through a statement expression's
     temporary: follow copies back to the call.  */
  for (int depth = 0; depth < 8 && TREE_CODE (pointer) == SSA_NAME; depth++)
    {
      gassign *copy = dyn_cast<gassign *> (SSA_NAME_DEF_STMT (pointer));
      if (!copy || (gimple_assign_rhs_code (copy) != SSA_NAME
		    && !gimple_assign_cast_p (copy)))
	break;
      pointer = gimple_assign_rhs1 (copy);
    }
  if (TREE_CODE (pointer) != SSA_NAME)
    return 0;
  for (int i = 0; i < nsites; i++)
    if (gimple_call_lhs (sites[i].call) == pointer)
      {
	tree size = gimple_call_arg (sites[i].call, sites[i].alloc->size_arg);
	if (sites[i].alloc->count_arg >= 0)
	  return 0;
	return tree_fits_uhwi_p (size) ? tree_to_uhwi (size) : 0;
      }
  return 0;
}

/* Warn at LOC that TERM, which GCC made PART of POINTER's offset, scales
   elements of ELEM_SIZE bytes by a sizeof; BLOCK: the allocation's size,
   or 0.  */
static void
warn_scaled (location_t loc, tree pointer, const struct scaled_term *term,
	     const struct offset_term *part, unsigned HOST_WIDE_INT elem_size,
	     unsigned HOST_WIDE_INT block)
{
  unsigned HOST_WIDE_INT count = term->value;
  unsigned HOST_WIDE_INT factor = part->factor;
  char text[128];
  source_fold_space (&term->term, text, sizeof text);
  bool index = source_text[term->op] == '[';
  /* p + sizeof (*p) means the next element: p + 1.  */
  struct span alone;
  const char *fix = NULL;
  if (count == elem_size && source_sizeof_operand (term->term, &alone))
    fix = index ? "[1]" : "+ 1";
  char in_block[64] = "";
  if (part->product)
    snprintf (in_block, sizeof in_block, " for each unit of the count");
  else if (block)
    snprintf (in_block, sizeof in_block, " in a %lu-byte allocation",
	      (unsigned long) block);
  if (fix)
    warning_at (loc, 0,
		"%<%s%s%s%> advances a %qT by %wu elements, %wu bytes%s: "
		"pointer arithmetic counts elements, not bytes; did you mean "
		"%qs?", index ? "[" : "+ ", text, index ? "]" : "",
		TREE_TYPE (pointer), count, factor, in_block, fix);
  else
    warning_at (loc, 0,
		"%<%s%s%s%> advances a %qT by %wu elements, %wu bytes%s: "
		"pointer arithmetic counts elements, not bytes; add bytes to a "
		"%<char *%>, or elements without the %<sizeof%>",
		index ? "[" : "+ ", text, index ? "]" : "",
		TREE_TYPE (pointer), count, factor, in_block);
}

static void
check_statement (gassign *stmt, const struct alloc_site *sites, int nsites)
{
  tree pointer = gimple_assign_rhs1 (stmt);
  tree elem = TREE_TYPE (TREE_TYPE (pointer));
  unsigned HOST_WIDE_INT elem_size;
  struct offset_term parts[OFFSET_TERMS];
  int nparts = 0;
  if (VOID_TYPE_P (elem) || !COMPLETE_TYPE_P (elem)
      || !tree_fits_uhwi_p (TYPE_SIZE_UNIT (elem))
      || (elem_size = tree_to_uhwi (TYPE_SIZE_UNIT (elem))) <= 1)
    return;
  /* Cheap first: some term of GCC's offset must be a multiple of two
     elements or more, before any text is read.  */
  nparts = offset_terms (gimple_assign_rhs2 (stmt), parts, 0, 0);
  bool candidate = false;
  for (int i = 0; i < nparts; i++)
    candidate |= parts[i].factor % elem_size == 0
		 && parts[i].factor / elem_size >= 2;
  if (!candidate)
    return;
  struct scaled_term terms[4];
  int n = scaled_terms (stmt, terms, 4), match = -1, part = -1;
  /* The first term of the text whose sizeof, in elements, is a term of
     GCC's offset.  */
  for (int i = 0; i < n && match < 0; i++)
    for (int j = 0; j < nparts && match < 0; j++)
      if (terms[i].value >= 2 && parts[j].factor == terms[i].value * elem_size)
	{
	  match = i;
	  part = j;
	}
  if (match < 0)
    return;
  location_t loc = gimple_location (stmt);
  if (!silence_site (loc, current_function_decl))
    warn_scaled (loc, pointer, &terms[match], &parts[part], elem_size,
		 allocation_size (pointer, sites, nsites));
}

/* Warn about every pointer in FUN advanced by an offset a sizeof scales
   twice.  SITES: the function's allocation sites, for the block sizes.  */
void
scaled_offset_check_function (function *fun, const struct alloc_site *sites,
			      int nsites)
{
  if (!(kalloc_opts.warnings & KW_OFFSET))
    return;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gassign *stmt = dyn_cast<gassign *> (gsi_stmt (gsi));
	if (stmt && gimple_assign_rhs_code (stmt) == POINTER_PLUS_EXPR)
	  check_statement (stmt, sites, nsites);
      }
}
