/*
 * mm/page_alloc.c - the buddy page allocator and the GFP API.
 *
 * Each zone keeps free memory as naturally aligned blocks of 2^order pages
 * on free_area[order] lists, orders 0..MAX_ORDER-1.  Allocation takes the
 * smallest block that fits and splits it, returning the unused halves to
 * the lower lists (expand_locked).  Freeing looks at the block's buddy -
 * the block of the same order whose pfn differs only in bit "order" - and
 * while that buddy is free and whole, merges with it and goes up an order.
 * So fragmentation heals itself whenever both halves come back.
 *
 * Invariants (checked by zone_check() in mm/page_check.c):
 *  - a block on free_area[k] is 2^k pages, starts at a pfn aligned to 2^k,
 *    lies inside its zone's span, and only its head page has PG_buddy,
 *    with private == k; free pages have _count 0;
 *  - zone->free_pages is the number of pages on the zone's buddy lists
 *    (not the per-CPU lists), and free_area[k].nr_free the length of k;
 *  - buddies never merge across a zone edge or into a hole: a pfn outside
 *    the zone, or a page that is PG_reserved, is never a free buddy; nor
 *    across nodes or zones whose spans overlap (firmware interleaving
 *    nodes): a buddy must have the page's node and zone (2.6.17:
 *    page_zone_id).
 *
 * Order-0 pages go through per-CPU hot and cold lists in front of the
 * buddy lists, refilled and trimmed a batch at a time under one zone
 * lock; hot low 2 * batch, high 6 * batch, cold 0 and 2 * batch, batch
 * from zone_batchsize() (2.6.12-15).  On the machine's zones a hot list's
 * high is tuned as Linux 6.7 tunes it (pcp_nr_trim): a run of frees
 * raises it to hold the run, up to an eighth of the zone shared by its
 * node's CPUs, so that pages one CPU frees in bulk - its own, or pages
 * another CPU handed it - wait on its list for its next allocations
 * instead of passing through the buddy lists; while an allocation has
 * found the zone below pages_high, frees shrink it back toward 6 * batch.
 * Once a second each CPU's timer decays its tuned lists' high by an
 * eighth toward 6 * batch and gives back what lies above it (6.7's
 * decay_pcp_high, run from vmstat's work), so an idle CPU's list returns
 * the pages of a run of frees within seconds; an allocation that may
 * sleep and still fails drains every CPU's lists at once, one that may
 * not drains its own (below).  Not followed: 6.7's raising of high and
 * of the refill batch on the allocation side.  Private zones
 * (zone_pcp_init) and cold lists keep 2.6's fixed marks.  The lock is
 * held for the buddy work alone: a trim picks its pages off the list
 * before taking it (4.17's free_pcppages_bulk), a refill spreads its
 * pages on the list after dropping it, and takes them a block at a time
 * (rmqueue_bulk_locked: the same pages and free lists as 2.6's one
 * __rmqueue per page, without splitting a block page by page - mm86's
 * own).  The fast path (alloc_page_fast) takes from this CPU's list of
 * the preferred zone only while the list is above its low mark and the
 * zone above pages_low, and only for a plain mask (__GFP_ZERO and page
 * poisoning take the full path, whose prep_new_page does them): pages on a list are
 * outside free_pages, so the watermarks judge the zone's buddy lists
 * alone, as 2.6.15+ checked zone_watermark_ok before buffered_rmqueue.
 * It is later Linux's fast path in 2.6's structures: inlined into
 * alloc_pages()/alloc_pages_node() with no zonelist walk when the
 * preferred zone passes; the watermark inlined too, where order 0 folds
 * to one comparison (4.7's zone_watermark_fast shortcut); the free
 * inlined into __free_pages() down to the list push, the batch trim out
 * of line.  Every call on the way to or from a list is a tail call or
 * the last act of the path (alloc_page_fast_finish, alloc_pages_refill,
 * pcp_free_trim, local_irq_restore_slow), so the fast paths save no
 * registers for calls they do not make.  The order-0 page state checks
 * are MM_DEBUG's (mm/mm.h; CONFIG_DEBUG_VM's since 4.7, see
 * mm/internal.h), and so are __free_one_page's alignment and span checks
 * (2.6.2x's VM_BUG_ON) and __free_pages' order check.  The last
 * reference to a page, a count of 1, is dropped by a plain store, not a
 * locked decrement (put_page_testzero: mm86's own, sound because mm86,
 * like 2.6 before 2.6.27, takes no speculative references).
 *
 * Allocation (__alloc_pages) has the shape of Linux 2.6's:
 *  - try every zone of the zonelist at pages_low (plus lowmem_reserve
 *    against the preferred zone, 2.6.10+); then wake kswapd of every zone
 *    below pages_low (2.6.x);
 *  - try again at pages_min: halved for __GFP_HIGH (ALLOC_HIGH), and a
 *    quarter lower again for callers that cannot sleep (ALLOC_HARDER:
 *    GFP_ATOMIC and GFP_NOWAIT), so GFP_ATOMIC may dig into a reserve
 *    GFP_KERNEL may not touch (ALLOC_* of 2.6.15+);
 *  - give the per-CPU lists back and try once more (mm86's own step: the
 *    lists are free memory the watermarks do not see);
 *  - a reclaimer (PF_MEMALLOC: kswapd, or a task inside direct reclaim),
 *    outside interrupts, may take the last pages, ignoring watermarks
 *    (ALLOC_NO_WATERMARKS), so that reclaim itself can make progress; it
 *    never reclaims recursively.  With __GFP_NOFAIL (and __GFP_WAIT) it
 *    sleeps HZ/50 and starts over until a page comes back, never
 *    returning NULL (2.6.15-2.6.30: nofail_alloc);
 *  - an allocation that may not sleep stops there.  One that may sleeps
 *    reclaims directly (mm/vmscan.c) and retries:
 *      __GFP_NORETRY: never; one pass of reclaim and it fails;
 *      __GFP_NOFAIL: for ever, whatever progress (with a warning above
 *      order 1: such a caller can wedge the machine);
 *      order <= 3 while reclaim makes progress (2.6.23:
 *      PAGE_ALLOC_COSTLY_ORDER);
 *      __GFP_REPEAT, any order: while reclaim makes progress and has not
 *      yet freed as many pages as were asked for - so it may still fail
 *      (2.6.24);
 *      anything else (order > 3): one pass.
 *    Between retries the caller sleeps HZ/50 (2.6.x blk_congestion_wait),
 *    so that kswapd and the tasks freeing memory get to run.
 *
 * Deviations from 2.6, on purpose: there is no OOM killer, so an order-0
 * GFP_KERNEL allocation can fail where 2.6 would loop.  __GFP_NOFAIL
 * without __GFP_WAIT cannot be kept: 2.6 slept in blk_congestion_wait
 * even then (a bug in atomic context); here it warns once (as Linux does
 * since 4.x) and is treated as an ordinary allocation that may fail.
 *
 * A failure is reported (the mode, a stack and the memory summary) unless
 * __GFP_NOWARN, and at most printk_ratelimit()'s burst per interval: the
 * report is printed synchronously, from any context (2.6.x).
 *
 * Locking and context, all asserted, not only written:
 *  - zone->lock protects the buddy lists and free_pages.  It is a leaf:
 *    nothing is taken under it, nothing printed.  It is always taken with
 *    interrupts off (irqsave, or spin_lock inside the per-CPU paths'
 *    local_irq_save), as an interrupt handler may allocate.  The helpers
 *    that need it end in _locked and lockdep_assert_held() it.
 *  - a CPU's per-CPU lists and its share of the zone event counters are
 *    touched only by that CPU with interrupts off, which also keeps it
 *    from being preempted between reading smp_processor_id() and using
 *    it; rmqueue_bulk, free_pages_bulk and __zone_stat_add assert it
 *    with lockdep_assert_irqs_disabled() (pcp_take's callers turn them
 *    off in the same function); zone_stat_add() turns them off itself
 *    (2.6.18: __mod_zone_page_state/mod_zone_page_state).
 *  - page state checks (prep_new_page, free_pages_check) run outside the
 *    lock: the pages are exclusively the caller's there.
 *  - the per-CPU fast paths read smp_processor_id() raw: they turned
 *    interrupts off in the same function just before, which is what its
 *    preemption check would have looked for.
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/highmem.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/topology.h"
#include "mm/vmscan.h"

struct page *mem_map;
unsigned long max_pfn;
unsigned long max_low_pfn;

/* ---- buddy core ------------------------------------------------------ */

