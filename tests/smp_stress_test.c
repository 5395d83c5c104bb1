/*
 * tests/smp_stress_test.c - suite "smp_stress": every online CPU allocates
 * and frees pages at the same time, and half of what a CPU allocates is
 * freed by another CPU.
 *
 * One cross-call (on_each_cpu, wait) starts a worker on every CPU; all of
 * them meet at a rendezvous, then each runs a fixed number of operations:
 * an allocation (GFP_NOWAIT: the workers run with interrupts off and must
 * not sleep; an order drawn from mostly 0..3 and sometimes
 * up to 6, or order 0 only in the per-CPU list variants), or the release
 * of a block it holds - freed here, or (half the time) pushed to another
 * CPU, which frees it.  The pushes go through rings, one per pair of CPUs
 * (one producer, one consumer, no lock: the only locks the run contends
 * for are the allocator's own); a CPU empties the rings addressed to it at
 * every operation, and once it is done, until every CPU is done.  When
 * every ring to the others is full, the pusher waits for room, emptying
 * its own meanwhile.  On one CPU the ring is its own: still a stress test,
 * without the cross-CPU half.
 *
 * What is checked:
 *  - nobody holds a page twice: every page of every block is marked in a
 *    bitmap by pfn (atomic test-and-set) when it is handed out and cleared
 *    before it is freed; a page handed out while marked is a failure.  The
 *    owner also stamps the first and last word of its block and checks
 *    them before it frees it, so overlapping owners show there too;
 *  - allocations fail only under genuine exhaustion: before the run, the
 *    case works out from the preferred zone's free lists whether the most
 *    the run can keep out of them (the blocks held and in the rings, and
 *    every per-CPU list at its high mark, each spoiling at most one
 *    aligned block of the largest order drawn) still leaves that zone
 *    above its low watermark for the largest order.  It shrinks the
 *    holdings until that is so (a small machine); when it never is, the
 *    failures are counted and printed, not failed;
 *  - each CPU did its share: its operation count, allocations and, with
 *    two or more CPUs, frees of blocks another CPU allocated; every block
 *    allocated was freed here or pushed, every push arrived, and about
 *    half of the releases (at least a quarter) were pushes;
 *  - afterwards, every per-CPU list is well formed (count == length <=
 *    high, each page PG_pcp, free, in its zone), and after everything is
 *    freed and drain_all_pages(), check_all_zones() is clean and the free
 *    pages (buddy + per-CPU) are what they were (the leak check too).
 *
 * Randomness: each CPU has its own generator, seeded from the case's
 * ktest_random() values before the cross-call (ktest_random itself is the
 * boot CPU's).  Nothing but the boot CPU calls into ktest: the workers
 * count, and the case checks the counts afterwards.  Every wait for
 * another CPU is bounded.
 *
 * Time: with more vCPUs than host cores (QEMU's TCG, -smp 8 on a small
 * host, or a busy one), a ticket lock whose next holder's vCPU is not
 * running stalls every CPU queued behind it, so a run can crawl at one
 * zone-lock hand-off per host time slice.  Two limits keep a boot short:
 * above four CPUs the operations per CPU shrink (4/n of OPS_PER_CPU), and
 * a CPU stops after RUN_BUDGET_NS of its own run, telling the others to
 * stop too.  A run cut short that way says so; what it left (held, or in
 * a ring) the boot CPU frees alone, and every check but "each CPU did all
 * its operations" still applies.  The ops/s figures are of emulated time,
 * printed and never judged.
 */
#include "asm/page.h"
#include "kernel/arch.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/bitops.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/topology.h"
#include "tests/ktest.h"

/* Operations per CPU (allocations + releases): 200 (a hundred blocks
 * through each CPU's holding, half of them through the rings), 3000
 * under ktest.soak=1 (each ring and holding filled many times over). */
