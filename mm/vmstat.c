/*
 * mm/vmstat.c - Linux's memory reports, printed to the kernel log.
 *
 * What it is for: the numbers a Linux mm developer looks at first
 * (/proc/buddyinfo, /proc/zoneinfo, /proc/meminfo, and the "Mem-Info:"
 * summary that follows a page allocation failure) in the very format
 * Linux prints them, so that what students learn here reads the same on
 * a real machine, and the tools and habits they bring from Linux (awk on
 * buddyinfo, diffing zoneinfo) work on mm86's serial log.
 *
 * mm86 has no /proc, so each dump goes through printk, KERN_INFO, one
 * line per printk: first a line naming the file ("/proc/zoneinfo:"),
 * then its lines byte for byte as Linux has them (printk adds its
 * "[    1.234567] " timestamp in front of each; strip it to compare).
 * The formats, with Linux's field widths:
 *
 *   /proc/buddyinfo (populated zones; note the space before the newline)
 *	Node %d, zone %8s    then "%6lu " per order
 *
 *   /proc/zoneinfo (populated zones; Linux >= 4.x field layout)
 *	Node %d, zone %8s
 *	  pages free     %lu
 *	        min      %lu
 *	        low      %lu
 *	        high     %lu
 *	        spanned  %lu
 *	        present  %lu
 *	        managed  %lu
 *	        protection: (%lu, %lu, %lu)	lowmem_reserve[], in pages
 *	      %-12s %lu			one per vm_stat[] counter
 *	  pagesets, then per online CPU and list (0 hot, 1 cold):
 *	    cpu: %d pcp: %d / count: / high: / batch:
 *	  start_pfn:           %lu
 *
 *   /proc/meminfo ("%-16s%8lu kB" of "Name:")
 *	MemTotal, MemFree, HighTotal, HighFree, LowTotal, LowFree,
 *	Slab (pages of every cache's slabs), Mempool (every pool's
 *	reserve, rounded up to pages)
 *
 *   show_free_areas(), Linux 2.6's shape (sizes in kB unless stated):
 *	Mem-Info:
 *	DMA per-cpu:				for every populated zone,
 *	cpu 0 hot: high 6, batch 1 used:0	each online CPU's two lists
 *	cpu 0 cold: high 2, batch 1 used:0
 *	DMA free:%lukB min:%lukB low:%lukB high:%lukB present:%lukB managed:%lukB
 *	lowmem_reserve[]: 0 880 880		(pages)
 *	  ... those two lines for every populated zone, then for each:
 *	DMA: 1*4kB 2*8kB 0*16kB ... 3*4096kB = 12345kB
 *	%lu pages RAM
 *	%lu pages HighMem
 *	%lu free pages
 *   Each zone line is prefixed "Node %d " when more than one node is
 *   online (Linux prefixes it on every CONFIG_NUMA kernel).
 *
 * Differences from Linux: zoneinfo and meminfo show only the fields mm86
 * has (no boost/cma/scanned, no per-node stats, no LRU or swap lines);
 * unpopulated zones are left out of zoneinfo as Linux 2.6 did (newer
 * Linux prints their header, page and protection lines).
 *
 * Locking: each zone's counters are copied into a local snapshot under
 * that zone's lock (spin_lock_irqsave), one zone at a time, and printed
 * after the lock is dropped: the serial port is slow, and nothing may
 * wait on zone->lock for it.  No other lock is taken here.  Callers must
 * not hold any zone->lock; if this CPU does hold the lock of a zone being
 * read (an allocation failure reported from the wrong place), the copy is
 * made under the caller's hold after a WARN, rather than spinning on a
 * ticket lock this CPU can never release.  The hooks are called with no
 * lock held.  Totals across zones (meminfo, "free pages") are sums of
 * per-zone snapshots, not one atomic picture, exactly as in Linux.
 */
#include "mm/vmstat.h"

#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/internal.h"
#include "mm/mempool.h"
#include "mm/mmzone.h"
#include "mm/slab.h"

/* Pages to kB. */
#define K(x) ((unsigned long)(x) << (PAGE_SHIFT - 10))

/* Long enough for any buddy line with 10-digit counts (see below). */
#define VMSTAT_LINE_MAX 320

/* meminfo: the label column, and the column the value ends in. */
#define MEMINFO_LABEL_WIDTH 16
#define MEMINFO_VALUE_END 24

