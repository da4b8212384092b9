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

#define MAX_CALL_TEXT 4096
#define MAX_ARGS 8

/* ---- the source file ----------------------------------------------------- */

static char *source_name;
static char *source_text;
static long source_len;

/* The text of FILE (cached: one translation unit reads few files).  */
static bool
load_source (const char *file)
{
  if (source_name && !strcmp (source_name, file))
    return source_text != NULL;
  free (source_name);
  free (source_text);
  source_name = xstrdup (file);
  source_text = NULL;
  FILE *f = fopen (file, "rb");
  if (!f)
    return false;
  if (fseek (f, 0, SEEK_END) == 0 && (source_len = ftell (f)) >= 0
      && fseek (f, 0, SEEK_SET) == 0)
    {
      source_text = XNEWVEC (char, source_len + 1);
      if (fread (source_text, 1, source_len, f) != (size_t) source_len)
	{
	  free (source_text);
	  source_text = NULL;
	}
      else
	source_text[source_len] = 0;
    }
  fclose (f);
  return source_text != NULL;
}

/* The offset of LINE:COLUMN (1-based, bytes) in the cached source.  */
static long
source_offset (int line, int column)
{
  long pos = 0;
  for (int l = 1; l < line; l++)
    {
      const char *nl = (const char *) memchr (source_text + pos, '\n',
					      source_len - pos);
      if (!nl)
	return -1;
      pos = nl - source_text + 1;
    }
  pos += column - 1;
  return pos < source_len ? pos : -1;
}

static void
offset_position (long offset, int *line, int *column)
{
  int l = 1;
  long start = 0;
  for (long i = 0; i < offset; i++)
    if (source_text[i] == '\n')
      {
	l++;
	start = i + 1;
      }
  *line = l;
  *column = offset - start + 1;
}

/* ---- C text: skip comments and literals, match parentheses --------------- */

/* Past the comment or literal at P, or P itself.  */
static long
skip_token (const char *s, long p, long end)
{
  if (s[p] == '/' && p + 1 < end && s[p + 1] == '*')
    {
      const char *close = strstr (s + p + 2, "*/");
      return close && close - s + 2 <= end ? close - s + 2 : end;
    }
  if (s[p] == '/' && p + 1 < end && s[p + 1] == '/')
    {
      while (p < end && s[p] != '\n')
	p++;
      return p;
    }
  if (s[p] == '"' || s[p] == '\'')
    {
      char quote = s[p++];
      while (p < end && s[p] != quote)
	p += s[p] == '\\' ? 2 : 1;
      return p + 1;
    }
  return p;
}

static bool
has_comment (const char *s, long from, long to)
{
  for (long p = from; p < to; p++)
    {
      if (s[p] == '"' || s[p] == '\'')
	p = skip_token (s, p, to) - 1;
      else if (s[p] == '/' && p + 1 < to && (s[p + 1] == '*' || s[p + 1] == '/'))
	return true;
    }
  return false;
}

/* Where a scan of one call's text starting at FROM gives up.  */
static long
scan_limit (long from)
{
  return from + MAX_CALL_TEXT < source_len ? from + MAX_CALL_TEXT
					   : source_len;
}

/* The code character at *P with *DEPTH counting brackets, or -1 when a
   string, character constant or comment starts there: *P then moves to
   its last character, so that the caller's p++ steps past it.  */
static int
code_char (long *p, long end, int *depth)
{
  long next = skip_token (source_text, *p, end);
  if (next != *p)
    {
      *p = next - 1;
      return -1;
    }
  unsigned char c = source_text[*p];
  if (c == '(' || c == '[' || c == '{')
    ++*depth;
  else if (c == ')' || c == ']' || c == '}')
    --*depth;
  return c;
}

struct span
{
  long from, to;		/* [from, to) in the source */
};

/* The argument spans of the call whose '(' is at OPEN; *CLOSE gets the
   ')' that ends it.  Returns the count, or -1.  */
static int
split_args (long open, long *close, struct span *args)
{
  int depth = 0, count = 0;
  long start = open + 1;
  long end = scan_limit (open);
  for (long p = open; p < end; p++)
    {
      int c = code_char (&p, end, &depth);
      if (c < 0)
	continue;
      if (c == ')' || c == ']' || c == '}')
	{
	  if (depth == 0)
	    {
	      if (count == MAX_ARGS)
		return -1;
	      args[count].from = start;
	      args[count].to = p;
	      *close = p;
	      return count + 1;
	    }
	}
      else if (c == ',' && depth == 1)
	{
	  if (count == MAX_ARGS)
	    return -1;
	  args[count].from = start;
	  args[count++].to = p;
	  start = p + 1;
	}
    }
  return -1;
}

