/*
 * tests/gfp_test.c - suite "gfp": the page allocator's API on the real
 * zones: which zone a GFP mode lands in, fallback down the zonelist, the
 * lowmem_reserve that keeps GFP_KERNEL out of the bottom of ZONE_DMA, the
 * min watermark that only __GFP_HIGH may dip under, __GFP_ZERO, the
 * address-returning calls and the vm_stat counters.
 *
 * The expected zone of a mode is computed here from the zonelist rule,
 * not asked of the code: preferred = DMA if __GFP_DMA, else HighMem if
 * __GFP_HIGHMEM, else Normal; the page comes from the first populated
 * zone going down from the preferred one.  The exhaustion cases work out
 * the exact free-page count at which each zone stops serving from Linux
 * 2.6's rule, with the zone's own pages_min/pages_low and
 * lowmem_reserve[] as inputs (lowmem_reserve_protects_dma takes the
 * reserve the rule gives from the zones' sizes, not the zone's, so that a
 * missing reserve shows as ZONE_DMA emptied): an order-0 allocation whose
 * preferred zone is P may take a page from zone Z while
 *	Z->free_pages > mark + Z->lowmem_reserve[P]
 * where mark is pages_low on the first pass, pages_min on the second,
 * and pages_min - pages_min / 2 on the second pass of a __GFP_HIGH mode,
 * lowered by a quarter again for a mode that cannot sleep (GFP_ATOMIC).
 * Zones are tried in zonelist order on each pass, so the sequence of
 * zones an exhaustion goes through, and how many pages each gives, is
 * known in advance and checked run by run.
 *
 * Every page a case takes is kept on a list through page->lru, its order
 * in owner_data[0] (both the owner's to use); the suite's exit frees the
 * list, so a case that stops on an ASSERT leaks nothing.  The exhaustion
 * cases need one node (the zonelist of a NUMA boot goes on to other
 * nodes) and skip otherwise.  Allocations that are meant to fail carry
 * __GFP_NOWARN, except the last one of gfp_high_dips_below_min, whose
 * failure report prints between the expected-reports markers.
 *
 * Reclaim is switched off while the suite runs (reclaim_disabled): a
 * page that direct reclaim or kswapd gave back in the middle of an
 * exhaustion would change the counts (the reclaim suite tests reclaim).
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/timer.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/highmem.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/vmscan.h"
#include "tests/ktest.h"

#define QUIET (__GFP_NOWARN | __GFP_NORETRY)

/* ---- pages held by the case ------------------------------------------------ */

static LIST_HEAD(held);

static void hold(struct page *page, unsigned int order)
{
	page->owner_data[0] = order;
	list_add_tail(&page->lru, &held);
}

static void release_all(void)
{
	while (!list_empty(&held)) {
		struct page *page = list_first_entry(&held, struct page, lru);
		unsigned int order = (unsigned int)page->owner_data[0];

		list_del(&page->lru);
		page->owner_data[0] = 0;
		__free_pages(page, order);
	}
}

/*
 * The cases count pages in the zones' buddy lists against the watermarks,
 * so the per-CPU lists are emptied and bypassed while they run (the pcp
 * suite tests those lists themselves).
 */
static int gfp_init(struct ktest *t)
{
	INIT_LIST_HEAD(&held);
	drain_all_pages();
	pcp_bypass = true;
	reclaim_disabled = true;
	return 0;
}

/*
 * failure_reports_are_rate_limited's short variant spends a burst of 2:
 * give the shared state its default burst back, spent for the rest of
 * the interval, as the default burst's run leaves it.
 */
