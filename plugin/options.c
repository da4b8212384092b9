/*
 * options.c - kalloc's options: the one table that -fplugin-arg-kalloc-
 * arguments are parsed with, help is printed from and error messages
 * quote, and the options' values (kalloc_opts).
 *
 * The options (-fplugin-arg-kalloc-KEY[=VALUE]):
 *   mode=harden          warn and rewrite (default)
 *   mode=check           warn only; the generated code is unchanged
 *   disable              do nothing at all
 *   no-warn=KIND[,KIND]  switch warnings off: object, array, flex, type,
 *                        offset, all
 *   alloc=NAME:ROLES     also recognise NAME; ROLES lists its arguments
 *                        in order, each size, count, gfp or _ (ignored),
 *                        e.g. alloc=xcalloc:count,size
 *   no-counter-store     do not set counted_by counters
 *   no-counter-check     do not fail counts the counter cannot hold
 *   no-counted-by        do not provide the counted_by attribute
 *                        (GCC 11-14; GCC 15 has its own)
 *   no-libc              leave the C library's allocators alone (malloc,
 *                        calloc, realloc, reallocarray, aligned_alloc)
 *   no-wrappers          do not learn allocator wrappers from their bodies
 *   wrappers=FILE        also recognise the wrappers FILE lists, one
 *                        NAME:ROLES a line (make report WRAPPERS=FILE)
 *   report=FILE          append one JSON line per allocation site
 *   dump                 write the pass's dump (BASE.*.kalloc)
 *   suggest              fix-it hints converting each legacy call to Linux
 *                        7.0's typed form (kmalloc_obj (*p) ...); see
 *                        -fdiagnostics-generate-patch
 *   suggest-keep-gfp     ... keeping GFP_KERNEL arguments
 *   suggest-patch=FILE   suggest, and add the conversions to the patch
 *                        FILE (patch -p1, git apply)
 *   suggest-root=DIR     the patch's names are relative to DIR
 *   keep-warnings        kalloc's warnings stay warnings under -Werror
 *   help                 print this list
 *   list-allocators      print the allocators kalloc recognises
 *   checking             an invariant that does not hold is an internal
 *                        error (the testsuite's setting)
 *
 * The table `options' below is what the plugin parses and prints;
 * testsuite/kalloc.args/options.exp checks that this list, docs/usage.md
 * and docs/kalloc.7 name exactly its options.
 */
#include "kalloc.h"

struct kalloc_options kalloc_opts = {
  KALLOC_MODE_HARDEN,		/* mode */
  KW_ALL,			/* warnings */
  true,				/* counter_store */
  true,				/* counter_check */
  true,				/* counted_by */
  true,				/* libc */
  true,				/* wrappers */
  false,			/* dump */
  false,			/* suggest */
  false,			/* suggest_keep_gfp */
  NULL,				/* report */
  NULL,				/* suggest_patch */
  NULL,				/* suggest_root */
  false,			/* checking */
  false				/* keep_warnings */
};

/* The words mode= takes.  */
static const struct option_word mode_words[] = {
  { "harden", KALLOC_MODE_HARDEN, "warn and rewrite (the default)" },
  { "check", KALLOC_MODE_CHECK, "warn only; the code is unchanged" },
  { NULL, 0, NULL }
};

/* The warning kinds no-warn= takes; the report names warnings with them.  */
const struct option_word warning_kinds[] = {
  { "object", KW_OBJECT, "a single object smaller than its type" },
  { "array", KW_ARRAY, "an element size unlike the pointee's" },
  { "flex", KW_FLEX, "a flexible-array header or element too small" },
  { "type", KW_TYPE, "sizeof names another type of the same size" },
  { "offset", KW_OFFSET, "pointer arithmetic scaled by a sizeof" },
  { "all", KW_ALL, "every kind" },
  { NULL, 0, NULL }
};

bool options_disabled, options_help, options_list_allocators;