static inline void set_buddy_order(struct page *page, unsigned int order)
{
	page->private = order;
	__SetPageBuddy(page);
}

static inline void clear_buddy_order(struct page *page)
{
	__ClearPageBuddy(page);
	page->private = 0;
}

/*
 * Is the block at buddy_pfn a free block of exactly this order, of the
 * same node and zone as page (being freed into zone)?  The span alone is
 * not enough: firmware may interleave nodes, so that one node's span
 * holds another's pages, free on the other's lists (2.6.17: same
 * page_zone_id).
 */
static inline bool page_is_buddy(const struct page *page, struct zone *zone,
				 unsigned long buddy_pfn, unsigned int order)
{
	/* LAB buddy: BEGIN true when buddy_pfn is a valid pfn inside zone, of page's node and zone, the head of a free block of this order */
	struct page *buddy;

	if (!pfn_valid(buddy_pfn) || !zone_spans_pfn(zone, buddy_pfn))
		return false;
	buddy = pfn_to_page(buddy_pfn);
	if (page_zone_id(buddy) != page_zone_id(page))
		return false;
	return PageBuddy(buddy) && buddy->private == order;
	/* LAB buddy: END */
}

void zone_init_free_lists(struct zone *zone)
{
	/*
	 * One struct page per 4 KiB frame: 32 bytes (eight words) is 0.8% of
	 * RAM on i386; a 64-bit user-space build has 64-byte pages.
	 */
	BUILD_BUG_ON(sizeof(struct page) > 8 * sizeof(unsigned long));
	for (unsigned int order = 0; order < MAX_ORDER; order++) {
		INIT_LIST_HEAD(&zone->free_area[order].free_list);
		zone->free_area[order].nr_free = 0;
	}
	zone->free_pages = 0;
}

/* Files a free block of this order at the head of its list. */
static inline void add_to_free_area_locked(struct zone *zone, struct page *page,
					   unsigned int order)
{
	set_buddy_order(page, order);
	list_add(&page->lru, &zone->free_area[order].free_list);
	zone->free_area[order].nr_free++;
}

/*
 * The block must be free, aligned and inside the zone: checked with
 * MM_DEBUG only, as 2.6.2x's VM_BUG_ON (CONFIG_DEBUG_VM) checked
 * __free_one_page's alignment and range.
 */
void free_one_page_locked(struct page *page, struct zone *zone,
			  unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	lockdep_assert_held(&zone->lock);
	if (MM_DEBUG) {
		BUG_ON(pfn & ((1UL << order) - 1));
		BUG_ON(!zone_spans_pfn(zone, pfn));
	}

	WRITE_ONCE(zone->free_pages, zone->free_pages + (1UL << order));
	/*
	 * page stays the page being freed until the block is filed: its node
	 * and zone are what a buddy must share.
	 */
	/* LAB buddy: BEGIN merge: while page_is_buddy() says the buddy is free and whole, take it off its list and go up an order */
	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (!page_is_buddy(page, zone, buddy_pfn, order))
			break;
		buddy = pfn_to_page(buddy_pfn);
		list_del(&buddy->lru);
		zone->free_area[order].nr_free--;
		clear_buddy_order(buddy);
		pfn &= ~(1UL << order);
		order++;
	}
	/* LAB buddy: END */
	add_to_free_area_locked(zone, pfn_to_page(pfn), order);
}

/* Splits a block of order high down to order low, freeing the upper halves. */
static void expand_locked(struct zone *zone, struct page *page,
			  unsigned int low, unsigned int high)
{
	unsigned long size = 1UL << high;

	lockdep_assert_held(&zone->lock);
	/* LAB buddy: BEGIN split: halve the block down to order low, filing each upper half on the free list of its order */
	while (high > low) {
		struct page *half;

		high--;
		size >>= 1;
		half = page + size;
		list_add(&half->lru, &zone->free_area[high].free_list);
		zone->free_area[high].nr_free++;
		set_buddy_order(half, high);
	}
	/* LAB buddy: END */
}

/* Takes a block of 2^order pages, or NULL. */
struct page *rmqueue_locked(struct zone *zone, unsigned int order)
{
	lockdep_assert_held(&zone->lock);
	for (unsigned int cur = order; cur < MAX_ORDER; cur++) {
		struct free_area *area = &zone->free_area[cur];
		struct page *page;

		if (list_empty(&area->free_list))
			continue;
		page = list_first_entry(&area->free_list, struct page, lru);
		list_del(&page->lru);
		clear_buddy_order(page);
		area->nr_free--;
		WRITE_ONCE(zone->free_pages, zone->free_pages - (1UL << order));
		expand_locked(zone, page, order, cur);
		return page;
	}
	return NULL;
}

