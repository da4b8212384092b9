/*
 * kalloc - Linux 7.0's typed-allocator guarantees for legacy C code.
 *
 * Recognises kmalloc ()-family calls in GIMPLE, warns when the size
 * cannot be right for the type the result is stored as, and rewrites
 * the calls into overflow-checked, counted_by-initialising sequences,
 * as kmalloc_objs () and kmalloc_flex () behave.
 *
 * Options (-fplugin-arg-kalloc-KEY[=VALUE]):
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
 *
 * Usage: gcc -fplugin=kalloc.so [-fplugin-arg-kalloc-mode=check] ...
 */
#include "kalloc.h"

int plugin_is_GPL_compatible;

/* The .so base name, which is the name -fplugin-arg- uses.  */
static const char *plugin_name_text = "kalloc";

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

bool
kalloc_invariant_failed (const char *expr, const char *file, int line)
{
  if (kalloc_opts.checking)
    internal_error ("kalloc: invariant %qs does not hold (%s:%d)", expr,
		    lbasename (file), line);
  return false;
}

/* The help is the option table's (help_text), filled in at init.  */
static struct plugin_info kalloc_info = { KALLOC_VERSION, NULL };

/* ---- the pass ---------------------------------------------------------- */


static void
dump_site (const struct alloc_site *site, const struct site_outcome *done)
{
  if (!dump_file)
    return;
  expanded_location where = expand_location (site->loc);
  fprintf (dump_file, "kalloc: line %d %s kind=%s", where.line,
	   site->alloc->name, site_kind_name (site->kind));
  if (site->pointee)
    {
      fprintf (dump_file, " pointee=");
      print_generic_expr (dump_file, site->pointee);
    }
  if (site->count)
    {
      fprintf (dump_file, " count=");
      print_generic_expr (dump_file, site->count);
    }
  fprintf (dump_file, "%s", site->typed ? " typed" : "");
  for (const struct option_word *w = site_rewrite_names; w->word; w++)
    if (done->rewrites & w->value)
      fprintf (dump_file, " %s", w->word);
  fprintf (dump_file, "%s",
	   done->counter_store_branch ? " counter-store-branch" : "");
  /* The report's words for why the counter is left alone.  */
  if (site->counter_left != COUNTER_SET_HERE)
    fprintf (dump_file, " counter-left=\"%s\"",
	     counter_fate_name (site->counter_left));
  fprintf (dump_file, "%s\n", done->warned ? " warned" : "");
}

static bool
is_allocation_call (gcall *call)
{
  return alloc_find (kalloc_call_fndecl (call)) != NULL;
}

/* FUN's calls for which WANTED is true.  Collect first, then rewrite:
   rewriting splits blocks.  */
static gcall **
collect_calls (function *fun, bool (*wanted) (gcall *), int *count)
{
  gcall **calls = NULL;
  int n = 0, size = 0;
  basic_block bb;
  FOR_EACH_BB_FN (bb, fun)
    for (gimple_stmt_iterator gsi = gsi_start_bb (bb); !gsi_end_p (gsi);
	 gsi_next (&gsi))
      {
	gcall *call = dyn_cast<gcall *> (gsi_stmt (gsi));
	if (!call || !wanted (call))
	  continue;
	if (n == size)
	  {
	    size = size ? 2 * size : 8;
	    calls = XRESIZEVEC (gcall *, calls, size);
	  }
	calls[n++] = call;
      }
  *count = n;
  return calls;
}

/* suggest: calls written as an allocator whose macro calls something
   else (site_spelled).  A line with a recognised site (suggest_site
   has seen its location already) or with two such calls is left to the
   recognised site or alone: a 6.10+ kmalloc () with allocation
   profiling expands to other calls besides the allocator's.  */
