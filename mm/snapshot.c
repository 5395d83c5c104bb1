/*
 * mm/snapshot.c - compact, machine-readable snapshots of physical memory.
 *
 * Why: a student learns an allocator by watching it.  At named points
 * (after boot, after each test suite, at the end, and whenever a test asks)
 * the kernel prints what physical memory looks like, and a host tool turns
 * the serial log into pictures.  The format is a contract with that tool
 * (version 1); what follows describes it.
 *
 * The format.  A snapshot is a run of printk lines, each of which, after
 * the "[    S.UUUUUU] " timestamp, starts with "mmsnap: " and has its fields
 * separated by one space.  Numbers are decimal except physical addresses,
 * which are hex with 0x; ranges are half open, [start, end).
 *   - It opens with "begin SEQ LABEL v=1 jiffies=J hz=HZ max_pfn=N cpus=C":
 *     SEQ numbers the snapshots this boot printed, from 0; LABEL is one
 *     token: boot, suite:NAME, end, or case:SUITE.CASE:LABEL for a test's
 *     own; J is the raw jiffies count, C the CPUs online.
 *   - The first snapshot printed (SEQ 0), and only that one, describes
 *     the physical map: one "e820 0xS 0xE TYPE" per entry of the final
 *     e820 map (TYPE usable, reserved, ACPI, NVS, unusable or type-N);
 *     "memblock memory 0xS 0xE NID" and "memblock reserved 0xS 0xE" per
 *     memblock region; "node NID START END present=N" per node and
 *     "zone NID NAME START END present=N managed=N" per zone with pages
 *     (pfns); "kernel 0xS 0xE" for the kernel image; "mem_map 0xS 0xE" for
 *     the struct page array.  mem_map is mapped page by page (mm/init.c),
 *     so its frames need not be one range: there is one mem_map line per
 *     physically contiguous piece, in address order (often two or three).
 *   - Then the state, in every snapshot, per node and zone with pages:
 *     "free NID ZONE N0 .. N10", the blocks (not pages) on the free lists
 *     of each order; "watermarks NID ZONE free=N min=N low=N high=N";
 *     "pcp NID ZONE CPU hot=N cold=N high=N batch=N" per online CPU (the
 *     hot list's high and batch).  Then "slab NAME OBJSIZE ACTIVE TOTAL
 *     SLABS PAGES_PER_SLAB" per cache (as /proc/slabinfo counts them:
 *     OBJSIZE is the buffer size, objects in CPU arrays are active).
 *   - Then the page-state map, "pages PFN RUNS" lines: RUNS is runs
 *     written back to back, each a state code character and the run's
 *     length in decimal, the length left out when it is 1.  The first
 *     line starts at pfn 0, each next one where the one before stopped,
 *     and together they cover [0, max_pfn) once.  A line breaks only
 *     between runs, once its RUNS would pass MMSNAP_RUNS_MAX characters.
 *   - It closes with "end SEQ runs=N pages=N" (the runs and the pages of
 *     the pages lines; pages equals max_pfn).  No end line: truncated.
 *
 * State codes, first match wins: x (no memblock memory: a hole, or an e820
 * range that is not RAM), T (the page directory or a page table of the
 * kernel's, as arch_for_each_page_table() reports them), K (the kernel
 * image), M (a frame of mem_map), R (PG_reserved otherwise: firmware,
 * boot-time reservations), a..k (in a buddy free block of order 0..10,
 * every page of the block), P (on a per-CPU list), S (a slab page), U
 * (allocated, lowmem, any other owner), H (allocated, highmem).  A free
 * block is known from its head (PG_buddy, order in private), an
 * allocation of order k from its head (PG_head, k in private); the walk
 * steps over the rest of either.
 *
 * Consistency.  Snapshots are taken at quiet points, but other CPUs (the
 * tick, kswapd) may still run.  The free line of a zone is read under the
 * zone's lock, so its counts belong together; the per-CPU counts are read
 * with READ_ONCE; the page walk reads struct pages without locks and is a
 * best-effort picture, as /proc/buddyinfo and /proc/pagetypeinfo are in
 * Linux.  A page caught between two states may show either (a page with no
 * flag and no reference, which only a race shows, counts as U).
 *
 * Context and locks: process context only (asserted: not from an
 * interrupt; it may sleep).  snapshot_mutex serialises snapshots (they
 * share the static line buffers, so printing allocates nothing and works
 * with memory exhausted); under it zone->lock (briefly, for the counts)
 * and cache_chain_mutex (for the slab lines, with each cache's list_lock
 * inside slab_count()).  Lock order: snapshot_mutex > cache_chain_mutex;
 * zone->lock is a leaf.  mm_snapshot() names the case that the test
 * runner last reported through mm_snapshot_set_case() (so mm needs nothing
 * from tests/).
 *
 * Releases: not in Linux 2.6.  The free counts are /proc/buddyinfo's
 * (2.6.x), the slab counts /proc/slabinfo's (version 2.1, 2.6.x), the
 * page states in the spirit of /proc/kpageflags (2.6.25).
 */
