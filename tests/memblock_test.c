/*
 * tests/memblock_test.c - suite "memblock": the boot-time allocator.
 *
 * Every case works on a private struct memblock over static region
 * arrays (the kernel stack is 16 KiB), reset by the suite's init; the
 * global memblock, which the kernel really booted with, is never touched.
 * Every expected region list and every expected (pfn, order) list is
 * written out by hand, so a test reads as the worked example it checks.
 * check_regions() also verifies the invariants that must hold after any
 * call: sorted, non-overlapping, no mergeable neighbours, total_size the
 * sum of the sizes.
 */
#include "kernel/bug.h"
#include "lib/bitops.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm/memblock.h"
#include "tests/ktest.h"

#define SZ_4K 0x1000ULL
#define SZ_1M 0x100000ULL
#define SZ_2M 0x200000ULL

static struct memblock_region mem_regions[INIT_MEMBLOCK_REGIONS];
static struct memblock_region res_regions[INIT_MEMBLOCK_REGIONS];
static struct memblock mb;

static int memblock_test_init(struct ktest *t)
{
	memset(mem_regions, 0, sizeof(mem_regions));
	memset(res_regions, 0, sizeof(res_regions));
	memblock_init_instance(&mb, mem_regions, ARRAY_SIZE(mem_regions),
			       res_regions, ARRAY_SIZE(res_regions));
	return 0;
}

/* Shorthands for the private instance. */
static int mem_add(phys_addr_t base, phys_addr_t size, int nid)
{
	return memblock_add_range(&mb.memory, base, size, nid);
}

static int mem_remove(phys_addr_t base, phys_addr_t size)
{
	return memblock_remove_range(&mb.memory, base, size);
}

static int res_add(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_range(&mb.reserved, base, size, 0);
}

static int res_remove(phys_addr_t base, phys_addr_t size)
{
	return memblock_remove_range(&mb.reserved, base, size);
}

static phys_addr_t find(phys_addr_t size, phys_addr_t align)
{
	return memblock_find_in_range(&mb, size, align, 0,
				      MEMBLOCK_ALLOC_ANYWHERE);
}

static phys_addr_t alloc(phys_addr_t size, phys_addr_t align)
{
	return memblock_alloc_range_in(&mb, size, align, 0,
				       MEMBLOCK_ALLOC_ANYWHERE);
}

/* A region list by hand: { base, size, nid }. */
#define REGIONS(...) ((const struct memblock_region[]){ __VA_ARGS__ })
#define EXPECT_REGIONS(t, type, ...)                                       \
	check_regions(t, type, REGIONS(__VA_ARGS__),                        \
		      ARRAY_SIZE(REGIONS(__VA_ARGS__)), __LINE__)
#define EXPECT_EMPTY(t, type) check_regions(t, type, NULL, 0, __LINE__)

static void check_regions(struct ktest *t, const struct memblock_type *type,
			  const struct memblock_region *want, unsigned long n,
			  int line)
{
	bool bad = false;
	phys_addr_t sum = 0;
	unsigned long i;

	for (i = 0; i < type->cnt; i++) {
		const struct memblock_region *r = &type->regions[i];

		sum += r->size;
		if (r->size == 0) {
			KTEST_FAIL(t, "%s[%lu] is empty", type->name, i);
			bad = true;
		}
		if (i && (r[-1].base + r[-1].size > r->base ||
			  (r[-1].base + r[-1].size == r->base &&
			   r[-1].nid == r->nid))) {
			KTEST_FAIL(t, "%s[%lu] overlaps or abuts its like",
				   type->name, i);
			bad = true;
		}
	}
	if (type->cnt > type->max || sum != type->total_size) {
		KTEST_FAIL(t, "%s: cnt %lu of %lu, total_size %#llx, sum %#llx",
			   type->name, type->cnt, type->max,
			   (unsigned long long)type->total_size,
			   (unsigned long long)sum);
		bad = true;
	}
	if (type->cnt != n) {
		KTEST_FAIL(t, "%s.cnt is %lu, expected %lu", type->name,
			   type->cnt, n);
		bad = true;
	}
	for (i = 0; i < min(n, type->cnt); i++) {
		const struct memblock_region *r = &type->regions[i];

		if (r->base != want[i].base || r->size != want[i].size ||
		    r->nid != want[i].nid) {
			KTEST_FAIL(t, "%s[%lu] is {%#llx, %#llx, %d}, want {%#llx, %#llx, %d}",
				   type->name, i,
				   (unsigned long long)r->base,
				   (unsigned long long)r->size, r->nid,
				   (unsigned long long)want[i].base,
				   (unsigned long long)want[i].size,
				   want[i].nid);
			bad = true;
		}
	}
	if (bad)
		ktest_printf(t, "region list checked at line %d", line);
}

