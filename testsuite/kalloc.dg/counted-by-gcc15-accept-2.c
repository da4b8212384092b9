/* C2x attribute syntax: [[gnu::counted_by (n)]] as GCC 15 takes it
   (make check-counted-by compares this file with GCC 15 itself).  */
/* { dg-do compile } */
/* { dg-options "-std=gnu2x" } */
/* { dg-require-no-native-counted-by "" } */

struct before { unsigned n; [[gnu::counted_by (n)]] char a[]; };
struct spelled { _Bool n; [[__gnu__::__counted_by__ (n)]] char a[]; };
struct missing { unsigned n; [[gnu::counted_by (m)]] char a[]; }; /* { dg-error "argument 'm' to the 'counted_by' attribute is not a field declaration in the same structure as 'a'" } */
/* After the declarator the attribute belongs to the array type.  */
struct after { unsigned n; char a[] [[gnu::counted_by (n)]]; }; /* { dg-warning "'counted_by' attribute does not apply to types" } */

/* { dg-final { scan-diagnostics-times "error: " 1 } } */
/* { dg-final { scan-diagnostics-times "warning: " 1 } } */
