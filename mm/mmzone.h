/*
 * mm/mmzone.h - nodes, zones, free areas and zonelists.
 *
 * Memory is split into nodes (one per NUMA node; one on a plain PC) and
 * each node into zones by what the hardware can do with the pages:
 * ZONE_DMA [0, 16 MiB) for ISA DMA, ZONE_NORMAL up to the end of the
 * linear map, ZONE_HIGHMEM above it (reachable only through kmap).  Each
 * zone runs its own buddy allocator (free_area[order]) under its own lock,
 * with its own watermarks.  A zonelist is the order in which an allocation
 * tries zones: its preferred zone first, then the zones it may fall back
 * to (HIGHMEM -> NORMAL -> DMA, nearer nodes first).
 *
 * Lock order: zone->lock is a leaf; nothing else is taken under it.
 */
#ifndef MM_MMZONE_H
#define MM_MMZONE_H

#include "asm/page.h"
#include "kernel/lockdep.h"
#include "kernel/nr_cpus.h"
#include "kernel/spinlock.h"
#include "kernel/wait.h"
#include "lib/list.h"
#include "lib/types.h"
#include "mm/gfp.h"
#include "mm/mm.h"

#define MAX_ORDER 11 /* orders 0..10: blocks of up to 4 MiB */
#define MAX_ORDER_NR_PAGES (1UL << (MAX_ORDER - 1))

enum zone_type {
	ZONE_DMA,
	ZONE_NORMAL,
	ZONE_HIGHMEM,
	MAX_NR_ZONES,
};

#define MAX_DMA_PFN ((16UL << 20) >> PAGE_SHIFT)

struct free_area {
	struct list_head free_list;
	unsigned long nr_free; /* blocks of this order, not pages */
};

/*
 * Event counters, per zone.  Each CPU counts in its own pageset without a
 * lock or an atomic instruction (cheap on the fast path); a reader sums
 * the CPUs' shares, a snapshot that is exact only on a quiet machine.
 * The update is a read-modify-write of this CPU's share, so it runs with
 * interrupts off: a tick (or a task preempting this one on the same CPU)
 * that counts in between would otherwise be overwritten.  As 2.6.18's
 * __mod_zone_page_state/mod_zone_page_state: __zone_stat_add() for code
 * that already has interrupts off (asserted), zone_stat_add() turning
 * them off itself.  Every count is kept: totals are exact once quiet.
 */
enum zone_stat_item {
	NR_ALLOC_FAST,	 /* served at the low watermark */
	NR_ALLOC_SLOW,	 /* needed the slow path */
	NR_ALLOC_FAIL,	 /* failed in this zone's zonelist */
	NR_ZONE_LOCK,	 /* zone->lock acquisitions */
	NR_PCP_HIT,	 /* order-0 allocations served by a per-CPU list */
	NR_PCP_MISS,	 /* ... that had to refill it from the buddy lists */
	NR_PCP_DRAIN,	 /* pages a full list gave back to the buddy lists */
	NR_ZONE_STAT_ITEMS,
};

/*
 * A per-CPU list of free single pages in front of a zone's buddy lists
 * (Linux 2.6's per_cpu_pages): pcp[0] hot, pcp[1] cold.  An order-0
 * allocation takes from here without the zone lock; the list is refilled
 * with batch pages, and trimmed by batch pages, under one acquisition.
 * Only its own CPU touches a list, with interrupts off.  high moves
 * between high_min and high_max (Linux 6.7's auto-tuning, pcp_nr_trim()
 * in mm/page_alloc.c); when they are equal, as on every cold list and on
 * every zone but the machine's own, it stays 2.6's fixed mark.
 */
struct per_cpu_pages {
	int count;		/* pages on the list */
	int low;		/* refill when count <= low */
	int high;		/* give batch back when count >= high */
	int batch;		/* pages moved per zone-lock acquisition */
	int free_count;		/* frees since allocations stopped: +1 a free, halved a take */
	int high_min, high_max;	/* high's range; equal: high is fixed */
	struct list_head list;	/* hottest at the head */
};

