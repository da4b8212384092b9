/*
 * source-size.c - an allocation's size argument as the program wrote it.
 *
 * Part of the source-text layer (source.c reads and splits the call):
 * which sizeof a size names (the whole argument, the one sizeof factor
 * of a product, the one sizeof term of a flexible array's sum), whether
 * a sizeof names the element at all, and whether the element is a bare
 * number.  Text only: the types are sizeof-type.c's business.
 */
#include "kalloc.h"

/* The one term of S split at OP that is a plain sizeof, into OPERAND.  */
bool
source_size_one_term (struct span s, char op, struct span *operand)
{
  struct span parts[SOURCE_MAX_ARGS], found;
  int n = source_split_top (s, op, parts, SOURCE_MAX_ARGS), count = 0;
  for (int i = 0; i < n; i++)
    if (source_sizeof_operand (parts[i], &found))
      {
	*operand = found;
	count++;
      }
  return n >= 2 && count == 1;
}

/* Is S a product at its top level: no '+', no binary '-' (an arrow,
   p->n, is not one)?  sizeof (*p) + 4 * sizeof (u64) is a sum whose
   '*' binds only the 4.  */
static bool
source_size_is_product (struct span s)
{
  struct span parts[SOURCE_MAX_ARGS];
  if (source_split_top (s, '+', parts, SOURCE_MAX_ARGS) != 1)
    return false;
  int n = source_split_top (s, '-', parts, SOURCE_MAX_ARGS);
  if (n < 1)
    return false;
  for (int i = 1; i < n; i++)
    if (source_text[parts[i].from] != '>')
      return false;
  return true;
}

/* The sizeof in S (a whole size argument): S itself, the one sizeof
   factor of a product (n * sizeof (T), or 4 * sizeof (T), which is an
   object of a constant size to kalloc), or for a flexible array the one
   sizeof term of a sum (sizeof (*p) + n * sizeof (...)).  */
bool
source_size_sizeof (struct span s, enum site_kind kind, struct span *operand)
{
  bool elements = kind == SITE_OBJECT || kind == SITE_ARRAY;
  if (source_sizeof_operand (s, operand))
    return elements;
  struct span helper[2];
  if (elements && (source_helper_call (s, "array_size", helper, 2)
		   || source_helper_call (s, "size_mul", helper, 2)))
    {
      struct span first, second;
      bool a = source_sizeof_operand (helper[0], &first);
      bool b = source_sizeof_operand (helper[1], &second);
      *operand = a ? first : second;
      return a != b;
    }
  if (elements)
    return source_size_is_product (s)
	   && source_size_one_term (s, '*', operand);
  if (kind == SITE_FLEX)
    return source_size_one_term (s, '+', operand);
  return false;
}

/* Does S name an element size with sizeof: a product with a sizeof
   factor (n * sizeof (u32)), a sum with such a term, or a helper that
   takes one or names a member (size_mul, array_size, struct_size,
   flex_array_size)?  *NAMED gets the sizeof's operand when there is one
   (FROM -1 for the helpers).  */
bool
source_size_typed_element (struct span s, int depth, struct span *named)
{
  struct span parts[SOURCE_MAX_ARGS], operand;
  source_strip_parens (&s);
  if (depth > 4)
    return false;
  bool by_type;
  if (source_after_word (&s, "struct_size") >= 0
      || source_after_word (&s, "struct_size_t") >= 0
      || source_after_word (&s, "flex_array_size") >= 0
      || source_struct_size_parts (s, parts, &by_type)
      || source_flex_array_size_call (s))
    return true;
  if (source_helper_call (s, "size_add", parts, 2))
    return source_size_typed_element (parts[0], depth + 1, named)
	   || source_size_typed_element (parts[1], depth + 1, named);
  int n = 0;
  if (source_helper_call (s, "size_mul", parts, 2)
      || source_helper_call (s, "array_size", parts, 2))
    n = 2;
  else if (source_helper_call (s, "array3_size", parts, 3))
    n = 3;
  else if ((n = source_split_top (s, '*', parts, SOURCE_MAX_ARGS)) < 2)
    {
      n = source_split_top (s, '+', parts, SOURCE_MAX_ARGS);
      for (int i = 0; n >= 2 && i < n; i++)
	if (source_size_typed_element (parts[i], depth + 1, named))
	  return true;
      return false;
    }
  for (int i = 0; i < n; i++)
    if (source_sizeof_operand (parts[i], &operand))
      {
	*named = operand;
	return true;
      }
  return false;
}

/* Is S, or one factor of its top-level product, an integer literal?  */
bool
source_size_literal_factor (struct span s)
{
  struct span parts[SOURCE_MAX_ARGS];
  int n = source_split_top (s, '*', parts, SOURCE_MAX_ARGS);
  if (n < 1)
    return false;
  for (int i = 0; i < n; i++)
    {
      source_strip_parens (&parts[i]);
      if (parts[i].from < parts[i].to && ISDIGIT (source_text[parts[i].from]))
	return true;
    }
  return false;
}
