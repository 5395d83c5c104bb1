/*
 * tests/fuzz/fuzz_check.h - the checks the fuzz targets share: what a
 * sanitised e820 table and a memblock type must look like.  A failed
 * check abort()s, which libFuzzer reports as a crash with the input.
 */
#ifndef TESTS_FUZZ_FUZZ_CHECK_H
#define TESTS_FUZZ_FUZZ_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "asm/page.h"
#include "kernel/multiboot.h"
#include "lib/errno.h"
#include "mm/e820.h"
#include "mm/memblock.h"

/*
 * Sorted, without empty, wrapping or overlapping entries, and touching
 * entries differ in type.
 */
static inline void check_e820_sorted(const struct e820_table *t)
{
	if (t->nr_entries > E820_MAX_ENTRIES)
		abort();
	for (u32 i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];

		if (!e->size || e->addr + e->size < e->addr)
			abort();
		if (i && (t->entries[i - 1].addr + t->entries[i - 1].size > e->addr ||
			  (t->entries[i - 1].addr + t->entries[i - 1].size == e->addr &&
			   t->entries[i - 1].type == e->type)))
			abort();
	}
}

/* Sorted, disjoint, unmergeable regions whose total is their sum. */
static inline void check_memblock_type(const struct memblock_type *t)
{
	phys_addr_t sum = 0;

	for (unsigned long i = 0; i < t->cnt; i++) {
		const struct memblock_region *r = &t->regions[i];

		if (!r->size)
			abort();
		if (i && t->regions[i - 1].base + t->regions[i - 1].size >= r->base &&
		    !(t->regions[i - 1].base + t->regions[i - 1].size == r->base &&
		      t->regions[i - 1].nid != r->nid))
			abort();
		sum += r->size;
	}
	if (sum != t->total_size)
		abort();
}

/*
 * What memblock hands the page allocator from a sanitised map t and the
 * boot loader's ranges: only whole, naturally aligned pages, ascending,
 * each inside one usable (RAM) entry of t, below 4 GiB, and none holding
 * a byte of a non-RAM entry or of a boot loader range (mm/init.c reserves
 * those).  Skipped when memblock refused a region (its array full: the
 * kernel says so).
 */
struct handout {
	const struct e820_table *t;
	const struct boot_info *bi;
	u64 next;		/* the lowest address the next block may have */
};

static bool handout_refused;

static inline void handout_add(u64 base, u64 size, void *arg)
{
	if (memblock_add_range(&((struct memblock *)arg)->memory, base, size, 0))
		handout_refused = true;
}

static inline void handout_reserve(u64 base, u64 size, void *arg)
{
	if (memblock_add_range(&((struct memblock *)arg)->reserved, base, size, 0))
		handout_refused = true;
}

static inline void handout_release(unsigned long pfn, unsigned int order,
				   void *arg)
{
	struct handout *h = arg;
	u64 start = (u64)pfn << PAGE_SHIFT, end = start + (PAGE_SIZE << order);
	bool inside = false;

	if (pfn & ((1UL << order) - 1) || start < h->next || end > (1ULL << 32))
		abort();
	h->next = end;
	for (u32 i = 0; i < h->t->nr_entries; i++) {
		const struct e820_entry *e = &h->t->entries[i];

		if (e->type == E820_TYPE_RAM) {
			inside |= start >= e->addr && end - e->addr <= e->size;
		} else if (start < e->addr + e->size && e->addr < end) {
			abort();	/* hands out firmware memory */
		}
	}
	if (!inside)
		abort();
	for (unsigned int i = 0; i < h->bi->nr_reserved; i++)
		if (start < h->bi->reserved[i].end && h->bi->reserved[i].start < end)
			abort();	/* hands out boot loader data */
}

static inline void check_handout(const struct e820_table *t,
				 const struct boot_info *bi)
{
	static struct memblock_region mem[INIT_MEMBLOCK_REGIONS],
		res[INIT_MEMBLOCK_REGIONS];
	static struct memblock mb;
	struct handout h = { t, bi, 0 };

	memblock_init_instance(&mb, mem, INIT_MEMBLOCK_REGIONS, res,
			       INIT_MEMBLOCK_REGIONS);
	handout_refused = false;
	e820__memblock_ranges(t, handout_add, handout_reserve, &mb);
	for (unsigned int i = 0; i < bi->nr_reserved; i++)
		handout_reserve(bi->reserved[i].start,
				bi->reserved[i].end - bi->reserved[i].start, &mb);
	if (handout_refused)
		return;
	check_memblock_type(&mb.memory);
	check_memblock_type(&mb.reserved);
	__memblock_free_all(&mb, ~0ULL, handout_release, &h);
}

/* A string field: NUL-terminated inside its array. */
static inline void check_string(const char *s, size_t size)
{
	if (!memchr(s, '\0', size))
		abort();
}

/*
 * What either Multiboot parser promises about *bi, given its return
 * value ret: bounded arrays, terminated strings, counted drops, ranges
 * that are ranges; and its map, sanitised as the kernel does, is sorted
 * and disjoint.
 */
static inline void check_boot_info(const struct boot_info *bi, int ret,
				   unsigned int protocol)
{
	static const struct boot_info zero;
	static struct e820_table t;

	if (ret == -EINVAL) {
		if (memcmp(bi, &zero, sizeof(zero)))
			abort();
		return;
	}
	if (bi->protocol != protocol)
		abort();
	if ((ret == -ENOENT) != !!(bi->warnings & BOOT_WARN_NO_MEMINFO) ||
	    (ret && ret != -ENOENT))
		abort();
	if (bi->nr_mmap > BOOT_MMAP_MAX ||
	    !!bi->mmap_dropped != !!(bi->warnings & BOOT_WARN_TOO_MANY))
		abort();
	if ((bi->warnings & BOOT_WARN_NO_MMAP) && bi->has_mmap)
		abort();
	check_string(bi->cmdline, sizeof(bi->cmdline));
	if (bi->cmdline_truncated != (bi->cmdline_dropped > 0))
		abort();
	check_string(bi->loader_name, sizeof(bi->loader_name));
	if (bi->nr_modules > BOOT_MODULES_MAX ||
	    (bi->modules_dropped && !(bi->warnings & BOOT_WARN_MODULES)))
		abort();
	for (unsigned int i = 0; i < bi->nr_modules; i++) {
		if (bi->modules[i].end < bi->modules[i].start)
			abort();
		check_string(bi->modules[i].name, sizeof(bi->modules[i].name));
	}
	if (bi->nr_reserved > ARRAY_SIZE(bi->reserved))
		abort();
	for (unsigned int i = 0; i < bi->nr_reserved; i++)
		if (bi->reserved[i].end <= bi->reserved[i].start)
			abort();
	if (bi->rsdp_len > BOOT_RSDP_MAX)
		abort();

	memset(&t, 0, sizeof(t));
	e820__load_raw_map(&t, bi->mmap, bi->nr_mmap);
	check_e820_sorted(&t);
	if (e820__update_table(&t) < 0)
		abort();
	check_e820_sorted(&t);
	check_handout(&t, bi);
}

#endif /* TESTS_FUZZ_FUZZ_CHECK_H */