struct per_cpu_pageset {
	struct per_cpu_pages pcp[2]; /* 0: hot, 1: cold */
	/* This CPU's share of the zone's event counters (zone_stat_read). */
	unsigned long stat[NR_ZONE_STAT_ITEMS];
} __aligned(L1_CACHE_BYTES);

struct pglist_data;

struct zone {
	spinlock_t lock;
	/* In the buddy lists; zone->lock (WRITE_ONCE: read without it). */
	unsigned long free_pages;
	unsigned long pages_min, pages_low, pages_high;
	/*
	 * An allocation found free_pages below pages_high; a free that finds
	 * it back above clears it (6.7's ZONE_BELOW_HIGH).  A hint, read and
	 * written without the lock: while set, tuned lists shrink.
	 */
	bool below_high;
	/*
	 * Pages this zone keeps back from allocations that could have been
	 * served by a higher zone: lowmem_reserve[j] applies when the
	 * allocation's preferred zone is j.
	 */
	unsigned long lowmem_reserve[MAX_NR_ZONES];
	struct free_area free_area[MAX_ORDER];

	struct pglist_data *zone_pgdat;
	enum zone_type type;	/* its index in zone_pgdat->node_zones */
	unsigned long zone_start_pfn;
	unsigned long spanned_pages; /* end - start, holes included */
	unsigned long present_pages; /* pages of RAM in the span */
	unsigned long managed_pages; /* given to the buddy allocator */
	const char *name;

	/* Only CPU n touches pageset[n], with interrupts off; no lock. */
	struct per_cpu_pageset pageset[NR_CPUS];
};

/*
 * This CPU's pageset ps, whose address its caller took with interrupts
 * off in the same function, as the per-CPU list paths do (nothing to
 * assert): the count without a second lookup.
 */
static inline void __pageset_stat_inc(struct per_cpu_pageset *ps,
				      enum zone_stat_item item)
{
	ps->stat[item]++;
}

/* Interrupts off (asserted), so also no preemption and no migration. */
static inline void __zone_stat_add(struct zone *z, enum zone_stat_item item,
				   unsigned long n)
{
	lockdep_assert_irqs_disabled();
	z->pageset[raw_smp_processor_id()].stat[item] += n;
}

static inline void __zone_stat_inc(struct zone *z, enum zone_stat_item item)
{
	__zone_stat_add(z, item, 1);
}

/* Any context: turns interrupts off around the update. */
static inline void zone_stat_add(struct zone *z, enum zone_stat_item item,
				 unsigned long n)
{
	unsigned long flags;

	local_irq_save(flags);
	__zone_stat_add(z, item, n);
	local_irq_restore(flags);
}

static inline void zone_stat_inc(struct zone *z, enum zone_stat_item item)
{
	zone_stat_add(z, item, 1);
}

static inline unsigned long zone_stat_read(const struct zone *z,
					   enum zone_stat_item item)
{
	unsigned long sum = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += READ_ONCE(z->pageset[cpu].stat[item]);
	return sum;
}

struct zonelist {
	/* NULL-terminated, preferred zone first. */
	struct zone *zones[MAX_NUMNODES * MAX_NR_ZONES + 1];
};

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	struct zonelist node_zonelists[GFP_ZONETYPES];
	int nr_zones;
	int node_id;
	unsigned long node_start_pfn;
	unsigned long node_spanned_pages;
	unsigned long node_present_pages;
	/* Reclaim (mm/vmscan.c): the node's kswapd and what it has done. */
	wait_queue_head_t kswapd_wait;
	struct task_struct *kswapd;
	bool kswapd_wanted;		/* a wake-up not yet acted on */
	bool kswapd_active;		/* balancing now */
	unsigned int kswapd_max_order;
	unsigned long kswapd_wakeups;	/* wake-ups with none pending */
	unsigned long kswapd_runs;	/* balancing passes */
	unsigned long kswapd_reclaimed;	/* pages it freed */
} pg_data_t;

extern pg_data_t *node_data[MAX_NUMNODES];
extern int nr_online_nodes;
#define NODE_DATA(nid) (node_data[nid])
#define for_each_online_node(nid)                                           \
	for ((nid) = 0; (nid) < nr_online_nodes; (nid)++)