static bool
set_mode (unsigned mode)
{
  kalloc_opts.mode = (enum kalloc_mode) mode;
  return true;
}

static bool
clear_warning (unsigned kind)
{
  kalloc_opts.warnings &= ~kind;
  return true;
}

static bool
set_report (const char *file)
{
  kalloc_opts.report = xstrdup (file);
  return true;
}

static bool
set_suggest_patch (const char *file)
{
  kalloc_opts.suggest_patch = xstrdup (file);
  kalloc_opts.suggest = true;
  return true;
}

static bool
set_suggest_root (const char *dir)
{
  kalloc_opts.suggest_root = xstrdup (dir);
  return true;
}

/* Every option, once: parsing, the help text and the "expected ..." of
   error messages all come from this table.  Columns (struct option_row):
   name, kind, value, help, words, flag, flag_value, set_word, set_text,
   expected (NULL for TEXT: SET_TEXT says what is wrong itself).  */
static const struct option_row options[] = {
  { "mode", OPTION_WORD, NULL, "what kalloc does", mode_words,
    NULL, false, set_mode, NULL, NULL },
  { "disable", OPTION_FLAG, NULL, "do nothing at all", NULL,
    &options_disabled, true, NULL, NULL, NULL },
  { "no-warn", OPTION_WORD_LIST, "KIND[,KIND]", "switch warnings off",
    warning_kinds, NULL, false, clear_warning, NULL, NULL },
  { "alloc", OPTION_TEXT, "NAME:ROLES",
    "also recognise the function NAME; ROLES lists its arguments in "
    "order, each size, count, gfp or _ (ignored), e.g. "
    "alloc=xcalloc:count,size", NULL, NULL, false, NULL, alloc_add_option,
    "NAME:ROLE,ROLE,... where each ROLE is 'size', 'count', 'gfp' or '_', "
    "e.g. 'xcalloc:count,size'" },
  { "no-counter-store", OPTION_FLAG, NULL,
    "do not set counted_by counters", NULL,
    &kalloc_opts.counter_store, false, NULL, NULL, NULL },
  { "no-counter-check", OPTION_FLAG, NULL,
    "do not fail counts the counter cannot hold", NULL,
    &kalloc_opts.counter_check, false, NULL, NULL, NULL },
  { "no-counted-by", OPTION_FLAG, NULL,
    "do not provide the counted_by attribute (GCC 11-14; GCC 15 has its "
    "own)", NULL, &kalloc_opts.counted_by, false, NULL, NULL, NULL },
  { "no-libc", OPTION_FLAG, NULL,
    "leave the C library's allocators alone (malloc, calloc, realloc, "
    "reallocarray, aligned_alloc)", NULL, &kalloc_opts.libc, false, NULL,
    NULL, NULL },
  { "no-wrappers", OPTION_FLAG, NULL,
    "do not learn allocator wrappers from their bodies", NULL,
    &kalloc_opts.wrappers, false, NULL, NULL, NULL },
  { "wrappers", OPTION_TEXT, "FILE",
    "also recognise the wrappers FILE lists, one NAME:ROLES a line as "
    "alloc= takes them ('#' comments); make report WRAPPERS=FILE writes "
    "it", NULL, NULL, false, NULL, wrappers_read_file, NULL },
  { "report", OPTION_TEXT, "FILE",
    "append one JSON line per allocation site to FILE", NULL,
    NULL, false, NULL, set_report, "a file name" },
  { "dump", OPTION_FLAG, NULL, "write the pass's dump (BASE.*.kalloc)",
    NULL, &kalloc_opts.dump, true, NULL, NULL, NULL },
  { "suggest", OPTION_FLAG, NULL,
    "fix-it hints converting each legacy call to Linux 7.0's typed form "
    "(kmalloc_obj (*p) ...); see -fdiagnostics-generate-patch", NULL,
    &kalloc_opts.suggest, true, NULL, NULL, NULL },
  { "suggest-keep-gfp", OPTION_FLAG, NULL,
    "with suggest: keep GFP_KERNEL arguments", NULL,
    &kalloc_opts.suggest_keep_gfp, true, NULL, NULL, NULL },
  { "suggest-patch", OPTION_TEXT, "FILE",
    "suggest, and add the conversions to the patch FILE, names relative "
    "to suggest-root, for patch -p1 or git apply there; safe under make "
    "-j, a header converted once", NULL, NULL, false, NULL,
    set_suggest_patch, "a file name" },
  { "suggest-root", OPTION_TEXT, "DIR",
    "with suggest-patch: the top of the source tree (default: the "
    "compile's directory)", NULL, NULL, false, NULL, set_suggest_root,
    "a directory" },
  { "keep-warnings", OPTION_FLAG, NULL,
    "kalloc's warnings stay warnings under -Werror (the kernel's "
    "CONFIG_WERROR), while the compiler's own become errors", NULL,
    &kalloc_opts.keep_warnings, true, NULL, NULL, NULL },
  { "help", OPTION_FLAG, NULL, "print this list", NULL,
    &options_help, true, NULL, NULL, NULL },
  { "list-allocators", OPTION_FLAG, NULL,
    "print the allocators kalloc recognises, with their argument roles",
    NULL, &options_list_allocators, true, NULL, NULL, NULL },
  { "checking", OPTION_FLAG, NULL,
    "stop with an internal error when an invariant of kalloc's own does "
    "not hold (the testsuite's setting; by default kalloc leaves such a "
    "site as it is)", NULL, &kalloc_opts.checking, true, NULL, NULL, NULL },
};

