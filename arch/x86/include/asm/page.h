/*
 * asm/page.h - page size and the linear map of low memory.
 *
 * Physical [0, 896 MiB) is mapped at PAGE_OFFSET; __va/__pa convert within
 * it.  Neither checks its argument: callers that hold an arbitrary
 * physical address use the checked helpers of mm/.
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include "lib/types.h"

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_OFFSET 0xC0000000UL
#define MAXMEM (896UL << 20) /* the most low memory the linear map holds */
#define L1_CACHE_BYTES 64

#define __pa(x) ((phys_addr_t)((unsigned long)(x) - PAGE_OFFSET))
#define __va(x) ((void *)((unsigned long)(x) + PAGE_OFFSET))

#endif /* ASM_PAGE_H */