static void restore_printk_ratelimit(void)
{
	struct ratelimit_state *rs = &printk_ratelimit_state;
	unsigned long flags;

	local_irq_save(flags);
	while (__atomic_exchange_n(&rs->busy, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
	if (rs->burst != PRINTK_RATELIMIT_BURST) {
		rs->burst = PRINTK_RATELIMIT_BURST;
		if (rs->begun)
			rs->printed = PRINTK_RATELIMIT_BURST;
	}
	__atomic_store_n(&rs->busy, 0, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

static void gfp_exit(struct ktest *t)
{
	restore_printk_ratelimit();
	release_all();
	pcp_bypass = false;
	reclaim_disabled = false;
}

/* ---- zones ------------------------------------------------------------------ */

static struct zone *zone_of(int j)
{
	return &NODE_DATA(0)->node_zones[j];
}

static bool has_zone(int j)
{
	return j >= 0 && populated_zone(zone_of(j));
}

static int idx_of(const struct zone *z)
{
	for (int j = 0; j < MAX_NR_ZONES; j++)
		if (z == zone_of(j))
			return j;
	return -1;
}

static const char *zname(int j)
{
	static const char *const names[] = { "DMA", "Normal", "HighMem" };

	return j >= 0 && j < MAX_NR_ZONES ? names[j] : "(none)";
}

/* The zonelist rule, written out: the zone index a mode must land in. */
static int expected_zone(gfp_t gfp)
{
	int j = (gfp & __GFP_DMA) ? ZONE_DMA :
		(gfp & __GFP_HIGHMEM) ? ZONE_HIGHMEM : ZONE_NORMAL;

	while (j >= 0 && !has_zone(j))
		j--;
	return j;
}

/* The first populated zone below j, or -1. */
static int zone_below(int j)
{
	for (j--; j >= 0; j--)
		if (has_zone(j))
			return j;
	return -1;
}

/* The pfn range each zone covers by definition. */
static bool pfn_in_zone_range(unsigned long pfn, int j)
{
	switch (j) {
	case ZONE_DMA:
		return pfn < MAX_DMA_PFN;
	case ZONE_NORMAL:
		return pfn >= MAX_DMA_PFN && pfn < max_low_pfn;
	case ZONE_HIGHMEM:
		return pfn >= max_low_pfn && pfn < max_pfn;
	}
	return false;
}

static void need_one_node(struct ktest *t)
{
	if (nr_online_nodes != 1)
		ktest_skip(t, "the zonelist reaches other nodes: single-node boots only");
}

/* ---- vm_stat snapshots ----------------------------------------------------- */

struct stats {
	unsigned long v[MAX_NR_ZONES][NR_ZONE_STAT_ITEMS];
};

static void snap(struct stats *s)
{
	for (int j = 0; j < MAX_NR_ZONES; j++)
		for (int i = 0; i < NR_ZONE_STAT_ITEMS; i++)
			s->v[j][i] = zone_stat_read(zone_of(j), i);
}

static long delta(const struct stats *s, int j, enum zone_stat_item i)
{
	return (long)(zone_stat_read(zone_of(j), i) - s->v[j][i]);
}

static const char *const stat_names[NR_ZONE_STAT_ITEMS] = {
	"nr_alloc_fast", "nr_alloc_slow", "nr_alloc_fail", "nr_zone_lock",
};

/*
 * The allocation counters of zone j moved by exactly fast/slow/fail
 * (NR_ZONE_LOCK is not looked at).
 */
static void expect_alloc_stats(struct ktest *t, int line, const struct stats *s,
			       int j, long fast, long slow, long fail)
{
	const long want[3] = { fast, slow, fail };

	for (int i = NR_ALLOC_FAST; i <= NR_ALLOC_FAIL; i++) {
		long d = delta(s, j, (enum zone_stat_item)i);

		if (d != want[i])
			KTEST_FAIL(t, "line %d: %s %s moved by %ld, expected %ld",
				   line, zname(j), stat_names[i], d, want[i]);
	}
}
#define EXPECT_STATS(t, s, j, fast, slow, fail) \
	expect_alloc_stats(t, __LINE__, s, j, fast, slow, fail)

/* ---- zone choice ------------------------------------------------------------ */

static const struct {
	const char *name;
	gfp_t gfp;
} modes[] = {
	{ "GFP_KERNEL", GFP_KERNEL },
	{ "GFP_ATOMIC", GFP_ATOMIC },
	{ "GFP_NOIO", GFP_NOIO },
	{ "GFP_NOFS", GFP_NOFS },
	{ "GFP_USER", GFP_USER },
	{ "GFP_DMA", GFP_DMA },
	{ "GFP_HIGHUSER", GFP_HIGHUSER },
	{ "GFP_KERNEL|__GFP_HIGHMEM", GFP_KERNEL | __GFP_HIGHMEM },
	{ "GFP_DMA|__GFP_HIGHMEM", GFP_DMA | __GFP_HIGHMEM },
};

/* A tag per page, written through one mapping and read through another. */
static u32 tag(const struct page *page)
{
	return 0x6d6d0000u ^ (u32)page_to_pfn(page);
}

static void check_mapping(struct ktest *t, const char *mode, struct page *page,
			  unsigned int order)
{
	unsigned long nr = 1UL << order;

	if (page_to_pfn(page) < max_low_pfn) {
		char *addr = page_address(page);

		KTEST_EXPECT_FALSE(t, PageHighMem(page));
		KTEST_ASSERT_NOT_NULL(t, addr);
		KTEST_EXPECT_EQ(t, (unsigned long long)__pa(addr),
				(unsigned long long)page_to_phys(page));
		KTEST_EXPECT_TRUE(t, virt_addr_valid(addr));
		KTEST_EXPECT_PTR_EQ(t, virt_to_page(addr), page);
		KTEST_EXPECT_PTR_EQ(t, kmap(page), addr);
		kunmap(page);
		for (unsigned long i = 0; i < nr; i++) {
			KTEST_EXPECT_PTR_EQ(t, page_address(page + i),
					    addr + i * PAGE_SIZE);
			*(u32 *)(addr + i * PAGE_SIZE) = tag(page + i);
			*(u32 *)(addr + (i + 1) * PAGE_SIZE - 4) = ~tag(page + i);
		}
	} else {
		u32 *v;

		KTEST_EXPECT_TRUE(t, PageHighMem(page));
		KTEST_EXPECT_NULL(t, page_address(page));
		v = kmap(page);
		KTEST_ASSERT_NOT_NULL(t, v);
		KTEST_EXPECT_PTR_EQ(t, page_address(page), v);
		kunmap(page);
		KTEST_EXPECT_NULL(t, page_address(page));
		for (unsigned long i = 0; i < nr; i++) {
			v = kmap_atomic(page + i, KM_USER0);
			v[0] = tag(page + i);
			v[PAGE_SIZE / 4 - 1] = ~tag(page + i);
			kunmap_atomic(v, KM_USER0);
		}
	}
	/* Read back through kmap_atomic: each page is its own frame. */
	for (unsigned long i = 0; i < nr; i++) {
		u32 *v = kmap_atomic(page + i, KM_USER0);
		u32 first = v[0], last = v[PAGE_SIZE / 4 - 1];

		kunmap_atomic(v, KM_USER0);
		if (first != tag(page + i) || last != ~tag(page + i))
			KTEST_FAIL(t, "%s: page %lu of the block reads back %#x/%#x, wrote %#x/%#x",
				   mode, i, first, last, tag(page + i),
				   ~tag(page + i));
	}
}

static void zone_choice_follows_zonelist(struct ktest *t)
{
	static const unsigned int orders[] = { 0, 3 };
	struct stats st;

	for (unsigned int m = 0; m < ARRAY_SIZE(modes); m++) {
		const char *name = modes[m].name;
		gfp_t gfp = modes[m].gfp;
		int want = expected_zone(gfp);

		KTEST_ASSERT_GE(t, want, 0);
		for (unsigned int oi = 0; oi < ARRAY_SIZE(orders); oi++) {
			unsigned int order = orders[oi];
			struct page *page;
			unsigned long pfn;
			int got;

			snap(&st);
			page = alloc_pages(gfp, order);
			if (!page) {
				KTEST_FAIL(t, "%s order %u: NULL", name, order);
				continue;
			}
			hold(page, order);
			pfn = page_to_pfn(page);
			got = idx_of(page_zone(page));
			if (got != want)
				KTEST_FAIL(t, "%s order %u: pfn %#lx from %s, expected %s",
					   name, order, pfn, zname(got),
					   zname(want));
			if (!pfn_in_zone_range(pfn, want) ||
			    !pfn_in_zone_range(pfn + (1UL << order) - 1, want))
				KTEST_FAIL(t, "%s order %u: pfn %#lx is outside %s's range",
					   name, order, pfn, zname(want));
			KTEST_EXPECT_EQ(t, pfn & ((1UL << order) - 1), 0UL);
			KTEST_EXPECT_EQ(t, page_count(page), 1);
			KTEST_EXPECT_EQ(t, page->private, (unsigned long)order);
			KTEST_EXPECT_EQ(t, PageHead(page), order > 0);
			/* One fast-path success, counted on the preferred zone. */
			for (int j = 0; j < MAX_NR_ZONES; j++)
				expect_alloc_stats(t, __LINE__, &st, j,
						   j == want, 0, 0);
			check_mapping(t, name, page, order);
		}

		/* alloc_pages_node: node 0 and "this node" choose the same. */
		for (int nid = -1; nid <= 0; nid++) {
			struct page *page = alloc_pages_node(nid, gfp, 0);

			KTEST_ASSERT_NOT_NULL(t, page);
			hold(page, 0);
			if (idx_of(page_zone(page)) != want)
				KTEST_FAIL(t, "%s alloc_pages_node(%d): %s, expected %s",
					   name, nid, zname(idx_of(page_zone(page))),
					   zname(want));
		}
	}
}

/* ---- exhaustion helpers ------------------------------------------------------ */

/*
 * Takes pages of mode gfp out of zone z, the head of the mode's zonelist,
 * biggest blocks first, keeping z above its low watermark until the
 * order-0 tail: order-0 pages are taken until one comes from another
 * zone.  A higher-order block that comes from elsewhere is given back at
 * once, so no other zone is touched until that last page, which is
 * returned (held).  Counts the successful and failed calls.
 */
static struct page *fill_to_low(struct ktest *t, struct zone *z, gfp_t gfp,
				long *ok, long *failed)
{
	unsigned long bound = z->free_pages + 1;
	struct page *page;

	gfp |= QUIET;
	for (unsigned int order = MAX_ORDER - 1; order > 0; order--) {
		while (READ_ONCE(z->free_pages) >= z->pages_low + (2UL << order)) {
			page = alloc_pages(gfp, order);
			if (!page) {
				(*failed)++;
				break;
			}
			(*ok)++;
			if (page_zone(page) != z) {
				__free_pages(page, order);
				break;
			}
			hold(page, order);
		}
	}
	for (unsigned long n = 0; n < bound; n++) {
		page = alloc_pages(gfp, 0);
		if (!page) {
			(*failed)++;
			KTEST_FAIL(t, "order 0 failed with %s at %lu free pages (low %lu)",
				   z->name, z->free_pages, z->pages_low);
			ktest_abort(t);
		}
		(*ok)++;
		hold(page, 0);
		if (page_zone(page) != z)
			return page;
	}
	KTEST_FAIL(t, "%s never fell back", z->name);
	ktest_abort(t);
}

/* Takes every page mode gfp can get: high orders first, down to order 0. */
static void exhaust(gfp_t gfp)
{
	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages(gfp | QUIET, (unsigned int)order)))
			hold(page, (unsigned int)order);
	}
}

#define MAX_RUNS 8

/* The zones successive allocations came from, as (zone, count) runs. */
struct runs {
	unsigned int n;
	int zone[MAX_RUNS];
	unsigned long count[MAX_RUNS];
};

static void runs_add(struct runs *r, int zone, unsigned long count)
{
	if (!count)
		return;
	if (r->n && r->zone[r->n - 1] == zone) {
		r->count[r->n - 1] += count;
		return;
	}
	if (r->n < MAX_RUNS) {
		r->zone[r->n] = zone;
		r->count[r->n++] = count;
	}
}

/* Order-0 allocations of mode gfp until NULL (or bound), run by run. */
static void take_until_null(gfp_t gfp, unsigned long bound, struct runs *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned long n = 0; n < bound; n++) {
		struct page *page = alloc_pages(gfp, 0);

		if (!page)
			return;
		hold(page, 0);
		runs_add(r, idx_of(page_zone(page)), 1);
	}
}

