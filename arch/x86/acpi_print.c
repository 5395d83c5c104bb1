/*
 * arch/x86/acpi_print.c - acpi_print(): what acpi_parse() found, in the
 * words Linux uses at boot, so that a log of mm86 reads like a log of
 * Linux on the same machine.
 *
 * It reads only the summary (struct acpi_info), never firmware memory, so
 * it may run at any time.  The RSDP comes first, with where it was found
 * when that was not where Linux looks (a loader's copy has no address),
 * then the tables in the order they were read, each followed by a warning
 * when it was rejected or skipped; then the MADT's entries, the SRAT's
 * affinities and the SLIT's matrix.  Node numbers are computed here only
 * to print them as Linux does (see pxm_to_node); deciding the kernel's
 * nodes is the NUMA code's business.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include "asm/acpi.h"
#include "kernel/printk.h"
#include "lib/sprintf.h"

/*
 * The node a PXM becomes: Linux numbers nodes in the order their PXMs
 * first appear, processor entries before memory entries.
 */
static int pxm_to_node(const struct acpi_info *info, u32 pxm)
{
	u32 seen[ACPI_MAX_CPUS + ACPI_MAX_MEM_AFFINITY];
	unsigned int nr = 0;

	for (unsigned int i = 0; i < info->nr_cpu_aff + info->nr_mem; i++) {
		bool cpu = i < info->nr_cpu_aff;
		u32 p = cpu ? info->cpu_aff[i].pxm
			    : info->mem[i - info->nr_cpu_aff].pxm;
		bool enabled = cpu ? info->cpu_aff[i].enabled
				   : info->mem[i - info->nr_cpu_aff].enabled;
		unsigned int j;

		if (!enabled)
			continue;
		for (j = 0; j < nr && seen[j] != p; j++)
			;
		if (j == nr)
			seen[nr++] = p;
		if (p == pxm)
			return (int)j;
	}
	return -1;
}

static const char *const inti_polarity[] = { "dfl", "high", "res", "low" };
static const char *const inti_trigger[] = { "dfl", "edge", "res", "level" };

static void print_madt(const struct acpi_info *info)
{
	unsigned int enabled = 0;

	pr_info("Local APIC address 0x%08x\n", info->lapic_addr);
	for (unsigned int i = 0; i < info->nr_cpus; i++) {
		const struct acpi_cpu *c = &info->cpus[i];

		pr_info("LAPIC (acpi_id[0x%02x] lapic_id[0x%02x] %s)\n",
			c->acpi_id, c->apic_id,
			c->enabled ? "enabled" : "disabled");
		enabled += c->enabled;
	}
	for (unsigned int i = 0; i < info->nr_lapic_nmis; i++) {
		const struct acpi_lapic_nmi *n = &info->lapic_nmis[i];

		pr_info("LAPIC_NMI (acpi_id[0x%02x] %s %s lint[0x%x])\n",
			n->acpi_id, inti_polarity[n->flags & 3],
			inti_trigger[(n->flags >> 2) & 3], n->lint);
	}
	for (unsigned int i = 0; i < info->nr_ioapics; i++) {
		const struct acpi_ioapic *io = &info->ioapics[i];

		pr_info("IOAPIC (id[0x%02x] address[0x%08x] gsi_base[%u])\n",
			io->id, io->addr, io->gsi_base);
	}
	for (unsigned int i = 0; i < info->nr_overrides; i++) {
		const struct acpi_irq_override *o = &info->overrides[i];

		pr_info("INT_SRC_OVR (bus %u bus_irq %u global_irq %u %s %s)\n",
			o->bus, o->source, o->gsi, inti_polarity[o->flags & 3],
			inti_trigger[(o->flags >> 2) & 3]);
	}
	pr_info("MADT: %u processors (%u enabled), %u I/O APIC%s\n",
		info->nr_cpus, enabled, info->nr_ioapics,
		info->nr_ioapics == 1 ? "" : "s");
}

