/*
 * tests/fuzz/fuzz_acpi.c - libFuzzer target: the ACPI table parser
 * (arch/x86/acpi.c, which reads physical memory only through its map()
 * accessor, so it builds here unchanged) over a fuzzer-built graph RSDP
 * -> RSDT/XSDT -> MADT/SRAT/SLIT/others in a fake physical memory, then
 * acpi_print().
 *
 * Input: a mode byte, a hint address (u32), a copy length byte and that
 * many bytes of a boot loader's RSDP copy (at most 40), then chunks of
 * memory as tests/fuzz/fuzz_mem.h lays them out (its flags fix lengths
 * and checksums, or not, and put ranges in the memory map).  The mode:
 * bit 0 the hint is given (the only candidate), bit 1 the copy is given,
 * bit 2 the memory map (the chunks' ACPI ranges) is given, bit 3 the
 * copy's checksums are fixed.  Tables may overlap, lie across refused
 * memory, and point anywhere; map() behaves as the kernel's early window
 * does (a pointer dies at the next call: use after free here).
 *
 * Checked after each input, against the fake memory itself (not the
 * parser's copies):
 *  - the return value agrees with rsdp_found and root_ok; the RSDP used
 *    is where its source says (hint, the BIOS areas on 16-byte
 *    boundaries, a map range), has the signature and valid checksums;
 *  - every table descriptor: bounded, terminated printable strings, a
 *    reason for each rejection and its bit in info->rejected;
 *  - the MADT used had a valid checksum and yields exactly as many CPUs
 *    as its processor entries (at most ACPI_MAX_CPUS, and never more
 *    than its entries), I/O APICs as its entries;
 *  - the SRAT used: as many memory and CPU affinities as its entries,
 *    proximity domains within the bits its revision defines;
 *  - the SLIT used: 1 to ACPI_MAX_NODES localities, 10 on the diagonal,
 *    more than 10 elsewhere, the same matrix as in memory;
 *  - what the kernel makes of them, as at boot (arch/x86/acpi_layout.c,
 *    then mm/numa.c's numa_layout()), with the first MADT processor as the
 *    boot CPU and maxcpus= from the mode byte's high nibble (0: none): the
 *    CPUs numbered are the boot CPU and then enabled MADT processors,
 *    each APIC ID once, as many as there are up to NR_CPUS and maxcpus;
 *    each CPU's domain is one the SRAT gives its APIC ID; and when the
 *    SRAT makes nodes, every CPU and every memory range below 4 GiB maps
 *    to a valid node, and the distances are 10 to itself, more to others.
 */
#include <stdint.h>

#include "asm/acpi.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "mm/topology.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_mem.h"

#define COPY_MAX 40

static struct acpi_info info;
static u8 tbl[ACPI_TABLE_MAX];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	console_loglevel = 0;	/* formatted, never written */
	fake_one_window = 1;
	return 0;
}

static int printable(const char *s, size_t size)
{
	const char *end = memchr(s, '\0', size);

	if (!end)
		return 0;
	for (; s < end; s++)
		if (*s < 0x20 || *s > 0x7e)
			return 0;
	return 1;
}

/* The table descriptor d, re-read from the fake memory into tbl. */
static u32 reread(const struct acpi_table_desc *d)
{
	if (d->length < sizeof(struct acpi_table_header) ||
	    d->length > ACPI_TABLE_MAX || !fake_read(d->pa, tbl, d->length) ||
	    fake_sum(tbl, d->length))
		abort();	/* the parser used a table it should not have */
	return d->length;
}

/* The first unrejected, unskipped table with signature sig. */
static const struct acpi_table_desc *used(const char *sig)
{
	for (unsigned int i = 0; i < info.nr_tables; i++) {
		const struct acpi_table_desc *d = &info.tables[i];

		if (!memcmp(d->signature, sig, 4) && !d->problem[0])
			return d;
	}
	abort();
}

