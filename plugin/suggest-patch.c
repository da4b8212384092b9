/* suggest-patch.c - suggest-patch=FILE: the conversions as a patch a
 * person applies from the source tree's top (patch -p1, git apply).
 *
 * suggest attaches each conversion to a note as fix-its; this file
 * keeps them per unit and, at the end of the unit, adds them to FILE:
 * one section per source file, names relative to suggest-root=DIR (by
 * default the compile's directory) with git's a/ and b/ prefixes, 3
 * lines of context.  Compiles run in parallel and a header's call is
 * converted by every unit that compiles it, so FILE is rewritten under
 * an exclusive lock: a section keeps its edits as "# kalloc edit:" lines
 * (patch and git apply skip lines outside a hunk), a unit's edits join
 * those of its files, and the section is made again from the file's text.
 * Each edit stays on one line: GCC makes no fix-it across lines.
 */
#include "kalloc.h"
#include <sys/file.h>

struct patch_edit
{
  char *file;			/* as this compile names it */
  int line;
  int col, next;		/* bytes [col, next), 1-based */
  char *text;
};

/* This unit's edits.  */
static struct patch_edit *unit_edits;
static int unit_count, unit_room;

static void
edit_push (struct patch_edit **v, int *count, int *room,
	   const struct patch_edit *e)
{
  if (*count == *room)
    {
      *room = *room ? 2 * *room : 16;
      *v = XRESIZEVEC (struct patch_edit, *v, *room);
    }
  (*v)[(*count)++] = *e;
}

/* Keep the fix-its of RICHLOC, all or none.  */
void
suggest_patch_add (rich_location *richloc)
{
  unsigned n = richloc->get_num_fixit_hints ();
  for (unsigned i = 0; i < n; i++)
    {
      const fixit_hint *h = richloc->get_fixit_hint (i);
      expanded_location s = expand_location (h->get_start_loc ());
      expanded_location e = expand_location (h->get_next_loc ());
      if (!s.file || !e.file || strcmp (s.file, e.file) || s.line != e.line
	  || s.column < 1 || e.column < s.column)
	return;
    }
  for (unsigned i = 0; i < n; i++)
    {
      const fixit_hint *h = richloc->get_fixit_hint (i);
      expanded_location s = expand_location (h->get_start_loc ());
      expanded_location e = expand_location (h->get_next_loc ());
      struct patch_edit edit = { xstrdup (s.file), s.line, s.column, e.column,
				 xstrndup (h->get_string (), h->get_length ()) };
      edit_push (&unit_edits, &unit_count, &unit_room, &edit);
    }
}

/* ---- text helpers (on source.c's struct text_buf) ---------------------- */

static void
buf_str (struct text_buf *b, const char *s)
{
  source_text_buf_add (b, s, strlen (s));
}

static void ATTRIBUTE_PRINTF_2
buf_printf (struct text_buf *b, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  char *s = xvasprintf (format, ap);
  va_end (ap);
  buf_str (b, s);
  free (s);
}

/* The whole of FD from its start.  */
static bool
read_fd (int fd, struct text_buf *b)
{
  char chunk[65536];
  ssize_t n;
  if (lseek (fd, 0, SEEK_SET) < 0)
    return false;
  source_text_buf_add (b, "", 0);
  while ((n = read (fd, chunk, sizeof chunk)) > 0)
    source_text_buf_add (b, chunk, n);
  return n == 0;
}

static bool
read_file (const char *name, struct text_buf *b)
{
  int fd = open (name, O_RDONLY);
  if (fd < 0)
    return false;
  bool ok = read_fd (fd, b);
  close (fd);
  return ok;
}

/* ---- one file's section -------------------------------------------------- */

/* An edit's text on one line of the section: \ and newline escaped.  */
static void
put_escaped (struct text_buf *b, const char *s)
{
  for (; *s; s++)
    if (*s == '\\')
      buf_str (b, "\\\\");
    else if (*s == '\n')
      buf_str (b, "\\n");
    else
      source_text_buf_add (b, s, 1);
}

static char *
unescape (const char *s)
{
  struct text_buf b = { NULL, 0, 0 };
  source_text_buf_add (&b, "", 0);
  for (; *s; s++)
    if (s[0] == '\\' && s[1] == 'n')
      buf_str (&b, "\n"), s++;
    else if (s[0] == '\\' && s[1] == '\\')
      buf_str (&b, "\\"), s++;
    else
      source_text_buf_add (&b, s, 1);
  return b.s;
}