static void expect_runs(struct ktest *t, int line, const char *what,
			const struct runs *got, const struct runs *want)
{
	bool same = got->n == want->n;

	for (unsigned int i = 0; same && i < got->n; i++)
		same = got->zone[i] == want->zone[i] &&
		       got->count[i] == want->count[i];
	if (same)
		return;
	KTEST_FAIL(t, "line %d: %s: the zones served in the wrong amounts", line,
		   what);
	for (unsigned int i = 0; i < got->n || i < want->n; i++)
		ktest_printf(t, "  run %u: got %lu from %s, expected %lu from %s",
			     i, i < got->n ? got->count[i] : 0,
			     zname(i < got->n ? got->zone[i] : -1),
			     i < want->n ? want->count[i] : 0,
			     zname(i < want->n ? want->zone[i] : -1));
}
#define EXPECT_RUNS(t, what, got, want) expect_runs(t, __LINE__, what, got, want)

static unsigned long above(unsigned long free, unsigned long limit)
{
	return free > limit ? free - limit : 0;
}

/* ---- fallback ---------------------------------------------------------------- */

static void fallback(struct ktest *t, int pref, gfp_t gfp, const char *mode)
{
	struct zone *z, *next;
	struct page *landed;
	struct stats st;
	long ok = 0, failed = 0;
	int nj;

	need_one_node(t);
	if (!has_zone(pref))
		ktest_skip(t, "the preferred zone is not populated in this boot");
	nj = zone_below(pref);
	if (nj < 0)
		ktest_skip(t, "no populated zone below the preferred one");
	z = zone_of(pref);
	next = zone_of(nj);
	if (next->free_pages <= next->pages_low + next->lowmem_reserve[pref] + 32)
		ktest_skip(t, "the zone below is already at its watermark");

	snap(&st);
	landed = fill_to_low(t, z, gfp, &ok, &failed);
	ktest_printf(t, "%s: %ld allocations, %ld failed, to bring %s to %lu free pages",
		     mode, ok, failed, z->name, z->free_pages);
	KTEST_EXPECT_EQ(t, idx_of(page_zone(landed)), nj);
	/* The first pass refuses z at order 0 exactly when free <= low. */
	KTEST_EXPECT_EQ(t, z->free_pages, z->pages_low);
	KTEST_EXPECT_EQ(t, delta(&st, pref, NR_ALLOC_FAST) +
			   delta(&st, pref, NR_ALLOC_SLOW), ok);
	KTEST_EXPECT_EQ(t, delta(&st, pref, NR_ALLOC_FAIL), failed);
	EXPECT_STATS(t, &st, nj, 0, 0, 0);

	/* From now on the fast path serves the mode from the zone below. */
	snap(&st);
	for (int i = 0; i < 16; i++) {
		struct page *page = alloc_pages(gfp | QUIET, 0);

		KTEST_ASSERT_NOT_NULL(t, page);
		hold(page, 0);
		if (idx_of(page_zone(page)) != nj)
			KTEST_FAIL(t, "%s page %d after the fill: from %s, expected %s",
				   mode, i, zname(idx_of(page_zone(page))),
				   zname(nj));
	}
	EXPECT_STATS(t, &st, pref, 16, 0, 0);
	EXPECT_STATS(t, &st, nj, 0, 0, 0);
	/* Only the zone that served took its lock. */
	KTEST_EXPECT_EQ(t, delta(&st, nj, NR_ZONE_LOCK), 16L);
	KTEST_EXPECT_EQ(t, delta(&st, pref, NR_ZONE_LOCK), 0L);
	KTEST_EXPECT_EQ(t, z->free_pages, z->pages_low);
	release_all();
}

