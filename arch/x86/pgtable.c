/*
 * arch/x86/pgtable.c - the kernel page tables after boot.
 *
 * boot/entry.S mapped 896 MiB with 4 MiB pages, whether or not RAM is
 * there.  paging_init() replaces that with the real thing in the same page
 * directory: low memory up to max_low_pfn mapped linearly (4 MiB pages
 * where a whole 4 MiB is below the end, a 4 KiB page table for the rest),
 * every other kernel PDE cleared, and page tables for the pkmap window and
 * the fixmap slots.  A stray pointer past the end of RAM now faults
 * instead of reading whatever the chipset returns.
 *
 * Only the boot CPU exists when this runs; later changes go through
 * set_kernel_pte(), which flushes the local TLB entry.
 */
#include "asm/pgtable.h"
#include "asm/processor.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define PTE_P 0x001
#define PTE_RW 0x002
#define PTE_PWT 0x008
#define PTE_PCD 0x010
#define PDE_PS 0x080
#define PTRS_PER_PTE 1024
#define PGDIR_SHIFT 22
#define PGDIR_SIZE (1UL << PGDIR_SHIFT)

extern u32 boot_page_dir[1024];

static inline unsigned int pgd_index(unsigned long vaddr)
{
	return (unsigned int)(vaddr >> PGDIR_SHIFT);
}

static u32 *alloc_page_table(void *(*alloc_page)(void))
{
	u32 *pt = alloc_page();

	if (!pt)
		panic("paging_init: no memory for a page table");
	return pt;
}

/* The page table behind a kernel address in the pkmap/fixmap range. */
static u32 *pte_ptr(unsigned long vaddr)
{
	u32 pde = boot_page_dir[pgd_index(vaddr)];

	BUG_ON(!(pde & PTE_P) || (pde & PDE_PS));
	return (u32 *)__va(pde & PAGE_MASK) +
	       ((vaddr >> PAGE_SHIFT) & (PTRS_PER_PTE - 1));
}

void paging_init(unsigned long max_low_pfn, void *(*alloc_page)(void))
{
	phys_addr_t end = (phys_addr_t)max_low_pfn << PAGE_SHIFT;
	phys_addr_t full = end & ~((phys_addr_t)PGDIR_SIZE - 1);
	u32 *tail_pt = NULL, *pkmap_pt, *fixmap_pt;

	BUG_ON(end > MAXMEM);
	/* Allocate first: the boot mapping still covers memblock's memory. */
	if (full < end)
		tail_pt = alloc_page_table(alloc_page);
	pkmap_pt = alloc_page_table(alloc_page);
	fixmap_pt = alloc_page_table(alloc_page);

	for (unsigned int i = pgd_index(PAGE_OFFSET); i < 1024; i++)
		boot_page_dir[i] = 0;
	for (phys_addr_t pa = 0; pa < full; pa += PGDIR_SIZE)
		boot_page_dir[pgd_index(PAGE_OFFSET + (unsigned long)pa)] =
			(u32)pa | PDE_PS | PTE_RW | PTE_P;
	if (tail_pt) {
		for (unsigned int j = 0; full + ((phys_addr_t)j << PAGE_SHIFT) < end; j++)
			tail_pt[j] = (u32)(full + ((phys_addr_t)j << PAGE_SHIFT)) |
				     PTE_RW | PTE_P;
		boot_page_dir[pgd_index(PAGE_OFFSET + (unsigned long)full)] =
			(u32)__pa(tail_pt) | PTE_RW | PTE_P;
	}
	BUILD_BUG_ON((PKMAP_BASE >> PGDIR_SHIFT) == (FIXADDR_START >> PGDIR_SHIFT));
	BUILD_BUG_ON(LAST_PKMAP != PTRS_PER_PTE);
	boot_page_dir[pgd_index(PKMAP_BASE)] = (u32)__pa(pkmap_pt) | PTE_RW | PTE_P;
	boot_page_dir[pgd_index(FIXADDR_START)] =
		(u32)__pa(fixmap_pt) | PTE_RW | PTE_P;
	write_cr3(read_cr3());
	pr_info("paging: low memory mapped at %#lx-%#lx, pkmap at %#lx, fixmap at %#lx\n",
		PAGE_OFFSET, PAGE_OFFSET + (unsigned long)end - 1, PKMAP_BASE,
		FIXADDR_START);
}

void set_kernel_pte(unsigned long vaddr, unsigned long pfn)
{
	*pte_ptr(vaddr) = (u32)(pfn << PAGE_SHIFT) | PTE_RW | PTE_P;
	invlpg(vaddr);
}

void set_kernel_pte_uncached(unsigned long vaddr, unsigned long pfn)
{
	*pte_ptr(vaddr) = (u32)(pfn << PAGE_SHIFT) | PTE_PCD | PTE_PWT | PTE_RW |
			  PTE_P;
	invlpg(vaddr);
}

void clear_kernel_pte(unsigned long vaddr)
{
	*pte_ptr(vaddr) = 0;
	invlpg(vaddr);
}

long kernel_pte_pfn(unsigned long vaddr)
{
	u32 pte = *pte_ptr(vaddr);

	return (pte & PTE_P) ? (long)(pte >> PAGE_SHIFT) : -1;
}

/*
 * Reads the live directory: entries change only at boot and in the
 * pkmap/fixmap tables (whose directory entries stay), so a walk at any
 * time sees the same page tables.
 */
void arch_for_each_page_table(void (*fn)(unsigned long pfn, void *arg),
			      void *arg)
{
	fn((unsigned long)(__pa(boot_page_dir) >> PAGE_SHIFT), arg);
	for (unsigned int i = 0; i < 1024; i++) {
		u32 pde = READ_ONCE(boot_page_dir[i]);

		if ((pde & PTE_P) && !(pde & PDE_PS))
			fn((unsigned long)(pde >> PAGE_SHIFT), arg);
	}
}

/*
 * While application processors start they run their first instructions
 * with paging just enabled at a low physical address, so the low 4 MiB
 * must be mapped 1:1 for that moment.  Off again as soon as they are up:
 * a NULL pointer must fault.
 */
void set_identity_low_mapping(bool on)
{
	boot_page_dir[0] = on ? (0 | PDE_PS | PTE_RW | PTE_P) : 0;
	write_cr3(read_cr3());
}

void map_kernel_page(unsigned long vaddr, phys_addr_t pa,
		     void *(*alloc_page)(void))
{
	u32 *pde = &boot_page_dir[pgd_index(vaddr)];

	BUG_ON(*pde & PDE_PS);
	if (!(*pde & PTE_P))
		*pde = (u32)__pa(alloc_page_table(alloc_page)) | PTE_RW | PTE_P;
	*pte_ptr(vaddr) = (u32)pa | PTE_RW | PTE_P;
	invlpg(vaddr);
}

phys_addr_t kernel_page_phys(unsigned long vaddr)
{
	u32 pde = boot_page_dir[pgd_index(vaddr)], pte;

	if (!(pde & PTE_P))
		return ~0ULL;
	if (pde & PDE_PS)
		return (pde & ~(PGDIR_SIZE - 1)) + (vaddr & (PGDIR_SIZE - 1));
	pte = ((u32 *)__va(pde & PAGE_MASK))[(vaddr >> PAGE_SHIFT) &
					     (PTRS_PER_PTE - 1)];
	if (!(pte & PTE_P))
		return ~0ULL;
	return (pte & PAGE_MASK) + (vaddr & ~PAGE_MASK);
}
