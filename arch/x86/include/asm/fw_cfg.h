/*
 * asm/fw_cfg.h - QEMU's firmware configuration device, read through its
 * legacy I/O ports: what QEMU was told on its command line (-smp, -numa).
 *
 * This is an oracle for the self-tests, so that they can check what the
 * ACPI tables say against what QEMU was asked for.  The kernel never
 * configures itself from it: on real hardware there is no such device,
 * and the ACPI tables are the only truth.
 */
#ifndef ASM_FW_CFG_H
#define ASM_FW_CFG_H

#include "lib/types.h"

#define FW_CFG_PORT_SEL 0x510	/* 16-bit write: select an item */
#define FW_CFG_PORT_DATA 0x511	/* 8-bit reads: the item's bytes in order */

/* Item keys (QEMU's docs/specs/fw_cfg.rst); values are little-endian. */
#define FW_CFG_SIGNATURE 0x00	/* "QEMU" */
#define FW_CFG_ID 0x01
#define FW_CFG_RAM_SIZE 0x03	/* u64 */
#define FW_CFG_NB_CPUS 0x05	/* u16: CPUs present at boot (-smp N) */
#define FW_CFG_NUMA 0x0d	/* u64 blob, see fw_cfg_numa() */
#define FW_CFG_MAX_CPUS 0x0f	/* u16: on x86, one past the highest APIC id */

/* True when the device answers with its signature (that is, under QEMU). */
bool fw_cfg_present(void);

/* Reads the first len bytes of item key into buf (no presence check). */
void fw_cfg_read(u16 key, void *buf, size_t len);

/* -smp's CPU count, or 0 without fw_cfg. */
unsigned int fw_cfg_nb_cpus(void);

/* The number of APIC ids the NUMA item describes, or 0 without fw_cfg. */
unsigned int fw_cfg_max_cpus(void);

/*
 * The NUMA item is u64s: the number of nodes, then the node of every APIC
 * id below fw_cfg_max_cpus(), then every node's memory size in bytes.
 * Stores the number of nodes in *nr_nodes (0 when QEMU has no -numa) and
 * the first max_nodes sizes in node_mem.  Returns 0, -ENOENT without
 * fw_cfg (*nr_nodes = 0), or -E2BIG when there were more nodes than
 * max_nodes (*nr_nodes still says how many).
 */
int fw_cfg_numa(unsigned int *nr_nodes, u64 *node_mem, unsigned int max_nodes);

/*
 * The node QEMU put the CPU with this APIC id in, or -ENOENT without
 * fw_cfg or without -numa, -EINVAL for an APIC id beyond fw_cfg_max_cpus().
 */
int fw_cfg_numa_node_of_apic(unsigned int apic_id);

#endif /* ASM_FW_CFG_H */
