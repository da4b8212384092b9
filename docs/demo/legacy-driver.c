/*
 * legacy-driver.c - a kernel-style driver written the pre-7.0 way, with
 * the bugs the typed allocators were made to stop.  `make demo` compiles
 * it with kalloc and runs it with and without the plugin.
 */
#include "kernel.h"

struct ring_entry {
	u64 addr;
	u32 len;
	u32 flags;
};

struct ring {
	struct ring_entry *entries;
	unsigned int size;
};

struct fw_blob {
	u32 version;
	u16 nr_sections;
	u32 sections[] __counted_by(nr_sections);
};

struct demo_dev {
	struct device dev;
	struct ring *rx;
	struct fw_blob *fw;
};

/* Bug 1: sizeof(ring) is the size of a pointer.  (Not run by main():
   kalloc warns about it; fixing it is the programmer's job.)  */
struct ring *ring_alloc(unsigned int size)
{
	struct ring *ring = kzalloc(sizeof(ring), GFP_KERNEL);

	if (!ring)
		return NULL;
	/* Bug 2: an element size of a pointer, not of an entry.  */
	ring->entries = kcalloc(size, sizeof(ring->entries), GFP_KERNEL);
	ring->size = size;
	return ring;
}

/* Correct code: kalloc says nothing about it.  */
static struct demo_dev *demo_probe(void)
{
	struct demo_dev *dd = kzalloc(sizeof(*dd), GFP_KERNEL);

	if (dd)
		dd->rx = NULL;
	return dd;
}

/*
 * Hardening: n comes from the device.  The product wraps for a hostile
 * n and kmalloc() returns a tiny buffer; with kalloc the allocation
 * fails as kmalloc_objs() would.
 */
static struct ring_entry *entries_from_device(size_t n)
{
	return kmalloc(n * sizeof(struct ring_entry), GFP_KERNEL);
}

/*
 * Hardening: kmalloc_flex() semantics.  The counter is set at allocation
 * and a count it cannot hold (u16) fails the allocation.
 */
static struct fw_blob *fw_alloc(size_t nr)
{
	struct fw_blob *fw = kmalloc(struct_size(fw, sections, nr), GFP_KERNEL);

	return fw;
}

int main(void)
{
	struct demo_dev *dd = demo_probe();
	struct ring_entry *e;
	struct fw_blob *fw;
	size_t hostile = OPAQUE(((size_t)-1) / sizeof(struct ring_entry) + 2);

	e = entries_from_device(hostile);
	printf("entries_from_device(%zu): %s (allocator asked for %zu bytes)\n",
	       hostile, e ? "got a buffer: heap overflow ahead" : "NULL, refused",
	       kstub_last_size);

	fw = fw_alloc(OPAQUE((size_t)3));
	printf("fw_alloc(3): nr_sections = %u%s\n", fw ? fw->nr_sections : 0,
	       fw && fw->nr_sections == 3 ? " (set at allocation)" : " (never set)");
	kfree(fw);
	fw = fw_alloc(OPAQUE((size_t)70000));
	printf("fw_alloc(70000): %s\n", fw ? "allocated, but nr_sections cannot hold 70000"
					   : "NULL, refused (70000 does not fit the u16 counter)");

	kfree(fw);
	kfree(dd);
	return 0;
}
