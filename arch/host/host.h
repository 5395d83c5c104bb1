/*
 * arch/host/host.h - what the user-space build's files share.
 */
#ifndef ARCH_HOST_HOST_H
#define ARCH_HOST_HOST_H

/* Maps bytes of "physical memory" and reserves the vmemmap range. */
void host_memory_init(unsigned long bytes);
struct boot_info;
/* A PC-like boot_info for mem_bytes of arena and this command line. */
struct boot_info *host_boot_info(unsigned long mem_bytes, const char *cmdline);

/* The number of "CPUs" (threads) the run was asked for. */
extern unsigned int host_nr_cpus;

/* Publishes this CPU thread's pending-interrupt word (arch/host/irq.c). */
void host_irq_init_this_cpu(void);

#endif
