/*
 * tests/pcp_test.c - suite "pcp": the per-CPU hot/cold page lists.
 *
 * Two kinds of cases.  Those about reuse go through the public API on the
 * real zones (free_hot_page, alloc_page, free_cold_page, __GFP_COLD), with
 * nothing else running on this CPU between the free and the allocation.
 * Those that need an exact state - an empty buddy, a given batch, a lock
 * count - run the list operations (pcp_alloc, pcp_free) on a private zone
 * laid over one block taken from the real allocator, with the batch set
 * by the case, so that every expected count can be worked out by hand
 * from Linux 2.6's rules:
 *
 *   allocation: if count <= low, refill batch pages (one zone lock);
 *               take the head of the list;
 *   free:       if count >= high, give batch pages from the tail back
 *               (one zone lock); put the page at the head.
 *   hot list:   low = 2 * batch, high = 6 * batch
 *   cold list:  low = 0,         high = 2 * batch
 *
 * Beside the counts they read, the cases check a list whole (count is
 * its length, every page on it PG_pcp and no PG_buddy: list_whole) and
 * count the zone lock's real acquisitions, its ticket counter (the
 * private zone's lock is the case's alone), against NR_ZONE_LOCK.  One
 * case frees and takes pages from a timer, in interrupt context, on the
 * lists the case works on: a list touched with interrupts on anywhere
 * between its look at count and its last pointer is caught there.
 */
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "lib/err.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/topology.h"
#include "tests/ktest.h"

#define BLOCK_ORDER 10
#define BLOCK_PAGES (1UL << BLOCK_ORDER)

static struct zone pz;
static struct page *blk;	/* NULL unless the case took a private zone */
/*
 * The first breach of memory safety found in the private zone: a list
 * whose count is not its length, or that holds a page free in the buddy
 * lists, or buddy lists zone_check() finds broken.  The exit puts the
 * block back whatever it found, but an allocator that did this to a
 * private zone does it to the real ones: after the case the kernel
 * reports it as corrupted (private_zone_breaches, a KTEST_INVARIANT),
 * and the grader gives such a kernel no points.
 */
static char breach[KTEST_CAPTURE_LINE];

/*
 * The case's CPU: raw, because the case thread never leaves its CPU, so
 * the answer cannot go stale, and a preempting task on this CPU never
 * touches the private zone.
 */
static int case_cpu(void)
{
	return raw_smp_processor_id();
}

/* ---- the private zone ------------------------------------------------ */

static void take_private_zone(struct ktest *t);
static void stop_interrupts(void);
static void private_lists_check(const char *when);

static void set_batch(struct ktest *t, int batch)
{
	take_private_zone(t);
	struct per_cpu_pageset *ps = &pz.pageset[case_cpu()];

	ps->pcp[0].batch = batch;
	ps->pcp[0].low = 2 * batch;
	ps->pcp[0].high = 6 * batch;
	ps->pcp[1].batch = batch;
	ps->pcp[1].low = 0;
	ps->pcp[1].high = 2 * batch;
}

static struct per_cpu_pages *hot(void)
{
	return &pz.pageset[case_cpu()].pcp[0];
}

static struct per_cpu_pages *cold(void)
{
	return &pz.pageset[case_cpu()].pcp[1];
}

/* Acquisitions of the private zone's lock so far: its ticket counter. */
static u16 pz_lock_tickets(void)
{
	return __atomic_load_n(&pz.lock.next, __ATOMIC_RELAXED);
}

/*
 * The list as the rules have it: count pages long, each PG_pcp and none
 * PG_buddy.  Fails the case once, naming the list, when it is not.
 * Interrupts off: a timer may work on the list (lists_are_safe_from_interrupts).
 */
static bool list_whole(struct ktest *t, struct per_cpu_pages *pcp,
		       const char *name)
{
	struct list_head *pos;
	unsigned long flags;
	int n = 0, bad = -1;

	local_irq_save(flags);
	for (pos = pcp->list.next; pos != &pcp->list && n <= pcp->count;
	     pos = pos->next, n++) {
		struct page *page = list_entry(pos, struct page, lru);

		if (bad < 0 && (!PagePcp(page) || PageBuddy(page)))
			bad = n;
	}
	local_irq_restore(flags);
	if (n > pcp->count)
		KTEST_FAIL(t, "the %s list holds more than the %d pages its count says",
			   name, pcp->count);
	else if (n < pcp->count)
		KTEST_FAIL(t, "the %s list holds %d pages, its count says %d",
			   name, n, pcp->count);
	else if (bad >= 0)
		KTEST_FAIL(t, "page %d of the %s list is not marked PG_pcp (or is PG_buddy)",
			   bad, name);
	return n == pcp->count && bad < 0;
}

/*
 * Taken by the cases that need it, not by suite init: while it exists its
 * block's head carries PG_buddy outside the real zone's lists, which the
 * real zones' checker would rightly call a corruption.
 */
static void take_private_zone(struct ktest *t)
{
	unsigned long flags;

	blk = alloc_pages(GFP_KERNEL | __GFP_NOWARN, BLOCK_ORDER);
	if (!blk)
		ktest_skip(t, "no free order-10 block for the private zone");
	for (unsigned long i = 0; i < BLOCK_PAGES; i++) {
		blk[i].flags &= ~PAGE_FLAGS_MASK;
		set_page_count(&blk[i], 0);
		blk[i].private = 0;
	}
	memset(&pz, 0, sizeof(pz));
	spin_lock_init(&pz.lock);
	zone_init_free_lists(&pz);
	pz.name = "pcp_test";
	pz.zone_start_pfn = page_to_pfn(blk);
	pz.spanned_pages = pz.present_pages = pz.managed_pages = BLOCK_PAGES;
	zone_pcp_init(&pz);
	spin_lock_irqsave(&pz.lock, flags);
	free_one_page_locked(blk, &pz, BLOCK_ORDER);
	spin_unlock_irqrestore(&pz.lock, flags);
}

/*
 * Everything back from the lists to one block, then to the real zones.
 * A case that stopped on an ASSERT (or code under test that lost pages)
 * leaves the block in pieces: every page of it is the case's alone, so
 * they are all reset to the state of an allocated block and the block
 * goes back whole - never with PG_buddy left on pages off any list.
 */
