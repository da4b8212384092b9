/* A bad mode is an error naming the option and the choices. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-mode=fast" } */
/* { dg-error "kalloc: bad value 'fast' for '-fplugin-arg-kalloc-mode': expected 'harden' or 'check'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
