/*
 * tests/fuzz/fuzz_e820.c - libFuzzer target: arbitrary bytes as a
 * firmware memory map plus a command line, through the e820 sanitiser,
 * mem=/memmap= and memblock.
 *
 * Input: a count byte, then that many 17-byte entries (64-bit address,
 * 64-bit length, type byte), then the rest as the command line.  The
 * invariants checked after each step are the ones the kernel relies on:
 *  - the table is sorted, without empty, wrapping or overlapping entries,
 *    and touching entries differ in type;
 *  - the type rule: at every address where any input entry starts or
 *    ends, the sanitised type is the highest type of the input entries
 *    covering it (0 where none does);
 *  - usable bytes never grow beyond the input's (sanitising alone), and a
 *    rejected mem=/memmap= value changes nothing;
 *  - memblock, fed the usable ranges, has sorted, disjoint, unmergeable
 *    regions whose total is their sum.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "mm/e820.h"
#include "mm/memblock.h"
#include "tests/fuzz/fuzz_check.h"

#define MAX_IN 200

static struct e820_table tbl, copy, fw;
static struct boot_mmap_entry in[MAX_IN];
static struct memblock_region mem_regions[INIT_MEMBLOCK_REGIONS],
	res_regions[INIT_MEMBLOCK_REGIONS];

static u64 rd64(const uint8_t *p)
{
	u64 v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static u32 type_at(const struct e820_table *t, u64 a)
{
	for (u32 i = 0; i < t->nr_entries; i++)
		if (a >= t->entries[i].addr && a - t->entries[i].addr < t->entries[i].size)
			return t->entries[i].type;
	return 0;
}

static u32 input_type_at(unsigned int n, u64 a)
{
	u32 best = 0;

	for (unsigned int i = 0; i < n; i++)
		if (in[i].len && in[i].addr + in[i].len > in[i].addr &&
		    a >= in[i].addr && a - in[i].addr < in[i].len && in[i].type > best)
			best = in[i].type;
	return best;
}

/* An upper bound (overlaps counted twice are fine for "never grows"),
 * in 128 bits: a few huge entries would wrap a 64-bit sum. */
static unsigned __int128 input_usable_bytes(unsigned int n)
{
	unsigned __int128 sum = 0;

	for (unsigned int i = 0; i < n; i++)
		if (in[i].type == 1 && in[i].addr + in[i].len > in[i].addr)
			sum += in[i].len;
	return sum;
}

static void add_usable(u64 start, u64 size, void *arg)
{
	memblock_add_range(&((struct memblock *)arg)->memory, start, size, 0);
}

static void add_reserved(u64 start, u64 size, void *arg)
{
	memblock_add_range(&((struct memblock *)arg)->reserved, start, size, 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	console_loglevel = 0;	/* the sanitiser reports every oddity */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct e820_user_state st = { 0 };
	static struct memblock mb;
	unsigned int n;
	char cmd[256];
	size_t clen;

	if (size < 1)
		return 0;
	n = data[0] % MAX_IN;
	if (size < 1 + (size_t)n * 17)
		n = (unsigned int)((size - 1) / 17);
	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *p = data + 1 + i * 17;

		in[i].addr = rd64(p);
		in[i].len = rd64(p + 8);
		in[i].type = p[16] % 14;
	}

	memset(&tbl, 0, sizeof(tbl));
	e820__load_raw_map(&tbl, in, n);
	check_e820_sorted(&tbl);
	if (e820__ram_bytes(&tbl, 0, ~0ULL) > input_usable_bytes(n))
		abort();
	/* The type rule at every input boundary (when nothing was lost). */
	if (tbl.nr_entries < E820_MAX_ENTRIES)
		for (unsigned int i = 0; i < n; i++)
			for (int end = 0; end < 2; end++) {
				u64 a = in[i].addr + (end ? in[i].len : 0);

				if (type_at(&tbl, a) != input_type_at(n, a))
					abort();
			}

	memcpy(&fw, &tbl, sizeof(tbl));
	/* The rest is the command line: each word as mem= or memmap=. */
	clen = size - 1 - (size_t)n * 17;
	if (clen >= sizeof(cmd))
		clen = sizeof(cmd) - 1;
	memcpy(cmd, data + 1 + n * 17, clen);
	cmd[clen] = '\0';
	for (char *w = strtok(cmd, " "); w; w = strtok(NULL, " ")) {
		int ret;

		memcpy(&copy, &tbl, sizeof(tbl));
		if (!strncmp(w, "mem=", 4))
			ret = e820__parse_mem(&tbl, w + 4, &st);
		else if (!strncmp(w, "memmap=", 7))
			ret = e820__parse_memmap(&tbl, w + 7, &st);
		else
			continue;
		if (ret && memcmp(&copy, &tbl, sizeof(tbl)))
			abort();	/* a rejected value changed the table */
	}
	e820__finish_user_map(&tbl, &fw, &st);
	e820__update_table(&tbl);
	check_e820_sorted(&tbl);

	memblock_init_instance(&mb, mem_regions, INIT_MEMBLOCK_REGIONS,
			       res_regions, INIT_MEMBLOCK_REGIONS);
	e820__memblock_ranges(&tbl, add_usable, add_reserved, &mb);
	check_memblock_type(&mb.memory);
	check_memblock_type(&mb.reserved);
	return 0;
}
