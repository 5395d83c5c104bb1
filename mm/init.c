/*
 * mm/init.c - from the firmware's memory map to a running page allocator.
 *
 * The order matters and is Linux's:
 *   1. e820 (already sanitised and edited by mem=/memmap=) fills memblock
 *      with RAM and reserves everything else;
 *   2. what must never be handed out is reserved: page 0, the BIOS area
 *      0x9F000-0x100000 (EBDA, VGA, ROMs), the kernel image, and the
 *      boot loader's data (info block, map, command line, modules);
 *   3. max_pfn and max_low_pfn are fixed, the page tables rebuilt for
 *      exactly that much low memory, and mem_map allocated from memblock;
 *   4. nodes and zones are laid over the pfn range, zonelists built;
 *   5. memblock_free_all() hands every free page to the buddy allocator;
 *   6. watermarks and lowmem reserves are computed from the zone sizes.
 * After that memblock is closed and alloc_pages() is the only allocator.
 */
#include "asm/pgtable.h"
#include "asm/timex.h"
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

#define BIOS_AREA_START 0x9F000
#define BIOS_AREA_END 0x100000
#define PFN_UP(x) ((unsigned long)(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT))
#define PFN_DOWN(x) ((unsigned long)((x) >> PAGE_SHIFT))
#define PFN_PHYS(x) ((phys_addr_t)(x) << PAGE_SHIFT)
#define FOUR_GB (1ULL << 32)

unsigned long boot_reserved_pages[MAX_NR_ZONES];

/* Start-up cost, for the bench_page suite (see mm/init.h). */
u64 mm_init_cycles, free_all_cycles;
unsigned long free_all_pages;

static void reserve_boot_ranges(const struct boot_info *bi)
{
	memblock_reserve(0, PAGE_SIZE);
	memblock_reserve(BIOS_AREA_START, BIOS_AREA_END - BIOS_AREA_START);
	memblock_reserve(__pa(__kernel_phys_start + PAGE_OFFSET),
			 (phys_addr_t)(__kernel_phys_end - __kernel_phys_start));
	for (unsigned int i = 0; i < bi->nr_reserved; i++) {
		const struct boot_range *r = &bi->reserved[i];

		if (r->end > r->start)
			memblock_reserve(r->start, r->end - r->start);
	}
}

/* Whole pages of RAM in [start, end): the zones' present_pages. */
static unsigned long ram_pages_in(unsigned long start, unsigned long end)
{
	unsigned long n = 0;

	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];
		unsigned long s = max(PFN_UP(r->base), start);
		unsigned long e = min(PFN_DOWN(r->base + r->size), end);

		if (e > s)
			n += e - s;
	}
	return n;
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
				boot_reserved_pages[j]++;
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
		(unsigned long)(__data_end - __data_start) >> 10,
		(unsigned long)(__rodata_end - __rodata_start) >> 10,
		(unsigned long)(__bss_end - __bss_start) >> 10,
		(present - managed) * k, high * k);
}

static void *boot_alloc_page(void)
{
	return memblock_alloc(PAGE_SIZE, PAGE_SIZE);
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

	mem_map = memblock_alloc((phys_addr_t)max_pfn * sizeof(struct page),
				 PAGE_SIZE);
	if (!mem_map)
		panic("no memory for mem_map (%lu pages)", max_pfn);
	for (unsigned long pfn = 0; pfn < max_pfn; pfn++) {
		__SetPageReserved(&mem_map[pfn]);
		set_page_count(&mem_map[pfn], 1);
	}

	limit[ZONE_DMA] = min(MAX_DMA_PFN, max_pfn);
	limit[ZONE_NORMAL] = max_low_pfn;
	limit[ZONE_HIGHMEM] = max_pfn;
	print_zone_ranges(limit);
	pr_info("Initmem setup node 0 [mem %#018llx-%#018llx]\n", 0ULL,
		(unsigned long long)PFN_PHYS(max_pfn) - 1);
	free_area_init_node(0, 0, max_pfn, limit, ram_pages_in);
	pr_info("On node 0 totalpages: %lu\n", NODE_DATA(0)->node_present_pages);
	for_each_zone_in_node(z, NODE_DATA(0))
		if (populated_zone(z))
			pr_info("  %s zone: %lu pages, LIFO batch:%u\n", z->name,
				z->present_pages, zone_batchsize(z));
	build_all_zonelists();

	memblock_dump_all();
	count_reserved(limit);
	t_free = get_cycles();
	free_all_pages = memblock_free_all();
	free_all_cycles = get_cycles() - t_free;

	for_each_zone_in_node(z, NODE_DATA(0))
		if (!is_highmem(z))
			lowmem_pages += z->present_pages;
	min_free_kbytes = calculate_min_free_kbytes(lowmem_pages);
	setup_per_zone_pages_min();
	setup_per_zone_lowmem_reserve();
	print_memory_line();
	mm_init_cycles = get_cycles() - t_init;
}
