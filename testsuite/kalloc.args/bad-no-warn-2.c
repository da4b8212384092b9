/* A trailing comma leaves an empty kind: as invalid as a leading one. */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-no-warn=all," } */
/* { dg-error "kalloc: bad value 'all,' for '-fplugin-arg-kalloc-no-warn': expected a comma-separated list of 'object', 'array', 'flex', 'type', 'offset', 'all'" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