/*
 * count order-0 pages (fewer when the zone runs out) off the buddy lists,
 * leaving the lists exactly as count calls of rmqueue_locked(zone, 0)
 * would - but a block at a time.  Those calls take the smallest free
 * block and split it, filing its upper halves on the empty lists below,
 * so the next calls take those halves first: a block is used up, lowest
 * pfn first, before any other is touched.  So a block no larger than
 * what is still wanted is taken whole, unsplit; the last one is split as
 * expand_locked splits it down to the order that covers what is wanted,
 * and what is left of that part is filed as the aligned blocks the single
 * calls would have left.  Same pages, same order, same free lists, with
 * O(blocks + MAX_ORDER) list operations under the lock instead of
 * O(count * splits).  (mm86's own; 2.6 and later Linux call __rmqueue
 * once a page.)
 *
 * The blocks go on blocks, linked by their head's lru, each head's
 * private holding how many of its pages, from the head on, are taken
 * (1..2^order); the caller spreads them, outside the lock.  Returns the
 * number of pages taken.
 */
unsigned int rmqueue_bulk_locked(struct zone *zone, unsigned int count,
				 struct list_head *blocks)
{
	unsigned int got = 0, cur = 0;

	lockdep_assert_held(&zone->lock);
	while (got < count) {
		unsigned long want = count - got, size;
		struct free_area *area;
		struct page *page;

		/* Below cur the lists are empty, and taking blocks whole keeps them so. */
		while (cur < MAX_ORDER && list_empty(&zone->free_area[cur].free_list))
			cur++;
		if (cur == MAX_ORDER)
			break;
		area = &zone->free_area[cur];
		page = list_first_entry(&area->free_list, struct page, lru);
		list_del(&page->lru);
		clear_buddy_order(page);
		area->nr_free--;
		size = 1UL << cur;
		if (want < size) {
			/* The order whose block covers want; what it leaves above want. */
			unsigned int low = want > 1 ? (unsigned int)fls((unsigned int)(want - 1)) : 0;

			expand_locked(zone, page, low, cur);
			for (unsigned long i = want; i < (1UL << low); i += 1UL << __ffs(i))
				add_to_free_area_locked(zone, page + i, (unsigned int)__ffs(i));
			size = want;
		}
		WRITE_ONCE(zone->free_pages, zone->free_pages - size);
		page->private = size;
		list_add_tail(&page->lru, blocks);
		got += (unsigned int)size;
	}
	return got;
}

/* ---- page state checks ----------------------------------------------- */

/* The struct page of a new block: its order, head flag, one reference. */
static __always_inline void set_new_page(struct page *page, unsigned int order)
{
	page->private = order;
	if (order)
		__SetPageHead(page);
	set_page_count(page, 1);
}

static __always_inline void prep_new_page(struct page *page, unsigned int order,
					  gfp_t gfp)
{
	new_page_check_fast(page, order);
	if (unlikely(page_poisoning))
		check_poison_pages(page, 1U << order);
	set_new_page(page, order);
	if (unlikely(gfp & __GFP_ZERO))
		for (unsigned long i = 0; i < (1UL << order); i++)
			clear_highpage(page + i);
}

/* ---- freeing --------------------------------------------------------- */

/* Pages freed while the task reclaims count as its progress. */
static inline void account_reclaimed(unsigned int order)
{
	struct reclaim_state *rs = current->reclaim_state;

	if (unlikely(rs) && !in_interrupt())
		rs->reclaimed_pages += 1UL << order;
}

static void __free_pages_ok(struct page *page, unsigned int order)
{
	struct zone *zone = page_zone(page);
	unsigned long flags;

	account_reclaimed(order);
	free_pages_check(page, order);
	page->private = 0;
	__ClearPageHead(page);
	if (page_poisoning)
		poison_pages(page, 1U << order);
	spin_lock_irqsave(&zone->lock, flags);
	__zone_stat_inc(zone, NR_ZONE_LOCK);
	free_one_page_locked(page, zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
}

/*
 * Drops the caller's reference; true when it was the last one.  A count
 * of 1 is the caller's reference alone, and only a holder of a reference
 * takes another (get_page(): mm86 has no speculative references, as 2.6
 * had none before 2.6.27's lockless page cache), so nothing can change
 * it meanwhile: a plain store of 0 drops it without the locked
 * instruction, which is most of what an order-0 free costs when the
 * struct page is not in L1.  mm86's own, the idiom of Linux's skb_unref()
 * (a users count of 1 is not decremented atomically).  The acquire load
 * orders the page's last uses by other holders, which dropped theirs with
 * a release, before its free.
 */
static inline bool put_page_testzero(struct page *page)
{
	int count = __atomic_load_n(&page->_count, __ATOMIC_ACQUIRE);

	if (likely(count == 1)) {
		set_page_count(page, 0);
		return true;
	}
	if (MM_DEBUG && unlikely(count <= 0))
		bad_page(page, "freeing a page that is not allocated (refcount 0): double free?");
	return __atomic_sub_fetch(&page->_count, 1, __ATOMIC_ACQ_REL) == 0;
}

/* MM_DEBUG only: a production build trusts the pointer, as 2.6 did. */
static inline void check_page_pointer(const struct page *page, const char *fn)
{
	/* One unsigned comparison: below mem_map wraps to a huge offset. */
	unsigned long off = (unsigned long)page - (unsigned long)mem_map;

	if (MM_DEBUG && unlikely(off >= max_pfn * sizeof(*page) ||
				 off % sizeof(*page))) {
		pr_alert("BUG: %s: %p is not a struct page (not an allocation)\n",
			 fn, (const void *)page);
		dump_stack();
		panic("%s of a bad page pointer", fn);
	}
}

static __always_inline void free_hot_cold_page(struct page *page, bool cold);

void __free_pages(struct page *page, unsigned int order)
{
	check_page_pointer(page, "__free_pages");
	if (MM_DEBUG)
		BUG_ON(order >= MAX_ORDER);
	if (put_page_testzero(page)) {
		if (likely(order == 0))
			free_hot_cold_page(page, false);
		else
			__free_pages_ok(page, order);
	}
}

void put_page(struct page *page)
{
	check_page_pointer(page, "put_page");
	if (put_page_testzero(page)) {
		if (page->private == 0 && !PageHead(page))
			free_hot_cold_page(page, false);
		else
			__free_pages_ok(page, (unsigned int)page->private);
	}
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr == 0)
		return;
	if (!virt_addr_valid((void *)addr) || (addr & ~PAGE_MASK)) {
		pr_alert("BUG: free_pages: %#lx is not the address of a page allocation\n",
			 addr);
		dump_stack();
		panic("free_pages of a bad address");
	}
	__free_pages(virt_to_page((void *)addr), order);
}

