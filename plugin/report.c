/*
 * report.c - one JSON object per line for every recognised site, for
 * -fplugin-arg-kalloc-report=FILE.
 *
 * Many compilers of one `make -j` append to the same file: each line
 * is written with a single write () on a descriptor opened O_APPEND,
 * which the kernel appends whole.
 */
#include "kalloc.h"
#include <fcntl.h>

static int report_fd = -1;
static bool report_failed;

static void
put_str (struct text_buf *b, const char *s)
{
  source_text_buf_add (b, s, strlen (s));
}

/* The length of the well-formed UTF-8 sequence at S (RFC 3629: no
   overlong forms, surrogates or code points above U+10FFFF), 0 if none
   starts there.  */
static int
utf8_length (const unsigned char *s)
{
  unsigned char lo = 0x80, hi = 0xbf;
  int len;
  if (s[0] < 0x80)
    return 1;
  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    len = 2;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    {
      len = 3;
      lo = s[0] == 0xe0 ? 0xa0 : lo;
      hi = s[0] == 0xed ? 0x9f : hi;
    }
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    {
      len = 4;
      lo = s[0] == 0xf0 ? 0x90 : lo;
      hi = s[0] == 0xf4 ? 0x8f : hi;
    }
  else
    return 0;
  for (int i = 1; i < len; i++, lo = 0x80, hi = 0xbf)
    if (s[i] < lo || s[i] > hi)
      return 0;
  return len;
}

/* "KEY":"VALUE" with VALUE escaped, or null.  The report is UTF-8 JSON
   whatever bytes VALUE has (a file name need not be UTF-8): a byte that
   starts no well-formed sequence is written as the code point of the same
   number, \u00XX.  */
static void
put_field (struct text_buf *b, const char *key, const char *value)
{
  put_str (b, b->len > 1 ? ",\"" : "\"");
  put_str (b, key);
  put_str (b, "\":");
  if (!value)
    {
      put_str (b, "null");
      return;
    }
  put_str (b, "\"");
  for (const unsigned char *p = (const unsigned char *) value; *p;)
    {
      char esc[8];
      int len = utf8_length (p);
      if (*p == '"' || *p == '\\')
	{
	  esc[0] = '\\';
	  esc[1] = *p;
	  source_text_buf_add (b, esc, 2);
	}
      else if (*p < 0x20 || len == 0)
	{
	  snprintf (esc, sizeof esc, "\\u%04x", *p);
	  put_str (b, esc);
	}
      else
	source_text_buf_add (b, (const char *) p, len);
      p += len ? len : 1;
    }
  put_str (b, "\"");
}

static void
put_number (struct text_buf *b, const char *key, unsigned HOST_WIDE_INT n)
{
  char num[32];
  snprintf (num, sizeof num, HOST_WIDE_INT_PRINT_UNSIGNED, n);
  put_str (b, b->len > 1 ? ",\"" : "\"");
  put_str (b, key);
  put_str (b, "\":");
  put_str (b, num);
}

/* KEY: [the words of WORDS whose one bit is set in BITS].  */
static void
put_flags (struct text_buf *b, const char *key, unsigned bits,
	   const struct option_word *words)
{
  put_str (b, ",\"");
  put_str (b, key);
  put_str (b, "\":[");
  bool first = true;
  for (const struct option_word *w = words; w->word; w++)
    if ((bits & w->value) && !(w->value & (w->value - 1)))
      {
	put_str (b, first ? "\"" : ",\"");
	put_str (b, w->word);
	put_str (b, "\"");
	first = false;
      }
  put_str (b, "]");
}

/* How the program names VALUE, when it does.  */
static char *
value_text (tree value)
{
  if (!value)
    return NULL;
  /* include/kalloc.h's typed macros hold the count in __kalloc_count:
     the program's own name is what was copied into it.  */
  for (int i = 0; i < 4 && TREE_CODE (value) == SSA_NAME; i++)
    {
      tree var = SSA_NAME_VAR (value);
      gimple *def = SSA_NAME_DEF_STMT (value);
      if (!var || !DECL_NAME (var)
	  || strncmp (IDENTIFIER_POINTER (DECL_NAME (var)), "__kalloc", 8)
	  || !is_gimple_assign (def)
	  || !(gimple_assign_single_p (def)
	       || CONVERT_EXPR_CODE_P (gimple_assign_rhs_code (def))))
	break;
      value = gimple_assign_rhs1 (def);
    }
  if (TREE_CODE (value) == SSA_NAME)
    {
      tree var = SSA_NAME_VAR (value);
      if (!var || !DECL_NAME (var) || DECL_ARTIFICIAL (var)
	  || !strncmp (IDENTIFIER_POINTER (DECL_NAME (var)), "__kalloc", 8))
	return xstrdup ("expr");
      value = var;
    }
  return print_generic_expr_to_str (value);
}

