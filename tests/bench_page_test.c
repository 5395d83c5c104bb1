/*
 * tests/bench_page_test.c - suite "bench_page": what the page allocator
 * costs, printed for people to compare, never judged by time.
 *
 * Every figure is a ktest_printf line of one shape, so that a log can be
 * grepped and boots compared:
 *
 *   # CASE: bench: WHAT: N cycles/op (median of R runs of M ops)
 *
 * A figure is the median of BENCH_RUNS timed runs (after one untimed warm-up
 * run), each a loop of a fixed number of operations timed with get_cycles()
 * (lfence; rdtsc) and divided by that number.  Cycles are TSC cycles: under
 * QEMU TCG (no KVM) they are the emulated TSC's, which says how fast QEMU
 * runs the code, not how fast a real CPU would; arch_cpu_khz() is printed
 * so that they can be turned into time, and only ratios measured in the
 * same boot (order-0 against the bare free list) mean much across hosts.
 *
 * A case fails only on a functional error: an allocation that returns NULL
 * while memory is plentiful, a page not given back (the framework's free
 * page count also catches that), sizeof(struct page) over 32 bytes, start-
 * up figures that do not add up.  Iteration counts are kept small: the
 * suite runs in every boot of the matrix and takes well under 0.3 s.
 */
#include "asm/processor.h"
#include "asm/timex.h"
#include "kernel/arch.h"
#include "kernel/smp.h"
#include "lib/compiler.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/init.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "tests/bench.h"
#include "tests/ktest.h"

#define BATCH 256	/* pages per batch in the batch pattern */
#define LOCK_ALLOCS 1000 /* order-0 allocations for the zone-lock count */

/* ---- measuring ------------------------------------------------------ */

/* Runs ops operations of one kind; false on a functional failure. */
/* ---- the buddy allocator -------------------------------------------- */

static bool alloc_free_pairs(unsigned int ops, unsigned int order)
{
	for (unsigned int i = 0; i < ops; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order);

		if (!page)
			return false;
		__free_pages(page, order);
	}
	return true;
}

/* An order-N alloc+free pair, ops times. */
static void bench_order(struct ktest *t, unsigned int order, unsigned int ops,
			struct bench_result *res)
{
	char what[40];
	unsigned long free_before = (nr_free_pages() + nr_pcp_pages());

	snprintf(what, sizeof(what), "order-%u alloc+free", order);
	if (!bench_measure(alloc_free_pairs, order, ops, res)) {
		KTEST_FAIL(t, "alloc_pages(GFP_KERNEL, %u) returned NULL with %lu pages free",
			   order, free_before);
		return;
	}
	KTEST_EXPECT_EQ(t, (nr_free_pages() + nr_pcp_pages()), free_before);
	bench_print(t, what, res, "op");
}

/* Filled by order0_alloc_free for the bare_free_list ratio. */
static struct bench_result order0_result;

static void order0_alloc_free(struct ktest *t)
{
	bench_order(t, 0, 2000, &order0_result);
}

static void order3_alloc_free(struct ktest *t)
{
	struct bench_result res;

	bench_order(t, 3, 1000, &res);
}

static void order9_alloc_free(struct ktest *t)
{
	struct bench_result res;

	bench_order(t, 9, 200, &res);
}

static struct page *batch_pages[BATCH];

/* ops pages in batches of BATCH: allocate a batch, free it in reverse. */
static bool batch_alloc_free(unsigned int ops, unsigned int unused)
{
	for (unsigned int done = 0; done < ops; done += BATCH) {
		unsigned int n, got;

		for (n = 0; n < BATCH; n++) {
			batch_pages[n] = alloc_pages(GFP_KERNEL, 0);
			if (!batch_pages[n])
				break;
		}
		got = n;
		while (n > 0)
			__free_pages(batch_pages[--n], 0);
		if (got < BATCH)
			return false;
	}
	return true;
}

static void order0_batch(struct ktest *t)
{
	struct bench_result res;
	unsigned long free_before = (nr_free_pages() + nr_pcp_pages());

	if (!bench_measure(batch_alloc_free, 0, 8 * BATCH, &res)) {
		KTEST_FAIL(t, "alloc_pages(GFP_KERNEL, 0) returned NULL in a batch of %u with %lu pages free",
			   BATCH, free_before);
		return;
	}
	KTEST_EXPECT_EQ(t, (nr_free_pages() + nr_pcp_pages()), free_before);
	ktest_printf(t, "bench: order-0 batch of %u, alloc all then free in reverse: %llu cycles/page (median of %u runs of %u pages)",
		     BATCH, (unsigned long long)bench_per_op(&res), BENCH_RUNS, res.ops);
}