/* ---- adding --------------------------------------------------------- */

static void add_disjoint_sorted(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, mem_add(0x3000, 0x1000, 0), 0);
	KTEST_EXPECT_EQ(t, mem_add(0x1000, 0x1000, 0), 0);
	KTEST_EXPECT_EQ(t, mem_add(0x8000, 0x2000, 0), 0);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x1000, 0x1000, 0 },
		       { 0x3000, 0x1000, 0 },
		       { 0x8000, 0x2000, 0 });
	KTEST_EXPECT_EQ(t, mb.memory.total_size, 0x4000ULL);
}

static void add_overlapping_merges(struct ktest *t)
{
	mem_add(0x1000, 0x2000, 0);
	mem_add(0x2000, 0x3000, 0);
	EXPECT_REGIONS(t, &mb.memory, { 0x1000, 0x4000, 0 });
	/* And from below. */
	mem_add(0x0800, 0x1000, 0);
	EXPECT_REGIONS(t, &mb.memory, { 0x0800, 0x4800, 0 });
}

static void add_merges_adjacent(struct ktest *t)
{
	mem_add(0x2000, 0x1000, 0);
	mem_add(0x3000, 0x1000, 0);	/* above */
	mem_add(0x1000, 0x1000, 0);	/* below */
	KTEST_EXPECT_EQ(t, mb.memory.cnt, 1UL);
	EXPECT_REGIONS(t, &mb.memory, { 0x1000, 0x3000, 0 });
}

static void add_contained_changes_nothing(struct ktest *t)
{
	mem_add(0x1000, 0x8000, 0);
	KTEST_EXPECT_EQ(t, mem_add(0x2000, 0x1000, 0), 0);
	KTEST_EXPECT_EQ(t, mem_add(0x1000, 0x8000, 0), 0);
	EXPECT_REGIONS(t, &mb.memory, { 0x1000, 0x8000, 0 });
}

static void add_bridging_merges_all(struct ktest *t)
{
	mem_add(0x1000, 0x1000, 0);
	mem_add(0x3000, 0x1000, 0);
	mem_add(0x5000, 0x1000, 0);
	mem_add(0x9000, 0x1000, 0);
	/* Fills both holes: [0x1000, 0x6000) becomes one region. */
	mem_add(0x1800, 0x4000, 0);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x1000, 0x5000, 0 },
		       { 0x9000, 0x1000, 0 });
	/* Exactly the hole between the two. */
	mem_add(0x6000, 0x3000, 0);
	EXPECT_REGIONS(t, &mb.memory, { 0x1000, 0x9000, 0 });
}

static void add_other_node_not_merged(struct ktest *t)
{
	mem_add(0x1000, 0x1000, 0);
	mem_add(0x2000, 0x1000, 1);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x1000, 0x1000, 0 },
		       { 0x2000, 0x1000, 1 });
	/* Overlapped parts keep their node; only the new parts are nid 2. */
	mem_add(0x0800, 0x3000, 2);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x0800, 0x0800, 2 },
		       { 0x1000, 0x1000, 0 },
		       { 0x2000, 0x1000, 1 },
		       { 0x3000, 0x0800, 2 });
}

static void add_zero_size_and_top_of_space(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, mem_add(0x1000, 0, 0), 0);
	EXPECT_EMPTY(t, &mb.memory);
	/* A range running past the top is cut at PHYS_ADDR_MAX. */
	mem_add(PHYS_ADDR_MAX - 0xfff, 0x10000, 0);
	EXPECT_REGIONS(t, &mb.memory, { PHYS_ADDR_MAX - 0xfff, 0xfff, 0 });
}

