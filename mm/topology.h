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

#endif /* MM_TOPOLOGY_H */
