/*
 * arch/x86/smp.h - what the PC's CPU start-up files share.
 */
#ifndef ARCH_X86_SMP_H
#define ARCH_X86_SMP_H

#include "kernel/nr_cpus.h"
#include "lib/types.h"

/* The local APIC id of each CPU number (arch/x86/platform.c). */
extern unsigned int cpu_apic_id[NR_CPUS];
/* Where the local APICs' registers are (MADT, or the architectural default). */
extern u32 lapic_phys_base;

#endif
