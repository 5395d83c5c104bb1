/*
 * tests/zone_test.c - suite "zone": the zones the boot built over the
 * machine's memory, their sizes, watermarks, reserves and zonelists.
 *
 * Every expected value is computed here from independent inputs: the
 * sanitised e820_table (the map memblock was fed from), the zone limits
 * of i386 (16 MiB for ZONE_DMA, 896 MiB for the end of the linear map,
 * nothing above 4 GiB without PAE) and Linux 2.6's formulas, written out
 * again below.  The code under test's result fields (present_pages,
 * pages_min, ...) are only ever the "got" side of a comparison.
 *
 * The expectations are for one node, which is what mm_core_init builds;
 * cases that depend on it skip when there are more.
 */
#include "asm/page.h"
#include "kernel/sections.h"
#include "kernel/smp.h"
#include "lib/math.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/e820.h"
#include "mm/gfp.h"
#include "mm/init.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "asm/pgtable.h"
#include "kernel/arch.h"
#include "tests/ktest.h"

#define FOUR_GB (1ULL << 32)
#define PFN_4GB ((unsigned long)(FOUR_GB >> PAGE_SHIFT))
#define PFN_16MB ((16UL << 20) >> PAGE_SHIFT)	/* end of ZONE_DMA */
#define PFN_896MB ((896UL << 20) >> PAGE_SHIFT) /* end of the linear map */

/* Linux 2.6 constants, written out again. */
#define SWAP_CLUSTER_MAX_2_6 32UL
static const unsigned long reserve_ratio_2_6[] = { 256, 32 }; /* DMA, Normal */

static unsigned long up_pfn(u64 addr)
{
	return (unsigned long)((addr + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

static unsigned long down_pfn(u64 addr)
{
	return (unsigned long)(addr >> PAGE_SHIFT);
}

/* What the zones must look like, from e820_table alone. */
struct zone_expect {
	unsigned long max_pfn;
	unsigned long max_low_pfn;
	unsigned long start[MAX_NR_ZONES], end[MAX_NR_ZONES];
	unsigned long present[MAX_NR_ZONES];
	unsigned long lowmem_pages;
	u64 ram_above_4g; /* bytes of usable RAM at or above 4 GiB */
};

static struct zone_expect ex;

static void compute_expect(struct zone_expect *e)
{
	u64 end = 0;

	memset(e, 0, sizeof(*e));
	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *en = &e820_table->entries[i];
		u64 s = en->addr, f = en->addr + en->size;

		if (en->type != E820_TYPE_RAM || !en->size)
			continue;
		if (f > FOUR_GB)
			e->ram_above_4g += f - (s > FOUR_GB ? s : FOUR_GB);
		if (s >= FOUR_GB)
			continue;
		if (f > FOUR_GB)
			f = FOUR_GB;
		if (f > end)
			end = f;
	}
	e->max_pfn = down_pfn(end);
	e->max_low_pfn = min(e->max_pfn, PFN_896MB);

	e->start[ZONE_DMA] = 0;
	e->end[ZONE_DMA] = min(PFN_16MB, e->max_pfn);
	e->start[ZONE_NORMAL] = e->end[ZONE_DMA];
	e->end[ZONE_NORMAL] = max(e->max_low_pfn, e->start[ZONE_NORMAL]);
	e->start[ZONE_HIGHMEM] = e->end[ZONE_NORMAL];
	e->end[ZONE_HIGHMEM] = max(e->max_pfn, e->start[ZONE_HIGHMEM]);

	/* Whole pages of each usable entry, clipped to the zone and 4 GiB. */
	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *en = &e820_table->entries[i];
		u64 f = en->addr + en->size;
		unsigned long sp, ep;

		if (en->type != E820_TYPE_RAM || !en->size || en->addr >= FOUR_GB)
			continue;
		sp = up_pfn(en->addr);
		ep = down_pfn(f > FOUR_GB ? FOUR_GB : f);
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			unsigned long lo = max(sp, e->start[z]);
			unsigned long hi = min(ep, e->end[z]);

			if (hi > lo)
				e->present[z] += hi - lo;
		}
	}
	e->lowmem_pages = e->present[ZONE_DMA] + e->present[ZONE_NORMAL];
}

