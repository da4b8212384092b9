/* An option that needs a value and has none. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-mode" } */
/* { dg-error "kalloc: option '-fplugin-arg-kalloc-mode' needs a value" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