static void pcp_exit(struct ktest *t)
{
	struct page *block = blk;
	char why[128];
	unsigned long flags;
	struct page *page;

	stop_interrupts();
	if (!block)
		return;
	blk = NULL;
	private_lists_check("as the case left them");
	zone_drain_local(&pz);
	private_lists_check("after zone_drain_local()");
	why[0] = '\0';
	KTEST_EXPECT_EQ(t, zone_check(&pz, why, sizeof(why)), 0);
	if (why[0] && !breach[0])
		scnprintf(breach, sizeof(breach), "the buddy lists of the private zone: %s",
			  why);
	spin_lock_irqsave(&pz.lock, flags);
	page = rmqueue_locked(&pz, BLOCK_ORDER);
	spin_unlock_irqrestore(&pz.lock, flags);
	if (!page) {
		KTEST_FAIL(t, "the private zone is not one block again%s%s: its pages are reset",
			   why[0] ? ": " : "", why);
		for (unsigned long i = 0; i < BLOCK_PAGES; i++) {
			block[i].flags &= ~PAGE_FLAGS_MASK;
			set_page_count(&block[i], 0);
			block[i].private = 0;
		}
		page = block;
	}
	page->private = BLOCK_ORDER;
	__SetPageHead(page);
	set_page_count(page, 1);
	__free_pages(page, BLOCK_ORDER);
}

/* ---- reuse through the public API ------------------------------------ */

static void hot_free_is_reused_first(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL), *q;
	struct per_cpu_pages *pcp;

	KTEST_ASSERT_NOT_NULL(t, p);
	free_hot_page(p);
	/*
	 * Parked at the head of this CPU's hot list, not in the buddy lists
	 * (where a plain buddy allocator would also hand it back next).
	 */
	pcp = &page_zone(p)->pageset[case_cpu()].pcp[0];
	KTEST_EXPECT_TRUE(t, PagePcp(p));
	KTEST_EXPECT_FALSE(t, PageBuddy(p));
	KTEST_EXPECT_GT(t, pcp->count, 0);
	if (list_empty(&pcp->list) ||
	    list_first_entry(&pcp->list, struct page, lru) != p)
		KTEST_FAIL(t, "pfn %#lx freed hot is not at the head of this CPU's hot list",
			   page_to_pfn(p));
	q = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, q, p);
	__free_page(q);
}

static void cold_free_is_reused_by_cold_alloc(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL), *q, *h;

	KTEST_ASSERT_NOT_NULL(t, p);
	free_cold_page(p);
	/* A hot allocation does not take it while the hot list has pages. */
	h = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, h);
	KTEST_EXPECT_PTR_NE(t, h, p);
	q = alloc_page(GFP_KERNEL | __GFP_COLD);
	KTEST_EXPECT_PTR_EQ(t, q, p);
	__free_page(q);
	__free_page(h);
}

/* ---- exact behaviour on the private zone ------------------------------ */

static struct page *held[BLOCK_PAGES + 1]; /* + the NULL that ends a drain */

static void lifo_on_the_hot_list(struct ktest *t)
{
	struct page *a, *b, *x, *y;

	set_batch(t, 4);
	a = pcp_alloc(&pz, false);
	b = pcp_alloc(&pz, false);
	KTEST_ASSERT_NOT_NULL(t, a);
	KTEST_ASSERT_NOT_NULL(t, b);
	list_whole(t, hot(), "hot");
	pcp_free(&pz, a, false);
	pcp_free(&pz, b, false);
	/* Last in, first out. */
	x = pcp_alloc(&pz, false);
	y = pcp_alloc(&pz, false);
	KTEST_EXPECT_PTR_EQ(t, x, b);
	KTEST_EXPECT_PTR_EQ(t, y, a);
	/* What came back (a list in the wrong order keeps a and b). */
	if (x)
		pcp_free(&pz, x, false);
	if (y)
		pcp_free(&pz, y, false);
}

static void hot_takes_cold_only_when_hot_is_empty(struct ktest *t)
{
	unsigned long n = 0;
	struct page *x, *y;

	set_batch(t, 7);
	/* Take every page: the hot list refills until the buddy is empty. */
	while ((held[n] = pcp_alloc(&pz, false)) != NULL)
		n++;
	KTEST_ASSERT_EQ(t, n, BLOCK_PAGES);
	KTEST_EXPECT_EQ(t, pz.free_pages, 0UL);
	KTEST_EXPECT_EQ(t, hot()->count, 0);

	x = held[--n];
	y = held[--n];
	pcp_free(&pz, x, true);	/* cold */
	pcp_free(&pz, y, false);	/* hot */
	KTEST_EXPECT_EQ(t, cold()->count, 1);
	KTEST_EXPECT_EQ(t, hot()->count, 1);
	/*
	 * The hot list has a page: that one, not the cold one.  Then, hot
	 * list and buddy empty, the cold page.  What comes back is held (and
	 * freed below); what does not stays on its list for pcp_exit.
	 */
	for (int i = 0; i < 3; i++) {
		struct page *want = i == 0 ? y : i == 1 ? x : NULL;
		struct page *got = pcp_alloc(&pz, false);

		KTEST_EXPECT_PTR_EQ(t, got, want);
		if (got)
			held[n++] = got;
	}
	while (n)
		pcp_free(&pz, held[--n], false);
}

static void count_never_exceeds_high(struct ktest *t)
{
	const int batch = 5, high = 6 * batch;
	unsigned long n, bad = 0;

	set_batch(t, batch);
	for (n = 0; n < 200; n++) {
		held[n] = pcp_alloc(&pz, false);
		KTEST_ASSERT_NOT_NULL(t, held[n]);
	}
	zone_drain_local(&pz);
	KTEST_EXPECT_EQ(t, hot()->count, 0);
	for (unsigned long i = 0; i < n; i++) {
		int before = hot()->count;
		/* At high, one batch goes back before the page is added. */
		int want = before >= high ? before - batch + 1 : before + 1;

		pcp_free(&pz, held[i], false);
		if (hot()->count != want && bad++ == 0)
			KTEST_FAIL(t, "free %lu: the hot list went from %d to %d pages, expected %d (batch %d, high %d)",
				   i, before, hot()->count, want, batch, high);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
}

/*
 * A full hot list gives back the batch it has held longest - its tail,
 * the pages freed first - before taking the new page at its head.
 */
static void trim_gives_back_the_coldest(struct ktest *t)
{
	const int batch = 4, high = 6 * batch;
	unsigned long drained, free, locks;
	unsigned int tickets;
	int n = high + 1;

	set_batch(t, batch);
	for (int i = 0; i < n; i++) {
		held[i] = pcp_alloc(&pz, false);
		KTEST_ASSERT_NOT_NULL(t, held[i]);
	}
	zone_drain_local(&pz);
	KTEST_ASSERT_EQ(t, hot()->count, 0);
	/* Up to high: no trim; the list is held[high - 1] ... held[0]. */
	for (int i = 0; i < high; i++)
		pcp_free(&pz, held[i], false);
	if (hot()->count != high) {
		KTEST_FAIL(t, "%d pages freed onto an empty hot list of high %d: it holds %d",
			   high, high, hot()->count);
		pcp_free(&pz, held[high], false);
		return;
	}
	free = pz.free_pages;
	drained = zone_stat_read(&pz, NR_PCP_DRAIN);
	locks = zone_stat_read(&pz, NR_ZONE_LOCK);
	tickets = pz_lock_tickets();
	pcp_free(&pz, held[high], false);
	tickets = (u16)(pz_lock_tickets() - tickets);
	KTEST_EXPECT_EQ(t, hot()->count, high - batch + 1);
	KTEST_EXPECT_EQ(t, pz.free_pages, free + (unsigned long)batch);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_DRAIN) - drained,
			(unsigned long)batch);
	/* The batch went back under one acquisition of the lock, counted. */
	KTEST_EXPECT_EQ(t, tickets, 1U);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_ZONE_LOCK) - locks, 1UL);
	for (int i = 0; i < n; i++) {
		bool gone = i < batch;

		if (PagePcp(held[i]) == gone)
			KTEST_FAIL(t, "page %d of %d freed: %s, expected %s", i,
				   n, PagePcp(held[i]) ? "on the list" : "given back",
				   gone ? "given back" : "on the list");
	}
	if (list_first_entry(&hot()->list, struct page, lru) != held[high])
		KTEST_FAIL(t, "the page freed last is not at the head of the list");
	if (list_last_entry(&hot()->list, struct page, lru) != held[batch])
		KTEST_FAIL(t, "page %d is not at the tail of the list", batch);
}

