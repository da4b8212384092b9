/* A legacy call in a header's inline function: compiled in every unit
   that uses it (report-unit-1.c).  */
struct unit_item { long a, b; };

static inline struct unit_item *
unit_item_new (void)
{
  return kzalloc (sizeof (struct unit_item), GFP_KERNEL);
}
