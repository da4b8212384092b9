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
 *   no-warn=KIND[,KIND]  switch warnings off: object, array, flex, type, all
 *   alloc=NAME:ROLES     also recognise NAME; ROLES lists its arguments
 *                        in order, each size, count, gfp or _ (ignored),
 *                        e.g. alloc=xcalloc:count,size
 *   no-counter-store     do not set counted_by counters
 *   no-counter-check     do not fail counts the counter cannot hold
 *   no-counted-by        do not provide the counted_by attribute
 *                        (GCC 11-14; GCC 15 has its own)
 *   report=FILE          append one JSON line per allocation site
 *   dump                 write the pass's dump (BASE.*.kalloc)
 *   suggest              fix-it hints converting each legacy call to Linux
 *                        7.0's typed form (kmalloc_obj (*p) ...); see
 *                        -fdiagnostics-generate-patch
 *   suggest-keep-gfp     ... keeping GFP_KERNEL arguments
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
  false,			/* dump */
  false,			/* suggest */
  false,			/* suggest_keep_gfp */
  NULL				/* report */
};

static struct plugin_info kalloc_info = {
  "0.1",
  "typed, overflow-checked kmalloc () for legacy code; see docs/usage.md\n"
  "  mode=harden|check  disable  no-warn=object,array,flex,type,all\n"
  "  alloc=NAME:ROLES  no-counter-store  no-counter-check  no-counted-by\n"
  "  report=FILE  dump  suggest  suggest-keep-gfp"
};

/* ---- the pass ---------------------------------------------------------- */

static const pass_data kalloc_pass_data = {
  GIMPLE_PASS,			/* type */
  "kalloc",			/* name */
  OPTGROUP_NONE,		/* optinfo_flags */
  TV_PLUGIN_RUN,		/* tv_id: -ftime-report's "plugin execution" */
  PROP_cfg | PROP_ssa,		/* properties_required */
  0,				/* properties_provided */
  0,				/* properties_destroyed */
  0,				/* todo_flags_start */
  0				/* todo_flags_finish */
};

static void
dump_site (const struct alloc_site *site)
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
  fprintf (dump_file, "%s%s%s%s%s\n",
	   site->rewrites & RW_SATURATE ? " saturate" : "",
	   site->rewrites & RW_COUNTER_CHECK ? " counter-check" : "",
	   site->rewrites & RW_COUNTER_STORE ? " counter-store" : "",
	   site->counter_from_zero ? " counter-from-zero" : "",
	   site->warned ? " warned" : "");
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
	suggest_site (&spelled[i]);
    }
  free (spelled);
  free (calls);
}

static unsigned int
kalloc_execute (function *fun)
{
  /* Inside an allocator's own body (the kernel's inline kzalloc () calls
     kmalloc () with its parameter) there is no site of the user's.  */
  if (alloc_find (fun->decl))
    return 0;

  int count;
  gcall **calls = collect_calls (fun, is_allocation_call, &count);
  struct alloc_site *sites = XNEWVEC (struct alloc_site, count ? count : 1);
  int nsites = 0;
  bool update_ssa = false;

  diagnose_reset_function ();
  suggest_reset_function ();
  for (int i = 0; i < count; i++)
    {
      struct alloc_site *site = &sites[nsites];
      if (!site_analyze (calls[i], site))
	continue;
      diagnose_site (site);
      if (kalloc_opts.suggest)
	suggest_site (site);
      nsites++;
    }
  if (kalloc_opts.suggest)
    suggest_spelled_calls (fun);
  /* Last site first: a counter store splits the call's block, which moves
     every statement after the call; backwards, that is only the statements
     up to the next site (forwards, 100,000 calls in one block took
     quadratic time).  */
  for (int i = nsites - 1; i >= 0; i--)
    update_ssa |= rewrite_site (&sites[i]);
  for (int i = 0; i < nsites; i++)
    {
      report_site (&sites[i]);
      dump_site (&sites[i]);
    }
  free (sites);
  free (calls);
  update_ssa |= bounds_instrument_function (fun);
  return update_ssa ? TODO_update_ssa | TODO_cleanup_cfg : 0;
}

class kalloc_pass : public gimple_opt_pass
{
public:
  kalloc_pass (gcc::context *ctxt) : gimple_opt_pass (kalloc_pass_data, ctxt)
  {
  }
  bool gate (function *) final override
  {
    return !seen_error ();
  }
  unsigned int execute (function *fun) final override
  {
    return kalloc_execute (fun);
  }
};

/* ---- arguments --------------------------------------------------------- */

static bool
parse_warning_kinds (const char *list)
{
  for (const char *word = list; *word;)
    {
      const char *end = strchr (word, ',');
      size_t len = end ? (size_t) (end - word) : strlen (word);
      unsigned kind = 0;
      if (len == 6 && !strncmp (word, "object", 6))
	kind = KW_OBJECT;
      else if (len == 5 && !strncmp (word, "array", 5))
	kind = KW_ARRAY;
      else if (len == 4 && !strncmp (word, "flex", 4))
	kind = KW_FLEX;
      else if (len == 4 && !strncmp (word, "type", 4))
	kind = KW_TYPE;
      else if (len == 3 && !strncmp (word, "all", 3))
	kind = KW_ALL;
      else
	return false;
      kalloc_opts.warnings &= ~kind;
      if (!end)
	break;
      word = end + 1;
    }
  return true;
}

