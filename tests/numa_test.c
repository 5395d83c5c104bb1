/*
 * tests/numa_test.c - suite "numa": the NUMA nodes the boot built, which
 * CPU is on which node, how far apart the nodes are, and that allocations
 * come from the node they ask for - or, when it is full, from the nearest
 * other one.
 *
 * The expectations are worked out here from inputs the kernel did not
 * configure itself from:
 *
 *   - QEMU's fw_cfg NUMA item (asm/fw_cfg.h): how many nodes QEMU was
 *     told about, each node's memory size, each APIC id's node.  QEMU lays
 *     node memory out consecutively from physical address 0 in node order
 *     (RAM past its low-memory end continues at 4 GiB), so node i owns
 *     [sum of the sizes before it, + its size);
 *   - the e820 map (e820_table), for the holes: a node's RAM is its range
 *     less what e820 does not call usable (the 640K-1M hole, QEMU's
 *     reserved top of low RAM), counted in whole pages;
 *   - the kernel command line, for numa=off and numa=fake=N, and the
 *     documented policy (mm/numa.c): numa=off, or firmware that describes
 *     at most one node with memory below 4 GiB, is one node; otherwise the
 *     firmware's nodes, numbered in proximity-domain order (QEMU's node id
 *     is the domain); numa=fake=N without firmware NUMA is N nodes of
 *     (to a page) equal RAM with CPU c on node c % N;
 *   - for distances there is no channel from the boot's command line, so
 *     node_distance() is cross-checked against the ACPI SLIT as the acpi
 *     code parsed it (arch_firmware_numa()), mapped to nodes through
 *     fw_cfg's node numbering, and checked for Linux's invariants.
 *
 * The kernel's own node and zone fields are only ever the "got" side of a
 * comparison, except where a case says otherwise (numa=fake's cut points
 * are the kernel's choice: there the node ranges are the kernel's spans,
 * checked for order, overlap and balance first).
 *
 * The suite skips a boot with one node, no -numa and no numa=fake=N.
 */
#include "arch/x86/smp.h"
#include "asm/fw_cfg.h"
#include "asm/pgtable.h"
#include "kernel/arch.h"
#include "kernel/cmdline.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/list.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/e820.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/topology.h"
#include "tests/ktest.h"

#define FOUR_GB (1ULL << 32)
#define PFN_16MB ((16UL << 20) >> PAGE_SHIFT)	/* end of ZONE_DMA */
#define PFN_896MB ((896UL << 20) >> PAGE_SHIFT) /* end of the linear map */
#define PAGES_PER_MAP_PAGE (PAGE_SIZE / sizeof(struct page))

/* ACPI's and Linux's distances: to itself, and the default to another. */
#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20

#define FW_MAX_NODES 16	/* QEMU nodes this suite can model */

enum numa_mode {
	MODE_ONE,	/* one node: no NUMA, numa=off, or one firmware node */
	MODE_FIRMWARE,	/* QEMU's -numa nodes, through the SRAT */
	MODE_FAKE,	/* numa=fake=N */
};

static const char *const mode_names[] = { "one node", "firmware", "numa=fake" };

struct node_expect {
	u64 start, end;			/* bytes, [start, end), below 4 GiB */
	int qemu_node;			/* MODE_FIRMWARE: QEMU's node id (PXM) */
	unsigned long present;		/* whole pages of RAM */
	unsigned long zone_present[MAX_NR_ZONES];
	unsigned long span_start, span_end; /* pfns: first RAM page .. last */
	bool lowmem;			/* has RAM in ZONE_DMA or ZONE_NORMAL */
};

static struct numa_expect {
	enum numa_mode mode;
	int nr_nodes;
	/* The command line. */
	bool cmd_off;
	unsigned int cmd_fake;
	/* fw_cfg. */
	bool fw_cfg;			/* QEMU's device answered */
	unsigned int qemu_nr;		/* -numa nodes, 0 without */
	u64 qemu_mem[FW_MAX_NODES];
	int qemu_to_node[FW_MAX_NODES];	/* kernel node; -1: no RAM below 4 GiB */
	u64 ram_size;			/* -m */
	u64 below_4g;			/* of it, what QEMU put below 4 GiB */
	/* e820. */
	unsigned long max_pfn, max_low_pfn;
	unsigned long ram_pages;	/* whole pages of RAM below 4 GiB */
	/* The SLIT as the acpi code read it, by PXM. */
	struct fw_numa fw;
	bool slit;
	/* Expected results. */
	struct node_expect node[MAX_NUMNODES];
	int dist[MAX_NUMNODES][MAX_NUMNODES];
	int cpu_node[NR_CPUS];
	char why[160];			/* a model that could not be built */
} ex;

/* ---- e820 ------------------------------------------------------------ */