static int
edit_order (const void *pa, const void *pb)
{
  const struct patch_edit *a = (const struct patch_edit *) pa;
  const struct patch_edit *b = (const struct patch_edit *) pb;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  return a->next - b->next;
}

/* The lines of TEXT: starts[I] is where line I + 1 begins.  */
static int
split_lines (const char *text, size_t len, long **starts)
{
  int n = 0, room = 64;
  *starts = XNEWVEC (long, room);
  for (size_t p = 0; p < len; )
    {
      if (n == room)
	*starts = XRESIZEVEC (long, *starts, room *= 2);
      (*starts)[n++] = p;
      const char *nl = (const char *) memchr (text + p, '\n', len - p);
      p = nl ? (size_t) (nl - text) + 1 : len;
    }
  return n;
}

/* One line of the original, without its newline.  */
static void
line_of (const struct text_buf *src, const long *starts, int nlines, int i,
	 const char **s, size_t *n)
{
  long from = starts[i];
  long to = i + 1 < nlines ? starts[i + 1] : (long) src->len;
  if (to > from && src->s[to - 1] == '\n')
    to--;
  *s = src->s + from;
  *n = to - from;
}

/* Append LINE (prefixed by MARK) to OUT, and the marker patch and git
   apply want when it is the file's last line and ends without newline.  */
static void
put_line (struct text_buf *out, char mark, const char *s, size_t n, bool eof_nl)
{
  source_text_buf_add (out, &mark, 1);
  source_text_buf_add (out, s, n);
  buf_str (out, eof_nl ? "\n" : "\n\\ No newline at end of file\n");
}

/* The hunks of one file: EDITS (sorted, none overlapping) applied to SRC.
   False when an edit does not fit the file as it is now.  */
static bool
make_hunks (const struct text_buf *src, struct patch_edit *edits, int n,
	    struct text_buf *out)
{
  long *starts;
  int nlines = split_lines (src->s, src->len, &starts);
  bool last_nl = src->len && src->s[src->len - 1] == '\n';
  /* New text of each changed line, indexed by line - 1.  */
  char **changed = XCNEWVEC (char *, nlines + 1);
  bool ok = true;
  for (int i = 0; i < n && ok; )
    {
      int l = edits[i].line - 1;
      if (l < 0 || l >= nlines)
	{
	  ok = false;
	  break;
	}
      const char *s;
      size_t len;
      line_of (src, starts, nlines, l, &s, &len);
      struct text_buf nl = { NULL, 0, 0 };
      size_t at = 0;
      for (; i < n && edits[i].line - 1 == l; i++)
	{
	  size_t col = edits[i].col - 1, next = edits[i].next - 1;
	  if (col < at || next > len)
	    {
	      ok = false;
	      break;
	    }
	  source_text_buf_add (&nl, s + at, col - at);
	  buf_str (&nl, edits[i].text);
	  at = next;
	}
      source_text_buf_add (&nl, s + at, len - at);
      changed[l] = nl.s;
    }
  const int context = 3;
  int new_delta = 0;
  for (int l = 0; ok && l < nlines; l++)
    {
      if (!changed[l])
	continue;
      /* A hunk from l - context to the last change within 2 * context
	 lines of the one before, plus context.  */
      int first = MAX (0, l - context), last = l;
      for (int k = l + 1; k < nlines && k <= last + 2 * context; k++)
	if (changed[k])
	  last = k;
      int end = MIN (nlines - 1, last + context);
      int old_n = end - first + 1, new_n = 0;
      struct text_buf body = { NULL, 0, 0 };
      source_text_buf_add (&body, "", 0);
      for (int k = first; k <= end; k++)
	{
	  const char *s;
	  size_t len;
	  line_of (src, starts, nlines, k, &s, &len);
	  bool nl_after = k < nlines - 1 || last_nl;
	  if (!changed[k])
	    {
	      put_line (&body, ' ', s, len, nl_after);
	      new_n++;
	      continue;
	    }
	  put_line (&body, '-', s, len, nl_after);
	  /* The new text may hold newlines of its own.  */
	  const char *p = changed[k];
	  for (;;)
	    {
	      const char *q = strchr (p, '\n');
	      size_t piece = q ? (size_t) (q - p) : strlen (p);
	      put_line (&body, '+', p, piece, q || nl_after);
	      new_n++;
	      if (!q)
		break;
	      p = q + 1;
	    }
	}
      buf_printf (out, "@@ -%d,%d +%d,%d @@\n", first + 1, old_n,
		  first + 1 + new_delta, new_n);
      source_text_buf_add (out, body.s, body.len);
      free (body.s);
      new_delta += new_n - old_n;
      l = end;
    }
  for (int l = 0; l < nlines; l++)
    free (changed[l]);
  free (changed);
  free (starts);
  return ok;
}

