/* A mistyped option is answered with the option meant.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-wrapper=w.txt" } */
/* { dg-error "kalloc: unknown option '-fplugin-arg-kalloc-wrapper'; did you mean '-fplugin-arg-kalloc-wrappers'\\?" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