static void fallback_normal_to_dma(struct ktest *t)
{
	fallback(t, ZONE_NORMAL, GFP_KERNEL, "GFP_KERNEL");
}

static void fallback_highmem_to_normal(struct ktest *t)
{
	fallback(t, ZONE_HIGHMEM, GFP_HIGHUSER, "GFP_HIGHUSER");
}

/* ---- lowmem_reserve ---------------------------------------------------------- */

/* Linux 2.6's lowmem_reserve_ratio, written out again: DMA, Normal. */
static const unsigned long reserve_ratio_2_6[] = { 256, 32 };

/*
 * What zone i must keep back from allocations preferring zone j > i, by
 * the rule, from the zones' sizes alone: the pages of zones i+1..j over
 * zone i's ratio (2.6.11's setup_per_zone_lowmem_reserve).
 */
static unsigned long reserve_by_rule(int i, int j)
{
	unsigned long pages = 0;

	for (int k = i + 1; k <= j; k++)
		pages += zone_of(k)->present_pages;
	return j > i ? pages / reserve_ratio_2_6[i] : 0;
}

/*
 * The behaviour is judged against the reserve the rule demands, not the
 * one the zone holds: with no reserve at all, GFP_KERNEL would take
 * ZONE_DMA down to its min and the case says by how much.
 */
static void lowmem_reserve_protects_dma(struct ktest *t)
{
	struct zone *dma = zone_of(ZONE_DMA), *normal = zone_of(ZONE_NORMAL);
	unsigned long R, D, LN, MN, LD, MD, e1, e2, e3, d1, ef, es;
	struct runs got, want;
	long ok = 0, failed = 0;
	struct stats st;

	need_one_node(t);
	if (!has_zone(ZONE_DMA) || !has_zone(ZONE_NORMAL))
		ktest_skip(t, "needs both a DMA and a Normal zone");

	R = reserve_by_rule(ZONE_DMA, ZONE_NORMAL);
	LD = dma->pages_low;
	MD = dma->pages_min;
	LN = normal->pages_low;
	MN = normal->pages_min;
	if (dma->free_pages <= LD + R + 1)
		ktest_skip(t, "ZONE_DMA is already at its low watermark + reserve");

	fill_to_low(t, normal, GFP_KERNEL, &ok, &failed);
	KTEST_ASSERT_EQ(t, normal->free_pages, LN);
	D = dma->free_pages;

	/*
	 * GFP_KERNEL from here, order 0 until NULL:
	 *   DMA, first pass, while free > low + R        (e1 pages)
	 *   Normal, second pass, while free > min        (e2)
	 *   DMA, second pass, while free > min + R       (e3)
	 */
	e1 = above(D, LD + R);
	d1 = D - e1;
	e2 = above(LN, MN);
	e3 = above(d1, MD + R);
	memset(&want, 0, sizeof(want));
	runs_add(&want, ZONE_DMA, e1);
	runs_add(&want, ZONE_NORMAL, e2);
	runs_add(&want, ZONE_DMA, e3);
	ktest_printf(t, "DMA: %lu free, low %lu min %lu reserve %lu by the rule; Normal: low %lu min %lu",
		     D, LD, MD, R, LN, MN);

	snap(&st);
	take_until_null(GFP_KERNEL | QUIET, D + LN + 1, &got);
	/* GFP_KERNEL must stop with R pages above DMA's min still free. */
	if (dma->free_pages < MD + R) {
		KTEST_FAIL(t, "GFP_KERNEL emptied ZONE_DMA: it took %lu pages below the %lu the reserve should have kept (min %lu + lowmem_reserve %lu), down to %lu free",
			   MD + R - dma->free_pages, MD + R, MD, R,
			   dma->free_pages);
		release_all();
		return;
	}
	EXPECT_RUNS(t, "GFP_KERNEL", &got, &want);
	KTEST_EXPECT_EQ(t, dma->free_pages, MD + R);
	KTEST_EXPECT_EQ(t, normal->free_pages, MN);
	EXPECT_STATS(t, &st, ZONE_NORMAL, (long)e1, (long)(e2 + e3), 1);
	EXPECT_STATS(t, &st, ZONE_DMA, 0, 0, 0);

	/*
	 * GFP_KERNEL | GFP_DMA prefers DMA itself: no reserve.  First pass
	 * down to low, second pass down to min: it gets all R pages
	 * GFP_KERNEL could not.  (GFP_DMA alone cannot sleep and would go a
	 * quarter below min.)
	 */
	ef = above(MD + R, LD);
	es = above(MD + R - ef, MD);
	memset(&want, 0, sizeof(want));
	runs_add(&want, ZONE_DMA, ef + es);
	snap(&st);
	take_until_null(GFP_KERNEL | GFP_DMA | QUIET, R + 1, &got);
	EXPECT_RUNS(t, "GFP_KERNEL | GFP_DMA", &got, &want);
	KTEST_EXPECT_EQ(t, ef + es, R);
	KTEST_EXPECT_EQ(t, dma->free_pages, MD);
	EXPECT_STATS(t, &st, ZONE_DMA, (long)ef, (long)es, 1);
	EXPECT_STATS(t, &st, ZONE_NORMAL, 0, 0, 0);
	release_all();

	/* And the zones hold the reserves the rule gives (HighMem's too). */
	for (int i = 0; i < MAX_NR_ZONES; i++)
		for (int j = 0; j < MAX_NR_ZONES; j++)
			if (zone_of(i)->lowmem_reserve[j] != reserve_by_rule(i, j))
				KTEST_FAIL(t, "%s lowmem_reserve[%s] = %lu, the rule gives %lu",
					   zname(i), zname(j),
					   zone_of(i)->lowmem_reserve[j],
					   reserve_by_rule(i, j));
}