/* The names zoneinfo prints for vm_stat[], in enum zone_stat_item order. */
static const char *const zone_stat_names[] = {
	[NR_ALLOC_FAST] = "nr_alloc_fast",
	[NR_ALLOC_SLOW] = "nr_alloc_slow",
	[NR_ALLOC_FAIL] = "nr_alloc_fail",
	[NR_ZONE_LOCK] = "nr_zone_lock",
	[NR_PCP_HIT] = "nr_pcp_hit",
	[NR_PCP_MISS] = "nr_pcp_miss",
	[NR_PCP_DRAIN] = "nr_pcp_drain",
};
BUILD_BUG_ON(ARRAY_SIZE(zone_stat_names) != NR_ZONE_STAT_ITEMS);

/* What the reports need of a zone, copied under its lock. */
struct zone_snapshot {
	unsigned long free_pages;
	unsigned long pages_min, pages_low, pages_high;
	unsigned long spanned_pages, present_pages, managed_pages;
	unsigned long zone_start_pfn;
	unsigned long lowmem_reserve[MAX_NR_ZONES];
	unsigned long vm_stat[NR_ZONE_STAT_ITEMS];
	unsigned long nr_free[MAX_ORDER];
};

/* Every populated zone of every online node, lowest node and zone first. */
#define for_each_populated_zone(nid, zone)                                  \
	for_each_online_node(nid)                                            \
		for_each_zone_in_node(zone, NODE_DATA(nid))                  \
			if (!populated_zone(zone)) {                         \
			} else

static void snapshot_zone(struct zone *zone, struct zone_snapshot *s)
{
	unsigned long flags = 0;
	bool locked = false;
	int i;

	if (!WARN_ON_ONCE(spin_is_held(&zone->lock))) {
		spin_lock_irqsave(&zone->lock, flags);
		locked = true;
	}

	s->free_pages = zone->free_pages;
	s->pages_min = zone->pages_min;
	s->pages_low = zone->pages_low;
	s->pages_high = zone->pages_high;
	s->spanned_pages = zone->spanned_pages;
	s->present_pages = zone->present_pages;
	s->managed_pages = zone->managed_pages;
	s->zone_start_pfn = zone->zone_start_pfn;
	for (i = 0; i < MAX_NR_ZONES; i++)
		s->lowmem_reserve[i] = zone->lowmem_reserve[i];
	for (i = 0; i < NR_ZONE_STAT_ITEMS; i++)
		s->vm_stat[i] = zone_stat_read(zone, i);
	for (i = 0; i < MAX_ORDER; i++)
		s->nr_free[i] = zone->free_area[i].nr_free;

	if (locked)
		spin_unlock_irqrestore(&zone->lock, flags);
}

static const char *zone_label(const struct zone *zone)
{
	return zone->name ? zone->name : zone_names[zone_idx(zone)];
}

static int zone_nid(const struct zone *zone)
{
	return zone->zone_pgdat->node_id;
}

/*
 * snprintf, appended: the line so far is buf[0, *len) (*len may already
 * be past size, once the line was cut).  *len ends as the length the
 * whole line would have, as snprintf returns it.
 */
static void __printf(4, 5) line_add(char *buf, size_t size, int *len,
				    const char *fmt, ...)
{
	size_t pos = (size_t)*len;
	va_list args;

	va_start(args, fmt);
	if (pos < size)
		*len += vsnprintf(buf + pos, size - pos, fmt, args);
	else
		*len += vsnprintf(NULL, 0, fmt, args);
	va_end(args);
}

int format_buddyinfo_line(char *buf, size_t size, int nid,
			  const char *zone_name, const unsigned long *nr_free)
{
	int len = 0;
	int order;

	line_add(buf, size, &len, "Node %d, zone %8s ", nid, zone_name);
	for (order = 0; order < MAX_ORDER; order++)
		line_add(buf, size, &len, "%6lu ", nr_free[order]);
	return len;
}

int format_meminfo_line(char *buf, size_t size, const char *name,
			unsigned long kb)
{
	int name_len = (int)strlen(name);
	/* "Name:" padded to 16, with at least one space after the colon. */
	int label = max(name_len + 2, MEMINFO_LABEL_WIDTH);
	int width = max(MEMINFO_VALUE_END - label, 0);

	return snprintf(buf, size, "%s:%*s%*lu kB", name,
			label - name_len - 1, "", width, kb);
}