/* The section of REL: its edit lines, then its diff.  */
static bool
make_section (const char *rel, const char *path, struct patch_edit *edits,
	      int n, struct text_buf *out)
{
  struct text_buf src = { NULL, 0, 0 };
  if (!read_file (path, &src))
    return false;
  struct text_buf hunks = { NULL, 0, 0 };
  source_text_buf_add (&hunks, "", 0);
  bool ok = make_hunks (&src, edits, n, &hunks);
  if (ok)
    {
      buf_printf (out, "# kalloc suggest: %s\n", rel);
      for (int i = 0; i < n; i++)
	{
	  buf_printf (out, "# kalloc edit: %d %d %d ", edits[i].line,
		      edits[i].col, edits[i].next);
	  put_escaped (out, edits[i].text);
	  buf_str (out, "\n");
	}
      buf_printf (out, "--- a/%s\n+++ b/%s\n", rel, rel);
      source_text_buf_add (out, hunks.s, hunks.len);
    }
  free (src.s);
  free (hunks.s);
  return ok;
}

/* ---- the patch file ------------------------------------------------------ */

struct patch_section
{
  char *rel;
  char *text;			/* as read, or made again */
  const char *path;		/* the file as this compile names it, when
				   this unit edits it (else NULL) */
  struct patch_edit *edits;
  int count, room;
};

/* The sections of TEXT, in order.  */
static int
parse_sections (char *text, struct patch_section **out)
{
  static const char head[] = "# kalloc suggest: ";
  static const char edit[] = "# kalloc edit: ";
  int n = 0, room = 0;
  *out = NULL;
  char *p = text;
  while (p && *p)
    {
      char *nl = strchr (p, '\n');
      char *next = nl ? nl + 1 : NULL;
      if (!strncmp (p, head, sizeof head - 1))
	{
	  if (n == room)
	    *out = XRESIZEVEC (struct patch_section, *out, room = room ? 2 * room : 8);
	  struct patch_section *s = &(*out)[n++];
	  memset (s, 0, sizeof *s);
	  s->rel = xstrndup (p + sizeof head - 1,
			     (nl ? nl : p + strlen (p)) - p - (sizeof head - 1));
	  char *q = next;
	  while (q && *q && strncmp (q, head, sizeof head - 1))
	    {
	      char *qnl = strchr (q, '\n');
	      struct patch_edit e = { NULL, 0, 0, 0, NULL };
	      int used = 0;
	      if (!strncmp (q, edit, sizeof edit - 1)
		  && sscanf (q + sizeof edit - 1, "%d %d %d %n", &e.line, &e.col,
			     &e.next, &used) == 3)
		{
		  char *t = xstrndup (q + sizeof edit - 1 + used,
				      (qnl ? qnl : q + strlen (q))
				      - (q + sizeof edit - 1 + used));
		  e.text = unescape (t);
		  free (t);
		  edit_push (&s->edits, &s->count, &s->room, &e);
		}
	      q = qnl ? qnl + 1 : NULL;
	    }
	  s->text = xstrndup (p, (q ? q : p + strlen (p)) - p);
	  next = q;
	}
      p = next;
    }
  return n;
}

/* Add E to S unless S has it; an edit that overlaps another of S's
   differently is dropped (the first unit's conversion stays).  */
static void
section_merge (struct patch_section *s, const struct patch_edit *e)
{
  for (int i = 0; i < s->count; i++)
    {
      const struct patch_edit *o = &s->edits[i];
      if (o->line != e->line)
	continue;
      if (o->col == e->col && o->next == e->next && !strcmp (o->text, e->text))
	return;
      if (e->col < o->next && o->col < e->next)
	return;
      if (e->col == e->next && o->col == o->next && e->col == o->col)
	return;
    }
  struct patch_edit copy = { NULL, e->line, e->col, e->next, xstrdup (e->text) };
  edit_push (&s->edits, &s->count, &s->room, &copy);
}