/* ---- __GFP_HIGH ---------------------------------------------------------------- */

static void gfp_high_dips_below_min(struct ktest *t)
{
	static const struct {
		const char *name;
		gfp_t gfp;
	} waiters[] = {
		{ "GFP_KERNEL", GFP_KERNEL },
		{ "GFP_NOIO", GFP_NOIO },
		{ "GFP_NOFS", GFP_NOFS },
		{ "GFP_USER", GFP_USER },
	};
	unsigned long MH, MB = 0, RB = 0, MHA, MBA, warnings, total;
	int h, b;
	struct zone *H, *B = NULL;
	struct page *page;
	struct runs got, want;
	struct stats st;

	need_one_node(t);
	h = expected_zone(GFP_KERNEL);
	KTEST_ASSERT_GE(t, h, 0);
	H = zone_of(h);
	b = zone_below(h);
	MH = H->pages_min;
	if (MH < 3)
		ktest_skip(t, "pages_min is too small to leave room between min/2 and min");
	if (b >= 0) {
		B = zone_of(b);
		MB = B->pages_min;
		RB = B->lowmem_reserve[h];
	}

	/* GFP_KERNEL takes everything it may: each zone ends at min + reserve. */
	exhaust(GFP_KERNEL);
	KTEST_EXPECT_EQ(t, H->free_pages, MH);
	if (B)
		KTEST_EXPECT_EQ(t, B->free_pages, MB + RB);

	/* What GFP_ATOMIC may go down to: min halved, then less a quarter. */
	MHA = (MH - MH / 2) - (MH - MH / 2) / 4;
	MBA = (MB - MB / 2) - (MB - MB / 2) / 4;

	/* One GFP_ATOMIC page: min/2 < free < min. */
	page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	hold(page, 0);
	KTEST_EXPECT_EQ(t, idx_of(page_zone(page)), h);
	KTEST_EXPECT_EQ(t, H->free_pages, MH - 1);
	KTEST_EXPECT_GT(t, H->free_pages, MH / 2);

	/* No mode without __GFP_HIGH gets a page now... */
	snap(&st);
	for (unsigned int i = 0; i < ARRAY_SIZE(waiters); i++) {
		page = alloc_pages(waiters[i].gfp | QUIET, 0);
		if (page) {
			hold(page, 0);
			KTEST_FAIL(t, "%s got a page from %s at %lu free pages, min %lu",
				   waiters[i].name, zname(idx_of(page_zone(page))),
				   H->free_pages, MH);
		}
	}
	EXPECT_STATS(t, &st, h, 0, 0, (long)ARRAY_SIZE(waiters));

	/*
	 * ...but GFP_ATOMIC goes on, second pass with min halved and then
	 * lowered by a quarter: H down to MHA, then the zone below down to
	 * its own MBA + reserve.  The last, failing call prints its report
	 * (no NOWARN), marked as one this case expects.
	 */
	memset(&want, 0, sizeof(want));
	runs_add(&want, h, (MH - 1) - MHA);
	if (B)
		runs_add(&want, b, above(MB + RB, MBA + RB));
	warnings = nr_warnings();
	snap(&st);
	ktest_expected_reports(true);
	take_until_null(GFP_ATOMIC, MH + MB + 1, &got);
	ktest_expected_reports(false);
	EXPECT_RUNS(t, "GFP_ATOMIC", &got, &want);
	KTEST_EXPECT_EQ(t, H->free_pages, MHA);
	if (B)
		KTEST_EXPECT_EQ(t, B->free_pages, MBA + RB);
	total = 0;
	for (unsigned int i = 0; i < want.n; i++)
		total += want.count[i];
	EXPECT_STATS(t, &st, h, 0, (long)total, 1);
	/* A failure report is not a WARN, and the kernel carries on. */
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings);

	release_all();
	page = alloc_pages(GFP_KERNEL, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, idx_of(page_zone(page)), h);
	__free_pages(page, 0);
}

/* ---- __GFP_ZERO -------------------------------------------------------------- */

#define PATTERN 0xa5
#define PAIR_SEARCH 2048

static void expect_zeroed(struct ktest *t, const char *what, struct page *page)
{
	u8 *addr = kmap_atomic(page, KM_USER0);
	u8 *bad = memchr_inv(addr, 0, PAGE_SIZE);
	unsigned int off = bad ? (unsigned int)(bad - addr) : 0;
	u8 byte = bad ? *bad : 0;

	kunmap_atomic(addr, KM_USER0);
	if (bad)
		KTEST_FAIL(t, "%s: pfn %#lx holds %#x at offset %#x", what,
			   page_to_pfn(page), byte, off);
}

static void dirty(struct page *page)
{
	void *addr = kmap_atomic(page, KM_USER0);

	memset(addr, PATTERN, PAGE_SIZE);
	kunmap_atomic(addr, KM_USER0);
}

/*
 * Gets two order-0 pages of mode gfp that are buddies, so that freeing
 * one cannot merge it away: it stays an order-0 free block.  Everything
 * else taken on the way is given back.  The pair is held.
 */
static void buddy_pair(struct ktest *t, gfp_t gfp, struct page **p,
		       struct page **b)
{
	static struct page *got[PAIR_SEARCH];
	unsigned int n;

