/*
 * tests/fuzz/fuzz_check.h - the checks the fuzz targets share: what a
 * sanitised e820 table and a memblock type must look like.  A failed
 * check abort()s, which libFuzzer reports as a crash with the input.
 */
#ifndef TESTS_FUZZ_FUZZ_CHECK_H
#define TESTS_FUZZ_FUZZ_CHECK_H

#include <stdlib.h>
#include <string.h>

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
}

#endif /* TESTS_FUZZ_FUZZ_CHECK_H */
