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
 * fix-it is made from it (source_location_at () says so).
 */
#include "kalloc.h"

/* ---- the source file ----------------------------------------------------- */

static char *source_name;
char *source_text;
long source_len;
/* The file's own text ends here; the expansions of macros in a call's
   arguments (source_call_read ()) are appended after it.  */
static long file_len;
static long text_room;
/* Bumped whenever another file's text is loaded: spans of an earlier
   one mean nothing any more.  */
static unsigned text_generation;

/* Where each line starts in the text: line L (1-based) at
   line_start[L - 1].  Kept with the text, so that a call's position is
   found in O(log lines), not by counting lines from the top (100,000
   calls in one file made that quadratic).  */
static long *line_start;
static int line_count;

/* The start of every line, found with memchr (): a kernel unit's .i is
   megabytes, and a byte-by-byte scan cost more than the rest of kalloc
   in such a unit.  */
static void
index_lines (void)
{
  static int room;
  line_count = 0;
  for (long at = 0;;)
    {
      if (line_count == room)
	{
	  room = room ? 2 * room : 4096;
	  line_start = XRESIZEVEC (long, line_start, room);
	}
      line_start[line_count++] = at;
      const char *nl = (const char *) memchr (source_text + at, '\n',
					      source_len - at);
      if (!nl)
	break;
      at = nl + 1 - source_text;
    }
}

/* A preprocessed input's line markers: the physical line that starts at
   offset START of the text is line LINE of FILE, and so on up to offset
   END, where the next marker's line starts.  A .i is megabytes of which
   kalloc reads a few calls: its lines are counted from a marker when a
   call asks (physical_line_start), not indexed up front.  */
struct line_marker
{
  long start, end;
  int line;
  const char *file;
  int walked;			/* the line at WALKED_AT, counted from START */
  long walked_at;
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

/* A marker's file name: the same few names repeat thousands of times.  */
static const char *
marker_file (const char *name, size_t len)
{
  static const char *recent[8];
  for (int i = 0; i < 8; i++)
    if (recent[i] && !strncmp (recent[i], name, len) && !recent[i][len])
      return recent[i];
  static int next;
  char *copy = xstrndup (name, len);
  recent[next++ % 8] = copy;
  return copy;
}

/* Read the markers (# LINE "FILE" FLAGS) of the loaded text: the lines
   that start with '#', found by jumping from '#' to '#'.  */
static void
index_markers (void)
{
  marker_count = 0;
  for (char *h = source_text;
       (h = (char *) memchr (h, '#', source_text + source_len - h)); h++)
    {
      if (h != source_text && h[-1] != '\n')
	continue;
      const char *p = h + 1;
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
      if (marker_count == marker_room)
	{
	  marker_room = marker_room ? 2 * marker_room : 256;
	  markers = XRESIZEVEC (struct line_marker, markers, marker_room);
	}
      char *nl = (char *) memchr (p, '\n', source_text + source_len - p);
      long self = h - source_text;
      struct line_marker *m = &markers[marker_count++];
      m->start = nl ? nl + 1 - source_text : source_len + 1;
      m->end = source_len + 1;
      m->line = line;
      m->walked = 0;
      m->walked_at = m->start;
      /* Escapes in the name are left as cpp wrote them: the names
	 compared below come from the same markers.  */
      m->file = marker_file (name, p - name);
      if (marker_count > 1)
	m[-1].end = self;
      /* A call whose arguments come from several macros is split by
	 markers (# 25 "f.c" 3 4 before a system header's offsetof):
	 blank them, so the call reads as one text and offsets stay.  */
      memset (h, ' ', (nl ? nl : source_text + source_len) - h);
      h = nl ? nl : source_text + source_len - 1;
    }
}

/* A unit read from standard input: what cpp read, kept by
   source_keep_stdin ().  */
static char *stdin_text;
static long stdin_len;

/* Does cc1 read the unit from standard input?  icecream's helpers
   compile "-", the .i piped in.  */
static bool
input_is_stdin (void)
{
  /* "-" on the command line; c_common_post_options () makes it "".  */
  return num_in_fnames == 0 || !strcmp (in_fnames[0], "-") || !*in_fnames[0];
}

/* Standard input can be read once, and cpp reads it after the plugins
   are loaded: keep a copy, and give cpp the same bytes from a temporary
   file in its place.  Without a temporary file nothing is read: the
   checks that need the text then say nothing.  */
void
source_keep_stdin (void)
{
  if (!input_is_stdin ())
    return;
  FILE *copy = tmpfile ();
  if (!copy)
    return;
  size_t room = 1 << 16, len = 0;
  char *text = XNEWVEC (char, room + 1);
  for (ssize_t n; (n = read (0, text + len, room - len)) != 0;)
    {
      if (n < 0)
	{
	  if (errno == EINTR)
	    continue;
	  break;
	}
      len += n;
      if (len == room)
	text = XRESIZEVEC (char, text, (room *= 2) + 1);
    }
  text[len] = 0;
  if (fwrite (text, 1, len, copy) != len || fflush (copy) != 0
      || lseek (fileno (copy), 0, SEEK_SET) != 0
      || dup2 (fileno (copy), 0) < 0)
    fatal_error (UNKNOWN_LOCATION,
		 "kalloc: cannot keep the standard input for the compiler: %m");
  fclose (copy);
  stdin_text = text;
  stdin_len = len;
}

/* Is FILE how cc1 names standard input ("-", "" after
   c_common_post_options (), "<stdin>" in locations)?  */
static bool
stdin_name (const char *file)
{
  return !*file || !strcmp (file, "-") || !strcmp (file, "<stdin>");
}

/* Read FILE (standard input's copy for its names) into source_text.  */
static bool
read_file (const char *file)
{
  if (stdin_text && stdin_name (file))
    {
      source_len = stdin_len;
      source_text = XNEWVEC (char, source_len + 1);
      memcpy (source_text, stdin_text, source_len + 1);
    }
  else
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
	}
      fclose (f);
      if (!source_text)
	return false;
    }
  source_text[source_len] = 0;
  file_len = text_room = source_len;
  if (!text_is_preprocessed)
    index_lines ();
  return true;
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
    file = input_is_stdin () ? "-" : in_fnames[0];
  if (!file)
    return false;
  if (source_name && !strcmp (source_name, file))
    return source_text != NULL;
  free (source_name);
  free (source_text);
  source_name = xstrdup (file);
  source_text = NULL;
  text_is_preprocessed = input_preprocessed ();
  text_generation++;
  if (!read_file (file))
    return false;
  if (text_is_preprocessed)
    index_markers ();
  return true;
}

