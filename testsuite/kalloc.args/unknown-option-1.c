/* An unknown option is an error that names it. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-frobnicate" } */
/* { dg-error "kalloc: unknown option '-fplugin-arg-kalloc-frobnicate'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
