/*
 * source.c - the text of an allocation call, as the user wrote it.
 *
 * GIMPLE has only folded constants: sizeof (*p) is 24 there.  What the
 * program spelled (the sizeof operand, struct_size ()'s arguments, the
 * allocator's name) is read back from the source file at the call's
 * location, with a small scanner that skips comments and literals and
 * matches brackets.  suggest.c builds its fix-its from it, and
 * sizeof-type.c the type a sizeof names.
 *
 * A preprocessed input (a .i, what distcc and icecream helpers compile,
 * -fpreprocessed) is its own text: the call is read from it, through its
 * line markers, whether or not the file they name is there, so that a
 * compile gives the same verdict wherever it runs.  That text has its
 * macros expanded; locations in it are not the user's file's, so no
 * fix-it is made from it (location_at () says so).
 */
#include "kalloc.h"

/* ---- the source file ----------------------------------------------------- */

static char *source_name;
char *source_text;
long source_len;

/* Where each line starts in the text: line L (1-based) at
   line_start[L - 1].  Kept with the text, so that a call's position is
   found in O(log lines), not by counting lines from the top (100,000
   calls in one file made that quadratic).  */
static long *line_start;
static int line_count;

static void
index_lines (void)
{
  line_count = 1;
  for (long i = 0; i < source_len; i++)
    line_count += source_text[i] == '\n';
  line_start = XRESIZEVEC (long, line_start, line_count);
  int l = 0;
  line_start[l++] = 0;
  for (long i = 0; i < source_len; i++)
    if (source_text[i] == '\n')
      line_start[l++] = i + 1;
}

/* A preprocessed input's line markers: physical line FIRST (0-based) of
   the text is line LINE of FILE, and so on until the next marker.  */
struct line_marker
{
  int first;
  int line;
  const char *file;		/* in marker_files */
};
static struct line_marker *markers;
static int marker_count, marker_room;
static bool text_is_preprocessed;

/* Is the translation unit a preprocessed input (.i, -fpreprocessed)?  */
static bool
input_preprocessed (void)
{
  return parse_in && cpp_get_options (parse_in)->preprocessed;
}

bool
source_is_preprocessed (void)
{
  return input_preprocessed ();
}

/* Read the markers (# LINE "FILE" FLAGS) of the loaded text.  */
static void
index_markers (void)
{
  marker_count = 0;
  for (int l = 0; l < line_count; l++)
    {
      const char *p = source_text + line_start[l];
      if (*p != '#')
	continue;
      p++;
      while (*p == ' ' || *p == '\t')
	p++;
      if (!strncmp (p, "line", 4))
	p += 4;
      char *end;
      long line = strtol (p, &end, 10);
      if (end == p || line < 0)
	continue;
      p = end;
      while (*p == ' ' || *p == '\t')
	p++;
      if (*p != '"')
	continue;
      const char *name = ++p;
      while (*p && *p != '"' && *p != '\n')
	p += *p == '\\' && p[1] ? 2 : 1;
      if (*p != '"')
	continue;
      /* A kernel unit's .i has thousands of markers: grow by doubling.  */
      if (marker_count == marker_room)
	{
	  marker_room = marker_room ? 2 * marker_room : 256;
	  markers = XRESIZEVEC (struct line_marker, markers, marker_room);
	}
      markers[marker_count].first = l + 1;
      markers[marker_count].line = line;
      /* Escapes in the name are left as cpp wrote them: the names
	 compared below come from the same markers.  */
      markers[marker_count].file = xstrndup (name, p - name);
      marker_count++;
    }
}

static bool
read_file (const char *file)
{
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
	{
	  source_text[source_len] = 0;
	  index_lines ();
	}
    }
  fclose (f);
  return source_text != NULL;
}

/* The text FILE's locations are in: the preprocessed input itself when
   the unit is one, else FILE (cached: one translation unit reads few
   files).  */