/* Append printf-style text to *TEXT (NULL: empty).  */
static void ATTRIBUTE_PRINTF_2
text_add (char **text, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  char *piece = xvasprintf (format, ap);
  va_end (ap);
  *text = reconcat (*text, *text ? *text : "", piece, NULL);
  free (piece);
}

/* WORDS as 'a', 'b' or 'c' (QUOTE "'", LAST " or "), or a|b|c.  */
static void
text_add_words (char **text, const struct option_word *words,
		const char *quote, const char *last)
{
  for (const struct option_word *w = words; w->word; w++)
    text_add (text, "%s%s%s%s", w == words ? "" : w[1].word ? ", " : last,
	      quote, w->word, quote);
}

/* What ROW's value looks like, for error messages.  */
static char *
expected_value (const struct option_row *row)
{
  char *text = NULL;
  if (row->kind == OPTION_WORD_LIST)
    text_add (&text, "a comma-separated list of ");
  if (row->words)
    text_add_words (&text, row->words, "'",
		    row->kind == OPTION_WORD ? " or " : ", ");
  else
    text_add (&text, "%s", row->expected);
  return text;
}

/* The option list, one line each (and one per word of a value), as
   -fplugin-arg-kalloc-help and gcc -v --help print it.  */
char *
options_help_text (void)
{
  char *text = NULL;
  text_add (&text, "kalloc %s: typed, overflow-checked kmalloc () for legacy "
	    "code (docs/usage.md)\noptions, -fplugin-arg-kalloc-KEY[=VALUE]:\n",
	    KALLOC_VERSION);
  for (size_t i = 0; i < ARRAY_SIZE (options); i++)
    {
      const struct option_row *row = &options[i];
      char *name = xstrdup (row->name);
      if (row->kind == OPTION_WORD)
	{
	  text_add (&name, "=");
	  text_add_words (&name, row->words, "", "|");
	}
      else if (row->kind != OPTION_FLAG)
	text_add (&name, "=%s", row->value);
      text_add (&text, "  %-21s", name);
      free (name);
      /* The help in lines of at most 78 columns, after 24.  */
      const char *help = row->help;
      while (*help)
	{
	  int len = strlen (help);
	  if (len > 54)
	    for (len = 54; len > 0 && help[len] != ' '; len--)
	      ;
	  text_add (&text, "%s%.*s", help == row->help ? " " : "\n"
		    "                        ", len, help);
	  help += len + (help[len] == ' ');
	}
      text_add (&text, "%s\n", row->words ? ":" : "");
      for (const struct option_word *w = row->words; w && w->word; w++)
	text_add (&text, "  %-21s   %s: %s\n", "", w->word, w->help);
    }
  return text;
}

