/*
 * tests/reclaim_test.c - suite "reclaim": direct reclaim, kswapd and the
 * page allocator's retry policy (mm/vmscan.c, mm/page_alloc.c), driven
 * by a test cache of reclaimable pages (tests/reclaim_cache.c) whose
 * three shrinkers - needing nothing, __GFP_IO, __GFP_IO | __GFP_FS -
 * count every call.
 *
 * Every case starts from the floor: GFP_KERNEL has taken all it may from
 * its zonelist (every node's lowmem zones; HighMem is never touched),
 * biggest blocks first with reclaim off, and the suite holds what it
 * took; then some pages of the home zone (the zonelist's first) are
 * handed back and put into the cache, and the rest taken again.  The
 * floor is exact, and checked: the last failing allocation drained the
 * per-CPU lists, so the home zone has exactly pages_min free pages and
 * every other zone its min plus its lowmem_reserve; what reclaim frees
 * goes back to the home zone.
 *
 * The cases:
 *  - gfp_kernel_succeeds_by_reclaiming: GFP_KERNEL fails at the floor
 *    without reclaim; with it, order 0 succeeds after exactly one pass
 *    and no sleep, the pages coming from the cache; order 3 too.
 *  - nofs_and_noio_skip_the_shrinkers_they_forbid: GFP_NOFS, then
 *    GFP_NOIO, allocations of the mode until one fails: the classes the
 *    mode allows are emptied by direct reclaim, the others never called
 *    (not even to count) and left whole, one pass per allocation.  A
 *    shrinker called against its needs ends the case at once, with the
 *    mode and the shrinker named.
 *  - big_shrinker_scanned_first: light pressure (one order-0 allocation)
 *    with a small class and a big one: the big one is scanned first and
 *    gives the pages, one batch, in the very pass the proportional scan
 *    (priority, seeks, credit carried) says it has a batch due; the small
 *    one, though first on the list, is only asked to count, once a pass
 *    (2.6: each shrinker scans in proportion to what it holds).
 *  - a_pass_stops_at_its_target: an order-10 allocation's one pass over a
 *    class with credit for many batches frees its target, 2^10 pages,
 *    and less than a batch more.
 *  - atomic_never_reclaims_nor_sleeps: at the floor GFP_ATOMIC takes a
 *    page GFP_KERNEL may not; with reclaim on it goes down to its own
 *    floor (min halved, less a quarter) and fails there, never calling
 *    reclaim or a shrinker, never sleeping, waking kswapd.
 *  - kswapd_wakes_below_low_and_stops_at_high: one page above min wakes
 *    the node's kswapd, which frees the zone to pages_high, by no more
 *    than one shrinker batch (plus per-CPU list slop), and stops.
 *  - noretry_fails_fast, repeat_retries_then_may_fail: the number of
 *    passes and of sleeps is fixed by the retry policy for NORETRY, the
 *    default (order <= 3 and above), and REPEAT, given how many pages
 *    the cache holds: fewer than the order's watermark needs; one sleep
 *    is timed, uncapped (HZ/50).  REPEAT's count over all passes is seen
 *    with a GFP_DMA allocation (at ZONE_DMA's floor, where the pages
 *    reclaimed, all of the home zone, are no use to it) from a class
 *    that frees a few pages a pass (its quota).
 *  - nofail_waits_for_a_free: a thread's NOFAIL allocation reclaims in
 *    vain and sleeps between retries until the case frees a block.
 *  - nofail_memalloc_waits_for_a_free: the same for a thread running
 *    with PF_MEMALLOC (a reclaimer) once even its reserve is gone: it
 *    never reclaims, but sleeps and retries rather than get NULL.
 *  - fast_path_keeps_watermarks_and_wakes_kswapd: with this CPU's hot
 *    list above its low mark, an order-0 GFP_KERNEL allocation in a zone
 *    between min and low wakes kswapd; at min (counting the list's pages)
 *    it fails, and GFP_NOWAIT fails at its own floor, min less a quarter.
 *  - reclaimers_share_the_shrinker_list: while a thread's reclaim is held
 *    inside a shrinker, the case's reclaim still calls that shrinker;
 *    an unregister waits for the thread, and meanwhile a reclaim pass
 *    finds the list taken (try_to_free_pages returns 1, contended).
 *  - bench_reclaim_cost: cycles of an order-0 allocation and free with
 *    memory plentiful, and with one pass of direct reclaim.
 *
 * The oracles:
 *  - reclaim_stats.direct_calls: one per pass of direct reclaim, by any
 *    task; only the case (or its one helper thread) allocates.
 *  - the allocating task's io_schedule_timeout() waits (blkio_count):
 *    congestion_wait() is the only place the allocator sleeps, so they
 *    count its sleeps between retries, each once even when the tick
 *    ends it before the task is switched out (which a count of voluntary
 *    switches, nvcsw, would miss).  Where a case must not sleep at all,
 *    its nvcsw must not move either.  The cases count the sleeps, not
 *    their length, so init caps each at one jiffy
 *    (congestion_wait_limit()) and exit puts the HZ/50 back.  The global congestion_waits is no oracle for one
 *    allocation: the kswapd that allocation woke adds its own waits.
 *  - the cache's counts, by class and by caller (RC_DIRECT, RC_KSWAPD),
 *    and its contract checks: a shrinker called with a mask lacking what
 *    it needs records a violation, and one called where it may not sleep
 *    (a spinlock held) an atomic call; exit fails the case on any the
 *    case did not report itself.  Each shrinker's skipped count (the
 *    passes the mask kept it out of).
 *  - the zone's free pages against its own pages_min/low/high.
 *
 * kswapd: init waits (bounded) for every kswapd to be idle and sets
 * reclaim_disabled, which cases clear only where they want reclaim, so
 * kswapd sleeps while the floor is built.  Any allocation below
 * pages_low wakes it; it is kept out of the cache except in the kswapd
 * case, or it would race the direct-reclaim cases for the pages and for
 * the shrinker list, which reclaim only try-locks.  Its passes with no
 * progress sleep HZ/10; where a case only waits for kswapd to finish,
 * it wakes kswapd from such a nap (kswapd_idle_nudged), which ends it as
 * any wake-up ends a schedule_timeout(), so no case waits out naps.
 *
 * nofail_waits_for_a_free runs its allocation in a kthread bound to CPU 0
 * (the case's CPU, so the same zonelist) that only EXPECTs; exit gives
 * the memory back first, then stops it.  Every wait is bounded.  What a
 * case takes is on the held list or in the cache, both emptied by exit,
 * so an ASSERT leaks nothing.
 */
#include "asm/timex.h"
#include "kernel/sched.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/topology.h"
#include "mm/vmscan.h"
#include "tests/ktest.h"
#include "tests/reclaim_cache.h"

#define QUIET (__GFP_NORETRY | __GFP_NOWARN)
#define FILL_GFP (GFP_KERNEL | QUIET)
/* mm/vmscan.c: the most pages one shrink() call is asked to free. */
#define SHRINK_BATCH 128UL
/* mm/vmscan.c: the first priority of a reclaim pass (it falls to 0). */
#define DEF_PRIORITY 12
#define WAIT_JIFFIES (5 * HZ)
#define BENCH_SAMPLES 15	/* bench_reclaim_cost's, under ktest.soak=1 */
#define BENCH_SAMPLES_SHORT 5	/* and by default */

static struct reclaim_cache cache;
/* Violations a case has reported itself: exit reports only new ones. */
static unsigned long violations_reported[RC_NR_CLASSES];
/* Atomic calls exit has reported already. */
static unsigned long atomic_reported[RC_NR_CLASSES];

/* ---- pages held by the case --------------------------------------------- */

static LIST_HEAD(held);

static void hold(struct page *page, unsigned int order)
{
	page->owner_data[0] = order;
	list_add_tail(&page->lru, &held);
}

static void unhold(struct page *page)
{
	unsigned int order = (unsigned int)page->owner_data[0];

	list_del(&page->lru);
	page->owner_data[0] = 0;
	__free_pages(page, order);
}

static void release_held(void)
{
	while (!list_empty(&held))
		unhold(list_first_entry(&held, struct page, lru));
}

/* ---- the floor ------------------------------------------------------------ */

static void reclaim_on(void)
{
	WRITE_ONCE(reclaim_disabled, false);
}

static void reclaim_off(void)
{
	WRITE_ONCE(reclaim_disabled, true);
}