#define OPS_PER_CPU KTEST_SOAK(200u, 3000u)
#define HELD_MAX 32		/* blocks a CPU holds at most */
#define RING_MAX 32		/* blocks in flight from one CPU to another */
#define MIN_HELD 4		/* the least a small machine is given */
#define MAX_STRESS_ORDER 6
#define LIVE_PFNS (1UL << (32 - PAGE_SHIFT))	/* every pfn of 4 GiB */
#define RUN_BUDGET_NS 250000000ULL	/* a CPU's operations, at most */
#define START_WAIT_NS 5000000000ULL	/* rendezvous before the run */
#define END_WAIT_NS 20000000000ULL	/* the slowest CPU's lead at the end */
#define STAMP 0x5eed5eedUL

struct blk {
	struct page *page;
	u8 order;
	u8 cpu;		/* the CPU that allocated it */
};

/* From one CPU to another: its producer moves head, its consumer tail. */
struct ring {
	unsigned int head, tail;
	struct blk e[RING_MAX];
};

/* One CPU's state and counts; only that CPU writes it during the run. */
struct worker {
	u64 rng;
	unsigned int ops;
	unsigned int attempts, fails, fail_order[MAX_STRESS_ORDER + 1];
	unsigned int cold_allocs, cold_frees;
	unsigned int local_frees;	/* released here */
	unsigned int pushes;		/* to another CPU */
	unsigned int waits;		/* pushes that waited for room */
	unsigned int push_full;		/* no room came: freed here */
	unsigned int received;		/* taken from the rings to it */
	unsigned int cross_frees;	/* freed here, allocated elsewhere */
	unsigned int foreign_zone;	/* one_zone: a page from another zone */
	unsigned int late_start, late_end;
	unsigned int held_n;
	struct blk held[HELD_MAX];
} __aligned(64);

struct stress_cfg {
	const char *what;
	bool mixed;		/* orders 0..6; otherwise order 0 only */
	unsigned int cold_pct;	/* % of order-0 allocations and frees cold */
	bool one_zone;		/* node 0's preferred zone for every CPU */
	/* Set by the case: */
	unsigned int ops, held_cap, ring_cap, n;
	int cpus[NR_CPUS];	/* the online CPUs, n of them */
	struct zone *zone;	/* one_zone: the zone they all hammer */
	unsigned long magic;
};

static struct ring rings[NR_CPUS][NR_CPUS];	/* [to][from] */
static struct worker wk[NR_CPUS];
static unsigned long live[BITS_TO_LONGS(LIVE_PFNS)];
static int started, finished;	/* rendezvous counters */
static int cut;			/* the time budget ran out: everyone stops */
static int live_pages;		/* pages marked in live[] */
static int doubles;		/* pages handed out while marked */
static unsigned long double_pfn;
static int unmarked;		/* pages freed that were not marked */
static int bad_stamps;
static int out_of_range;	/* pfns beyond live[] */

/* ---- helpers, run on every CPU ------------------------------------------- */