/* Is pfn wholly inside a usable e820 entry below 4 GiB? */
static bool pfn_is_ram(unsigned long pfn)
{
	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *en = &e820_table->entries[i];

		if (en->type != E820_TYPE_RAM || !en->size || en->addr >= FOUR_GB)
			continue;
		if (pfn >= up_pfn(en->addr) &&
		    pfn < down_pfn(min(en->addr + en->size, FOUR_GB)))
			return true;
	}
	return false;
}

static int expected_zone(unsigned long pfn)
{
	if (pfn < ex.end[ZONE_DMA])
		return ZONE_DMA;
	if (pfn < ex.end[ZONE_NORMAL])
		return ZONE_NORMAL;
	return ZONE_HIGHMEM;
}

static struct zone *zone0(int j)
{
	return &NODE_DATA(0)->node_zones[j];
}

static int zone_test_init(struct ktest *t)
{
	compute_expect(&ex);
	return 0;
}

static void need_one_node(struct ktest *t)
{
	if (nr_online_nodes != 1)
		ktest_skip(t, "expectations written for one node");
}

/* ---- boundaries ------------------------------------------------------ */

static void zone_spans(struct ktest *t)
{
	need_one_node(t);
	KTEST_EXPECT_EQ(t, max_pfn, ex.max_pfn);
	KTEST_EXPECT_EQ(t, max_low_pfn, ex.max_low_pfn);
	KTEST_EXPECT_LE(t, max_pfn, PFN_4GB);
	KTEST_EXPECT_LE(t, max_low_pfn, PFN_896MB);
	KTEST_EXPECT_EQ(t, NODE_DATA(0)->node_start_pfn, 0UL);
	KTEST_EXPECT_EQ(t, NODE_DATA(0)->node_spanned_pages, ex.max_pfn);
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *z = zone0(j);

		if (z->zone_start_pfn != ex.start[j] ||
		    zone_end_pfn(z) != ex.end[j])
			KTEST_FAIL(t, "zone %s spans [%#lx, %#lx), expected [%#lx, %#lx)",
				   zone_names[j], z->zone_start_pfn,
				   zone_end_pfn(z), ex.start[j], ex.end[j]);
		KTEST_EXPECT_STREQ(t, z->name, zone_names[j]);
		KTEST_EXPECT_EQ(t, (int)zone_idx(z), j);
	}
	ktest_printf(t, "DMA [0, %#lx) Normal [%#lx, %#lx) HighMem [%#lx, %#lx)",
		     ex.end[ZONE_DMA], ex.start[ZONE_NORMAL],
		     ex.end[ZONE_NORMAL], ex.start[ZONE_HIGHMEM],
		     ex.end[ZONE_HIGHMEM]);
}

static void check_pfn(struct ktest *t, unsigned long pfn, bool verbose)
{
	const struct page *page = pfn_to_page(pfn);
	int want = expected_zone(pfn);

	if (page_zone(page) != zone0(want) || (int)page_zonenum(page) != want ||
	    page_to_nid(page) != 0 || page_to_pfn(page) != pfn ||
	    PageHighMem(page) != (pfn >= ex.max_low_pfn))
		KTEST_FAIL(t, "pfn %#lx: zone %s node %d highmem %d, expected zone %s node 0 highmem %d",
			   pfn, zone_names[page_zonenum(page)],
			   page_to_nid(page), PageHighMem(page),
			   zone_names[want], pfn >= ex.max_low_pfn);
	else if (verbose)
		ktest_printf(t, "pfn %#lx in %s", pfn, zone_names[want]);
}

