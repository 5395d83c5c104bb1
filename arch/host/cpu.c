/*
 * arch/host/cpu.c - CPUs are threads.
 *
 * Thread n is CPU n: host_cpu (thread-local) is its number, so
 * smp_processor_id() and this_cpu_ptr() work as in the kernel, and
 * host_irq_flags is its interrupt flag.  The boot thread is CPU 0; the
 * others are started by arch_smp_boot_cpus() and become their CPU's idle
 * task (cpu_idle), which runs kernel threads as they are woken there.
 * An IPI is a bit in the CPU's pending word (arch/host/irq.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "arch/host/host.h"
#include "asm/irqflags.h"
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/string.h"

__thread int host_cpu;
__thread bool host_irq_flags;
unsigned int host_nr_cpus = 1;

/*
 * Pauses between two sched_yield()s of a spinning "CPU".  While there are
 * no more CPU threads than host cores, a spinner spins as a CPU would:
 * the thread it waits for has a core of its own, and a yield (a system
 * call, microseconds under a hypervisor) would only make it late for its
 * turn of a ticket lock.  With more CPU threads than cores, the thread
 * it waits for may be waiting for a core: it yields soon.
 */
static unsigned int spins_per_yield = 64;

/* Spin politely: a pause most of the time, the CPU given up now and then. */
void host_cpu_relax(void)
{
	/* The CPU's, shared by its tasks and its handlers (which spin too). */
	static __thread unsigned int spins;

	if (host_irq_flag() & HOST_IRQ_ENABLED)
		host_irq_check();
	if (__atomic_add_fetch(&spins, 1, __ATOMIC_RELAXED) % spins_per_yield)
		__builtin_ia32_pause();
	else
		sched_yield();
}

void arch_platform_init(const struct boot_info *bi, unsigned int max_cpus)
{
	host_irq_init_this_cpu();
	nr_cpu_ids = min(host_nr_cpus, max_cpus ? max_cpus : 1);
	if (nr_cpu_ids > NR_CPUS)
		nr_cpu_ids = NR_CPUS;
	if (nr_cpu_ids <= (unsigned int)sysconf(_SC_NPROCESSORS_ONLN))
		spins_per_yield = 4096;
	pr_info("host: %u CPUs (threads)\n", nr_cpu_ids);
}

bool arch_firmware_numa(struct fw_numa *fw)
{
	memset(fw, 0, sizeof(*fw));
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		fw->cpu_pxm[cpu] = -1;
	return false;
}

void arch_set_percpu_base(int cpu, unsigned long base)
{
	/* The thread reads __per_cpu_offset[host_cpu] itself. */
}

void arch_set_trampoline_page(phys_addr_t pa)
{
}

static void *cpu_thread(void *arg)
{
	host_cpu = (int)(long)arg;
	host_set_irq_flag(0);
	host_irq_init_this_cpu();
	set_bit((unsigned long)host_cpu, cpu_online_bits);
	cpu_idle();
	return NULL;
}

void arch_smp_boot_cpus(void *(*alloc_stack)(int cpu, size_t size))
{
	for (unsigned int cpu = 1; cpu < nr_cpu_ids; cpu++) {
		pthread_t th;

		if (pthread_create(&th, NULL, cpu_thread, (void *)(long)cpu)) {
			pr_err("host: cannot start CPU %u\n", cpu);
			break;
		}
		pthread_detach(th);
		while (!cpu_online((int)cpu))
			host_cpu_relax();
		pr_info("smpboot: CPU %u is up (thread)\n", cpu);
	}
}

void arch_stop_this_cpu(void)
{
	for (;;)
		pause();
}