/* ---- removing ------------------------------------------------------- */

static void remove_splits_region(struct ktest *t)
{
	mem_add(0x1000, 0x8000, 3);
	KTEST_EXPECT_EQ(t, mem_remove(0x3000, 0x1000), 0);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x1000, 0x2000, 3 },
		       { 0x4000, 0x5000, 3 });
}

static void remove_across_regions(struct ktest *t)
{
	mem_add(0x1000, 0x1000, 0);
	mem_add(0x3000, 0x1000, 0);
	mem_add(0x5000, 0x1000, 0);
	mem_add(0x7000, 0x1000, 0);
	mem_remove(0x1800, 0x4000);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x1000, 0x0800, 0 },
		       { 0x5800, 0x0800, 0 },
		       { 0x7000, 0x1000, 0 });
}

static void remove_at_edges(struct ktest *t)
{
	mem_add(0x1000, 0x4000, 0);
	mem_remove(0x1000, 0x1000);	/* bottom */
	EXPECT_REGIONS(t, &mb.memory, { 0x2000, 0x3000, 0 });
	mem_remove(0x4000, 0x2000);	/* top, and past */
	EXPECT_REGIONS(t, &mb.memory, { 0x2000, 0x2000, 0 });
	mem_remove(0x0000, 0x2000);	/* abutting: no-op */
	EXPECT_REGIONS(t, &mb.memory, { 0x2000, 0x2000, 0 });
	mem_remove(0x0000, 0x10000);	/* all of it */
	EXPECT_EMPTY(t, &mb.memory);
	KTEST_EXPECT_EQ(t, mem_remove(0, 0x1000), 0);
	EXPECT_EMPTY(t, &mb.memory);
}

static void reserve_and_free_bookkeeping(struct ktest *t)
{
	/* memblock_reserve / memblock_phys_free on an instance. */
	res_add(0x10000, 0x4000);
	res_add(0x20000, 0x1000);
	res_add(0x12000, 0x4000);
	EXPECT_REGIONS(t, &mb.reserved,
		       { 0x10000, 0x6000, 0 },
		       { 0x20000, 0x1000, 0 });
	KTEST_EXPECT_EQ(t, mb.reserved.total_size, 0x7000ULL);
	res_remove(0x11000, 0x1000);
	res_remove(0x20000, 0x1000);
	EXPECT_REGIONS(t, &mb.reserved,
		       { 0x10000, 0x1000, 0 },
		       { 0x12000, 0x4000, 0 });
	KTEST_EXPECT_EQ(t, mb.reserved.total_size, 0x5000ULL);
	EXPECT_EMPTY(t, &mb.memory);
}

/* ---- finding and allocating ----------------------------------------- */

static void find_top_down_highest_fit(struct ktest *t)
{
	mem_add(0x1000, 0xff000, 0);
	mem_add(0x200000, 0x200000, 0);
	KTEST_EXPECT_EQ(t, find(0x1000, 0x1000), 0x3ff000ULL);
	/* Too big for the upper region: the lower one can't hold it either. */
	KTEST_EXPECT_EQ(t, find(0x300000, 0x1000), 0ULL);
	/* Fits only in the lower region. */
	res_add(0x200000, 0x1ff000);
	KTEST_EXPECT_EQ(t, find(0x2000, 0x1000), 0xfe000ULL);
	/* Finding reserves nothing. */
	EXPECT_REGIONS(t, &mb.reserved, { 0x200000, 0x1ff000, 0 });
}

