/* GCC cuts a plugin argument's value that holds a second '=' (the value
   arrives one byte short for each): kalloc refuses it instead of writing
   a report to another path.  */
/* { dg-do compile } */
/* { dg-options "-fplugin-arg-kalloc-report=a=b.json" } */
/* { dg-error "kalloc: the value of '-fplugin-arg-kalloc-report' contains '=', which GCC does not pass to plugins intact \\(it arrived as 'a=b.jso'\\)" "" { target *-*-* } 0 } */
/* { dg-error "failed to initialize plugin" "" { target *-*-* } 0 } */
int x;
