/*
 * asm/processor.h (host) - spinning politely: the "CPUs" are threads that
 * may outnumber the host's cores, so a spinner yields.
 */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include "lib/types.h"

void host_cpu_relax(void);

static inline void cpu_relax(void)
{
	host_cpu_relax();
}

#endif /* ASM_PROCESSOR_H */
