/*
 * mm/vmscan.h - reclaim: shrinkers, direct reclaim and kswapd.
 */
#ifndef MM_VMSCAN_H
#define MM_VMSCAN_H

#include "lib/list.h"
#include "mm/gfp.h"

/*
 * A shrinker gives back memory its subsystem caches.  shrink(nr, gfp)
 * frees up to nr objects (nr 0: frees nothing, only counts) and returns
 * how many remain freeable, the 2.6 contract; -1 when it cannot work
 * under gfp.  needs says which of __GFP_IO and __GFP_FS it needs: the
 * reclaimer skips it when the caller's mask lacks one of them (the
 * caller may be the I/O or the filesystem code that shrinker would
 * re-enter).  seeks is the cost of re-creating an object (DEFAULT_SEEKS).
 */
struct shrinker {
	int (*shrink)(int nr_to_scan, gfp_t gfp_mask);
	int seeks;
	gfp_t needs;			/* 0, __GFP_IO or __GFP_IO | __GFP_FS */
	/* Private to mm/vmscan.c: */
	struct list_head list;
	unsigned long nr;		/* scan credit carried between passes */
	unsigned long calls;		/* shrink() calls with nr_to_scan > 0 */
	unsigned long skipped;		/* passes skipped for the mask */
};

#define DEFAULT_SEEKS 2

void register_shrinker(struct shrinker *s);
void unregister_shrinker(struct shrinker *s);

/*
 * A task inside reclaim points current->reclaim_state here: every page
 * freed meanwhile (by a shrinker, by the slab layer) counts as its
 * progress (mm/page_alloc.c adds to it).
 */
struct reclaim_state {
	unsigned long reclaimed_pages;
};

struct zonelist;
struct zone;

/*
 * Direct reclaim for a sleeping allocation of 2^order pages that failed
 * on zl: slab free memory and the shrinkers the mask allows, until
 * SWAP_CLUSTER_MAX (or 2^order) pages are free.  Returns the pages freed.
 */
unsigned long try_to_free_pages(struct zonelist *zl, gfp_t gfp_mask,
				unsigned int order);
/* An allocation found zone below its low watermark: wake its kswapd. */
void wakeup_kswapd(struct zone *zone, unsigned int order);
/* Sleeps timeout jiffies between allocation retries (2.6: blk_congestion_wait). */
void congestion_wait(long timeout);
/*
 * Caps congestion_wait()'s sleep at jiffies (0: no cap) and returns the
 * old cap.  For tests that count the sleeps between retries, not their
 * length: the reclaim suite sleeps 1 jiffy where the allocator asks HZ/50.
 */
long congestion_wait_limit(long jiffies);

/* Test knob: reclaim frees nothing and kswapd stays asleep while set. */
extern bool reclaim_disabled;

/* Starts one kswapd thread per online node. */
void kswapd_init(void);

/* What reclaim has done since boot. */
struct reclaim_stats {
	unsigned long direct_calls;	/* try_to_free_pages() (allocstall) */
	unsigned long direct_reclaimed;	/* pages they freed */
	unsigned long congestion_waits;	/* allocators' sleeps between retries */
	unsigned long slabs_scanned;	/* objects shrinkers were asked to scan */
	unsigned long kswapd_wakeups;	/* all nodes */
	unsigned long kswapd_reclaimed;
};
void get_reclaim_stats(struct reclaim_stats *st);
/* Prints the reclaim counters (a /proc/vmstat excerpt). */
void show_reclaim_stats(void);

#endif /* MM_VMSCAN_H */
