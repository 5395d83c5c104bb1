/*
 * mm/init.c - from the firmware's memory map to a running page allocator.
 *
 * The order matters and is Linux's (i386 2.6's, with memblock standing in
 * for bootmem; not checked line by line against a release):
 *   1. e820 (already sanitised and edited by mem=/memmap=) fills memblock
 *      with RAM and reserves everything else;
 *   2. what must never be handed out is reserved: page 0, the BIOS area
 *      0x9F000-0x100000 (EBDA, VGA, ROMs), the kernel image, and the
 *      boot loader's data (info block, map, command line, modules);
 *   3. max_pfn and max_low_pfn are fixed, the page tables rebuilt for
 *      exactly that much low memory, and mem_map allocated from memblock;
 *   4. nodes and zones are laid over the pfn range, zonelists built;
 *   5. memblock_free_all() hands every free page to the buddy allocator;
 *   6. watermarks and lowmem reserves are computed from the zone sizes
 *      (2.6.11's init_per_zone_pages_min, after the pages are free).
 * After that memblock is closed and alloc_pages() is the only allocator.
 */
#include "asm/pgtable.h"
#include "asm/timex.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/sections.h"
#include "lib/string.h"
#include "mm/e820.h"
#include "mm/init.h"
#include "mm/internal.h"
#include "mm/memblock.h"
#include "mm/mmzone.h"
#include "mm/topology.h"

#define BIOS_AREA_START 0x9F000
#define BIOS_AREA_END 0x100000
#define PFN_PHYS(x) ((phys_addr_t)(x) << PAGE_SHIFT)
#define FOUR_GB (1ULL << 32)
#define LOW_1MB 0x100000

unsigned long boot_reserved_pages[MAX_NUMNODES][MAX_NR_ZONES];

/* Start-up cost, for the bench_page suite (see mm/init.h). */
u64 mm_init_cycles, free_all_cycles;
unsigned long free_all_pages;

static void reserve_boot_ranges(const struct boot_info *bi)
{
	phys_addr_t kstart, kend;

	arch_kernel_image(&kstart, &kend);
	memblock_reserve(0, PAGE_SIZE);
	memblock_reserve(BIOS_AREA_START, BIOS_AREA_END - BIOS_AREA_START);
	if (kend > kstart)
		memblock_reserve(kstart, kend - kstart);
	for (unsigned int i = 0; i < bi->nr_reserved; i++) {
		const struct boot_range *r = &bi->reserved[i];

		if (r->end > r->start)
			memblock_reserve(r->start, r->end - r->start);
	}
}

/* Whole pages of node nid's RAM in [start, end): a zone's present_pages. */
static unsigned long ram_pages_in(int nid, unsigned long start,
				  unsigned long end)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = max(PFN_UP(r->base), start);
		unsigned long e = min(PFN_DOWN(r->base + r->size), end);

		if (r->nid == nid && e > s)
			n += e - s;
	}
	return n;
}

/* The pfn span of node nid's RAM below max_pfn: [*start, *end). */
static bool node_span(int nid, unsigned long *start, unsigned long *end)
{
	*start = ~0UL;
	*end = 0;
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (r->nid != nid || PFN_DOWN(r->base) >= max_pfn)
			continue;
		*start = min(*start, PFN_DOWN(r->base));
		*end = max(*end, min(PFN_UP(r->base + r->size), max_pfn));
	}
	return *end > *start;
}

static void print_zone_ranges(const unsigned long *limit)
{
	unsigned long start = 0;

	pr_info("Zone ranges:\n");
	for (int j = 0; j < MAX_NR_ZONES; j++) {
		unsigned long end = min(limit[j], max_pfn);

		if (end > start)
			pr_info("  %-8s [mem %#018llx-%#018llx]\n", zone_names[j],
				(unsigned long long)PFN_PHYS(start),
				(unsigned long long)PFN_PHYS(end) - 1);
		else
			pr_info("  %-8s empty\n", zone_names[j]);
		start = max(start, end);
	}
	pr_info("Early memory node ranges\n");
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = PFN_UP(r->base), e = PFN_DOWN(r->base + r->size);

		if (e > s && s < max_pfn)
			pr_info("  node %3d: [mem %#018llx-%#018llx]\n", r->nid,
				(unsigned long long)PFN_PHYS(s),
				(unsigned long long)PFN_PHYS(min(e, max_pfn)) - 1);
	}
}

/*
 * Whole RAM pages that memblock keeps reserved, per zone, counted before
 * memblock closes (the zone suite checks managed = present - these).  A
 * page is reserved if any reserved byte lies in it; two regions that share
 * a page count it once (regions are sorted, so remembering the last pfn
 * counted is enough).
 */
static int pfn_node(unsigned long pfn)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		if (PFN_PHYS(pfn) >= r->base && PFN_PHYS(pfn) < r->base + r->size)
			return r->nid;
	}
	return 0;
}

static void count_reserved(const unsigned long *limit)
{
	unsigned long next = 0; /* first pfn not yet counted */

	for (unsigned long i = 0; i < memblock.reserved.cnt; i++) {
		const struct memblock_region *r = &memblock.reserved.regions[i];
		unsigned long s = max(PFN_DOWN(r->base), next);
		unsigned long e = min(PFN_UP(r->base + r->size), max_pfn);

		for (unsigned long pfn = s; pfn < e; pfn++) {
			int j = pfn < limit[ZONE_DMA] ? ZONE_DMA :
				pfn < limit[ZONE_NORMAL] ? ZONE_NORMAL :
							   ZONE_HIGHMEM;

			if (memblock_is_region_memory(PFN_PHYS(pfn), PAGE_SIZE))
				boot_reserved_pages[pfn_node(pfn)][j]++;
		}
		next = max(next, e);
	}
}

