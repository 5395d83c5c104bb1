/*
 * mm/mmzone.c - nodes and zones: their boundaries, watermarks, reserves
 * and zonelists.
 *
 * Zones are fixed by what the hardware can address: ZONE_DMA below
 * 16 MiB, ZONE_NORMAL up to the end of the linear map (max_low_pfn),
 * ZONE_HIGHMEM above (i386 2.6).  A node spans [start_pfn, end_pfn) and gets the
 * parts of those ranges that fall inside it; empty zones stay, with
 * spanned = present = 0, so that zone indexes mean the same everywhere.
 *
 * Watermarks follow Linux 2.6 (setup_per_zone_pages_min): min_free_kbytes
 * = sqrt(lowmem_kbytes * 16), clamped to [128, 65536] (2.6.11), shared
 * among the lowmem zones in proportion to their size (2.6.11); highmem
 * zones get a small fixed min (present/1024 clamped to [32, 128]) (2.6.11);
 * low = min + share/4 and high = min + share/2 (2.6.11: min*5/4, min*6/4).
 * lowmem_reserve follows setup_per_zone_lowmem_reserve with ratios 256
 * (DMA) and 32 (NORMAL) (2.6.11): a lower zone keeps back, from
 * allocations that prefer a higher zone, the higher zones' pages divided
 * by its ratio, so that ZONE_DMA is not eaten by GFP_KERNEL.
 *
 * Zonelists: for each zone modifier, the preferred zone and the zones it
 * may fall back to, highest first (HIGHMEM -> NORMAL -> DMA), populated
 * zones only; nodes in order of distance from the list's own node
 * (2.6.11's build_zonelists, without its load balancing between nodes at
 * equal distance).
 *
 * Runs at boot on one CPU; no locks.
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/math.h"
#include "lib/string.h"
#include "mm/internal.h"
#include "mm/mmzone.h"

const char *const zone_names[MAX_NR_ZONES] = { "DMA", "Normal", "HighMem" };

static pg_data_t node_data_storage[MAX_NUMNODES];
pg_data_t *node_data[MAX_NUMNODES];
int nr_online_nodes;
int min_free_kbytes = 1024;

/*
 * Of a lower zone, against allocations that prefer a higher one (2.6.11).
 * __unused: the zones lab's student tree has the code that reads it as
 * its exercise.
 */
static const unsigned int lowmem_reserve_ratio[MAX_NR_ZONES - 1] __unused = {
	256, 32
};

void free_area_init_node(int nid, unsigned long start_pfn,
			 unsigned long end_pfn,
			 const unsigned long *zone_limit,
			 unsigned long (*present)(int nid, unsigned long start,
						  unsigned long end))
{
	pg_data_t *pgdat = &node_data_storage[nid];
	unsigned long zone_start = start_pfn;

	BUG_ON(nid >= MAX_NUMNODES);
	memset(pgdat, 0, sizeof(*pgdat));
	node_data[nid] = pgdat;
	if (nid >= nr_online_nodes)
		nr_online_nodes = nid + 1;
	pgdat->node_id = nid;
	pgdat->node_start_pfn = start_pfn;
	pgdat->node_spanned_pages = end_pfn - start_pfn;

	for (int j = 0; j < MAX_NR_ZONES; j++) {
		struct zone *z = &pgdat->node_zones[j];
		unsigned long zend = min(zone_limit[j], end_pfn);

		if (zend < zone_start)
			zend = zone_start;
		spin_lock_init(&z->lock);
		zone_init_free_lists(z);
		z->zone_pgdat = pgdat;
		z->type = (enum zone_type)j;
		z->name = zone_names[j];
		z->zone_start_pfn = zone_start;
		z->spanned_pages = zend - zone_start;
		z->present_pages = present(nid, zone_start, zend);
		zone_pcp_init(z);
		pgdat->node_present_pages += z->present_pages;
		if (z->present_pages)
			pgdat->nr_zones = j + 1;
		for (unsigned long pfn = zone_start; pfn < zend; pfn++)
			set_page_links(pfn_to_page(pfn), (unsigned int)j, nid);
		zone_start = zend;
	}
}

/* Zones of node nid usable for zone modifier k, highest first. */
static int build_zonelist_node(struct zonelist *zl, int idx, pg_data_t *pgdat,
			       enum zone_type k)
{
	/* LAB zones: BEGIN append the node's populated zones from k down to ZONE_DMA */
	for (int j = (int)k; j >= 0; j--)
		if (populated_zone(&pgdat->node_zones[j]))
			zl->zones[idx++] = &pgdat->node_zones[j];
	return idx;
	/* LAB zones: END */
}

