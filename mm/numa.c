/*
 * mm/numa.c - NUMA nodes: which node each CPU and each range of memory is
 * on, and how far apart the nodes are.
 *
 * The firmware (ACPI SRAT/SLIT, through arch_firmware_numa()) describes
 * memory and CPUs by proximity domain (PXM).  Domains that own memory
 * below 4 GiB become nodes 0, 1, ... in increasing PXM order (numa_layout(),
 * pure, so the ACPI fuzz target checks it); memory below 4 GiB in a domain
 * beyond 255 makes the firmware's layout unusable, as Linux's bad_srat,
 * and leaves one node.  memblock tags each range with its node, and the
 * zones are then built per node.
 * A CPU in a domain without memory goes to the nearest node that has some.
 * Distances come from the SLIT (10 to itself); without one, 10 and 20.
 *
 * numa=off keeps one node whatever the firmware says; numa=fake=N splits
 * memory into N nodes of (nearly) equal RAM when the firmware describes
 * none, with CPUs dealt to them in turn - how to try NUMA code on a
 * machine that has none.  Runs once, at boot, on the boot CPU.
 *
 * Release: no 2.6 rule is claimed here.  SRAT/SLIT nodes and numa=off,
 * numa=fake=N follow newer x86 Linux; not checked against a release.
 */
#include "kernel/arch.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "mm/memblock.h"
#include "mm/mmzone.h"
#include "mm/topology.h"

#define FOUR_GB (1ULL << 32)
#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20

int cpu_node_map[NR_CPUS];
static u8 numa_dist[MAX_NUMNODES][MAX_NUMNODES];
static bool have_dist;
static bool numa_off;
static unsigned int numa_fake;

static int numa_setup(const char *val)
{
	unsigned int n;

	if (val && !strcmp(val, "off")) {
		numa_off = true;
		return 0;
	}
	if (val && !strncmp(val, "fake=", 5) && !kstrtouint(val + 5, 10, &n) &&
	    n >= 1 && n <= MAX_NUMNODES) {
		numa_fake = n;
		return 0;
	}
	return -EINVAL;
}
early_param("numa", numa_setup);

int node_distance(int from, int to)
{
	if (have_dist)
		return numa_dist[from][to];
	return from == to ? LOCAL_DISTANCE : REMOTE_DISTANCE;
}

#define NO_NODE (-1)

/* The SLIT's distance between two domains; 10 and 20 outside it. */
static int fw_distance(const struct fw_numa *fw, unsigned int a, unsigned int b)
{
	if (a < fw->nr_localities && b < fw->nr_localities)
		return fw->dist[a][b];
	return a == b ? LOCAL_DISTANCE : REMOTE_DISTANCE;
}

int numa_layout_node(const struct numa_layout *l, u32 pxm)
{
	return pxm < MAX_PXM ? l->pxm_node[pxm] : NO_NODE;
}

bool numa_layout(const struct fw_numa *fw, struct numa_layout *l)
{
	int nodes = 0;

	memset(l, 0, sizeof(*l));
	for (int p = 0; p < MAX_PXM; p++)
		l->pxm_node[p] = NO_NODE;
	/* Memory the kernel uses must land on a node (Linux's bad_srat). */
	for (unsigned int i = 0; i < fw->nr_blks; i++)
		if (fw->blk[i].pxm >= MAX_PXM && fw->blk[i].start < FOUR_GB) {
			pr_warn("NUMA: proximity domain %u is beyond %d; ignoring the firmware's\n",
				fw->blk[i].pxm, MAX_PXM - 1);
			return false;
		}
	/* Domains with memory below 4 GiB, in PXM order, become nodes. */
	for (unsigned int p = 0; p < MAX_PXM; p++)
		for (unsigned int i = 0; i < fw->nr_blks; i++) {
			if (fw->blk[i].pxm != p || fw->blk[i].start >= FOUR_GB)
				continue;
			if (nodes == MAX_NUMNODES) {
				pr_warn("NUMA: more than %d nodes; ignoring the firmware's\n",
					MAX_NUMNODES);
				return false;
			}
			l->pxm_node[p] = nodes;
			l->node_pxm[nodes++] = (int)p;
			break;
		}
	if (nodes <= 1)
		return false;
	if (fw->nr_localities) {
		for (int a = 0; a < nodes; a++)
			for (int b = 0; b < nodes; b++)
				l->dist[a][b] = fw_distance(fw, l->node_pxm[a],
							    l->node_pxm[b]);
		l->have_dist = true;
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		int pxm = fw->cpu_pxm[cpu];
		int best = 0;

		if (pxm >= 0 && numa_layout_node(l, (u32)pxm) != NO_NODE) {
			l->cpu_node[cpu] = l->pxm_node[pxm];
			continue;
		}
		/* A domain without memory: the nearest node that has some
		 * (the SLIT may not cover every node's domain). */
		if (pxm >= 0 && (unsigned)pxm < fw->nr_localities)
			for (int n = 1; n < nodes; n++)
				if (fw_distance(fw, pxm, l->node_pxm[n]) <
				    fw_distance(fw, pxm, l->node_pxm[best]))
					best = n;
		l->cpu_node[cpu] = best;
	}
	l->nodes = nodes;
	return true;
}

