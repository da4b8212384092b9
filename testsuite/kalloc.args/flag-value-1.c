/* A flag given a value. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-disable=1" } */
/* { dg-error "kalloc: option '-fplugin-arg-kalloc-disable' takes no value" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
