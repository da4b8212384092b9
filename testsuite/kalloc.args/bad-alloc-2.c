/* An allocator spec with an unknown role. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-alloc=xmalloc:size,bytes" } */
/* { dg-error "kalloc: bad value 'xmalloc:size,bytes' for '-fplugin-arg-kalloc-alloc'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