/* ---------------------------------------------------------------- */
/* /proc/buddyinfo */

void show_buddyinfo(void)
{
	struct zone_snapshot s;
	char line[VMSTAT_LINE_MAX];
	struct zone *zone;
	int nid;

	printk(KERN_INFO "/proc/buddyinfo:\n");
	for_each_populated_zone(nid, zone) {
		snapshot_zone(zone, &s);
		format_buddyinfo_line(line, sizeof(line), zone_nid(zone),
				      zone_label(zone), s.nr_free);
		printk(KERN_INFO "%s\n", line);
	}
}

/* ---------------------------------------------------------------- */
/* /proc/zoneinfo */

/*
 * Linux 2.6's "pagesets" block: each online CPU's hot (pcp 0) and cold
 * (pcp 1) list.  The counts are read without stopping their CPUs: a
 * snapshot, exact only when the machine is quiet.
 */
static void zoneinfo_show_pagesets(struct zone *zone)
{
	int cpu;

	printk(KERN_INFO "  pagesets\n");
	for_each_online_cpu(cpu) {
		for (int j = 0; j < 2; j++) {
			const struct per_cpu_pages *pcp = &zone->pageset[cpu].pcp[j];

			printk(KERN_INFO "    cpu: %d pcp: %d\n", cpu, j);
			printk(KERN_INFO "              count: %d\n",
			       READ_ONCE(pcp->count));
			printk(KERN_INFO "              high:  %d\n", pcp->high);
			printk(KERN_INFO "              batch: %d\n", pcp->batch);
		}
	}
}

static void zoneinfo_show_zone(struct zone *zone)
{
	struct zone_snapshot s;
	char line[VMSTAT_LINE_MAX];
	int len = 0;
	int i;

	snapshot_zone(zone, &s);

	printk(KERN_INFO "Node %d, zone %8s\n", zone_nid(zone),
	       zone_label(zone));
	printk(KERN_INFO "  pages free     %lu\n", s.free_pages);
	printk(KERN_INFO "        min      %lu\n", s.pages_min);
	printk(KERN_INFO "        low      %lu\n", s.pages_low);
	printk(KERN_INFO "        high     %lu\n", s.pages_high);
	printk(KERN_INFO "        spanned  %lu\n", s.spanned_pages);
	printk(KERN_INFO "        present  %lu\n", s.present_pages);
	printk(KERN_INFO "        managed  %lu\n", s.managed_pages);

	line_add(line, sizeof(line), &len, "        protection: (%lu",
		 s.lowmem_reserve[0]);
	for (i = 1; i < MAX_NR_ZONES; i++)
		line_add(line, sizeof(line), &len, ", %lu",
			 s.lowmem_reserve[i]);
	line_add(line, sizeof(line), &len, ")");
	printk(KERN_INFO "%s\n", line);

	for (i = 0; i < NR_ZONE_STAT_ITEMS; i++)
		printk(KERN_INFO "      %-12s %lu\n", zone_stat_names[i],
		       s.vm_stat[i]);

	zoneinfo_show_pagesets(zone);

	printk(KERN_INFO "  start_pfn:           %lu\n", s.zone_start_pfn);
}

void show_zoneinfo(void)
{
	struct zone *zone;
	int nid;

	printk(KERN_INFO "/proc/zoneinfo:\n");
	for_each_populated_zone(nid, zone)
		zoneinfo_show_zone(zone);
}

/* ---------------------------------------------------------------- */
/* /proc/meminfo */

static void meminfo_show_line(const char *name, unsigned long pages)
{
	char line[64];

	format_meminfo_line(line, sizeof(line), name, K(pages));
	printk(KERN_INFO "%s\n", line);
}

void show_meminfo(void)
{
	unsigned long total = totalram_pages();
	unsigned long free = nr_free_pages();
	unsigned long high_total = totalhigh_pages();
	unsigned long high_free = 0, low_free = 0;
	struct zone_snapshot s;
	struct zone *zone;
	int nid;

	for_each_populated_zone(nid, zone) {
		snapshot_zone(zone, &s);
		if (is_highmem(zone))
			high_free += s.free_pages;
		else
			low_free += s.free_pages;
	}

	printk(KERN_INFO "/proc/meminfo:\n");
	meminfo_show_line("MemTotal", total);
	meminfo_show_line("MemFree", free);
	meminfo_show_line("HighTotal", high_total);
	meminfo_show_line("HighFree", high_free);
	meminfo_show_line("LowTotal", total - high_total);
	meminfo_show_line("LowFree", low_free);
	meminfo_show_line("Slab", slab_total_pages());
	meminfo_show_line("Mempool", DIV_ROUND_UP(mempool_reserved_bytes(),
						  PAGE_SIZE));
}