	*p = *b = NULL;
	for (n = 0; n < PAIR_SEARCH && !*p; n++) {
		got[n] = alloc_pages(gfp, 0);
		KTEST_ASSERT_NOT_NULL(t, got[n]);
		for (unsigned int i = 0; i < n; i++)
			if (page_to_pfn(got[i]) == (page_to_pfn(got[n]) ^ 1)) {
				*p = got[n];
				*b = got[i];
				got[i] = got[n] = NULL;
				break;
			}
	}
	for (unsigned int i = 0; i < n; i++)
		if (got[i])
			__free_pages(got[i], 0);
	KTEST_ASSERT_NOT_NULL(t, *p);
	hold(*b, 0);
}

/*
 * Dirties a page, frees it (its buddy held), then allocates zeroed pages
 * of the same mode until that page comes back - at the latest after the
 * order-0 blocks already free, as the smallest block that fits is taken -
 * and checks every byte of every page handed out.
 */
static void zero_one_mode(struct ktest *t, const char *what, gfp_t gfp,
			  bool use_get_zeroed_page)
{
	struct page *p, *b, *q = NULL;
	unsigned long limit;

	buddy_pair(t, gfp, &p, &b);
	dirty(p);
	__free_pages(p, 0);
	limit = page_zone(p)->free_area[0].nr_free;
	for (unsigned long n = 0; n < limit; n++) {
		if (use_get_zeroed_page) {
			unsigned long addr = get_zeroed_page(gfp);

			KTEST_ASSERT_TRUE(t, addr != 0);
			q = virt_to_page((void *)addr);
		} else {
			q = alloc_pages(gfp | __GFP_ZERO, 0);
			KTEST_ASSERT_NOT_NULL(t, q);
		}
		hold(q, 0);
		expect_zeroed(t, what, q);
		if (q == p)
			break;
	}
	if (q != p)
		KTEST_FAIL(t, "%s: the dirtied page pfn %#lx did not come back within %lu allocations",
			   what, page_to_pfn(p), limit);

	/* An order-2 block: all four pages zeroed, whichever block it is. */
	q = alloc_pages(gfp, 2);
	KTEST_ASSERT_NOT_NULL(t, q);
	for (unsigned int i = 0; i < 4; i++)
		dirty(q + i);
	__free_pages(q, 2);
	q = alloc_pages(gfp | __GFP_ZERO, 2);
	KTEST_ASSERT_NOT_NULL(t, q);
	hold(q, 2);
	for (unsigned int i = 0; i < 4; i++)
		expect_zeroed(t, what, q + i);
	release_all();
}

static void gfp_zero_clears_pages(struct ktest *t)
{
	zero_one_mode(t, "GFP_KERNEL|__GFP_ZERO", GFP_KERNEL, false);
	zero_one_mode(t, "get_zeroed_page(GFP_KERNEL)", GFP_KERNEL, true);
	zero_one_mode(t, "GFP_DMA|__GFP_ZERO", GFP_DMA, false);
	zero_one_mode(t, "GFP_HIGHUSER|__GFP_ZERO", GFP_HIGHUSER, false);
	if (!has_zone(ZONE_HIGHMEM))
		ktest_printf(t, "no HighMem zone: GFP_HIGHUSER was served from %s",
			     zname(expected_zone(GFP_HIGHUSER)));
}

/* ---- the rest of the API ------------------------------------------------------ */

static void bad_order_fails_quietly(struct ktest *t)
{
	static const unsigned int orders[] = { MAX_ORDER, MAX_ORDER + 1, 20, 31 };
	unsigned long free = nr_free_pages();
	unsigned int warnings = nr_warnings();
	struct stats st;

	snap(&st);
	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		KTEST_EXPECT_NULL(t, alloc_pages(GFP_KERNEL | __GFP_NOWARN, orders[i]));
		KTEST_EXPECT_NULL(t, alloc_pages(GFP_ATOMIC | __GFP_NOWARN, orders[i]));
		KTEST_EXPECT_NULL(t, alloc_pages_node(0, GFP_DMA | __GFP_NOWARN,
						      orders[i]));
		KTEST_EXPECT_EQ(t, __get_free_pages(GFP_KERNEL | __GFP_NOWARN,
						    orders[i]), 0UL);
	}
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings);
	/* No zone was tried: no counter moves (as in Linux, nothing counts). */
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		EXPECT_STATS(t, &st, j, 0, 0, 0);
		KTEST_EXPECT_EQ(t, delta(&st, j, NR_ZONE_LOCK), 0L);
	}

	/* The largest valid order still works. */
	{
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN,
						MAX_ORDER - 1);

		if (page) {
			KTEST_EXPECT_EQ(t, page_to_pfn(page) &
					   (MAX_ORDER_NR_PAGES - 1), 0UL);
			__free_pages(page, MAX_ORDER - 1);
		} else {
			ktest_printf(t, "no order-%u block free in this boot",
				     MAX_ORDER - 1);
		}
	}
}

static void get_free_pages_addresses(struct ktest *t)
{
	static const struct {
		const char *name;
		gfp_t gfp;
	} lowmodes[] = {
		{ "GFP_KERNEL", GFP_KERNEL },
		{ "GFP_ATOMIC", GFP_ATOMIC },
		{ "GFP_DMA", GFP_DMA },
	};
	static const unsigned int orders[] = { 0, 1, 4 };

	for (unsigned int m = 0; m < ARRAY_SIZE(lowmodes); m++) {
		for (unsigned int oi = 0; oi < ARRAY_SIZE(orders); oi++) {
			unsigned int order = orders[oi];
			unsigned long size = PAGE_SIZE << order;
			unsigned long addr = __get_free_pages(lowmodes[m].gfp, order);
			unsigned long long pa;
			struct page *page;

			if (!addr) {
				KTEST_FAIL(t, "%s order %u: 0", lowmodes[m].name,
					   order);
				continue;
			}
			pa = __pa(addr);
			/* Page aligned, and naturally aligned physically. */
			KTEST_EXPECT_EQ(t, addr & ~PAGE_MASK, 0UL);
			KTEST_EXPECT_EQ(t, pa & (size - 1), 0ULL);
			KTEST_EXPECT_TRUE(t, virt_addr_valid((void *)addr));
			KTEST_EXPECT_TRUE(t, virt_addr_valid((void *)(addr + size - 1)));
			KTEST_EXPECT_LE(t, pa + size,
					(unsigned long long)max_low_pfn << PAGE_SHIFT);
			if (lowmodes[m].gfp & __GFP_DMA)
				KTEST_EXPECT_LE(t, pa + size,
						(unsigned long long)MAX_DMA_PFN << PAGE_SHIFT);
			page = virt_to_page((void *)addr);
			KTEST_EXPECT_PTR_EQ(t, page_address(page), (void *)addr);
			KTEST_EXPECT_EQ(t, page_count(page), 1);
			KTEST_EXPECT_EQ(t, page->private, (unsigned long)order);
			memset((void *)addr, 0x3c, size);
			KTEST_EXPECT_TRUE(t, memchr_inv((void *)addr, 0x3c, size) == NULL);
			free_pages(addr, order);
		}
	}
	/* get_zeroed_page: one zeroed lowmem page. */
	{
		unsigned long addr = get_zeroed_page(GFP_KERNEL);

		KTEST_ASSERT_TRUE(t, addr != 0);
		KTEST_EXPECT_EQ(t, addr & ~PAGE_MASK, 0UL);
		KTEST_EXPECT_TRUE(t, memchr_inv((void *)addr, 0, PAGE_SIZE) == NULL);
		free_page(addr);
	}
}