/* The pfns at every edge, then every pfn. */
static void page_zone_and_node(struct ktest *t)
{
	const unsigned long edges[] = {
		0, 1, PFN_16MB - 1, PFN_16MB, PFN_16MB + 1,
		PFN_896MB - 1, PFN_896MB, PFN_896MB + 1,
		ex.max_pfn - 2, ex.max_pfn - 1,
	};
	unsigned long bad = 0;

	need_one_node(t);
	KTEST_ASSERT_EQ(t, max_pfn, ex.max_pfn);
	KTEST_EXPECT_TRUE(t, pfn_valid(ex.max_pfn - 1));
	KTEST_EXPECT_FALSE(t, pfn_valid(ex.max_pfn));
	for (size_t i = 0; i < ARRAY_SIZE(edges); i++)
		if (edges[i] < ex.max_pfn)
			check_pfn(t, edges[i], false);

	for (unsigned long pfn = 0; pfn < ex.max_pfn; pfn++) {
		const struct page *page = pfn_to_page(pfn);

		if ((int)page_zonenum(page) == expected_zone(pfn) &&
		    page_to_nid(page) == 0)
			continue;
		if (bad++ == 0)
			check_pfn(t, pfn, false);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
}

/* ---- sizes ----------------------------------------------------------- */

static void present_pages_from_e820(struct ktest *t)
{
	unsigned long total = 0;

	need_one_node(t);
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *z = zone0(j);

		if (z->present_pages != ex.present[j])
			KTEST_FAIL(t, "zone %s: present_pages %lu, e820 says %lu",
				   zone_names[j], z->present_pages,
				   ex.present[j]);
		KTEST_EXPECT_LE(t, z->present_pages, z->spanned_pages);
		KTEST_EXPECT_EQ(t, populated_zone(z), ex.present[j] != 0);
		total += ex.present[j];
	}
	KTEST_EXPECT_EQ(t, NODE_DATA(0)->node_present_pages, total);
	ktest_printf(t, "present: DMA %lu Normal %lu HighMem %lu",
		     ex.present[ZONE_DMA], ex.present[ZONE_NORMAL],
		     ex.present[ZONE_HIGHMEM]);
}

/*
 * managed = present - reserved, with the reserved RAM counted twice: by
 * boot_reserved_pages[] (what mm_core_init saw in memblock) and here, as
 * the pages of e820 RAM in the zone that are still PageReserved.
 */
static void managed_and_free_pages(struct ktest *t)
{
	unsigned long managed = 0, high = 0, free = 0;
	unsigned long seen[MAX_NR_ZONES] = { 0 };

	need_one_node(t);
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++)
		if (PageReserved(pfn_to_page(pfn)) && pfn_is_ram(pfn))
			seen[expected_zone(pfn)]++;
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *z = zone0(j);
		unsigned long zfree = READ_ONCE(z->free_pages);

		KTEST_EXPECT_LE(t, boot_reserved_pages[0][j], ex.present[j]);
		if (boot_reserved_pages[0][j] != seen[j])
			KTEST_FAIL(t, "zone %s: boot_reserved_pages %lu, but %lu of its RAM pages are PageReserved",
				   zone_names[j], boot_reserved_pages[0][j], seen[j]);
		if (z->managed_pages != ex.present[j] - seen[j])
			KTEST_FAIL(t, "zone %s: managed_pages %lu, expected present %lu - PageReserved %lu",
				   zone_names[j], z->managed_pages,
				   ex.present[j], seen[j]);
		if (z->managed_pages != ex.present[j] - boot_reserved_pages[0][j])
			KTEST_FAIL(t, "zone %s: managed_pages %lu, expected present %lu - reserved %lu",
				   zone_names[j], z->managed_pages,
				   ex.present[j], boot_reserved_pages[0][j]);
		if (zfree > z->managed_pages)
			KTEST_FAIL(t, "zone %s: %lu free pages, only %lu managed",
				   zone_names[j], zfree, z->managed_pages);
		managed += z->managed_pages;
		free += zfree;
		if (j == ZONE_HIGHMEM)
			high = z->managed_pages;
	}
	KTEST_EXPECT_LE(t, nr_free_pages(), managed);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);
	KTEST_EXPECT_EQ(t, totalram_pages(), managed);
	KTEST_EXPECT_EQ(t, totalhigh_pages(), high);
	KTEST_EXPECT_EQ(t, nr_free_highpages(), READ_ONCE(zone0(ZONE_HIGHMEM)->free_pages));
}