/* The zone GFP_KERNEL prefers here; the init thread stays on CPU 0. */
static struct zone *home_zone(void)
{
	return node_zonelist(numa_node_id(), GFP_KERNEL)->zones[0];
}

/*
 * Takes everything GFP_KERNEL may take, biggest blocks first.  Reclaim
 * must be off: then each order fails after one pass of the slow path,
 * whose drain of the per-CPU lists leaves every zone of the zonelist at
 * its floor exactly.
 */
static void squeeze_gfp(gfp_t gfp)
{
	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while ((page = alloc_pages(gfp, (unsigned int)order)))
			hold(page, (unsigned int)order);
	}
}

static void squeeze(void)
{
	squeeze_gfp(FILL_GFP);
}

/* Frees one held block of zone z of this order that fits in room, if any. */
static unsigned long give_back_one(struct zone *z, unsigned int order,
				   unsigned long room)
{
	struct page *page;

	if ((1UL << order) > room)
		return 0;
	list_for_each_entry(page, &held, lru) {
		if (page->owner_data[0] == order && page_zone(page) == z) {
			unhold(page);
			return 1UL << order;
		}
	}
	return 0;
}

/*
 * Frees held blocks of zone z until at least nr pages are back: blocks
 * that fit first, largest first, then the smallest that is left.
 */
static unsigned long give_back(struct zone *z, unsigned long nr)
{
	unsigned long freed = 0, got;

	for (int order = MAX_ORDER - 1; order >= 0 && freed < nr; order--)
		while (freed < nr &&
		       (got = give_back_one(z, (unsigned int)order, nr - freed)))
			freed += got;
	for (unsigned int order = 0; order < MAX_ORDER && freed < nr; order++)
		freed += give_back_one(z, order, ~0UL);
	return freed;
}

static void assert_floor(struct ktest *t)
{
	struct zone *z = home_zone();

	KTEST_ASSERT_EQ(t, z->free_pages, z->pages_min);
	KTEST_ASSERT_EQ(t, nr_pcp_pages(), 0UL);
}

static unsigned long total(const unsigned long nr[RC_NR_CLASSES])
{
	unsigned long n = 0;

	for (int c = 0; c < RC_NR_CLASSES; c++)
		n += nr[c];
	return n;
}

/*
 * Reclaim off: squeezes, puts nr[c] pages of the home zone in each class
 * of the cache, squeezes again.  Skips when the home zone cannot spare
 * that much.
 */
static void prepare(struct ktest *t, const unsigned long nr[RC_NR_CLASSES])
{
	unsigned long want = total(nr);

	reclaim_off();
	squeeze();
	if (give_back(home_zone(), want) < want)
		ktest_skip(t, "the home zone has too few pages above its floor for the cache");
	for (int c = 0; c < RC_NR_CLASSES; c++)
		KTEST_ASSERT_EQ(t, reclaim_cache_fill(&cache, c, nr[c], FILL_GFP),
				nr[c]);
	squeeze();
	assert_floor(t);
}

/* ---- counters ---------------------------------------------------------------- */

struct snap {
	struct reclaim_stats rs;
	struct reclaim_cache_stats cs;
	unsigned long nvcsw;
	unsigned long blkio;
};

static void snap(struct snap *s)
{
	get_reclaim_stats(&s->rs);
	reclaim_cache_stats(&cache, &s->cs);
	s->nvcsw = READ_ONCE(current->nvcsw);
	s->blkio = READ_ONCE(current->blkio_count);
}

#define DELTA(a, b, field) ((b)->field - (a)->field)

static unsigned long freed_by(const struct snap *a, const struct snap *b,
			      enum reclaim_caller who)
{
	unsigned long n = 0;

	for (int c = 0; c < RC_NR_CLASSES; c++)
		n += DELTA(a, b, cs.calls[c][who].freed);
	return n;
}

static unsigned long calls_by(const struct snap *a, const struct snap *b,
			      enum reclaim_caller who)
{
	unsigned long n = 0;

	for (int c = 0; c < RC_NR_CLASSES; c++)
		n += DELTA(a, b, cs.calls[c][who].scans) +
		     DELTA(a, b, cs.calls[c][who].counts);
	return n;
}

/* ---- kswapd ---------------------------------------------------------------- */

/* Asleep in its wait_event() with no wake-up pending, not balancing. */
static bool kswapd_idle(pg_data_t *pgdat)
{
	return !READ_ONCE(pgdat->kswapd_wanted) &&
	       !READ_ONCE(pgdat->kswapd_active) &&
	       waitqueue_active(&pgdat->kswapd_wait);
}

/* Between two balancing passes, in congestion_wait(): its only sleep there. */
static bool kswapd_napping(pg_data_t *pgdat)
{
	return READ_ONCE(pgdat->kswapd_active) &&
	       !READ_ONCE(pgdat->kswapd->on_rq);
}

/*
 * Idle, waking it from a nap first: where a case only waits for kswapd to
 * finish, the HZ/10 it naps after a pass that freed nothing is just time
 * (most of the suite's, once).  wake_up_process() ends the nap early, as
 * any wake-up ends a schedule_timeout(); kswapd then re-checks what it
 * checks after a nap (its shortfall, reclaim_disabled) and goes on or
 * stops exactly as it would have after the full nap.  A wake-up that
 * finds it elsewhere (on the shrinker's mutex, or back in its
 * wait_event()) is a spurious one, which those loops absorb.
 */
static bool kswapd_idle_nudged(pg_data_t *pgdat)
{
	if (kswapd_napping(pgdat))
		wake_up_process(pgdat->kswapd);
	return kswapd_idle(pgdat);
}

static bool all_kswapds_idle(void)
{
	int nid;
	bool idle = true;

	for_each_online_node(nid)
		if (NODE_DATA(nid)->kswapd &&
		    !kswapd_idle_nudged(NODE_DATA(nid)))
			idle = false;
	return idle;
}

/*
 * Waits for cond, timeout jiffies at most; its last value.  What the
 * cases wait for (a kswapd that goes back to sleep or naps, the NOFAIL
 * helper that sleeps) mostly comes true within microseconds of that task
 * running, and kswapd0 and the helper share the case's CPU: so
 * ktest_wait_until() yields between looks for its first jiffies before it
 * sleeps a jiffy at a time, where a sleep after every look cost a jiffy a
 * wait.
 */
#define wait_until(cond, timeout) ktest_wait_until(cond, timeout)

static bool all_kswapds_quiet(void)
{
	int nid;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		if (pgdat->kswapd && !kswapd_idle(pgdat) &&
		    !kswapd_napping(pgdat))
			return false;
	}
	return true;
}

/*
 * Reclaim on, at the floor, for a direct-reclaim step.  Direct reclaim
 * only try-locks the shrinker list, so a kswapd holding it - woken by
 * the very allocation under test, and preempted or stalled in its first
 * passes - can leave a whole pass of direct reclaim with nothing.  So
 * every kswapd the step would wake is woken first (a GFP_ATOMIC page
 * taken and given back wakes them without reclaiming) and waited for
 * until it naps HZ/10 between two passes, holding nothing; the cache
 * tells it it has nothing to free, so it naps again after each pass.
 */
static void quiet_kswapds(struct ktest *t)
{
	struct page *page;

	reclaim_on();
	page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	__free_page(page);
	drain_all_pages();
	KTEST_ASSERT_TRUE(t, wait_until(all_kswapds_quiet(), WAIT_JIFFIES));
	assert_floor(t);
}

/* ---- the helper thread ----------------------------------------------------- */

struct nofail_helper {
	struct task_struct *task;
	struct completion go, done;
	bool cancel;		/* exit: do not allocate, just finish */
	bool allocating;	/* blkio below is set */
	unsigned long blkio;	/* its congestion waits before allocating */
	bool got_page;
	bool memalloc;		/* allocates with PF_MEMALLOC */
};

static struct nofail_helper nofail;

static int nofail_fn(void *arg)
{
	struct nofail_helper *h = arg;

	wait_for_completion(&h->go);
	if (!READ_ONCE(h->cancel)) {
		struct page *page;

		h->blkio = current->blkio_count;
		if (h->memalloc)
			current->flags |= PF_MEMALLOC;
		WRITE_ONCE(h->allocating, true);
		page = alloc_pages(GFP_KERNEL | __GFP_NOFAIL, 0);
		current->flags &= ~PF_MEMALLOC;
		WRITE_ONCE(h->got_page, page != NULL);
		if (page)
			__free_page(page);
	}
	complete(&h->done);
	ktest_park_until_stopped();
	return 0;
}

