/* Two commas in a row leave an empty kind. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=object,,flex" } */
/* { dg-error "kalloc: bad value 'object,,flex' for '-fplugin-arg-kalloc-no-warn'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