#include "asm/pgtable.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/mutex.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/e820.h"
#include "mm/memblock.h"
#include "mm/mmzone.h"
#include "mm/slab_internal.h"
#include "mm/snapshot.h"

unsigned int mmsnap_points = MMSNAP_DEFAULT;

static DEFINE_MUTEX(snapshot_mutex);
static unsigned long snapshots_printed;	/* the next SEQ */
/* The test case running, as ktest told us (snapshot_mutex). */
static const char *case_suite, *case_name;

/* ---- mmsnap= ---- */

static const struct {
	const char *name;
	unsigned int mask;
} point_names[] = {
	{ "boot", MMSNAP_BOOT }, { "suite", MMSNAP_SUITE },
	{ "end", MMSNAP_END },	 { "case", MMSNAP_CASE },
	{ "all", MMSNAP_ALL },	 { "off", 0 },
};

static int mmsnap_setup(const char *val)
{
	unsigned int mask = 0;

	if (!val || !*val) {
		pr_err("snapshot: mmsnap= needs a list of boot,suite,end,case (or all, off); snapshots stay as they were\n");
		return -EINVAL;
	}
	for (const char *p = val; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		bool known = false;

		for (size_t i = 0; i < ARRAY_SIZE(point_names); i++)
			if (strlen(point_names[i].name) == len &&
			    !strncmp(point_names[i].name, p, len)) {
				mask |= point_names[i].mask;
				known = true;
			}
		if (!known) {
			pr_err("snapshot: mmsnap=%s: unknown point '%.*s' (boot, suite, end, case, all, off); snapshots stay as they were\n",
			       val, (int)len, p);
			return -EINVAL;
		}
		p += len + (comma != NULL);
	}
	mmsnap_points = mask;
	return 0;
}
__setup("mmsnap", mmsnap_setup);

/* ---- the run-length encoder ---- */

void mmsnap_rle_init(struct mmsnap_rle *r, struct mmsnap_sink *sink,
		     unsigned long start_pfn)
{
	memset(r, 0, sizeof(*r));
	r->sink = sink;
	r->line_pfn = r->next_pfn = start_pfn;
}

/*
 * The line is built in place: RUNS sit at buf + RLE_PREFIX, and "pages PFN "
 * is written right in front of them when the line is done.
 */
#define RLE_PREFIX 24

static void rle_flush_line(struct mmsnap_rle *r)
{
	char prefix[RLE_PREFIX];
	int n;

	if (!r->len)
		return;
	n = snprintf(prefix, sizeof(prefix), "pages %lu ", r->line_pfn);
	memcpy(r->buf + RLE_PREFIX - n, prefix, (size_t)n);
	r->sink->line(r->sink, r->buf + RLE_PREFIX - n);
	r->line_pfn = r->next_pfn;
	r->len = 0;
}

/* Writes the pending run into the line, breaking the line before it if
 * the line would grow past MMSNAP_RUNS_MAX. */
