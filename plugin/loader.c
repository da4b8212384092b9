/*
 * loader.c - the kalloc.so that GCC loads: it checks the GCC version,
 * then loads the plugin proper, kalloc-core.so beside it, into the C
 * compiler (cc1) only.
 *
 * Users put -fplugin=kalloc.so in CC, so with -flto it reaches lto1 too,
 * and with C++ cc1plus: programs without the C front end's symbols
 * (pragma_lex, c_register_pragma), where the plugin proper cannot even be
 * dlopened.  And a plugin built for another GCC fails in dlopen () with a
 * raw "undefined symbol" before any version check could run.  So this file
 * calls nothing of GCC's: it loads into every GCC program of every
 * release, says in kalloc's words when it was built for another GCC, and
 * outside cc1 does nothing, accepting kalloc's arguments unread.
 *
 * Its messages are here, not in diagnose.c: GCC's diagnostic functions
 * are what it must not call.  They read like GCC's ("cc1: error: ...").
 *
 * Usage: gcc -fplugin=kalloc.so [-fplugin-arg-kalloc-KEY[=VALUE]] ...
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include <dlfcn.h>

int plugin_is_GPL_compatible;

/* The plugin proper's file name, in the loader's own directory.  */
static const char core_name[] = "kalloc-core.so";

/* Which build of kalloc-core.so this loader belongs to (its checksum,
   from the Makefile): a rebuilt plugin changes kalloc.so too, for tools
   that look at the -fplugin= file only (ccache, build keys).  */
#ifndef KALLOC_CORE_ID
#define KALLOC_CORE_ID "unknown"
#endif
extern const char kalloc_core_id[];
const char kalloc_core_id[] = "kalloc-core " KALLOC_CORE_ID;

/* GCC's own test (plugin_default_version_check), done here because
   calling GCC is what a loader built for another GCC cannot do.  */
static bool
same_gcc (const struct plugin_gcc_version *a,
	  const struct plugin_gcc_version *b)
{
  return !strcmp (a->basever, b->basever)
	 && !strcmp (a->datestamp, b->datestamp)
	 && !strcmp (a->devphase, b->devphase)
	 && !strcmp (a->revision, b->revision)
	 && !strcmp (a->configuration_arguments, b->configuration_arguments);
}

static int
version_mismatch (const struct plugin_gcc_version *running)
{
  const char *major_end = strchr (running->basever, '.');
  int major_len = major_end ? (int) (major_end - running->basever)
			    : (int) strlen (running->basever);
  if (!strcmp (gcc_version.basever, running->basever)
      && !strcmp (gcc_version.datestamp, running->datestamp))
    fprintf (stderr, "%s: error: kalloc: this kalloc.so was built for a GCC "
	     "%s configured differently from the one running it; rebuild "
	     "kalloc for it with 'make CC=gcc-%.*s'\n",
	     program_invocation_short_name, gcc_version.basever, major_len,
	     running->basever);
  else
    fprintf (stderr, "%s: error: kalloc: this kalloc.so was built for GCC %s "
	     "(%s), but the compiler running it is GCC %s (%s); rebuild "
	     "kalloc for it with 'make CC=gcc-%.*s'\n",
	     program_invocation_short_name, gcc_version.basever,
	     gcc_version.datestamp, running->basever, running->datestamp,
	     major_len, running->basever);
  return 1;
}

/* kalloc-core.so's path, in PATH: the directory this file was loaded
   from (GCC's own resolution of -fplugin=NAME is not repeated here).  */
static bool
core_path (char *path, size_t size)
{
  Dl_info self;
  if (!dladdr ((void *) &plugin_init, &self) || !self.dli_fname)
    return false;
  const char *slash = strrchr (self.dli_fname, '/');
  int dir_len = slash ? (int) (slash - self.dli_fname + 1) : 0;
  int len = snprintf (path, size, "%.*s%s", dir_len, self.dli_fname,
		      core_name);
  return len > 0 && (size_t) len < size;
}

int
plugin_init (struct plugin_name_args *info, struct plugin_gcc_version *version)
{
  if (!same_gcc (&gcc_version, version))
    return version_mismatch (version);

  /* lto1, cc1plus, ...: nothing to do, and kalloc's checks stay in the
     code cc1 made.  */
  if (strcmp (program_invocation_short_name, "cc1"))
    return 0;

  char path[PATH_MAX];
  void *core = core_path (path, sizeof path) ? dlopen (path, RTLD_NOW) : NULL;
  if (!core)
    {
      fprintf (stderr, "%s: error: kalloc: cannot load the plugin proper, "
	       "%s beside kalloc.so: %s\n", program_invocation_short_name,
	       core_name, dlerror ());
      return 1;
    }
  plugin_init_func core_init = (plugin_init_func) dlsym (core, "plugin_init");
  if (!core_init)
    {
      fprintf (stderr, "%s: error: kalloc: %s has no plugin_init\n",
	       program_invocation_short_name, core_name);
      return 1;
    }
  /* Never closed: GCC calls its callbacks until it exits.  */
  return core_init (info, version);
}
