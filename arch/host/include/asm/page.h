/*
 * asm/page.h (host) - "physical memory" is an arena the host program maps
 * (arch/host/memory.c); physical address 0 is its first byte, and the
 * linear map is the arena's own mapping at host_page_offset.
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include "lib/types.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define MAXMEM (896UL << 20)
#define L1_CACHE_BYTES 64

extern unsigned long host_page_offset;
#define PAGE_OFFSET host_page_offset

#define __pa(x) ((phys_addr_t)((unsigned long)(x) - PAGE_OFFSET))
#define __va(x) ((void *)((unsigned long)(x) + PAGE_OFFSET))

#endif /* ASM_PAGE_H */