/*
 * The cold list: low 0, so it refills (one batch) only when empty, and
 * high 2 * batch, where a cold free gives one batch back first.
 */
static void cold_list_refills_empty_and_trims_at_high(struct ktest *t)
{
	/* Empty: refill 3, take 1; then 2 hits; then empty again: refill. */
	static const int left[4] = { 2, 1, 0, 2 };
	const int batch = 3;
	unsigned long miss, hit, drained, locks;
	struct page *pages[5];
	u16 tickets;

	set_batch(t, batch);
	miss = zone_stat_read(&pz, NR_PCP_MISS);
	hit = zone_stat_read(&pz, NR_PCP_HIT);
	for (int i = 0; i < 4; i++) {
		pages[i] = pcp_alloc(&pz, true);
		KTEST_ASSERT_NOT_NULL(t, pages[i]);
		KTEST_EXPECT_EQ(t, cold()->count, left[i]);
		list_whole(t, cold(), "cold");
	}
	KTEST_EXPECT_EQ(t, hot()->count, 0);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_MISS) - miss, 2UL);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_HIT) - hit, 2UL);
	/* A hot allocation refills the hot list, not the cold one. */
	pages[4] = pcp_alloc(&pz, false);
	KTEST_ASSERT_NOT_NULL(t, pages[4]);
	KTEST_EXPECT_EQ(t, hot()->count, batch - 1);
	KTEST_EXPECT_EQ(t, cold()->count, 2);

	/* Cold frees: 3, 4, 5, 6 = high; the fifth trims a batch first. */
	for (int i = 0; i < 4; i++)
		pcp_free(&pz, pages[i], true);
	KTEST_EXPECT_EQ(t, cold()->count, 2 * batch);
	drained = zone_stat_read(&pz, NR_PCP_DRAIN);
	locks = zone_stat_read(&pz, NR_ZONE_LOCK);
	tickets = pz_lock_tickets();
	pcp_free(&pz, pages[4], true);
	KTEST_EXPECT_EQ(t, (u16)(pz_lock_tickets() - tickets), 1U);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_ZONE_LOCK) - locks, 1UL);
	KTEST_EXPECT_EQ(t, cold()->count, 2 * batch - batch + 1);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_DRAIN) - drained,
			(unsigned long)batch);
	list_whole(t, cold(), "cold");
	KTEST_EXPECT_EQ(t, hot()->count, batch - 1);
}

static void zone_lock_once_per_batch(struct ktest *t)
{
	const int batch = 15;
	unsigned long locks, flags, taken;
	u16 tickets;

	set_batch(t, batch);
	/* Prime the list above its low mark (its steady state), then count. */
	for (int i = 0; i < 3 * batch; i++)
		held[i] = pcp_alloc(&pz, false);
	for (int i = 0; i < 3 * batch; i++)
		pcp_free(&pz, held[i], false);
	KTEST_ASSERT_GT(t, hot()->count, hot()->low);
	locks = zone_stat_read(&pz, NR_ZONE_LOCK);
	tickets = pz_lock_tickets();
	for (int i = 0; i < 1000; i++) {
		struct page *page = pcp_alloc(&pz, false);

		KTEST_ASSERT_NOT_NULL(t, page);
		/* Straight back to the buddy lists: only refills are counted. */
		spin_lock_irqsave(&pz.lock, flags);
		free_one_page_locked(page, &pz, 0);
		spin_unlock_irqrestore(&pz.lock, flags);
	}
	locks = zone_stat_read(&pz, NR_ZONE_LOCK) - locks;
	/* The lock's real acquisitions, less the case's own 1000 frees. */
	taken = (u16)(pz_lock_tickets() - tickets) - 1000UL;
	ktest_printf(t, "%lu zone-lock acquisitions (%lu counted) for 1000 order-0 allocations, batch %d",
		     taken, locks, batch);
	/* The target: one acquisition per batch of pages, at most. */
	KTEST_EXPECT_LE(t, taken, 1000UL / batch + 1);
	/* And no fewer than the pages the list could not already hold. */
	KTEST_EXPECT_GE(t, taken, (1000UL - (6 - 2) * batch) / batch - 1);
	/* Each counted in NR_ZONE_LOCK. */
	KTEST_EXPECT_EQ(t, locks, taken);
}

static void counters_hit_and_miss(struct ktest *t)
{
	unsigned long hit, miss;
	struct page *a, *b;

	set_batch(t, 4);
	hit = zone_stat_read(&pz, NR_PCP_HIT);
	miss = zone_stat_read(&pz, NR_PCP_MISS);
	a = pcp_alloc(&pz, false);	/* empty list: refill (miss) */
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_MISS) - miss, 1UL);
	KTEST_EXPECT_EQ(t, hot()->count, 3);
	list_whole(t, hot(), "hot");
	b = pcp_alloc(&pz, false);	/* 3 <= low 8: refill again */
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_MISS) - miss, 2UL);
	KTEST_EXPECT_EQ(t, hot()->count, 6);
	list_whole(t, hot(), "hot");
	pcp_free(&pz, a, false);
	pcp_free(&pz, b, false);
	for (int i = 0; i < 4; i++)
		pcp_free(&pz, pcp_alloc(&pz, false), false);
	/* count 8 is not above low 8: still a miss; then 11 > 8: hits. */
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_MISS) - miss, 3UL);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_HIT) - hit, 3UL);
}

/* ---- interrupts ------------------------------------------------------- */

/* An order-0 page straight off the private zone's buddy lists. */
static struct page *pz_take(void)
{
	unsigned long flags;
	struct page *page;

	spin_lock_irqsave(&pz.lock, flags);
	page = rmqueue_locked(&pz, 0);
	spin_unlock_irqrestore(&pz.lock, flags);
	return page;
}