/* ---- the bare free list --------------------------------------------- */

/*
 * The least a free list can cost: a LIFO singly linked list, pop one node
 * and push it back.  Every access is volatile and barrier() separates the
 * two halves, so the compiler keeps each load and store.
 */
static struct bench_result bare_result;

static void bare_free_list(struct ktest *t)
{
	struct bench_result res;
	u64 ratio;

	bench_bare_init();
	KTEST_ASSERT_TRUE(t, bench_measure(bench_bare_pop_push, 0, 20000, &res));
	KTEST_EXPECT_EQ(t, bench_bare_length(), BENCH_BARE_NODES);
	bench_print(t, "bare free list pop+push", &res, "op");
	bare_result = res;

	/* The order-0 figure of this boot; measured here if it was filtered out. */
	if (!order0_result.ops) {
		if (!bench_measure(alloc_free_pairs, 0, 2000, &order0_result)) {
			KTEST_FAIL(t, "alloc_pages(GFP_KERNEL, 0) returned NULL");
			return;
		}
		bench_print(t, "order-0 alloc+free", &order0_result, "op");
	}
	/* (order0 / its ops) / (bare / its ops), in tenths. */
	ratio = bench_tenths(order0_result.median * res.ops,
		       res.median * order0_result.ops);
	if (!res.median)
		ktest_printf(t, "bench: order-0 / bare free list = n/a (bare list measured 0 cycles)");
	else
		ktest_printf(t, "bench: order-0 / bare free list = %llu.%llux",
			     (unsigned long long)(ratio / 10),
			     (unsigned long long)(ratio % 10));
}


/* ---- the per-CPU lists against the buddy lists ------------------------ */

/*
 * The same order-0 alloc+free pair three ways in one boot: through this
 * CPU's hot list, through the buddy lists with the per-CPU lists
 * bypassed, and the bare free list.  Targets (issue of the per-CPU
 * lists): hot <= 2x bare, hot <= 1/3 of bypassed.
 */
static struct zone *list_zone;

/* The list operations alone, without the API around them (no checks). */
static bool list_pop_push(unsigned int ops, unsigned int unused)
{
	struct zone *zone = list_zone;

	for (unsigned int i = 0; i < ops; i++) {
		struct page *page = pcp_alloc(zone, false);

		if (!page)
			return false;
		pcp_free(zone, page, false);
	}
	return true;
}

static void pcp_against_buddy(struct ktest *t)
{
	struct bench_result hot, bypassed, list;
	bool ok;

	if (!bare_result.ops) {
		bench_bare_init();
		KTEST_ASSERT_TRUE(t, bench_measure(bench_bare_pop_push, 0, 20000, &bare_result));
	}
	KTEST_ASSERT_TRUE(t, bench_measure(alloc_free_pairs, 0, 2000, &hot));
	drain_all_pages();
	pcp_bypass = true;
	ok = bench_measure(alloc_free_pairs, 0, 2000, &bypassed);
	pcp_bypass = false;
	KTEST_ASSERT_TRUE(t, ok);
	bench_print(t, "order-0 alloc+free through the hot list", &hot, "op");
	bench_print(t, "order-0 alloc+free, per-CPU lists bypassed", &bypassed, "op");
	bench_print_ratio(t, "hot list / bare free list", bench_ratio(&hot, &bare_result),
		    "a measurement; the goal on real hardware is <= 2x");
	bench_print_ratio(t, "hot list / lists bypassed", bench_ratio(&hot, &bypassed),
		    "a measurement; the goal on real hardware is <= 0.3x");
	/* Where the hot path's cycles go: the list itself, or the API. */
	{
		struct page *probe = alloc_page(GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, probe);
		list_zone = page_zone(probe);
		__free_page(probe);
	}
	ok = bench_measure(list_pop_push, 0, 2000, &list);
	KTEST_ASSERT_TRUE(t, ok);
	bench_print(t, "pcp_alloc+pcp_free alone (no API, no checks)", &list, "op");
	bench_print_ratio(t, "list alone / bare free list", bench_ratio(&list, &bare_result),
		    "for reference");
}

/* ---- several CPUs at once --------------------------------------------- */

#define SMP_OPS 2000

struct smp_bench {
	unsigned int cpus;	/* CPUs 0 .. cpus-1 work */
	int failed;
};

