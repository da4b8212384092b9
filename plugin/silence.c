/*
 * silence.c - how a user says "this allocation is short on purpose".
 *
 *   #pragma kalloc ignore          no kalloc warning for the allocation
 *                                  calls on the next line (or this one,
 *                                  when written as _Pragma in a macro)
 *   __attribute__((kalloc_ignore)) no kalloc warning in this function
 *
 * include/kalloc.h wraps both in macros that vanish when the plugin is
 * not loaded, so code using them builds with any compiler.  Silencing
 * only hides warnings: rewrites never change an in-range allocation.
 */
#include "kalloc.h"

struct pragma_line
{
  const char *file;
  int line;
};

static struct pragma_line *pragma_lines;
static int pragma_count;

static void
handle_pragma_kalloc (cpp_reader *)
{
  tree word;
  location_t loc;
  enum cpp_ttype tok = pragma_lex (&word, &loc);
  if (tok != CPP_NAME || strcmp (IDENTIFIER_POINTER (word), "ignore"))
    {
      warning_at (loc, OPT_Wpragmas,
		  "expected %<ignore%> after %<#pragma kalloc%>");
      return;
    }
  if (pragma_lex (&word) != CPP_EOF)
    warning (OPT_Wpragmas, "junk at end of %<#pragma kalloc ignore%>");

  expanded_location where
    = expand_location (linemap_resolve_location (line_table, loc,
						 LRK_MACRO_EXPANSION_POINT,
						 NULL));
  pragma_lines = XRESIZEVEC (struct pragma_line, pragma_lines,
			     pragma_count + 1);
  pragma_lines[pragma_count].file = where.file;
  pragma_lines[pragma_count].line = where.line;
  pragma_count++;
}

/* At PLUGIN_PRAGMAS.  */
void
silence_register_pragmas (void)
{
  c_register_pragma (NULL, "kalloc", handle_pragma_kalloc);
}

static tree
handle_kalloc_ignore (tree *node, tree name, tree, int, bool *no_add_attrs)
{
  if (TREE_CODE (*node) != FUNCTION_DECL)
    {
      warning (OPT_Wattributes, "%qE attribute only applies to functions",
	       name);
      *no_add_attrs = true;
    }
  return NULL_TREE;
}

static struct attribute_spec kalloc_ignore_spec = {
  "kalloc_ignore", 0, 0, true, false, false, false, handle_kalloc_ignore,
  NULL
};

/* At PLUGIN_ATTRIBUTES.  */
void
silence_register_attributes (void)
{
  register_attribute (&kalloc_ignore_spec);
}

static bool
same_file (const char *a, const char *b)
{
  return a && b && (a == b || !strcmp (a, b));
}

/* Has the user silenced the allocation at LOC in function FNDECL?  */
bool
silence_site (location_t loc, tree fndecl)
{
  if (fndecl && lookup_attribute ("kalloc_ignore", DECL_ATTRIBUTES (fndecl)))
    return true;
  expanded_location where = expand_location (loc);
  for (int i = 0; i < pragma_count; i++)
    if (same_file (pragma_lines[i].file, where.file)
	&& (pragma_lines[i].line == where.line
	    || pragma_lines[i].line + 1 == where.line))
      return true;
  return false;
}