/* Exit: the helper finishes (memory is back by now) and is reaped. */
static void stop_nofail_helper(struct ktest *t)
{
	struct nofail_helper *h = &nofail;

	if (!h->task)
		return;
	WRITE_ONCE(h->cancel, true);
	complete_all(&h->go);
	if (wait_for_completion_timeout(&h->done, WAIT_JIFFIES))
		kthread_stop(h->task);
	else
		KTEST_FAIL(t, "the NOFAIL helper did not finish within %d s of memory coming back",
			   WAIT_JIFFIES / HZ);
	h->task = NULL;
}

/* ---- suite set-up ------------------------------------------------------------ */

static long congestion_wait_was;

static int reclaim_init(struct ktest *t)
{
	reclaim_off();
	INIT_LIST_HEAD(&held);
	memset(&nofail, 0, sizeof(nofail));
	memset(violations_reported, 0, sizeof(violations_reported));
	memset(atomic_reported, 0, sizeof(atomic_reported));
	kmem_cache_reap_all();
	if (!wait_until(all_kswapds_idle(), WAIT_JIFFIES)) {
		ktest_printf(t, "kswapd still busy after %d s", WAIT_JIFFIES / HZ);
		reclaim_on();
		return -1;
	}
	if (reclaim_cache_init(&cache)) {
		reclaim_on();
		return -1;
	}
	congestion_wait_was = congestion_wait_limit(1);
	return 0;
}

static void reclaim_exit(struct ktest *t)
{
	struct reclaim_cache_stats st;
	char mode[GFP_DESCRIBE_LEN];

	reclaim_off();
	reclaim_cache_stats(&cache, &st);
	for (int c = 0; c < RC_NR_CLASSES; c++) {
		if (st.violations[c] <= violations_reported[c])
			continue;
		gfp_describe(mode, sizeof(mode), st.bad_gfp[c]);
		KTEST_FAIL(t, "the %s shrinker was called %lu times with a mask lacking what it needs (first mode:%#x(%s))",
			   reclaim_class_names[c], st.violations[c],
			   st.bad_gfp[c], mode);
	}
	for (int c = 0; c < RC_NR_CLASSES; c++) {
		unsigned long n = st.atomic_calls[c] - atomic_reported[c];

		if (n)
			KTEST_FAIL(t, "the %s shrinker was called %lu times in atomic context (a spinlock held, or preemption or interrupts off) with a mask that lets it sleep: reclaim must hold no spinlock around a shrinker",
				   reclaim_class_names[c], n);
		atomic_reported[c] = st.atomic_calls[c];
	}
	reclaim_cache_destroy(&cache);
	pcp_bypass = false;
	current->flags &= ~PF_MEMALLOC;
	release_held();
	stop_nofail_helper(t);
	congestion_wait_limit(congestion_wait_was);
	reclaim_on();
	if (!wait_until(all_kswapds_idle(), WAIT_JIFFIES))
		KTEST_FAIL(t, "kswapd still busy %d s after the case gave its memory back",
			   WAIT_JIFFIES / HZ);
}

/* ---- direct reclaim ---------------------------------------------------------- */

static void gfp_kernel_succeeds_by_reclaiming(struct ktest *t)
{
	static const unsigned long fill[RC_NR_CLASSES] = { 128, 128, 256 };
	struct zone *z = home_zone();
	struct snap a, b;
	struct page *page;
	unsigned long freed;

	prepare(t, fill);
	/* Without reclaim GFP_KERNEL gets nothing here. */
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	if (page)
		hold(page, 0);
	KTEST_ASSERT_NULL(t, page);

	quiet_kswapds(t);
	snap(&a);
	page = alloc_pages(GFP_KERNEL, 0);
	snap(&b);
	KTEST_ASSERT_NOT_NULL(t, page);
	hold(page, 0);
	/* One pass of direct reclaim, pages back, the page found at once. */
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_calls), 1UL);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, nvcsw), 0UL);
	freed = freed_by(&a, &b, RC_DIRECT);
	KTEST_EXPECT_GT(t, freed, 0UL);
	KTEST_EXPECT_GE(t, DELTA(&a, &b, rs.direct_reclaimed), freed);
	KTEST_EXPECT_EQ(t, freed_by(&a, &b, RC_KSWAPD), 0UL);
	KTEST_EXPECT_EQ(t, reclaim_cache_pages(&cache), total(fill) - freed);
	KTEST_EXPECT_PTR_EQ(t, page_zone(page), z);
	ktest_printf(t, "order 0: one pass freed %lu pages (NONE %lu, IO %lu, FS %lu)",
		     freed, DELTA(&a, &b, cs.calls[RC_NONE][RC_DIRECT].freed),
		     DELTA(&a, &b, cs.calls[RC_IO][RC_DIRECT].freed),
		     DELTA(&a, &b, cs.calls[RC_FS][RC_DIRECT].freed));

	/* Order 3 from the floor again: pages the cache frees merge. */
	reclaim_off();
	squeeze();
	assert_floor(t);
	quiet_kswapds(t);
	snap(&a);
	page = alloc_pages(GFP_KERNEL, 3);
	snap(&b);
	KTEST_ASSERT_NOT_NULL(t, page);
	hold(page, 3);
	KTEST_EXPECT_GE(t, DELTA(&a, &b, rs.direct_calls), 1UL);
	KTEST_EXPECT_GT(t, freed_by(&a, &b, RC_DIRECT), 0UL);
	KTEST_EXPECT_EQ(t, page_to_pfn(page) & 7, 0UL);
	KTEST_EXPECT_PTR_EQ(t, page_zone(page), z);
	ktest_printf(t, "order 3: passes of reclaim: %lu, pages freed: %lu",
		     DELTA(&a, &b, rs.direct_calls), freed_by(&a, &b, RC_DIRECT));
}

/*
 * From the floor with nr[] pages in the cache: allocations of mode gfp
 * (reclaim on, the floor rebuilt before each) until one fails.  The
 * classes the mask allows must be emptied by direct reclaim, the others
 * never called by it, and the allocation that found nothing left fails
 * after its one pass: one direct call per allocation, and no sleep.
 */
/* What a class's shrinker needs, for messages. */
static const char *const class_needs_names[RC_NR_CLASSES] = {
	"nothing", "__GFP_IO", "__GFP_IO and __GFP_FS",
};

/*
 * False, after one failure line naming mode and shrinker, when direct
 * reclaim for an allocation of mode gfp (named mode) called a shrinker
 * whose needs gfp lacks since the snapshot a.
 */
static bool no_violation(struct ktest *t, const char *mode, gfp_t gfp,
			 const struct snap *a, const struct snap *b)
{
	char words[GFP_DESCRIBE_LEN];

	for (int c = RC_NR_CLASSES - 1; c >= 0; c--) {
		unsigned long n = DELTA(a, b, cs.violations[c]);

		if (!n)
			continue;
		gfp_describe(words, sizeof(words), gfp);
		KTEST_FAIL(t, "a %s allocation (mode:%#x(%s)) entered the %s shrinker (%lu call%s), which needs %s: reclaim must skip it for this caller",
			   mode, gfp, words, reclaim_class_names[c], n, n == 1 ? "" : "s",
			   class_needs_names[c]);
		for (int i = 0; i < RC_NR_CLASSES; i++)
			violations_reported[i] = b->cs.violations[i];
		return false;
	}
	return true;
}

