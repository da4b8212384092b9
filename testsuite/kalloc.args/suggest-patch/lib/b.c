/* Uses both of h.h's functions; a.c only one: the patch converts each once.  */
#include "kernel.h"
#include "h.h"
struct hitem *b_new (size_t n)
{
	hitem_new ();
	return hitems_new (n);
}