static inline unsigned long zone_end_pfn(const struct zone *z)
{
	return z->zone_start_pfn + z->spanned_pages;
}

static inline bool zone_spans_pfn(const struct zone *z, unsigned long pfn)
{
	/* One unsigned comparison: a pfn below the start wraps to a huge offset. */
	return pfn - z->zone_start_pfn < z->spanned_pages;
}

static inline bool populated_zone(const struct zone *z)
{
	return z->present_pages != 0;
}

static inline enum zone_type zone_idx(const struct zone *z)
{
	return z->type;
}

static inline bool is_highmem(const struct zone *z)
{
	return zone_idx(z) == ZONE_HIGHMEM;
}

/*
 * Node and zone of a page as one number (2.6.17's page_zone_id): two pages
 * with different ids are never buddies, whatever the spans say.  The
 * zone bits sit right above the node bits in page->flags.
 */
static inline unsigned long page_zone_id(const struct page *page)
{
	/*
	 * A data race by design: the node and zone bits never change once
	 * set, while the page's owner may change its other bits meanwhile
	 * (Linux's page_zonenum() asserts exactly that, for KCSAN).
	 */
	return (data_race(page->flags) >> NODES_PGSHIFT) &
	       ((1UL << (NODES_SHIFT + ZONES_SHIFT)) - 1);
}

static inline struct zone *page_zone(const struct page *page)
{
	return &NODE_DATA(page_to_nid(page))->node_zones[page_zonenum(page)];
}

/* The zonelist an allocation uses: by node, then by zone modifier. */
static inline struct zonelist *node_zonelist(int nid, gfp_t gfp_mask)
{
	return &NODE_DATA(nid)->node_zonelists[gfp_mask & GFP_ZONEMASK];
}

/* The zone a zone modifier prefers (2.6: DMA wins over HIGHMEM). */
static inline enum zone_type gfp_zone(gfp_t gfp_mask)
{
	if (gfp_mask & __GFP_DMA)
		return ZONE_DMA;
	if (gfp_mask & __GFP_HIGHMEM)
		return ZONE_HIGHMEM;
	return ZONE_NORMAL;
}

#define for_each_zone_in_node(z, pgdat)                                     \
	for ((z) = (pgdat)->node_zones;                                     \
	     (z) < (pgdat)->node_zones + MAX_NR_ZONES; (z)++)

extern const char *const zone_names[MAX_NR_ZONES];
extern int min_free_kbytes;

/* mm/mmzone.c */
void free_area_init_node(int nid, unsigned long start_pfn,
			 unsigned long end_pfn,
			 const unsigned long *zone_end_pfn,
			 unsigned long (*present)(int nid, unsigned long start,
						  unsigned long end));
void build_all_zonelists(void);
void setup_per_zone_pages_min(void);
void setup_per_zone_lowmem_reserve(void);
int calculate_min_free_kbytes(unsigned long lowmem_pages);
unsigned long nr_free_pages(void);
/* Pages on every per-CPU list of every zone: free, but not in free_pages. */
unsigned long nr_pcp_pages(void);
/* Sets a zone's per-CPU lists from its size, as Linux 2.6 did. */
unsigned int zone_batchsize(const struct zone *zone);
void zone_pcp_init(struct zone *zone);
/* Lets the machine's zones' hot lists tune their high (Linux 6.7). */
void setup_per_zone_pcp_high(void);
/*
 * Starts each online CPU's timer that decays its tuned hot lists once a
 * second (6.7's decay_pcp_high); pcp_decay_high() is one decay of one
 * list, interrupts off, returning the pages it gave back.
 */
void pcp_decay_init(void);
int pcp_decay_high(struct zone *zone, struct per_cpu_pages *pcp);
/* Gives this CPU's per-CPU pages back to the buddy lists (IRQs off inside). */
void drain_local_pages(void);
/* The same on every CPU, by IPI, waiting for all. */
void drain_all_pages(void);
unsigned long nr_free_highpages(void);
int node_distance(int from, int to);
unsigned long totalram_pages(void);
unsigned long totalhigh_pages(void);

#endif /* MM_MMZONE_H */