/*
 * What must never be handed out: every pfn that is not whole RAM in e820
 * (holes, firmware, memmap=...$... ranges), page 0, the kernel image and
 * mem_map itself are PageReserved and never on a free list.
 */
static void holes_and_boot_ranges_reserved(struct ktest *t)
{
	phys_addr_t image_start, image_end;
	unsigned long kstart, kend;
	unsigned long map_bytes = max_pfn * sizeof(struct page);
	unsigned long holes = 0, bad = 0, image = 0, map_pages = 0;

	need_one_node(t);
	arch_kernel_image(&image_start, &image_end);
	kstart = down_pfn((unsigned long)image_start);
	kend = up_pfn((unsigned long)image_end);
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		const struct page *page = pfn_to_page(pfn);
		bool must_reserve = pfn == 0 || (pfn >= kstart && pfn < kend);

		if (!pfn_is_ram(pfn))
			holes++;
		else if (!must_reserve)
			continue;
		else if (pfn < PFN_16MB)
			image++;
		if (PageReserved(page) && !PageBuddy(page) &&
		    page_count(page) == 1)
			continue;
		if (bad++ == 0)
			KTEST_FAIL(t, "pfn %#lx (%s) has refcount %d flags %#lx, expected reserved",
				   pfn, pfn_is_ram(pfn) ? "boot range" : "hole",
				   page_count(page), page->flags & PAGE_FLAGS_MASK);
	}
	/* mem_map is mapped page by page (vmemmap): each of its frames. */
	for (unsigned long off = 0; off < map_bytes; off += PAGE_SIZE) {
		phys_addr_t pa = kernel_page_phys((unsigned long)mem_map + off);
		const struct page *page;

		KTEST_ASSERT_NE(t, pa, (phys_addr_t)~0ULL);
		page = pfn_to_page((unsigned long)(pa >> PAGE_SHIFT));
		map_pages++;
		if (PageReserved(page) && !PageBuddy(page) &&
		    page_count(page) == 1)
			continue;
		if (bad++ == 0)
			KTEST_FAIL(t, "mem_map frame %#llx has refcount %d flags %#lx, expected reserved",
				   (unsigned long long)pa, page_count(page),
				   page->flags & PAGE_FLAGS_MASK);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	/* ZONE_DMA's reserved RAM holds at least page 0 and the kernel image. */
	KTEST_EXPECT_GE(t, boot_reserved_pages[0][ZONE_DMA], image);
	ktest_printf(t, "%lu pfns below max_pfn are not RAM; kernel [%#lx, %#lx); mem_map in %lu frames",
		     holes, kstart, kend, map_pages);
}

/* -m above 3.5G: QEMU puts RAM above 4 GiB, which this kernel ignores. */
static void max_pfn_stops_at_4g(struct ktest *t)
{
	unsigned long present = 0;

	if (!ex.ram_above_4g)
		ktest_skip(t, "no RAM above 4 GiB in this boot");
	need_one_node(t);
	ktest_printf(t, "%llu MiB of RAM above 4 GiB",
		     (unsigned long long)(ex.ram_above_4g >> 20));
	KTEST_EXPECT_LE(t, max_pfn, PFN_4GB);
	KTEST_EXPECT_EQ(t, max_pfn, ex.max_pfn);
	KTEST_EXPECT_LE(t, zone_end_pfn(zone0(ZONE_HIGHMEM)), PFN_4GB);
	for (int j = 0; j < MAX_NR_ZONES; j++)
		present += zone0(j)->present_pages;
	KTEST_EXPECT_EQ(t, present, ex.present[0] + ex.present[1] + ex.present[2]);
	KTEST_EXPECT_LE(t, (u64)present << PAGE_SHIFT,
			e820__ram_bytes(e820_table, 0, FOUR_GB));
}

