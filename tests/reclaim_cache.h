/*
 * tests/reclaim_cache.h - a reclaimable cache of pages, for the reclaim
 * suite: something for direct reclaim and kswapd to free, in three
 * classes, whose shrinkers count every call made to them.
 *
 * The classes are the three kinds of shrinker Linux 2.6 has: one that
 * needs nothing (RC_NONE), one that would start I/O (RC_IO, needs
 * __GFP_IO) and one that would call into a filesystem (RC_FS, needs
 * __GFP_IO | __GFP_FS).  What each shrinker was asked, and by whom, is
 * counted per caller: RC_KSWAPD for a node's kswapd, RC_DIRECT for any
 * other task (one in direct reclaim).
 */
#ifndef TESTS_RECLAIM_CACHE_H
#define TESTS_RECLAIM_CACHE_H

#include "kernel/spinlock.h"
#include "lib/list.h"
#include "lib/types.h"
#include "mm/gfp.h"
#include "mm/vmscan.h"

enum reclaim_class { RC_NONE, RC_IO, RC_FS, RC_NR_CLASSES };
enum reclaim_caller { RC_DIRECT, RC_KSWAPD, RC_NR_CALLERS };

/* What one class's shrinker was asked by one kind of caller. */
struct reclaim_calls {
	unsigned long scans;	/* calls with nr_to_scan > 0 */
	unsigned long counts;	/* calls with nr_to_scan == 0 */
	unsigned long freed;	/* pages given back by those calls */
	gfp_t last_gfp;		/* the mask of the last call */
};

struct reclaim_class_state {
	struct list_head pages;		/* oldest first */
	unsigned long nr_pages;
	struct reclaim_calls calls[RC_NR_CALLERS];
	/* Calls whose mask lacked what the shrinker needs (a reclaim bug). */
	unsigned long violations;
	gfp_t bad_gfp;			/* the mask of the first of them */
	/*
	 * Calls whose mask let the shrinker sleep (__GFP_WAIT) made where it
	 * may not: a spinlock held, preemption or interrupts off (a reclaim
	 * bug too: 2.6's shrinkers sleep on their own locks and on I/O).
	 */
	unsigned long atomic_calls;
	/*
	 * At most pass_quota pages freed per pass of direct reclaim (0: no
	 * limit), as a cache whose objects are mostly busy gives only a few
	 * back each time: pass_freed so far in the pass numbered pass_seen
	 * (reclaim_stats.direct_calls when it began).
	 */
	unsigned long pass_quota, pass_freed, pass_seen;
	struct shrinker shrinker;
};

struct reclaim_cache {
	spinlock_t lock;		/* the classes' lists and counters */
	/*
	 * The node whose kswapd may shrink the cache; -1 (the default):
	 * none.  Every other kswapd is told the cache is empty.
	 */
	int kswapd_node;
	bool registered;
	struct reclaim_class_state cls[RC_NR_CLASSES];
};

/*
 * One cache is live at a time (a 2.6 shrinker gets no pointer back to
 * its owner).  Returns 0, or -EBUSY while another cache is live.
 */
int reclaim_cache_init(struct reclaim_cache *c);
/* Unregisters the shrinkers and frees every page.  Idempotent. */
void reclaim_cache_destroy(struct reclaim_cache *c);

/* Adds up to nr order-0 pages of mode gfp to a class; returns how many. */
unsigned long reclaim_cache_fill(struct reclaim_cache *c,
				 enum reclaim_class cls, unsigned long nr,
				 gfp_t gfp);
/* Frees up to nr pages of a class, oldest first (no shrinker call). */
unsigned long reclaim_cache_release(struct reclaim_cache *c,
				    enum reclaim_class cls, unsigned long nr);
void reclaim_cache_release_all(struct reclaim_cache *c);

/* Which node's kswapd may shrink the cache (-1: none). */
void reclaim_cache_allow_kswapd(struct reclaim_cache *c, int nid);
/*
 * At most nr pages of a class freed per pass of direct reclaim (0: no
 * limit, the default); the shrinker still counts every page it holds.
 */
void reclaim_cache_set_quota(struct reclaim_cache *c, enum reclaim_class cls,
			     unsigned long nr);

/* A consistent copy of every class's counts. */
struct reclaim_cache_stats {
	unsigned long nr_pages[RC_NR_CLASSES];
	struct reclaim_calls calls[RC_NR_CLASSES][RC_NR_CALLERS];
	unsigned long violations[RC_NR_CLASSES];
	gfp_t bad_gfp[RC_NR_CLASSES];
	unsigned long atomic_calls[RC_NR_CLASSES];
};
void reclaim_cache_stats(struct reclaim_cache *c,
			 struct reclaim_cache_stats *st);
unsigned long reclaim_cache_pages(struct reclaim_cache *c);

extern const char *const reclaim_class_names[RC_NR_CLASSES];

#endif /* TESTS_RECLAIM_CACHE_H */
