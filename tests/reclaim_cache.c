/*
 * tests/reclaim_cache.c - a reclaimable cache of pages for the reclaim
 * suite (tests/reclaim_cache.h).
 *
 * The cache holds order-0 pages, allocated with whatever mask the test
 * chooses, on one list per class, and registers one shrinker per class.
 * Each keeps the 2.6 contract: shrink(nr, gfp) frees up to nr pages of
 * its class, oldest first, and returns how many remain; nr 0 only
 * counts.  Oldest first means pages go back in the order they were
 * taken, which is address order within the blocks they were split from,
 * so what one pass frees tends to merge into larger blocks again.
 *
 * Every call is counted by class and by caller (scans, counts, pages
 * freed, the last mask), so a case can tell what direct reclaim did from
 * what kswapd did.  Each shrinker also checks its side of the contract:
 * reclaim must skip a shrinker whose needs the caller's mask lacks.  A
 * call that breaks that is recorded as a violation and refused (-1, as a
 * careful 2.6 shrinker returns when it cannot work under the mask), so
 * the case sees both the count and the pages that did not come back.
 * And as a 2.6 shrinker may sleep whenever the mask has __GFP_WAIT (on
 * its own mutex, on I/O), a call with a spinlock held, preemption or
 * interrupts off is counted too (atomic_calls): reclaim must hold no
 * spinlock around a shrinker.
 *
 * A class may be given a quota (reclaim_cache_set_quota): at most that
 * many pages freed per pass of direct reclaim, a pass being told by
 * reclaim_stats.direct_calls, as a cache whose objects are mostly busy
 * gives only a few back each time.  Then reclaim makes a little progress
 * on every pass, which is how a case sees a retry policy that counts
 * the pages reclaimed over all passes.
 *
 * kswapd is kept out unless a case lets one node's in: any other kswapd
 * is told the cache is empty.  The direct-reclaim cases need that:
 * kswapd, woken by the very allocation under test, would otherwise free
 * the pages they count.
 *
 * A 2.6 shrinker gets no pointer to its owner, so one cache is live at a
 * time (live_cache); the callbacks run under mm/vmscan.c's shrinker
 * mutex, and unregister_shrinker() takes that mutex, so none is running
 * once reclaim_cache_destroy() has unregistered them.
 *
 * Locking: c->lock (irqsave) guards the lists and every counter.  Nothing
 * is allocated or freed under it: pages are moved to a private list under
 * the lock and freed after it, and fills allocate before taking it
 * (reclaim may call our own shrinkers from inside the allocation).
 */
#include "kernel/sched.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "tests/reclaim_cache.h"

const char *const reclaim_class_names[RC_NR_CLASSES] = { "NONE", "IO", "FS" };

static const gfp_t class_needs[RC_NR_CLASSES] = {
	[RC_NONE] = 0,
	[RC_IO] = __GFP_IO,
	[RC_FS] = __GFP_IO | __GFP_FS,
};

static struct reclaim_cache *live_cache;

static void free_page_list(struct list_head *list)
{
	while (!list_empty(list)) {
		struct page *page = list_first_entry(list, struct page, lru);

		list_del(&page->lru);
		__free_page(page);
	}
}

/* c->lock held.  Moves up to nr of the oldest pages of a class to list. */
static unsigned long take_oldest(struct reclaim_class_state *cl,
				 unsigned long nr, struct list_head *list)
{
	unsigned long n = 0;

	while (n < nr && !list_empty(&cl->pages)) {
		list_move_tail(cl->pages.next, list);
		n++;
	}
	cl->nr_pages -= n;
	return n;
}

/* May this task shrink c?  Any task but a kswapd c does not admit. */
static bool admitted(const struct reclaim_cache *c)
{
	if (!(current->flags & PF_KSWAPD))
		return true;
	return c->kswapd_node >= 0 && NODE_DATA(c->kswapd_node)->kswapd == current;
}

/*
 * c->lock held.  How many of nr pages the class may free now: all of
 * them, or what its quota leaves of this pass (direct reclaim only).
 */
static unsigned long quota_left(struct reclaim_class_state *cl,
				enum reclaim_caller who, unsigned long pass,
				unsigned long nr)
{
	if (!cl->pass_quota || who != RC_DIRECT)
		return nr;
	if (cl->pass_seen != pass) {
		cl->pass_seen = pass;
		cl->pass_freed = 0;
	}
	return min(nr, cl->pass_quota - cl->pass_freed);
}

static int shrink_class(enum reclaim_class cls, int nr_to_scan, gfp_t gfp)
{
	struct reclaim_cache *c = READ_ONCE(live_cache);
	enum reclaim_caller who = (current->flags & PF_KSWAPD) ? RC_KSWAPD :
								 RC_DIRECT;
	/* Before c->lock, which turns both off. */
	bool atomic = (gfp & __GFP_WAIT) && (in_atomic() || irqs_disabled());
	struct reclaim_class_state *cl;
	struct reclaim_calls *calls;
	struct reclaim_stats rs;
	unsigned long flags, n;
	LIST_HEAD(victims);
	int left;

	get_reclaim_stats(&rs);
	cl = &c->cls[cls];
	calls = &cl->calls[who];
	spin_lock_irqsave(&c->lock, flags);
	if (nr_to_scan > 0)
		calls->scans++;
	else
		calls->counts++;
	calls->last_gfp = gfp;
	cl->atomic_calls += atomic;
	if ((gfp & class_needs[cls]) != class_needs[cls]) {
		if (!cl->violations++)
			cl->bad_gfp = gfp;
		left = -1;
	} else if (!admitted(c)) {
		left = 0;
	} else {
		if (nr_to_scan > 0) {
			n = quota_left(cl, who, rs.direct_calls,
				       (unsigned long)nr_to_scan);
			n = take_oldest(cl, n, &victims);
			calls->freed += n;
			cl->pass_freed += n;
		}
		left = (int)cl->nr_pages;	/* a page count: far below INT_MAX */
	}
	spin_unlock_irqrestore(&c->lock, flags);
	free_page_list(&victims);
	return left;
}