/* What KEY's value looks like, for error messages.  */
static const char *
expected_value (const char *key)
{
  if (!strcmp (key, "mode"))
    return "'harden' or 'check'";
  if (!strcmp (key, "no-warn"))
    return "a comma-separated list of 'object', 'array', 'flex', 'type', "
	   "'all'";
  return "NAME:ROLE,ROLE,... where each ROLE is 'size', 'count', 'gfp' "
	 "or '_', e.g. 'xcalloc:count,size'";
}

/* The argument flags that take no value.  */
struct flag_arg
{
  const char *key;
  bool *target;
  bool value;
};

static bool disabled;

static const struct flag_arg flag_args[] = {
  { "disable", &disabled, true },
  { "no-counter-store", &kalloc_opts.counter_store, false },
  { "no-counter-check", &kalloc_opts.counter_check, false },
  { "no-counted-by", &kalloc_opts.counted_by, false },
  { "dump", &kalloc_opts.dump, true },
  { "suggest", &kalloc_opts.suggest, true },
  { "suggest-keep-gfp", &kalloc_opts.suggest_keep_gfp, true },
};

/* Apply one -fplugin-arg-kalloc-KEY[=VALUE]; report and fail if bad.  */
static bool
parse_argument (const struct plugin_argument *arg)
{
  const char *key = arg->key, *value = arg->value;
  for (size_t i = 0; i < ARRAY_SIZE (flag_args); i++)
    if (!strcmp (key, flag_args[i].key))
      {
	if (value)
	  {
	    error ("kalloc: option %<-fplugin-arg-kalloc-%s%> takes no value",
		   key);
	    return false;
	  }
	*flag_args[i].target = flag_args[i].value;
	return true;
      }

  bool known = !strcmp (key, "mode") || !strcmp (key, "no-warn")
	       || !strcmp (key, "alloc") || !strcmp (key, "report");
  if (!known)
    {
      error ("kalloc: unknown option %<-fplugin-arg-kalloc-%s%>; see "
	     "%<gcc -fplugin=kalloc.so --help=plugins%> or docs/usage.md", key);
      return false;
    }
  if (!value || !*value)
    {
      error ("kalloc: option %<-fplugin-arg-kalloc-%s%> needs a value", key);
      return false;
    }

  bool ok = true;
  if (!strcmp (key, "mode"))
    {
      if (!strcmp (value, "harden"))
	kalloc_opts.mode = KALLOC_MODE_HARDEN;
      else if (!strcmp (value, "check"))
	kalloc_opts.mode = KALLOC_MODE_CHECK;
      else
	ok = false;
    }
  else if (!strcmp (key, "no-warn"))
    ok = parse_warning_kinds (value);
  else if (!strcmp (key, "alloc"))
    ok = alloc_add_user (value);
  else
    kalloc_opts.report = xstrdup (value);

  if (!ok)
    error ("kalloc: bad value %qs for %<-fplugin-arg-kalloc-%s%>: expected %s",
	   value, key, expected_value (key));
  return ok;
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

static void
on_finish_type (void *type, void *)
{
  counted_by_check_type ((tree) type);
  sizeof_type_note_type ((tree) type);
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
    if (!parse_argument (&info->argv[i]))
      return 1;

  register_callback (plugin_name_text, PLUGIN_INFO, NULL, &kalloc_info);
  if (disabled)
    return 0;

  /* counted_by changes what kernels compile; only harden provides it. */
  if (kalloc_opts.mode != KALLOC_MODE_HARDEN)
    kalloc_opts.counted_by = false;
  counted_by_init ();

  struct register_pass_info pass_info;
  pass_info.pass = new kalloc_pass (g);
  /* Right after SSA is built: calls to inline allocators are still
     calls there, at every optimisation level.  */
  pass_info.reference_pass_name = "ssa";
  pass_info.ref_pass_instance_number = 1;
  pass_info.pos_op = PASS_POS_INSERT_AFTER;
  register_callback (plugin_name_text, PLUGIN_PASS_MANAGER_SETUP, NULL,
		     &pass_info);
  /* Object sizes that follow counted_by, where kalloc provides it:
     after early inlining, before each of GCC's object-size passes.  */
  static const char *const object_size_passes[] = { "early_objsz", "objsz" };
  for (size_t i = 0; i < ARRAY_SIZE (object_size_passes); i++)
    {
      opt_pass *object_sizes = object_size_pass_create (g);
      if (!object_sizes || !kalloc_opts.counted_by)
	break;
      pass_info.pass = object_sizes;
      pass_info.reference_pass_name = object_size_passes[i];
      pass_info.ref_pass_instance_number = 1;
      pass_info.pos_op = PASS_POS_INSERT_BEFORE;
      register_callback (plugin_name_text, PLUGIN_PASS_MANAGER_SETUP, NULL,
			 &pass_info);
    }
  register_callback (plugin_name_text, PLUGIN_ATTRIBUTES, on_attributes, NULL);
  register_callback (plugin_name_text, PLUGIN_PRAGMAS, on_pragmas, NULL);
  register_callback (plugin_name_text, PLUGIN_FINISH_TYPE, on_finish_type,
		     NULL);
  register_callback (plugin_name_text, PLUGIN_FINISH_DECL, on_finish_decl,
		     NULL);
  register_callback (plugin_name_text, PLUGIN_REGISTER_GGC_ROOTS, NULL,
		     (void *) sizeof_type_roots);
  register_callback (plugin_name_text, PLUGIN_FINISH, on_finish, NULL);

  if (kalloc_opts.dump)
    g->get_dumps ()->dump_switch_p ("tree-kalloc");
  return 0;
}