static void
open_report (void)
{
  report_fd = open (kalloc_opts.report, O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (report_fd < 0)
    {
      error ("kalloc: cannot open report file %qs: %m", kalloc_opts.report);
      report_failed = true;
    }
}

/* Is a report asked for and open (opened on first use)?  */
static bool
report_ready (void)
{
  if (!kalloc_opts.report || report_failed)
    return false;
  if (report_fd < 0)
    open_report ();
  return report_fd >= 0;
}

/* Write the record in B to the report and free it.  */
static void
report_write (struct text_buf *b)
{
  if (write (report_fd, b->s, b->len) != (ssize_t) b->len)
    {
      error ("kalloc: cannot write report file %qs: %m", kalloc_opts.report);
      report_failed = true;
    }
  free (b->s);
}

/* Append SITE and what was DONE there to the report, if one was asked
   for.  */
void
report_site (const struct alloc_site *site, const struct site_outcome *done)
{
  if (!report_ready ())
    return;

  expanded_location where = expand_location (site->loc);
  struct text_buf b = { NULL, 0, 0 };
  put_str (&b, "{");
  put_field (&b, "kalloc", KALLOC_VERSION);
  put_field (&b, "file", where.file ? where.file : main_input_filename);
  put_number (&b, "line", where.line);
  put_number (&b, "column", where.column);
  put_field (&b, "function",
	     lang_hooks.decl_printable_name (current_function_decl, 1));
  put_field (&b, "allocator", site->name);
  put_field (&b, "kind", site_kind_name (site->kind));
  if (site->typed)
    put_str (&b, ",\"typed\":true");

  char *pointee = site->pointee ? print_generic_expr_to_str (site->pointee)
				: NULL;
  put_field (&b, "pointee", pointee);
  free (pointee);
  char *count = value_text (site->count);
  put_field (&b, "count", count);
  free (count);
  if (site->kind == SITE_OBJECT)
    put_number (&b, "size", site->size);
  if (site->kind == SITE_ARRAY || site->kind == SITE_FLEX)
    put_number (&b, "elem_size", site->elem_size);
  if (site->has_flex && DECL_NAME (site->flex.fam))
    put_field (&b, "flex", IDENTIFIER_POINTER (DECL_NAME (site->flex.fam)));
  tree counter = site->flex.counter_depth
		 ? site->flex.counter[site->flex.counter_depth - 1] : NULL_TREE;
  put_field (&b, "counter",
	     counter && DECL_NAME (counter)
	     ? IDENTIFIER_POINTER (DECL_NAME (counter)) : NULL);
  put_field (&b, "counter_left", counter_fate_name (site->counter_left));
  put_flags (&b, "rewrites", done->rewrites, site_rewrite_names);
  /* The warnings by their no-warn= names.  */
  put_flags (&b, "warnings", done->warned, warning_kinds);
  /* The unit compiled: a call in a header is compiled in many.  */
  put_field (&b, "unit", main_input_filename);
  put_str (&b, "}\n");

  report_write (&b);
}

/* Append a record of the wrapper ROW learnt from FNDECL's body, which
   calls INNER: make report WRAPPERS=FILE makes a wrapper file of them.  */
void
report_wrapper (const struct allocator *row, tree fndecl,
		const struct allocator *inner)
{
  if (!report_ready ())
    return;

  expanded_location where = expand_location (DECL_SOURCE_LOCATION (fndecl));
  char roles[64];
  alloc_roles_text (row, roles, sizeof roles);
  struct text_buf b = { NULL, 0, 0 };
  put_str (&b, "{");
  put_field (&b, "kalloc", KALLOC_VERSION);
  put_field (&b, "wrapper", row->name);
  put_field (&b, "roles", roles);
  put_field (&b, "file", where.file ? where.file : main_input_filename);
  put_number (&b, "line", where.line);
  put_field (&b, "linkage", TREE_PUBLIC (fndecl) ? "extern" : "static");
  put_field (&b, "calls", inner->name);
  put_str (&b, "}\n");
  report_write (&b);
}

void
report_finish (void)
{
  if (report_fd >= 0)
    close (report_fd);
  report_fd = -1;
}