/* The firmware's layout; false (nothing changed) when it is unusable. */
static bool numa_from_firmware(const struct fw_numa *fw)
{
	static struct numa_layout l;

	if (!numa_layout(fw, &l))
		return false;
	for (unsigned int i = 0; i < fw->nr_blks; i++) {
		u64 s = fw->blk[i].start, e = min(fw->blk[i].end, FOUR_GB);
		int nid = numa_layout_node(&l, fw->blk[i].pxm);

		if (nid != NO_NODE && e > s)
			memblock_set_node(s, e - s, nid);
	}
	memcpy(numa_dist, l.dist, sizeof(numa_dist));
	have_dist = l.have_dist;
	memcpy(cpu_node_map, l.cpu_node, sizeof(cpu_node_map));
	nr_online_nodes = l.nodes;
	return true;
}

/*
 * numa=fake=N: cut RAM below 4 GiB into n pieces of (to a page) equal RAM.
 * The cut points are found first, on a copy of the region list, because
 * tagging regions splits them.
 */
static void numa_emulate(unsigned int n)
{
	unsigned long total = 0, per, acc = 0; /* whole pages */
	phys_addr_t bound[MAX_NUMNODES + 1];
	unsigned long cnt = memblock.memory.cnt;
	unsigned int k = 1;

	for (unsigned long i = 0; i < cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = PFN_UP(r->base);
		unsigned long e = PFN_DOWN(min(r->base + r->size, (phys_addr_t)FOUR_GB));

		if (e > s)
			total += e - s;
	}
	per = total / n;
	bound[0] = 0;
	for (unsigned long i = 0; i < cnt && k < n; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = PFN_UP(r->base);
		unsigned long e = PFN_DOWN(min(r->base + r->size, (phys_addr_t)FOUR_GB));

		while (s < e && k < n) {
			unsigned long need = k * per - acc;

			if (e - s < need) {
				acc += e - s;
				break;
			}
			s += need;
			acc += need;
			bound[k++] = (phys_addr_t)s << PAGE_SHIFT;
		}
	}
	while (k <= n)
		bound[k++] = FOUR_GB;
	for (k = 0; k < n; k++)
		if (bound[k + 1] > bound[k])
			memblock_set_node(bound[k], bound[k + 1] - bound[k], (int)k);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		cpu_node_map[cpu] = cpu % (int)n;
	nr_online_nodes = (int)n;
}

void numa_init(void)
{
	static struct fw_numa fw;
	bool firmware = arch_firmware_numa(&fw);

	nr_online_nodes = 1;
	if (numa_off) {
		pr_info("NUMA turned off\n");
		return;
	}
	if (firmware) {
		if (numa_fake)
			pr_info("NUMA: numa=fake=%u ignored: the firmware describes the nodes\n",
				numa_fake);
		if (!numa_from_firmware(&fw))
			pr_info("NUMA: the firmware describes one node\n");
		return;
	}
	if (numa_fake > 1) {
		pr_info("NUMA: emulating %u nodes (numa=fake)\n", numa_fake);
		numa_emulate(numa_fake);
		return;
	}
	pr_info("No NUMA configuration found\n");
}
