/*
 * arch/x86/platform.c - what the firmware says about this PC: its CPUs
 * (MADT) and its NUMA layout (SRAT, SLIT), read once at boot.
 *
 * The tables are read before memory management exists: through the boot
 * page directory's linear map where they lie below 896 MiB, and through a
 * window of two 4 MiB pages (two spare page-directory slots just below
 * the pkmap window) where they do not - QEMU puts them at the top of RAM,
 * which is above the linear map on a large machine.  The window moves with
 * each request, which acpi_parse() allows for; it is cleared afterwards.
 *
 * The RSDP is looked for where struct acpi_rsdp_sources says, from the
 * boot information: the loader's copy (Multiboot 2), the BIOS area, then
 * the memory map's ACPI ranges (UEFI firmware under Multiboot 1, where the
 * BIOS area is empty); the scan of those asks for 1 KiB at a time, which
 * the window serves anywhere below 4 GiB.
 *
 * CPU numbers are dense: the boot CPU is 0, then the MADT's other enabled
 * processors in table order.  No MADT means one CPU; no SRAT, one node.
 */
#include "arch/x86/smp.h"
#include "asm/acpi.h"
#include "asm/apic.h"
#include "asm/page.h"
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/string.h"

#define WINDOW_PDE 1020			/* 0xFF000000 .. 0xFF7FFFFF */
#define WINDOW_BASE (WINDOW_PDE * (4UL << 20))
#define WINDOW_SIZE (8UL << 20)
#define PDE_P 0x001
#define PDE_RW 0x002
#define PDE_PS 0x080

extern u32 boot_page_dir[1024];

static struct acpi_info acpi;
/* Into the boot information, which lives as long as the kernel. */
static struct acpi_rsdp_sources rsdp_sources;
unsigned int cpu_apic_id[NR_CPUS];
u32 lapic_phys_base = APIC_DEFAULT_PHYS_BASE;

static void window_set(phys_addr_t base)
{
	for (int i = 0; i < 2; i++) {
		boot_page_dir[WINDOW_PDE + i] =
			base ? (u32)(base + ((phys_addr_t)i << 22)) | PDE_PS |
				       PDE_RW | PDE_P :
			       0;
		invlpg(WINDOW_BASE + ((unsigned long)i << 22));
	}
}

static const void *acpi_early_map(phys_addr_t pa, size_t len)
{
	phys_addr_t base = pa & ~(phys_addr_t)((4UL << 20) - 1);

	if (pa + len <= MAXMEM && pa + len >= pa)
		return __va((unsigned long)pa);
	if (pa + len > (1ULL << 32) || pa + len - base > WINDOW_SIZE)
		return NULL;
	window_set(base);
	return (const void *)(WINDOW_BASE + (unsigned long)(pa - base));
}

static unsigned int boot_cpu_apic_id(void)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	return b >> 24;
}

static void set_cpus(unsigned int max_cpus)
{
	unsigned int bsp = boot_cpu_apic_id(), n = 1;

	cpu_apic_id[0] = bsp;
	if (!acpi.madt_ok) {
		pr_info("smpboot: no usable MADT: one CPU\n");
		nr_cpu_ids = 1;
		return;
	}
	for (unsigned int i = 0; i < acpi.nr_cpus; i++) {
		if (!acpi.cpus[i].enabled || acpi.cpus[i].apic_id == bsp)
			continue;
		if (n >= NR_CPUS || n >= max_cpus) {
			pr_info("smpboot: CPU with APIC id %u left out (NR_CPUS=%d, maxcpus=%u)\n",
				acpi.cpus[i].apic_id, NR_CPUS, max_cpus);
			continue;
		}
		cpu_apic_id[n++] = acpi.cpus[i].apic_id;
	}
	nr_cpu_ids = n;
	lapic_phys_base = acpi.lapic_addr ? acpi.lapic_addr : lapic_phys_base;
	pr_info("smpboot: Allowing %u CPUs\n", nr_cpu_ids);
}

void arch_platform_init(const struct boot_info *bi, unsigned int max_cpus)
{
	int err;

	rsdp_sources = (struct acpi_rsdp_sources){
		.copy = bi->rsdp,
		.copy_len = min(bi->rsdp_len, (unsigned int)sizeof(bi->rsdp)),
		.mmap = bi->mmap,
		.nr_mmap = bi->nr_mmap,
	};
	err = acpi_parse(&acpi, acpi_early_map, &rsdp_sources);
	window_set(0);
	acpi_print(&acpi);
	if (err) {
		pr_warn("ACPI: no usable tables (error %d): one CPU, one node\n",
			err);
		memset(&acpi, 0, sizeof(acpi));
	}
	set_cpus(max_cpus ? max_cpus : 1);
}

const struct acpi_info *acpi_boot_tables(void)
{
	return &acpi;
}

const struct acpi_rsdp_sources *acpi_boot_sources(void)
{
	return &rsdp_sources;
}

static int apic_to_cpu(unsigned int apic_id)
{
	for (unsigned int cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu_apic_id[cpu] == apic_id)
			return (int)cpu;
	return -1;
}

bool arch_firmware_numa(struct fw_numa *fw)
{
	memset(fw, 0, sizeof(*fw));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		fw->cpu_pxm[cpu] = -1;
	if (!acpi.srat_ok)
		return false;
	for (unsigned int i = 0; i < acpi.nr_mem; i++) {
		const struct acpi_mem_affinity *m = &acpi.mem[i];

		if (!m->enabled || m->hotplug || !m->len ||
		    fw->nr_blks == FW_NUMA_MAX_BLKS)
			continue;
		fw->blk[fw->nr_blks].start = m->base;
		fw->blk[fw->nr_blks].end = m->base + m->len;
		fw->blk[fw->nr_blks].pxm = m->pxm;
		fw->nr_blks++;
	}
	for (unsigned int i = 0; i < acpi.nr_cpu_aff; i++) {
		int cpu = apic_to_cpu(acpi.cpu_aff[i].apic_id);

		if (acpi.cpu_aff[i].enabled && cpu >= 0)
			fw->cpu_pxm[cpu] = (int)acpi.cpu_aff[i].pxm;
	}
	if (acpi.slit_ok) {
		fw->nr_localities = acpi.slit_localities;
		memcpy(fw->dist, acpi.slit, sizeof(fw->dist));
	}
	return fw->nr_blks > 0;
}