static void free_pages_of_zero_is_noop(struct ktest *t)
{
	unsigned long free = nr_free_pages();
	unsigned int warnings = nr_warnings();
	struct stats st;

	snap(&st);
	for (unsigned int order = 0; order < MAX_ORDER; order++)
		free_pages(0, order);
	free_page(0);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings);
	for (int j = 0; j < MAX_NR_ZONES; j++)
		KTEST_EXPECT_EQ(t, delta(&st, j, NR_ZONE_LOCK), 0L);
}

static void hot_and_cold_frees(struct ktest *t)
{
	unsigned long free = nr_free_pages();
	struct page *page;

	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free - 1);
	free_hot_page(page);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);

	page = alloc_page(GFP_KERNEL | __GFP_COLD);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free - 1);
	free_cold_page(page);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);

	/* Two references: the first free only drops one. */
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	get_page(page);
	__free_page(page);
	KTEST_EXPECT_EQ(t, page_count(page), 1);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free - 1);
	__free_page(page);
	KTEST_EXPECT_EQ(t, nr_free_pages(), free);
}

/* ---- rate-limited failure reports ----------------------------------------- */

static struct {
	unsigned int lines, reports, suppressed_notes;
	char last[KTEST_CAPTURE_LINE];
} rl_cap;

static void rl_cap_line(const char *line)
{
	rl_cap.lines++;
	if (strstr(line, "page allocation failure: order:"))
		rl_cap.reports++;
	if (strstr(line, "messages suppressed")) {
		rl_cap.suppressed_notes++;
		strscpy(rl_cap.last, line, sizeof(rl_cap.last));
	}
}

/*
 * A private state, burst 3 every HZ, judged at given jiffies (from just
 * short of the wrap, so a plain comparison would be caught): 3 yes then
 * no until the interval is over; the first yes after it says how many
 * were suppressed, exactly once.
 */
static void ratelimit_burst_then_suppressed(struct ktest *t)
{
	struct ratelimit_state rs;
	unsigned long t0 = (unsigned long)-5;
	unsigned int yes = 0;

	ratelimit_state_init(&rs, HZ, 3);
	memset(&rl_cap, 0, sizeof(rl_cap));
	ktest_capture_start(rl_cap_line);
	for (int i = 0; i < 8; i++)
		yes += ratelimit_at(&rs, t0);
	yes += ratelimit_at(&rs, t0 + HZ - 1);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, yes, 3U);
	KTEST_EXPECT_EQ(t, rs.missed, 6U);
	KTEST_EXPECT_EQ(t, rl_cap.lines, 0U);

	ktest_capture_start(rl_cap_line);
	KTEST_EXPECT_TRUE(t, ratelimit_at(&rs, t0 + HZ));
	KTEST_EXPECT_TRUE(t, ratelimit_at(&rs, t0 + HZ));
	KTEST_EXPECT_TRUE(t, ratelimit_at(&rs, t0 + HZ + 1));
	KTEST_EXPECT_FALSE(t, ratelimit_at(&rs, t0 + 2 * HZ - 1));
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, rl_cap.lines, 1U);
	KTEST_EXPECT_EQ(t, rl_cap.suppressed_notes, 1U);
	KTEST_EXPECT_STREQ(t, rl_cap.last, "printk: 6 messages suppressed.");

	/* Interval 0: no limit. */
	ratelimit_state_init(&rs, 0, 1);
	for (int i = 0; i < 5; i++)
		KTEST_EXPECT_TRUE(t, ratelimit_at(&rs, t0));
}

/*
 * Many failing allocations print at most printk_ratelimit()'s burst of
 * reports: with the shared state started afresh, 5 bursts' worth of
 * GFP_ATOMIC order-0 failures (every lowmem page taken) print exactly one
 * burst, if they all fall within one interval.
 */
static void failure_reports_are_rate_limited(struct ktest *t)
{
	/* A report is some 25 lines (ms each under TCG): the short variant
	 * limits to a burst of 2, soak to the default burst. */
	const unsigned int burst = KTEST_SOAK(2u, PRINTK_RATELIMIT_BURST);
	const unsigned int tries = 5 * burst;
	unsigned int failed = 0;
	unsigned long start;

	exhaust(GFP_ATOMIC);
	ratelimit_state_init(&printk_ratelimit_state,
			     PRINTK_RATELIMIT_INTERVAL, burst);
	memset(&rl_cap, 0, sizeof(rl_cap));
	start = jiffies;
	ktest_capture_start(rl_cap_line);
	for (unsigned int i = 0; i < tries; i++) {
		struct page *page = alloc_pages(GFP_ATOMIC, 0);

		if (page)
			hold(page, 0);
		else
			failed++;
	}
	ktest_capture_stop();
	KTEST_ASSERT_EQ(t, failed, tries);
	if (time_after_eq(jiffies, start + PRINTK_RATELIMIT_INTERVAL))
		ktest_skip(t, "the failures took longer than one interval");
	KTEST_EXPECT_EQ(t, rl_cap.reports, burst);
	KTEST_EXPECT_EQ(t, printk_ratelimit_state.missed, tries - burst);
	ktest_printf(t, "%u failures, %u reports printed (%u lines)", failed,
		     rl_cap.reports, rl_cap.lines);
}

