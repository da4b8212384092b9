/* An allocator spec without a size. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-alloc=xmalloc:count,gfp" } */
/* { dg-error "kalloc: bad value 'xmalloc:count,gfp'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