/* free_hot_page()/free_cold_page(): order 0 only, as Linux 2.6. */
static void check_hot_cold_free(struct page *page, bool cold)
{
	check_page_pointer(page, cold ? "free_cold_page" : "free_hot_page");
	if (page->private != 0 || PageHead(page)) {
		pr_alert("BUG: %s: page pfn:%05lx is the head of an order-%lu block (order 0 only)\n",
			 cold ? "free_cold_page" : "free_hot_page",
			 page_to_pfn(page), page->private);
		dump_stack();
		panic("hot/cold free of a higher-order page");
	}
}

void free_hot_page(struct page *page)
{
	check_hot_cold_free(page, false);
	if (put_page_testzero(page))
		free_hot_cold_page(page, false);
}

void free_cold_page(struct page *page)
{
	check_hot_cold_free(page, true);
	if (put_page_testzero(page))
		free_hot_cold_page(page, true);
}

/*
 * Boot: memblock hands over every free range in naturally aligned blocks.
 * A block that would straddle a zone edge (a node boundary that is not
 * 4 MiB aligned) is split until it does not.
 */
void memblock_free_pages(unsigned long pfn, unsigned int order)
{
	struct page *page = pfn_to_page(pfn);
	struct zone *zone = page_zone(page);
	unsigned long nr = 1UL << order;

	if (page_zone(page + nr - 1) != zone ||
	    !zone_spans_pfn(zone, pfn + nr - 1)) {
		BUG_ON(order == 0);
		memblock_free_pages(pfn, order - 1);
		memblock_free_pages(pfn + (nr >> 1), order - 1);
		return;
	}
	for (unsigned long i = 0; i < nr; i++) {
		__ClearPageReserved(page + i);
		set_page_count(page + i, 0);
	}
	zone->managed_pages += nr;
	page->private = order;
	__free_pages_ok(page, order);
}

/* ---- per-CPU page lists ---------------------------------------------- */

/*
 * Linux 6.7's bounds for a tuned hot list: high at most an eighth of the
 * zone (MIN_PERCPU_PAGELIST_HIGH_FRACTION), and a run of frees counted
 * up to 2^5 batches (CONFIG_PCP_BATCH_SCALE_MAX).
 */
#define PCP_HIGH_FRACTION 8
#define PCP_BATCH_SCALE_MAX 5
/* How often each CPU decays its tuned lists (6.7: sysctl_stat_interval). */
#define PCP_DECAY_INTERVAL HZ

/*
 * Test and benchmark knob: when set, order-0 allocations and frees go
 * straight to the buddy lists, so the two paths can be measured in one
 * boot.  Never set outside tests.
 */
bool pcp_bypass;

/*
 * Linux 2.6's zone_batchsize: about a thousandth of the zone, at most
 * 256 KiB worth, quartered (the lists hold several batches), at least 1,
 * rounded to 2^n - 1 so that batches of different zones do not all alias
 * in the same cache colours.
 */
unsigned int zone_batchsize(const struct zone *zone)
{
	/* LAB pcp: BEGIN zone_batchsize(): the batch from the zone's size, 2.6's rule */
	unsigned long batch = zone->present_pages / 1024;

	if (batch * PAGE_SIZE > 256 * 1024)
		batch = (256 * 1024) / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	return (1U << fls((unsigned int)(batch + batch / 2))) - 1;
	/* LAB pcp: END */
}

static void pageset_init(struct per_cpu_pageset *p, unsigned int batch)
{
	struct per_cpu_pages *pcp = &p->pcp[0];	/* hot */

	pcp->count = 0;
	pcp->free_count = 0;
	pcp->low = 2 * (int)batch;
	pcp->high = pcp->high_min = pcp->high_max = 6 * (int)batch;
	pcp->batch = (int)max(1U, batch);
	INIT_LIST_HEAD(&pcp->list);

	pcp = &p->pcp[1];			/* cold */
	pcp->count = 0;
	pcp->free_count = 0;
	pcp->low = 0;
	pcp->high = pcp->high_min = pcp->high_max = 2 * (int)batch;
	pcp->batch = (int)max(1U, batch);
	INIT_LIST_HEAD(&pcp->list);
}

/* Every list of the zone with 2.6's fixed marks (a zone's or a test's). */
void zone_pcp_init(struct zone *zone)
{
	unsigned int batch = zone_batchsize(zone);

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		pageset_init(&zone->pageset[cpu], batch);
}

/*
 * The ceiling of an auto-tuned hot list (6.7's zone_highsize with
 * MIN_PERCPU_PAGELIST_HIGH_FRACTION): an eighth of the zone's managed
 * pages, shared by the CPUs of its node, never below 2.6's fixed mark.
 */
static int pcp_high_max(const struct zone *zone, int high_min)
{
	unsigned long cpus = 0, max;

	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		if (cpu_to_node(cpu) == zone->zone_pgdat->node_id)
			cpus++;
	max = zone->managed_pages / PCP_HIGH_FRACTION / max(cpus, 1UL);
	return max > (unsigned long)high_min ? (int)max : high_min;
}

/*
 * Turns on Linux 6.7's auto-tuning of the machine's zones' hot lists,
 * once their managed pages are known (mm_core_init): high may grow from
 * 2.6's 6 * batch (high_min) up to pcp_high_max().  Cold lists, and the
 * private zones the tests build with zone_pcp_init(), keep the fixed marks.
 */
void setup_per_zone_pcp_high(void)
{
	struct zone *z;

	for (int nid = 0; nid < nr_online_nodes; nid++)
		for_each_zone_in_node(z, NODE_DATA(nid))
			for (int cpu = 0; cpu < NR_CPUS; cpu++) {
				struct per_cpu_pages *pcp = &z->pageset[cpu].pcp[0];

				pcp->high_max = pcp_high_max(z, pcp->high_min);
			}
}

/* LAB pcp: BEGIN rmqueue_bulk(): up to count order-0 pages onto a list, one zone lock */
/*
 * Moves up to count order-0 pages from the buddy lists to list's tail,
 * lowest pfn first: one lock, held only to take the blocks
 * (rmqueue_bulk_locked); the pages, ours once off the buddy lists, are
 * spread onto the list after it, so that their struct pages' cache
 * misses are not paid with the lock held.  Interrupts off (asserted):
 * list is this CPU's.
 */