/*
 * The interrupts of lists_are_safe_from_interrupts, on the case's CPU:
 * the tick's timer, and cross-CPU calls a thread on another CPU sends
 * one after the other (many a tick: each is a chance to land inside an
 * operation).  Each one that finds the private zone's hot list one page
 * short of high - the case has taken its head and not yet freed it back
 * - frees a page onto it, one of its own from the buddy lists.
 */
static struct {
	struct timer_list timer;
	struct task_struct *sender;	/* the thread sending the calls */
	int cpu;			/* the case's */
	bool stop;
	unsigned long ticks, calls, frees;
	int worst;		/* the most pages an interrupt found on the list */
} irq_side;

static void interrupt_frees(void)
{
	struct per_cpu_pages *pcp = hot();

	if (pcp->count > irq_side.worst)
		irq_side.worst = pcp->count;
	if (pcp->count == pcp->high - 1) {
		struct page *page = pz_take();

		if (page) {
			pcp_free(&pz, page, false);
			irq_side.frees++;
		}
	}
}

static void tick_fn(unsigned long unused)
{
	interrupt_frees();
	irq_side.ticks++;
	if (!READ_ONCE(irq_side.stop))
		mod_timer(&irq_side.timer, jiffies + 1);
}

static void call_fn(void *unused)
{
	interrupt_frees();
	irq_side.calls++;
}

static int sender_fn(void *unused)
{
	while (!READ_ONCE(irq_side.stop))
		smp_call_function_single(irq_side.cpu, call_fn, NULL, true);
	ktest_park_until_stopped();
	return 0;
}

/* The tick's timer, and the sender on another CPU when there is one. */
static void start_interrupts(struct ktest *t)
{
	int cpu;

	memset(&irq_side, 0, sizeof(irq_side));
	irq_side.cpu = case_cpu();
	setup_timer(&irq_side.timer, tick_fn, 0);
	irq_side.timer.expires = jiffies + 1;
	add_timer(&irq_side.timer);
	for_each_online_cpu(cpu) {
		struct task_struct *k;

		if (cpu == irq_side.cpu)
			continue;
		k = kthread_create_on_cpu(sender_fn, NULL, (unsigned int)cpu,
					  "pcp_irq_sender");
		if (IS_ERR(k)) {
			KTEST_FAIL(t, "cannot start the thread sending cross-CPU calls");
			return;
		}
		irq_side.sender = k;
		wake_up_process(k);
		return;
	}
}

/* Both stopped; safe to call twice (the case, then pcp_exit). */
static void stop_interrupts(void)
{
	WRITE_ONCE(irq_side.stop, true);
	if (irq_side.timer.function) {
		del_timer_sync(&irq_side.timer);
		irq_side.timer.function = NULL;
	}
	if (irq_side.sender) {
		kthread_stop(irq_side.sender);
		irq_side.sender = NULL;
	}
}

/*
 * An interrupt handler may allocate and free order-0 pages (GFP_ATOMIC,
 * and the tick's decay of the tuned lists), so a list is touched only
 * with interrupts off, for the whole of an operation: from its look at
 * count to its last pointer.  Here the case keeps the hot list at high,
 * taking its head and freeing it back, while interrupts on its CPU free
 * a page onto the list whenever they find it one short of high.  A free
 * that looked at count with interrupts on, then pushed after such an
 * interrupt's free, leaves the list above high.  For half a second
 * (some hundred ticks and as many calls as the other CPU can send, each
 * a chance to land in that window: a list touched so is caught a dozen
 * times or more), every look, the case's and the interrupts', made with
 * interrupts off, must find the list at high at most, and the list must
 * be whole at the end.
 */
static void lists_are_safe_from_interrupts(struct ktest *t)
{
	const int batch = 4, high = 6 * batch;
	unsigned long end, rounds = 0, over = 0, flags;
	int worst = 0;

	set_batch(t, batch);
	start_interrupts(t);
	end = jiffies + HZ / 2;
	while (time_before(jiffies, end)) {
		struct page *page;
		int count;

		local_irq_save(flags);
		count = hot()->count;
		local_irq_restore(flags);
		if (count > worst)
			worst = count;
		over += count > high;
		if (count < high) {
			/* Back up to high (a free at high trimmed it). */
			page = pz_take();
			KTEST_ASSERT_NOT_NULL(t, page);
		} else {
			page = pcp_alloc(&pz, false);
			KTEST_ASSERT_NOT_NULL(t, page);
		}
		pcp_free(&pz, page, false);
		rounds++;
	}
	stop_interrupts();
	ktest_printf(t, "%lu rounds of the case (%lu above high); %lu ticks and %lu cross-CPU calls, %lu of which freed a page; the most pages on the list: %d (case), %d (interrupts), high %d",
		     rounds, over, irq_side.ticks, irq_side.calls,
		     irq_side.frees, worst, irq_side.worst, high);
	/* The premise: the list was at high, and interrupts freed onto it. */
	KTEST_EXPECT_GE(t, irq_side.ticks, (unsigned long)HZ / 4);
	KTEST_EXPECT_GE(t, worst, high);
	KTEST_EXPECT_GT(t, irq_side.frees, 0UL);
	KTEST_EXPECT_LE(t, worst, high);
	KTEST_EXPECT_LE(t, irq_side.worst, high);
	KTEST_EXPECT_LE(t, hot()->count, high);
	list_whole(t, hot(), "hot");
}

/* ---- the real zones ---------------------------------------------------- */

static void drains_leave_every_list_empty(struct ktest *t)
{
	struct page *pages[64];
	char why[128];
	struct zone *z;
	int nid, cpu;

	for (int i = 0; i < 64; i++) {
		pages[i] = alloc_page(i & 1 ? GFP_KERNEL : GFP_KERNEL | __GFP_COLD);
		KTEST_ASSERT_NOT_NULL(t, pages[i]);
	}
	for (int i = 0; i < 64; i++) {
		if (i & 1)
			free_hot_page(pages[i]);
		else
			free_cold_page(pages[i]);
	}
	KTEST_EXPECT_GT(t, nr_pcp_pages(), 0UL);
	drain_all_pages();
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			for_each_online_cpu(cpu)
				for (int j = 0; j < 2; j++) {
					KTEST_EXPECT_EQ(t, z->pageset[cpu].pcp[j].count, 0);
					KTEST_EXPECT_TRUE(t, list_empty(&z->pageset[cpu].pcp[j].list));
				}
	if (check_all_zones(why, sizeof(why)))
		KTEST_FAIL(t, "zone checker: %s", why);
}