static bool
load_source (const char *file)
{
  /* main_input_filename is the name the first line marker gives; the
     file cc1 reads is the first of in_fnames.  */
  if (input_preprocessed ())
    file = num_in_fnames ? in_fnames[0] : NULL;
  if (!file)
    return false;
  if (source_name && !strcmp (source_name, file))
    return source_text != NULL;
  free (source_name);
  free (source_text);
  source_name = xstrdup (file);
  source_text = NULL;
  text_is_preprocessed = input_preprocessed ();
  if (!read_file (file))
    return false;
  if (text_is_preprocessed)
    index_markers ();
  return true;
}

/* The physical line of the loaded text that is LINE of FILE, or 0.  */
static int
physical_line (const char *file, int line)
{
  if (!text_is_preprocessed)
    return line;
  /* The last marker for FILE at or before LINE whose stretch holds it. */
  for (int i = marker_count - 1; i >= 0; i--)
    {
      const struct line_marker *m = &markers[i];
      int end = i + 1 < marker_count ? markers[i + 1].first - 1 : line_count;
      if (strcmp (m->file, file) || line < m->line
	  || m->first + (line - m->line) >= end)
	continue;
      return m->first + (line - m->line) + 1;
    }
  return 0;
}

/* The offset of LINE:COLUMN in the text, or -1.  */
static long
source_offset (int line, int column)
{
  if (line < 1 || line > line_count)
    return -1;
  long pos = line_start[line - 1] + column - 1;
  return pos < source_len ? pos : -1;
}

static void
offset_position (long offset, int *line, int *column)
{
  /* The last line that starts at or before OFFSET.  */
  int lo = 0, hi = line_count - 1;
  while (lo < hi)
    {
      int mid = lo + (hi - lo + 1) / 2;
      if (line_start[mid] <= offset)
	lo = mid;
      else
	hi = mid - 1;
    }
  *line = lo + 1;
  *column = offset - line_start[lo] + 1;
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
  return from + SOURCE_MAX_CALL < source_len ? from + SOURCE_MAX_CALL
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

/* The argument spans of the call whose '(' is at OPEN; *CLOSE gets the
   ')' that ends it.  Returns the count, or -1.  */
int
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
	      if (count == SOURCE_MAX_ARGS)
		return -1;
	      args[count].from = start;
	      args[count].to = p;
	      *close = p;
	      return count + 1;
	    }
	}
      else if (c == ',' && depth == 1)
	{
	  if (count == SOURCE_MAX_ARGS)
	    return -1;
	  args[count].from = start;
	  args[count++].to = p;
	  start = p + 1;
	}
    }
  return -1;
}

void
trim (struct span *s)
{
  while (s->from < s->to && ISSPACE (source_text[s->from]))
    s->from++;
  while (s->to > s->from && ISSPACE (source_text[s->to - 1]))
    s->to--;
}

/* Does S consist of WORD (and nothing else)?  */
bool
span_is (const struct span *s, const char *word)
{
  size_t len = strlen (word);
  return (size_t) (s->to - s->from) == len
	 && !strncmp (source_text + s->from, word, len);
}

/* Drop parentheses around the whole of S.  */
void
strip_parens (struct span *s)
{
  trim (s);
  while (s->to - s->from >= 2 && source_text[s->from] == '('
	 && source_text[s->to - 1] == ')')
    {
      struct span inner[SOURCE_MAX_ARGS];
      long close;
      if (split_args (s->from, &close, inner) != 1 || close != s->to - 1)
	return;
      s->from++;
      s->to--;
      trim (s);
    }
}

/* If S starts with the identifier WORD, the offset after it.  */
long
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
	  struct span inner[SOURCE_MAX_ARGS];
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
bool
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
      struct span inner[SOURCE_MAX_ARGS];
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

/* S is "NAME (A, B, ...)" with NARGS arguments: their spans.  */
bool
helper_call (struct span s, const char *name, struct span *args, int nargs)
{
  strip_parens (&s);
  long p = after_word (&s, name);
  if (p < 0)
    return false;
  while (p < s.to && ISSPACE (source_text[p]))
    p++;
  /* split_args fills up to SOURCE_MAX_ARGS spans, ARGS has NARGS.  */
  struct span all[SOURCE_MAX_ARGS];
  long close;
  if (p >= s.to || source_text[p] != '('
      || split_args (p, &close, all) != nargs || close != s.to - 1)
    return false;
  for (int i = 0; i < nargs; i++)
    {
      args[i] = all[i];
      trim (&args[i]);
    }
  return true;
}