static int rmqueue_bulk(struct zone *zone, int count, struct list_head *list)
{
	struct page *head, *next;
	LIST_HEAD(blocks);
	unsigned int n;

	lockdep_assert_irqs_disabled();
	spin_lock(&zone->lock);
	__zone_stat_inc(zone, NR_ZONE_LOCK);
	n = rmqueue_bulk_locked(zone, (unsigned int)count, &blocks);
	spin_unlock(&zone->lock);
	list_for_each_entry_safe(head, next, &blocks, lru) {
		unsigned long nr = head->private;

		head->private = 0;
		for (unsigned long i = 0; i < nr; i++) {
			__SetPagePcp(head + i);
			list_add_tail(&head[i].lru, list);
		}
	}
	return (int)n;
}
/* LAB pcp: END */

/*
 * Gives up to count pages from the cold end of a list back: one lock.
 * The pages are picked off the list, coldest first, before the lock is
 * taken (4.17's free_pcppages_bulk): the lock is held only for the
 * merging.  Interrupts off (asserted): list is this CPU's.
 */
static __noinline int free_pages_bulk(struct zone *zone, int count,
				  struct list_head *list)
{
	/* LAB pcp: BEGIN give up to count pages from the list's cold end back, one zone lock */
	struct list_head *first = list, *pos = list->prev;
	int i;

	lockdep_assert_irqs_disabled();
	/* [first, the tail]: up to count pages, cut off the list in one go. */
	for (i = 0; i < count && first->prev != list; i++) {
		first = first->prev;
		__ClearPagePcp(list_entry(first, struct page, lru));
	}
	first->prev->next = list;
	list->prev = first->prev;
	spin_lock(&zone->lock);
	__zone_stat_inc(zone, NR_ZONE_LOCK);
	/*
	 * Coldest first, from the tail back.  Each page's lru is rewritten
	 * (filed) or left (merged): read prev first.
	 */
	for (int n = i; n > 0; n--) {
		struct list_head *prev = pos->prev;

		free_one_page_locked(list_entry(pos, struct page, lru), zone, 0);
		pos = prev;
	}
	spin_unlock(&zone->lock);
	__zone_stat_add(zone, NR_PCP_DRAIN, (unsigned long)i);
	return i;
	/* LAB pcp: END */
}

/*
 * The hottest page off a non-empty list of this CPU's.  Both callers turn
 * interrupts off in the same function just before (nothing to assert).
 */
static inline struct page *pcp_take(struct per_cpu_pages *pcp)
{
	struct list_head *first = pcp->list.next, *next = first->next;
	struct page *page = list_entry(first, struct page, lru);

	/* list_del() of the head, whose prev is known; poisoned with MM_DEBUG. */
	__list_del(&pcp->list, next);
	if (MM_DEBUG) {
		first->next = LIST_POISON1;
		first->prev = LIST_POISON2;
	}
	__ClearPagePcp(page);
	pcp->count--;
	/* An allocation ends a run of frees (pcp_nr_trim): 6.7's halving. */
	pcp->free_count >>= 1;
	return page;
}

/*
 * An order-0 page from this CPU's list: hot from the head of pcp[0], or
 * (__GFP_COLD) from pcp[1].  A list at or below its low mark is first
 * refilled with one batch; a hot request whose list stays empty (the
 * buddy lists ran dry) takes a cold page rather than fail.
 */
struct page *pcp_alloc(struct zone *zone, bool cold)
{
	/* LAB pcp: BEGIN take from this CPU's hot or cold list, refilled by a batch at low */
	struct per_cpu_pageset *ps;
	struct per_cpu_pages *pcp;
	struct page *page = NULL;
	unsigned long flags;

	local_irq_save(flags);
	ps = &zone->pageset[smp_processor_id()];
	pcp = &ps->pcp[cold];
	if (pcp->count <= pcp->low) {
		__zone_stat_inc(zone, NR_PCP_MISS);
		pcp->count += rmqueue_bulk(zone, pcp->batch, &pcp->list);
	} else {
		__zone_stat_inc(zone, NR_PCP_HIT);
	}
	if (!pcp->count && !cold && ps->pcp[1].count)
		pcp = &ps->pcp[1];
	if (pcp->count)
		page = pcp_take(pcp);
	local_irq_restore(flags);
	return page;
	/* LAB pcp: END */
}

/* LAB pcp: BEGIN pcp_nr_trim() and pcp_free_trim(): what a list at high gives back (2.6's batch; 6.7's tuned high), then the push (__pcp_free's out-of-line end) */
/*
 * How many pages a free that finds its list at high gives back first:
 * 2.6's batch on a list whose high is fixed (high_min == high_max).  A
 * tuned list (Linux 6.7's PCP high auto-tuning) judges by a high it
 * moves first.  A CPU that frees in a run - pages it will allocate again,
 * or pages another CPU allocated and handed it - would otherwise give
 * every batch back to the buddy lists, under the zone lock, and take it
 * out again: so while the zone has memory to spare, high grows to hold
 * the run, free_count + batch, at most high_max, and nothing is given
 * back.  While an allocation has found the zone below pages_high
 * (zone->below_high, cleared here once it is back above), high shrinks
 * by the run, at least a batch, toward high_min, and the list gives back
 * all it holds above the new high, and a batch more: pages reclaim would
 * otherwise have to find.  free_count is counted unchecked on the push,
 * halved by each take (pcp_take), and bounded here, on every list, to 32
 * batches (6.7's CONFIG_PCP_BATCH_SCALE_MAX of 5): a list that is only
 * freed to, as a cold list may be, never overflows it.
 */
static int pcp_nr_trim(struct zone *zone, struct per_cpu_pages *pcp)
{
	int batch = pcp->batch, high = pcp->high;
	int free_count = min(pcp->free_count, batch << PCP_BATCH_SCALE_MAX);

	pcp->free_count = free_count;
	if (pcp->high_min == pcp->high_max)
		return batch;
	if (READ_ONCE(zone->below_high) &&
	    READ_ONCE(zone->free_pages) >= zone->pages_high)
		WRITE_ONCE(zone->below_high, false);
	if (READ_ONCE(zone->below_high))
		high = max(high - max(free_count, batch), pcp->high_min);
	else if (high < free_count + batch)
		high = min(free_count + batch, pcp->high_max);
	pcp->high = high;
	return pcp->count < high ? 0 : pcp->count - high + batch;
}

/*
 * The end of __pcp_free() when the list is at its high mark: trim from
 * the cold end what pcp_nr_trim() says, then push.  Out of line, with all
 * it needs as arguments, so that the push needs no callee-saved registers.
 */