static void rle_emit_run(struct mmsnap_rle *r)
{
	char run[24];
	int n;

	if (!r->code)
		return;
	if (r->count == 1)
		n = snprintf(run, sizeof(run), "%c", r->code);
	else
		n = snprintf(run, sizeof(run), "%c%lu", r->code, r->count);
	if (r->len && r->len + (size_t)n > MMSNAP_RUNS_MAX)
		rle_flush_line(r);
	memcpy(r->buf + RLE_PREFIX + r->len, run, (size_t)n + 1);
	r->len += (size_t)n;
	r->next_pfn += r->count;
	r->runs++;
	r->pages += r->count;
	r->code = 0;
	r->count = 0;
}

void mmsnap_rle_add(struct mmsnap_rle *r, char code, unsigned long n)
{
	if (!n)
		return;
	if (r->code && r->code != code)
		rle_emit_run(r);
	r->code = code;
	r->count += n;
}

void mmsnap_rle_finish(struct mmsnap_rle *r)
{
	rle_emit_run(r);
	rle_flush_line(r);
}

/* ---- what the classifier needs: page tables and mem_map's frames ---- */

/*
 * Room for the directory and a table behind every one of its entries, so
 * the list is never cut short.
 */
#define MAX_PAGE_TABLES 1025
#define MAX_MEM_MAP_RANGES 64

static struct {
	unsigned long pt[MAX_PAGE_TABLES];	/* sorted pfns */
	unsigned long nr_pt;
	struct {
		unsigned long start, end;	/* pfns, [start, end) */
	} mm[MAX_MEM_MAP_RANGES];		/* sorted, not touching */
	unsigned long nr_mm;
	bool mm_overflow;	/* more pieces than mm[] holds: search */
	unsigned long kernel_start, kernel_end;	/* pfns */
} snap;

static void add_page_table(unsigned long pfn, void *unused)
{
	unsigned long i;

	if (snap.nr_pt == MAX_PAGE_TABLES)
		return;
	for (i = snap.nr_pt; i > 0 && snap.pt[i - 1] > pfn; i--)
		snap.pt[i] = snap.pt[i - 1];
	snap.pt[i] = pfn;
	snap.nr_pt++;
}

static void add_mem_map_pfn(unsigned long pfn)
{
	unsigned long i;

	for (i = 0; i < snap.nr_mm; i++) {
		if (pfn >= snap.mm[i].start && pfn < snap.mm[i].end)
			return;
		if (pfn == snap.mm[i].end) {
			snap.mm[i].end++;
			if (i + 1 < snap.nr_mm && snap.mm[i + 1].start == pfn + 1) {
				snap.mm[i].end = snap.mm[i + 1].end;
				memmove(&snap.mm[i + 1], &snap.mm[i + 2],
					(snap.nr_mm - i - 2) * sizeof(snap.mm[0]));
				snap.nr_mm--;
			}
			return;
		}
		if (pfn + 1 == snap.mm[i].start) {
			snap.mm[i].start--;
			return;
		}
		if (pfn < snap.mm[i].start)
			break;
	}
	if (snap.nr_mm == MAX_MEM_MAP_RANGES) {
		snap.mm_overflow = true;
		return;
	}
	memmove(&snap.mm[i + 1], &snap.mm[i],
		(snap.nr_mm - i) * sizeof(snap.mm[0]));
	snap.mm[i].start = pfn;
	snap.mm[i].end = pfn + 1;
	snap.nr_mm++;
}

static unsigned long mem_map_bytes(void)
{
	return ALIGN(max_pfn * sizeof(struct page), PAGE_SIZE);
}

/* The frame behind one page of mem_map, or ~0UL when none is mapped. */
static unsigned long mem_map_frame(unsigned long off)
{
	phys_addr_t pa = kernel_page_phys((unsigned long)mem_map + off);

	return pa == ~(phys_addr_t)0 ? ~0UL : PFN_DOWN(pa);
}