static void find_respects_alignment(struct ktest *t)
{
	unsigned int warnings;

	mem_add(0x1000, 0x7ffe000, 0);	/* to 0x7fff000 */
	KTEST_EXPECT_EQ(t, find(0x1000, SZ_2M), 0x7e00000ULL);
	KTEST_EXPECT_EQ(t, alloc(0x1000, SZ_2M), 0x7e00000ULL);
	KTEST_EXPECT_EQ(t, alloc(0x1000, SZ_2M), 0x7c00000ULL);
	/* Unaligned requests still pack below the top. */
	KTEST_EXPECT_EQ(t, alloc(0x10, 0x10), 0x7ffeff0ULL);
	EXPECT_REGIONS(t, &mb.reserved,
		       { 0x7c00000, 0x1000, 0 },
		       { 0x7e00000, 0x1000, 0 },
		       { 0x7ffeff0, 0x10, 0 });
	/* 0 means the cache line size; a non-power of two is a WARN. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(&mb, 1, 0, 0, 0x10000),
			0xffc0ULL);
	warnings = nr_warnings();
	ktest_expected_reports(true);
	KTEST_EXPECT_EQ(t, find(0x100, 0x3000), 0ULL);
	ktest_expected_reports(false);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings + 1);
}

static void find_respects_limits(struct ktest *t)
{
	mem_add(0x1000, 0xfff000, 0);
	KTEST_EXPECT_EQ(t, memblock_find_in_range(&mb, 0x1000, 0x1000,
						  0x10000, 0x20000),
			0x1f000ULL);
	/* The window is smaller than the request. */
	KTEST_EXPECT_EQ(t, memblock_find_in_range(&mb, 0x20000, 0x1000,
						  0x10000, 0x20000),
			0ULL);
	/* MEMBLOCK_ALLOC_ACCESSIBLE means current_limit. */
	mb.current_limit = 0x400000;
	KTEST_EXPECT_EQ(t, memblock_find_in_range(&mb, 0x1000, 0x1000, 0,
						  MEMBLOCK_ALLOC_ACCESSIBLE),
			0x3ff000ULL);
	KTEST_EXPECT_EQ(t, find(0x1000, 0x1000), 0xfff000ULL);
	/* Bottom-up honours start. */
	mb.bottom_up = true;
	KTEST_EXPECT_EQ(t, memblock_find_in_range(&mb, 0x1000, 0x1000,
						  0x10800, 0x20000),
			0x11000ULL);
}

static void find_skips_reserved_holes(struct ktest *t)
{
	mem_add(0x1000, 0xf000, 0);
	res_add(0x2000, 0x4000);
	res_add(0x8000, 0x8000);
	/* Free: [0x1000, 0x2000) and [0x6000, 0x8000). */
	KTEST_EXPECT_EQ(t, find(0x3000, 0x1000), 0ULL);
	KTEST_EXPECT_EQ(t, find(0x2000, 0x1000), 0x6000ULL);
	KTEST_EXPECT_EQ(t, find(0x1000, 0x4000), 0ULL);
	KTEST_EXPECT_EQ(t, find(0x1000, 0x2000), 0x6000ULL);
}

static void bottom_up_picks_lowest(struct ktest *t)
{
	mb.bottom_up = true;
	mem_add(0, SZ_1M, 0);
	mem_add(0x200000, SZ_1M, 0);
	res_add(0x1000, 0x1000);
	KTEST_EXPECT_EQ(t, alloc(0x1000, 0x1000), 0x2000ULL);
	KTEST_EXPECT_EQ(t, alloc(0x1000, 0x10000), 0x10000ULL);
	/* Too big for the first region. */
	KTEST_EXPECT_EQ(t, alloc(SZ_1M, 0x1000), 0x200000ULL);
	EXPECT_REGIONS(t, &mb.reserved,
		       { 0x1000, 0x2000, 0 },
		       { 0x10000, 0x1000, 0 },
		       { 0x200000, SZ_1M, 0 });
}

static void exhaustion_returns_zero_unchanged(struct ktest *t)
{
	struct memblock_region before[4];

	mem_add(0x1000, 0x4000, 0);
	KTEST_EXPECT_EQ(t, alloc(0x3000, 0x1000), 0x2000ULL);
	memcpy(before, res_regions, sizeof(before));
	KTEST_EXPECT_EQ(t, alloc(0x2000, 0x1000), 0ULL);
	KTEST_EXPECT_EQ(t, alloc(0, 0x1000), 0ULL);
	KTEST_EXPECT_MEMEQ(t, res_regions, before, sizeof(before));
	EXPECT_REGIONS(t, &mb.reserved, { 0x2000, 0x3000, 0 });
	KTEST_EXPECT_EQ(t, alloc(0x1000, 0x1000), 0x1000ULL);
	EXPECT_REGIONS(t, &mb.reserved, { 0x1000, 0x4000, 0 });
	KTEST_EXPECT_EQ(t, alloc(1, 1), 0ULL);
}