static __noinline void pcp_free_trim(struct zone *zone, struct page *page,
				     struct per_cpu_pages *pcp,
				     unsigned long flags)
{
	int nr = pcp_nr_trim(zone, pcp);

	if (nr)
		pcp->count -= free_pages_bulk(zone, nr, &pcp->list);
	__SetPagePcp(page);
	list_add(&page->lru, &pcp->list);
	pcp->count++;
	pcp->free_count++;
	local_irq_restore(flags);
}
/* LAB pcp: END */

/*
 * Puts a free order-0 page on this CPU's list of zone (checked already).
 * Inlined into free_hot_cold_page(); pcp_free() is its entry for tests.
 * Every call is a tail call (pcp_free_trim, local_irq_restore_slow).
 */
static __always_inline void __pcp_free(struct zone *zone, struct page *page,
				       bool cold)
{
	/* LAB pcp: BEGIN put on this CPU's hot or cold list, trimmed by a batch at high */
	struct per_cpu_pages *pcp;
	unsigned long flags;

	local_irq_save(flags);
	/* Interrupts just turned off: smp_processor_id()'s check is moot. */
	pcp = &zone->pageset[raw_smp_processor_id()].pcp[cold];
	if (unlikely(pcp->count >= pcp->high)) {
		pcp_free_trim(zone, page, pcp, flags);
		return;
	}
	__SetPagePcp(page);
	list_add(&page->lru, &pcp->list);
	pcp->count++;
	pcp->free_count++;
	if (unlikely(!local_irq_restore_fast(flags)))
		local_irq_restore_slow(flags);
	/* LAB pcp: END */
}

void pcp_free(struct zone *zone, struct page *page, bool cold)
{
	__pcp_free(zone, page, cold);
}

/* page_poisoning's free: poison, then the list; out of line, as above. */
static __noinline void free_hot_cold_page_poisoned(struct page *page, bool cold)
{
	poison_pages(page, 1);
	pcp_free(page_zone(page), page, cold);
}

static __always_inline void free_hot_cold_page(struct page *page, bool cold)
{
	if (unlikely(pcp_bypass)) {
		__free_pages_ok(page, 0);
		return;
	}
	free_page_check_fast(page, 0);
	account_reclaimed(0);
	if (unlikely(page_poisoning)) {
		free_hot_cold_page_poisoned(page, cold);
		return;
	}
	__pcp_free(page_zone(page), page, cold);
}

/*
 * Linux 6.7's decay_pcp_high: a tuned hot list above high_min loses an
 * eighth of its high (but never more than 2^5 batches below its count,
 * which bounds the pages given back at once), and gives back, from its
 * cold end, what lies above the new high (counted as nr_pcp_drain).
 * Returns the pages given back.
 * Interrupts off: the list is this CPU's (or a test's private zone's).
 */
int pcp_decay_high(struct zone *zone, struct per_cpu_pages *pcp)
{
	int to_drain;

	lockdep_assert_irqs_disabled();
	if (pcp->high_min == pcp->high_max)
		return 0;
	if (pcp->high > pcp->high_min)
		pcp->high = max(max(pcp->count - (pcp->batch << PCP_BATCH_SCALE_MAX),
				    pcp->high - (pcp->high >> 3)), pcp->high_min);
	to_drain = pcp->count - pcp->high;
	if (to_drain <= 0)
		return 0;
	to_drain = free_pages_bulk(zone, to_drain, &pcp->list);
	pcp->count -= to_drain;
	return to_drain;
}

/*
 * Once a second on every CPU (6.7 runs decay_pcp_high from vmstat's
 * per-CPU work, every sysctl_stat_interval): the tick's timer decays
 * this CPU's tuned hot lists, so that the pages a run of frees left on
 * a CPU that then went idle come back to the buddy lists within
 * seconds, where other CPUs' atomic allocations can have them.
 */
static struct timer_list pcp_decay_timer[NR_CPUS];

static void pcp_decay_fn(unsigned long cpu)
{
	struct zone *z;
	int nid;

	/* A timer runs on the CPU it was added on: these lists are ours. */
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			if (populated_zone(z))
				pcp_decay_high(z, &z->pageset[smp_processor_id()].pcp[0]);
	mod_timer(&pcp_decay_timer[cpu], jiffies + PCP_DECAY_INTERVAL);
}

void pcp_decay_init(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		setup_timer(&pcp_decay_timer[cpu], pcp_decay_fn,
			    (unsigned long)cpu);
		pcp_decay_timer[cpu].expires = jiffies + PCP_DECAY_INTERVAL;
		add_timer_on(&pcp_decay_timer[cpu], cpu);
	}
}

/* Empties this CPU's two lists of one zone. */
void zone_drain_local(struct zone *zone)
{
	unsigned long flags;
	struct per_cpu_pageset *ps;

	local_irq_save(flags);
	ps = &zone->pageset[smp_processor_id()];
	for (int i = 0; i < 2; i++)
		ps->pcp[i].count -= free_pages_bulk(zone, ps->pcp[i].count,
						    &ps->pcp[i].list);
	local_irq_restore(flags);
}

void drain_local_pages(void)
{
	struct zone *z;
	int nid;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			zone_drain_local(z);
}

static void drain_local_pages_ipi(void *unused)
{
	drain_local_pages();
}

void drain_all_pages(void)
{
	on_each_cpu(drain_local_pages_ipi, NULL, true);
}

unsigned long nr_pcp_pages(void)
{
	unsigned long n = 0;
	struct zone *z;
	int nid;

	/* A statistic: the lists' CPUs change their counts meanwhile. */
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			for (int cpu = 0; cpu < NR_CPUS; cpu++) {
				struct per_cpu_pages *pcp = z->pageset[cpu].pcp;

				n += (unsigned long)data_race(
					READ_ONCE(pcp[0].count) +
					READ_ONCE(pcp[1].count));
			}
	return n;
}

/* ---- allocation ------------------------------------------------------ */

/*
 * The mark an allocation must stay above, less what its caller may dig
 * into: halved for __GFP_HIGH (ALLOC_HIGH), a quarter lower again for a
 * caller that cannot sleep (ALLOC_HARDER) (2.6.15+).
 */
static inline long watermark_min(unsigned long mark, int alloc_flags)
{
	long min = (long)mark;

	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (alloc_flags & ALLOC_HARDER)
		min -= min / 4;
	return min;
}