static void prepare_locked(void)
{
	phys_addr_t ks, ke;

	lockdep_assert_held(&snapshot_mutex);
	snap.nr_pt = 0;
	arch_for_each_page_table(add_page_table, NULL);
	snap.nr_mm = 0;
	snap.mm_overflow = false;
	for (unsigned long off = 0; off < mem_map_bytes(); off += PAGE_SIZE) {
		unsigned long pfn = mem_map_frame(off);

		if (pfn != ~0UL)
			add_mem_map_pfn(pfn);
	}
	arch_kernel_image(&ks, &ke);
	snap.kernel_start = snap.kernel_end = 0;
	if (ke > ks) {
		snap.kernel_start = PFN_DOWN(ks);
		snap.kernel_end = PFN_UP(ke);
	}
}

static bool is_page_table(unsigned long pfn)
{
	unsigned long lo = 0, hi = snap.nr_pt;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (snap.pt[mid] == pfn)
			return true;
		if (snap.pt[mid] < pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static bool is_mem_map_frame(unsigned long pfn)
{
	for (unsigned long i = 0; i < snap.nr_mm; i++)
		if (pfn >= snap.mm[i].start && pfn < snap.mm[i].end)
			return true;
	if (snap.mm_overflow)
		for (unsigned long off = 0; off < mem_map_bytes(); off += PAGE_SIZE)
			if (mem_map_frame(off) == pfn)
				return true;
	return false;
}

/*
 * Is pfn a whole page of memblock memory?  If not, *hole is how many
 * pages from pfn on are not (up to the next memory region).
 */
static bool pfn_is_ram(unsigned long pfn, unsigned long *hole)
{
	phys_addr_t pa = (phys_addr_t)pfn << PAGE_SHIFT;
	unsigned long next = ~0UL;

	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = PFN_UP(r->base);

		if (pa >= r->base && pa + PAGE_SIZE <= r->base + r->size)
			return true;
		if (s > pfn && s < next)
			next = s;
	}
	*hole = next - pfn;
	return false;
}

/* ---- the classifier ---- */

static char page_state_locked(unsigned long pfn, unsigned long *nr)
{
	unsigned long left = max_pfn - pfn, n = 1, flags, order;
	const struct page *page;
	char code;

	lockdep_assert_held(&snapshot_mutex);
	BUG_ON(pfn >= max_pfn);
	if (!pfn_is_ram(pfn, &n)) {
		*nr = min(n, left);
		return 'x';
	}
	page = pfn_to_page(pfn);
	flags = READ_ONCE(page->flags);
	order = READ_ONCE(page->private);
	if (is_page_table(pfn))
		code = 'T';
	else if (pfn >= snap.kernel_start && pfn < snap.kernel_end)
		code = 'K';
	else if (is_mem_map_frame(pfn))
		code = 'M';
	else if (flags & (1UL << PG_reserved))
		code = 'R';
	else if ((flags & (1UL << PG_buddy)) && order < MAX_ORDER) {
		code = (char)('a' + order);
		n = 1UL << order;
	} else if (flags & (1UL << PG_pcp))
		code = 'P';
	else if (flags & (1UL << PG_slab))
		code = 'S';
	else {
		code = pfn >= max_low_pfn ? 'H' : 'U';
		if ((flags & (1UL << PG_head)) && order < MAX_ORDER)
			n = 1UL << order;
	}
	*nr = min(n, left);
	return code;
}

char mmsnap_page_state(unsigned long pfn, unsigned long *nr)
{
	char code;

	mutex_lock(&snapshot_mutex);
	prepare_locked();
	code = page_state_locked(pfn, nr);
	mutex_unlock(&snapshot_mutex);
	return code;
}

unsigned long mmsnap_nr_page_tables(void)
{
	unsigned long n;

	mutex_lock(&snapshot_mutex);
	prepare_locked();
	n = snap.nr_pt;
	mutex_unlock(&snapshot_mutex);
	return n;
}

/* ---- the snapshot ---- */

static char line_buf[256];
static char label_buf[160];
static struct mmsnap_rle rle;

static __printf(2, 3) void emit(struct mmsnap_sink *sink, const char *fmt,
				...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line_buf, sizeof(line_buf), fmt, ap);
	va_end(ap);
	sink->line(sink, line_buf);
}