static void never_returns_page_zero(struct ktest *t)
{
	mem_add(0, 0x2000, 0);
	KTEST_EXPECT_EQ(t, alloc(0x1000, 0x1000), 0x1000ULL);
	KTEST_EXPECT_EQ(t, alloc(0x1000, 0x1000), 0ULL);
	mb.bottom_up = true;
	KTEST_EXPECT_EQ(t, find(0x10, 0x10), 0ULL);
	res_remove(0x1000, 0x1000);
	KTEST_EXPECT_EQ(t, find(0x10, 0x10), 0x1000ULL);
}

/* ---- capacity --------------------------------------------------------- */

static void full_array_is_enomem_and_unchanged(struct ktest *t)
{
	struct memblock_region mem4[4], res1[1], snap[4];
	struct memblock small;
	struct memblock_type *m = &small.memory;

	/* Compared byte for byte below: no uninitialised padding. */
	memset(mem4, 0, sizeof(mem4));
	memblock_init_instance(&small, mem4, ARRAY_SIZE(mem4), res1,
			       ARRAY_SIZE(res1));
	memblock_add_range(m, 0x1000, 0x1000, 0);
	memblock_add_range(m, 0x3000, 0x1000, 0);
	memblock_add_range(m, 0x5000, 0x1000, 0);
	memblock_add_range(m, 0x7000, 0x1000, 0);
	memcpy(snap, mem4, sizeof(snap));

	KTEST_EXPECT_EQ(t, memblock_add_range(m, 0x9000, 0x1000, 0),
			-ENOMEM);
	KTEST_EXPECT_EQ(t, memblock_add_range(m, 0x0000, 0x0800, 0),
			-ENOMEM);
	KTEST_EXPECT_EQ(t, memblock_add_range(m, 0x2000, 0x1000, 1),
			-ENOMEM);
	KTEST_EXPECT_EQ(t, memblock_remove_range(m, 0x5400, 0x400),
			-ENOMEM);
	KTEST_EXPECT_MEMEQ(t, mem4, snap, sizeof(snap));
	KTEST_EXPECT_EQ(t, m->total_size, 0x4000ULL);

	/*
	 * What the result has room for still works: pieces that grow a
	 * neighbour need no slot, even while the array is full.
	 */
	KTEST_EXPECT_EQ(t, memblock_add_range(m, 0x8000, 0x1000, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_add_range(m, 0x0800, 0x2800, 0), 0);
	KTEST_EXPECT_EQ(t, memblock_remove_range(m, 0x5000, 0x400), 0);
	EXPECT_REGIONS(t, m,
		       { 0x0800, 0x3800, 0 },
		       { 0x5400, 0x0c00, 0 },
		       { 0x7000, 0x2000, 0 });

	/* A full reserved array fails the allocation, reserving nothing. */
	KTEST_EXPECT_EQ(t, memblock_alloc_range_in(&small, 0x100, 0x100, 0,
						   MEMBLOCK_ALLOC_ANYWHERE),
			0x8f00ULL);
	KTEST_EXPECT_EQ(t, memblock_alloc_range_in(&small, 0x100, 0x100, 0,
						   0x7000),
			0ULL);
	EXPECT_REGIONS(t, &small.reserved, { 0x8f00, 0x100, 0 });
}

/* Bridging pieces give back their slots before a lone piece takes one. */
static void full_array_bridge_frees_a_slot(struct ktest *t)
{
	struct memblock_region mem4[4], res1[1];
	struct memblock small;
	struct memblock_type *m = &small.memory;

	memblock_init_instance(&small, mem4, ARRAY_SIZE(mem4), res1,
			       ARRAY_SIZE(res1));
	memblock_add_range(m, 0x1000, 0x1000, 0);
	memblock_add_range(m, 0x3000, 0x1000, 0);
	memblock_add_range(m, 0x5000, 0x1000, 1);
	memblock_add_range(m, 0x7000, 0x1000, 1);
	/*
	 * The pieces: [0x2000, 0x3000) bridges two regions, [0x4000, 0x5000)
	 * grows one, [0x6000, 0x7000) touches only node 1 and needs a slot.
	 */
	KTEST_EXPECT_EQ(t, memblock_add_range(m, 0x2000, 0x5000, 0), 0);
	EXPECT_REGIONS(t, m,
		       { 0x1000, 0x4000, 0 },
		       { 0x5000, 0x1000, 1 },
		       { 0x6000, 0x1000, 0 },
		       { 0x7000, 0x1000, 1 });
}

/* ---- nodes ---------------------------------------------------------- */

static void set_node_splits_and_merges(struct ktest *t)
{
	struct memblock_type *m = &mb.memory;

	mem_add(0, 0x10000, 0);
	KTEST_EXPECT_EQ(t, memblock_set_node_range(m, 0x4000, 0x4000, 1), 0);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x0000, 0x4000, 0 },
		       { 0x4000, 0x4000, 1 },
		       { 0x8000, 0x8000, 0 });
	memblock_set_node_range(m, 0x4000, 0x4000, 0);
	EXPECT_REGIONS(t, &mb.memory, { 0, 0x10000, 0 });

	/* Across a hole: only memory is tagged, both sides split. */
	mem_remove(0x4000, 0x4000);
	memblock_set_node_range(m, 0x2000, 0x8000, 1);
	EXPECT_REGIONS(t, &mb.memory,
		       { 0x0000, 0x2000, 0 },
		       { 0x2000, 0x2000, 1 },
		       { 0x8000, 0x2000, 1 },
		       { 0xa000, 0x6000, 0 });
	KTEST_EXPECT_EQ(t, mb.memory.total_size, 0xc000ULL);
}

