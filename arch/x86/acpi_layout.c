/*
 * arch/x86/acpi_layout.c - what the parsed ACPI tables mean for this
 * kernel: which CPUs it numbers (MADT) and which proximity domain each of
 * them and each block of memory is in (SRAT, SLIT).
 *
 * Pure functions of a struct acpi_info: no mapping, no hardware, so they
 * build on the host beside acpi.c and the ACPI fuzz target checks what
 * they make of hostile tables.  arch/x86/platform.c calls them at boot.
 *
 * The numbering: the boot CPU is 0, then the MADT's other enabled
 * processors in table order, as many as NR_CPUS and maxcpus= allow; the
 * rest are left out with a line each.  An APIC ID the MADT lists twice
 * is taken once: sending INIT and STARTUP to a CPU already running would
 * reset it (newer Linux also refuses a duplicate APIC ID; 2.6 trusted the
 * table).
 */
#include "asm/acpi.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "lib/string.h"

static bool numbered(const unsigned int *apic_id, unsigned int n,
		     unsigned int id)
{
	for (unsigned int cpu = 0; cpu < n; cpu++)
		if (apic_id[cpu] == id)
			return true;
	return false;
}

unsigned int acpi_number_cpus(const struct acpi_info *acpi, unsigned int bsp,
			      unsigned int max_cpus,
			      unsigned int apic_id[NR_CPUS])
{
	unsigned int n = 1;

	apic_id[0] = bsp;
	if (!acpi->madt_ok)
		return 1;
	for (unsigned int i = 0; i < acpi->nr_cpus; i++) {
		unsigned int id = acpi->cpus[i].apic_id;

		if (!acpi->cpus[i].enabled || id == bsp)
			continue;
		if (numbered(apic_id, n, id)) {
			pr_warn("smpboot: APIC id %u listed twice in the MADT; the second left out\n",
				id);
			continue;
		}
		if (n >= NR_CPUS || n >= max_cpus) {
			pr_info("smpboot: CPU with APIC id %u left out (NR_CPUS=%d, maxcpus=%u)\n",
				id, NR_CPUS, max_cpus);
			continue;
		}
		apic_id[n++] = id;
	}
	return n;
}

bool acpi_fw_numa(const struct acpi_info *acpi, const unsigned int *apic_id,
		  unsigned int nr_cpus, struct fw_numa *fw)
{
	memset(fw, 0, sizeof(*fw));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		fw->cpu_pxm[cpu] = -1;
	if (!acpi->srat_ok)
		return false;
	if (acpi->srat_mem_dropped) {
		pr_warn("SRAT: more than %d memory ranges; its NUMA layout is not used\n",
			ACPI_MAX_MEM_AFFINITY);
		return false;
	}
	for (unsigned int i = 0; i < acpi->nr_mem; i++) {
		const struct acpi_mem_affinity *m = &acpi->mem[i];

		if (!m->enabled || m->hotplug || !m->len ||
		    fw->nr_blks == FW_NUMA_MAX_BLKS)
			continue;
		fw->blk[fw->nr_blks].start = m->base;
		/* A range that wraps ends at the top of the address space. */
		fw->blk[fw->nr_blks].end = m->base + m->len > m->base ?
						   m->base + m->len : ~0ULL;
		fw->blk[fw->nr_blks].pxm = m->pxm;
		fw->nr_blks++;
	}
	for (unsigned int i = 0; i < acpi->nr_cpu_aff; i++) {
		const struct acpi_cpu_affinity *c = &acpi->cpu_aff[i];

		if (!c->enabled)
			continue;
		for (unsigned int cpu = 0; cpu < nr_cpus; cpu++)
			if (apic_id[cpu] == c->apic_id)
				fw->cpu_pxm[cpu] = (int)c->pxm;
	}
	if (acpi->slit_ok) {
		fw->nr_localities = acpi->slit_localities;
		memcpy(fw->dist, acpi->slit, sizeof(fw->dist));
	}
	return fw->nr_blks > 0;
}
