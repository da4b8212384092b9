/* An unknown warning kind. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=object,nope" } */
/* { dg-error "kalloc: bad value 'object,nope' for '-fplugin-arg-kalloc-no-warn': expected a comma-separated list" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
