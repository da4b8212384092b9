/* An allocator spec without roles. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-alloc=xmalloc" } */
/* { dg-error "kalloc: bad value 'xmalloc' for '-fplugin-arg-kalloc-alloc': expected NAME:ROLE" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