static unsigned long up_pfn(u64 addr)
{
	return (unsigned long)((addr + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

static unsigned long down_pfn(u64 addr)
{
	return (unsigned long)(addr >> PAGE_SHIFT);
}

/* Whole pages of usable e820 RAM in [s, e) (bytes), clipped to 4 GiB. */
static unsigned long e820_ram_pages(u64 s, u64 e)
{
	unsigned long n = 0;

	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *en = &e820_table->entries[i];
		u64 lo = max(en->addr, s);
		u64 hi = min(min(en->addr + en->size, e), FOUR_GB);

		if (en->type != E820_TYPE_RAM || hi <= lo)
			continue;
		if (down_pfn(hi) > up_pfn(lo))
			n += down_pfn(hi) - up_pfn(lo);
	}
	return n;
}

/* The same, in pfns [s, e). */
static unsigned long e820_ram_pfns(unsigned long s, unsigned long e)
{
	return e > s ? e820_ram_pages((u64)s << PAGE_SHIFT,
				      (u64)e << PAGE_SHIFT) : 0;
}

/* Is pfn wholly inside a usable e820 entry below 4 GiB? */
static bool pfn_is_ram(unsigned long pfn)
{
	return e820_ram_pfns(pfn, pfn + 1) == 1;
}

/* [first RAM byte, end of the last RAM byte) of [s, e), in pfns. */
static void e820_ram_span(u64 s, u64 e, unsigned long *start,
			  unsigned long *end)
{
	u64 first = ~0ULL, last = 0;

	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *en = &e820_table->entries[i];
		u64 lo = max(en->addr, s);
		u64 hi = min(min(en->addr + en->size, e), FOUR_GB);

		if (en->type != E820_TYPE_RAM || hi <= lo)
			continue;
		first = min(first, lo);
		last = max(last, hi);
	}
	if (first >= last) {
		*start = *end = 0;
		return;
	}
	*start = down_pfn(first);
	*end = min(up_pfn(last), ex.max_pfn);
}

static u64 e820_ram_above_4g(const struct e820_table *t)
{
	u64 sum = 0;

	for (u32 i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *en = &t->entries[i];
		u64 f = en->addr + en->size;

		if (en->type == E820_TYPE_RAM && f > FOUR_GB)
			sum += f - max(en->addr, FOUR_GB);
	}
	return sum;
}

/* The pfn bounds of zone j: [zone_lo(j), zone_hi(j)). */
static unsigned long zone_lo(int j)
{
	return j == ZONE_DMA ? 0 : j == ZONE_NORMAL ? min(PFN_16MB, ex.max_pfn) :
						     ex.max_low_pfn;
}

static unsigned long zone_hi(int j)
{
	return j == ZONE_DMA ? min(PFN_16MB, ex.max_pfn) :
	       j == ZONE_NORMAL ? max(ex.max_low_pfn, min(PFN_16MB, ex.max_pfn)) :
				  ex.max_pfn;
}

/* ---- the model ------------------------------------------------------- */

static void parse_cmdline(void)
{
	char val[32];
	unsigned int n;

	ex.cmd_off = false;
	ex.cmd_fake = 0;
	/* The last numa= wins here; the boots give one at most. */
	if (cmdline_find_option(boot_command_line, "numa", val, sizeof(val)) <= 0)
		return;
	if (!strcmp(val, "off"))
		ex.cmd_off = true;
	else if (!strncmp(val, "fake=", 5) && !kstrtouint(val + 5, 10, &n) &&
		 n >= 1 && n <= MAX_NUMNODES)
		ex.cmd_fake = n;
}

static void read_fw_cfg(void)
{
	ex.fw_cfg = fw_cfg_present();
	ex.qemu_nr = 0;
	ex.ram_size = 0;
	if (!ex.fw_cfg)
		return;
	fw_cfg_read(FW_CFG_RAM_SIZE, &ex.ram_size, sizeof(ex.ram_size));
	if (fw_cfg_numa(&ex.qemu_nr, ex.qemu_mem, FW_MAX_NODES) == -E2BIG)
		snprintf(ex.why, sizeof(ex.why),
			 "QEMU has %u nodes; this suite models %d", ex.qemu_nr,
			 FW_MAX_NODES);
}

/* Node k's expectations from its physical range [start, end). */
static void expect_node_range(int k, u64 start, u64 end)
{
	struct node_expect *ne = &ex.node[k];

	ne->start = start;
	ne->end = end;
	ne->present = e820_ram_pages(start, end);
	e820_ram_span(start, end, &ne->span_start, &ne->span_end);
	ne->lowmem = false;
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		unsigned long lo = max(down_pfn(start), zone_lo(j));
		unsigned long hi = min(down_pfn(end), zone_hi(j));

		ne->zone_present[j] = e820_ram_pfns(lo, hi);
		if (j != ZONE_HIGHMEM && ne->zone_present[j])
			ne->lowmem = true;
	}
}

/* QEMU's nodes: consecutive from 0, continuing at 4 GiB past below_4g. */
static void model_firmware_nodes(void)
{
	u64 off = 0;
	int k = 0;

	for (unsigned int q = 0; q < ex.qemu_nr && q < FW_MAX_NODES; q++) {
		u64 lo = off, hi = off + ex.qemu_mem[q];

		off = hi;
		ex.qemu_to_node[q] = -1;
		hi = min(hi, ex.below_4g);
		if (lo >= hi || k == MAX_NUMNODES)
			continue;
		ex.qemu_to_node[q] = k;
		ex.node[k].qemu_node = (int)q;
		expect_node_range(k++, lo, hi);
	}
	ex.nr_nodes = k;
}

/* A CPU in a QEMU node without low memory: the nearest node with some. */
static int nearest_node_of_pxm(unsigned int pxm)
{
	int best = 0;

	if (!ex.slit || pxm >= ex.fw.nr_localities)
		return 0;
	for (int n = 1; n < ex.nr_nodes; n++)
		if ((unsigned)ex.node[n].qemu_node < ex.fw.nr_localities &&
		    ex.fw.dist[pxm][ex.node[n].qemu_node] <
			    ex.fw.dist[pxm][ex.node[best].qemu_node])
			best = n;
	return best;
}