/* Counts the subtables of type t in tbl[start, len). */
static unsigned int count_type(u32 start, u32 len, u8 t)
{
	unsigned int n = 0;

	while (start + 2 <= len && tbl[start + 1] >= 2) {
		n += tbl[start] == t;
		start += tbl[start + 1];
	}
	if (start != len)
		abort();	/* parsed, but not whole subtables */
	return n;
}

static unsigned int min_u(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

static void check_rsdp(u8 mode, u32 hint)
{
	int hinted = (mode & 1) && hint;

	u8 r[ACPI_RSDP_MAX_LENGTH];
	u32 len = 20;
	phys_addr_t pa = info.rsdp_pa;

	switch (info.rsdp_source) {
	case ACPI_RSDP_HINT:
		if (!hinted || pa != hint)
			abort();
		break;
	case ACPI_RSDP_LOADER:
		if (hinted || !(mode & 2) || pa)
			abort();
		return;		/* the copy: not in memory */
	case ACPI_RSDP_BIOS: {
		u8 seg[2] = { 0, 0 };
		u64 ebda;

		fake_read(0x40E, seg, 2);
		ebda = (u64)(seg[0] | seg[1] << 8) << 4;
		if (hinted || pa % 16 ||
		    !((pa >= 0xE0000 && pa < 0x100000) ||
		      (ebda > 0x400 && pa >= ebda && pa < ebda + 1024)))
			abort();
		break;
	}
	case ACPI_RSDP_FW_RANGES: {
		int in = 0;

		if (hinted || !(mode & 4) || pa % 16)
			abort();
		for (unsigned int i = 0; i < fake_nr_mmap; i++)
			in |= pa >= fake_mmap[i].addr &&
			      pa - fake_mmap[i].addr < fake_mmap[i].len;
		if (!in)
			abort();
		break;
	}
	default:
		abort();
	}
	if (!fake_read(pa, r, 20) || memcmp(r, "RSD PTR ", 8) ||
	    fake_sum(r, 20) || r[15] != info.revision)
		abort();
	if (info.revision >= 2) {
		if (!fake_read(pa, r, 36))
			abort();
		memcpy(&len, r + 20, 4);
		if (len < 36 || len > ACPI_RSDP_MAX_LENGTH ||
		    !fake_read(pa, r, len) || fake_sum(r, len))
			abort();
	}
	if (info.rsdp_length != len)
		abort();
}

static void check_tables(void)
{
	u32 bits = 0;

	if (info.nr_tables > ACPI_MAX_TABLES || !printable(info.oem_id, 7) ||
	    !memchr(info.rsdp_problem, 0, sizeof(info.rsdp_problem)) ||
	    !memchr(info.copy_problem, 0, sizeof(info.copy_problem)))
		abort();
	for (unsigned int i = 0; i < info.nr_tables; i++) {
		const struct acpi_table_desc *d = &info.tables[i];

		if (!printable(d->signature, sizeof(d->signature)) ||
		    !printable(d->oem_id, sizeof(d->oem_id)) ||
		    !printable(d->oem_table_id, sizeof(d->oem_table_id)) ||
		    !printable(d->asl_compiler_id, sizeof(d->asl_compiler_id)) ||
		    !memchr(d->problem, 0, sizeof(d->problem)) ||
		    (d->rejected && !d->problem[0]))
			abort();
		if (d->rejected)
			bits |= 1;
	}
	if (bits && !(info.rejected & ~ACPI_REJ_RSDP))
		abort();
	if (info.rejected & ~(ACPI_REJ_RSDP | ACPI_REJ_RSDT | ACPI_REJ_XSDT |
			      ACPI_REJ_MADT | ACPI_REJ_SRAT | ACPI_REJ_SLIT |
			      ACPI_REJ_OTHER))
		abort();
}

static void check_madt(void)
{
	const struct acpi_table_desc *d;
	unsigned int lapics;
	u32 len;

	if (!info.madt_ok) {
		if (info.nr_cpus || info.nr_ioapics || info.nr_overrides ||
		    info.nr_lapic_nmis)
			abort();
		return;
	}
	d = used("APIC");
	len = reread(d);
	lapics = count_type(sizeof(struct acpi_table_madt), len,
			    ACPI_MADT_TYPE_LOCAL_APIC);
	if (!lapics || info.nr_cpus != min_u(lapics, ACPI_MAX_CPUS) ||
	    info.nr_ioapics != min_u(count_type(sizeof(struct acpi_table_madt), len,
						ACPI_MADT_TYPE_IO_APIC),
				     ACPI_MAX_IOAPICS))
		abort();
}

static void check_srat(void)
{
	const struct acpi_table_desc *d;
	u32 len;

	if (!info.srat_ok) {
		if (info.nr_mem || info.nr_cpu_aff)
			abort();
		return;
	}
	d = used("SRAT");
	len = reread(d);
	if (info.nr_mem != min_u(count_type(sizeof(struct acpi_table_srat), len,
					    ACPI_SRAT_TYPE_MEMORY_AFFINITY),
				 ACPI_MAX_MEM_AFFINITY) ||
	    info.nr_cpu_aff != min_u(count_type(sizeof(struct acpi_table_srat), len,
						ACPI_SRAT_TYPE_CPU_AFFINITY),
				     ACPI_MAX_CPUS))
		abort();
	for (unsigned int i = 0; i < info.nr_mem; i++)
		if (d->revision <= 1 && info.mem[i].pxm > 0xff)
			abort();
	for (unsigned int i = 0; i < info.nr_cpu_aff; i++)
		if (d->revision < 2 && info.cpu_aff[i].pxm > 0xff)
			abort();
}

static void check_slit(void)
{
	const struct acpi_table_desc *d;
	unsigned int n = info.slit_localities;

	if (!info.slit_ok) {
		if (n)
			abort();
		return;
	}
	d = used("SLIT");
	reread(d);
	if (n < 1 || n > ACPI_MAX_NODES || tbl[36] != n ||
	    d->length < sizeof(struct acpi_table_slit) + n * n)
		abort();
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++) {
			u8 v = info.slit[i][j];

			if ((i == j ? v != ACPI_LOCAL_DISTANCE : v <= ACPI_LOCAL_DISTANCE) ||
			    v != tbl[sizeof(struct acpi_table_slit) + i * n + j])
				abort();
		}
}

