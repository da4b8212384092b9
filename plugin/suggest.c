/*
 * suggest.c - fix-it hints that convert a legacy call to Linux 7.0's
 * typed form, for -fplugin-arg-kalloc-suggest.
 *
 *   kmalloc(sizeof(*p), GFP_KERNEL)           -> kmalloc_obj(*p)
 *   kcalloc(n, sizeof(struct foo), gfp)       -> kzalloc_objs(struct foo, n, gfp)
 *   kvzalloc(struct_size(h, many, n), gfp)    -> kvzalloc_flex(*h, many, n, gfp)
 *
 * The families and exclusions are upstream's (its Coccinelle script,
 * scripts/coccinelle/api/kmalloc_objs.cocci): k[v][mz]alloc with sizeof
 * or struct_size/struct_size_t, k[v]malloc_array and k[v]calloc with
 * sizeof; integral and byte types, sizeof (void *) and string literals are
 * left alone, but VAR = ALLOC (sizeof (*VAR)) is converted whatever VAR's
 * type, as upstream's first rule does; GFP_KERNEL is dropped as Linux 7.0
 * does (suggest-keep-gfp keeps it).  The replacement is built from the call's own source text,
 * so it keeps the program's spelling (*p, struct foo, *h->many); the
 * type knowledge comes from the site (the destination's pointee type).
 * A call written inside a macro body gets no fix-it: the edit would
 * land in the macro.  With -fdiagnostics-generate-patch GCC prints the
 * edits as a unified diff.
 */
#include "kalloc.h"

#define MAX_CALL_TEXT SOURCE_MAX_CALL
#define MAX_ARGS SOURCE_MAX_ARGS

/* ---- upstream's exclusions ----------------------------------------------- */

/* The typedefs and types upstream leaves alone (its INTEGRAL list).  */
static const char *const integral_names[] = {
  "u8", "__u8", "uint8_t", "char", "unsigned char", "uchar", "wchar_t",
  "u16", "__u16", "uint16_t", "unsigned short", "ushort",
  "u32", "__u32", "uint32_t", "unsigned int", "uint",
  "u64", "__u64", "uint64_t", "unsigned long", "ulong",
  "__le16", "__le32", "__le64", "__be16", "__be32", "__be64"
};


/* Is TEXT an array type's name (struct foo[2], int[4])?  kmalloc_obj ()
   of it would return a pointer to the array, not to its elements.  */
static bool
array_type_name (const char *text)
{
  static const char *const keywords[] = {
    "struct ", "union ", "enum ", "const ", "volatile ", "signed ",
    "unsigned ", "int", "long", "short", "char", "float", "double", "_Bool"
  };
  size_t len = strlen (text);
  if (!len || text[len - 1] != ']')
    return false;
  for (size_t i = 0; i < ARRAY_SIZE (keywords); i++)
    if (!strncmp (text, keywords[i], strlen (keywords[i])))
      return true;
  for (size_t i = 0; i < ARRAY_SIZE (integral_names); i++)
    {
      size_t n = strlen (integral_names[i]);
      if (!strncmp (text, integral_names[i], n)
	  && (text[n] == '[' || text[n] == ' '))
	return true;
    }
  return false;
}

/* sizeof (STRING), sizeof (INTEGRAL), sizeof (INTEGRAL *),
   sizeof (void *), sizeof (an array type) */
static bool
excluded_operand (const struct span *operand)
{
  char text[128];
  source_fold_space (operand, text, sizeof text);
  if (text[0] == '"' || array_type_name (text))
    return true;
  size_t len = strlen (text);
  if (len && text[len - 1] == '*')
    {
      text[--len] = 0;
      while (len && text[len - 1] == ' ')
	text[--len] = 0;
      if (!strcmp (text, "void"))
	return true;
    }
  for (size_t i = 0; i < ARRAY_SIZE (integral_names); i++)
    if (!strcmp (text, integral_names[i]))
      return true;
  return false;
}

/* Is TYPE one of upstream's INTEGRAL types (unsigned integers, plain
   char, their little/big-endian typedefs)?  */
static bool
integral_type (tree type)
{
  if (!type || TREE_CODE (type) != INTEGER_TYPE)
    return false;
  return TYPE_UNSIGNED (type)
	 || TYPE_MAIN_VARIANT (type) == char_type_node;
}

/* Upstream skips BYTES = ... and BYTES_PTRS = ... (pointers to INTEGRAL
   and pointers to pointers to INTEGRAL).  */