static const char *e820_token(u32 type, char *buf, size_t size)
{
	switch (type) {
	case E820_TYPE_RAM:
		return "usable";
	case E820_TYPE_RESERVED:
		return "reserved";
	case E820_TYPE_ACPI:
		return "ACPI";
	case E820_TYPE_NVS:
		return "NVS";
	case E820_TYPE_UNUSABLE:
		return "unusable";
	}
	snprintf(buf, size, "type-%u", type);
	return buf;
}

static void physmap_locked(struct mmsnap_sink *sink)
{
	char type[16];
	struct zone *z;
	int nid;

	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *e = &e820_table->entries[i];

		emit(sink, "e820 %#llx %#llx %s", (unsigned long long)e->addr,
		     (unsigned long long)(e->addr + e->size),
		     e820_token(e->type, type, sizeof(type)));
	}
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		emit(sink, "memblock memory %#llx %#llx %d",
		     (unsigned long long)r->base,
		     (unsigned long long)(r->base + r->size), r->nid);
	}
	for (unsigned long i = 0; i < memblock.reserved.cnt; i++) {
		const struct memblock_region *r = &memblock.reserved.regions[i];

		emit(sink, "memblock reserved %#llx %#llx",
		     (unsigned long long)r->base,
		     (unsigned long long)(r->base + r->size));
	}
	for_each_online_node(nid) {
		const pg_data_t *pgdat = NODE_DATA(nid);

		emit(sink, "node %d %lu %lu present=%lu", nid,
		     pgdat->node_start_pfn,
		     pgdat->node_start_pfn + pgdat->node_spanned_pages,
		     pgdat->node_present_pages);
	}
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			if (populated_zone(z))
				emit(sink, "zone %d %s %lu %lu present=%lu managed=%lu",
				     nid, z->name, z->zone_start_pfn,
				     zone_end_pfn(z), z->present_pages,
				     z->managed_pages);
	emit(sink, "kernel %#llx %#llx",
	     (unsigned long long)snap.kernel_start << PAGE_SHIFT,
	     (unsigned long long)snap.kernel_end << PAGE_SHIFT);
	for (unsigned long i = 0; i < snap.nr_mm; i++)
		emit(sink, "mem_map %#llx %#llx",
		     (unsigned long long)snap.mm[i].start << PAGE_SHIFT,
		     (unsigned long long)snap.mm[i].end << PAGE_SHIFT);
}

static void zone_state(struct mmsnap_sink *sink, int nid, struct zone *z)
{
	unsigned long nr_free[MAX_ORDER], free, flags;

	spin_lock_irqsave(&z->lock, flags);
	for (int k = 0; k < MAX_ORDER; k++)
		nr_free[k] = z->free_area[k].nr_free;
	free = z->free_pages;
	spin_unlock_irqrestore(&z->lock, flags);

	emit(sink, "free %d %s %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu",
	     nid, z->name, nr_free[0], nr_free[1], nr_free[2], nr_free[3],
	     nr_free[4], nr_free[5], nr_free[6], nr_free[7], nr_free[8],
	     nr_free[9], nr_free[10]);
	emit(sink, "watermarks %d %s free=%lu min=%lu low=%lu high=%lu", nid,
	     z->name, free, z->pages_min, z->pages_low, z->pages_high);
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		const struct per_cpu_pages *pcp = z->pageset[cpu].pcp;

		if (!cpu_online(cpu))
			continue;
		/*
		 * Another CPU's lists, read without its consent: a picture,
		 * not a count to act on, while that CPU's frees, trims and
		 * decay timer write them with plain stores (data_race).
		 */
		emit(sink, "pcp %d %s %d hot=%d cold=%d high=%d batch=%d", nid,
		     z->name, cpu, data_race(READ_ONCE(pcp[0].count)),
		     data_race(READ_ONCE(pcp[1].count)),
		     data_race(READ_ONCE(pcp[0].high)),
		     data_race(READ_ONCE(pcp[0].batch)));
	}
}