static void reclaim_only_allowed(struct ktest *t, const char *mode, gfp_t gfp,
				 const unsigned long nr[RC_NR_CLASSES],
				 const bool allowed[RC_NR_CLASSES])
{
	unsigned long allowed_pages = 0, ok = 0, calls = 0, sleeps = 0;
	unsigned long skipped[RC_NR_CLASSES];
	struct page *page = NULL;
	struct snap a, b, s0, s1;
	char words[GFP_DESCRIBE_LEN];

	prepare(t, nr);
	for (int c = 0; c < RC_NR_CLASSES; c++) {
		if (allowed[c])
			allowed_pages += nr[c];
		skipped[c] = READ_ONCE(cache.cls[c].shrinker.skipped);
	}
	snap(&a);
	/* Each success freed a page at least: a bounded loop. */
	for (unsigned long i = 0; i <= allowed_pages; i++) {
		quiet_kswapds(t);
		snap(&s0);
		page = alloc_pages(gfp | __GFP_NOWARN, 0);
		snap(&s1);
		reclaim_off();
		if (page)
			hold(page, 0);
		if (!no_violation(t, mode, gfp | __GFP_NOWARN, &s0, &s1))
			return;
		calls += DELTA(&s0, &s1, rs.direct_calls);
		sleeps += DELTA(&s0, &s1, blkio);
		if (!page)
			break;
		ok++;
		squeeze();
	}
	snap(&b);
	KTEST_EXPECT_NULL(t, page);
	KTEST_EXPECT_GT(t, ok, 0UL);
	KTEST_EXPECT_EQ(t, calls, ok + 1);
	KTEST_EXPECT_EQ(t, sleeps, 0UL);
	for (int c = 0; c < RC_NR_CLASSES; c++) {
		const struct reclaim_calls *ca = &a.cs.calls[c][RC_DIRECT];
		const struct reclaim_calls *cb = &b.cs.calls[c][RC_DIRECT];
		unsigned long skips = READ_ONCE(cache.cls[c].shrinker.skipped) -
				      skipped[c];

		if (allowed[c]) {
			KTEST_EXPECT_EQ(t, b.cs.nr_pages[c], 0UL);
			KTEST_EXPECT_GT(t, cb->scans, ca->scans);
			KTEST_EXPECT_EQ(t, cb->freed - ca->freed, nr[c]);
			KTEST_EXPECT_EQ(t, cb->last_gfp, gfp | __GFP_NOWARN);
			KTEST_EXPECT_EQ(t, skips, 0UL);
		} else {
			/* Skipped, and counted so: not even asked to count. */
			KTEST_EXPECT_EQ(t, b.cs.nr_pages[c], nr[c]);
			KTEST_EXPECT_EQ(t, cb->scans, ca->scans);
			KTEST_EXPECT_EQ(t, cb->counts, ca->counts);
			KTEST_EXPECT_GT(t, skips, 0UL);
		}
		KTEST_EXPECT_EQ(t, b.cs.violations[c], 0UL);
	}
	gfp_describe(words, sizeof(words), gfp);
	ktest_printf(t, "mode:%#x(%s): allocations served by reclaim: %lu, then NULL with %lu pages left in the classes it may not shrink",
		     gfp, words, ok, reclaim_cache_pages(&cache));
}

static void nofs_and_noio_skip_the_shrinkers_they_forbid(struct ktest *t)
{
	/* NONE below SWAP_CLUSTER_MAX: NOFS's first pass must go on to IO. */
	static const unsigned long nofs_nr[RC_NR_CLASSES] = { 8, 128, 128 };
	static const bool nofs_allowed[RC_NR_CLASSES] = { true, true, false };
	static const unsigned long noio_nr[RC_NR_CLASSES] = { 64, 128, 128 };
	static const bool noio_allowed[RC_NR_CLASSES] = { true, false, false };

	reclaim_only_allowed(t, "GFP_NOFS", GFP_NOFS, nofs_nr, nofs_allowed);
	if (t->failed)
		return;
	/* The cache emptied (and its pages taken again by the next floor). */
	reclaim_cache_release_all(&cache);
	reclaim_only_allowed(t, "GFP_NOIO", GFP_NOIO, noio_nr, noio_allowed);
}

/*
 * The proportional scan (the hand-out's What to write 2) of a shrinker
 * holding n objects, with seeks, that carries no credit in: how many
 * priorities a pass of direct reclaim goes through, from DEF_PRIORITY
 * down, until the shrinker has a whole batch due (0: none by priority 0).
 * At priority p it is owed (n >> p) * DEFAULT_SEEKS / seeks + 1 more,
 * its credit never above twice what it holds.
 */
static int priorities_to_a_batch(unsigned long n, int seeks)
{
	unsigned long credit = 0;

	for (int p = DEF_PRIORITY; p >= 0; p--) {
		credit += (n >> p) * DEFAULT_SEEKS / (unsigned long)seeks + 1;
		if (credit > 2 * n)
			credit = 2 * n;
		if (credit >= SHRINK_BATCH)
			return DEF_PRIORITY - p + 1;
	}
	return 0;
}

/* The same for a shrinker smaller than a batch: until all of it is due. */
static int priorities_to_all(unsigned long n, int seeks)
{
	unsigned long credit = 0;

	for (int p = DEF_PRIORITY; p >= 0; p--) {
		credit += (n >> p) * DEFAULT_SEEKS / (unsigned long)seeks + 1;
		if (credit >= n)
			return DEF_PRIORITY - p + 1;
	}
	return 0;
}

/*
 * Light pressure: one order-0 GFP_KERNEL allocation, one pass of direct
 * reclaim, with a small class (NONE, first on the shrinker list) and a
 * big one (FS, whose objects cost twice the default to re-create:
 * seeks 2 * DEFAULT_SEEKS).  Each shrinker scans in proportion to what
 * it holds, scaled by its seeks, its credit carried from priority to
 * priority, so the big one reaches a batch while the small one has
 * scanned nothing yet; that batch meets the target and the pass stops.
 * Exactly: both are asked to count once at each priority until the one
 * at which FS first has a batch due (priorities_to_a_batch), where FS
 * gives one batch, its only scan.  The cache is registered anew first,
 * so that no credit carried from earlier cases counts.
 */
static void big_shrinker_scanned_first(struct ktest *t)
{
	static const unsigned long fill[RC_NR_CLASSES] = {
		SHRINK_BATCH / 2, 0, 8 * SHRINK_BATCH
	};
	const int fs_seeks = 2 * DEFAULT_SEEKS;
	struct snap a, b;
	struct page *page;
	unsigned long freed;
	int rounds;

	reclaim_cache_destroy(&cache);
	KTEST_ASSERT_EQ(t, reclaim_cache_init(&cache), 0);
	memset(violations_reported, 0, sizeof(violations_reported));
	memset(atomic_reported, 0, sizeof(atomic_reported));
	cache.cls[RC_FS].shrinker.seeks = fs_seeks;
	rounds = priorities_to_a_batch(fill[RC_FS], fs_seeks);
	/* The case's own premise: FS has a batch due before NONE is all due. */
	KTEST_ASSERT_GT(t, rounds, 0);
	KTEST_ASSERT_GT(t, priorities_to_all(fill[RC_NONE], DEFAULT_SEEKS), rounds);
	prepare(t, fill);
	quiet_kswapds(t);
	snap(&a);
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);
	snap(&b);
	reclaim_off();
	if (page)
		hold(page, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_calls), 1UL);
	freed = DELTA(&a, &b, cs.calls[RC_FS][RC_DIRECT].freed);
	/* The big class gave the pages, one batch of them, in one call ... */
	KTEST_EXPECT_EQ(t, freed, SHRINK_BATCH);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, cs.calls[RC_FS][RC_DIRECT].scans), 1UL);
	KTEST_EXPECT_EQ(t, freed_by(&a, &b, RC_DIRECT), freed);
	/* ... at the priority its proportional scan reached a batch ... */
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, cs.calls[RC_FS][RC_DIRECT].counts),
			(unsigned long)rounds);
	/* ... while the small one was asked to count, never to scan. */
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, cs.calls[RC_NONE][RC_DIRECT].counts),
			(unsigned long)rounds);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, cs.calls[RC_NONE][RC_DIRECT].scans), 0UL);
	KTEST_EXPECT_EQ(t, b.cs.nr_pages[RC_NONE], fill[RC_NONE]);
	/* Each scanning call counted: the shrinker's calls, slabs_scanned. */
	KTEST_EXPECT_EQ(t, cache.cls[RC_FS].shrinker.calls, 1UL);
	KTEST_EXPECT_EQ(t, cache.cls[RC_NONE].shrinker.calls, 0UL);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.slabs_scanned), SHRINK_BATCH);
	ktest_printf(t, "one pass: FS (%lu pages, seeks %d) gave %lu in %lu calls at its priority %d; NONE (%lu pages) counted %lu times, scanned %lu",
		     fill[RC_FS], fs_seeks, freed,
		     DELTA(&a, &b, cs.calls[RC_FS][RC_DIRECT].scans),
		     DEF_PRIORITY + 1 - rounds, fill[RC_NONE],
		     DELTA(&a, &b, cs.calls[RC_NONE][RC_DIRECT].counts),
		     DELTA(&a, &b, cs.calls[RC_NONE][RC_DIRECT].scans));
}

