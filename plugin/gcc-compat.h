/*
 * gcc-compat.h - the only place that knows GCC versions.
 *
 * Every plugin file includes this header instead of GCC's own: it pulls
 * in the GCC internals kalloc uses, in the order they need, and turns
 * each difference between the supported releases (11 to 16) into
 * one macro or one small inline shim.
 */
#ifndef KALLOC_GCC_COMPAT_H
#define KALLOC_GCC_COMPAT_H

#include "gcc-plugin.h"
#include "plugin-version.h"

#include "config.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "spellcheck.h"
#include "context.h"
#include "ssa.h"
#include "cgraph.h"
/* c-common.h must come before diagnostic-core.h, for %qT and friends. */
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#include "diagnostic-core.h"
#include "diagnostic.h"
#include "stringpool.h"
#include "attribs.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "gimple-iterator.h"
#include "gimple-pretty-print.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "tree-cfg.h"
#include "cfganal.h"
#include "gimple-walk.h"
#include "tree-into-ssa.h"
#include "tree-ssanames.h"
#include "internal-fn.h"
#include "print-tree.h"
#include "target.h"
#include "langhooks.h"
#include "dumpfile.h"
#include "opts.h"

#define KALLOC_GCC_MAJOR GCCPLUGIN_VERSION_MAJOR

#if KALLOC_GCC_MAJOR < 11
#error "kalloc supports GCC 11 and later"
#endif

/*
 * GCC 15 implements counted_by itself (in the C front end; GCC 16 also
 * for pointer members); on older releases kalloc registers an attribute
 * of that name.
 */
#if KALLOC_GCC_MAJOR >= 15
#define KALLOC_NATIVE_COUNTED_BY 1
#else
#define KALLOC_NATIVE_COUNTED_BY 0
#endif

/* Whether -Werror turns warnings into errors: a public field up to GCC
   13, accessors from 14.  keep-warnings lifts it around kalloc's own.  */
static inline bool
kalloc_werror (void)
{
#if KALLOC_GCC_MAJOR >= 14
  return global_dc->warning_as_error_requested_p ();
#else
  return global_dc->warning_as_error_requested;
#endif
}

static inline void
kalloc_set_werror (bool on)
{
#if KALLOC_GCC_MAJOR >= 14
  global_dc->set_warning_as_error_requested (on);
#else
  global_dc->warning_as_error_requested = on;
#endif
}

/* __builtin_dynamic_object_size () arrived in GCC 12.  */
#define KALLOC_HAVE_DYNAMIC_OBJECT_SIZE (KALLOC_GCC_MAJOR >= 12)

/* Where the macro expansion MAP was used: a member function from 14.  */
static inline location_t
kalloc_expansion_point (const line_map_macro *map)
{
#if KALLOC_GCC_MAJOR >= 14
  return map->get_expansion_point_location ();
#else
  return MACRO_MAP_EXPANSION_POINT_LOCATION (map);
#endif
}

/* The function a call statement calls, NULL for internal calls.  */
static inline tree
kalloc_call_fndecl (const gimple *stmt)
{
  if (!is_gimple_call (stmt) || gimple_call_internal_p (stmt))
    return NULL_TREE;
  return gimple_call_fndecl (stmt);
}

/* With GCC 15's own counted_by, the front end reads an annotated array
   through .ACCESS_WITH_SIZE (&p->fam, &p->count, ...): p->fam[i] is
   (*_1)[i].  The array's FIELD_DECL when BASE (an ARRAY_REF's operand 0)
   is such a read, else NULL.  */
static inline tree
kalloc_access_with_size_field (tree base)
{
#if KALLOC_NATIVE_COUNTED_BY
  if (TREE_CODE (base) != MEM_REF
      || TREE_CODE (TREE_OPERAND (base, 0)) != SSA_NAME)
    return NULL_TREE;
  gimple *def = SSA_NAME_DEF_STMT (TREE_OPERAND (base, 0));
  if (!def || !is_gimple_call (def)
      || !gimple_call_internal_p (def, IFN_ACCESS_WITH_SIZE))
    return NULL_TREE;
  tree addr = gimple_call_arg (def, 0);
  /* At -O0 the address is an SSA name of its own: _4 = &p->fam.  */
  if (TREE_CODE (addr) == SSA_NAME
      && gimple_assign_single_p (SSA_NAME_DEF_STMT (addr)))
    addr = gimple_assign_rhs1 (SSA_NAME_DEF_STMT (addr));
  if (TREE_CODE (addr) != ADDR_EXPR
      || TREE_CODE (TREE_OPERAND (addr, 0)) != COMPONENT_REF)
    return NULL_TREE;
  return TREE_OPERAND (TREE_OPERAND (addr, 0), 1);
#else
  (void) base;
  return NULL_TREE;
#endif
}

#endif /* KALLOC_GCC_COMPAT_H */
