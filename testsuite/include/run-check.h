/* run-check.h - CHECK () for run tests, kernel-style or plain C: a failed
   check is printed and counted in kstub_failures, which main () returns.  */
#ifndef KALLOC_TEST_RUN_CHECK_H
#define KALLOC_TEST_RUN_CHECK_H

#include <stdio.h>

static int kstub_failures __attribute__ ((__unused__));

#define CHECK(cond)                                                           \
  do                                                                          \
    {                                                                         \
      if (!(cond))                                                            \
	{                                                                     \
	  fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
		   #cond);                                                    \
	  kstub_failures++;                                                   \
	}                                                                     \
    }                                                                         \
  while (0)

#endif /* KALLOC_TEST_RUN_CHECK_H */