static void
suggest_spelled_calls (function *fun)
{
  if (source_is_preprocessed ())
    return;			/* suggest_site () said why */
  int ncalls, count = 0;
  gcall **calls = collect_calls (fun, site_spelled_candidate, &ncalls);
  struct alloc_site *spelled = XNEWVEC (struct alloc_site, ncalls ? ncalls : 1);
  for (int i = 0; i < ncalls; i++)
    if (site_spelled (calls[i], &spelled[count]))
      count++;
  for (int i = 0; i < count; i++)
    {
      bool alone = true;
      for (int j = 0; j < count && alone; j++)
	alone = j == i || spelled[j].loc != spelled[i].loc;
      if (alone)
	suggest_site (&spelled[i], 0);
    }
  free (spelled);
  free (calls);
}

/* Analyse CALLS into SITES (what was done goes into DONE): each site's
   analysis is completed, then it is read only, diagnosed and suggested
   right away while its text is at hand.  Returns the number of sites.  */
static int
analyze_calls (gcall **calls, int count, struct alloc_site *sites,
	       struct site_outcome *done)
{
  int nsites = 0;
  for (int i = 0; i < count; i++)
    {
      struct alloc_site *site = &sites[nsites];
      if (!site_analyze (calls[i], site))
	continue;
      /* Typed already, by the kernel's own macros: reported only.  */
      if (!site->typed)
	{
	  /* Before any site is rewritten: kalloc's own stores are not
	     the program's.  */
	  rewrite_plan_site (site);
	  bool werror = kalloc_warnings_begin ();
	  done[nsites].warned = diagnose_site (site);
	  kalloc_warnings_end (werror);
	  if (kalloc_opts.suggest)
	    suggest_site (site, done[nsites].warned);
	}
      nsites++;
    }
  return nsites;
}

static unsigned int
kalloc_execute (function *fun)
{
  /* Inside an allocator's own body (the kernel's inline kzalloc () calls
     kmalloc () with its parameter) there is no site of the user's.  */
  if (alloc_find (fun->decl))
    return 0;
  /* A wrapper's body is an allocator's too; its callers are the sites. */
  if (kalloc_opts.wrappers && wrapper_learn (fun))
    return bounds_instrument_function (fun)
	   ? TODO_update_ssa | TODO_cleanup_cfg : 0;

  int count;
  gcall **calls = collect_calls (fun, is_allocation_call, &count);
  struct alloc_site *sites = XNEWVEC (struct alloc_site, count ? count : 1);
  struct site_outcome *done = XCNEWVEC (struct site_outcome,
					count ? count : 1);
  bool update_ssa = false;

  diagnose_reset_function ();
  suggest_reset_function ();
  counter_fate_reset_function ();
  int nsites = analyze_calls (calls, count, sites, done);
  if (kalloc_opts.suggest)
    suggest_spelled_calls (fun);
  bool werror = kalloc_warnings_begin ();
  scaled_offset_check_function (fun, sites, nsites);
  kalloc_warnings_end (werror);
  /* Last site first: a bit-field counter's store splits the call's
     block, which moves every statement after the call; backwards, that is
     only the statements up to the next site (forwards, 100,000 calls in
     one block took quadratic time).  */
  for (int i = nsites - 1; i >= 0; i--)
    if (!sites[i].typed)
      update_ssa |= rewrite_site (&sites[i], &done[i]);
  for (int i = 0; i < nsites; i++)
    {
      report_site (&sites[i], &done[i]);
      dump_site (&sites[i], &done[i]);
    }
  free (done);
  free (sites);
  free (calls);
  update_ssa |= bounds_instrument_function (fun);
  return update_ssa ? TODO_update_ssa | TODO_cleanup_cfg : 0;
}

static const struct kalloc_pass main_pass = {
  "kalloc", NULL, kalloc_execute, 0
};

/* ---- arguments --------------------------------------------------------- */

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

static bool disabled, help, list_allocators;

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
    &disabled, true, NULL, NULL, NULL },
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
    &help, true, NULL, NULL, NULL },
  { "list-allocators", OPTION_FLAG, NULL,
    "print the allocators kalloc recognises, with their argument roles",
    NULL, &list_allocators, true, NULL, NULL, NULL },
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
static char *
help_text (void)
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
static bool
parse_argument (const struct plugin_argument *arg, const char *plugin_path)
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

