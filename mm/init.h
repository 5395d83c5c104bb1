#ifndef MM_INIT_H
#define MM_INIT_H

#include "kernel/multiboot.h"
#include "mm/mmzone.h"

/* Sets up memblock, paging, mem_map, zones and the buddy allocator. */
void mm_core_init(const struct boot_info *bi);

/* Pages of RAM reserved at boot in each zone (kernel, firmware, mem_map). */
extern unsigned long boot_reserved_pages[MAX_NUMNODES][MAX_NR_ZONES];

/*
 * Start-up cost in cycle-counter (TSC) cycles, for the bench_page suite:
 * the whole of mm_core_init() (console output included), and its
 * memblock_free_all() call with the number of pages that call released.
 */
extern u64 mm_init_cycles, free_all_cycles;
extern unsigned long free_all_pages;

#endif
