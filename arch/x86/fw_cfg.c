/*
 * arch/x86/fw_cfg.c - reads QEMU's fw_cfg items through the I/O ports.
 *
 * Selecting an item (a 16-bit write of its key to the selector port)
 * rewinds it; each 8-bit read of the data port then returns its next
 * byte, and 0 past its end.  Without the device (real hardware, another
 * hypervisor) the data port reads as 0xff, so the signature check fails
 * and every helper reports "nothing".
 *
 * Trusted: nothing beyond the signature.  The NUMA item's node count is
 * QEMU's, but a garbage count must not make us loop for ever, so only as
 * many entries as the caller has room for are read, and the APIC-id part
 * is skipped by a count bounded by the 16-bit FW_CFG_MAX_CPUS.
 *
 * These are the test suite's oracle only; see asm/fw_cfg.h.  They are not
 * locked: call them from one CPU at a time (selection is global state).
 */
#include "asm/fw_cfg.h"
#include "asm/io.h"
#include "lib/errno.h"
#include "lib/string.h"

void fw_cfg_read(u16 key, void *buf, size_t len)
{
	u8 *b = buf;

	outw(key, FW_CFG_PORT_SEL);
	for (size_t i = 0; i < len; i++)
		b[i] = inb(FW_CFG_PORT_DATA);
}

/* The next little-endian u64 of the selected item. */
static u64 read_le64(void)
{
	u64 v = 0;

	for (unsigned int i = 0; i < 8; i++)
		v |= (u64)inb(FW_CFG_PORT_DATA) << (8 * i);
	return v;
}

static u16 read_u16_item(u16 key)
{
	u8 b[2];

	fw_cfg_read(key, b, sizeof(b));
	return (u16)(b[0] | b[1] << 8);
}

bool fw_cfg_present(void)
{
	char sig[4];

	fw_cfg_read(FW_CFG_SIGNATURE, sig, sizeof(sig));
	return memcmp(sig, "QEMU", 4) == 0;
}

unsigned int fw_cfg_nb_cpus(void)
{
	return fw_cfg_present() ? read_u16_item(FW_CFG_NB_CPUS) : 0;
}

unsigned int fw_cfg_max_cpus(void)
{
	return fw_cfg_present() ? read_u16_item(FW_CFG_MAX_CPUS) : 0;
}

/*
 * Selects the NUMA item and returns its node count, positioned at the
 * first per-APIC entry; 0 without -numa.  *max_apic gets the number of
 * per-APIC entries, read first because selecting rewinds.
 */
static u64 numa_select(unsigned int *max_apic)
{
	*max_apic = read_u16_item(FW_CFG_MAX_CPUS);
	outw(FW_CFG_NUMA, FW_CFG_PORT_SEL);
	return read_le64();
}

int fw_cfg_numa(unsigned int *nr_nodes, u64 *node_mem, unsigned int max_nodes)
{
	unsigned int max_apic;
	u64 n;

	*nr_nodes = 0;
	if (!fw_cfg_present())
		return -ENOENT;
	n = numa_select(&max_apic);
	if (!n)
		return 0;
	*nr_nodes = n > 0xffffffffULL ? 0xffffffffU : (unsigned int)n;
	for (unsigned int i = 0; i < max_apic; i++)
		read_le64();
	for (unsigned int i = 0; i < max_nodes && i < n; i++)
		node_mem[i] = read_le64();
	return n > max_nodes ? -E2BIG : 0;
}

int fw_cfg_numa_node_of_apic(unsigned int apic_id)
{
	unsigned int max_apic;

	if (!fw_cfg_present())
		return -ENOENT;
	if (!numa_select(&max_apic))
		return -ENOENT;
	if (apic_id >= max_apic)
		return -EINVAL;
	for (unsigned int i = 0; i < apic_id; i++)
		read_le64();
	return (int)read_le64();
}