static void print_memory_line(void)
{
	unsigned long present = 0, managed = 0, high = 0;
	unsigned long k = PAGE_SIZE >> 10;
	struct zone *z;
	int nid;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			present += z->present_pages;
			managed += z->managed_pages;
			if (is_highmem(z))
				high += z->managed_pages;
		}
	pr_info("Memory: %luK/%luK available (%luK kernel code, %luK rwdata, %luK rodata, %luK bss, %luK reserved, %luK highmem)\n",
		managed * k, present * k,
		(unsigned long)(__text_end - __text_start) >> 10,
		(unsigned long)(__rwdata_end - __rwdata_start) >> 10,
		(unsigned long)(__rodata_end - __rodata_start) >> 10,
		(unsigned long)(__kbss_end - __kbss_start) >> 10,
		(present - managed) * k, high * k);
}

static void *boot_alloc_page(void)
{
	return memblock_alloc(PAGE_SIZE, PAGE_SIZE);
}

/*
 * mem_map lives at a fixed virtual address (VMEMMAP_START), mapped page by
 * page, so that each node's part of it can sit in that node's own memory
 * while pfn_to_page() stays one addition.  A page of mem_map describes
 * 128 frames; it comes from the node of the first of them when that node
 * has low memory to spare, from anywhere in low memory otherwise.
 */
static void vmemmap_populate(void)
{
	unsigned long bytes = ALIGN(max_pfn * sizeof(struct page), PAGE_SIZE);

	if (VMEMMAP_START + bytes > VMEMMAP_END)
		panic("mem_map of %lu pages does not fit the vmemmap area", max_pfn);
	for (unsigned long off = 0; off < bytes; off += PAGE_SIZE) {
		unsigned long pfn = off / sizeof(struct page), start, end;
		int nid = pfn_node(pfn);
		phys_addr_t pa = 0;

		if (node_span(nid, &start, &end))
			pa = memblock_phys_alloc_range(PAGE_SIZE, PAGE_SIZE,
						       PFN_PHYS(start),
						       PFN_PHYS(min(end, max_low_pfn)));
		if (!pa)
			pa = memblock_phys_alloc(PAGE_SIZE, PAGE_SIZE);
		if (!pa)
			panic("no memory for mem_map");
		memset(__va((unsigned long)pa), 0, PAGE_SIZE);
		map_kernel_page(VMEMMAP_START + off, pa, boot_alloc_page);
	}
	mem_map = (struct page *)VMEMMAP_START;
}

void mm_core_init(const struct boot_info *bi)
{
	unsigned long limit[MAX_NR_ZONES];
	phys_addr_t end;
	unsigned long lowmem_pages = 0;
	struct zone *z;
	cycles_t t_init = get_cycles(), t_free;

	e820__memblock_setup();
	reserve_boot_ranges(bi);
	arch_set_trampoline_page(memblock_phys_alloc_range(PAGE_SIZE, PAGE_SIZE,
							   PAGE_SIZE, LOW_1MB));
	numa_init();

	end = memblock_end_of_DRAM();
	if (end > FOUR_GB)
		end = FOUR_GB;
	max_pfn = PFN_DOWN(end);
	max_low_pfn = min(max_pfn, (unsigned long)(MAXMEM >> PAGE_SHIFT));
	if (max_pfn > max_low_pfn)
		pr_info("%luMB HIGHMEM available.\n",
			(max_pfn - max_low_pfn) >> (20 - PAGE_SHIFT));
	pr_info("%luMB LOWMEM available.\n", max_low_pfn >> (20 - PAGE_SHIFT));
	memblock_set_current_limit(PFN_PHYS(max_low_pfn));
	paging_init(max_low_pfn, boot_alloc_page);

	vmemmap_populate();
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		__SetPageReserved(&mem_map[pfn]);
		set_page_count(&mem_map[pfn], 1);
	}

	limit[ZONE_DMA] = min(MAX_DMA_PFN, max_pfn);
	limit[ZONE_NORMAL] = max_low_pfn;
	limit[ZONE_HIGHMEM] = max_pfn;
	print_zone_ranges(limit);
	for (int nid = 0; nid < nr_online_nodes; nid++) {
		unsigned long start, end;

		if (!node_span(nid, &start, &end))
			start = end = 0;
		pr_info("Initmem setup node %d [mem %#018llx-%#018llx]\n", nid,
			(unsigned long long)PFN_PHYS(start),
			(unsigned long long)PFN_PHYS(end) - 1);
		free_area_init_node(nid, start, end, limit, ram_pages_in);
		pr_info("On node %d totalpages: %lu\n", nid,
			NODE_DATA(nid)->node_present_pages);
		for_each_zone_in_node(z, NODE_DATA(nid))
			if (populated_zone(z))
				pr_info("  %s zone: %lu pages, LIFO batch:%u\n",
					z->name, z->present_pages,
					zone_batchsize(z));
	}
	build_all_zonelists();

	memblock_dump_all();
	count_reserved(limit);
	t_free = get_cycles();
	free_all_pages = memblock_free_all();
	free_all_cycles = get_cycles() - t_free;

	for (int nid = 0; nid < nr_online_nodes; nid++)
		for_each_zone_in_node(z, NODE_DATA(nid))
			if (!is_highmem(z))
				lowmem_pages += z->present_pages;
	min_free_kbytes = calculate_min_free_kbytes(lowmem_pages);
	setup_per_zone_pages_min();
	setup_per_zone_lowmem_reserve();
	setup_per_zone_pcp_high();
	print_memory_line();
	mm_init_cycles = get_cycles() - t_init;
}