static void build_model(void)
{
	memset(&ex, 0, sizeof(ex));
	parse_cmdline();
	read_fw_cfg();

	/* e820: the RAM below 4 GiB and the end of low memory. */
	for (u32 i = 0; i < e820_table->nr_entries; i++) {
		const struct e820_entry *en = &e820_table->entries[i];

		if (en->type == E820_TYPE_RAM && en->size && en->addr < FOUR_GB)
			ex.max_pfn = max(ex.max_pfn,
					 down_pfn(min(en->addr + en->size, FOUR_GB)));
	}
	ex.max_low_pfn = min(ex.max_pfn, PFN_896MB);
	ex.ram_pages = e820_ram_pages(0, FOUR_GB);
	/* What QEMU put above 4 GiB is in the firmware's e820. */
	ex.below_4g = ex.ram_size - e820_ram_above_4g(e820_table_firmware);

	ex.slit = arch_firmware_numa(&ex.fw) && ex.fw.nr_localities;

	if (ex.qemu_nr && !ex.cmd_off) {
		model_firmware_nodes();
		if (ex.nr_nodes > 1)
			ex.mode = MODE_FIRMWARE;
	} else if (!ex.qemu_nr && !ex.cmd_off && ex.cmd_fake > 1 &&
		   !arch_firmware_numa(&ex.fw)) {
		ex.mode = MODE_FAKE;
		ex.nr_nodes = (int)ex.cmd_fake;
	}
	if (ex.mode == MODE_ONE) {
		ex.nr_nodes = 1;
		expect_node_range(0, 0, FOUR_GB);
	}

	for (int a = 0; a < ex.nr_nodes; a++)
		for (int b = 0; b < ex.nr_nodes; b++) {
			int d = a == b ? LOCAL_DISTANCE : REMOTE_DISTANCE;

			if (ex.mode == MODE_FIRMWARE && ex.slit &&
			    (unsigned)ex.node[a].qemu_node < ex.fw.nr_localities &&
			    (unsigned)ex.node[b].qemu_node < ex.fw.nr_localities)
				d = ex.fw.dist[ex.node[a].qemu_node][ex.node[b].qemu_node];
			ex.dist[a][b] = d;
		}

	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		if (ex.mode == MODE_FAKE) {
			ex.cpu_node[cpu] = cpu % ex.nr_nodes;
		} else if (ex.mode == MODE_FIRMWARE) {
			int q = fw_cfg_numa_node_of_apic(cpu_apic_id[cpu]);

			if (q < 0 || q >= FW_MAX_NODES)
				ex.cpu_node[cpu] = -1; /* reported by cpu_nodes */
			else if (ex.qemu_to_node[q] >= 0)
				ex.cpu_node[cpu] = ex.qemu_to_node[q];
			else
				ex.cpu_node[cpu] = nearest_node_of_pxm((unsigned)q);
		} else {
			ex.cpu_node[cpu] = 0;
		}
	}
}

/*
 * numa=fake: the cut points are the kernel's; take the nodes' ranges from
 * its spans (node_spans checks that they are ordered, disjoint and cover
 * RAM, node_present_pages that they are balanced).
 */
static void model_fake_nodes_from_spans(void)
{
	for (int k = 0; k < ex.nr_nodes && k < nr_online_nodes; k++) {
		const pg_data_t *pgdat = NODE_DATA(k);

		expect_node_range(k, (u64)pgdat->node_start_pfn << PAGE_SHIFT,
				  (u64)(pgdat->node_start_pfn +
					pgdat->node_spanned_pages) << PAGE_SHIFT);
	}
}

static const char *numa_skip_if(void)
{
	char val[32];
	bool fake = cmdline_find_option(boot_command_line, "numa", val,
					sizeof(val)) > 0 &&
		    !strncmp(val, "fake=", 5);
	unsigned int qemu_nr = 0;
	u64 mem[1];

	fw_cfg_numa(&qemu_nr, mem, 1);
	if (nr_online_nodes == 1 && !qemu_nr && !fake)
		return "one node and no -numa or numa=fake=N";
	if (!fw_cfg_present() && nr_online_nodes > 1 && !fake)
		return "NUMA without QEMU's fw_cfg: no oracle for the nodes";
	return NULL;
}

static int numa_init_case(struct ktest *t)
{
	build_model();
	if (ex.why[0]) {
		KTEST_FAIL(t, "%s", ex.why);
		return -1;
	}
	if (ex.mode == MODE_FAKE && nr_online_nodes == ex.nr_nodes)
		model_fake_nodes_from_spans();
	return 0;
}

/* Every case but node_count needs the node count right. */
static void need_nodes(struct ktest *t)
{
	if (nr_online_nodes != ex.nr_nodes) {
		KTEST_FAIL(t, "%d nodes online, expected %d (%s): see node_count",
			   nr_online_nodes, ex.nr_nodes, mode_names[ex.mode]);
		ktest_abort(t);
	}
}

static void need_two_nodes(struct ktest *t)
{
	need_nodes(t);
	if (nr_online_nodes < 2)
		ktest_skip(t, ex.cmd_off ? "one node (numa=off)" : "one node");
}

/* Populated, by e820 (node_present_pages checks the kernel agrees). */
static bool node_has_zone(int nid, int j)
{
	return ex.node[nid].zone_present[j] != 0;
}

/* The expected node of pfn, -1 when it is in none (MODE_FAKE: by span). */
static int expected_nid(unsigned long pfn)
{
	for (int k = 0; k < ex.nr_nodes; k++)
		if (pfn >= down_pfn(ex.node[k].start) && pfn < up_pfn(ex.node[k].end))
			return k;
	return -1;
}

/*
 * The zonelist for node nid and zone modifier mod, from the expected
 * distances: nodes nearest first (ties by node id), and in each node its
 * populated zones from gfp_zone(mod) down to ZONE_DMA.
 */
static int expected_zonelist(int nid, unsigned int mod, struct zone **zl)
{
	int order[MAX_NUMNODES], n = 0;
	bool used[MAX_NUMNODES] = { false };

	for (int i = 0; i < ex.nr_nodes; i++) {
		int best = -1;

		for (int b = 0; b < ex.nr_nodes; b++)
			if (!used[b] && (best < 0 || ex.dist[nid][b] < ex.dist[nid][best]))
				best = b;
		used[best] = true;
		order[i] = best;
	}
	for (int i = 0; i < ex.nr_nodes; i++)
		for (int j = (int)gfp_zone(mod); j >= 0; j--)
			if (node_has_zone(order[i], j))
				zl[n++] = &NODE_DATA(order[i])->node_zones[j];
	zl[n] = NULL;
	return n;
}