/* Copy S into BUF with runs of white space folded to one space.  */
void
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

/* A location for OFFSET in the file of LOC's line map, or 0.  */
location_t
location_at (location_t loc, long offset)
{
  if (text_is_preprocessed)
    return UNKNOWN_LOCATION;	/* the .i's lines are not the file's */
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

bool
same_line (long from, long to)
{
  return !memchr (source_text + from, '\n', to - from);
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

/* Does the identifier that ends at END (inclusive) read WORD?  */
static bool
word_ends_at (long end, const char *word)
{
  long len = strlen (word);
  long from = end - len + 1;
  return from >= 0 && !strncmp (source_text + from, word, len)
	 && (from == 0 || !ISIDNUM (source_text[from - 1]));
}

/* Split S at its top-level binary OP ('+' or '*'): the terms, at most
   MAX, or -1.  An OP after an operator or '(' is unary, and so is a '*'
   after the word sizeof.  */
int
split_top (struct span s, char op, struct span *parts, int max)
{
  int depth = 0, count = 0;
  long prev = -1;		/* the last code character */
  strip_parens (&s);
  long start = s.from;
  for (long p = s.from; p < s.to; p++)
    {
      int c = code_char (&p, s.to, &depth);
      if (c < 0)
	{
	  prev = p;		/* a literal is an operand */
	  continue;
	}
      if (ISSPACE (c))
	continue;
      bool after_operand = prev >= 0 && (ISIDNUM (source_text[prev])
					 || source_text[prev] == ')'
					 || source_text[prev] == ']'
					 || source_text[prev] == '"'
					 || source_text[prev] == '\'');
      if (c == op && depth == 0 && after_operand
	  && !(op == '*' && word_ends_at (prev, "sizeof")))
	{
	  if (count == max)
	    return -1;
	  parts[count].from = start;
	  parts[count++].to = p;
	  start = p + 1;
	  prev = -1;
	  continue;
	}
      prev = p;
    }
  if (count == max)
    return -1;
  parts[count].from = start;
  parts[count++].to = s.to;
  for (int i = 0; i < count; i++)
    trim (&parts[i]);
  return count;
}

/* ---- the call ------------------------------------------------------------ */

/* Find the call to NAME at LOC (the outermost macro expansion point of
   the allocator's call) in its source file, and split its arguments.
   False when the text is not there, not one call to NAME, or has
   comments in its arguments (an edit could not keep them).  */
bool
source_call_find (location_t loc, const char *name, struct source_call *call)
{
  if (loc == UNKNOWN_LOCATION)
    return false;
  expanded_location where = expand_location (loc);
  if (!where.file || !load_source (where.file))
    return false;
  long start = source_offset (physical_line (where.file, where.line),
			      where.column);
  if (start < 0)
    return false;
  struct span *id = &call->name;
  id->from = id->to = start;
  while (id->to < source_len && ISIDNUM (source_text[id->to]))
    id->to++;
  /* Expanded text (a .i) spells 6.10+'s kmalloc () as the function its
     macro calls, kmalloc_noprof ().  */
  char noprof[128];
  snprintf (noprof, sizeof noprof, "%s" NOPROF_SUFFIX, name);
  if (text_is_preprocessed && span_is (id, noprof))
    name = noprof;
  if (!span_is (id, name))
    {
      start = find_call (start, name);
      if (start < 0)
	return false;
      id->from = start;
      id->to = start + strlen (name);
    }
  long open = id->to;
  while (open < source_len && ISSPACE (source_text[open]))
    open++;
  if (!span_is (id, name) || open >= source_len || source_text[open] != '(')
    return false;
  call->nargs = split_args (open, &call->close, call->args);
  if (call->nargs < 0)
    return false;
  for (int i = 0; i < call->nargs; i++)
    if (has_comment (source_text, call->args[i].from, call->args[i].to))
      return false;
  return true;
}
