/*
 * arch/host/host.h - what the user-space build's files share.
 */
#ifndef ARCH_HOST_HOST_H
#define ARCH_HOST_HOST_H

#include "lib/types.h"

/* Maps bytes of "physical memory" and reserves the vmemmap range. */
void host_memory_init(unsigned long bytes);
struct boot_info;
/* A PC-like boot_info for mem_bytes of arena and this command line. */
struct boot_info *host_boot_info(unsigned long mem_bytes, const char *cmdline);

/* The number of "CPUs" (threads) the run was asked for. */
extern unsigned int host_nr_cpus;

/*
 * When set, a run that ends in failure (a panic, a failed check) aborts
 * instead of exiting: a fuzzer sees a crash and keeps the input.
 */
extern bool host_exit_aborts;

/* Publishes this CPU thread's pending-interrupt word (arch/host/irq.c). */
void host_irq_init_this_cpu(void);

#endif