static int
section_order (const void *pa, const void *pb)
{
  return strcmp (((const struct patch_section *) pa)->rel,
		 ((const struct patch_section *) pb)->rel);
}

/* NAME relative to ROOT (both made absolute), or NULL when it is not
   under ROOT.  */
static char *
relative_name (const char *name, const char *root)
{
  char *abs_name = lrealpath (name);
  char *abs_root = lrealpath (root);
  size_t n = strlen (abs_root);
  char *rel = NULL;
  if (!strncmp (abs_name, abs_root, n) && abs_name[n] == '/')
    rel = xstrdup (abs_name + n + 1);
  else if (n == 1 && abs_root[0] == '/')
    rel = xstrdup (abs_name + 1);
  free (abs_name);
  free (abs_root);
  return rel;
}

/* The section for REL in *SECTIONS, added when missing.  */
static struct patch_section *
section_for (struct patch_section **sections, int *n, int *room, const char *rel)
{
  for (int i = 0; i < *n; i++)
    if (!strcmp ((*sections)[i].rel, rel))
      return &(*sections)[i];
  if (*n == *room)
    *sections = XRESIZEVEC (struct patch_section, *sections,
			    *room = *room ? 2 * *room : 8);
  struct patch_section *s = &(*sections)[(*n)++];
  memset (s, 0, sizeof *s);
  s->rel = xstrdup (rel);
  return s;
}

/* Join this unit's edits to FILE, under its lock.  */
static void
write_patch (const char *file)
{
  int fd = open (file, O_RDWR | O_CREAT, 0666);
  if (fd < 0 || flock (fd, LOCK_EX) < 0)
    {
      error ("kalloc: cannot open the patch file %qs: %m", file);
      if (fd >= 0)
	close (fd);
      return;
    }
  struct text_buf old = { NULL, 0, 0 };
  if (!read_fd (fd, &old))
    {
      error ("kalloc: cannot read the patch file %qs: %m", file);
      close (fd);
      return;
    }
  struct patch_section *sections;
  int n = parse_sections (old.s, &sections), room = n;
  const char *root = kalloc_opts.suggest_root ? kalloc_opts.suggest_root : ".";

  /* This unit's edits join the sections of their files.  */
  for (int i = 0; i < unit_count; i++)
    {
      const struct patch_edit *e = &unit_edits[i];
      char *rel = relative_name (e->file, root);
      if (!rel)
	{
	  static bool said;
	  if (!said)
	    warning (0, "kalloc: %qs is not under the suggest root %qs: its "
		     "conversions are not in the patch (suggest-root=DIR names "
		     "the top of the tree)", e->file, root);
	  said = true;
	  continue;
	}
      struct patch_section *sec = section_for (&sections, &n, &room, rel);
      section_merge (sec, e);
      sec->path = e->file;
      free (rel);
    }
  struct text_buf out = { NULL, 0, 0 };
  source_text_buf_add (&out, "", 0);
  qsort (sections, n, sizeof *sections, section_order);
  for (int i = 0; i < n; i++)
    {
      struct patch_section *s = &sections[i];
      /* A file this unit edited is made again from its text; the others
	 stay as they were.  */
      const char *name = s->path;
      if (name)
	{
	  qsort (s->edits, s->count, sizeof *s->edits, edit_order);
	  if (make_section (s->rel, name, s->edits, s->count, &out))
	    continue;
	  warning (0, "kalloc: %qs changed under the build: its conversions "
		   "are not in the patch", name);
	}
      if (s->text)
	buf_str (&out, s->text);
    }
  if (lseek (fd, 0, SEEK_SET) < 0
      || write (fd, out.s, out.len) != (ssize_t) out.len
      || ftruncate (fd, out.len) < 0)
    error ("kalloc: cannot write the patch file %qs: %m", file);
  close (fd);
  free (out.s);
  free (old.s);
}

/* At the end of the unit: its edits into the patch file, if any.  */
void
suggest_patch_finish (void)
{
  if (kalloc_opts.suggest_patch && unit_count)
    write_patch (kalloc_opts.suggest_patch);
}
