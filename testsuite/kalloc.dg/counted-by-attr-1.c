/* kalloc provides counted_by on GCCs without it, so that kernel headers
   switch their annotations on.  */
/* { dg-do compile } */

#if !defined(__has_attribute) || !__has_attribute (__counted_by__)
#error "counted_by should be available"
#endif

struct good { int count; int data[] __attribute__ ((__counted_by__ (count))); };
struct spelled { int n; long data[] __attribute__ ((counted_by (n))); };
struct counter_in_anonymous { struct { short flags; unsigned char n; }; int data[] __attribute__ ((__counted_by__ (n))); };

/* The Linux 6.12 Kconfig probe (CONFIG_CC_HAS_COUNTED_BY).  */
struct flex { int count; int array[] __attribute__((__counted_by__(count))); };