/* ---- plugin entry ------------------------------------------------------ */

static void
on_attributes (void *, void *)
{
  counted_by_register ();
  silence_register_attributes ();
}

static void
on_pragmas (void *, void *)
{
  silence_register_pragmas ();
}

/* The C front end reports a structure type at its definition and again
   at every use (struct foo *p), thousands of times in a kernel file.  A
   complete type seen recently was checked and noted already: a
   direct-mapped cache of them skips the repeats (a collision only
   repeats the work).  A GC root, so that no new type can take the
   address of a collected one.  */
#define FINISHED_TYPES 1024
static tree finished_types[FINISHED_TYPES];

static const struct ggc_root_tab finished_types_roots[] = {
  { &finished_types[0], FINISHED_TYPES, sizeof (tree),
    &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
  LAST_GGC_ROOT_TAB
};

static void
on_finish_type (void *data, void *)
{
  tree type = (tree) data;
  if (type && TYPE_P (type) && COMPLETE_TYPE_P (type))
    {
      tree *seen = &finished_types[((uintptr_t) type >> 4)
				   % FINISHED_TYPES];
      if (*seen == type)
	return;
      *seen = type;
    }
  counted_by_check_type (type);
  sizeof_type_note_type (type);
}

static void
on_finish_decl (void *decl, void *)
{
  sizeof_type_note_decl ((tree) decl);
}

static void
on_finish (void *, void *)
{
  report_finish ();
  suggest_finish ();
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!plugin_default_version_check (version, &gcc_version))
    {
      error ("kalloc: this plugin was built for GCC %s, but the compiler "
	     "is GCC %s; rebuild kalloc for it with %<make CC=%s%>",
	     gcc_version.basever, version->basever, "<that gcc>");
      return 1;
    }

  plugin_name_text = info->base_name;
  for (int i = 0; i < info->argc; i++)
    if (!parse_argument (&info->argv[i], info->full_name))
      return 1;

  kalloc_info.help = help_text ();
  register_callback (plugin_name_text, PLUGIN_INFO, NULL, &kalloc_info);
  if (help)
    fputs (kalloc_info.help, stdout);
  if (list_allocators)
    alloc_print_table (stdout);
  if (disabled)
    return 0;
  source_keep_stdin ();

  /* counted_by changes what kernels compile; only harden provides it. */
  if (kalloc_opts.mode != KALLOC_MODE_HARDEN)
    kalloc_opts.counted_by = false;
  counted_by_init ();

  /* Right after SSA is built: calls to inline allocators are still
     calls there, at every optimisation level.  */
  pass_register (plugin_name_text, &main_pass, "ssa", PASS_POS_INSERT_AFTER);
  /* Object sizes that follow counted_by, where kalloc provides it:
     after early inlining, before each of GCC's object-size passes.  */
  if (object_size_pass.name && counted_by_provided ())
    {
      pass_register (plugin_name_text, &object_size_pass, "early_objsz",
		     PASS_POS_INSERT_BEFORE);
      pass_register (plugin_name_text, &object_size_pass, "objsz",
		     PASS_POS_INSERT_BEFORE);
    }
  register_callback (plugin_name_text, PLUGIN_ATTRIBUTES, on_attributes, NULL);
  register_callback (plugin_name_text, PLUGIN_PRAGMAS, on_pragmas, NULL);
  register_callback (plugin_name_text, PLUGIN_FINISH_TYPE, on_finish_type,
		     NULL);
  register_callback (plugin_name_text, PLUGIN_FINISH_DECL, on_finish_decl,
		     NULL);
  register_callback (plugin_name_text, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) sizeof_type_roots);
  register_callback (plugin_name_text, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) counter_roots);
  register_callback (plugin_name_text, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) finished_types_roots);
  register_callback (plugin_name_text, PLUGIN_FINISH, on_finish, NULL);

  if (kalloc_opts.dump)
    g->get_dumps ()->dump_switch_p ("tree-kalloc");
  return 0;
}