static bool
excluded_destination (const struct alloc_site *site)
{
  /* site->pointee leaves byte types out; upstream's list has them.  */
  tree pointee = pointee_infer_declared (site->call);
  if (!pointee)
    return false;
  if (integral_type (pointee))
    return true;
  return POINTER_TYPE_P (pointee) && integral_type (TREE_TYPE (pointee));
}

/* The left-hand side X of "X = " (an assignment or an initialised
   declarator: p, h->ops, table.slot) that the call at CALL_START is the
   right-hand side of, into LHS.  */
static bool
assigned_lhs (long call_start, struct span *lhs)
{
  long p = call_start - 1;
  while (p >= 0 && ISSPACE (source_text[p]))
    p--;
  if (p < 1 || source_text[p] != '=' || strchr ("=!<>+-*/%&|^", source_text[p - 1]))
    return false;
  p--;
  while (p >= 0 && ISSPACE (source_text[p]))
    p--;
  lhs->to = p + 1;
  while (p >= 0 && (ISIDNUM (source_text[p]) || source_text[p] == '.'
		    || (source_text[p] == '>' && p > 0
			&& source_text[p - 1] == '-')))
    p -= source_text[p] == '>' ? 2 : 1;
  lhs->from = p + 1;
  return lhs->from < lhs->to && ISIDST (source_text[lhs->from]);
}

/* Is the call at CALL_START the right-hand side of "X = " where OPERAND
   is "*X"?  Upstream's first rule, VAR = ALLOC (sizeof (*VAR), GFP),
   converts these whatever VAR's type: kmalloc_obj (*VAR) returns
   exactly VAR's type.  */
static bool
assigns_to_operand (long call_start, const struct span *operand)
{
  struct span x = *operand, lhs;
  if (x.from >= x.to || source_text[x.from] != '*')
    return false;
  x.from++;
  source_strip_parens (&x);
  if (!assigned_lhs (call_start, &lhs))
    return false;
  /* X must be the whole left-hand side, not a member or tail of it.  */
  return lhs.to - lhs.from == x.to - x.from
	 && !strncmp (source_text + lhs.from, source_text + x.from,
		      x.to - x.from);
}

/* Calls written with Linux 7.0's typed macros (some 6.12 stable trees
   carry kvmalloc_objs ()) are converted already.  */
static bool
typed_macro (const char *name)
{
  static const char *const suffixes[] = { "_obj", "_objs", "_flex" };
  size_t len = name ? strlen (name) : 0;
  for (size_t i = 0; i < ARRAY_SIZE (suffixes); i++)
    {
      size_t n = strlen (suffixes[i]);
      if (len > n && !strcmp (name + len - n, suffixes[i]))
	return true;
    }
  return false;
}

/* How the typed call's result (a pointer to the operand's type) meets
   the destination: the same type, the same type less qualified than
   the operand (a const source: kmalloc_obj (*src) would return a
   pointer to const), or another type.  Unknown counts as the same.  */
enum operand_fit { FIT_SAME, FIT_QUALIFIED, FIT_OTHER };

static enum operand_fit
operand_fit (const struct alloc_site *site)
{
  struct sizeof_type st;
  tree dest = pointee_infer_declared (site->call);
  if (!dest || VOID_TYPE_P (dest) || !sizeof_type_of_site (site, &st))
    return FIT_SAME;
  if (TYPE_MAIN_VARIANT (st.type) != TYPE_MAIN_VARIANT (dest))
    return FIT_OTHER;
  return TYPE_QUALS (st.type) & ~TYPE_QUALS (dest) ? FIT_QUALIFIED : FIT_SAME;
}

/* The operand the typed call should name: the call's own unless the
   result would not assign without a diagnostic; then *LHS of the
   destination when it is qualified only, or nothing (false: leave the
   call to the type warning).  */
static bool
typed_operand (const struct alloc_site *site, long call_start,
	       struct span *operand, const char **prefix)
{
  *prefix = "";
  switch (operand_fit (site))
    {
    case FIT_SAME:
      return true;
    case FIT_QUALIFIED:
      *prefix = "*";
      return assigned_lhs (call_start, operand);
    default:
      return false;
    }
}

/* ---- building the replacement --------------------------------------------- */

struct text
{
  char buf[MAX_CALL_TEXT];
  size_t len;
};

static void
put (struct text *t, const char *s, size_t n)
{
  for (size_t i = 0; i < n && t->len + 1 < sizeof t->buf; i++)
    t->buf[t->len++] = s[i];
  t->buf[t->len] = 0;
}