static const char *zname(const struct zone *z, char *buf, size_t len)
{
	if (!z)
		return "end";
	snprintf(buf, len, "%d/%s", z->zone_pgdat->node_id, z->name);
	return buf;
}

/* ---- layout ---------------------------------------------------------- */

static void node_count(struct ktest *t)
{
	int with_mem = 0;

	ktest_printf(t, "mode %s: %d node%s expected; QEMU: %u -numa node%s, -m %lluM (%lluM below 4 GiB)%s",
		     mode_names[ex.mode], ex.nr_nodes, ex.nr_nodes > 1 ? "s" : "",
		     ex.qemu_nr, ex.qemu_nr == 1 ? "" : "s",
		     (unsigned long long)(ex.ram_size >> 20),
		     (unsigned long long)(ex.below_4g >> 20),
		     ex.cmd_off ? "; numa=off" : "");
	for (unsigned int q = 0; q < ex.qemu_nr && q < FW_MAX_NODES; q++) {
		if (ex.mode != MODE_FIRMWARE) {
			ktest_printf(t, "QEMU node %u: %lluM", q,
				     (unsigned long long)(ex.qemu_mem[q] >> 20));
			continue;
		}
		if (ex.qemu_to_node[q] >= 0)
			ktest_printf(t, "QEMU node %u: %lluM -> node %d", q,
				     (unsigned long long)(ex.qemu_mem[q] >> 20),
				     ex.qemu_to_node[q]);
		else
			ktest_printf(t, "QEMU node %u: %lluM, none below 4 GiB: no node",
				     q, (unsigned long long)(ex.qemu_mem[q] >> 20));
		if (ex.qemu_to_node[q] >= 0)
			with_mem++;
	}
	KTEST_EXPECT_EQ(t, nr_online_nodes, ex.nr_nodes);
	KTEST_ASSERT_GE(t, nr_online_nodes, 1);
	KTEST_ASSERT_LE(t, nr_online_nodes, MAX_NUMNODES);
	if (ex.mode == MODE_FIRMWARE)
		KTEST_EXPECT_EQ(t, nr_online_nodes, with_mem);
	if (ex.mode == MODE_FAKE)
		KTEST_EXPECT_EQ(t, nr_online_nodes, (int)ex.cmd_fake);
	for (int n = 0; n < nr_online_nodes; n++) {
		KTEST_ASSERT_NOT_NULL(t, NODE_DATA(n));
		KTEST_EXPECT_EQ(t, NODE_DATA(n)->node_id, n);
		for (int j = 0; j < MAX_NR_ZONES; j++)
			KTEST_EXPECT_PTR_EQ(t, NODE_DATA(n)->node_zones[j].zone_pgdat,
					    NODE_DATA(n));
	}
}

/* Spans: ordered, disjoint, and (but for numa=fake) where QEMU put them. */
static void node_spans(struct ktest *t)
{
	unsigned long prev_end = 0, covered = 0;

	need_nodes(t);
	for (int n = 0; n < nr_online_nodes; n++) {
		const pg_data_t *pgdat = NODE_DATA(n);
		unsigned long s = pgdat->node_start_pfn;
		unsigned long e = s + pgdat->node_spanned_pages;
		unsigned long zs = s;

		ktest_printf(t, "node %d: pfns [%#lx, %#lx)", n, s, e);
		if (n > 0 && s < prev_end)
			KTEST_FAIL(t, "node %d starts at pfn %#lx, inside node %d (which ends at %#lx)",
				   n, s, n - 1, prev_end);
		KTEST_EXPECT_LE(t, e, ex.max_pfn);
		if (ex.mode != MODE_FAKE &&
		    (s != ex.node[n].span_start || e != ex.node[n].span_end))
			KTEST_FAIL(t, "node %d spans [%#lx, %#lx); its RAM from QEMU and e820 spans [%#lx, %#lx)",
				   n, s, e, ex.node[n].span_start,
				   ex.node[n].span_end);
		/* Its zones tile the span in order. */
		for (int j = 0; j < MAX_NR_ZONES; j++) {
			const struct zone *z = &pgdat->node_zones[j];

			if (z->zone_start_pfn != zs ||
			    zone_end_pfn(z) > e || zone_end_pfn(z) < zs)
				KTEST_FAIL(t, "node %d zone %s spans [%#lx, %#lx), expected to start at %#lx inside [%#lx, %#lx)",
					   n, z->name, z->zone_start_pfn,
					   zone_end_pfn(z), zs, s, e);
			if (z->spanned_pages &&
			    (z->zone_start_pfn < zone_lo(j) ||
			     zone_end_pfn(z) > zone_hi(j)))
				KTEST_FAIL(t, "node %d zone %s spans [%#lx, %#lx), outside the zone's limits [%#lx, %#lx)",
					   n, z->name, z->zone_start_pfn,
					   zone_end_pfn(z), zone_lo(j), zone_hi(j));
			zs = zone_end_pfn(z);
		}
		KTEST_EXPECT_EQ(t, zs, e);
		covered += e820_ram_pfns(s, e);
		prev_end = e;
	}
	/* Every page of RAM is in some node's span (and, disjoint, in one). */
	KTEST_EXPECT_EQ(t, covered, ex.ram_pages);
}