static void print_srat(const struct acpi_info *info)
{
	for (unsigned int i = 0; i < info->nr_cpu_aff; i++) {
		const struct acpi_cpu_affinity *a = &info->cpu_aff[i];

		if (a->enabled)
			pr_info("SRAT: PXM %u -> APIC 0x%02x -> Node %d\n",
				a->pxm, a->apic_id, pxm_to_node(info, a->pxm));
	}
	for (unsigned int i = 0; i < info->nr_mem; i++) {
		const struct acpi_mem_affinity *m = &info->mem[i];

		/* Disabled entries are placeholders: Linux ignores them too. */
		if (!m->enabled || !m->len)
			continue;
		pr_info("SRAT: Node %d PXM %u [mem %#010llx-%#010llx]%s%s\n",
			pxm_to_node(info, m->pxm), m->pxm,
			(unsigned long long)m->base,
			(unsigned long long)(m->base + m->len - 1),
			m->hotplug ? " hotplug" : "",
			m->nonvolatile ? " non-volatile" : "");
	}
}

static void print_slit(const struct acpi_info *info)
{
	unsigned int n = info->slit_localities;

	pr_info("SLIT: %u localities\n", n);
	for (unsigned int i = 0; i < n; i++) {
		char row[ACPI_MAX_NODES * 4 + 1];
		int pos = 0;

		for (unsigned int j = 0; j < n; j++)
			pos += scnprintf(row + pos, sizeof(row) - pos, " %3u",
					 info->slit[i][j]);
		pr_info("SLIT: %u:%s\n", i, row);
	}
}

/* The RSDP line: Linux's, or with no address for the loader's copy. */
static void print_rsdp(const struct acpi_info *info)
{
	if (info->rsdp_source == ACPI_RSDP_LOADER) {
		pr_info("RSDP (boot loader's copy) %06X (v%02u %-6.6s)\n",
			info->rsdp_length, info->revision, info->oem_id);
		return;
	}
	pr_info("RSDP 0x%016llX %06X (v%02u %-6.6s)\n",
		(unsigned long long)info->rsdp_pa, info->rsdp_length,
		info->revision, info->oem_id);
	if (info->rsdp_source == ACPI_RSDP_FW_RANGES)
		pr_info("RSDP found by scanning the memory map's ACPI ranges: none from the boot loader, none in the BIOS area\n");
}

void acpi_print(const struct acpi_info *info)
{
	if (info->copy_problem[0])
		pr_warn("RSDP copy from the boot loader: %s, ignored\n",
			info->copy_problem);
	if (info->rsdp_problem[0])
		pr_warn("RSDP candidate at 0x%016llX: %s, ignored\n",
			(unsigned long long)info->rsdp_bad_pa,
			info->rsdp_problem);
	if (!info->rsdp_found) {
		pr_warn("no valid RSDP found: no ACPI tables\n");
		return;
	}
	print_rsdp(info);

	for (unsigned int i = 0; i < info->nr_tables; i++) {
		const struct acpi_table_desc *d = &info->tables[i];

		if (d->header_read)
			pr_info("%-4.4s 0x%016llX %06X (v%02u %-6.6s %-8.8s %08X %-4.4s %08X)\n",
				d->signature, (unsigned long long)d->pa,
				d->length, d->revision, d->oem_id,
				d->oem_table_id, d->oem_revision,
				d->asl_compiler_id, d->asl_compiler_revision);
		if (d->problem[0])
			pr_warn("[%4.4s] 0x%016llX: %s: %s\n",
				d->header_read ? d->signature : "????",
				(unsigned long long)d->pa, d->problem,
				d->rejected ? "table ignored" : "skipped");
	}
	if (!info->root_ok)
		pr_warn("no usable RSDT or XSDT\n");

	if (info->madt_ok)
		print_madt(info);
	if (info->srat_ok)
		print_srat(info);
	if (info->slit_ok)
		print_slit(info);
	if (info->dropped)
		pr_warn("%u entries did not fit this kernel's tables and were dropped\n",
			info->dropped);
}