/* ---- queries and iteration --------------------------------------------- */

static bool covers(phys_addr_t base, phys_addr_t size)
{
	return memblock_covers_region(&mb.memory, base, size);
}

static bool overlaps(phys_addr_t base, phys_addr_t size)
{
	return memblock_overlaps_region(&mb.reserved, base, size);
}

static void is_memory_and_is_reserved(struct ktest *t)
{
	mem_add(0x1000, 0x3000, 0);
	mem_add(0x4000, 0x1000, 1);	/* abuts, node 1 */
	mem_add(0x8000, 0x1000, 0);
	res_add(0x2000, 0x1000);

	KTEST_EXPECT_FALSE(t, covers(0x0fff, 1));
	KTEST_EXPECT_TRUE(t, covers(0x1000, 1));
	KTEST_EXPECT_TRUE(t, covers(0x4fff, 1));
	KTEST_EXPECT_FALSE(t, covers(0x5000, 1));
	KTEST_EXPECT_TRUE(t, covers(0x1000, 0x4000));
	KTEST_EXPECT_FALSE(t, covers(0x1000, 0x4001));
	KTEST_EXPECT_FALSE(t, covers(0x4000, 0x5000));

	KTEST_EXPECT_FALSE(t, overlaps(0x1fff, 1));
	KTEST_EXPECT_TRUE(t, overlaps(0x2000, 1));
	KTEST_EXPECT_FALSE(t, overlaps(0x3000, 1));
	KTEST_EXPECT_TRUE(t, overlaps(0x1000, 0x1001));
	KTEST_EXPECT_FALSE(t, overlaps(0x1000, 0x1000));
	KTEST_EXPECT_FALSE(t, overlaps(0x2800, 0));
}

struct range_log {
	phys_addr_t start[8], end[8];
	int nid[8];
	unsigned int n;
};