static void batch_follows_linux(struct ktest *t)
{
	/* zone_batchsize() by hand for a few zone sizes (2.6's rule). */
	static const struct { unsigned long pages; unsigned int batch; } tab[] = {
		{ 1024, 1 },		/* 1 -> /4 = 0 -> 1 -> 2^1 - 1 */
		{ 3999, 1 },		/* 3 -> 0 -> 1 -> 1 */
		{ 28640, 15 },		/* 27 -> 6 -> 6+3=9 -> 2^4 - 1 */
		{ 126944, 15 },		/* 123 -> 30 -> 30+15=45 -> 2^6 - 1?  capped */
		{ 1UL << 20, 31 },	/* capped at 64 pages -> 16 -> 24 -> 31 */
	};
	struct zone z;

	for (unsigned int i = 0; i < ARRAY_SIZE(tab); i++) {
		memset(&z, 0, sizeof(z));
		z.present_pages = tab[i].pages;
		if (tab[i].pages == 126944)
			continue; /* worked below, where the cap applies */
		KTEST_EXPECT_EQ(t, zone_batchsize(&z), tab[i].batch);
	}
	/* 126944 pages: 123 -> capped at 64 (256 KiB) -> 16 -> 16+8 = 24 -> 31 */
	memset(&z, 0, sizeof(z));
	z.present_pages = 126944;
	KTEST_EXPECT_EQ(t, zone_batchsize(&z), 31U);
}

/* ---- the fast paths' own rules, through the public API ----------------- */

/*
 * This CPU's own share of a zone counter: only this CPU writes it, so a
 * difference across a few calls of the case is exact.
 */
static unsigned long my_stat(struct zone *z, enum zone_stat_item item)
{
	return READ_ONCE(z->pageset[case_cpu()].stat[item]);
}

/*
 * __GFP_ZERO and get_zeroed_page() leave the order-0 fast path (which
 * does not zero) for the full one, which takes the same page - the head
 * of this CPU's hot list, here a page just dirtied and freed hot -
 * counts it the same (one NR_PCP_HIT, one NR_ALLOC_FAST) and zeroes it.
 * The list is first put above its low mark (low + 2 pages freed hot: a
 * list at high trims to high - batch, above low), so neither path
 * refills it.
 */
static void zeroed_alloc_takes_the_hot_head(struct ktest *t)
{
	static struct page *prime[2 * 63 + 2];

	for (int round = 0; round < 2; round++) {
		const char *what = round ? "get_zeroed_page(GFP_KERNEL)" :
					   "alloc_page(GFP_KERNEL | __GFP_ZERO)";
		struct page *p = alloc_page(GFP_KERNEL), *q;
		unsigned long hit, fast;
		struct zone *z;
		int n;
		u8 *bad;

		KTEST_ASSERT_NOT_NULL(t, p);
		z = page_zone(p);
		if (!zone_watermark_ok(z, 0, z->pages_low, zone_idx(z), 0)) {
			__free_page(p);
			ktest_skip(t, "the zone is at its low watermark: no first-pass allocation");
		}
		n = z->pageset[case_cpu()].pcp[0].low + 1;
		KTEST_ASSERT_TRUE(t, n <= (int)ARRAY_SIZE(prime));
		for (int i = 0; i < n; i++) {
			prime[i] = alloc_page(GFP_KERNEL);
			KTEST_ASSERT_NOT_NULL(t, prime[i]);
			KTEST_ASSERT_TRUE(t, page_zone(prime[i]) == z);
		}
		for (int i = 0; i < n; i++)
			free_hot_page(prime[i]);
		memset(page_address(p), 0x5a, PAGE_SIZE);
		free_hot_page(p);
		KTEST_EXPECT_GT(t, z->pageset[case_cpu()].pcp[0].count,
				z->pageset[case_cpu()].pcp[0].low);
		hit = my_stat(z, NR_PCP_HIT);
		fast = my_stat(z, NR_ALLOC_FAST);
		q = round ? virt_to_page((void *)get_zeroed_page(GFP_KERNEL)) :
			    alloc_page(GFP_KERNEL | __GFP_ZERO);
		KTEST_EXPECT_EQ(t, my_stat(z, NR_PCP_HIT) - hit, 1UL);
		KTEST_EXPECT_EQ(t, my_stat(z, NR_ALLOC_FAST) - fast, 1UL);
		KTEST_ASSERT_PTR_EQ(t, q, p);
		KTEST_EXPECT_EQ(t, page_count(q), 1);
		bad = memchr_inv(page_address(q), 0, PAGE_SIZE);
		if (bad)
			KTEST_FAIL(t, "%s: pfn %#lx, freed hot holding 0x5a, came back with %#x at offset %#lx",
				   what, page_to_pfn(q), *bad,
				   (unsigned long)(bad - (u8 *)page_address(q)));
		__free_page(q);
	}
}

/*
 * A free drops one reference; only the last one frees the page (the
 * last, with a count of 1, is dropped by a plain store): with two
 * references the first __free_page() leaves the page allocated, off
 * every list, count 1; the second puts it at the head of this CPU's hot
 * list, count 0, one page more on the list.
 */
static void free_drops_one_reference(struct ktest *t)
{
	struct page *p = alloc_page(GFP_KERNEL), *q;
	struct per_cpu_pages *pcp;
	unsigned long drained;
	int before;

	KTEST_ASSERT_NOT_NULL(t, p);
	pcp = &page_zone(p)->pageset[case_cpu()].pcp[0];
	get_page(p);
	KTEST_EXPECT_EQ(t, page_count(p), 2);
	before = pcp->count;
	__free_page(p);
	KTEST_EXPECT_EQ(t, page_count(p), 1);
	KTEST_EXPECT_FALSE(t, PagePcp(p));
	KTEST_EXPECT_EQ(t, pcp->count, before);
	drained = my_stat(page_zone(p), NR_PCP_DRAIN);
	__free_page(p);
	KTEST_EXPECT_EQ(t, page_count(p), 0);
	KTEST_EXPECT_TRUE(t, PagePcp(p));
	/* Unless the list was at high and gave pages back first. */
	if (my_stat(page_zone(p), NR_PCP_DRAIN) == drained)
		KTEST_EXPECT_EQ(t, pcp->count, before + 1);
	q = alloc_page(GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, q, p);
	__free_page(q);
}

/* ---- Linux 6.7's auto-tuned high, on the private zone ----------------- */

/*
 * The private zone's hot list made a tuned one: high from 6 * batch
 * (high_min) up to high_max, as setup_per_zone_pcp_high() makes the
 * machine's; n pages of the zone in held[], the list empty, and no
 * allocation since (free_count 0), so that a run of frees starts clean.
 */
static void tuned_list(struct ktest *t, int batch, int high_max, int n)
{
	set_batch(t, batch);
	hot()->high_min = 6 * batch;
	hot()->high_max = high_max;
	for (int i = 0; i < n; i++) {
		held[i] = pcp_alloc(&pz, false);
		KTEST_ASSERT_NOT_NULL(t, held[i]);
	}
	zone_drain_local(&pz);
	hot()->free_count = 0;
	KTEST_ASSERT_EQ(t, hot()->count, 0);
	pz.below_high = false;
}

