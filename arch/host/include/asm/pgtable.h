/*
 * asm/pgtable.h (host) - there are no page tables to edit in user space.
 * The arena is smaller than the linear map, so there is no highmem and
 * the kmap windows are never used; mem_map's vmemmap is a reserved range
 * of the host address space into which arena pages are mapped.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include "asm/page.h"
#include "kernel/kmap_types.h"
#include "kernel/nr_cpus.h"
#include "lib/types.h"

extern unsigned long host_vmemmap_start, host_vmemmap_end;
#define VMEMMAP_START host_vmemmap_start
#define VMEMMAP_END host_vmemmap_end

/* The kmap windows exist in name only (no highmem on the host). */
#define PKMAP_BASE (~0UL << 26)
#define LAST_PKMAP 1024
#define PKMAP_ADDR(nr) (PKMAP_BASE + ((unsigned long)(nr) << PAGE_SHIFT))
#define PKMAP_NR(virt) (((unsigned long)(virt) - PKMAP_BASE) >> PAGE_SHIFT)

enum fixed_addresses {
	FIX_HOLE,
	FIX_KMAP_BEGIN,
	FIX_KMAP_END = FIX_KMAP_BEGIN + KM_TYPE_NR * NR_CPUS - 1,
	__end_of_fixed_addresses,
};
#define FIXADDR_TOP (~0UL - PAGE_SIZE + 1)
#define __fix_to_virt(x) (FIXADDR_TOP - ((unsigned long)(x) << PAGE_SHIFT))
#define FIXADDR_START __fix_to_virt(__end_of_fixed_addresses - 1)

void paging_init(unsigned long max_low_pfn, void *(*alloc_page)(void));
void map_kernel_page(unsigned long vaddr, phys_addr_t pa,
		     void *(*alloc_page)(void));
phys_addr_t kernel_page_phys(unsigned long vaddr);
void set_kernel_pte(unsigned long vaddr, unsigned long pfn);
void set_kernel_pte_uncached(unsigned long vaddr, unsigned long pfn);
void clear_kernel_pte(unsigned long vaddr);
long kernel_pte_pfn(unsigned long vaddr);
void set_identity_low_mapping(bool on);
/* The kernel's page tables: the host has none, so fn is never called. */
static inline void arch_for_each_page_table(void (*fn)(unsigned long pfn,
							void *arg),
					    void *arg)
{
}

/* Drops this CPU's cached translation of one kernel page. */
static inline void flush_tlb_kernel_page(unsigned long vaddr)
{
	/* The host has no TLB to flush. */
}

#endif /* ASM_PGTABLE_H */