static void node_present_pages(struct ktest *t)
{
	unsigned long total = 0, lo = ~0UL, hi = 0;

	need_nodes(t);
	for (int n = 0; n < nr_online_nodes; n++) {
		const pg_data_t *pgdat = NODE_DATA(n);
		unsigned long zsum = 0;

		for (int j = 0; j < MAX_NR_ZONES; j++) {
			const struct zone *z = &pgdat->node_zones[j];

			if (z->present_pages != ex.node[n].zone_present[j])
				KTEST_FAIL(t, "node %d zone %s: %lu pages present, e820 says %lu",
					   n, z->name, z->present_pages,
					   ex.node[n].zone_present[j]);
			zsum += z->present_pages;
		}
		KTEST_EXPECT_EQ(t, pgdat->node_present_pages, zsum);
		if (pgdat->node_present_pages != ex.node[n].present)
			KTEST_FAIL(t, "node %d: %lu pages present, expected %lu (%s)",
				   n, pgdat->node_present_pages,
				   ex.node[n].present,
				   ex.mode == MODE_FIRMWARE ? "QEMU's size less e820's holes" :
				   ex.mode == MODE_FAKE ? "RAM in its span" :
							  "all RAM below 4 GiB");
		ktest_printf(t, "node %d: %lu pages (DMA %lu Normal %lu HighMem %lu)",
			     n, pgdat->node_present_pages,
			     pgdat->node_zones[ZONE_DMA].present_pages,
			     pgdat->node_zones[ZONE_NORMAL].present_pages,
			     pgdat->node_zones[ZONE_HIGHMEM].present_pages);
		total += pgdat->node_present_pages;
		lo = min(lo, pgdat->node_present_pages);
		hi = max(hi, pgdat->node_present_pages);
	}
	/* No page of RAM below 4 GiB lost or counted twice. */
	KTEST_EXPECT_EQ(t, total, ex.ram_pages);
	if (ex.mode == MODE_FAKE) {
		/* N nodes of (to a page) equal RAM: at most N - 1 apart. */
		ktest_printf(t, "numa=fake=%d: smallest node %lu pages, largest %lu",
			     ex.nr_nodes, lo, hi);
		KTEST_EXPECT_LE(t, hi - lo, (unsigned long)(ex.nr_nodes - 1));
	}
}

/* Every page frame's node and zone links. */
static void page_node_links(struct ktest *t)
{
	unsigned long bad = 0, ram[MAX_NUMNODES] = { 0 };
	int prev = 0;

	need_nodes(t);
	for (unsigned long pfn = 0; pfn < ex.max_pfn; pfn++) {
		const struct page *page = pfn_to_page(pfn);
		int nid = page_to_nid(page), want;
		int zj = pfn < zone_hi(ZONE_DMA) ? ZONE_DMA :
			 pfn < zone_hi(ZONE_NORMAL) ? ZONE_NORMAL : ZONE_HIGHMEM;

		if (!pfn_is_ram(pfn))
			continue;
		want = expected_nid(pfn);
		if (nid >= 0 && nid < MAX_NUMNODES)
			ram[nid]++;
		if (nid == want && nid >= prev && (int)page_zonenum(page) == zj &&
		    zone_spans_pfn(page_zone(page), pfn))
			goto next;
		if (bad++ < 3)
			KTEST_FAIL(t, "RAM pfn %#lx: node %d zone %s, expected node %d zone %s (nodes in increasing pfn order)",
				   pfn, nid, zone_names[page_zonenum(page)], want,
				   zone_names[zj]);
next:
		prev = max(prev, nid);
	}
	KTEST_EXPECT_EQ(t, bad, 0UL);
	/* The pages that say they are on a node are the node's RAM. */
	for (int n = 0; n < nr_online_nodes; n++)
		if (ram[n] != NODE_DATA(n)->node_present_pages)
			KTEST_FAIL(t, "node %d: %lu RAM pages link to it, it has %lu present",
				   n, ram[n], NODE_DATA(n)->node_present_pages);
}

static void cpu_nodes(struct ktest *t)
{
	need_nodes(t);
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		int got = cpu_to_node(cpu);

		if (ex.mode == MODE_FIRMWARE) {
			int q = fw_cfg_numa_node_of_apic(cpu_apic_id[cpu]);

			if (q < 0)
				KTEST_FAIL(t, "cpu %d (APIC id %u): fw_cfg knows no node (error %d)",
					   cpu, cpu_apic_id[cpu], q);
			ktest_printf(t, "cpu %d: APIC id %u, QEMU node %d, node %d",
				     cpu, cpu_apic_id[cpu], q, got);
		}
		if (got != ex.cpu_node[cpu])
			KTEST_FAIL(t, "cpu_to_node(%d) = %d, expected %d (%s)", cpu,
				   got, ex.cpu_node[cpu],
				   ex.mode == MODE_FAKE ? "cpu % N" :
				   ex.mode == MODE_FIRMWARE ? "QEMU's node of its APIC id" :
							      "one node");
		KTEST_EXPECT_GE(t, got, 0);
		KTEST_EXPECT_LT(t, got, nr_online_nodes);
	}
}

static void distances(struct ktest *t)
{
	bool slit_symmetric = true;

	need_nodes(t);
	if (ex.mode == MODE_FIRMWARE && !ex.slit)
		ktest_printf(t, "no SLIT: the default distances");
	for (int a = 0; a < nr_online_nodes; a++) {
		char line[8 * MAX_NUMNODES + 1];
		size_t len = 0;

		for (int b = 0; b < nr_online_nodes; b++)
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						" %3d", node_distance(a, b));
		ktest_printf(t, "node %d:%s", a, line);
	}
	for (int a = 0; a < nr_online_nodes; a++)
		for (int b = 0; b < nr_online_nodes; b++) {
			int d = node_distance(a, b);

			if (ex.dist[a][b] != ex.dist[b][a])
				slit_symmetric = false;
			if (d != ex.dist[a][b])
				KTEST_FAIL(t, "node_distance(%d, %d) = %d, expected %d (%s)",
					   a, b, d, ex.dist[a][b],
					   ex.mode == MODE_FIRMWARE && ex.slit ?
						   "the SLIT" : "the default");
			if (a == b)
				KTEST_EXPECT_EQ(t, d, LOCAL_DISTANCE);
			else
				KTEST_EXPECT_GT(t, d, LOCAL_DISTANCE);
		}
	if (slit_symmetric)
		for (int a = 0; a < nr_online_nodes; a++)
			for (int b = a + 1; b < nr_online_nodes; b++)
				if (node_distance(a, b) != node_distance(b, a))
					KTEST_FAIL(t, "node_distance(%d, %d) = %d but node_distance(%d, %d) = %d",
						   a, b, node_distance(a, b), b,
						   a, node_distance(b, a));
}