static void free_ranges_in_order(struct ktest *t)
{
	static const struct range_log want = {
		.start = { 0x1000, 0x4000, 0x5000, 0x9000 },
		.end = { 0x2000, 0x5000, 0x6000, 0xa000 },
		.nid = { 0, 0, 1, 1 },
		.n = 4,
	};
	phys_addr_t start, end;
	unsigned int k;
	int nid;
	u64 i;
	struct range_log got = { .n = 0 };

	mem_add(0x1000, 0x4000, 0);
	mem_add(0x5000, 0x1000, 1);
	mem_add(0x9000, 0x2000, 1);
	res_add(0x0000, 0x1000);	/* outside */
	res_add(0x2000, 0x2000);
	res_add(0x6000, 0x1000);	/* in the hole */
	res_add(0xa000, 0x1000);

	for_each_free_mem_range(i, &mb, &start, &end, &nid) {
		KTEST_ASSERT_LT(t, got.n, 8U);
		got.start[got.n] = start;
		got.end[got.n] = end;
		got.nid[got.n++] = nid;
	}
	KTEST_ASSERT_EQ(t, got.n, want.n);
	for (k = 0; k < want.n; k++) {
		KTEST_EXPECT_EQ(t, got.start[k], want.start[k]);
		KTEST_EXPECT_EQ(t, got.end[k], want.end[k]);
		KTEST_EXPECT_EQ(t, got.nid[k], want.nid[k]);
	}

}

/* ---- handing pages to the buddy allocator ------------------------------ */

struct block {
	unsigned long pfn;
	unsigned int order;
};

struct block_log {
	struct block b[64];
	unsigned int n;
	bool overflow;
};

static void log_block(unsigned long pfn, unsigned int order, void *arg)
{
	struct block_log *log = arg;

	if (log->n == ARRAY_SIZE(log->b)) {
		log->overflow = true;
		return;
	}
	log->b[log->n].pfn = pfn;
	log->b[log->n++].order = order;
}

static void expect_blocks(struct ktest *t, const struct block_log *log,
			  const struct block *want, unsigned int n)
{
	unsigned int i;

	KTEST_EXPECT_FALSE(t, log->overflow);
	KTEST_EXPECT_EQ(t, log->n, n);
	for (i = 0; i < min(n, log->n); i++) {
		if (log->b[i].pfn != want[i].pfn ||
		    log->b[i].order != want[i].order)
			KTEST_FAIL(t, "block %u is (%lu, %u), expected (%lu, %u)",
				   i, log->b[i].pfn, log->b[i].order,
				   want[i].pfn, want[i].order);
	}
}

static struct block_log blocks;
static unsigned long seen[32768 / BITS_PER_LONG];

static void free_all_largest_aligned_blocks(struct ktest *t)
{
	static const struct block want[] = {
		/* pages [1, 160) */
		{ 1, 0 }, { 2, 1 }, { 4, 2 }, { 8, 3 }, { 16, 4 }, { 32, 5 },
		{ 64, 6 }, { 128, 5 },
		/* [256, 300): below the reserved pages 300..309 */
		{ 256, 5 }, { 288, 3 }, { 296, 2 },
		/* [310, 32768) */
		{ 310, 1 }, { 312, 3 }, { 320, 6 }, { 384, 7 }, { 512, 9 },
		{ 1024, 10 }, { 2048, 10 }, { 3072, 10 }, { 4096, 10 },
		{ 5120, 10 }, { 6144, 10 }, { 7168, 10 }, { 8192, 10 },
		{ 9216, 10 }, { 10240, 10 }, { 11264, 10 }, { 12288, 10 },
		{ 13312, 10 }, { 14336, 10 }, { 15360, 10 }, { 16384, 10 },
		{ 17408, 10 }, { 18432, 10 }, { 19456, 10 }, { 20480, 10 },
		{ 21504, 10 }, { 22528, 10 }, { 23552, 10 }, { 24576, 10 },
		{ 25600, 10 }, { 26624, 10 }, { 27648, 10 }, { 28672, 10 },
		{ 29696, 10 }, { 30720, 10 }, { 31744, 10 },
	};
	unsigned long pages, pfn, i;

	mem_add(1 * SZ_4K, 159 * SZ_4K, 0);
	mem_add(256 * SZ_4K, (32768 - 256) * SZ_4K, 0);
	res_add(300 * SZ_4K, 10 * SZ_4K);
	memset(&blocks, 0, sizeof(blocks));
	pages = __memblock_free_all(&mb, MEMBLOCK_ALLOC_ANYWHERE, log_block,
				    &blocks);
	KTEST_EXPECT_EQ(t, pages, 159UL + 44 + 32458);
	expect_blocks(t, &blocks, want, ARRAY_SIZE(want));

	/* Each free page exactly once, in aligned blocks of order <= 10. */
	bitmap_zero(seen, 32768);
	for (i = 0; i < blocks.n; i++) {
		unsigned long first = blocks.b[i].pfn;
		unsigned long nr = 1UL << blocks.b[i].order;

		KTEST_EXPECT_LT(t, blocks.b[i].order, (unsigned int)MAX_ORDER);
		KTEST_EXPECT_TRUE(t, IS_ALIGNED(first, nr));
		KTEST_ASSERT_LE(t, first + nr, 32768UL);
		for (pfn = first; pfn < first + nr; pfn++) {
			KTEST_EXPECT_FALSE(t, test_bit(pfn, seen));
			__set_bit(pfn, seen);
		}
	}
	for (pfn = 0; pfn < 32768; pfn++) {
		bool free = (pfn >= 1 && pfn < 160) ||
			    (pfn >= 256 && (pfn < 300 || pfn >= 310));

		if (test_bit(pfn, seen) != free) {
			KTEST_FAIL(t, "pfn %lu: released %d, free %d", pfn,
				   test_bit(pfn, seen), free);
			break;
		}
	}
	/* The walk only reads memblock. */
	KTEST_EXPECT_EQ(t, mb.reserved.cnt, 1UL);
}