/*
 * A pass stops as soon as its target is reclaimed, even in the middle of
 * a priority that has several batches due.  An order-10 allocation's
 * pass (its target 2^10 pages) over one big class, 32 batches' worth:
 * by the priority at which it reaches the target the class's credit
 * holds several batches more (about 1600 pages in all), but the pass
 * frees the target and less than a batch more - the call that reaches
 * the target may go past it, no call after it may be made.
 */
static void a_pass_stops_at_its_target(struct ktest *t)
{
	static const unsigned long fill[RC_NR_CLASSES] = {
		0, 0, 32 * SHRINK_BATCH
	};
	const unsigned int order = 10;
	const unsigned long target = 1UL << order;
	struct snap a, b;
	struct page *page;
	unsigned long freed;

	prepare(t, fill);
	quiet_kswapds(t);
	snap(&a);
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
	snap(&b);
	reclaim_off();
	if (page)
		hold(page, order);
	freed = freed_by(&a, &b, RC_DIRECT);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_calls), 1UL);
	KTEST_EXPECT_GE(t, DELTA(&a, &b, rs.direct_reclaimed), target);
	KTEST_EXPECT_LT(t, freed, target + SHRINK_BATCH);
	ktest_printf(t, "order %u: one pass, target %lu: the FS class (%lu pages) gave %lu in %lu calls; %s",
		     order, target, fill[RC_FS], freed,
		     DELTA(&a, &b, cs.calls[RC_FS][RC_DIRECT].scans),
		     page ? "the allocation succeeded" : "the allocation failed");
}

/* Pages the zones of the GFP_KERNEL zonelist hold, free or on CPU lists. */
static unsigned long zonelist_free(void)
{
	struct zone **zp = node_zonelist(numa_node_id(), GFP_KERNEL)->zones;
	unsigned long n = nr_pcp_pages();

	for (; *zp; zp++)
		n += READ_ONCE((*zp)->free_pages);
	return n;
}

static void atomic_never_reclaims_nor_sleeps(struct ktest *t)
{
	static const unsigned long fill[RC_NR_CLASSES] = { 64, 64, 64 };
	struct zone *z = home_zone();
	pg_data_t *pgdat = z->zone_pgdat;
	unsigned long min = z->pages_min, wakeups, bound, ok = 0;
	unsigned long free, in_cache, woken;
	/* GFP_ATOMIC's floor: min halved (__GFP_HIGH), a quarter less again. */
	unsigned long floor = (min - min / 2) - (min - min / 2) / 4;
	struct snap a, b;
	struct page *page;

	prepare(t, fill);

	/*
	 * Reclaim off, kswapd asleep: exact.  GFP_KERNEL may not take the
	 * home zone below pages_min; GFP_ATOMIC may.
	 */
	page = alloc_pages(GFP_KERNEL | QUIET, 0);
	if (page)
		hold(page, 0);
	KTEST_ASSERT_NULL(t, page);
	KTEST_EXPECT_EQ(t, z->free_pages, min);
	page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	hold(page, 0);
	KTEST_EXPECT_PTR_EQ(t, page_zone(page), z);
	KTEST_EXPECT_LT(t, z->free_pages, min);
	/* One page below min; the rest of its batch is on this CPU's list. */
	KTEST_EXPECT_EQ(t, z->free_pages + nr_pcp_pages(), min - 1);
	page = alloc_pages(GFP_KERNEL | QUIET, 0);
	if (page)
		hold(page, 0);
	KTEST_EXPECT_NULL(t, page);
	KTEST_EXPECT_EQ(t, z->free_pages, min - 1);

	/*
	 * Reclaim on, pages in every class: GFP_ATOMIC takes the reserve
	 * down to its own floor and then fails - without reclaiming, without
	 * sleeping, waking kswapd instead.
	 */
	wakeups = READ_ONCE(pgdat->kswapd_wakeups);
	bound = zonelist_free() + 1;
	reclaim_on();
	/*
	 * The kswapd this wakes runs on its node's first CPU, this one:
	 * with preemption off it cannot run - nor free pages (its first
	 * pass reaps the slab caches, its shrinkers empty the classes) -
	 * until all is read.  GFP_ATOMIC needs no more: it never sleeps,
	 * and a sleep here would stop the kernel ("scheduling while atomic").
	 */
	preempt_disable();
	snap(&a);
	while (ok < bound && (page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0))) {
		hold(page, 0);
		ok++;
	}
	snap(&b);
	free = READ_ONCE(z->free_pages);
	in_cache = reclaim_cache_pages(&cache);
	woken = READ_ONCE(pgdat->kswapd_wakeups) - wakeups;
	preempt_enable();
	KTEST_EXPECT_NULL(t, page);
	KTEST_EXPECT_GT(t, ok, 0UL);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_calls), 0UL);
	KTEST_EXPECT_EQ(t, calls_by(&a, &b, RC_DIRECT), 0UL);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, nvcsw), 0UL);
	KTEST_EXPECT_GE(t, woken, 1UL);
	KTEST_EXPECT_EQ(t, in_cache, total(fill));
	KTEST_EXPECT_EQ(t, free, floor);
	ktest_printf(t, "%s: min %lu; GFP_ATOMIC took %lu more pages, down to %lu free (its floor %lu), then failed",
		     z->name, min, ok, free, floor);
}

/* ---- kswapd ------------------------------------------------------------------ */

static void kswapd_wakes_below_low_and_stops_at_high(struct ktest *t)
{
	struct zone *z = home_zone(), *o;
	pg_data_t *pgdat = z->zone_pgdat;
	unsigned long fill[RC_NR_CLASSES] = { 0 };
	unsigned long start;
	unsigned long wakeups, runs, reclaimed, kfreed, slop;
	struct snap a, b;
	struct page *page;
	bool idle;

	if (z->pages_low <= z->pages_min)
		ktest_skip(t, "no room between pages_min and pages_low");
	/* Enough for kswapd to reach high and some batches to spare. */
	fill[RC_FS] = 2 * (z->pages_high - z->pages_min) + 4 * SHRINK_BATCH;
	prepare(t, fill);
	/*
	 * The cache holds only pages of the home zone: kswapd can balance
	 * the node only if its other zones already are (at their floors,
	 * ZONE_DMA keeps lowmem_reserve pages, far above its high mark).
	 */
	for_each_zone_in_node(o, pgdat)
		if (o != z && populated_zone(o) &&
		    !zone_watermark_ok(o, 0, o->pages_high, 0, 0))
			ktest_skip(t, "another zone of the node sits below its high watermark at the floor");

	/*
	 * One page above min, below low: the first pass fails, the second
	 * does not.  As low as that, so that stopping anywhere short of
	 * high shows, as far as the batch size lets it.
	 */
	KTEST_ASSERT_EQ(t, reclaim_cache_release(&cache, RC_FS, 1), 1UL);
	drain_all_pages();
	start = z->free_pages;
	KTEST_ASSERT_EQ(t, start, z->pages_min + 1);
	reclaim_cache_allow_kswapd(&cache, pgdat->node_id);
	wakeups = READ_ONCE(pgdat->kswapd_wakeups);
	runs = READ_ONCE(pgdat->kswapd_runs);
	reclaimed = READ_ONCE(pgdat->kswapd_reclaimed);

	reclaim_on();
	snap(&a);
	page = alloc_pages(GFP_KERNEL, 0);
	/* The rest of the batch it took waits on this CPU's list. */
	slop = nr_pcp_pages();
	KTEST_ASSERT_NOT_NULL(t, page);
	hold(page, 0);
	KTEST_EXPECT_EQ(t, READ_ONCE(pgdat->kswapd_wakeups) - wakeups, 1UL);
	idle = wait_until(kswapd_idle_nudged(pgdat), WAIT_JIFFIES);
	snap(&b);
	KTEST_ASSERT_TRUE(t, idle);

	/* kswapd did the work, not the allocating task. */
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_calls), 0UL);
	KTEST_EXPECT_EQ(t, calls_by(&a, &b, RC_DIRECT), 0UL);
	KTEST_EXPECT_GE(t, READ_ONCE(pgdat->kswapd_runs) - runs, 1UL);
	kfreed = freed_by(&a, &b, RC_KSWAPD);
	KTEST_EXPECT_GT(t, kfreed, 0UL);
	KTEST_EXPECT_GE(t, READ_ONCE(pgdat->kswapd_reclaimed) - reclaimed, kfreed);
	KTEST_EXPECT_EQ(t, b.cs.calls[RC_FS][RC_KSWAPD].last_gfp &
			   (__GFP_IO | __GFP_FS), __GFP_IO | __GFP_FS);
	/*
	 * Balanced, and no further: each pass stops once it has freed the
	 * node's shortfall (to pages_high + 1), within one shrinker call of
	 * at most SHRINK_BATCH pages, and the cache's pages all belong to
	 * this zone.  Each pass drains kswapd's CPU's per-CPU lists, which
	 * adds the slop above when kswapd shares this CPU.
	 */
	KTEST_EXPECT_TRUE(t, zone_watermark_ok(z, 0, z->pages_high, 0, 0));
	KTEST_EXPECT_LE(t, z->free_pages, z->pages_high + SHRINK_BATCH + slop);
	KTEST_EXPECT_GT(t, reclaim_cache_pages(&cache), 0UL);
	ktest_printf(t, "%s: min %lu low %lu high %lu; woken at %lu free, kswapd freed %lu and stopped at %lu (bound %lu), leaving %lu in the cache",
		     z->name, z->pages_min, z->pages_low, z->pages_high, start,
		     kfreed, z->free_pages, z->pages_high + SHRINK_BATCH + slop,
		     reclaim_cache_pages(&cache));
}