/* ---- watermarks and reserves ----------------------------------------- */

/* 2.6.11's rule: sqrt(lowmem_kbytes * 16), clamped to [128, 65536]. */
static unsigned long min_free_kbytes_rule(unsigned long lowmem_pages)
{
	unsigned long root = int_sqrt(lowmem_pages * (PAGE_SIZE >> 10) * 16);

	return clamp(root, 128UL, 65536UL);
}

static void min_free_kbytes_formula(struct ktest *t)
{
	unsigned long kbytes = ex.lowmem_pages * (PAGE_SIZE >> 10);
	unsigned long x = kbytes * 16, root = int_sqrt(x);
	unsigned long want = min_free_kbytes_rule(ex.lowmem_pages);
	unsigned long pages, tried = 0, bad = 0;

	need_one_node(t);
	/* int_sqrt itself, by its definition. */
	KTEST_ASSERT_LE(t, (u64)root * root, (u64)x);
	KTEST_ASSERT_GT(t, (u64)(root + 1) * (root + 1), (u64)x);
	KTEST_EXPECT_EQ(t, (unsigned long)min_free_kbytes, want);
	KTEST_EXPECT_EQ(t, calculate_min_free_kbytes(ex.lowmem_pages), (int)want);
	ktest_printf(t, "lowmem %lu kB -> min_free_kbytes %lu", kbytes, want);

	/*
	 * The function on other machines' lowmem: every size up to 2 MiB
	 * (the clamp at 128 holds below 1 MiB), then steps of about 1.5%
	 * up to 896 MiB, where the root's rounding shows.  (On i386 the
	 * clamp at 65536 is never reached: lowmem is at most 896 MiB.)
	 */
	for (pages = 0; pages <= PFN_896MB; pages += pages < 512 ? 1 : pages / 64) {
		unsigned long rule = min_free_kbytes_rule(pages);
		int got = calculate_min_free_kbytes(pages);

		tried++;
		if ((unsigned long)got != rule && bad++ < 3)
			KTEST_FAIL(t, "calculate_min_free_kbytes(%lu pages) = %d, the rule gives %lu",
				   pages, got, rule);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	ktest_printf(t, "%lu lowmem sizes from 0 to %lu pages", tried, PFN_896MB);
}

static void watermarks_formula(struct ktest *t)
{
	unsigned long pages_min = min_free_kbytes_rule(ex.lowmem_pages) >>
				  (PAGE_SHIFT - 10);

	need_one_node(t);
	KTEST_ASSERT_GT(t, ex.lowmem_pages, 0UL);
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *z = zone0(j);
		unsigned long present = ex.present[j];
		unsigned long tmp = (unsigned long)div_u64((u64)pages_min * present,
							   (u32)ex.lowmem_pages);
		unsigned long min, low, high;

		/* An empty zone is in no zonelist: its marks are never read. */
		if (!present)
			continue;
		if (j == ZONE_HIGHMEM)
			min = clamp(present / 1024, SWAP_CLUSTER_MAX_2_6, 128UL);
		else
			min = tmp;
		low = min + tmp / 4;
		high = min + tmp / 2;
		if (z->pages_min != min || z->pages_low != low ||
		    z->pages_high != high)
			KTEST_FAIL(t, "zone %s: min/low/high %lu/%lu/%lu, expected %lu/%lu/%lu",
				   zone_names[j], z->pages_min, z->pages_low,
				   z->pages_high, min, low, high);
		else
			ktest_printf(t, "%s: min %lu low %lu high %lu", zone_names[j],
				     min, low, high);
	}
}