static u32 rnd(struct worker *w)
{
	/* xorshift64* */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return (u32)((w->rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static unsigned int pick_order(struct worker *w)
{
	u32 r = rnd(w) % 100;

	if (r < 40)
		return 0;
	if (r < 60)
		return 1;
	if (r < 75)
		return 2;
	if (r < 90)
		return 3;
	if (r < 95)
		return 4;
	if (r < 98)
		return 5;
	return 6;
}

static void atomic_inc_int(int *p)
{
	__atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL);
}

static int atomic_read_int(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void mark_live(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	for (unsigned long i = 0; i < (1UL << order); i++) {
		if (pfn + i >= LIVE_PFNS) {
			atomic_inc_int(&out_of_range);
			continue;
		}
		if (test_and_set_bit(pfn + i, live)) {
			if (__atomic_fetch_add(&doubles, 1, __ATOMIC_ACQ_REL) == 0)
				double_pfn = pfn + i;
		}
	}
	__atomic_fetch_add(&live_pages, 1 << order, __ATOMIC_RELAXED);
}

/* Before the free: once the bits are clear the page may be anyone's. */
static void clear_live(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	for (unsigned long i = 0; i < (1UL << order); i++)
		if (pfn + i < LIVE_PFNS && !test_and_clear_bit(pfn + i, live))
			atomic_inc_int(&unmarked);
	__atomic_fetch_sub(&live_pages, 1 << order, __ATOMIC_RELAXED);
}

/* The first word of the block and the last; GFP_KERNEL pages are lowmem. */
static unsigned long *stamp_words(struct page *page, unsigned int order,
				  unsigned long **last)
{
	unsigned long *first = page_address(page);

	*last = (unsigned long *)((char *)first + (PAGE_SIZE << order)) - 1;
	return first;
}

static void stamp(const struct stress_cfg *c, struct page *page,
		  unsigned int order)
{
	unsigned long *last, *first = stamp_words(page, order, &last);
	unsigned long v = c->magic ^ page_to_pfn(page);

	WRITE_ONCE(*first, v);
	WRITE_ONCE(*last, ~v);
}

static void check_stamp(const struct stress_cfg *c, struct page *page,
			unsigned int order)
{
	unsigned long *last, *first = stamp_words(page, order, &last);
	unsigned long v = c->magic ^ page_to_pfn(page);

	if (READ_ONCE(*first) != v || READ_ONCE(*last) != ~v)
		atomic_inc_int(&bad_stamps);
}

static void free_blk(const struct stress_cfg *c, struct worker *w,
		     struct blk b, int me)
{
	check_stamp(c, b.page, b.order);
	clear_live(b.page, b.order);
	if (b.cpu != me)
		w->cross_frees++;
	if (b.order == 0 && c->cold_pct && rnd(w) % 100 < c->cold_pct) {
		w->cold_frees++;
		free_cold_page(b.page);
	} else if (b.order == 0 && (rnd(w) & 1)) {
		free_hot_page(b.page);
	} else {
		__free_pages(b.page, b.order);
	}
}

/* Frees what the others sent this CPU. */
static void drain_rings(const struct stress_cfg *c, struct worker *w, int me)
{
	for (unsigned int i = 0; i < c->n; i++) {
		struct ring *r = &rings[me][c->cpus[i]];
		unsigned int head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
		unsigned int tail = r->tail;

		if (tail == head)
			continue;
		for (; tail != head; tail++) {
			free_blk(c, w, r->e[tail % RING_MAX], me);
			w->received++;
		}
		/* The slots are free for the producer once it sees this. */
		__atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
	}
}

/* To another CPU (the first with room); false if every ring was full. */
static bool try_push(const struct stress_cfg *c, struct worker *w,
		     struct blk b, int me, unsigned int me_idx)
{
	unsigned int n = c->n, tries = n > 1 ? n - 1 : 1, r = rnd(w);

	for (unsigned int k = 0; k < tries; k++) {
		/* One CPU: to itself; else one of the others, never itself. */
		unsigned int idx = n > 1 ? (me_idx + 1 + (r + k) % (n - 1)) % n : me_idx;
		struct ring *ring = &rings[c->cpus[idx]][me];
		unsigned int head = ring->head;

		if (head - __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) >= c->ring_cap)
			continue;
		ring->e[head % RING_MAX] = b;
		__atomic_store_n(&ring->head, head + 1, __ATOMIC_RELEASE);
		w->pushes++;
		return true;
	}
	return false;
}

/*
 * Every ring to the others full: they are behind (their vCPUs descheduled,
 * say).  Wait for room, emptying our own rings meanwhile - every CPU that
 * is not done empties its rings, and none is done while we still push, so
 * room comes.  Bounded all the same: a CPU that never answers costs a
 * local free and fails the case (push_full).
 */
static void push(const struct stress_cfg *c, struct worker *w, struct blk b,
		 int me, unsigned int me_idx)
{
	u64 start;

	if (try_push(c, w, b, me, me_idx))
		return;
	w->waits++;
	start = arch_clock_ns();
	do {
		cpu_relax();
		drain_rings(c, w, me);
		if (try_push(c, w, b, me, me_idx))
			return;
		if (atomic_read_int(&cut)) {
			/* Stopping: kept, for the boot CPU to free. */
			w->held[w->held_n++] = b;
			return;
		}
	} while (arch_clock_ns() - start < END_WAIT_NS);
	w->push_full++;
	w->local_frees++;
	free_blk(c, w, b, me);
}

static void try_alloc(const struct stress_cfg *c, struct worker *w, int me)
{
	unsigned int order = c->mixed ? pick_order(w) : 0;
	gfp_t gfp = GFP_NOWAIT | __GFP_NOWARN;
	struct page *page;

	if (order == 0 && c->cold_pct && rnd(w) % 100 < c->cold_pct) {
		gfp |= __GFP_COLD;
		w->cold_allocs++;
	}
	w->attempts++;
	page = c->one_zone ? alloc_pages_node(0, gfp, order) :
			     alloc_pages(gfp, order);
	if (!page) {
		w->fails++;
		w->fail_order[order]++;
		return;
	}
	if (c->one_zone && page_zone(page) != c->zone)
		w->foreign_zone++;
	mark_live(page, order);
	stamp(c, page, order);
	w->held[w->held_n++] = (struct blk){ page, (u8)order, (u8)me };
}

/* Gives up held block i: to another CPU half the time, else freed here. */
static void release(const struct stress_cfg *c, struct worker *w, int me,
		    unsigned int me_idx, unsigned int i)
{
	struct blk b = w->held[i];

	w->held[i] = w->held[--w->held_n];
	if (rnd(w) & 1) {
		push(c, w, b, me, me_idx);
	} else {
		w->local_frees++;
		free_blk(c, w, b, me);
	}
}

static bool wait_all(int *counter, int n, u64 limit_ns)
{
	u64 start = arch_clock_ns();

	while (atomic_read_int(counter) < n) {
		if (arch_clock_ns() - start > limit_ns)
			return false;
		cpu_relax();
	}
	return true;
}

static void stress_worker(void *info)
{
	const struct stress_cfg *c = info;
	int me = smp_processor_id();
	unsigned int me_idx = c->n;
	struct worker *w = &wk[me];
	u64 start;

	for (unsigned int i = 0; i < c->n; i++)
		if (c->cpus[i] == me)
			me_idx = i;
	if (me_idx == c->n)
		return;	/* came online after the case looked: not ours */

	atomic_inc_int(&started);
	if (!wait_all(&started, (int)c->n, START_WAIT_NS))
		w->late_start++;
	start = arch_clock_ns();
	for (unsigned int op = 0; op < c->ops; op++) {
		if (atomic_read_int(&cut) ||
		    arch_clock_ns() - start > RUN_BUDGET_NS) {
			__atomic_store_n(&cut, 1, __ATOMIC_RELEASE);
			break;
		}
		drain_rings(c, w, me);
		if (w->held_n == 0 ||
		    (w->held_n < c->held_cap && rnd(w) % 100 < 55))
			try_alloc(c, w, me);
		else
			release(c, w, me, me_idx, rnd(w) % w->held_n);
		w->ops++;
	}
	while (w->held_n && !atomic_read_int(&cut))
		release(c, w, me, me_idx, w->held_n - 1);

	/*
	 * Pushed everything before saying so: then empty the rings until
	 * everyone has, and once more.  Cut short, leave the rest to the boot
	 * CPU, which frees it alone, without waiting on anybody.
	 */
	atomic_inc_int(&finished);
	start = arch_clock_ns();
	for (;;) {
		bool all = atomic_read_int(&finished) >= (int)c->n;

		if (atomic_read_int(&cut))
			break;
		drain_rings(c, w, me);
		if (all)
			break;
		if (arch_clock_ns() - start > END_WAIT_NS) {
			w->late_end++;
			break;
		}
		cpu_relax();
	}
}

/* ---- the boot CPU's side --------------------------------------------------- */

/*
 * Frees whatever a run left (a run cut short, an aborted case): the
 * blocks still held, and in *in_rings those still on their way.
 */
static unsigned int cleanup(const struct stress_cfg *c, unsigned int *in_rings)
{
	struct worker dummy = { .rng = 1 };
	unsigned int held = 0, rung = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct worker *w = &wk[cpu];

		while (w->held_n) {
			free_blk(c, &dummy, w->held[--w->held_n], cpu);
			held++;
		}
		for (int from = 0; from < NR_CPUS; from++) {
			struct ring *r = &rings[cpu][from];

			for (; r->tail != r->head; r->tail++) {
				free_blk(c, &dummy, r->e[r->tail % RING_MAX], cpu);
				rung++;
			}
		}
	}
	if (in_rings)
		*in_rings = rung;
	return held;
}

static int stress_init(struct ktest *t)
{
	memset(wk, 0, sizeof(wk));
	memset(rings, 0, sizeof(rings));
	memset(live, 0, sizeof(live));
	started = finished = cut = 0;
	live_pages = doubles = unmarked = bad_stamps = out_of_range = 0;
	double_pfn = 0;
	return 0;
}

static struct stress_cfg cur;	/* the case's run */
static bool running;		/* cur holds a run the exit must clean up */

static void stress_exit(struct ktest *t)
{
	if (running)
		cleanup(&cur, NULL);
	running = false;
}

/* Pages in free blocks of at least this order in z (under its lock). */
static unsigned long pages_in_blocks_from(struct zone *z, unsigned int order)
{
	unsigned long flags, n = 0;

	spin_lock_irqsave(&z->lock, flags);
	for (unsigned int o = order; o < MAX_ORDER; o++)
		n += z->free_area[o].nr_free << o;
	spin_unlock_irqrestore(&z->lock, flags);
	return n;
}

/* The most pages every CPU's per-CPU lists of z can hold together. */
static unsigned long pcp_capacity(struct zone *z)
{
	unsigned long n = 0;
	int cpu;

	for_each_online_cpu(cpu)
		n += (unsigned long)(z->pageset[cpu].pcp[0].high +
				     z->pageset[cpu].pcp[1].high);
	return n;
}

/*
 * Can the run exhaust the preferred zone of a CPU group?  Everything kept
 * out of z's free lists at once - per CPU its held blocks and one in
 * hand, every ring full, every per-CPU list at its high mark - each
 * spoils at most one aligned block of the largest order drawn; what is
 * left of z's blocks of that order must keep z above its low watermark
 * (which is above min: the second pass) for one more.
 */
static bool zone_fits(const struct stress_cfg *c, struct zone *z,
		      unsigned int held_cap, unsigned int ring_cap)
{
	unsigned int top = c->mixed ? MAX_STRESS_ORDER : 0;
	unsigned long n = c->n, blocks = n * (held_cap + 1) +
					  n * (n > 1 ? n - 1 : 1) * ring_cap +
					  pcp_capacity(z);
	unsigned long big = pages_in_blocks_from(z, top);
	unsigned long need = (blocks << top) + z->pages_low +
			     z->lowmem_reserve[zone_idx(z)] + (1UL << top);

	return big > need;
}

static struct zone *preferred_zone(int nid)
{
	return node_zonelist(nid, GFP_KERNEL)->zones[0];
}

/* Shrinks the holdings until no zone can run out; false if they never fit. */
static bool size_the_run(struct stress_cfg *c)
{
	c->held_cap = HELD_MAX;
	c->ring_cap = RING_MAX;
	for (;;) {
		bool fits = true;

		if (c->one_zone) {
			fits = c->zone && zone_fits(c, c->zone, c->held_cap,
						    c->ring_cap);
		} else {
			for (unsigned int i = 0; i < c->n; i++) {
				struct zone *z = preferred_zone(cpu_to_node(c->cpus[i]));

				fits = fits && z && zone_fits(c, z, c->held_cap,
							      c->ring_cap);
			}
		}
		if (fits)
			return true;
		if (c->held_cap <= MIN_HELD)
			return false;
		c->held_cap /= 2;
		c->ring_cap /= 2;
	}
}

static unsigned long free_now(void)
{
	return nr_free_pages() + nr_pcp_pages();
}

/* Every per-CPU list of every zone: count == length <= high, pages free. */
static void check_pcp_lists(struct ktest *t)
{
	struct zone *z;
	int nid, cpu, bad = 0;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			for_each_online_cpu(cpu)
				for (int j = 0; j < 2; j++) {
					struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[j];
					struct page *page;
					int len = 0;

					list_for_each_entry(page, &pcp->list, lru) {
						if (++len > pcp->high + 1)
							break;
						if (!PagePcp(page) || page_count(page) ||
						    page_zone(page) != z || PageBuddy(page))
							bad++;
					}
					KTEST_EXPECT_EQ(t, len, pcp->count);
					KTEST_EXPECT_LE(t, pcp->count, pcp->high);
				}
	KTEST_EXPECT_EQ(t, bad, 0);
}

static void run_stress(struct ktest *t, const struct stress_cfg *variant)
{
	struct stress_cfg *c = &cur;
	unsigned long before = free_now(), hits = 0, locks = 0, allocs = 0;
	unsigned int fails = 0, pushes = 0, received = 0, cross = 0, local = 0;
	unsigned int held_left, in_rings;
	unsigned int ops = 0, late = 0, foreign = 0, cold = 0, waits = 0;
	unsigned int fail_order[MAX_STRESS_ORDER + 1] = { 0 };
	char shares[8 * NR_CPUS];
	size_t len = 0;
	bool fits;
	char why[128];
	u64 ns, start;
	int cpu;

	KTEST_EXPECT_FALSE(t, pcp_bypass);
	*c = *variant;
	running = true;
	c->n = 0;
	for_each_online_cpu(cpu)
		c->cpus[c->n++] = cpu;
	c->ops = c->n > 4 ? OPS_PER_CPU * 4 / c->n : OPS_PER_CPU;
	c->magic = (unsigned long)ktest_random(t) ^ STAMP;
	c->zone = c->one_zone ? preferred_zone(0) : NULL;
	for (int i = 0; i < NR_CPUS; i++) {
		u64 hi = ktest_random(t), lo = ktest_random(t);

		wk[i].rng = (hi << 32 | lo) | 1;
	}
	fits = size_the_run(c);
	if (c->zone) {
		hits = zone_stat_read(c->zone, NR_PCP_HIT) +
		       zone_stat_read(c->zone, NR_PCP_MISS);
		locks = zone_stat_read(c->zone, NR_ZONE_LOCK);
	}

	start = arch_clock_ns();
	on_each_cpu(stress_worker, c, true);
	ns = arch_clock_ns() - start;

	for (unsigned int i = 0; i < c->n; i++) {
		struct worker *w = &wk[c->cpus[i]];

		/*
		 * Each CPU did its share - unless the run was cut, when a vCPU
		 * the host hardly ran may have done nothing (it still came to
		 * the rendezvous: late_start).
		 */
		if (!cut) {
			KTEST_EXPECT_EQ(t, w->ops, c->ops);
			KTEST_EXPECT_GT(t, w->attempts - w->fails, 0U);
			if (c->n > 1) {
				KTEST_EXPECT_GT(t, w->received, 0U);
				KTEST_EXPECT_GT(t, w->cross_frees, 0U);
			}
		}
		ops += w->ops;
		allocs += w->attempts - w->fails;
		fails += w->fails;
		pushes += w->pushes;
		received += w->received;
		cross += w->cross_frees;
		local += w->local_frees;
		late += w->late_start + w->late_end + w->push_full;
		foreign += w->foreign_zone;
		cold += w->cold_allocs + w->cold_frees;
		waits += w->waits;
		for (unsigned int o = 0; o <= MAX_STRESS_ORDER; o++)
			fail_order[o] += w->fail_order[o];
		len += (size_t)snprintf(shares + len, sizeof(shares) - len, " %u",
					cut ? w->ops : w->attempts - w->fails);
		if (len >= sizeof(shares))
			len = sizeof(shares) - 1;
	}
	KTEST_EXPECT_EQ(t, late, 0U);
	KTEST_EXPECT_GT(t, ops, 0U);
	/* What a cut run left: still held, still in a ring.  Freed here. */
	held_left = cleanup(c, &in_rings);
	if (!cut) {
		KTEST_EXPECT_EQ(t, held_left, 0U);
		KTEST_EXPECT_EQ(t, in_rings, 0U);
	}
	KTEST_EXPECT_EQ(t, out_of_range, 0);
	/* Nobody got a page somebody else held; every owner found its stamps. */
	if (doubles)
		KTEST_FAIL(t, "%d pages handed out while held, the first pfn %#lx",
			   doubles, double_pfn);
	KTEST_EXPECT_EQ(t, unmarked, 0);
	KTEST_EXPECT_EQ(t, bad_stamps, 0);
	KTEST_EXPECT_EQ(t, live_pages, 0);
	/* Every block allocated was freed here, or pushed and freed there. */
	KTEST_EXPECT_EQ(t, (unsigned long)local + pushes + held_left, allocs);
	KTEST_EXPECT_EQ(t, received + in_rings, pushes);
	if (c->n > 1) {
		/* Only blocks from others arrive, and about half go: >= a quarter. */
		KTEST_EXPECT_EQ(t, cross, received);
		if (allocs - held_left >= 200)
			KTEST_EXPECT_GE(t, 4UL * pushes, allocs - held_left);
	} else {
		KTEST_EXPECT_EQ(t, cross, 0U);
	}
	if (c->cold_pct)
		KTEST_EXPECT_GT(t, cold, 0U);

	if (fits) {
		KTEST_EXPECT_EQ(t, fails, 0U);
		KTEST_EXPECT_EQ(t, foreign, 0U);
		if (c->zone)	/* every allocation went through a per-CPU list */
			KTEST_EXPECT_EQ(t, zone_stat_read(c->zone, NR_PCP_HIT) +
					   zone_stat_read(c->zone, NR_PCP_MISS) - hits,
					allocs);
	} else {
		ktest_printf(t, "small machine: the run can exhaust memory; %u of %lu allocations failed (by order 0..6: %u %u %u %u %u %u %u)",
			     fails, allocs + fails, fail_order[0], fail_order[1],
			     fail_order[2], fail_order[3], fail_order[4],
			     fail_order[5], fail_order[6]);
	}

	check_pcp_lists(t);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	if (check_all_zones(why, sizeof(why)))
		KTEST_FAIL(t, "zone checker: %s", why);
	KTEST_EXPECT_EQ(t, free_now(), before);

	ktest_printf(t, "stress: %s on %u CPU%s: %u ops in %llu ms = %llu ops/s (%llu per CPU), <= %u blocks held and %u in each ring",
		     c->what, c->n, c->n > 1 ? "s" : "", ops,
		     (unsigned long long)(ns / 1000000),
		     (unsigned long long)(ns ? (u64)ops * 1000000000ULL / ns : 0),
		     (unsigned long long)(ns ? (u64)ops * 1000000000ULL / ns / c->n : 0),
		     c->held_cap, c->ring_cap);
	if (cut)
		ktest_printf(t, "stress: cut short by the %llu ms budget (a slow or overcommitted host): ops per CPU:%s; %u blocks were still held, %u in rings",
			     RUN_BUDGET_NS / 1000000, shares, held_left, in_rings);
	else
		ktest_printf(t, "stress: %lu allocations (per CPU:%s), %u failed, %u freed on another CPU, %u pushes waited for room",
			     allocs, shares, fails, cross, waits);
	if (c->zone && allocs)
		ktest_printf(t, "stress: %s: %lu zone-lock acquisitions, %lu per 1000 allocations",
			     c->zone->name,
			     zone_stat_read(c->zone, NR_ZONE_LOCK) - locks,
			     (zone_stat_read(c->zone, NR_ZONE_LOCK) - locks) * 1000 / allocs);
}

static void mixed_orders_freed_across_cpus(struct ktest *t)
{
	static const struct stress_cfg c = { .what = "orders 0..6", .mixed = true };

	run_stress(t, &c);
}

static void order0_one_zone_per_cpu_lists(struct ktest *t)
{
	static const struct stress_cfg c = { .what = "order 0, one zone",
					     .one_zone = true };

	run_stress(t, &c);
}

static void order0_hot_and_cold(struct ktest *t)
{
	static const struct stress_cfg c = { .what = "order 0, hot and cold",
					     .one_zone = true, .cold_pct = 30 };

	run_stress(t, &c);
}

static const struct ktest_case smp_stress_cases[] = {
	KTEST_CASE(mixed_orders_freed_across_cpus),
	KTEST_CASE(order0_one_zone_per_cpu_lists),
	KTEST_CASE(order0_hot_and_cold),
	KTEST_END,
};

static const struct ktest_suite smp_stress_suite = {
	.name = "smp_stress",
	.init = stress_init,
	.exit = stress_exit,
	.cases = smp_stress_cases,
};
KTEST_SUITE(smp_stress_suite);