static void zonelists_by_distance(struct ktest *t)
{
	struct zone *want[MAX_NUMNODES * MAX_NR_ZONES + 1];
	char b1[24], b2[24];

	need_nodes(t);
	for (int nid = 0; nid < nr_online_nodes; nid++)
		for (unsigned int mod = 0; mod < GFP_ZONETYPES; mod++) {
			const struct zonelist *zl = &NODE_DATA(nid)->node_zonelists[mod];
			int n = expected_zonelist(nid, mod, want);

			KTEST_EXPECT_PTR_EQ(t, node_zonelist(nid, mod), zl);
			for (int i = 0; i <= n; i++) {
				if (zl->zones[i] == want[i])
					continue;
				KTEST_FAIL(t, "node %d zonelist %u: entry %d is %s, expected %s",
					   nid, mod, i, zname(zl->zones[i], b1, sizeof(b1)),
					   zname(want[i], b2, sizeof(b2)));
				break;
			}
		}
	for (int nid = 0; nid < nr_online_nodes; nid++) {
		char line[16 * MAX_NUMNODES * MAX_NR_ZONES];
		size_t len = 0;
		const struct zonelist *zl = &NODE_DATA(nid)->node_zonelists[0];

		for (int i = 0; zl->zones[i] && len < sizeof(line); i++)
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						" %s", zname(zl->zones[i], b1, sizeof(b1)));
		ktest_printf(t, "node %d GFP_KERNEL:%s", nid, line);
	}
}

/* mem_map's pages for a node's frames come from that node's memory. */
static void mem_map_on_node(struct ktest *t)
{
	unsigned long checked = 0, bad = 0;

	need_nodes(t);
	for (int n = 0; n < nr_online_nodes; n++) {
		const struct node_expect *ne = &ex.node[n];
		const pg_data_t *pgdat = NODE_DATA(n);
		unsigned long first = pgdat->node_start_pfn;
		phys_addr_t pa;

		while (first < pgdat->node_start_pfn + pgdat->node_spanned_pages &&
		       !pfn_is_ram(first))
			first++;
		pa = kernel_page_phys((unsigned long)pfn_to_page(first));
		ktest_printf(t, "node %d: struct page of pfn %#lx at phys %#llx%s",
			     n, first, (unsigned long long)pa,
			     ne->lowmem ? "" : " (node without low memory)");
		KTEST_ASSERT_NE(t, pa, (phys_addr_t)~0ULL);

		/*
		 * Each page of mem_map describes PAGES_PER_MAP_PAGE frames and
		 * belongs to the node of the first; it must be in that node's
		 * memory when the node has low memory, else in low memory.
		 */
		for (unsigned long pfn = ALIGN(pgdat->node_start_pfn, PAGES_PER_MAP_PAGE);
		     pfn < pgdat->node_start_pfn + pgdat->node_spanned_pages;
		     pfn += PAGES_PER_MAP_PAGE) {
			u64 lo = ne->lowmem ? ne->start : 0;
			u64 hi = ne->lowmem ? min(ne->end, (u64)ex.max_low_pfn << PAGE_SHIFT) :
					      (u64)ex.max_low_pfn << PAGE_SHIFT;

			if (!pfn_is_ram(pfn) || expected_nid(pfn) != n)
				continue;
			pa = kernel_page_phys((unsigned long)pfn_to_page(pfn));
			checked++;
			if (pa != (phys_addr_t)~0ULL && pa >= lo && pa + PAGE_SIZE <= hi)
				continue;
			if (bad++ < 3)
				KTEST_FAIL(t, "node %d: the struct pages of pfns %#lx.. are at phys %#llx, outside [%#llx, %#llx)",
					   n, pfn, (unsigned long long)pa,
					   (unsigned long long)lo,
					   (unsigned long long)hi);
		}
	}
	ktest_printf(t, "%lu pages of mem_map checked", checked);
	KTEST_EXPECT_EQ(t, bad, 0UL);
}

/* ---- allocation ------------------------------------------------------ */

/* Checks a fresh block against the zone it was expected from. */
static void check_block(struct ktest *t, const char *what, struct page *p,
			unsigned int order, const struct zone *want)
{
	unsigned long pfn = page_to_pfn(p);
	int nid = page_to_nid(p);
	const pg_data_t *pgdat;
	char b1[24], b2[24];

	if (page_zone(p) != want) {
		KTEST_FAIL(t, "%s: order-%u block at pfn %#lx from %s, expected %s",
			   what, order, pfn, zname(page_zone(p), b1, sizeof(b1)),
			   zname(want, b2, sizeof(b2)));
		return;
	}
	pgdat = NODE_DATA(nid);
	if (pfn < pgdat->node_start_pfn ||
	    pfn + (1UL << order) > pgdat->node_start_pfn + pgdat->node_spanned_pages ||
	    expected_nid(pfn) != nid || expected_nid(pfn + (1UL << order) - 1) != nid)
		KTEST_FAIL(t, "%s: order-%u block at pfn %#lx is outside node %d's memory",
			   what, order, pfn, nid);
	for (unsigned long i = 1; i < (1UL << order); i++)
		if (page_to_nid(p + i) != nid) {
			KTEST_FAIL(t, "%s: page %lu of the block at pfn %#lx is on node %d, its head on %d",
				   what, i, pfn, page_to_nid(p + i), nid);
			break;
		}
}

/*
 * alloc_pages_node(n, ...) with free memory everywhere comes from the
 * first zone of n's zonelist: node n's own when it has such a zone.
 */