static void smp_worker(void *arg)
{
	struct smp_bench *b = arg;

	if (smp_processor_id() >= (int)b->cpus)
		return;
	for (unsigned int i = 0; i < SMP_OPS; i++) {
		struct page *page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);

		if (!page) {
			__atomic_fetch_add(&b->failed, 1, __ATOMIC_RELAXED);
			return;
		}
		__free_page(page);
	}
}

/*
 * Order-0 alloc+free pairs on 1, 2 and 4 CPUs at once (as many as are
 * online), all CPUs started together by one cross-call: operations per
 * second of (emulated) time.  Under TCG the vCPUs share the host's cores,
 * so this says little about scaling; it is printed all the same.
 */
static void smp_ops_per_second(struct ktest *t)
{
	unsigned long khz = arch_cpu_khz();

	for (unsigned int cpus = 1; cpus <= 4; cpus *= 2) {
		struct smp_bench b = { cpus, 0 };
		cycles_t start;
		u64 cycles, ops;

		if (cpus > num_online_cpus()) {
			ktest_printf(t, "bench: %u CPUs at once: n/a (%u online)",
				     cpus, num_online_cpus());
			continue;
		}
		start = get_cycles();
		on_each_cpu(smp_worker, &b, true);
		cycles = get_cycles() - start;
		KTEST_EXPECT_EQ(t, b.failed, 0);
		ops = (u64)cpus * SMP_OPS;
		ktest_printf(t, "bench: order-0 alloc+free on %u CPU%s at once: %llu ops/s (%llu cycles/op per CPU)",
			     cpus, cpus > 1 ? "s" : "",
			     (unsigned long long)(cycles ? ops * khz * 1000 / cycles : 0),
			     (unsigned long long)(cycles / SMP_OPS));
	}
	drain_all_pages();
}

/* ---- start-up ------------------------------------------------------- */

static unsigned long managed_pages_all(void)
{
	unsigned long sum = 0;
	struct zone *z;
	int nid;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			sum += z->managed_pages;
	return sum;
}

static void print_per_page(struct ktest *t, const char *what, u64 cycles,
			   unsigned long pages)
{
	u64 cpp = bench_tenths(cycles, pages);

	ktest_printf(t, "bench: %s: %llu cycles for %lu managed pages = %llu.%llu cycles/page",
		     what, (unsigned long long)cycles, pages,
		     (unsigned long long)(cpp / 10),
		     (unsigned long long)(cpp % 10));
}

static void mm_startup(struct ktest *t)
{
	unsigned long managed = managed_pages_all();

	ktest_printf(t, "bench: managed pages: %lu (%lu MiB)", managed,
		     managed >> (20 - PAGE_SHIFT));
	/* Every page memblock released is managed by some zone. */
	KTEST_EXPECT_EQ(t, free_all_pages, managed);
	KTEST_ASSERT_GT(t, managed, 0UL);
	KTEST_EXPECT_GT(t, free_all_cycles, 0ULL);
	KTEST_EXPECT_GE(t, mm_init_cycles, free_all_cycles);
	print_per_page(t, "memblock_free_all", free_all_cycles, managed);
	print_per_page(t, "mm_core_init", mm_init_cycles, managed);
	print_per_page(t, "mm_core_init less memblock_free_all",
		       mm_init_cycles - free_all_cycles, managed);
}

/* ---- struct page ---------------------------------------------------- */

static void struct_page_size(struct ktest *t)
{
	ktest_printf(t, "bench: sizeof(struct page): %u bytes",
		     (unsigned int)sizeof(struct page));
	/* One per 4 KiB page: 32 bytes is 0.8% of RAM. */
	KTEST_EXPECT_LE(t, sizeof(struct page), (size_t)32);
}

/* ---- the zone lock -------------------------------------------------- */

static struct page *lock_pages[LOCK_ALLOCS];

#define MAX_ZONES_ALL (MAX_NUMNODES * MAX_NR_ZONES)

/* NR_ZONE_LOCK of every zone of every online node, by node then zone. */
static void snapshot_zone_locks(unsigned long *v)
{
	struct zone *z;
	int nid, i = 0;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			v[i++] = zone_stat_read(z, NR_ZONE_LOCK);
}

static unsigned int zone_slot(const struct zone *zone)
{
	return (unsigned int)(zone->zone_pgdat->node_id * MAX_NR_ZONES +
			      zone_idx(zone));
}