static int shrink_none(int nr_to_scan, gfp_t gfp)
{
	return shrink_class(RC_NONE, nr_to_scan, gfp);
}

static int shrink_io(int nr_to_scan, gfp_t gfp)
{
	return shrink_class(RC_IO, nr_to_scan, gfp);
}

static int shrink_fs(int nr_to_scan, gfp_t gfp)
{
	return shrink_class(RC_FS, nr_to_scan, gfp);
}

static int (*const shrink_fns[RC_NR_CLASSES])(int, gfp_t) = {
	[RC_NONE] = shrink_none,
	[RC_IO] = shrink_io,
	[RC_FS] = shrink_fs,
};

int reclaim_cache_init(struct reclaim_cache *c)
{
	if (READ_ONCE(live_cache))
		return -EBUSY;
	memset(c, 0, sizeof(*c));
	spin_lock_init(&c->lock);
	c->kswapd_node = -1;
	for (int i = 0; i < RC_NR_CLASSES; i++) {
		INIT_LIST_HEAD(&c->cls[i].pages);
		c->cls[i].shrinker.shrink = shrink_fns[i];
		c->cls[i].shrinker.seeks = DEFAULT_SEEKS;
		c->cls[i].shrinker.needs = class_needs[i];
	}
	WRITE_ONCE(live_cache, c);
	for (int i = 0; i < RC_NR_CLASSES; i++)
		register_shrinker(&c->cls[i].shrinker);
	c->registered = true;
	return 0;
}

void reclaim_cache_destroy(struct reclaim_cache *c)
{
	if (!c->registered)
		return;
	for (int i = 0; i < RC_NR_CLASSES; i++)
		unregister_shrinker(&c->cls[i].shrinker);
	c->registered = false;
	WRITE_ONCE(live_cache, NULL);
	reclaim_cache_release_all(c);
}

unsigned long reclaim_cache_fill(struct reclaim_cache *c,
				 enum reclaim_class cls, unsigned long nr,
				 gfp_t gfp)
{
	struct reclaim_class_state *cl = &c->cls[cls];
	unsigned long n;

	for (n = 0; n < nr; n++) {
		struct page *page = alloc_pages(gfp, 0);
		unsigned long flags;

		if (!page)
			break;
		spin_lock_irqsave(&c->lock, flags);
		list_add_tail(&page->lru, &cl->pages);
		cl->nr_pages++;
		spin_unlock_irqrestore(&c->lock, flags);
	}
	return n;
}

unsigned long reclaim_cache_release(struct reclaim_cache *c,
				    enum reclaim_class cls, unsigned long nr)
{
	unsigned long flags, n;
	LIST_HEAD(pages);

	spin_lock_irqsave(&c->lock, flags);
	n = take_oldest(&c->cls[cls], nr, &pages);
	spin_unlock_irqrestore(&c->lock, flags);
	free_page_list(&pages);
	return n;
}

void reclaim_cache_release_all(struct reclaim_cache *c)
{
	for (int i = 0; i < RC_NR_CLASSES; i++)
		reclaim_cache_release(c, i, ~0UL);
}

void reclaim_cache_allow_kswapd(struct reclaim_cache *c, int nid)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	c->kswapd_node = nid;
	spin_unlock_irqrestore(&c->lock, flags);
}

void reclaim_cache_set_quota(struct reclaim_cache *c, enum reclaim_class cls,
			     unsigned long nr)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	c->cls[cls].pass_quota = nr;
	c->cls[cls].pass_freed = 0;
	c->cls[cls].pass_seen = 0;
	spin_unlock_irqrestore(&c->lock, flags);
}

void reclaim_cache_stats(struct reclaim_cache *c,
			 struct reclaim_cache_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	for (int i = 0; i < RC_NR_CLASSES; i++) {
		st->nr_pages[i] = c->cls[i].nr_pages;
		for (int w = 0; w < RC_NR_CALLERS; w++)
			st->calls[i][w] = c->cls[i].calls[w];
		st->violations[i] = c->cls[i].violations;
		st->bad_gfp[i] = c->cls[i].bad_gfp;
		st->atomic_calls[i] = c->cls[i].atomic_calls;
	}
	spin_unlock_irqrestore(&c->lock, flags);
}

unsigned long reclaim_cache_pages(struct reclaim_cache *c)
{
	unsigned long flags, n = 0;

	spin_lock_irqsave(&c->lock, flags);
	for (int i = 0; i < RC_NR_CLASSES; i++)
		n += c->cls[i].nr_pages;
	spin_unlock_irqrestore(&c->lock, flags);
	return n;
}