static void lowmem_reserve_formula(struct ktest *t)
{
	need_one_node(t);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		for (int j = 0; j < MAX_NR_ZONES; j++) {
			unsigned long want = 0;

			/* Zone i keeps back from allocations preferring j > i
			 * the pages of zones i+1..j over its ratio. */
			if (j > i) {
				unsigned long above = 0;

				for (int k = i + 1; k <= j; k++)
					above += ex.present[k];
				want = above / reserve_ratio_2_6[i];
			}
			if (zone0(i)->lowmem_reserve[j] != want)
				KTEST_FAIL(t, "zone %s lowmem_reserve[%s] = %lu, expected %lu",
					   zone_names[i], zone_names[j],
					   zone0(i)->lowmem_reserve[j], want);
		}
	}
	ktest_printf(t, "DMA: %lu %lu %lu  Normal: %lu %lu %lu  HighMem: %lu %lu %lu",
		     zone0(0)->lowmem_reserve[0], zone0(0)->lowmem_reserve[1],
		     zone0(0)->lowmem_reserve[2], zone0(1)->lowmem_reserve[0],
		     zone0(1)->lowmem_reserve[1], zone0(1)->lowmem_reserve[2],
		     zone0(2)->lowmem_reserve[0], zone0(2)->lowmem_reserve[1],
		     zone0(2)->lowmem_reserve[2]);
}

/* ---- zonelists ------------------------------------------------------- */

/*
 * Each zonelist of node 0 (lists[mod]) against the rule: the populated
 * zones (those with present pages, but for zone "hidden") from the
 * modifier's zone down to ZONE_DMA, highest first, then the end.
 */
static void check_zonelists(struct ktest *t, const struct zonelist *lists,
			    int hidden, const char *when)
{
	for (unsigned int mod = 0; mod < GFP_ZONETYPES; mod++) {
		/* DMA wins over HIGHMEM when both bits are set (2.6). */
		int top = (mod & __GFP_DMA) ? ZONE_DMA :
			  (mod & __GFP_HIGHMEM) ? ZONE_HIGHMEM : ZONE_NORMAL;
		struct zone *want[MAX_NR_ZONES + 1];
		const struct zonelist *zl = &lists[mod];
		int n = 0;

		for (int j = top; j >= 0; j--)
			if (ex.present[j] && j != hidden)
				want[n++] = zone0(j);
		want[n] = NULL;
		for (int i = 0; i <= n; i++) {
			if (zl->zones[i] == want[i])
				continue;
			KTEST_FAIL(t, "zonelist %u%s: entry %d is %s, expected %s",
				   mod, when, i,
				   zl->zones[i] ? zl->zones[i]->name : "end",
				   want[i] ? want[i]->name : "end");
			break;
		}
	}
}

/* Rounds of zonelists_without(): the others wait until theirs is released. */
static unsigned long zonelists_round, zonelists_released;

/* The other CPUs wait here, interrupts off, while the lists are rebuilt. */
static void wait_for_zonelists(void *round)
{
	while (__atomic_load_n(&zonelists_released, __ATOMIC_ACQUIRE) <
	       (unsigned long)round)
		cpu_relax();
}

/*
 * The zonelists node 0 gets when zone j has no present pages, built by
 * build_all_zonelists() and copied to lists[]; then j's pages and the
 * real lists are put back.  build_all_zonelists() runs at boot, when
 * nothing allocates: here the other CPUs wait in a call-function IPI and
 * this one has interrupts off until the lists are whole again.
 */
