/*
 * pass.c - kalloc's GIMPLE passes.  GCC's pass manager wants an object
 * of a class derived from gimple_opt_pass; kalloc has one such class,
 * and each of its passes is a plain description (name, gate, execute,
 * what to do after) registered next to one of GCC's passes.
 */
#include "kalloc.h"

class kalloc_gimple_pass : public gimple_opt_pass
{
public:
  kalloc_gimple_pass (const pass_data &data, const struct kalloc_pass *desc)
    : gimple_opt_pass (data, g), m_desc (desc)
  {
  }
  bool gate (function *fun) final override
  {
    return !seen_error () && (!m_desc->gate || m_desc->gate (fun));
  }
  unsigned int execute (function *fun) final override
  {
    return m_desc->execute (fun);
  }

private:
  const struct kalloc_pass *m_desc;
};

/* Register DESC's pass at POS of the first instance of GCC's pass
   REFERENCE.  PLUGIN is the plugin's name.  */
void
pass_register (const char *plugin, const struct kalloc_pass *desc,
	       const char *reference, enum pass_positioning_ops pos)
{
  pass_data data = {
    GIMPLE_PASS,		/* type */
    desc->name,			/* name */
    OPTGROUP_NONE,		/* optinfo_flags */
    TV_PLUGIN_RUN,		/* tv_id: -ftime-report's "plugin execution" */
    PROP_cfg | PROP_ssa,	/* properties_required */
    0,				/* properties_provided */
    0,				/* properties_destroyed */
    0,				/* todo_flags_start */
    desc->todo_finish		/* todo_flags_finish */
  };
  struct register_pass_info info;
  /* The pass copies DATA.  */
  info.pass = new kalloc_gimple_pass (data, desc);
  info.reference_pass_name = reference;
  info.ref_pass_instance_number = 1;
  info.pos_op = pos;
  register_callback (plugin, PLUGIN_PASS_MANAGER_SETUP, NULL, &info);
}
