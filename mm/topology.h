/*
 * mm/topology.h - which NUMA node each CPU and each page frame belongs to.
 *
 * Filled by mm/numa.c from the firmware (ACPI SRAT) or numa=fake=N before
 * the zones are built; with no NUMA information there is one node, 0, and
 * every CPU is on it.
 */
#ifndef MM_TOPOLOGY_H
#define MM_TOPOLOGY_H

#include "kernel/nr_cpus.h"
#include "kernel/smp.h"
#include "lib/types.h"
#include "mm/mm.h"

extern int cpu_node_map[NR_CPUS];

static inline int cpu_to_node(int cpu)
{
	return cpu_node_map[cpu];
}

/*
 * The node of the CPU this runs on: a placement hint (where to allocate
 * first), so a stale answer is harmless, and the raw CPU number will do
 * in preemptible code, as Linux's numa_node_id() (2.6.18).  Tasks never
 * migrate here in any case.
 */
static inline int numa_node_id(void)
{
	return cpu_to_node(raw_smp_processor_id());
}

/* Reads the NUMA layout (mm/numa.c); before the zones are built. */
void numa_init(void);

/*
 * The nodes numa_init() makes of the firmware's description (struct
 * fw_numa): each proximity domain below MAX_PXM that owns memory below
 * 4 GiB becomes a node, in increasing domain order; each CPU goes to its
 * domain's node, or the nearest node (by the SLIT) when its domain has
 * none; the distances are the SLIT's between the nodes' domains.
 */
#define MAX_PXM 256
struct numa_layout {
	int nodes;			/* 2..MAX_NUMNODES when used */
	int pxm_node[MAX_PXM];		/* -1: the domain is not a node */
	int node_pxm[MAX_NUMNODES];
	int cpu_node[NR_CPUS];
	bool have_dist;			/* dist is the SLIT's */
	u8 dist[MAX_NUMNODES][MAX_NUMNODES];
};

struct fw_numa;
/* Fills *l; false (one node) when fw describes fewer than two or is unusable. */
bool numa_layout(const struct fw_numa *fw, struct numa_layout *l);
/* The node of domain pxm in l, -1 for none. */
int numa_layout_node(const struct numa_layout *l, u32 pxm);

#endif /* MM_TOPOLOGY_H */
