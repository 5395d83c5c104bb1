/*
 * kernel/smp.h - CPUs: who am I, who else is there, and asking them to
 * run something.
 *
 * CPU numbers are dense, 0 (the boot CPU) to nr_cpu_ids - 1, assigned in
 * the firmware's (MADT) order; the arch maps them to APIC ids.  A CPU is
 * possible when the firmware lists it and the command line allows it
 * (nosmp, maxcpus=N), online once it has started and said so.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "lib/bitops.h"
#include "lib/compiler.h"

DECLARE_PER_CPU(int, cpu_number);

/*
 * The CPU this code runs on.  raw_smp_processor_id() is for code that
 * knows the answer may be stale by the time it is used (a statistic, a
 * hint) or that cannot be preempted for a reason the checks do not see.
 */
static inline int raw_smp_processor_id(void)
{
#ifdef arch_raw_smp_processor_id
	return arch_raw_smp_processor_id();
#else
	return arch_this_cpu_read_4(cpu_number);
#endif
}

/*
 * smp_processor_id() is for code that may not be preempted: preemption
 * or interrupts off, or in an interrupt.  Once the scheduler runs and
 * while the validator is on (kernel/lockdep.h), a call from preemptible
 * code (preempt_count() 0, interrupts on) prints Linux's
 * "BUG: using smp_processor_id() in preemptible [00000000] code:
 * NAME/PID" with a stack, once per call site, and carries on
 * (CONFIG_DEBUG_PREEMPT, 2.6.18).  Tasks never migrate in mm86, so the
 * number itself stays right; what the check finds is the read-modify-
 * write of per-CPU data it is usually for, which another task on this
 * CPU can preempt half done.  Linux's exemption of tasks bound to one
 * CPU would exempt everything here and is not copied.
 */
extern bool debug_preempt_checks;	/* set once, read with READ_ONCE */
void debug_smp_processor_id(const char *what, bool *reported);
/* Arms the check, when the validator is on (kernel_init, scheduler up). */
void debug_preempt_init(void);
/* Preemptible calls so far, each reported or not (for the tests). */
unsigned long nr_preemptible_reports(void);

#define __check_preemptible(what)                                           \
	do {                                                                 \
		static bool __reported;                                      \
		if (unlikely(READ_ONCE(debug_preempt_checks)) &&             \
		    preempt_count() == 0)                                    \
			debug_smp_processor_id(what, &__reported);           \
	} while (0)

#define smp_processor_id()                                                  \
	({                                                                   \
		__check_preemptible("smp_processor_id");                     \
		raw_smp_processor_id();                                      \
	})

/* This CPU's number, with preemption off until put_cpu(). */
#define get_cpu()                                                           \
	({                                                                   \
		preempt_disable();                                           \
		smp_processor_id();                                          \
	})
#define put_cpu() preempt_enable()

extern unsigned int nr_cpu_ids;		/* possible CPUs */
/* nosmp (1) or maxcpus=N: the most CPUs to bring up. */
extern unsigned int setup_max_cpus;
extern unsigned long cpu_online_bits[BITS_TO_LONGS(NR_CPUS)];

static inline bool cpu_online(int cpu)
{
	return test_bit((unsigned long)cpu, cpu_online_bits);
}

unsigned int num_online_cpus(void);

#define for_each_possible_cpu(cpu)                                          \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)
#define for_each_online_cpu(cpu)                                            \
	for_each_possible_cpu(cpu) if (!cpu_online(cpu)) {} else

typedef void (*smp_call_func_t)(void *info);

/*
 * Runs func(info) on every other online CPU, in interrupt context with
 * interrupts off there; with wait, returns only when all have finished.
 * The caller must have interrupts enabled or be the only caller (the boot
 * CPU during tests): a CPU spinning here with interrupts off cannot serve
 * someone else's request.
 */
int smp_call_function(smp_call_func_t func, void *info, bool wait);
int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     bool wait);
/* smp_call_function, plus func on this CPU with interrupts off. */
void on_each_cpu(smp_call_func_t func, void *info, bool wait);
/*
 * on_each_cpu(), on the online CPUs for which cond(cpu, info) is true
 * only (Linux 3.3's on_each_cpu_cond).  cond runs here, on this CPU, and
 * reads the others' state without their consent: a CPU that changes it
 * after the look is as one that changed it after the call.
 */
void on_each_cpu_cond(bool (*cond)(int cpu, void *info), smp_call_func_t func,
		      void *info, bool wait);

/* The IPI handler's work: runs the request addressed to this CPU. */
void smp_handle_call_function(void);

#endif /* KERNEL_SMP_H */
