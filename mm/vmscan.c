/*
 * mm/vmscan.c - giving memory back when the page allocator runs short.
 *
 * The page allocator's slow path calls try_to_free_pages() for
 * allocations that may wait, before it retries or gives up.  Today the
 * only memory that can be reclaimed is what the slab layer keeps for
 * speed: free slabs and the objects parked in per-CPU arrays, all of
 * which kmem_cache_reap_all() gives back.  (Shrinkers that other
 * subsystems register, their __GFP_IO/__GFP_FS classes and the kswapd
 * threads come with kernel threads and sleeping.)
 *
 * Returns the number of pages freed: "progress", in the page allocator's
 * retry policy.
 */
#include "mm/internal.h"
#include "mm/slab.h"
#include "mm/vmscan.h"

unsigned long try_to_free_pages(struct zonelist *zl, gfp_t gfp_mask,
				unsigned int order)
{
	return kmem_cache_reap_all();
}

void kswapd_init(void)
{
}