static void
trim (struct span *s)
{
  while (s->from < s->to && ISSPACE (source_text[s->from]))
    s->from++;
  while (s->to > s->from && ISSPACE (source_text[s->to - 1]))
    s->to--;
}

/* Does S consist of WORD (and nothing else)?  */
static bool
span_is (const struct span *s, const char *word)
{
  size_t len = strlen (word);
  return (size_t) (s->to - s->from) == len
	 && !strncmp (source_text + s->from, word, len);
}

/* Drop parentheses around the whole of S.  */
static void
strip_parens (struct span *s)
{
  trim (s);
  while (s->to - s->from >= 2 && source_text[s->from] == '('
	 && source_text[s->to - 1] == ')')
    {
      struct span inner[MAX_ARGS];
      long close;
      if (split_args (s->from, &close, inner) != 1 || close != s->to - 1)
	return;
      s->from++;
      s->to--;
      trim (s);
    }
}

/* If S starts with the identifier WORD, the offset after it.  */
static long
after_word (const struct span *s, const char *word)
{
  size_t len = strlen (word);
  if ((size_t) (s->to - s->from) < len
      || strncmp (source_text + s->from, word, len)
      || (s->from + (long) len < s->to
	  && ISIDNUM (source_text[s->from + len])))
    return -1;
  return s->from + len;
}

/* Is S, an operand of sizeof written without parentheses, all of it a
   unary expression (*p, h->many[0]), not the left of a binary one?  */
static bool
unary_operand (const struct span *s)
{
  bool operand_seen = false;
  for (long p = s->from; p < s->to; p++)
    {
      char c = source_text[p];
      if (c == '(' || c == '[')
	{
	  struct span inner[MAX_ARGS];
	  long close;
	  if (split_args (p, &close, inner) < 0 || close >= s->to)
	    return false;
	  p = close;
	  operand_seen = true;
	}
      else if (ISIDNUM (c) || c == '.')
	operand_seen = true;
      else if (c == '-' && p + 1 < s->to && source_text[p + 1] == '>')
	p++;
      else if ((c == '*' || c == '&') && !operand_seen)
	;
      else if (!ISSPACE (c))
	return false;
    }
  return true;
}

/* S is "sizeof (X)" or "sizeof X": X.  */
static bool
sizeof_operand (struct span s, struct span *operand)
{
  strip_parens (&s);
  long p = after_word (&s, "sizeof");
  if (p < 0)
    return false;
  operand->from = p;
  operand->to = s.to;
  trim (operand);
  if (operand->from < operand->to && source_text[operand->from] == '(')
    {
      struct span inner[MAX_ARGS];
      long close;
      if (split_args (operand->from, &close, inner) != 1
	  || close != operand->to - 1)
	return false;	/* sizeof (a) + b */
      strip_parens (operand);
    }
  else if (!unary_operand (operand))
    return false;	/* sizeof *p * n */
  return operand->from < operand->to;
}

/* S is "NAME (A, B, C)": the three argument spans.  */
static bool
helper_call (struct span s, const char *name, struct span *args)
{
  strip_parens (&s);
  long p = after_word (&s, name);
  if (p < 0)
    return false;
  while (p < s.to && ISSPACE (source_text[p]))
    p++;
  long close;
  if (p >= s.to || source_text[p] != '('
      || split_args (p, &close, args) != 3 || close != s.to - 1)
    return false;
  for (int i = 0; i < 3; i++)
    trim (&args[i]);
  return true;
}

/* ---- upstream's exclusions ----------------------------------------------- */

/* The typedefs and types upstream leaves alone (its INTEGRAL list).  */
static const char *const integral_names[] = {
  "u8", "__u8", "uint8_t", "char", "unsigned char", "uchar", "wchar_t",
  "u16", "__u16", "uint16_t", "unsigned short", "ushort",
  "u32", "__u32", "uint32_t", "unsigned int", "uint",
  "u64", "__u64", "uint64_t", "unsigned long", "ulong",
  "__le16", "__le32", "__le64", "__be16", "__be32", "__be64"
};

/* Copy S into BUF with runs of white space folded to one space.  */
static void
fold_space (const struct span *s, char *buf, size_t size)
{
  size_t n = 0;
  bool space = false;
  for (long p = s->from; p < s->to && n + 2 < size; p++)
    {
      if (ISSPACE (source_text[p]))
	{
	  space = true;
	  continue;
	}
      if (space && n)
	buf[n++] = ' ';
      space = false;
      buf[n++] = source_text[p];
    }
  buf[n] = 0;
}