static void zonelists_without(int j, struct zonelist *lists)
{
	struct zone *z = zone0(j);
	unsigned long present = z->present_pages, flags;
	unsigned long round = ++zonelists_round;

	smp_call_function(wait_for_zonelists, (void *)round, false);
	local_irq_save(flags);
	z->present_pages = 0;
	build_all_zonelists();
	memcpy(lists, NODE_DATA(0)->node_zonelists,
	       sizeof(NODE_DATA(0)->node_zonelists));
	z->present_pages = present;
	build_all_zonelists();
	local_irq_restore(flags);
	__atomic_store_n(&zonelists_released, round, __ATOMIC_RELEASE);
}

/*
 * The boot's zonelists, then those built with each populated zone in
 * turn emptied (its present_pages 0), as a machine without that zone's
 * memory would have them: an empty zone is in no list.
 */
static void zonelists_order(struct ktest *t)
{
	static struct zonelist lists[GFP_ZONETYPES];
	char when[32];

	need_one_node(t);
	for (unsigned int mod = 0; mod < GFP_ZONETYPES; mod++)
		KTEST_EXPECT_PTR_EQ(t, node_zonelist(0, mod),
				    &NODE_DATA(0)->node_zonelists[mod]);
	check_zonelists(t, NODE_DATA(0)->node_zonelists, -1, "");
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		if (!ex.present[j])
			continue;
		zonelists_without(j, lists);
		snprintf(when, sizeof(when), " (%s empty)", zone_names[j]);
		check_zonelists(t, lists, j, when);
	}
	check_zonelists(t, NODE_DATA(0)->node_zonelists, -1, " (rebuilt)");
}

/* An allocation with room everywhere comes from its zonelist's first zone. */
static void allocations_follow_zonelists(struct ktest *t)
{
	need_one_node(t);
	for (unsigned int mod = 0; mod < GFP_ZONETYPES; mod++) {
		int top = (mod & __GFP_DMA) ? ZONE_DMA :
			  (mod & __GFP_HIGHMEM) ? ZONE_HIGHMEM : ZONE_NORMAL;
		struct page *page;
		int want = top;

		while (want > 0 && !ex.present[want])
			want--;
		page = alloc_pages(GFP_KERNEL | mod, 0);
		KTEST_ASSERT_NOT_NULL(t, page);
		if (page_zone(page) != zone0(want))
			KTEST_FAIL(t, "mode %#x: page pfn %#lx from %s, expected %s",
				   GFP_KERNEL | mod, page_to_pfn(page),
				   page_zone(page)->name, zone_names[want]);
		if (page_to_pfn(page) < ex.start[want] ||
		    page_to_pfn(page) >= ex.end[want] ||
		    !pfn_is_ram(page_to_pfn(page)))
			KTEST_FAIL(t, "mode %#x: pfn %#lx is outside %s's RAM",
				   GFP_KERNEL | mod, page_to_pfn(page),
				   zone_names[want]);
		__free_page(page);
	}
}

static void check_all_zones_clean(struct ktest *t)
{
	char why[160];
	int ret = check_all_zones(why, sizeof(why));

	if (ret)
		ktest_printf(t, "first violation: %s", why);
	KTEST_EXPECT_EQ(t, ret, 0);
}

static const struct ktest_case zone_cases[] = {
	KTEST_CASE(zone_spans),
	KTEST_CASE(page_zone_and_node),
	KTEST_CASE(present_pages_from_e820),
	KTEST_CASE(managed_and_free_pages),
	KTEST_CASE(holes_and_boot_ranges_reserved),
	KTEST_CASE(max_pfn_stops_at_4g),
	KTEST_CASE(min_free_kbytes_formula),
	KTEST_CASE(watermarks_formula),
	KTEST_CASE(lowmem_reserve_formula),
	KTEST_CASE(zonelists_order),
	KTEST_CASE(allocations_follow_zonelists),
	KTEST_CASE(check_all_zones_clean),
	KTEST_END,
};

static const struct ktest_suite zone_suite = {
	.name = "zone",
	.init = zone_test_init,
	.cases = zone_cases,
};
KTEST_SUITE(zone_suite);