/* ---- the mask in words ---------------------------------------------------- */

/*
 * gfp_describe() against strings written by hand from Linux's names, the
 * masks as the hex a report shows (2.6.11's bit values): every composite,
 * each single bit, a composite with bits on top, unknown bits, 0, and
 * buffers too small, which must hold a NUL-terminated prefix and nothing
 * past their end.
 */
static void gfp_describe_names_linux_style(struct ktest *t)
{
	static const struct {
		gfp_t mask;
		const char *want;
	} cases[] = {
		{ 0xd2, "GFP_HIGHUSER" },
		{ 0xd0, "GFP_KERNEL" },
		{ 0x50, "GFP_NOFS" },
		{ 0x20, "GFP_ATOMIC" },
		{ 0x10, "GFP_NOIO" },
		{ 0x0, "GFP_NOWAIT" },
		{ 0x01, "__GFP_DMA" },
		{ 0x02, "__GFP_HIGHMEM" },
		{ 0x40, "__GFP_IO" },
		{ 0x80, "__GFP_FS" },
		{ 0x100, "__GFP_COLD" },
		{ 0x200, "__GFP_NOWARN" },
		{ 0x400, "__GFP_REPEAT" },
		{ 0x800, "__GFP_NOFAIL" },
		{ 0x1000, "__GFP_NORETRY" },
		{ 0x8000, "__GFP_ZERO" },
		{ 0x250, "GFP_NOFS|__GFP_NOWARN" },
		{ 0x80d0, "GFP_KERNEL|__GFP_ZERO" },
		{ 0x8d0, "GFP_KERNEL|__GFP_NOFAIL" },
		{ 0xd1, "GFP_KERNEL|__GFP_DMA" },
		{ 0x1220, "GFP_ATOMIC|__GFP_NOWARN|__GFP_NORETRY" },
		{ 0x60, "GFP_ATOMIC|__GFP_IO" },
		{ 0x90, "GFP_NOIO|__GFP_FS" },
		{ 0x30, "GFP_NOIO|__GFP_HIGH" },
		{ 0xc0, "__GFP_IO|__GFP_FS" },
		{ 0x03, "__GFP_DMA|__GFP_HIGHMEM" },
		{ 0xf2, "GFP_HIGHUSER|__GFP_HIGH" },
		{ 0x400000, "0x400000" },
		{ 0x4, "0x4" },
		{ 0x400050, "GFP_NOFS|0x400000" },
		{ 0x80000228, "GFP_ATOMIC|__GFP_NOWARN|0x80000008" },
	};
	char buf[GFP_DESCRIBE_LEN];
	char small[12];
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = gfp_describe(buf, sizeof(buf), cases[i].mask);
		if (strcmp(buf, cases[i].want) ||
		    n != (int)strlen(cases[i].want))
			KTEST_FAIL(t, "mode:%#x reads \"%s\" (length %d), Linux's names give \"%s\"",
				   cases[i].mask, buf, n, cases[i].want);
	}

	/* Every bit: the longest text there is, and it fits the report's buffer. */
	n = gfp_describe(buf, sizeof(buf), 0xffffffffu);
	KTEST_EXPECT_STREQ(t, buf,
			   "GFP_HIGHUSER|__GFP_DMA|__GFP_HIGH|__GFP_COLD|__GFP_NOWARN|"
			   "__GFP_REPEAT|__GFP_NOFAIL|__GFP_NORETRY|__GFP_ZERO|0xffff600c");
	KTEST_EXPECT_LT(t, n, (int)sizeof(buf));

	/* Too small: a cut, NUL-terminated, the guard byte after it intact. */
	memset(small, 'x', sizeof(small));
	n = gfp_describe(small, sizeof(small) - 1, 0x250);
	KTEST_EXPECT_STREQ(t, small, "GFP_NOFS|_");
	KTEST_EXPECT_EQ(t, small[sizeof(small) - 1], 'x');
	KTEST_EXPECT_EQ(t, n, (int)strlen("GFP_NOFS|__GFP_NOWARN"));
	memset(small, 'x', sizeof(small));
	n = gfp_describe(small, 5, 0x400000);
	KTEST_EXPECT_STREQ(t, small, "0x40");
	KTEST_EXPECT_EQ(t, small[5], 'x');
	KTEST_EXPECT_EQ(t, n, 8);
	memset(small, 'x', sizeof(small));
	n = gfp_describe(small, 1, 0xd0);
	KTEST_EXPECT_EQ(t, small[0], '\0');
	KTEST_EXPECT_EQ(t, small[1], 'x');
	KTEST_EXPECT_EQ(t, n, 10);
	memset(small, 'x', sizeof(small));
	n = gfp_describe(small, 0, 0x20);
	KTEST_EXPECT_EQ(t, small[0], 'x');
	KTEST_EXPECT_EQ(t, n, 10);
}

static const struct ktest_case gfp_cases[] = {
	KTEST_CASE(zone_choice_follows_zonelist),
	KTEST_CASE(fallback_normal_to_dma),
	KTEST_CASE(fallback_highmem_to_normal),
	KTEST_CASE(lowmem_reserve_protects_dma),
	KTEST_CASE(gfp_high_dips_below_min),
	KTEST_CASE(gfp_zero_clears_pages),
	KTEST_CASE(bad_order_fails_quietly),
	KTEST_CASE(get_free_pages_addresses),
	KTEST_CASE(free_pages_of_zero_is_noop),
	KTEST_CASE(hot_and_cold_frees),
	KTEST_CASE(ratelimit_burst_then_suppressed),
	KTEST_CASE(failure_reports_are_rate_limited),
	KTEST_CASE(gfp_describe_names_linux_style),
	KTEST_END,
};

static const struct ktest_suite gfp_suite = {
	.name = "gfp",
	.init = gfp_init,
	.exit = gfp_exit,
	.cases = gfp_cases,
};
KTEST_SUITE(gfp_suite);