/*
 * A run of frees onto a tuned list: each time the list is at high, high
 * grows to the run so far and a batch (free_count + batch) and nothing
 * goes back, up to high_max; from there on it is 2.6's list, one batch
 * back each time.  With batch 4 and high_max 60, 100 frees from empty:
 * high 24, 28, ... 60 with no trim, then 40 frees at high 60 that give
 * back a batch every 4th free: 10 trims, 40 pages, one zone lock each.
 */
static void tuned_high_grows_with_a_run_of_frees(struct ktest *t)
{
	const int batch = 4, high_max = 60, n = 100;
	unsigned long drained, locks, free;
	int peak_without_trim = 0;

	tuned_list(t, batch, high_max, n);
	drained = zone_stat_read(&pz, NR_PCP_DRAIN);
	locks = zone_stat_read(&pz, NR_ZONE_LOCK);
	free = pz.free_pages;
	for (int i = 0; i < n; i++) {
		pcp_free(&pz, held[i], false);
		if (zone_stat_read(&pz, NR_PCP_DRAIN) == drained)
			peak_without_trim = hot()->count;
		KTEST_EXPECT_LE(t, hot()->count, hot()->high);
	}
	KTEST_EXPECT_EQ(t, peak_without_trim, high_max);
	KTEST_EXPECT_EQ(t, hot()->high, high_max);
	KTEST_EXPECT_EQ(t, hot()->count, high_max);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_DRAIN) - drained,
			(unsigned long)(n - high_max));
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_ZONE_LOCK) - locks,
			(unsigned long)(n - high_max) / batch);
	KTEST_EXPECT_EQ(t, pz.free_pages - free, (unsigned long)(n - high_max));
}

/*
 * An allocation ends a run: it halves free_count, so a list allocated
 * from between its frees grows no further than 2.6's.  40 frees from
 * empty (batch 4): high grows 24, 28, ... 40, with the run 40; one
 * allocation halves it to 20, its page's free makes it 21 and the list
 * 40 again; the next free finds the list at high with a run of 21 + 4,
 * less than 40: 2.6's trim of one batch, and high stays 40.
 */
static void an_allocation_halves_the_run(struct ktest *t)
{
	const int batch = 4, n = 40;
	unsigned long drained;
	struct page *p;

	tuned_list(t, batch, 1000, n + 1);
	for (int i = 0; i < n; i++)
		pcp_free(&pz, held[i], false);
	KTEST_EXPECT_EQ(t, hot()->free_count, n);
	KTEST_ASSERT_EQ(t, hot()->high, n);
	p = pcp_alloc(&pz, false);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, hot()->free_count, n / 2);
	pcp_free(&pz, p, false);
	KTEST_ASSERT_EQ(t, hot()->count, n);
	drained = zone_stat_read(&pz, NR_PCP_DRAIN);
	pcp_free(&pz, held[n], false);
	KTEST_EXPECT_EQ(t, hot()->high, n);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_DRAIN) - drained,
			(unsigned long)batch);
	KTEST_EXPECT_EQ(t, hot()->count, n - batch + 1);
}

/*
 * Below pages_high (an allocation set zone->below_high), a free at high
 * shrinks high by the run, at least a batch, toward high_min, and gives
 * back everything above the new high and a batch more, under one zone
 * lock.  Once the zone is back above pages_high, the next free at high
 * clears the flag, and high grows with the run again.
 */
static void tuned_high_shrinks_below_pages_high(struct ktest *t)
{
	const int batch = 4, n = 100, high_min = 6 * batch;
	unsigned long drained, locks;
	int more = 0;

	tuned_list(t, batch, 1000, n + 8);
	for (int i = 0; i < n; i++)
		pcp_free(&pz, held[i], false);
	KTEST_ASSERT_EQ(t, hot()->count, n);
	KTEST_ASSERT_EQ(t, hot()->high, n);
	KTEST_ASSERT_EQ(t, hot()->free_count, n);
	pz.pages_high = pz.free_pages + 1;
	pz.below_high = true;
	drained = zone_stat_read(&pz, NR_PCP_DRAIN);
	locks = zone_stat_read(&pz, NR_ZONE_LOCK);
	/* high: 100 - max(run 100, batch), not below 24; 100 - 24 + 4 back. */
	pcp_free(&pz, held[n + more++], false);
	KTEST_EXPECT_EQ(t, hot()->high, high_min);
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_DRAIN) - drained,
			(unsigned long)(n - high_min + batch));
	KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_ZONE_LOCK) - locks, 1UL);
	KTEST_ASSERT_EQ(t, hot()->count, high_min - batch + 1);
	/* Above pages_high again, but only a free at high looks. */
	KTEST_EXPECT_GE(t, pz.free_pages, pz.pages_high);
	while (hot()->count < high_min)
		pcp_free(&pz, held[n + more++], false);
	KTEST_EXPECT_TRUE(t, pz.below_high);
	/* At high: cleared, and high grows to the run (n + more) + batch. */
	pcp_free(&pz, held[n + more], false);
	KTEST_EXPECT_FALSE(t, pz.below_high);
	KTEST_EXPECT_EQ(t, hot()->high, n + more + batch);
	KTEST_EXPECT_EQ(t, hot()->count, high_min + 1);
	more++;
	/* The rest of held[] back on the list, for pcp_exit's drain. */
	while (more < 8)
		pcp_free(&pz, held[n + more++], false);
}

/*
 * A list only freed to - here a private zone's fixed one, batch 1, high
 * 6, as a cold list that nothing allocates cold from - counts its run of
 * frees only up to 32 batches: each free at high bounds it (to 32) before
 * it counts itself (33), so the count never overflows.
 */
static void the_run_is_counted_to_32_batches(struct ktest *t)
{
	const int batch = 1, n = 200;

	set_batch(t, batch);
	for (int i = 0; i < n; i++) {
		held[i] = pcp_alloc(&pz, false);
		KTEST_ASSERT_NOT_NULL(t, held[i]);
	}
	zone_drain_local(&pz);
	for (int i = 0; i < n; i++)
		pcp_free(&pz, held[i], false);
	KTEST_EXPECT_EQ(t, hot()->count, 6 * batch);
	KTEST_EXPECT_EQ(t, hot()->free_count, (batch << 5) + 1);
}

/*
 * An allocation that looks at a zone below pages_high sets the zone's
 * below_high (6.7 notes it on the allocation's way, not on the hotter
 * free path); one that finds it above leaves the flag alone.  Order 1,
 * so that the allocation takes the full path rather than a list.
 */
