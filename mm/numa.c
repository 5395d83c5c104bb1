/*
 * mm/numa.c - NUMA nodes: which node each CPU and each range of memory is
 * on, and how far apart the nodes are.
 *
 * Until the firmware's SRAT/SLIT are read, there is one node, 0.
 */
#include "mm/topology.h"

int cpu_node_map[NR_CPUS];