static void free_all_rounds_inward_and_limits(struct ktest *t)
{
	static const struct block want[] = {
		/* [0x1800, 0x5800) holds whole pages 2..4; page 2 is taken */
		{ 3, 0 }, { 4, 0 },
		/* [0x10000, 0x40000) below the 0x30000 limit: pages 16..47 */
		{ 16, 4 }, { 32, 4 },
	};
	unsigned long pages;

	mem_add(0x1800, 0x4000, 0);
	mem_add(0x10000, 0x30000, 0);
	mem_add(0x50000, 0x10000, 0);
	res_add(0x2c00, 0x100);	/* in page 2 */
	memset(&blocks, 0, sizeof(blocks));
	pages = __memblock_free_all(&mb, 0x30000, log_block, &blocks);
	KTEST_EXPECT_EQ(t, pages, 2UL + 32);
	expect_blocks(t, &blocks, want, ARRAY_SIZE(want));
}

static const struct ktest_case memblock_cases[] = {
	KTEST_CASE(add_disjoint_sorted),
	KTEST_CASE(add_overlapping_merges),
	KTEST_CASE(add_merges_adjacent),
	KTEST_CASE(add_contained_changes_nothing),
	KTEST_CASE(add_bridging_merges_all),
	KTEST_CASE(add_other_node_not_merged),
	KTEST_CASE(add_zero_size_and_top_of_space),
	KTEST_CASE(remove_splits_region),
	KTEST_CASE(remove_across_regions),
	KTEST_CASE(remove_at_edges),
	KTEST_CASE(reserve_and_free_bookkeeping),
	KTEST_CASE(find_top_down_highest_fit),
	KTEST_CASE(find_respects_alignment),
	KTEST_CASE(find_respects_limits),
	KTEST_CASE(find_skips_reserved_holes),
	KTEST_CASE(bottom_up_picks_lowest),
	KTEST_CASE(exhaustion_returns_zero_unchanged),
	KTEST_CASE(never_returns_page_zero),
	KTEST_CASE(full_array_is_enomem_and_unchanged),
	KTEST_CASE(full_array_bridge_frees_a_slot),
	KTEST_CASE(set_node_splits_and_merges),
	KTEST_CASE(is_memory_and_is_reserved),
	KTEST_CASE(free_ranges_in_order),
	KTEST_CASE(free_all_largest_aligned_blocks),
	KTEST_CASE(free_all_rounds_inward_and_limits),
	KTEST_END,
};

static const struct ktest_suite memblock_suite = {
	.name = "memblock",
	.init = memblock_test_init,
	.cases = memblock_cases,
};
KTEST_SUITE(memblock_suite);