/*
 * Lock acquisitions in the zones the pages came from, between two
 * snapshots; *nzones says how many zones that was.
 */
static unsigned long lock_delta(const unsigned long *before,
				const unsigned long *after, unsigned int n,
				unsigned int *nzones)
{
	bool from[MAX_ZONES_ALL] = { false };
	unsigned long delta = 0;

	for (unsigned int i = 0; i < n; i++)
		from[zone_slot(page_zone(lock_pages[i]))] = true;
	*nzones = 0;
	for (unsigned int i = 0; i < MAX_ZONES_ALL; i++)
		if (from[i]) {
			delta += after[i] - before[i];
			(*nzones)++;
		}
	return delta;
}

static void zone_lock_per_1000(struct ktest *t)
{
	unsigned long before[MAX_ZONES_ALL] = { 0 }, mid[MAX_ZONES_ALL] = { 0 },
		      after[MAX_ZONES_ALL] = { 0 };
	unsigned long free_before = (nr_free_pages() + nr_pcp_pages());
	unsigned long allocs, frees;
	unsigned int n, nzones;
	const char *zname;

	BUILD_BUG_ON(LOCK_ALLOCS != 1000);
	snapshot_zone_locks(before);
	for (n = 0; n < LOCK_ALLOCS; n++) {
		lock_pages[n] = alloc_pages(GFP_KERNEL, 0);
		if (!lock_pages[n])
			break;
	}
	snapshot_zone_locks(mid);
	zname = n ? page_zone(lock_pages[0])->name : "none";
	allocs = lock_delta(before, mid, n, &nzones);
	for (unsigned int i = n; i > 0; i--)
		__free_pages(lock_pages[i - 1], 0);
	snapshot_zone_locks(after);
	frees = lock_delta(mid, after, n, &nzones);

	if (n < LOCK_ALLOCS) {
		KTEST_FAIL(t, "alloc_pages(GFP_KERNEL, 0) returned NULL after %u pages with %lu free",
			   n, free_before);
		return;
	}
	KTEST_EXPECT_EQ(t, (nr_free_pages() + nr_pcp_pages()), free_before);
	ktest_printf(t, "bench: zone-lock acquisitions per 1000 order-0 allocs: %lu (zone %s%s; batch %d, a measurement; the goal is <= %d)",
		     allocs, zname, nzones > 1 ? " and others" : "",
		     page_zone(lock_pages[0])->pageset[raw_smp_processor_id()].pcp[0].batch,
		     1000 / page_zone(lock_pages[0])->pageset[raw_smp_processor_id()].pcp[0].batch + 1);
	ktest_printf(t, "bench: zone-lock acquisitions per 1000 order-0 frees: %lu (zone %s%s)",
		     frees, zname, nzones > 1 ? " and others" : "");
}

/* ---- the clock ------------------------------------------------------ */

/* The hypervisor's CPUID signature ("TCGTCGTCGTCG", "KVMKVMKVM"), or "". */
static void hypervisor_signature(char *sig)
{
	u32 a, b, c, d;

	sig[0] = '\0';
	cpuid(1, &a, &b, &c, &d);
	if (!(c & (1U << 31)))
		return;
	cpuid(0x40000000, &a, &b, &c, &d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
}

static void cpu_clock(struct ktest *t)
{
	unsigned long khz = arch_cpu_khz();
	char sig[13];

	hypervisor_signature(sig);
	ktest_printf(t, "bench: cpu_khz: %lu (cycles below are TSC cycles; under QEMU TCG the emulated TSC's, not a real CPU's)",
		     khz);
	ktest_printf(t, "bench: hypervisor: %s", sig[0] ? sig : "none reported");
	bench_print_lockdep(t);
	KTEST_EXPECT_GT(t, khz, 0UL);
}

static const struct ktest_case bench_page_cases[] = {
	KTEST_CASE(cpu_clock),
	KTEST_CASE(struct_page_size),
	KTEST_CASE(order0_alloc_free),
	KTEST_CASE(order3_alloc_free),
	KTEST_CASE(order9_alloc_free),
	KTEST_CASE(order0_batch),
	KTEST_CASE(bare_free_list),
	KTEST_CASE(zone_lock_per_1000),
	KTEST_CASE(pcp_against_buddy),
	KTEST_CASE(smp_ops_per_second),
	KTEST_CASE(mm_startup),
	KTEST_END,
};

static struct ktest_suite bench_page_suite = {
	.name = "bench_page",
	.cases = bench_page_cases,
};
KTEST_SUITE(bench_page_suite);