static void
put_span (struct text *t, const struct span *s)
{
  put (t, source_text + s->from, s->to - s->from);
}

static void
put_str (struct text *t, const char *s)
{
  put (t, s, strlen (s));
}

/* The typed name for the allocator A and KIND (its family's _objs for
   the array allocators, _obj or _flex for the others), or NULL.  */
static const char *
typed_name (const struct allocator *a, enum site_kind kind, char *buf,
	    size_t size)
{
  if (!a->family)
    return NULL;
  const char *suffix = a->count_arg >= 0 ? "objs"
		       : kind == SITE_FLEX ? "flex" : "obj";
  snprintf (buf, size, "%s_%s", a->family, suffix);
  return buf;
}

/* A conversion: the new name, and the new text of each argument slot
   of the original call (NULL: drop the slot, which only the GFP
   argument is).  Slots keep their place, so a call split over several
   lines keeps its layout.  */
struct conversion
{
  const char *name;
  char name_buf[64];
  int nslots;
  struct text slot[MAX_ARGS];
  bool drop[MAX_ARGS];
};

static void
set_slot (struct conversion *c, int i, const char *prefix,
	  const struct span *a, const struct span *b, const struct span *d)
{
  put_str (&c->slot[i], prefix);
  put_span (&c->slot[i], a);
  if (b)
    {
      put_str (&c->slot[i], ", ");
      put_span (&c->slot[i], b);
    }
  if (d)
    {
      put_str (&c->slot[i], ", ");
      put_span (&c->slot[i], d);
    }
}

/* kcalloc (n, sizeof (T)) -> kzalloc_objs (T, n): the sizeof in either
   argument, the type first.  */
static bool
convert_array (const struct alloc_site *site, const struct allocator *a,
	       long call_start, struct span *args, struct conversion *c)
{
  struct span operand;
  int size_slot = a->size_arg, count_slot = a->count_arg;
  if (!source_sizeof_operand (args[size_slot], &operand))
    {
      size_slot = a->count_arg;
      count_slot = a->size_arg;
      if (!source_sizeof_operand (args[size_slot], &operand))
	return false;
    }
  c->name = typed_name (a, SITE_ARRAY, c->name_buf, sizeof c->name_buf);
  if (!c->name || excluded_operand (&operand) || excluded_destination (site))
    return false;
  struct span count_text = args[count_slot];
  const char *prefix;
  if (!typed_operand (site, call_start, &operand, &prefix))
    return false;
  c->slot[0].len = c->slot[1].len = 0;
  set_slot (c, 0, prefix, &operand, NULL, NULL);
  set_slot (c, 1, "", &count_text, NULL, NULL);
  return true;
}

/* kmalloc (sizeof (*p)) -> kmalloc_obj (*p).  */
static bool
convert_object (const struct alloc_site *site, const struct allocator *a,
		long call_start, struct span *operand, struct conversion *c)
{
  c->name = typed_name (a, SITE_OBJECT, c->name_buf, sizeof c->name_buf);
  if (!c->name || excluded_operand (operand)
      || (excluded_destination (site)
	  && !assigns_to_operand (call_start, operand)))
    return false;
  const char *prefix;
  if (!typed_operand (site, call_start, operand, &prefix))
    return false;
  c->slot[a->size_arg].len = 0;
  set_slot (c, a->size_arg, prefix, operand, NULL, NULL);
  return true;
}

/* kmalloc (struct_size (p, fam, n)) -> kmalloc_flex (*p, fam, n).  */
static bool
convert_flex (const struct alloc_site *site, const struct allocator *a,
	      long call_start, struct span *args, struct conversion *c)
{
  struct span helper[3];
  bool by_type;
  if (!source_struct_size_parts (args[a->size_arg], helper, &by_type))
    return false;
  c->name = typed_name (a, SITE_FLEX, c->name_buf, sizeof c->name_buf);
  const char *prefix;
  if (!c->name || !typed_operand (site, call_start, &helper[0], &prefix))
    return false;
  if (!*prefix && !by_type)
    prefix = "*";
  c->slot[a->size_arg].len = 0;
  set_slot (c, a->size_arg, prefix, &helper[0], &helper[1], &helper[2]);
  return true;
}

/* Work out the typed call for the call text ARGS (COUNT of them); false
   when upstream would leave it alone.  */
