/* counted-by.h - __counted_by (member) for test programs: the attribute
   where the compiler (GCC 15) or kalloc provides it, else nothing.  */
#ifndef KALLOC_TEST_COUNTED_BY_H
#define KALLOC_TEST_COUNTED_BY_H

#if defined(__has_attribute)
#if __has_attribute (__counted_by__)
#define __counted_by(member) __attribute__ ((__counted_by__ (member)))
#endif
#endif
#ifndef __counted_by
#define __counted_by(member)
#endif

#endif /* KALLOC_TEST_COUNTED_BY_H */