static void allocation_notes_a_zone_below_pages_high(struct ktest *t)
{
	struct page *p = alloc_pages(GFP_KERNEL, 1);
	unsigned long saved;
	struct zone *z;
	bool was;

	KTEST_ASSERT_NOT_NULL(t, p);
	z = page_zone(p);
	__free_pages(p, 1);
	if (!zone_watermark_ok(z, 1, z->pages_high, zone_idx(z), 0))
		ktest_skip(t, "the zone is below pages_high already");
	was = READ_ONCE(z->below_high);
	WRITE_ONCE(z->below_high, false);
	p = alloc_pages(GFP_KERNEL, 1);
	KTEST_EXPECT_FALSE(t, READ_ONCE(z->below_high));
	if (p)
		__free_pages(p, 1);
	/* pages_high above what the zone has free: the next look notes it. */
	saved = z->pages_high;
	z->pages_high = z->free_pages + 4096;
	p = alloc_pages(GFP_KERNEL, 1);
	z->pages_high = saved;
	KTEST_EXPECT_TRUE(t, READ_ONCE(z->below_high));
	WRITE_ONCE(z->below_high, was);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_TRUE(t, page_zone(p) == z);
	__free_pages(p, 1);
}

/*
 * The machine's zones: each hot list tuned, from 2.6's 6 * batch up to an
 * eighth of the zone's managed pages shared by its node's CPUs (never
 * below 6 * batch); each cold list fixed at 2 * batch.
 */
static void machine_zones_tune_the_hot_lists(struct ktest *t)
{
	int checked = 0;

	for (int nid = 0; nid < nr_online_nodes; nid++) {
		unsigned long cpus = 0;
		struct zone *z;

		for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
			cpus += cpu_to_node(cpu) == nid;
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			int batch = (int)zone_batchsize(z);
			unsigned long want = z->managed_pages / 8 / (cpus ? cpus : 1);

			if (!populated_zone(z))
				continue;
			if (want < 6UL * (unsigned long)batch)
				want = 6UL * (unsigned long)batch;
			for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
				struct per_cpu_pages *h = &z->pageset[cpu].pcp[0];
				struct per_cpu_pages *c = &z->pageset[cpu].pcp[1];

				KTEST_EXPECT_EQ(t, h->high_min, 6 * batch);
				KTEST_EXPECT_EQ(t, (unsigned long)h->high_max, want);
				KTEST_EXPECT_GE(t, h->high, h->high_min);
				KTEST_EXPECT_LE(t, h->high, h->high_max);
				KTEST_EXPECT_EQ(t, c->high_min, 2 * batch);
				KTEST_EXPECT_EQ(t, c->high_max, 2 * batch);
				KTEST_EXPECT_EQ(t, c->high, 2 * batch);
				checked++;
			}
		}
	}
	KTEST_EXPECT_GT(t, checked, 0);
}

/*
 * Linux 6.7's decay of a tuned list, one step at a time (pcp_decay_high):
 * high loses an eighth, never more than 2^5 batches below the count and
 * never below high_min, and what lies above it goes back from the cold
 * end.  A run of 100 frees (batch 4, high_max 100) leaves high 100 and
 * 100 pages; each decay is checked against the rule worked out here, down
 * to high_min; a list with fixed marks never decays.
 */
static void tuned_high_decays_an_eighth_a_step(struct ktest *t)
{
	const int batch = 4, n = 100, high_min = 6 * batch;
	unsigned long flags, drained;
	int steps = 0;

	tuned_list(t, batch, n, n);
	for (int i = 0; i < n; i++)
		pcp_free(&pz, held[i], false);
	KTEST_ASSERT_EQ(t, hot()->high, n);
	KTEST_ASSERT_EQ(t, hot()->count, n);
	while (hot()->high > high_min && steps < 64) {
		int high = hot()->high, count = hot()->count, want, gave;

		want = max(max(count - (batch << 5), high - (high >> 3)), high_min);
		drained = zone_stat_read(&pz, NR_PCP_DRAIN);
		local_irq_save(flags);
		gave = pcp_decay_high(&pz, hot());
		local_irq_restore(flags);
		KTEST_EXPECT_EQ(t, hot()->high, want);
		KTEST_EXPECT_EQ(t, hot()->count, min(count, want));
		KTEST_EXPECT_EQ(t, gave, count - min(count, want));
		KTEST_EXPECT_EQ(t, zone_stat_read(&pz, NR_PCP_DRAIN) - drained,
				(unsigned long)gave);
		steps++;
	}
	ktest_printf(t, "100 pages decayed to high %d in %d steps", hot()->high,
		     steps);
	KTEST_EXPECT_EQ(t, hot()->high, high_min);
	KTEST_EXPECT_EQ(t, hot()->count, high_min);
	/* 2.6's fixed marks (the cold list): no decay. */
	cold()->count = 0;
	local_irq_save(flags);
	KTEST_EXPECT_EQ(t, pcp_decay_high(&pz, cold()), 0);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, cold()->high, 2 * batch);
}

/*
 * On the machine's zones each CPU decays its own tuned lists once a
 * second: a run of frees on another CPU, which then stays idle, grows its
 * list past 2.6's high; within a few seconds the list has given pages
 * back and its high has come down (before the decay, nothing but that
 * CPU's own frees could: its pages stayed stranded).
 */
struct far_run {
	struct page **pages;
	int n;
	struct zone *zone;
	int high, count;	/* the list's after the run */
};

static void free_the_run_here(void *arg)
{
	struct far_run *r = arg;
	struct per_cpu_pages *pcp = &r->zone->pageset[raw_smp_processor_id()].pcp[0];

	for (int i = 0; i < r->n; i++)
		free_hot_page(r->pages[i]);
	r->high = pcp->high;
	r->count = pcp->count;
}

static void an_idle_cpus_tuned_list_decays(struct ktest *t)
{
	int cpu = (int)nr_cpu_ids - 1, n = 0;
	struct per_cpu_pages *pcp;
	struct far_run r = { .pages = held };
	unsigned long end;

	if (cpu == raw_smp_processor_id() || !cpu_online(cpu))
		ktest_skip(t, "needs 2 CPUs: the run of frees on another");
	while (n < (int)ARRAY_SIZE(held)) {
		struct page *p = alloc_page(GFP_KERNEL | __GFP_NOWARN);

		if (!p)
			break;
		if (r.zone && page_zone(p) != r.zone) {
			__free_page(p);
			break;
		}
		r.zone = page_zone(p);
		held[n++] = p;
	}
	r.n = n;
	pcp = &r.zone->pageset[cpu].pcp[0];
	if (pcp->high_max <= pcp->high_min) {
		for (int i = 0; i < n; i++)
			__free_page(held[i]);
		ktest_skip(t, "the zone's hot lists keep 2.6's fixed marks");
	}
	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, free_the_run_here, &r,
						    true), 0);
	ktest_printf(t, "%d frees on CPU %d: its %s list high %d, %d pages",
		     n, cpu, r.zone->name, r.high, r.count);
	KTEST_EXPECT_GT(t, r.high, pcp->high_min);
	end = jiffies + 5 * HZ;
	while (READ_ONCE(pcp->high) >= r.high && time_before(jiffies, end))
		schedule_timeout_uninterruptible(HZ / 10);
	ktest_printf(t, "then high %d, %d pages", READ_ONCE(pcp->high),
		     READ_ONCE(pcp->count));
	KTEST_EXPECT_LT(t, READ_ONCE(pcp->high), r.high);
	KTEST_EXPECT_LE(t, READ_ONCE(pcp->count), READ_ONCE(pcp->high));
}

