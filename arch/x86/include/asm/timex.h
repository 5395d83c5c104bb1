/*
 * asm/timex.h - the cycle counter, for benchmarks and the printk clock.
 */
#ifndef ASM_TIMEX_H
#define ASM_TIMEX_H

#include "asm/processor.h"

typedef u64 cycles_t;

static inline cycles_t get_cycles(void)
{
	return rdtsc_ordered();
}

#endif /* ASM_TIMEX_H */
