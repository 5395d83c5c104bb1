/*
 * arch/host/memory.c - physical memory for the user-space build.
 *
 * RAM is a memfd the size of the machine, mapped once as the linear map
 * (physical address = offset in the file).  mem_map's vmemmap is a range
 * of address space reserved at start-up; mapping a "physical" page there
 * maps the same file page a second time, so a struct page written through
 * either address is the same memory, as with real page tables.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "asm/pgtable.h"
#include "kernel/bug.h"
#include "arch/host/host.h"

#define VMEMMAP_RESERVE (64UL << 20)

unsigned long host_page_offset;
unsigned long host_vmemmap_start, host_vmemmap_end;
static int ram_fd = -1;
static unsigned long ram_bytes;
static phys_addr_t vmemmap_pa[VMEMMAP_RESERVE / 4096];

void host_memory_init(unsigned long bytes)
{
	void *ram, *vm;

	ram_fd = memfd_create("mm86-ram", 0);
	if (ram_fd < 0 || ftruncate(ram_fd, (off_t)bytes) != 0) {
		perror("mm86-host: memfd");
		exit(2);
	}
	ram = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, ram_fd, 0);
	vm = mmap(NULL, VMEMMAP_RESERVE, PROT_NONE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ram == MAP_FAILED || vm == MAP_FAILED) {
		perror("mm86-host: mmap");
		exit(2);
	}
	ram_bytes = bytes;
	host_page_offset = (unsigned long)ram;
	host_vmemmap_start = (unsigned long)vm;
	host_vmemmap_end = host_vmemmap_start + VMEMMAP_RESERVE;
}

void paging_init(unsigned long max_low_pfn, void *(*alloc_page)(void))
{
}

void map_kernel_page(unsigned long vaddr, phys_addr_t pa,
		     void *(*alloc_page)(void))
{
	BUG_ON(vaddr < host_vmemmap_start || vaddr >= host_vmemmap_end);
	if (mmap((void *)vaddr, PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, ram_fd, (off_t)pa) == MAP_FAILED) {
		perror("mm86-host: vmemmap");
		exit(2);
	}
	vmemmap_pa[(vaddr - host_vmemmap_start) >> PAGE_SHIFT] = pa;
}

phys_addr_t kernel_page_phys(unsigned long vaddr)
{
	if (vaddr >= host_page_offset && vaddr - host_page_offset < ram_bytes)
		return vaddr - host_page_offset;
	if (vaddr >= host_vmemmap_start && vaddr < host_vmemmap_end)
		return vmemmap_pa[(vaddr - host_vmemmap_start) >> PAGE_SHIFT] +
		       (vaddr & ~PAGE_MASK);
	return ~0ULL;
}

/* No highmem on the host: nothing is ever mapped in the kmap windows. */
void set_kernel_pte(unsigned long vaddr, unsigned long pfn)
{
	BUG();
}

void set_kernel_pte_uncached(unsigned long vaddr, unsigned long pfn)
{
	BUG();
}

void clear_kernel_pte(unsigned long vaddr)
{
	BUG();
}

long kernel_pte_pfn(unsigned long vaddr)
{
	return -1;
}

void set_identity_low_mapping(bool on)
{
}