/* The offset of the Kth line after marker I's, or -1 when the marker's
   lines end before it.  Each marker remembers how far its lines were
   counted: calls are read in source order, mostly.  */
static long
marker_line_start (int i, int k)
{
  struct line_marker *m = &markers[i];
  if (m->walked > k)
    {
      m->walked = 0;
      m->walked_at = m->start;
    }
  while (m->walked < k && m->walked_at < m->end)
    {
      const char *nl = (const char *) memchr (source_text + m->walked_at,
					      '\n', source_len - m->walked_at);
      m->walked_at = nl ? nl + 1 - source_text : source_len + 1;
      m->walked++;
    }
  return m->walked_at < m->end ? m->walked_at : -1;
}

/* Where the physical lines of the loaded text that are LINE of FILE
   start, the last first: *NTH (0 for the first call) picks the next one;
   false when no more.  *AT is the line's offset, -1 when the candidate
   has no such line.  A source line whose tokens come from several macros
   (a system header's offsetof) is several physical lines of a .i, each
   after its own marker.  */
static bool
physical_line_start (const char *file, int line, int *nth, long *at)
{
  if (!text_is_preprocessed)
    {
      if ((*nth)++)
	return false;
      *at = line >= 1 && line <= line_count ? line_start[line - 1] : -1;
      return true;
    }
  int seen = 0;
  for (int i = marker_count - 1; i >= 0; i--)
    {
      const struct line_marker *m = &markers[i];
      if (line < m->line || strcmp (m->file, file))
	continue;
      long start = marker_line_start (i, line - m->line);
      if (start < 0)
	continue;
      if (seen++ == *nth)
	{
	  ++*nth;
	  *at = start;
	  return true;
	}
    }
  return false;
}

