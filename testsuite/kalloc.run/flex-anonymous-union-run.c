/* Linux 7.2's struct cgroup: the flexible array kzalloc_flex () names,
   _low_ancestors, sits in an anonymous struct inside an anonymous union
   beside another view of the same bytes (ancestors[]).  Two candidate
   arrays: the site stays opaque, and the report, dump and suggest read
   nothing the analysis did not set (the report once read a garbage
   counter path here and crashed cc1 on cgroup_create ()).  */
/* { dg-do run } */
/* { dg-options "-fplugin-arg-kalloc-report=kalloc-report.json -fplugin-arg-kalloc-dump -fplugin-arg-kalloc-suggest" } */

#include "kernel.h"
#include <kalloc.h>

struct cgroup
{
  long id;
  int level;
  union
  {
    struct cgroup *ancestors[0];
    struct
    {
      struct cgroup *_root_ancestor;
      struct cgroup *_low_ancestors[];
    };
  };
};

__attribute__ ((__noinline__)) static struct cgroup *
cgroup_create (struct cgroup *parent, int level)
{
  struct cgroup *cgrp = kzalloc_flex (*cgrp, _low_ancestors, level);
  if (!cgrp)
    return NULL;
  cgrp->level = level;
  for (int i = 0; i < level; i++)
    cgrp->ancestors[i] = parent ? parent->ancestors[i] : NULL;
  cgrp->ancestors[level] = cgrp;
  return cgrp;
}

int
main (void)
{
  struct cgroup *root = cgroup_create (NULL, 0);
  CHECK (root && root->ancestors[0] == root && root->_root_ancestor == root);
  struct cgroup *child = cgroup_create (root, OPAQUE (1));
  CHECK (child && child->ancestors[0] == root && child->ancestors[1] == child);
  CHECK (kstub_last_size == sizeof (struct cgroup) + sizeof (struct cgroup *));
  kfree (child);
  kfree (root);
  return kstub_failures != 0;
}

/* { dg-final { scan-report "\"function\":\"cgroup_create\",\"allocator\":\"kzalloc\",\"kind\":\"opaque\",\[^\n\]*\"counter\":null,\"counter_left\":null" } } */
/* { dg-final { report-is-utf8-json } } */