/* Makes s one token: anything but a printable non-space becomes '_'. */
static void make_token(char *s, size_t size)
{
	for (char *p = s; *p; p++)
		if (*p <= ' ' || *p > '~')
			*p = '_';
	if (!s[0])
		strscpy(s, "_", size);
}

static void slab_state(struct mmsnap_sink *sink)
{
	struct kmem_cache *cachep;
	char name[48];

	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(cachep, &cache_chain, next) {
		struct slab_counts c;

		slab_count(cachep, &c);
		strscpy(name, cachep->name, sizeof(name));
		make_token(name, sizeof(name));
		emit(sink, "slab %s %u %lu %lu %lu %u", name,
		     cachep->buffer_size, c.active_objs, c.num_objs,
		     c.num_slabs, 1U << cachep->gfporder);
	}
	mutex_unlock(&cache_chain_mutex);
}

static void snapshot_locked(struct mmsnap_sink *sink, unsigned long seq,
			    const char *label, bool physmap)
{
	struct zone *z;
	int nid;

	lockdep_assert_held(&snapshot_mutex);
	prepare_locked();
	emit(sink, "begin %lu %s v=1 jiffies=%lu hz=%d max_pfn=%lu cpus=%u",
	     seq, label, jiffies, HZ, max_pfn, num_online_cpus());
	if (physmap)
		physmap_locked(sink);
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid))
			if (populated_zone(z))
				zone_state(sink, nid, z);
	slab_state(sink);

	mmsnap_rle_init(&rle, sink, 0);
	for (unsigned long pfn = 0, n; pfn < max_pfn; pfn += n) {
		char code = page_state_locked(pfn, &n);

		mmsnap_rle_add(&rle, code, n);
	}
	mmsnap_rle_finish(&rle);
	emit(sink, "end %lu runs=%lu pages=%lu", seq, rle.runs, rle.pages);
}

/* The label, as one token. */
static void set_label_locked(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(label_buf, sizeof(label_buf), fmt, ap);
	va_end(ap);
	make_token(label_buf, sizeof(label_buf));
}

/* Asserts the context every entry point needs: a task that may sleep. */
static void snapshot_context_check(void)
{
	BUG_ON(in_interrupt());
	might_sleep();
}

void mm_snapshot_write(struct mmsnap_sink *sink, const char *label,
		       bool physmap)
{
	snapshot_context_check();
	mutex_lock(&snapshot_mutex);
	set_label_locked("%s", label);
	snapshot_locked(sink, snapshots_printed, label_buf, physmap);
	mutex_unlock(&snapshot_mutex);
}

static void print_line(struct mmsnap_sink *sink, const char *text)
{
	pr_info("mmsnap: %s\n", text);
}

static struct mmsnap_sink printk_sink = { .line = print_line };

/* Prints a snapshot labelled label_buf; the first printed has the map. */
static void print_locked(void)
{
	unsigned long seq = snapshots_printed++;

	snapshot_locked(&printk_sink, seq, label_buf, seq == 0);
}

void mm_snapshot_point(enum mmsnap_point point, const char *label)
{
	snapshot_context_check();
	if (!(READ_ONCE(mmsnap_points) & point))
		return;
	mutex_lock(&snapshot_mutex);
	set_label_locked("%s", label);
	print_locked();
	mutex_unlock(&snapshot_mutex);
}

void mm_snapshot_set_case(const char *suite, const char *name)
{
	mutex_lock(&snapshot_mutex);
	case_suite = suite;
	case_name = name;
	mutex_unlock(&snapshot_mutex);
}

void mm_snapshot(const char *label)
{
	snapshot_context_check();
	if (!(READ_ONCE(mmsnap_points) & MMSNAP_CASE))
		return;
	mutex_lock(&snapshot_mutex);
	set_label_locked("case:%s.%s:%s", case_suite ? case_suite : "none",
			 case_name ? case_name : "none", label);
	print_locked();
	mutex_unlock(&snapshot_mutex);
}