static bool
convert (const struct alloc_site *site, long call_start, struct span *args,
	 int count, struct conversion *c)
{
  /* The row of the allocator as written: in 6.10+ kernels kvzalloc ()
     is a macro over __kvmalloc_node_noprof (), whose arguments differ.  */
  const struct allocator *a = alloc_find_name (site->name);
  if (!a)
    return false;
  bool array = a->count_arg >= 0;
  int nargs = array ? 3 : 2;
  if (count != nargs || a->gfp_arg != nargs - 1)
    return false;
  memset (c, 0, sizeof *c);
  c->nslots = count;
  for (int i = 0; i < count; i++)
    {
      source_trim (&args[i]);
      put_span (&c->slot[i], &args[i]);
    }

  struct span operand;
  bool converted;
  if (array)
    converted = convert_array (site, a, call_start, args, c);
  else if (source_sizeof_operand (args[a->size_arg], &operand))
    converted = convert_object (site, a, call_start, &operand, c);
  else
    converted = convert_flex (site, a, call_start, args, c);
  if (!converted)
    return false;
  /* Linux 7.0's default GFP.  */
  c->drop[a->gfp_arg] = source_span_is (&args[a->gfp_arg], "GFP_KERNEL")
			&& !kalloc_opts.suggest_keep_gfp;
  return true;
}

/* The whole typed call, for one-line calls and the message.  */
static void
conversion_text (const struct conversion *c, struct text *out)
{
  put_str (out, c->name);
  put_str (out, "(");
  bool first = true;
  for (int i = 0; i < c->nslots; i++)
    if (!c->drop[i])
      {
	if (!first)
	  put_str (out, ", ");
	put_str (out, c->slot[i].buf);
	first = false;
      }
  put_str (out, ")");
}

/* A cast right before the call that the typed result makes redundant:
   "(struct foo *)" when the result is a struct foo *.  Returns its '('
   or -1.  */
static long
redundant_cast (const struct alloc_site *site, long call_start)
{
  long p = call_start - 1;
  while (p >= 0 && ISSPACE (source_text[p]))
    p--;
  if (p < 0 || source_text[p] != ')' || !site->pointee)
    return -1;
  long close = p;
  while (p >= 0 && source_text[p] != '(' && source_text[p] != '\n'
	 && source_text[p] != ';')
    p--;
  if (p < 0 || source_text[p] != '(')
    return -1;
  struct span cast = { p + 1, close };
  char text[128], type[128];
  source_fold_space (&cast, text, sizeof text);
  size_t len = strlen (text);
  if (!len || text[len - 1] != '*')
    return -1;
  text[--len] = 0;
  while (len && text[len - 1] == ' ')
    text[--len] = 0;
  char *printed = print_generic_expr_to_str (TYPE_MAIN_VARIANT (site->pointee));
  snprintf (type, sizeof type, "%s", printed);
  free (printed);
  return strcmp (text, type) ? -1 : p;
}


/* Locations already suggested for in this function.  */
static struct location_set seen;

void
suggest_reset_function (void)
{
  seen.count = 0;
}


/* Add a fix-it replacing [FROM, TO] (inclusive) with TEXT.  */
static bool
add_edit (rich_location *richloc, location_t loc, long from, long to,
	  const char *text)
{
  location_t first = source_location_at (loc, from);
  location_t last = source_location_at (loc, to);
  if (first == UNKNOWN_LOCATION || last == UNKNOWN_LOCATION)
    return false;
  source_range range;
  range.m_start = first;
  range.m_finish = last;
  if (to < from)
    richloc->add_fixit_insert_before (first, text);
  else
    richloc->add_fixit_replace (range, text);
  return !richloc->seen_impossible_fixit_p ();
}

/* A call over several lines: edit it in place, slot by slot, so that
   its line breaks and alignment stay.  Dropping an argument would join
   lines, so GFP_KERNEL stays there.  */
static bool
add_slot_edits (rich_location *richloc, const struct alloc_site *site,
		struct span name, struct span *args, struct conversion *c,
		long cast)
{
  if (cast >= 0 && !add_edit (richloc, site->loc, cast, name.from - 1, ""))
    return false;
  if (!add_edit (richloc, site->loc, name.from, name.to - 1, c->name))
    return false;
  for (int i = 0; i < c->nslots; i++)
    {
      if (c->drop[i])
	{
	  /* ", GFP_KERNEL" on the same line as the argument before it.  */
	  long from = args[i - 1].to;
	  if (!source_same_line (from, args[i].to))
	    continue;
	  if (!add_edit (richloc, site->loc, from, args[i].to - 1, ""))
	    return false;
	  continue;
	}
      if (source_span_is (&args[i], c->slot[i].buf))
	continue;
      if (!source_same_line (args[i].from, args[i].to)
	  || !add_edit (richloc, site->loc, args[i].from, args[i].to - 1,
			c->slot[i].buf))
	return false;
    }
  return true;
}