/* sizeof (STRING), sizeof (INTEGRAL), sizeof (INTEGRAL *), sizeof (void *) */
static bool
excluded_operand (const struct span *operand)
{
  char text[128];
  fold_space (operand, text, sizeof text);
  if (text[0] == '"')
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

/* Is the call at CALL_START the right-hand side of "X = " (an assignment
   or an initialised declarator) where OPERAND is "*X"?  Upstream's first
   rule, VAR = ALLOC (sizeof (*VAR), GFP), converts these whatever VAR's
   type: kmalloc_obj (*VAR) returns exactly VAR's type.  */
static bool
assigns_to_operand (long call_start, const struct span *operand)
{
  struct span x = *operand;
  if (x.from >= x.to || source_text[x.from] != '*')
    return false;
  x.from++;
  strip_parens (&x);
  long len = x.to - x.from;
  long p = call_start - 1;
  while (p >= 0 && ISSPACE (source_text[p]))
    p--;
  if (p < 1 || source_text[p] != '=' || strchr ("=!<>+-*/%&|^", source_text[p - 1]))
    return false;
  p--;
  while (p >= 0 && ISSPACE (source_text[p]))
    p--;
  long lhs_from = p + 1 - len;
  if (len <= 0 || lhs_from < 0
      || strncmp (source_text + lhs_from, source_text + x.from, len))
    return false;
  /* X must be the whole left-hand side, not a member or tail of it.  */
  return lhs_from == 0 || !(ISIDNUM (source_text[lhs_from - 1])
			    || strchr (".>", source_text[lhs_from - 1]));
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

/* The typed name for NAME (as spelled) and KIND, or NULL.  */
static const char *
typed_name (const char *name, enum site_kind kind, char *buf, size_t size)
{
  static const char *const sized[] = { "kmalloc", "kzalloc", "kvmalloc",
				       "kvzalloc" };
  static const char *const arrays[][2] = {
    { "kmalloc_array", "kmalloc_objs" }, { "kvmalloc_array", "kvmalloc_objs" },
    { "kcalloc", "kzalloc_objs" }, { "kvcalloc", "kvzalloc_objs" }
  };
  if (kind == SITE_ARRAY)
    {
      for (size_t i = 0; i < ARRAY_SIZE (arrays); i++)
	if (!strcmp (name, arrays[i][0]))
	  return arrays[i][1];
      return NULL;
    }
  for (size_t i = 0; i < ARRAY_SIZE (sized); i++)
    if (!strcmp (name, sized[i]))
      {
	snprintf (buf, size, "%s_%s", name, kind == SITE_FLEX ? "flex" : "obj");
	return buf;
      }
  return NULL;
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
      trim (&args[i]);
      put_span (&c->slot[i], &args[i]);
    }

  struct span operand, helper[3];
  if (array)
    {
      int size_slot = a->size_arg, count_slot = a->count_arg;
      if (!sizeof_operand (args[size_slot], &operand))
	{
	  size_slot = a->count_arg;
	  count_slot = a->size_arg;
	  if (!sizeof_operand (args[size_slot], &operand))
	    return false;
	}
      c->name = typed_name (site->name, SITE_ARRAY, c->name_buf,
			    sizeof c->name_buf);
      if (!c->name || excluded_operand (&operand)
	  || excluded_destination (site))
	return false;
      /* kmalloc_objs (TYPE, COUNT): the type first, in either order.  */
      struct span count_text = args[count_slot];
      c->slot[0].len = c->slot[1].len = 0;
      set_slot (c, 0, "", &operand, NULL, NULL);
      set_slot (c, 1, "", &count_text, NULL, NULL);
    }
  else if (sizeof_operand (args[a->size_arg], &operand))
    {
      c->name = typed_name (site->name, SITE_OBJECT, c->name_buf,
			    sizeof c->name_buf);
      if (!c->name || excluded_operand (&operand)
	  || (excluded_destination (site)
	      && !assigns_to_operand (call_start, &operand)))
	return false;
      c->slot[a->size_arg].len = 0;
      set_slot (c, a->size_arg, "", &operand, NULL, NULL);
    }
  else
    {
      bool by_type = helper_call (args[a->size_arg], "struct_size_t", helper);
      if (!by_type && !helper_call (args[a->size_arg], "struct_size", helper))
	return false;
      c->name = typed_name (site->name, SITE_FLEX, c->name_buf,
			    sizeof c->name_buf);
      if (!c->name)
	return false;
      c->slot[a->size_arg].len = 0;
      set_slot (c, a->size_arg, by_type ? "" : "*", &helper[0], &helper[1],
		&helper[2]);
    }
  /* Linux 7.0's default GFP.  */
  c->drop[a->gfp_arg] = span_is (&args[a->gfp_arg], "GFP_KERNEL")
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
  fold_space (&cast, text, sizeof text);
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

/* A location for OFFSET in the file of LOC's line map, or 0.  */
static location_t
location_at (location_t loc, long offset)
{
  int line, column;
  offset_position (offset, &line, &column);
  const line_map *map = linemap_lookup (line_table, loc);
  if (!map || linemap_macro_expansion_map_p (map))
    return UNKNOWN_LOCATION;
  const line_map_ordinary *ord = linemap_check_ordinary (map);
  if (line < (int) ORDINARY_MAP_STARTING_LINE_NUMBER (ord))
    return UNKNOWN_LOCATION;
  location_t result = linemap_position_for_line_and_column (line_table, ord,
							      line, column);
  expanded_location check = expand_location (result);
  if (check.line != line || check.column != column || !check.file
      || strcmp (check.file, LOCATION_FILE (loc)))
    return UNKNOWN_LOCATION;
  return result;
}

/* Locations already suggested for in this function.  */
static struct location_set seen;

void
suggest_reset_function (void)
{
  seen.count = 0;
}

static bool
same_line (long from, long to)
{
  return !memchr (source_text + from, '\n', to - from);
}

/* Add a fix-it replacing [FROM, TO] (inclusive) with TEXT.  */
static bool
add_edit (rich_location *richloc, location_t loc, long from, long to,
	  const char *text)
{
  location_t first = location_at (loc, from);
  location_t last = location_at (loc, to);
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
	  if (!same_line (from, args[i].to))
	    continue;
	  if (!add_edit (richloc, site->loc, from, args[i].to - 1, ""))
	    return false;
	  continue;
	}
      if (span_is (&args[i], c->slot[i].buf))
	continue;
      if (!same_line (args[i].from, args[i].to)
	  || !add_edit (richloc, site->loc, args[i].from, args[i].to - 1,
			c->slot[i].buf))
	return false;
    }
  return true;
}