/*
 * Linux 2.6's zone_watermark_ok: after taking 2^order pages the zone must
 * keep more than mark (+ the reserve against the preferred zone) free, and
 * at each order below the request enough of the free pages must be in
 * blocks at least that large - otherwise a high-order request could pass
 * on a zone whose free memory is all single pages.  For order 0 the loop
 * is empty: one comparison, which is all the fast path pays (it inlines
 * __zone_watermark_ok() with constant order and flags).
 */
static __always_inline bool __zone_watermark_ok(struct zone *z, unsigned int order,
						unsigned long mark,
						enum zone_type classzone_idx,
						int alloc_flags)
{
	long min = watermark_min(mark, alloc_flags);
	long free = (long)z->free_pages - (1L << order) + 1;

	/* LAB zones: BEGIN the reserve against classzone_idx, then the per-order check */
	if (free <= min + (long)z->lowmem_reserve[classzone_idx])
		return false;
	for (unsigned int o = 0; o < order; o++) {
		free -= (long)(z->free_area[o].nr_free << o);
		min >>= 1;
		if (free <= min)
			return false;
	}
	return true;
	/* LAB zones: END */
}

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       enum zone_type classzone_idx, int alloc_flags)
{
	/*
	 * A data race by design: the counts are read without zone->lock, as
	 * Linux reads them; the allocation itself takes the lock.
	 */
	return data_race(__zone_watermark_ok(z, order, mark, classzone_idx,
					     alloc_flags));
}

static struct page *rmqueue(struct zone *zone, unsigned int order, gfp_t gfp)
{
	unsigned long flags;
	struct page *page;

	if (order == 0 && !pcp_bypass)
		return pcp_alloc(zone, gfp & __GFP_COLD);
	spin_lock_irqsave(&zone->lock, flags);
	__zone_stat_inc(zone, NR_ZONE_LOCK);
	page = rmqueue_locked(zone, order);
	spin_unlock_irqrestore(&zone->lock, flags);
	return page;
}

static struct page *get_page_from_freelist(gfp_t gfp, unsigned int order,
					  struct zonelist *zl, int alloc_flags)
{
	enum zone_type classzone_idx = zone_idx(zl->zones[0]);

	for (struct zone **zp = zl->zones; *zp; zp++) {
		struct zone *z = *zp;
		struct page *page;

		/*
		 * Below pages_high, the zone's tuned lists shrink as their
		 * CPUs free (pcp_nr_trim): 6.7 notes it here, on the
		 * allocation's way, not on the hotter free path.
		 */
		if (!READ_ONCE(z->below_high) &&
		    READ_ONCE(z->free_pages) < z->pages_high)
			WRITE_ONCE(z->below_high, true);
		if (!(alloc_flags & ALLOC_NO_WATERMARKS)) {
			unsigned long mark = (alloc_flags & ALLOC_WMARK_MIN) ?
						     z->pages_min :
					     (alloc_flags & ALLOC_WMARK_HIGH) ?
						     z->pages_high :
						     z->pages_low;

			if (!zone_watermark_ok(z, order, mark, classzone_idx,
					       alloc_flags))
				continue;
		}
		page = rmqueue(z, order, gfp);
		if (page) {
			prep_new_page(page, order, gfp);
			return page;
		}
	}
	return NULL;
}

/*
 * The failure report: a line, a stack and the memory summary, printed
 * synchronously, so at most printk_ratelimit()'s burst of them per
 * interval (2.6.x), whatever the context: a storm of GFP_ATOMIC failures
 * in an interrupt handler must not hold the CPU on the serial line.
 */
static void warn_alloc_failed(gfp_t gfp_mask, unsigned int order)
{
	char mode[GFP_DESCRIBE_LEN];

	if ((gfp_mask & __GFP_NOWARN) || !printk_ratelimit())
		return;
	gfp_describe(mode, sizeof(mode), gfp_mask);
	pr_warn("%s: page allocation failure: order:%u, mode:0x%x(%s)\n",
		current->comm, order, gfp_mask, mode);
	dump_stack();
	show_free_areas();
}

/* Should a sleeping allocation that has just reclaimed try again? */
static bool should_retry(gfp_t gfp_mask, unsigned int order,
			 unsigned long progress, unsigned long reclaimed_total)
{
	/* LAB reclaim: BEGIN the retry policy: __GFP_NORETRY, __GFP_NOFAIL, small orders, __GFP_REPEAT */
	if (gfp_mask & __GFP_NORETRY)
		return false;
	if (gfp_mask & __GFP_NOFAIL)
		return true;
	if (!progress)
		return false;
	if (order <= 3)
		return true;
	return (gfp_mask & __GFP_REPEAT) && reclaimed_total < (1UL << order);
	/* LAB reclaim: END */
}

static struct page *__alloc_pages(gfp_t gfp_mask, unsigned int order,
				  struct zonelist *zl)
{
	const bool wait = gfp_mask & __GFP_WAIT;
	struct zone *preferred = zl->zones[0];
	unsigned long progress, reclaimed_total = 0;
	struct task_struct *p = current;
	struct page *page;
	int alloc_flags;

	if (WARN_ON_ONCE(gfp_mask & ~__GFP_BITS_MASK))
		gfp_mask &= __GFP_BITS_MASK;
	if (order >= MAX_ORDER) {
		WARN_ON_ONCE(!(gfp_mask & __GFP_NOWARN));
		return NULL;
	}
	if (!preferred)
		goto nopage;

	page = get_page_from_freelist(gfp_mask, order, zl, ALLOC_WMARK_LOW);
	if (page)
		goto got_pg_fast;

	for (struct zone **zp = zl->zones; *zp; zp++)
		wakeup_kswapd(*zp, order);

	alloc_flags = ALLOC_WMARK_MIN;
	if (gfp_mask & __GFP_HIGH)
		alloc_flags |= ALLOC_HIGH;
	if (!wait)
		alloc_flags |= ALLOC_HARDER;
	if ((gfp_mask & __GFP_NOFAIL) && order > 1)
		WARN_ON_ONCE(1);	/* may loop for ever: callers, beware */
	/* NOFAIL can only be kept by waiting: without __GFP_WAIT it is not. */
	if ((gfp_mask & __GFP_NOFAIL) && !wait)
		WARN_ON_ONCE(1);
restart:
	page = get_page_from_freelist(gfp_mask, order, zl, alloc_flags);
	if (page)
		goto got_pg;

	/* Pages parked on per-CPU lists are free memory too: give them back. */
	if (nr_pcp_pages()) {
		if (wait)
			drain_all_pages();
		else
			drain_local_pages();
		page = get_page_from_freelist(gfp_mask, order, zl, alloc_flags);
		if (page)
			goto got_pg;
	}