static const struct option_word *
find_word (const struct option_word *words, const char *word, size_t len)
{
  for (const struct option_word *w = words; w->word; w++)
    if (strlen (w->word) == len && !strncmp (w->word, word, len))
      return w;
  return NULL;
}

/* Apply VALUE to ROW; false if it is not one ROW takes.  */
static bool
apply_value (const struct option_row *row, const char *value)
{
  const struct option_word *w;
  switch (row->kind)
    {
    case OPTION_WORD:
      w = find_word (row->words, value, strlen (value));
      return w && row->set_word (w->value);
    case OPTION_WORD_LIST:
      /* Every word, each one known: "a,", ",a" and "a,,b" are not.  */
      for (const char *word = value;; word++)
	{
	  const char *end = strchr (word, ',');
	  size_t len = end ? (size_t) (end - word) : strlen (word);
	  w = find_word (row->words, word, len);
	  if (!w || !row->set_word (w->value))
	    return false;
	  if (!end)
	    return true;
	  word = end;
	}
    case OPTION_TEXT:
      return row->set_text (value);
    case OPTION_FLAG:
      break;
    }
  gcc_unreachable ();
}

/* Apply one -fplugin-arg-kalloc-KEY[=VALUE]; report and fail if bad.  */
bool
options_parse (const struct plugin_argument *arg, const char *plugin_path)
{
  const char *key = arg->key, *value = arg->value;
  const struct option_row *row = NULL;
  for (size_t i = 0; i < ARRAY_SIZE (options) && !row; i++)
    if (!strcmp (key, options[i].name))
      row = &options[i];
  if (!row)
    {
      auto_vec<const char *> names;
      for (size_t i = 0; i < ARRAY_SIZE (options); i++)
	names.safe_push (options[i].name);
      const char *near = find_closest_string (key, &names);
      if (near)
	error ("kalloc: unknown option %<-fplugin-arg-kalloc-%s%>; did you "
	       "mean %<-fplugin-arg-kalloc-%s%>?", key, near);
      else
	error ("kalloc: unknown option %<-fplugin-arg-kalloc-%s%>; "
	       "%<gcc -fplugin=%s -fplugin-arg-kalloc-help -fsyntax-only -x c "
	       "/dev/null%> lists them", key, plugin_path);
      return false;
    }
  if (row->kind == OPTION_FLAG)
    {
      if (value)
	{
	  error ("kalloc: option %<-fplugin-arg-kalloc-%s%> takes no value",
		 key);
	  return false;
	}
      *row->flag = row->flag_value;
      return true;
    }
  if (!value || !*value)
    {
      error ("kalloc: option %<-fplugin-arg-kalloc-%s%> needs a value", key);
      return false;
    }
  /* GCC's parser of plugin arguments drops every '=' after the first
     from the value and cuts as many bytes off its end (report=a=b.json
     arrives as "a=b.jso"): what came is not what was written.  */
  if (strchr (value, '='))
    {
      error ("kalloc: the value of %<-fplugin-arg-kalloc-%s%> contains "
	     "%<=%>, which GCC does not pass to plugins intact (it arrived "
	     "as %qs); use a value without %<=%>", key, value);
      return false;
    }
  if (apply_value (row, value))
    return true;
  if (row->kind == OPTION_TEXT && !row->expected)
    return false;
  char *expected = expected_value (row);
  error ("kalloc: bad value %qs for %<-fplugin-arg-kalloc-%s%>: expected %s",
	 value, key, expected);
  free (expected);
  return false;
}