/* ---- the retry policy ---------------------------------------------------------- */

struct attempt {
	struct page *page;
	unsigned long calls;	/* passes of direct reclaim */
	unsigned long sleeps;	/* congestion waits (blkio_count) */
	unsigned long freed;	/* pages direct reclaim took from the cache */
	unsigned long took;	/* jiffies the allocation took */
};

/*
 * One allocation of 2^order pages of mode gfp, reclaim on, from the
 * floor with nr pages in the cache: too few for the order's watermark
 * (free - 2^order + 1 > pages_min) whenever nr < 2^order.  The cache is
 * empty at the start, as each attempt leaves it.
 */
static void attempt(struct ktest *t, gfp_t gfp, unsigned int order,
		    unsigned long nr, struct attempt *r)
{
	struct snap a, b;

	reclaim_off();
	KTEST_ASSERT_EQ(t, reclaim_cache_pages(&cache), 0UL);
	KTEST_ASSERT_GE(t, give_back(home_zone(), nr), nr);
	KTEST_ASSERT_EQ(t, reclaim_cache_fill(&cache, RC_FS, nr, FILL_GFP), nr);
	squeeze();
	assert_floor(t);
	quiet_kswapds(t);
	snap(&a);
	r->took = jiffies;
	r->page = alloc_pages(gfp | __GFP_NOWARN, order);
	r->took = jiffies - r->took;
	snap(&b);
	reclaim_off();
	if (r->page)
		hold(r->page, order);
	r->calls = DELTA(&a, &b, rs.direct_calls);
	r->sleeps = DELTA(&a, &b, blkio);
	r->freed = freed_by(&a, &b, RC_DIRECT);
	/* What was not reclaimed goes, so that the next attempt starts empty. */
	reclaim_cache_release_all(&cache);
}

#define EXPECT_ATTEMPT(t, r, calls_, sleeps_, freed_)                       \
	do {                                                                 \
		KTEST_EXPECT_NULL(t, (r)->page);                             \
		KTEST_EXPECT_EQ(t, (r)->calls, (unsigned long)(calls_));     \
		KTEST_EXPECT_EQ(t, (r)->sleeps, (unsigned long)(sleeps_));   \
		KTEST_EXPECT_EQ(t, (r)->freed, (unsigned long)(freed_));     \
	} while (0)

static void noretry_fails_fast(struct ktest *t)
{
	static const unsigned long none[RC_NR_CLASSES];
	struct attempt r;

	prepare(t, none);
	/* Nothing reclaimable: one pass, nothing freed, no sleep. */
	attempt(t, GFP_KERNEL | __GFP_NORETRY, 0, 0, &r);
	EXPECT_ATTEMPT(t, &r, 1, 0, 0);
	/*
	 * Progress, but too little for order 3: NORETRY still stops after
	 * one pass, where the default for order <= 3 sleeps and retries
	 * (and gives up on the pass that finds nothing more).
	 */
	attempt(t, GFP_KERNEL | __GFP_NORETRY, 3, 4, &r);
	EXPECT_ATTEMPT(t, &r, 1, 0, 4);
	/*
	 * This one sleeps once: HZ/50, timed.  The cap the suite puts on each
	 * sleep is lifted to HZ for it, so that a sleep of HZ or more (or
	 * one until woken) shows, without waiting for ever.
	 */
	congestion_wait_limit(HZ);
	attempt(t, GFP_KERNEL, 3, 4, &r);
	congestion_wait_limit(1);
	EXPECT_ATTEMPT(t, &r, 2, 1, 4);
	KTEST_EXPECT_GE(t, r.took, (unsigned long)HZ / 50);
	KTEST_EXPECT_LT(t, r.took, (unsigned long)HZ / 2);
	ktest_printf(t, "order 3, one sleep between two passes: %lu jiffies (HZ/50 is %d)",
		     r.took, HZ / 50);
}

static void repeat_retries_then_may_fail(struct ktest *t)
{
	static const unsigned long none[RC_NR_CLASSES];
	struct attempt r;
	struct zone *dma;

	prepare(t, none);
	/*
	 * Order 4 with 8 reclaimable pages: the first pass frees them all,
	 * fewer than the 16 asked for, so REPEAT sleeps and tries again; the
	 * second pass frees nothing and it fails.  Without REPEAT an order
	 * above 3 gets one pass.
	 */
	attempt(t, GFP_KERNEL | __GFP_REPEAT, 4, 8, &r);
	EXPECT_ATTEMPT(t, &r, 2, 1, 8);
	attempt(t, GFP_KERNEL, 4, 8, &r);
	EXPECT_ATTEMPT(t, &r, 1, 0, 8);

	/*
	 * REPEAT counts what reclaim freed over all its passes, not in the
	 * last one.  A GFP_DMA allocation at ZONE_DMA's own floor can use
	 * none of the pages reclaimed (the cache's, of the home zone), so it
	 * fails after every pass and only the policy ends it.  32 pages in
	 * the cache, at most 8 freed a pass: 8 after the first pass, fewer
	 * than the 16 asked for, a sleep; 16 after the second, as many as
	 * asked for: it fails there (a pass's own 8 would go on).
	 */
	dma = node_zonelist(numa_node_id(), GFP_DMA)->zones[0];
	if (!dma || dma == home_zone()) {
		ktest_printf(t, "no ZONE_DMA apart from the home zone: REPEAT over several passes not tried");
		return;
	}
	reclaim_off();
	squeeze_gfp(FILL_GFP | GFP_DMA);
	reclaim_cache_set_quota(&cache, RC_FS, 8);
	attempt(t, GFP_KERNEL | GFP_DMA | __GFP_REPEAT, 4, 32, &r);
	EXPECT_ATTEMPT(t, &r, 2, 1, 16);
	KTEST_EXPECT_EQ(t, dma->free_pages, dma->pages_min);
}

/* The NOFAIL thread on CPU 0, waiting for h->go (a reclaimer if memalloc). */
static struct task_struct *nofail_start(struct ktest *t,
					struct nofail_helper *h, bool memalloc)
{
	struct task_struct *k;

	init_completion(&h->go);
	init_completion(&h->done);
	h->memalloc = memalloc;
	k = kthread_create(nofail_fn, h, "reclaim_nofail");
	KTEST_ASSERT_FALSE(t, IS_ERR(k));
	kthread_bind(k, 0);
	h->task = k;
	wake_up_process(k);
	return k;
}

/* One block back: the waiting NOFAIL allocation's next retry takes it. */
static void nofail_succeeds_after_a_free(struct ktest *t,
					 struct nofail_helper *h,
					 struct task_struct *k)
{
	KTEST_EXPECT_GE(t, give_back(home_zone(), 1), 1UL);
	if (!wait_for_completion_timeout(&h->done, WAIT_JIFFIES)) {
		KTEST_FAIL(t, "the NOFAIL allocation did not succeed within %d s of a free",
			   WAIT_JIFFIES / HZ);
		return;
	}
	KTEST_EXPECT_TRUE(t, READ_ONCE(h->got_page));
	kthread_stop(k);
	h->task = NULL;
}