/* ---------------------------------------------------------------- */
/* The allocation failure summary */

/* Linux's show_node(): "Node %d " on a NUMA kernel, here with > 1 node. */
static void line_add_node(char *buf, size_t size, int *len,
			  const struct zone *zone)
{
	if (nr_online_nodes > 1)
		line_add(buf, size, len, "Node %d ", zone_nid(zone));
}

static void free_areas_show_zone(struct zone *zone, unsigned long *ram,
				 unsigned long *highmem, unsigned long *free)
{
	struct zone_snapshot s;
	char line[VMSTAT_LINE_MAX];
	int len = 0;
	int i;

	snapshot_zone(zone, &s);

	line_add_node(line, sizeof(line), &len, zone);
	line_add(line, sizeof(line), &len,
		 "%s free:%lukB min:%lukB low:%lukB high:%lukB present:%lukB managed:%lukB",
		 zone_label(zone), K(s.free_pages), K(s.pages_min),
		 K(s.pages_low), K(s.pages_high), K(s.present_pages),
		 K(s.managed_pages));
	printk(KERN_INFO "%s\n", line);

	len = 0;
	line_add(line, sizeof(line), &len, "lowmem_reserve[]:");
	for (i = 0; i < MAX_NR_ZONES; i++)
		line_add(line, sizeof(line), &len, " %lu",
			 s.lowmem_reserve[i]);
	printk(KERN_INFO "%s\n", line);

	*ram += s.present_pages;
	if (is_highmem(zone))
		*highmem += s.present_pages;
	*free += s.free_pages;
}

/*
 * Worst case: "Node -2147483648 " (17) + "HighMem: " (9) + 11 orders of
 * "4294967295*4096kB " (18) + "= 4294967295kB" (14) = 238 < VMSTAT_LINE_MAX.
 */
static void free_areas_show_buddy(struct zone *zone)
{
	struct zone_snapshot s;
	char line[VMSTAT_LINE_MAX];
	unsigned long total = 0;
	int len = 0;
	int order;

	snapshot_zone(zone, &s);
	for (order = 0; order < MAX_ORDER; order++)
		total += s.nr_free[order] << order;

	line_add_node(line, sizeof(line), &len, zone);
	line_add(line, sizeof(line), &len, "%s: ", zone_label(zone));
	for (order = 0; order < MAX_ORDER; order++)
		line_add(line, sizeof(line), &len, "%lu*%lukB ",
			 s.nr_free[order], K(1UL) << order);
	line_add(line, sizeof(line), &len, "= %lukB", K(total));
	printk(KERN_INFO "%s\n", line);
}

void show_free_areas(void)
{
	unsigned long ram = 0, highmem = 0, free = 0;
	struct zone *zone;
	int nid;

	printk(KERN_INFO "Mem-Info:\n");
	for_each_populated_zone(nid, zone) {
		int cpu;

		printk(KERN_INFO "%s per-cpu:\n", zone->name);
		for_each_online_cpu(cpu)
			for (int j = 0; j < 2; j++) {
				const struct per_cpu_pages *pcp =
					&zone->pageset[cpu].pcp[j];

				printk(KERN_INFO "cpu %d %s: high %d, batch %d used:%d\n",
				       cpu, j ? "cold" : "hot", pcp->high,
				       pcp->batch, READ_ONCE(pcp->count));
			}
	}
	for_each_populated_zone(nid, zone)
		free_areas_show_zone(zone, &ram, &highmem, &free);
	for_each_populated_zone(nid, zone)
		free_areas_show_buddy(zone);
	printk(KERN_INFO "%lu pages RAM\n", ram);
	printk(KERN_INFO "%lu pages HighMem\n", highmem);
	printk(KERN_INFO "%lu free pages\n", free);
}

/* ---------------------------------------------------------------- */

void show_mem_dumps(void)
{
	show_buddyinfo();
	show_zoneinfo();
	show_meminfo();
}
