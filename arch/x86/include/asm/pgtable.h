/*
 * asm/pgtable.h - the kernel's virtual address space above the linear map,
 * and the calls mm/ uses to map pages there.
 *
 *   0xC0000000 .. +max_low   low memory, linear (PSE 4 MiB pages)
 *   VMEMMAP_START (0xF8000000) mem_map, 4 KiB pages from each node
 *   PKMAP_BASE (0xFF800000)  LAST_PKMAP pages for kmap(): long-lived maps
 *   FIXADDR_START .. top     fixed slots: per-CPU kmap_atomic, later the
 *                            local APIC, I/O APIC and ACPI tables
 *
 * Both windows have a page table of their own, allocated at boot, so that
 * mapping a page there is one PTE write and a local TLB flush.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include "asm/page.h"
#include "asm/processor.h"
#include "kernel/kmap_types.h"
#include "kernel/nr_cpus.h"
#include "lib/types.h"

/* mem_map, mapped page by page from each node's memory (mm/init.c). */
#define VMEMMAP_START 0xF8000000UL
#define VMEMMAP_END 0xFC000000UL

#define PKMAP_BASE 0xFF800000UL
#define LAST_PKMAP 1024
#define PKMAP_ADDR(nr) (PKMAP_BASE + ((unsigned long)(nr) << PAGE_SHIFT))
#define PKMAP_NR(virt) (((unsigned long)(virt) - PKMAP_BASE) >> PAGE_SHIFT)

#define FIXADDR_TOP 0xFFFFF000UL
enum fixed_addresses {
	FIX_HOLE,
	FIX_APIC_BASE,	/* the local APIC's registers, uncached */
	FIX_IO_APIC_BASE,	/* the I/O APIC's registers, uncached */
	FIX_KMAP_BEGIN,
	FIX_KMAP_END = FIX_KMAP_BEGIN + KM_TYPE_NR * NR_CPUS - 1,
	__end_of_fixed_addresses,
};
#define __fix_to_virt(x) (FIXADDR_TOP - ((unsigned long)(x) << PAGE_SHIFT))
#define FIXADDR_START __fix_to_virt(__end_of_fixed_addresses - 1)

/*
 * Builds the final kernel page tables: [0, max_low_pfn) linear at
 * PAGE_OFFSET, nothing else of low virtual memory (so NULL faults), the
 * pkmap and fixmap page tables.  Page tables come from alloc_page (mm's
 * boot allocator), which returns a zeroed, page-aligned lowmem page.
 */
void paging_init(unsigned long max_low_pfn, void *(*alloc_page)(void));

/* Maps pfn at a pkmap or fixmap address (present, writable), or clears it. */
void set_kernel_pte(unsigned long vaddr, unsigned long pfn);
/* The same, uncached: for device registers. */
void set_kernel_pte_uncached(unsigned long vaddr, unsigned long pfn);
void clear_kernel_pte(unsigned long vaddr);
/*
 * Maps one 4 KiB page at a kernel address outside the linear map (the
 * vmemmap area), allocating its page table with alloc_page when needed.
 */
void map_kernel_page(unsigned long vaddr, phys_addr_t pa,
		     void *(*alloc_page)(void));

/* The physical address behind a kernel virtual address, or ~0 if none. */
phys_addr_t kernel_page_phys(unsigned long vaddr);

/*
 * Calls fn(pfn, arg) for every page of the kernel's page tables: the page
 * directory, then each page table a present, not-large entry points to,
 * in directory order (for the memory snapshots, mm/snapshot.c).
 */
void arch_for_each_page_table(void (*fn)(unsigned long pfn, void *arg),
			      void *arg);

/* Maps the low 4 MiB 1:1 (for starting CPUs), or removes that mapping. */
void set_identity_low_mapping(bool on);

/* The pfn mapped at a pkmap/fixmap address, or -1 when none. */
long kernel_pte_pfn(unsigned long vaddr);

/* Drops this CPU's cached translation of one kernel page. */
static inline void flush_tlb_kernel_page(unsigned long vaddr)
{
	invlpg(vaddr);
}

#endif /* ASM_PGTABLE_H */
