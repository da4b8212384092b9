/* A leading comma leaves an empty kind. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=,all" } */
/* { dg-error "kalloc: bad value ',all' for '-fplugin-arg-kalloc-no-warn'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
