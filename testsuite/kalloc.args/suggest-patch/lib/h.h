/* A header compiled by both units (a.c, b.c).  */
struct hitem { long a, b; };
static inline struct hitem *hitem_new (void)
{
	return kzalloc (sizeof (struct hitem), GFP_KERNEL);
}
static inline struct hitem *hitems_new (size_t n)
{
	return kcalloc (n, sizeof (struct hitem), GFP_KERNEL);
}