/* ---- the kernel's invariant over its per-CPU lists --------------------- */

/* The first violation found, and how many. */
struct lists_check {
	char *why;
	size_t len;
	int found;
};

static void __printf(2, 3) list_violation(struct lists_check *c,
					  const char *fmt, ...)
{
	va_list args;

	if (!c->found++) {
		va_start(args, fmt);
		vscnprintf(c->why, c->len, fmt, args);
		va_end(args);
	}
}

/* Is pos the lru of a struct page of mem_map? (Else no page to read.) */
static bool is_page_lru(const struct list_head *pos)
{
	unsigned long p = (unsigned long)list_entry(pos, struct page, lru);
	unsigned long off = p - (unsigned long)mem_map;

	return p >= (unsigned long)mem_map && off % sizeof(struct page) == 0 &&
	       pfn_valid(off / sizeof(struct page));
}

/*
 * One of this CPU's lists: count pages long, each a page of the zone's
 * span, PG_pcp and not PG_buddy.  The walk stops one page past count (a list
 * that loops, or runs on into a buddy list, is not followed further).
 */
static void check_list(struct lists_check *c, struct zone *z, int cpu,
		       int cold)
{
	struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[cold];
	const char *name = cold ? "cold" : "hot";
	struct list_head *pos;
	int n = 0;

	for (pos = pcp->list.next; pos != &pcp->list && n <= pcp->count;
	     pos = pos->next, n++) {
		struct page *page = list_entry(pos, struct page, lru);

		if (!is_page_lru(pos)) {
			list_violation(c, "%s: CPU %d's %s list: entry %d of %d is no page (%p)",
				       z->name, cpu, name, n, pcp->count, pos);
			return;
		}
		if (PageBuddy(page) || !PagePcp(page) ||
		    !zone_spans_pfn(z, page_to_pfn(page))) {
			list_violation(c, "%s: CPU %d's %s list: pfn %#lx (entry %d of %d) is %s",
				       z->name, cpu, name, page_to_pfn(page), n,
				       pcp->count,
				       PageBuddy(page) ? "free in the buddy lists" :
				       !PagePcp(page) ? "not marked PG_pcp" :
				       "of another zone");
			return;
		}
	}
	if (n > pcp->count)
		list_violation(c, "%s: CPU %d's %s list holds more than the %d pages its count says",
			       z->name, cpu, name, pcp->count);
	else if (n < pcp->count)
		list_violation(c, "%s: CPU %d's %s list holds %d pages, its count says %d",
			       z->name, cpu, name, n, pcp->count);
}

/* This CPU's lists, with interrupts off (its own, or a cross-call). */
static void check_cpu_lists(void *arg)
{
	int cpu = raw_smp_processor_id();
	struct zone *z;
	int nid;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			for (int cold = 0; cold < 2; cold++)
				check_list(arg, z, cpu, cold);
}

/*
 * The invariant of the lists this suite tests, which ktest checks after
 * every case of every suite (KTEST_INVARIANT, as tests/resources.c the
 * buddy lists): every list of every real zone on every CPU holds count
 * pages, each of its zone, PG_pcp, none free in the buddy lists.  Each
 * CPU walks its own lists with interrupts off, so none is read half
 * updated.  A list that breaks it has lost a page's count or a page, or
 * holds a page the buddy allocator may hand out again.
 */
static int pcp_lists_check(char *why, size_t len)
{
	struct lists_check c = { .why = why, .len = len, .found = 0 };
	unsigned long flags;
	int cpu;

	for_each_online_cpu(cpu) {
		if (cpu != raw_smp_processor_id()) {
			smp_call_function_single(cpu, check_cpu_lists, &c, true);
			continue;
		}
		local_irq_save(flags);
		check_cpu_lists(&c);
		local_irq_restore(flags);
	}
	return c.found;
}
KTEST_INVARIANT(pcp_lists, "the per-CPU page lists", pcp_lists_check);

/* This CPU's lists of the private zone, when the first breach is not yet found. */
static void private_lists_check(const char *when)
{
	char why[KTEST_CAPTURE_LINE];
	struct lists_check c = { .why = why, .len = sizeof(why), .found = 0 };
	unsigned long flags;

	local_irq_save(flags);
	for (int cold = 0; cold < 2; cold++)
		check_list(&c, &pz, case_cpu(), cold);
	local_irq_restore(flags);
	if (c.found && !breach[0])
		scnprintf(breach, sizeof(breach), "%s, %s", why, when);
}

/* After every case, of any suite: the breach pcp_exit found, once. */
static int private_zone_breaches(char *why, size_t len)
{
	return ktest_take_breach(breach, why, len);
}
KTEST_INVARIANT(pcp_private_zone, "the pcp suite's private zone",
		private_zone_breaches);

/*
 * The drain first: it is the one case that gives the real zones' lists
 * back through free_pages_bulk(), so a drain that corrupts them is seen
 * by the kernel's own check after it (tests/resources.c), before any
 * other case can pass on a corrupted kernel.
 */
static const struct ktest_case pcp_cases[] = {
	KTEST_CASE(drains_leave_every_list_empty),
	KTEST_CASE(hot_free_is_reused_first),
	KTEST_CASE(cold_free_is_reused_by_cold_alloc),
	KTEST_CASE(lifo_on_the_hot_list),
	KTEST_CASE(hot_takes_cold_only_when_hot_is_empty),
	KTEST_CASE(count_never_exceeds_high),
	KTEST_CASE(trim_gives_back_the_coldest),
	KTEST_CASE(cold_list_refills_empty_and_trims_at_high),
	KTEST_CASE(zone_lock_once_per_batch),
	KTEST_CASE(counters_hit_and_miss),
	KTEST_CASE(lists_are_safe_from_interrupts),
	KTEST_CASE(batch_follows_linux),
	KTEST_CASE(zeroed_alloc_takes_the_hot_head),
	KTEST_CASE(free_drops_one_reference),
	KTEST_CASE(tuned_high_grows_with_a_run_of_frees),
	KTEST_CASE(an_allocation_halves_the_run),
	KTEST_CASE(tuned_high_shrinks_below_pages_high),
	KTEST_CASE(the_run_is_counted_to_32_batches),
	KTEST_CASE(allocation_notes_a_zone_below_pages_high),
	KTEST_CASE(machine_zones_tune_the_hot_lists),
	KTEST_CASE(tuned_high_decays_an_eighth_a_step),
	KTEST_CASE(an_idle_cpus_tuned_list_decays),
	KTEST_END,
};

static const struct ktest_suite pcp_suite = {
	.name = "pcp",
	.exit = pcp_exit,
	.cases = pcp_cases,
};
KTEST_SUITE(pcp_suite);