static void alloc_pages_node_local(struct ktest *t)
{
	/* ZONE_DMA is 16 MiB and fragmented: its largest blocks are few. */
	static const unsigned int orders[] = { 0, 1, 4, MAX_ORDER - 1 };
	static const gfp_t modes[] = { GFP_KERNEL, GFP_HIGHUSER, GFP_KERNEL | GFP_DMA };
	struct zone *want[MAX_NUMNODES * MAX_NR_ZONES + 1];

	need_nodes(t);
	for (int n = 0; n < nr_online_nodes; n++)
		for (size_t m = 0; m < ARRAY_SIZE(modes); m++)
			for (size_t o = 0; o < ARRAY_SIZE(orders); o++) {
				gfp_t gfp = modes[m];
				struct page *p;
				char what[48];
				bool own = false;

				if (!expected_zonelist(n, gfp & GFP_ZONEMASK, want) ||
				    (gfp_zone(gfp) == ZONE_DMA && orders[o] > 4))
					continue;
				for (int j = (int)gfp_zone(gfp); j >= 0; j--)
					own |= node_has_zone(n, j);
				snprintf(what, sizeof(what), "node %d mode %#x", n, gfp);
				p = alloc_pages_node(n, gfp | __GFP_NOWARN, orders[o]);
				if (!p) {
					KTEST_FAIL(t, "%s: no order-%u block", what,
						   orders[o]);
					continue;
				}
				check_block(t, what, p, orders[o], want[0]);
				if (own)
					KTEST_EXPECT_EQ(t, page_to_nid(p), n);
				__free_pages(p, orders[o]);
			}
}

struct on_cpu_alloc {
	int node;
	struct page *p[2];
};

static const unsigned int cpu_orders[2] = { 0, 3 };

static void alloc_on_this_cpu(void *info)
{
	struct on_cpu_alloc *a = info;

	a->node = numa_node_id();
	for (int i = 0; i < 2; i++)
		a->p[i] = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, cpu_orders[i]);
}

/*
 * alloc_pages() on each CPU comes from that CPU's node: GFP_KERNEL here,
 * GFP_ATOMIC on every online CPU in turn (run there by a cross-call).
 */
static void alloc_pages_on_each_cpu(struct ktest *t)
{
	struct zone *want[MAX_NUMNODES * MAX_NR_ZONES + 1];
	int cpu = raw_smp_processor_id(), node;
	struct page *p;

	need_nodes(t);
	node = numa_node_id();
	KTEST_EXPECT_EQ(t, node, ex.cpu_node[cpu]);
	expected_zonelist(node, GFP_KERNEL & GFP_ZONEMASK, want);
	p = alloc_pages(GFP_KERNEL, 0);
	KTEST_ASSERT_NOT_NULL(t, p);
	check_block(t, "this cpu, GFP_KERNEL", p, 0, want[0]);
	if (ex.node[node].lowmem)
		KTEST_EXPECT_EQ(t, page_to_nid(p), node);
	__free_pages(p, 0);

	for_each_online_cpu(cpu) {
		struct on_cpu_alloc a = { -1, { NULL, NULL } };
		char what[32];
		int node = ex.cpu_node[cpu];

		KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, alloc_on_this_cpu, &a, true), 0);
		KTEST_EXPECT_EQ(t, a.node, cpu_to_node(cpu));
		if (node < 0 || node >= nr_online_nodes) {
			KTEST_FAIL(t, "cpu %d: no expected node", cpu);
			node = a.node;
		}
		KTEST_EXPECT_EQ(t, a.node, node);
		expected_zonelist(node, GFP_ATOMIC & GFP_ZONEMASK, want);
		snprintf(what, sizeof(what), "cpu %d (node %d)", cpu, node);
		for (int i = 0; i < 2; i++) {
			if (!a.p[i]) {
				KTEST_FAIL(t, "%s: no order-%u block", what, cpu_orders[i]);
				continue;
			}
			check_block(t, what, a.p[i], cpu_orders[i], want[0]);
			if (ex.node[node].lowmem)
				KTEST_EXPECT_EQ(t, page_to_nid(a.p[i]), node);
			__free_pages(a.p[i], cpu_orders[i]);
		}
	}
}

/*
 * Fallback by distance.  Node n's low zones are taken down to their
 * watermarks (big blocks first, per-CPU lists drained and bypassed so
 * that no free page hides there); the next GFP_KERNEL allocation for n
 * then comes from the nearest other node with low memory, which is also
 * the first other node in n's zonelist.
 */
static LIST_HEAD(held);	/* allocated blocks, head->private = order */
static bool bypass_saved, bypass_taken;

static void hold(struct page *p)
{
	list_add(&p->lru, &held);
}

static void release_held(void)
{
	while (!list_empty(&held)) {
		struct page *p = list_first_entry(&held, struct page, lru);

		list_del(&p->lru);
		__free_pages(p, (unsigned int)p->private);
	}
}

static void take_bypass(void)
{
	drain_all_pages();
	bypass_saved = pcp_bypass;
	bypass_taken = true;
	pcp_bypass = true;
}

static void restore_bypass(void)
{
	if (bypass_taken)
		pcp_bypass = bypass_saved;
	bypass_taken = false;
}

static void numa_exit_case(struct ktest *t)
{
	release_held();
	restore_bypass();
}

/* The nearest node other than n that has low memory, by expected distance. */
static int nearest_lowmem_node(int n)
{
	int best = -1;

	for (int b = 0; b < nr_online_nodes; b++)
		if (b != n && ex.node[b].lowmem &&
		    (best < 0 || ex.dist[n][b] < ex.dist[n][best]))
			best = b;
	return best;
}