/* The offset of the one call "NAME (" in the statement that starts at
   FROM, or -1 (none, or several).  GCC gives a call that is an argument
   of another (use (kmalloc (...))) the outer call's location.  */
static long
find_call (long from, const char *name)
{
  size_t len = strlen (name);
  long found = -1;
  int depth = 0;
  long end = scan_limit (from);
  for (long p = from; p < end; p++)
    {
      int c = code_char (&p, end, &depth);
      if (c < 0)
	continue;
      if ((c == ';' && depth <= 0) || depth < 0)
	break;
      if ((p > 0 && ISIDNUM (source_text[p - 1]))
	  || strncmp (source_text + p, name, len)
	  || ISIDNUM (source_text[p + len]))
	continue;
      long q = p + len;
      while (q < end && ISSPACE (source_text[q]))
	q++;
      if (q < end && source_text[q] == '(')
	{
	  if (found >= 0)
	    return -1;
	  found = p;
	}
    }
  return found;
}

/* Attach a fix-it converting SITE's call to its typed form.  */
void
suggest_site (const struct alloc_site *site)
{
  /* The call's text decides, not site->kind: a struct_size () whose
     array is a nested member (action.entries) is opaque to kalloc's size
     analysis but converts all the same.  */
  if (site->loc == UNKNOWN_LOCATION || !location_set_add (&seen, site->loc))
    return;
  if (site->in_macro)
    {
      inform (site->loc, "%qs is written in a macro body: no fix-it; "
	      "convert it in the macro", site->name);
      return;
    }
  expanded_location where = expand_location (site->loc);
  if (!where.file || !load_source (where.file))
    return;
  long start = source_offset (where.line, where.column);
  if (start < 0)
    return;
  struct span name = { start, start };
  while (name.to < source_len && ISIDNUM (source_text[name.to]))
    name.to++;
  if (!span_is (&name, site->name))
    {
      start = find_call (start, site->name);
      if (start < 0)
	return;
      name.from = name.to = start;
      name.to += strlen (site->name);
    }
  long open = name.to;
  while (open < source_len && ISSPACE (source_text[open]))
    open++;
  if (!span_is (&name, site->name) || open >= source_len
      || source_text[open] != '(')
    return;

  struct span args[MAX_ARGS];
  long close;
  int count = split_args (open, &close, args);
  if (count < 0)
    return;
  for (int i = 0; i < count; i++)
    if (has_comment (source_text, args[i].from, args[i].to))
      return;

  struct conversion c;
  if (!convert (site, start, args, count, &c))
    return;
  struct text whole = { { 0 }, 0 };
  long cast = redundant_cast (site, start);
  long from = cast >= 0 ? cast : start;

  rich_location richloc (line_table, site->loc);
  bool ok;
  if (same_line (from, close))
    {
      conversion_text (&c, &whole);
      ok = add_edit (&richloc, site->loc, from, close, whole.buf);
    }
  else
    {
      ok = add_slot_edits (&richloc, site, name, args, &c, cast);
      for (int i = 0; i < c.nslots; i++)
	c.drop[i] &= same_line (args[i - (i > 0)].to, args[i].to);
      conversion_text (&c, &whole);
    }
  if (ok)
    inform (&richloc, "typed form: %qs", whole.buf);
}