/* The offset of COLUMN in the line that starts at LINE_AT, or -1.  */
static long
column_offset (long line_at, int column)
{
  if (line_at < 0)
    return -1;
  long pos = line_at + column - 1;
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

/* The offset in the loaded text of LOC, a location in the user's file
   (not in a macro), or -1.  In a .i whose line is split by markers, the
   first physical line that has LOC's column.  */
long
source_location_offset (location_t loc)
{
  if (loc == UNKNOWN_LOCATION
      || linemap_location_from_macro_expansion_p (line_table, loc))
    return -1;
  expanded_location where = expand_location (loc);
  if (!where.file || !load_source (where.file))
    return -1;
  int nth = 0;
  long line_at;
  while (physical_line_start (where.file, where.line, &nth, &line_at))
    {
      long at = column_offset (line_at, where.column);
      if (at >= 0)
	return at;
    }
  return -1;
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

/* The argument spans of the call in TEXT whose '(' is at OPEN, up to
   MAX, scanning to END; *CLOSE gets the ')' that ends it.  Comments and
   literals are skipped.  Returns the count, or -1.  */
static int
split_args_in (const char *text, long open, long end, long *close,
	       struct span *args, int max)
{
  int depth = 0, count = 0;
  long start = open + 1;
  for (long p = open; p < end; p++)
    {
      long next = skip_token (text, p, end);
      if (next != p)
	{
	  p = next - 1;
	  continue;
	}
      char c = text[p];
      if (c == '(' || c == '[' || c == '{')
	depth++;
      else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
	{
	  if (count == max)
	    return -1;
	  args[count].from = start;
	  args[count].to = p;
	  *close = p;
	  return count + 1;
	}
      else if (c == ',' && depth == 1)
	{
	  if (count == max)
	    return -1;
	  args[count].from = start;
	  args[count++].to = p;
	  start = p + 1;
	}
    }
  return -1;
}

/* The argument spans of the call whose '(' is at OPEN; *CLOSE gets the
   ')' that ends it.  Returns the count, or -1.  */
int
source_split_args (long open, long *close, struct span *args)
{
  return split_args_in (source_text, open, scan_limit (open), close, args,
			SOURCE_MAX_ARGS);
}

void
source_trim (struct span *s)
{
  while (s->from < s->to && ISSPACE (source_text[s->from]))
    s->from++;
  while (s->to > s->from && ISSPACE (source_text[s->to - 1]))
    s->to--;
}

/* Does S consist of WORD (and nothing else)?  */
bool
source_span_is (const struct span *s, const char *word)
{
  size_t len = strlen (word);
  return (size_t) (s->to - s->from) == len
	 && !strncmp (source_text + s->from, word, len);
}

/* Drop parentheses around the whole of S.  */
void
source_strip_parens (struct span *s)
{
  source_trim (s);
  while (s->to - s->from >= 2 && source_text[s->from] == '('
	 && source_text[s->to - 1] == ')')
    {
      struct span inner[SOURCE_MAX_ARGS];
      long close;
      if (source_split_args (s->from, &close, inner) != 1
	  || close != s->to - 1)
	return;
      s->from++;
      s->to--;
      source_trim (s);
    }
}

/* If S starts with the identifier WORD, the offset after it.  */
long
source_after_word (const struct span *s, const char *word)
{
  size_t len = strlen (word);
  if ((size_t) (s->to - s->from) < len
      || strncmp (source_text + s->from, word, len)
      || (s->from + (long) len < s->to
	  && ISIDNUM (source_text[s->from + len])))
    return -1;
  return s->from + len;
}

/* Is the identifier WORD (LEN characters) written at P, ending by END?  */
static bool
word_at (long p, long end, const char *word, size_t len)
{
  return (p == 0 || !ISIDNUM (source_text[p - 1]))
	 && p + (long) len <= end && !strncmp (source_text + p, word, len)
	 && (p + (long) len == end || !ISIDNUM (source_text[p + len]));
}

/* Does WORD appear in S as an identifier of its code (not in a literal
   or a comment)?  */
bool
source_span_has_word (const struct span *s, const char *word)
{
  size_t len = strlen (word);
  int depth = 0;
  for (long p = s->from; p < s->to; p++)
    if (code_char (&p, s->to, &depth) >= 0 && word_at (p, s->to, word, len))
      return true;
  return false;
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
	  if (source_split_args (p, &close, inner) < 0 || close >= s->to)
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
source_sizeof_operand (struct span s, struct span *operand)
{
  source_strip_parens (&s);
  long p = source_after_word (&s, "sizeof");
  if (p < 0)
    return false;
  operand->from = p;
  operand->to = s.to;
  source_trim (operand);
  if (operand->from < operand->to && source_text[operand->from] == '(')
    {
      struct span inner[SOURCE_MAX_ARGS];
      long close;
      if (source_split_args (operand->from, &close, inner) != 1
	  || close != operand->to - 1)
	return false;	/* sizeof (a) + b */
      source_strip_parens (operand);
    }
  else if (!unary_operand (operand))
    return false;	/* sizeof *p * n */
  return operand->from < operand->to;
}

/* S is "NAME (A, B, ...)" with NARGS arguments: their spans.  */
bool
source_helper_call (struct span s, const char *name, struct span *args,
		    int nargs)
{
  source_strip_parens (&s);
  long p = source_after_word (&s, name);
  if (p < 0)
    return false;
  while (p < s.to && ISSPACE (source_text[p]))
    p++;
  /* source_split_args fills up to SOURCE_MAX_ARGS spans, ARGS has NARGS.  */
  struct span all[SOURCE_MAX_ARGS];
  long close;
  if (p >= s.to || source_text[p] != '('
      || source_split_args (p, &close, all) != nargs || close != s.to - 1)
    return false;
  for (int i = 0; i < nargs; i++)
    {
      args[i] = all[i];
      source_trim (&args[i]);
    }
  return true;
}

/* Copy S into BUF with runs of white space folded to one space.  */
void
source_fold_space (const struct span *s, char *buf, size_t size)
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
source_location_at (location_t loc, long offset)
{
  if (text_is_preprocessed || offset >= file_len)
    return UNKNOWN_LOCATION;	/* the .i's lines, or a macro's text */
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
source_same_line (long from, long to)
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
      if (!word_at (p, end, name, len))
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
source_split_top (struct span s, char op, struct span *parts, int max)
{
  int depth = 0, count = 0;
  long prev = -1;		/* the last code character */
  source_strip_parens (&s);
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
    source_trim (&parts[i]);
  return count;
}

/* ---- the call ------------------------------------------------------------ */

/* The last call found, as written (0) and as compiled (1): diagnose,
   the type check and suggest ask for the same site several times, and
   one scan of its text is enough.  */
struct found_call
{
  location_t loc;
  const char *name;
  unsigned generation;
  bool found;
  struct source_call call;
};
static struct found_call last_found[2];

static bool
remembered (int which, location_t loc, const char *name,
	    struct source_call *call, bool *found)
{
  const struct found_call *f = &last_found[which];
  if (!f->name || f->loc != loc || f->generation != text_generation
      || strcmp (f->name, name))
    return false;
  *found = f->found;
  if (f->found)
    *call = f->call;
  return true;
}

static bool
remember (int which, location_t loc, const char *name,
	  const struct source_call *call, bool found)
{
  struct found_call *f = &last_found[which];
  f->loc = loc;
  f->name = name;
  f->generation = text_generation;
  f->found = found;
  if (found)
    f->call = *call;
  return found;
}

static bool scan_call (location_t loc, const char *name,
		       struct source_call *call);

/* Find the call to NAME at LOC (the outermost macro expansion point of
   the allocator's call) in its source file, and split its arguments.
   False when the text is not there, not one call to NAME, or has
   comments in its arguments (an edit could not keep them).  */
bool
source_call_find (location_t loc, const char *name, struct source_call *call)
{
  bool found;
  if (remembered (0, loc, name, call, &found))
    return found;
  found = scan_call (loc, name, call);
  return remember (0, loc, name, call, found);
}

static bool
scan_call (location_t loc, const char *name, struct source_call *call)
{
  if (loc == UNKNOWN_LOCATION)
    return false;
  expanded_location where = expand_location (loc);
  if (!where.file || !load_source (where.file))
    return false;
  /* Expanded text (a .i) spells 6.10+'s kmalloc () as the function its
     macro calls, kmalloc_noprof ().  */
  char noprof[128];
  snprintf (noprof, sizeof noprof, "%s" NOPROF_SUFFIX, name);
  struct span *id = &call->name;
  long start = -1, first = -1;
  int nth = 0;
  long line_at;
  /* The physical line whose column holds the call's name; else the
     scan below starts from the first that could.  */
  while (physical_line_start (where.file, where.line, &nth, &line_at))
    {
      long at = column_offset (line_at, where.column);
      if (at < 0)
	continue;
      first = first < 0 ? at : first;
      id->from = id->to = at;
      while (id->to < source_len && ISIDNUM (source_text[id->to]))
	id->to++;
      if (source_span_is (id, name)
	  || (text_is_preprocessed && source_span_is (id, noprof)))
	{
	  start = at;
	  break;
	}
    }
  if (start < 0)
    start = first;
  if (start < 0)
    return false;
  id->from = id->to = start;
  while (id->to < source_len && ISIDNUM (source_text[id->to]))
    id->to++;
  if (text_is_preprocessed && source_span_is (id, noprof))
    name = noprof;
  if (!source_span_is (id, name))
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
  if (!source_span_is (id, name) || open >= source_len
      || source_text[open] != '(')
    return false;
  call->nargs = source_split_args (open, &call->close, call->args);
  if (call->nargs < 0)
    return false;
  for (int i = 0; i < call->nargs; i++)
    if (has_comment (source_text, call->args[i].from, call->args[i].to))
      return false;
  return true;
}

/* ---- the kernel's size helpers, written or expanded ----------------------- */

/* The form of a helper macro for a count known only at run time:
   __builtin_choose_expr (__is_constexpr (n), A, B) is B.  */
static bool
runtime_form (struct span s, struct span *form)
{
  struct span args[3];
  if (!source_helper_call (s, "__builtin_choose_expr", args, 3))
    return false;
  *form = args[2];
  return true;
}

/* "sizeof (*(P)->M) + Z", Z being __must_be_array ()'s zero: P, M.  */
static bool
member_element (struct span s, struct span *pointer, struct span *member)
{
  struct span parts[SOURCE_MAX_ARGS], operand;
  if (source_split_top (s, '+', parts, SOURCE_MAX_ARGS) != 2
      || !source_sizeof_operand (parts[0], &operand)
      || source_text[operand.from] != '*')
    return false;
  operand.from++;
  /* The last arrow at the top level: P before it, the member after.  */
  long arrow = -1;
  int depth = 0;
  for (long p = operand.from; p < operand.to; p++)
    {
      int c = code_char (&p, operand.to, &depth);
      if (c == '-' && depth == 0 && p + 1 < operand.to
	  && source_text[p + 1] == '>')
	arrow = p;
    }
  if (arrow < 0)
    return false;
  pointer->from = operand.from;
  pointer->to = arrow;
  member->from = arrow + 2;
  member->to = operand.to;
  source_strip_parens (pointer);
  source_trim (member);
  for (long p = member->from; p < member->to; p++)
    if (!ISIDNUM (source_text[p]))
      return false;
  return pointer->from < pointer->to && member->from < member->to;
}

/* flex_array_size (P, M, N) as written or as the preprocessor leaves
   it (Linux 6.2+: a choice whose run-time form is size_mul (N,
   sizeof (*(P)->M) + Z); 6.1: array_size (), the same size_mul ()).  */
static bool
flex_array_size_parts (struct span s, struct span *args)
{
  if (source_helper_call (s, "flex_array_size", args, 3))
    return true;
  struct span form, mul[2];
  if (runtime_form (s, &form))
    s = form;
  return source_helper_call (s, "size_mul", mul, 2)
	 && member_element (mul[1], &args[0], &args[1])
	 && (args[2] = mul[0], true);
}

/* "(TYPE *) NULL", struct_size_t ()'s pointer once expanded: TYPE.  */
static bool
null_of_type (struct span p, struct span *type)
{
  struct span inner[SOURCE_MAX_ARGS];
  long close;
  if (source_text[p.from] != '('
      || source_split_args (p.from, &close, inner) != 1 || close >= p.to - 1)
    return false;
  struct span rest = { close + 1, p.to };
  source_strip_parens (&rest);
  if (!source_span_is (&rest, "0") && !source_span_is (&rest, "NULL"))
    {
      /* ((void *)0), the expansion of NULL.  */
      struct span cast[SOURCE_MAX_ARGS];
      long end;
      if (source_text[rest.from] != '('
	  || source_split_args (rest.from, &end, cast) != 1)
	return false;
      struct span zero = { end + 1, rest.to };
      source_strip_parens (&zero);
      if (!source_span_is (&zero, "0"))
	return false;
    }
  *type = inner[0];
  source_trim (type);
  if (type->to <= type->from || source_text[type->to - 1] != '*')
    return false;
  type->to--;
  source_trim (type);
  return type->from < type->to;
}

/* struct_size (P, M, N) or struct_size_t (TYPE, M, N), as written or as
   a .i has them (6.2+: a choice whose run-time form is size_add
   (sizeof (*(P)), flex_array_size ()); 6.1: __ab_c_size (N, sizeof
   (*(P)->M) + Z, sizeof (*(P)))).  ARGS gets P (or TYPE), M and N;
   *BY_TYPE says which of the two the first is.  */
bool
source_struct_size_parts (struct span s, struct span *args, bool *by_type)
{
  *by_type = source_helper_call (s, "struct_size_t", args, 3);
  if (*by_type || source_helper_call (s, "struct_size", args, 3))
    return true;
  struct span form, parts[3];
  if (runtime_form (s, &form))
    s = form;
  if (source_helper_call (s, "size_add", parts, 2))
    {
      if (!flex_array_size_parts (parts[1], args))
	return false;
    }
  else if (source_helper_call (s, "__ab_c_size", parts, 3))
    {
      if (!member_element (parts[1], &args[0], &args[1]))
	return false;
      args[2] = parts[0];
    }
  else
    return false;
  source_trim (&args[2]);
  source_strip_parens (&args[2]);
  struct span type;
  if (null_of_type (args[0], &type))
    {
      args[0] = type;
      *by_type = true;
    }
  return true;
}

/* Is S flex_array_size (), written or expanded?  */
bool
source_flex_array_size_call (struct span s)
{
  struct span args[3];
  return flex_array_size_parts (s, args);
}

/* ---- the text as compiled ---------------------------------------------------- */

/* Append TEXT (LEN bytes) after the file's text; its offset.  */
static long
append_text (const char *text, size_t len)
{
  if (source_len + (long) len + 2 > text_room)
    {
      text_room = 2 * (source_len + len + 2);
      source_text = XRESIZEVEC (char, source_text, text_room + 1);
    }
  source_text[source_len++] = '\n';
  long at = source_len;
  memcpy (source_text + at, text, len);
  source_len += len;
  source_text[source_len] = 0;
  return at;
}

/* Append LEN bytes of TEXT to B, which stays NUL-terminated.  */
void
source_text_buf_add (struct text_buf *b, const char *text, size_t len)
{
  if (b->len + len + 1 > b->room)
    {
      b->room = 2 * (b->len + len + 1);
      b->s = XRESIZEVEC (char, b->s, b->room);
    }
  memcpy (b->s + b->len, text, len);
  b->len += len;
  b->s[b->len] = 0;
}

/* Helpers the readers know by name (source_struct_size_parts (), find_sizeof
   ()): left as written, their expansions are recognised in a .i.  */
static bool
known_helper (const char *name, size_t len)
{
  static const char *const names[] = {
    "struct_size", "struct_size_t", "flex_array_size", "array_size",
    "array3_size", "offsetof"
  };
  for (size_t i = 0; i < ARRAY_SIZE (names); i++)
    if (strlen (names[i]) == len && !strncmp (names[i], name, len))
      return true;
  return false;
}

/* The macro NAME names, if one defined before LOC (the definition in
   force at the end of the unit: one redefined after the call is not
   read) and not a lazy one from a precompiled header.  */
static cpp_macro *
defined_macro (const char *name, size_t len, location_t loc)
{
  char id[128];
  if (len >= sizeof id || !parse_in || known_helper (name, len))
    return NULL;
  memcpy (id, name, len);
  id[len] = 0;
  tree ident = maybe_get_identifier (id);
  if (!ident)
    return NULL;
  cpp_hashnode *node = C_CPP_HASHNODE (ident);
  if (!cpp_user_macro_p (node))
    return NULL;
  cpp_macro *macro = node->value.macro;
  if (!macro || macro->lazy
      || linemap_compare_locations (line_table, macro->line, loc) < 0)
    return NULL;
  return macro;
}

/* The macros being expanded: cpp does not expand one inside itself.  */
#define EXPAND_DEPTH 32
struct expansion
{
  location_t loc;		/* the call's */
  int depth;
  cpp_macro *active[EXPAND_DEPTH];
};

static bool expand_into (const char *text, long from, long to,
			 struct expansion *x, struct text_buf *out);

/* Append TEXT's span S with white space trimmed.  */
static void
buf_add_trimmed (struct text_buf *b, const char *text, struct span s)
{
  while (s.from < s.to && ISSPACE (text[s.from]))
    s.from++;
  while (s.to > s.from && ISSPACE (text[s.to - 1]))
    s.to--;
  source_text_buf_add (b, text + s.from, s.to - s.from);
}

/* Append #ARG: its text as a string literal.  */
static void
buf_add_string (struct text_buf *b, const char *text, struct span s)
{
  struct text_buf raw = { NULL, 0, 0 };
  buf_add_trimmed (&raw, text, s);
  source_text_buf_add (b, "\"", 1);
  for (size_t i = 0; i < raw.len; i++)
    {
      if (raw.s[i] == '"' || raw.s[i] == '\\')
	source_text_buf_add (b, "\\", 1);
      source_text_buf_add (b, raw.s + i, 1);
    }
  source_text_buf_add (b, "\"", 1);
  free (raw.s);
}

/* Append MACRO's replacement to OUT with its parameters replaced by
   ARGS of TEXT (expanded first, but next to # and ##), then expanded
   again with MACRO disabled (cpp's rescan).  */
static void
expand_macro (cpp_macro *macro, const char *text, const struct span *args,
	      struct expansion *x, struct text_buf *out)
{
  struct text_buf body = { NULL, 0, 0 };
  bool pasting = false;
  for (unsigned i = 0; i < macro->count; i++)
    {
      const cpp_token *tok = &macro->exp.tokens[i];
      const cpp_token *next = i + 1 < macro->count
			      ? &macro->exp.tokens[i + 1] : NULL;
      if (i && !pasting && (tok->flags & PREV_WHITE))
	source_text_buf_add (&body, " ", 1);
      bool paste = tok->flags & PASTE_LEFT;
      if (tok->type == CPP_MACRO_ARG)
	{
	  const struct span *arg = &args[tok->val.macro_arg.arg_no - 1];
	  if (tok->flags & STRINGIFY_ARG)
	    buf_add_string (&body, text, *arg);
	  else if (paste || pasting)
	    buf_add_trimmed (&body, text, *arg);
	  else
	    expand_into (text, arg->from, arg->to, x, &body);
	}
      /* GNU's ", ## __VA_ARGS__" drops the comma when there are none.  */
      else if (tok->type == CPP_COMMA && paste && macro->variadic && next
	       && next->type == CPP_MACRO_ARG
	       && next->val.macro_arg.arg_no == macro->paramc
	       && args[macro->paramc - 1].from == args[macro->paramc - 1].to)
	;
      else
	{
	  const char *spelt = (const char *) cpp_token_as_text (parse_in, tok);
	  source_text_buf_add (&body, spelt, strlen (spelt));
	}
      pasting = paste;
    }
  if (body.len && x->depth < EXPAND_DEPTH)
    {
      x->active[x->depth++] = macro;
      expand_into (body.s, 0, body.len, x, out);
      x->depth--;
    }
  free (body.s);
}

/* Is MACRO being expanded?  */
static bool
active_macro (const struct expansion *x, const cpp_macro *macro)
{
  for (int i = 0; i < x->depth; i++)
    if (x->active[i] == macro)
      return true;
  return false;
}

/* The arguments of a call to MACRO at TEXT[OPEN]: false when there is
   no '(' (a function-like macro's name alone is not a call) or their
   number is not MACRO's.  A variadic macro's last one spans the rest.  */
static bool
macro_args (const cpp_macro *macro, const char *text, long open, long to,
	    long *close, struct span *args)
{
  if (open >= to || text[open] != '(')
    return false;
  int n = split_args_in (text, open, to, close, args, SOURCE_MAX_ARGS);
  if (n < 0)
    return false;
  ++*close;			/* past the ')' */
  struct span first = args[0];
  while (first.from < first.to && ISSPACE (text[first.from]))
    first.from++;
  if (n == 1 && first.from == first.to && macro->paramc <= 1)
    n = macro->paramc;		/* F () */
  if (macro->variadic && macro->paramc >= 1 && n >= macro->paramc)
    {
      args[macro->paramc - 1].to = args[n - 1].to;
      n = macro->paramc;
    }
  else if (macro->variadic && n == macro->paramc - 1)
    {
      /* F (a) for F (x, ...): no variable arguments.  */
      args[n].from = args[n].to = *close - 1;
      n++;
    }
  return n == macro->paramc;
}

/* Append to OUT the text FROM..TO with its macros expanded as the
   preprocessor did.  True if one was expanded.  */
static bool
expand_into (const char *text, long from, long to, struct expansion *x,
	     struct text_buf *out)
{
  bool expanded = false;
  for (long p = from; p < to;)
    {
      long q = p;
      if (ISIDST (text[p]) && (p == from || !ISIDNUM (text[p - 1])))
	{
	  while (q < to && ISIDNUM (text[q]))
	    q++;
	  cpp_macro *macro = defined_macro (text + p, q - p, x->loc);
	  long open = q, close = q;
	  while (open < to && ISSPACE (text[open]))
	    open++;
	  struct span args[SOURCE_MAX_ARGS];
	  if (macro && !active_macro (x, macro)
	      && (!macro->fun_like
		  || macro_args (macro, text, open, to, &close, args)))
	    {
	      source_text_buf_add (out, " ", 1);
	      expand_macro (macro, text, args, x, out);
	      source_text_buf_add (out, " ", 1);
	      expanded = true;
	      p = close;
	      continue;
	    }
	}
      else
	{
	  /* A literal is copied whole: no macro inside it.  */
	  q = skip_token (text, p, to);
	  q = q == p ? p + 1 : MIN (q, to);
	}
      source_text_buf_add (out, text + p, q - p);
      p = q;
    }
  return expanded;
}

/* source_call_find (), with CALL's arguments as the compiler read them:
   macros replaced by their text (kmalloc (OBJ_SIZE, ...)
   reads as the sizeof it stands for, and function-like ones but the
   helpers the readers know by name), so that a compile from the source
   and one from its .i, whose macros are expanded, read the same size.
   The diagnostics read this; suggest, which edits what the user wrote,
   reads source_call_find ().  Function-like helpers are recognised
   either way (source_struct_size_parts ()).  */
bool
source_call_read (location_t loc, const char *name, struct source_call *call)
{
  bool found;
  if (remembered (1, loc, name, call, &found))
    return found;
  if (!source_call_find (loc, name, call))
    return remember (1, loc, name, call, false);
  /* A .i has no macros left, but one made with -fdirectives-only (as
     icecream makes it) has them all, defined again as it compiles.  */
  for (int i = 0; i < call->nargs; i++)
    {
      struct text_buf out = { NULL, 0, 0 };
      struct expansion x;
      x.loc = loc;
      x.depth = 0;
      if (expand_into (source_text, call->args[i].from, call->args[i].to,
		       &x, &out))
	{
	  long at = append_text (out.s, out.len);
	  call->args[i].from = at;
	  call->args[i].to = at + out.len;
	}
      free (out.s);
    }
  return remember (1, loc, name, call, true);
}

/* ---- tokens ------------------------------------------------------------- */

/* Identifiers, numbers and the punctuators of a sizeof operand; false
   for anything longer or stranger.  */
bool
source_tokenize (const struct span *s, struct source_tokens *t)
{
  t->count = t->next = 0;
  for (long p = s->from; p < s->to;)
    {
      char c = source_text[p];
      if (ISSPACE (c))
	{
	  p++;
	  continue;
	}
      if (t->count == SOURCE_TOKEN_MAX)
	return false;
      char *tok = t->text[t->count++];
      long len = 1;
      if (ISIDNUM (c))
	while (p + len < s->to && ISIDNUM (source_text[p + len]))
	  len++;
      else if (c == '-' && p + 1 < s->to && source_text[p + 1] == '>')
	len = 2;
      else if (!strchr ("*&.[]()", c))
	return false;
      if (len >= SOURCE_TOKEN_LEN)
	return false;
      memcpy (tok, source_text + p, len);
      tok[len] = 0;
      p += len;
    }
  return t->count > 0;
}

const char *
source_token_peek (const struct source_tokens *t)
{
  return t->next < t->count ? t->text[t->next] : "";
}

bool
source_token_accept (struct source_tokens *t, const char *tok)
{
  if (strcmp (source_token_peek (t), tok))
    return false;
  t->next++;
  return true;
}