static void fallback_one_node(struct ktest *t, int n)
{
	struct zone *want[MAX_NUMNODES * MAX_NR_ZONES + 1];
	const struct zonelist *zl = &NODE_DATA(n)->node_zonelists[0];
	int m = nearest_lowmem_node(n), zl_other = -1;
	enum zone_type classzone;
	struct page *next[2] = { NULL, NULL };
	unsigned long taken = 0;
	char b1[24], b2[24];
	int first_other = 0;

	if (m < 0) {
		ktest_printf(t, "node %d: no other node has low memory", n);
		return;
	}
	expected_zonelist(n, 0, want);
	while (want[first_other] && want[first_other]->zone_pgdat->node_id == n)
		first_other++;
	KTEST_ASSERT_NOT_NULL(t, want[first_other]);
	KTEST_EXPECT_EQ(t, want[first_other]->zone_pgdat->node_id, m);
	for (int i = 0; zl->zones[i]; i++)
		if (zl->zones[i]->zone_pgdat->node_id != n) {
			zl_other = zl->zones[i]->zone_pgdat->node_id;
			break;
		}
	KTEST_EXPECT_EQ(t, zl_other, m);
	classzone = zone_idx(want[0]);

	/* Node n's low memory, largest blocks first. */
	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		for (;;) {
			struct page *p = alloc_pages_node(n, GFP_KERNEL | __GFP_NOWARN,
							  (unsigned int)order);

			KTEST_ASSERT_NOT_NULL(t, p);
			if (page_to_nid(p) == n) {
				hold(p);
				taken += 1UL << order;
				continue;
			}
			/* Node n has no more blocks of this order to give. */
			if (order > 0) {
				if (page_to_nid(p) != m)
					KTEST_FAIL(t, "node %d: an order-%d block came from node %d before node %d",
						   n, order, page_to_nid(p), m);
				__free_pages(p, (unsigned int)order);
			} else {
				next[0] = p;
				hold(p);
			}
			break;
		}
	}
	next[1] = alloc_pages_node(n, GFP_KERNEL | __GFP_NOWARN, 0);
	KTEST_ASSERT_NOT_NULL(t, next[1]);
	hold(next[1]);
	ktest_printf(t, "node %d: took %lu pages; then pages from node %d and %d (nearest with low memory: %d, distance %d)",
		     n, taken, page_to_nid(next[0]), page_to_nid(next[1]), m,
		     ex.dist[n][m]);

	/*
	 * The first pass over the zonelist is at the low watermark (2.6's
	 * fast path): node n's low zones are now all at or below theirs for
	 * an order-0 GFP_KERNEL allocation, and nothing was taken from node
	 * n's zones below it.
	 */
	for (int j = ZONE_NORMAL; j >= ZONE_DMA; j--) {
		struct zone *z = &NODE_DATA(n)->node_zones[j];

		if (!populated_zone(z))
			continue;
		if (zone_watermark_ok(z, 0, z->pages_low, classzone, ALLOC_WMARK_LOW))
			KTEST_FAIL(t, "node %d zone %s: still above its low watermark (%lu free, low %lu, reserve %lu)",
				   n, z->name, z->free_pages, z->pages_low,
				   z->lowmem_reserve[classzone]);
		if (z->free_pages < z->pages_low + z->lowmem_reserve[classzone])
			KTEST_FAIL(t, "node %d zone %s: taken below its low watermark (%lu free, low %lu, reserve %lu)",
				   n, z->name, z->free_pages, z->pages_low,
				   z->lowmem_reserve[classzone]);
	}
	for (int i = 0; i < 2; i++)
		if (page_zone(next[i]) != want[first_other])
			KTEST_FAIL(t, "node %d full: page %d from %s, expected %s (node %d at distance %d)",
				   n, i, zname(page_zone(next[i]), b1, sizeof(b1)),
				   zname(want[first_other], b2, sizeof(b2)), m,
				   ex.dist[n][m]);
	release_held();
}

static void fallback_by_distance(struct ktest *t)
{
	need_two_nodes(t);
	take_bypass();
	for (int n = 0; n < nr_online_nodes; n++) {
		if (!ex.node[n].lowmem) {
			/* Nothing to exhaust: GFP_KERNEL goes elsewhere at once. */
			struct zone *want[MAX_NUMNODES * MAX_NR_ZONES + 1];
			struct page *p = alloc_pages_node(n, GFP_KERNEL | __GFP_NOWARN, 0);
			int m = nearest_lowmem_node(n);

			expected_zonelist(n, 0, want);
			KTEST_ASSERT_NOT_NULL(t, p);
			ktest_printf(t, "node %d: no low memory; GFP_KERNEL from node %d (nearest with low memory: %d)",
				     n, page_to_nid(p), m);
			KTEST_EXPECT_EQ(t, page_to_nid(p), m);
			KTEST_EXPECT_PTR_EQ(t, page_zone(p), want[0]);
			__free_pages(p, 0);
			continue;
		}
		fallback_one_node(t, n);
	}
	restore_bypass();
}

static void zones_consistent(struct ktest *t)
{
	char why[160];
	int ret = check_all_zones(why, sizeof(why));

	if (ret)
		ktest_printf(t, "first violation: %s", why);
	KTEST_EXPECT_EQ(t, ret, 0);
}

static const struct ktest_case numa_cases[] = {
	KTEST_CASE(node_count),
	KTEST_CASE(node_spans),
	KTEST_CASE(node_present_pages),
	KTEST_CASE(page_node_links),
	KTEST_CASE(cpu_nodes),
	KTEST_CASE(distances),
	KTEST_CASE(zonelists_by_distance),
	KTEST_CASE(mem_map_on_node),
	KTEST_CASE(alloc_pages_node_local),
	KTEST_CASE(alloc_pages_on_each_cpu),
	KTEST_CASE(fallback_by_distance),
	KTEST_CASE(zones_consistent),
	KTEST_END,
};

static const struct ktest_suite numa_suite = {
	.name = "numa",
	.skip_if = numa_skip_if,
	.init = numa_init_case,
	.exit = numa_exit_case,
	.cases = numa_cases,
};
KTEST_SUITE(numa_suite);