	/*
	 * A reclaimer may use the last pages: reclaim needs memory too.  It
	 * never reclaims recursively; with __GFP_NOFAIL it waits for pages
	 * to come back and tries again, for ever (2.6.x: nofail_alloc).
	 */
	if ((p->flags & PF_MEMALLOC) && !in_interrupt()) {
		page = get_page_from_freelist(gfp_mask, order, zl,
					      ALLOC_NO_WATERMARKS);
		if (page)
			goto got_pg;
		if ((gfp_mask & __GFP_NOFAIL) && wait) {
			congestion_wait(HZ / 50);
			goto restart;
		}
		goto nopage;
	}
	if (!wait)
		goto nopage;

	progress = try_to_free_pages(zl, gfp_mask, order);
	reclaimed_total += progress;
	if (progress) {
		page = get_page_from_freelist(gfp_mask, order, zl, alloc_flags);
		if (page)
			goto got_pg;
	}
	/* LAB reclaim: BEGIN retry as should_retry() says, sleeping HZ/50 first */
	if (should_retry(gfp_mask, order, progress, reclaimed_total)) {
		congestion_wait(HZ / 50);
		goto restart;
	}
	/* LAB reclaim: END */
nopage:
	if (preferred)
		zone_stat_inc(preferred, NR_ALLOC_FAIL);
	warn_alloc_failed(gfp_mask, order);
	return NULL;
got_pg:
	zone_stat_inc(preferred, NR_ALLOC_SLOW);
	return page;
got_pg_fast:
	zone_stat_inc(preferred, NR_ALLOC_FAST);
	return page;
}

/*
 * The order-0 fast path: a page from this CPU's list of the preferred
 * zone while the list is above its low mark and the zone above its low
 * watermark - the first pass of __alloc_pages, without the zonelist walk
 * or the refill.  The watermark is the zone's free count, which leaves
 * out the per-CPU lists (2.6.15+: zone_watermark_ok before
 * buffered_rmqueue), so one comparison keeps it: a zone at or below
 * pages_low goes to the full path, which wakes kswapd and lets the
 * allocation go only as far down as its ALLOC_* flags allow.  Anything
 * else - an empty or low list, another order, an odd mask, __GFP_ZERO or
 * page poisoning (the full path's prep_new_page does both) - takes the
 * full path too, which refills the list under the zone lock.
 *
 * Nothing on the way to a page calls a function and comes back: every
 * call is a tail call, or a noinline helper that finishes the job
 * (alloc_page_fast_finish: the full local_irq_restore, then the page's prep;
 * alloc_pages_refill: the full restore, then the full path), so the path
 * needs no callee-saved registers.
 */
static __noinline struct page *alloc_page_fast_finish(struct page *page,
						      unsigned long flags)
{
	local_irq_restore_slow(flags);
	new_page_check_fast(page, 0);
	set_new_page(page, 0);
	return page;
}

static struct page *__alloc_pages(gfp_t gfp_mask, unsigned int order,
				  struct zonelist *zl);

static __noinline struct page *alloc_pages_refill(gfp_t gfp_mask,
						  struct zonelist *zl,
						  unsigned long flags)
{
	local_irq_restore(flags);
	return __alloc_pages(gfp_mask, 0, zl);
}

/* The page, from the list or else from the full path. */
static __always_inline struct page *alloc_page_fast(struct zonelist *zl,
						    gfp_t gfp_mask)
{
	struct zone *zone = zl->zones[0];
	struct per_cpu_pageset *ps;
	struct per_cpu_pages *pcp;
	struct page *page;
	unsigned long flags;

	/* Without zone->lock, as zone_watermark_ok() reads them. */
	if (unlikely(!data_race(__zone_watermark_ok(zone, 0, zone->pages_low,
						    zone_idx(zone), 0))))
		return __alloc_pages(gfp_mask, 0, zl);
	local_irq_save(flags);
	/* Interrupts just turned off: smp_processor_id()'s check is moot. */
	ps = &zone->pageset[raw_smp_processor_id()];
	pcp = ps->pcp + (unsigned long)!!(gfp_mask & __GFP_COLD);
	if (unlikely(pcp->count <= pcp->low))
		return alloc_pages_refill(gfp_mask, zl, flags);
	/* The counts first: ps is then dead, which spares a register. */
	__pageset_stat_inc(ps, NR_PCP_HIT);
	__pageset_stat_inc(ps, NR_ALLOC_FAST);
	page = pcp_take(pcp);
	if (unlikely(!local_irq_restore_fast(flags)))
		return alloc_page_fast_finish(page, flags);
	/* prep_new_page() less the poison and zeroing its caller ruled out. */
	new_page_check_fast(page, 0);
	set_new_page(page, 0);
	return page;
}

/*
 * Both entry points, inlined into each: the order-0 fast path, else the
 * full one.  The zonelist is the caller's node's.  Fault injection, when
 * armed, sends every allocation the full way, which asks should_fail_alloc.
 */
static __always_inline struct page *alloc_pages_zonelist(gfp_t gfp_mask,
							 unsigned int order,
							 struct zonelist *zl)
{
	if (MM_DEBUG)
		might_sleep_if(gfp_mask & __GFP_WAIT);
	if (likely(order == 0 && !fail_alloc_armed() &&
		   zl->zones[0] && !pcp_bypass && !page_poisoning &&
		   !(gfp_mask & (~__GFP_BITS_MASK | __GFP_ZERO))))
		return alloc_page_fast(zl, gfp_mask);
	if (should_fail_alloc(gfp_mask))
		return NULL;
	return __alloc_pages(gfp_mask, order, zl);
}

struct page *alloc_pages_node(int nid, gfp_t gfp_mask, unsigned int order)
{
	if (nid < 0)
		nid = numa_node_id();
	if (WARN_ON(nid >= nr_online_nodes))
		return NULL;
	return alloc_pages_zonelist(gfp_mask, order, node_zonelist(nid, gfp_mask));
}

/* This CPU's node: a valid one, so nothing to check. */
struct page *alloc_pages(gfp_t gfp_mask, unsigned int order)
{
	return alloc_pages_zonelist(gfp_mask, order,
				    node_zonelist(numa_node_id(), gfp_mask));
}

unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order)
{
	struct page *page;

	/* The caller wants an address: highmem has none. */
	BUG_ON(gfp_mask & __GFP_HIGHMEM);
	page = alloc_pages(gfp_mask, order);
	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page(gfp_t gfp_mask)
{
	return __get_free_pages(gfp_mask | __GFP_ZERO, 0);
}
