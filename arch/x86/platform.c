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
 * What the tables mean (the CPU numbering, each CPU's and each memory
 * range's domain) is arch/x86/acpi_layout.c's.  No MADT means one CPU; no
 * SRAT, one node.
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
	if (!acpi.madt_ok)
		pr_info("smpboot: no usable MADT: one CPU\n");
	nr_cpu_ids = acpi_number_cpus(&acpi, boot_cpu_apic_id(), max_cpus,
				      cpu_apic_id);
	if (!acpi.madt_ok)
		return;
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

bool arch_firmware_numa(struct fw_numa *fw)
{
	return acpi_fw_numa(&acpi, cpu_apic_id, nr_cpu_ids, fw);
}
