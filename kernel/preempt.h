/*
 * kernel/preempt.h - preempt_count: what context the CPU is in.
 *
 * One word per CPU, laid out as in Linux 2.6 on i386:
 *
 *	bits  0- 7  preemption disabled (preempt_disable nesting)
 *	bits  8-15  softirq (unused: timers run in the hardirq)
 *	bits 16-27  hardirq nesting (irq_enter/irq_exit)
 *	bit  28     PREEMPT_ACTIVE: schedule() is preempting, not sleeping
 *
 * It is per CPU rather than per task because a task only ever leaves the
 * CPU with the count at 0 (sleeping) or PREEMPT_ACTIVE (preempted), and
 * schedule() puts exactly that back; so the count a task sees is always
 * its own.  in_interrupt() and in_atomic() read it; spin_lock() raises it,
 * so holding a spinlock is atomic context, as with CONFIG_PREEMPT.
 *
 * need_resched is per CPU too: the flag says "the task running here
 * should give way"; tasks never move between CPUs behind the scheduler's
 * back (kernel/sched.c), so the CPU's flag is its current task's.
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include "kernel/percpu.h"
#include "lib/compiler.h"

#define PREEMPT_BITS 8
#define SOFTIRQ_BITS 8
#define HARDIRQ_BITS 12

#define PREEMPT_SHIFT 0
#define SOFTIRQ_SHIFT (PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT (SOFTIRQ_SHIFT + SOFTIRQ_BITS)

#define PREEMPT_OFFSET (1 << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET (1 << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET (1 << HARDIRQ_SHIFT)

#define PREEMPT_MASK (((1 << PREEMPT_BITS) - 1) << PREEMPT_SHIFT)
#define SOFTIRQ_MASK (((1 << SOFTIRQ_BITS) - 1) << SOFTIRQ_SHIFT)
#define HARDIRQ_MASK (((1 << HARDIRQ_BITS) - 1) << HARDIRQ_SHIFT)
#define PREEMPT_ACTIVE 0x10000000

DECLARE_PER_CPU(int, __preempt_count);
DECLARE_PER_CPU(int, __need_resched);

static inline int preempt_count(void)
{
	return arch_this_cpu_read_4(__preempt_count);
}

#define hardirq_count() (preempt_count() & HARDIRQ_MASK)
#define softirq_count() (preempt_count() & SOFTIRQ_MASK)
#define irq_count() (preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK))
#define in_irq() (hardirq_count() != 0)
#define in_interrupt() (irq_count() != 0)
/* Anything but a plain, preemptible task: interrupt, lock, preempt off. */
#define in_atomic() ((preempt_count() & ~PREEMPT_ACTIVE) != 0)

static inline void __preempt_count_add(int n)
{
	arch_this_cpu_add_4(__preempt_count, n);
	barrier();
}

static inline void __preempt_count_sub(int n)
{
	barrier();
	arch_this_cpu_add_4(__preempt_count, -n);
}

static inline bool need_resched(void)
{
	return arch_this_cpu_read_4(__need_resched) != 0;
}

static inline void set_need_resched(void)
{
	arch_this_cpu_write_4(__need_resched, 1);
}

/* Gives way to a task that should run now, when nothing forbids it. */
void preempt_schedule(void);

#define preempt_disable() __preempt_count_add(1)
#define preempt_enable_no_resched() __preempt_count_sub(1)
#define preempt_enable()                                                    \
	do {                                                                 \
		__preempt_count_sub(1);                                      \
		if (unlikely(need_resched()) && preempt_count() == 0)        \
			preempt_schedule();                                  \
	} while (0)

/* Hardirq accounting around an interrupt handler (arch code). */
#define irq_enter() __preempt_count_add(HARDIRQ_OFFSET)
#define irq_exit() __preempt_count_sub(HARDIRQ_OFFSET)

#endif /* KERNEL_PREEMPT_H */