/* Whether an enabled SRAT CPU affinity gives APIC ID id domain pxm. */
static int srat_says(unsigned int id, int pxm)
{
	for (unsigned int i = 0; i < info.nr_cpu_aff; i++)
		if (info.cpu_aff[i].enabled && info.cpu_aff[i].apic_id == id &&
		    (int)info.cpu_aff[i].pxm == pxm)
			return 1;
	return 0;
}

static void check_layout(unsigned int max_cpus)
{
	static struct fw_numa fw;
	static struct numa_layout l;
	unsigned int apic_id[NR_CPUS], bsp, n, enabled = 0;
	int numa;

	bsp = info.madt_ok ? info.cpus[0].apic_id : 0;
	n = acpi_number_cpus(&info, bsp, max_cpus, apic_id);
	/* The distinct enabled processors besides the boot CPU. */
	for (unsigned int i = 0; i < info.nr_cpus; i++) {
		unsigned int j, id = info.cpus[i].apic_id;

		if (!info.madt_ok || !info.cpus[i].enabled || id == bsp)
			continue;
		for (j = 0; j < i; j++)
			if (info.cpus[j].enabled && info.cpus[j].apic_id == id)
				break;
		enabled += j == i;
	}
	if (n != min_u(1 + enabled, min_u(NR_CPUS, max_cpus)) || apic_id[0] != bsp)
		abort();
	for (unsigned int c = 1; c < n; c++) {
		unsigned int i;

		for (i = 0; i < info.nr_cpus; i++)
			if (info.cpus[i].enabled && info.cpus[i].apic_id == apic_id[c])
				break;
		if (i == info.nr_cpus)
			abort();	/* not an enabled MADT processor */
		for (unsigned int d = 0; d < c; d++)
			if (apic_id[d] == apic_id[c])
				abort();	/* numbered twice */
	}

	numa = acpi_fw_numa(&info, apic_id, n, &fw);
	if (numa != (fw.nr_blks > 0) || fw.nr_blks > FW_NUMA_MAX_BLKS ||
	    ((!info.srat_ok || info.srat_mem_dropped) && numa))
		abort();	/* or a memory range left out, on no node */
	for (unsigned int c = 0; c < NR_CPUS; c++)
		if (fw.cpu_pxm[c] != -1 &&
		    (c >= n || !srat_says(apic_id[c], fw.cpu_pxm[c])))
			abort();
	for (unsigned int i = 0, b = 0; numa && i < info.nr_mem; i++) {
		const struct acpi_mem_affinity *m = &info.mem[i];

		if (!m->enabled || m->hotplug || !m->len)
			continue;
		/* Every present range, in order, with its domain. */
		if (b >= fw.nr_blks || fw.blk[b].start != m->base ||
		    fw.blk[b].pxm != m->pxm || fw.blk[b].end <= fw.blk[b].start)
			abort();
		b++;
	}
	if (!numa || !numa_layout(&fw, &l))
		return;
	if (l.nodes < 2 || l.nodes > MAX_NUMNODES)
		abort();
	for (int a = 0; a < l.nodes; a++) {
		if (l.pxm_node[l.node_pxm[a]] != a ||
		    (a && l.node_pxm[a] <= l.node_pxm[a - 1]))
			abort();
		for (int b = 0; b < l.nodes; b++)
			if (l.have_dist && (a == b ? l.dist[a][b] != ACPI_LOCAL_DISTANCE
						   : l.dist[a][b] <= ACPI_LOCAL_DISTANCE))
				abort();
	}
	for (unsigned int c = 0; c < NR_CPUS; c++)
		if (l.cpu_node[c] < 0 || l.cpu_node[c] >= l.nodes)
			abort();
	for (unsigned int i = 0; i < fw.nr_blks; i++) {
		int nid = numa_layout_node(&l, fw.blk[i].pxm);

		if (fw.blk[i].start < (1ULL << 32) &&
		    (nid < 0 || nid >= l.nodes))
			abort();	/* memory the kernel uses, on no node */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static u8 copy[COPY_MAX];
	struct acpi_rsdp_sources src = { 0 };
	size_t clen;
	u8 mode;
	u32 hint;
	int ret;

	if (size < 6)
		return 0;
	mode = data[0];
	hint = fake_rd32(data + 1);
	clen = data[5] % (COPY_MAX + 1);
	if (clen > size - 6)
		clen = size - 6;
	memcpy(copy, data + 6, clen);
	if ((mode & 8) && clen >= 20) {
		copy[8] = 0;
		copy[8] = (u8)-fake_sum(copy, 20);
		if (clen >= 36) {
			copy[32] = 0;
			copy[32] = (u8)-fake_sum(copy, 36);
		}
	}
	fake_reset();
	fake_load(data + 6 + clen, size - 6 - clen);
	if (mode & 1)
		src.hint = hint;
	if (mode & 2) {
		src.copy = copy;
		src.copy_len = (unsigned int)clen;
	}
	if (mode & 4) {
		src.mmap = fake_mmap;
		src.nr_mmap = fake_nr_mmap;
	}

	ret = acpi_parse(&info, fake_map, &src);
	if (ret != 0 && ret != -ENOENT && ret != -EINVAL)
		abort();
	if ((ret == -ENOENT) != !info.rsdp_found || (ret == 0 && !info.root_ok))
		abort();
	if (info.rsdp_found)
		check_rsdp(mode, hint);
	check_tables();
	check_madt();
	check_srat();
	check_slit();
	check_layout(mode >> 4 ? mode >> 4 : NR_CPUS);
	acpi_print(&info);
	fake_reset();
	return 0;
}