/* A preprocessed input holds the expanded text, with its own lines:
   suggest writes patches for the file a person edits, so it declines,
   and says so once per unit.  True when it declines.  */
static bool
declined_preprocessed (location_t loc)
{
  static bool said;
  if (!source_is_preprocessed ())
    return false;
  if (!said)
    inform (loc, "kalloc: %<suggest%> makes no fix-its from a preprocessed "
	    "input (its text is expanded and laid out differently); run it "
	    "on the source file");
  said = true;
  return true;
}

/* The converted code calls Linux 7.0's typed macros: a unit that does
   not define them (an older tree) is told where they are, once, at its
   first conversion in source order (the order functions are compiled in
   depends on -O).  */
static location_t undefined_at;
static char undefined_macro[64];

static void
note_typed_macro (location_t loc, const char *name)
{
  size_t n = strcspn (name, "(");
  if (!parse_in || n >= sizeof undefined_macro
      || (undefined_at != UNKNOWN_LOCATION && undefined_at < loc))
    return;
  char macro[sizeof undefined_macro];
  memcpy (macro, name, n);
  macro[n] = '\0';
  if (cpp_defined (parse_in, (const unsigned char *) macro, n))
    return;
  undefined_at = loc;
  memcpy (undefined_macro, macro, n + 1);
}

/* At the end of the unit: the note above, and the patch file.  */
void
suggest_finish (void)
{
  if (undefined_at != UNKNOWN_LOCATION)
    inform (undefined_at, "kalloc: %qs is not defined here: Linux 7.0 and "
	    "later define the typed allocators in %<<linux/slab.h>%>; on an "
	    "older tree the header %<<kalloc.h>%> that kalloc installs "
	    "provides them (%<#include <kalloc.h>%>, or %<-include kalloc.h%>)",
	    undefined_macro);
  suggest_patch_finish ();
}

/* Attach a fix-it converting SITE's call to its typed form.  */
void
suggest_site (const struct alloc_site *site, unsigned warned)
{
  if (declined_preprocessed (site->loc))
    return;
  /* A typed form would fix the size silently: the warning above says
     how, and the conversion can follow the fix.  */
  if (warned)
    {
      if (site->loc != UNKNOWN_LOCATION
	  && site_location_set_add (&seen, site->loc))
	inform (site->loc, "%qs not converted to its typed form: its size "
		"is wrong (the warning above); fix the size first", site->name);
      return;
    }
  /* The call's text decides, not site->kind: a struct_size () whose
     array is a nested member (action.entries) is opaque to kalloc's size
     analysis but converts all the same.  */
  if (site->loc == UNKNOWN_LOCATION
      || !site_location_set_add (&seen, site->loc))
    return;
  if (site->in_macro && typed_macro (site->outer_macro))
    return;
  if (site->in_macro)
    {
      inform (site->loc, "%qs is written in a macro body: no fix-it; "
	      "convert it in the macro", site->name);
      return;
    }
  struct source_call call;
  if (!source_call_find (site->loc, site->name, &call))
    return;
  struct span name = call.name, *args = call.args;
  long start = name.from, close = call.close;
  int count = call.nargs;

  struct conversion c;
  if (!convert (site, start, args, count, &c))
    return;
  struct text whole = { { 0 }, 0 };
  long cast = redundant_cast (site, start);
  long from = cast >= 0 ? cast : start;

  rich_location richloc (line_table, site->loc);
  bool ok;
  if (source_same_line (from, close))
    {
      conversion_text (&c, &whole);
      ok = add_edit (&richloc, site->loc, from, close, whole.buf);
    }
  else
    {
      ok = add_slot_edits (&richloc, site, name, args, &c, cast);
      for (int i = 0; i < c.nslots; i++)
	c.drop[i] &= source_same_line (args[i - (i > 0)].to, args[i].to);
      conversion_text (&c, &whole);
    }
  if (!ok)
    return;
  inform (&richloc, "typed form: %qs", whole.buf);
  if (kalloc_opts.suggest_patch)
    suggest_patch_add (&richloc);
  note_typed_macro (site->loc, c.name);
}
