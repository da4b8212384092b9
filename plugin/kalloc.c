/*
 * kalloc - Linux 7.0's typed-allocator guarantees for legacy C code.
 *
 * Recognises kmalloc ()-family calls in GIMPLE, warns when the size
 * cannot be right for the type the result is stored as, and rewrites
 * the calls into overflow-checked, counted_by-initialising sequences,
 * as kmalloc_objs () and kmalloc_flex () behave.
 *
 * Its options are parsed, and printed by help, in options.c.
 *
 * Usage: gcc -fplugin=kalloc.so [-fplugin-arg-kalloc-mode=check] ...
 */
#include "kalloc.h"

int plugin_is_GPL_compatible;

/* The .so base name, which is the name -fplugin-arg- uses.  */
static const char *plugin_name_text = "kalloc";


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
    if (!options_parse (&info->argv[i], info->full_name))
      return 1;

  kalloc_info.help = options_help_text ();
  register_callback (plugin_name_text, PLUGIN_INFO, NULL, &kalloc_info);
  if (options_help)
    fputs (kalloc_info.help, stdout);
  if (options_list_allocators)
    alloc_print_table (stdout);
  if (options_disabled)
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
