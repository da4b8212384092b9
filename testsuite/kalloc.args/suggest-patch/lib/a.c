/* Two calls to convert, one with a wrong size (left as it is).  */
#include "kernel.h"
#include "h.h"
struct foo { long a, b, c; };

struct foo *foo_new (size_t n)
{
	struct foo *p = kmalloc (sizeof (*p), GFP_KERNEL);
	struct foo *q = kcalloc (n, sizeof (*q), GFP_KERNEL);
	struct foo *bad = kmalloc (sizeof (bad), GFP_KERNEL);

	kfree (q);
	kfree (bad);
	hitem_new ();
	return p;
}