static void nofail_waits_for_a_free(struct ktest *t)
{
	static const unsigned long none[RC_NR_CLASSES];
	struct nofail_helper *h = &nofail;
	struct task_struct *k;
	struct snap a, b;
	bool retried;

	/* Its stack first: nothing is left once the floor is built. */
	k = nofail_start(t, h, false);

	prepare(t, none);
	reclaim_on();
	snap(&a);
	complete(&h->go);
	/* Reclaimed in vain and slept between retries, at least twice. */
	retried = wait_until(READ_ONCE(h->allocating) &&
				     READ_ONCE(k->blkio_count) - h->blkio >= 2,
			     WAIT_JIFFIES);
	snap(&b);
	KTEST_EXPECT_TRUE(t, retried);
	KTEST_EXPECT_FALSE(t, completion_done(&h->done));
	KTEST_EXPECT_GE(t, DELTA(&a, &b, rs.direct_calls), 2UL);
	KTEST_EXPECT_GE(t, DELTA(&a, &b, rs.congestion_waits), 2UL);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_reclaimed), 0UL);
	ktest_printf(t, "still waiting after %lu passes of reclaim and %lu sleeps",
		     DELTA(&a, &b, rs.direct_calls), READ_ONCE(k->blkio_count) - h->blkio);

	/* One block back: its next retry takes it. */
	nofail_succeeds_after_a_free(t, h, k);
}

/*
 * A reclaimer's NOFAIL allocation, once even the reserve below min is
 * gone: it cannot reclaim (never recursively), so it sleeps between
 * retries until a page comes back, and never returns NULL (2.6.x).
 */
static void nofail_memalloc_waits_for_a_free(struct ktest *t)
{
	static const unsigned long none[RC_NR_CLASSES];
	struct nofail_helper *h = &nofail;
	struct task_struct *k;
	bool retried;

	k = nofail_start(t, h, true);

	prepare(t, none);
	/* The reserve too: what a reclaimer may take, taken. */
	current->flags |= PF_MEMALLOC;
	squeeze();
	current->flags &= ~PF_MEMALLOC;
	KTEST_ASSERT_EQ(t, home_zone()->free_pages, 0UL);

	complete(&h->go);
	retried = wait_until(READ_ONCE(h->allocating) &&
				     READ_ONCE(k->blkio_count) - h->blkio >= 2,
			     WAIT_JIFFIES);
	KTEST_EXPECT_TRUE(t, retried);
	KTEST_EXPECT_FALSE(t, completion_done(&h->done));
	ktest_printf(t, "still waiting after %lu sleeps",
		     READ_ONCE(k->blkio_count) - h->blkio);

	nofail_succeeds_after_a_free(t, h, k);
}

/* ---- the order-0 fast path against the watermarks ------------------------------ */

/* This CPU's hot list of z (the case stays on CPU 0). */
static int hot_count(struct zone *z)
{
	int cpu = get_cpu();
	int n = READ_ONCE(z->pageset[cpu].pcp[0].count);

	put_cpu();
	return n;
}

/*
 * Takes n order-0 pages straight off z's buddy lists, held: the zone's
 * free count drops by n and nothing else moves (no watermark, no drain
 * of the per-CPU lists, as the allocator's slow path would do).
 */
static void take_from_buddy(struct ktest *t, struct zone *z, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		unsigned long flags;
		struct page *page;

		spin_lock_irqsave(&z->lock, flags);
		page = rmqueue_locked(z, 0);
		spin_unlock_irqrestore(&z->lock, flags);
		KTEST_ASSERT_NOT_NULL(t, page);
		set_page_count(page, 1);
		hold(page, 0);
	}
}

/* Frees n held order-0 pages of z onto this CPU's hot list. */
static void to_hot_list(struct ktest *t, struct zone *z, unsigned long n)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &held, lru) {
		if (!n)
			break;
		if (page->owner_data[0] != 0 || page_zone(page) != z)
			continue;
		unhold(page);
		n--;
	}
	KTEST_ASSERT_EQ(t, n, 0UL);
}

static void fast_path_keeps_watermarks_and_wakes_kswapd(struct ktest *t)
{
	static const unsigned long none[RC_NR_CLASSES];
	struct zone *z = home_zone();
	pg_data_t *pgdat = z->zone_pgdat;
	unsigned long min = z->pages_min, quarter = min / 4, n;
	unsigned long wakeups, runs, free, hot;
	struct page *page;
	int cpu = get_cpu();
	int low = z->pageset[cpu].pcp[0].low, high = z->pageset[cpu].pcp[0].high;

	put_cpu();
	n = (unsigned long)low + 3;
	if (n >= (unsigned long)high)
		ktest_skip(t, "the hot list cannot hold low + 3 pages");
	if (z->pages_low <= min + 1 || quarter + n >= min)
		ktest_skip(t, "too little room between the watermarks for a list above its low mark");
	prepare(t, none);

	/*
	 * min + 1 free in the buddy lists, n pages on this CPU's hot list.
	 * An order-0 block given back lands on a per-CPU list: drain them.
	 */
	give_back(z, n + 1);
	drain_all_pages();
	KTEST_ASSERT_GE(t, z->free_pages, min + n + 1);
	take_from_buddy(t, z, z->free_pages - min - 1);
	to_hot_list(t, z, n);
	KTEST_ASSERT_EQ(t, z->free_pages, min + 1);
	KTEST_ASSERT_EQ(t, hot_count(z), (int)n);

	/*
	 * Between min and low: GFP_KERNEL gets a page, off the hot list, and
	 * wakes kswapd.  kswapd may run at once, on this CPU, and give this
	 * CPU's lists back to the buddy lists (vmscan.c's drain) before the
	 * page is taken, and reap the caches (the slabs behind their CPU and
	 * shared arrays, on any CPU of a big machine): then the sum of the two
	 * is at least what the case put there, all it can judge.
	 */
	reclaim_on();
	wakeups = READ_ONCE(pgdat->kswapd_wakeups);
	runs = READ_ONCE(pgdat->kswapd_runs);
	page = alloc_pages(GFP_KERNEL | QUIET, 0);
	KTEST_ASSERT_NOT_NULL(t, page);
	hot = (unsigned long)hot_count(z);
	free = READ_ONCE(z->free_pages);
	hold(page, 0);
	KTEST_EXPECT_GE(t, READ_ONCE(pgdat->kswapd_wakeups) - wakeups, 1UL);
	if (READ_ONCE(pgdat->kswapd_runs) == runs) {
		KTEST_EXPECT_EQ(t, hot, n - 1);
		KTEST_EXPECT_EQ(t, free, min + 1);
	} else {
		ktest_printf(t, "kswapd ran during the allocation: judged on free + hot list");
		KTEST_EXPECT_GE(t, free + hot, min + n);
	}
	reclaim_off();
	KTEST_ASSERT_TRUE(t, wait_until(all_kswapds_quiet(), WAIT_JIFFIES));

	/*
	 * The buddy lists at min less the list's pages (n - 1 of them, or
	 * back to that if kswapd drained it): even given the list back, the
	 * zone has only min.  GFP_KERNEL gets nothing.
	 */
	if (hot_count(z) < (int)n - 1) {
		unsigned long more = n - 1 - (unsigned long)hot_count(z);

		take_from_buddy(t, z, more);
		to_hot_list(t, z, more);
	}
	take_from_buddy(t, z, z->free_pages + (unsigned long)hot_count(z) - min);
	KTEST_ASSERT_EQ(t, z->free_pages + (unsigned long)hot_count(z), min);
	KTEST_ASSERT_GT(t, hot_count(z), low);
	page = alloc_pages(GFP_KERNEL | QUIET, 0);
	if (page)
		hold(page, 0);
	KTEST_EXPECT_NULL(t, page);
	KTEST_EXPECT_EQ(t, z->free_pages + (unsigned long)hot_count(z), min);

	/* GFP_NOWAIT (ALLOC_HARDER, 2.6.15+): nothing at min less a quarter. */
	to_hot_list(t, z, n);
	take_from_buddy(t, z, z->free_pages + n - (min - quarter));
	KTEST_ASSERT_EQ(t, z->free_pages + (unsigned long)hot_count(z),
			min - quarter);
	KTEST_ASSERT_GT(t, hot_count(z), low);
	/*
	 * Nothing from z; a lower zone of the zonelist (at its own floor,
	 * min plus lowmem_reserve) still has room above NOWAIT's.
	 */
	page = alloc_pages(GFP_NOWAIT | __GFP_NOWARN, 0);
	if (page) {
		hold(page, 0);
		KTEST_EXPECT_PTR_NE(t, page_zone(page), z);
	}
	KTEST_EXPECT_EQ(t, z->free_pages + (unsigned long)hot_count(z),
			min - quarter);
	ktest_printf(t, "%s: min %lu, low %lu; hot list of %lu (low mark %d)",
		     z->name, min, z->pages_low, n, low);
}

