/*
 * asm/timex.h (host) - the cycle counter is the host's TSC.
 */
#ifndef ASM_TIMEX_H
#define ASM_TIMEX_H

#include <x86intrin.h>
#include "lib/types.h"

typedef u64 cycles_t;

static inline cycles_t get_cycles(void)
{
	return __rdtsc();
}

#endif /* ASM_TIMEX_H */