/* Node distance; the NUMA issue fills it from the SLIT. */
__weak int node_distance(int from, int to)
{
	return from == to ? 10 : 20;
}

static void build_zonelists(pg_data_t *pgdat)
{
	int order[MAX_NUMNODES];
	int n = 0, nid;

	/* Nodes by distance from this one, nearest first (stable). */
	for_each_online_node(nid)
		order[n++] = nid;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 &&
				node_distance(pgdat->node_id, order[j]) <
					node_distance(pgdat->node_id, order[j - 1]);
		     j--) {
			int tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}

	for (unsigned int i = 0; i < GFP_ZONETYPES; i++) {
		struct zonelist *zl = &pgdat->node_zonelists[i];
		enum zone_type k = gfp_zone(i);
		int idx = 0;

		memset(zl, 0, sizeof(*zl));
		for (int o = 0; o < n; o++)
			idx = build_zonelist_node(zl, idx, NODE_DATA(order[o]), k);
		zl->zones[idx] = NULL;
	}
}

void build_all_zonelists(void)
{
	int nid;

	for_each_online_node(nid)
		build_zonelists(NODE_DATA(nid));
	pr_info("Built %d zonelists in Node order, mobility grouping off.  Total pages: %lu\n",
		nr_online_nodes, totalram_pages());
}

int calculate_min_free_kbytes(unsigned long lowmem_pages)
{
	/* LAB zones: BEGIN min_free_kbytes from the lowmem size, 2.6.11's rule */
	unsigned long lowmem_kbytes = lowmem_pages * (PAGE_SIZE >> 10);
	unsigned long v = int_sqrt(lowmem_kbytes * 16);

	return (int)clamp(v, 128UL, 65536UL);
	/* LAB zones: END */
}

#define SWAP_CLUSTER_MAX 32

void setup_per_zone_pages_min(void)
{
	unsigned long pages_min = (unsigned long)min_free_kbytes >> (PAGE_SHIFT - 10);
	unsigned long lowmem_pages = 0;
	struct zone *z;
	int nid;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			if (!is_highmem(z))
				lowmem_pages += z->present_pages;
	if (!lowmem_pages)
		return;

	for_each_online_node(nid) {
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			unsigned long tmp = (unsigned long)((u64)pages_min *
							    z->present_pages /
							    lowmem_pages);

			if (is_highmem(z)) {
				unsigned long m = z->present_pages / 1024;

				z->pages_min = clamp(m, (unsigned long)SWAP_CLUSTER_MAX,
						     128UL);
			} else {
				z->pages_min = tmp;
			}
			if (!populated_zone(z))
				z->pages_min = 0;
			z->pages_low = z->pages_min + (tmp >> 2);
			z->pages_high = z->pages_min + (tmp >> 1);
		}
	}
}

void setup_per_zone_lowmem_reserve(void)
{
	int nid;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		/* LAB zones: BEGIN each zone's lowmem_reserve[] from the zones above it and lowmem_reserve_ratio */
		for (int j = 0; j < MAX_NR_ZONES; j++) {
			unsigned long present = pgdat->node_zones[j].present_pages;

			pgdat->node_zones[j].lowmem_reserve[j] = 0;
			for (int idx = j - 1; idx >= 0; idx--) {
				struct zone *lower = &pgdat->node_zones[idx];

				lower->lowmem_reserve[j] =
					present / lowmem_reserve_ratio[idx];
				present += lower->present_pages;
			}
		}
		/* LAB zones: END */
	}
}

static unsigned long sum_zones(bool highmem_only, bool lowmem_only,
			       unsigned long (*get)(const struct zone *))
{
	unsigned long sum = 0;
	struct zone *z;
	int nid;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			if ((highmem_only && !is_highmem(z)) ||
			    (lowmem_only && is_highmem(z)))
				continue;
			sum += get(z);
		}
	return sum;
}

static unsigned long zone_free(const struct zone *z)
{
	return READ_ONCE(z->free_pages);
}

static unsigned long zone_managed(const struct zone *z)
{
	return z->managed_pages;
}

static unsigned long zone_present(const struct zone *z)
{
	return z->present_pages;
}

unsigned long nr_free_pages(void)
{
	return sum_zones(false, false, zone_free);
}

unsigned long nr_free_highpages(void)
{
	return sum_zones(true, false, zone_free);
}

unsigned long totalram_pages(void)
{
	unsigned long managed = sum_zones(false, false, zone_managed);

	/* Before memblock_free_all nothing is managed yet: count RAM. */
	return managed ? managed : sum_zones(false, false, zone_present);
}

unsigned long totalhigh_pages(void)
{
	return sum_zones(true, false, zone_managed);
}