/* ---- cost ---------------------------------------------------------------------- */

static u64 median(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		u64 x = v[i];
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return v[n / 2];
}

/* Cycles of one order-0 GFP_KERNEL allocation and its free; 0 if NULL. */
static u64 timed_alloc_free(void)
{
	cycles_t start = get_cycles();
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0);

	if (!page)
		return 0;
	__free_page(page);
	return get_cycles() - start;
}

static void bench_reclaim_cost(struct ktest *t)
{
	static const unsigned long fill[RC_NR_CLASSES] = { 0, 0, 512 };
	u64 plain[BENCH_SAMPLES], reclaiming[BENCH_SAMPLES], p, r;
	unsigned long failed = 0, not_one_pass = 0;
	struct snap a, b;
	const int n = KTEST_SOAK(BENCH_SAMPLES_SHORT, BENCH_SAMPLES);

	/* Memory plentiful: no reclaim at all. */
	reclaim_on();
	snap(&a);
	for (int i = 0; i < n; i++)
		failed += !(plain[i] = timed_alloc_free());
	snap(&b);
	KTEST_EXPECT_EQ(t, DELTA(&a, &b, rs.direct_calls), 0UL);

	/* From the floor: each allocation reclaims once. */
	prepare(t, fill);
	for (int i = 0; i < n; i++) {
		/* Back to the floor: the cache takes back what was freed. */
		reclaim_off();
		reclaim_cache_fill(&cache, RC_FS, ~0UL, FILL_GFP);
		quiet_kswapds(t);
		snap(&a);
		failed += !(reclaiming[i] = timed_alloc_free());
		snap(&b);
		not_one_pass += DELTA(&a, &b, rs.direct_calls) != 1 ||
				!freed_by(&a, &b, RC_DIRECT);
	}
	KTEST_EXPECT_EQ(t, failed, 0UL);
	KTEST_EXPECT_EQ(t, not_one_pass, 0UL);
	p = median(plain, n);
	r = median(reclaiming, n);
	ktest_printf(t, "bench: order-0 GFP_KERNEL alloc+free, memory plentiful: %llu cycles (median of %d)",
		     (unsigned long long)p, n);
	ktest_printf(t, "bench: order-0 GFP_KERNEL alloc+free, one pass of direct reclaim: %llu cycles (median of %d)",
		     (unsigned long long)r, n);
	if (p)
		ktest_printf(t, "bench: reclaiming / plentiful = %llu.%llux",
			     (unsigned long long)(r / p),
			     (unsigned long long)(r * 10 / p % 10));
}

/* ---- the shrinker list: shared by reclaimers, whole for a writer ---------- */

static struct {
	struct task_struct *holder;	/* the reclaimer kept inside a shrinker */
	struct task_struct *reader;	/* the case, reclaiming beside it */
	struct completion entered, release;
	int reader_calls;		/* sl_shrink() calls by the case */
	bool unregistered;		/* the writer's unregister returned */
} sl;

/* Keeps the holder inside (the list read-locked) until released. */
static int sl_shrink(int nr_to_scan, gfp_t gfp_mask)
{
	if (current == sl.holder) {
		complete(&sl.entered);
		wait_for_completion(&sl.release);
	} else if (current == sl.reader) {
		__atomic_fetch_add(&sl.reader_calls, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static struct shrinker sl_shrinker = { .shrink = sl_shrink };

static int sl_holder_fn(void *unused)
{
	try_to_free_pages(node_zonelist(numa_node_id(), GFP_KERNEL),
			  GFP_KERNEL, 0);
	ktest_park_until_stopped();
	return 0;
}

static int sl_writer_fn(void *unused)
{
	unregister_shrinker(&sl_shrinker);
	WRITE_ONCE(sl.unregistered, true);
	ktest_park_until_stopped();
	return 0;
}

/*
 * As 2.6's shrinker_rwsem: while one reclaimer is inside a shrinker,
 * another still gets the list and calls the shrinkers; an unregister
 * waits for the one inside, and meanwhile a reclaimer's try fails (its
 * pass counts as contended) rather than queue behind the writer.
 */
static void reclaimers_share_the_shrinker_list(struct ktest *t)
{
	struct zonelist *zl = node_zonelist(numa_node_id(), GFP_KERNEL);
	struct task_struct *holder, *writer = NULL;
	int calls = 0;

	memset(&sl, 0, sizeof(sl));
	init_completion(&sl.entered);
	init_completion(&sl.release);
	sl.reader = current;
	register_shrinker(&sl_shrinker);
	reclaim_on();
	holder = kthread_create(sl_holder_fn, NULL, "reclaim_holder");
	if (IS_ERR(holder)) {
		KTEST_FAIL(t, "cannot start the holder thread");
		unregister_shrinker(&sl_shrinker);
		reclaim_off();
		return;
	}
	sl.holder = holder;
	wake_up_process(holder);
	if (!wait_for_completion_timeout(&sl.entered, WAIT_JIFFIES)) {
		KTEST_FAIL(t, "the holder's reclaim never reached the test shrinker");
		goto out;
	}

	/* A second reader: in, and through every shrinker. */
	try_to_free_pages(zl, GFP_KERNEL, 0);
	calls = READ_ONCE(sl.reader_calls);
	KTEST_EXPECT_GT(t, calls, 0);

	/* A writer waits for the holder; a reader's try now fails. */
	writer = kthread_run(sl_writer_fn, NULL, "reclaim_writer");
	if (IS_ERR(writer)) {
		KTEST_FAIL(t, "cannot start the writer thread");
		writer = NULL;
		goto out;
	}
	/*
	 * Off its run queue: asleep in its only sleep there, waiting for the
	 * holder to leave (shrinker_write_lock), the list marked taken.
	 */
	KTEST_EXPECT_TRUE(t, wait_until(!READ_ONCE(writer->on_rq), WAIT_JIFFIES));
	KTEST_EXPECT_FALSE(t, READ_ONCE(sl.unregistered));
	KTEST_EXPECT_EQ(t, try_to_free_pages(zl, GFP_KERNEL, 0), 1UL);
	KTEST_EXPECT_EQ(t, READ_ONCE(sl.reader_calls), calls);
out:
	complete(&sl.release);
	if (writer)
		KTEST_EXPECT_TRUE(t, wait_until(READ_ONCE(sl.unregistered),
						WAIT_JIFFIES));
	else
		unregister_shrinker(&sl_shrinker);
	reclaim_off();
	kthread_stop(holder);
	if (writer)
		kthread_stop(writer);
	ktest_printf(t, "the second reclaimer called the shrinker %d times while the first was inside it",
		     calls);
}

static const struct ktest_case reclaim_cases[] = {
	KTEST_CASE(gfp_kernel_succeeds_by_reclaiming),
	KTEST_CASE(nofs_and_noio_skip_the_shrinkers_they_forbid),
	KTEST_CASE(big_shrinker_scanned_first),
	KTEST_CASE(a_pass_stops_at_its_target),
	KTEST_CASE(atomic_never_reclaims_nor_sleeps),
	KTEST_CASE(kswapd_wakes_below_low_and_stops_at_high),
	KTEST_CASE(noretry_fails_fast),
	KTEST_CASE(nofail_waits_for_a_free),
	KTEST_CASE(nofail_memalloc_waits_for_a_free),
	KTEST_CASE(fast_path_keeps_watermarks_and_wakes_kswapd),
	KTEST_CASE(repeat_retries_then_may_fail),
	KTEST_CASE(reclaimers_share_the_shrinker_list),
	KTEST_CASE(bench_reclaim_cost),
	KTEST_END,
};

static const struct ktest_suite reclaim_suite = {
	.name = "reclaim",
	.init = reclaim_init,
	.exit = reclaim_exit,
	.cases = reclaim_cases,
};
KTEST_SUITE(reclaim_suite);
