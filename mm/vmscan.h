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

/* Starts one kswapd thread per online node. */
void kswapd_init(void);

#endif /* MM_VMSCAN_H */
