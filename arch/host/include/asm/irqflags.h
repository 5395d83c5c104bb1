/*
 * asm/irqflags.h (host) - "interrupts" are a per-thread flag: there are
 * no interrupts in user space, but the code that disables them must still
 * run, nest and restore exactly as in the kernel.
 *
 * Interrupts (the tick, cross-calls, reschedule kicks) are bits in the
 * CPU's host_pending word, set by other threads; they are taken where a
 * real CPU could take them and user space can look: when the flag goes
 * from off to on, in cpu_relax() spins, and in the idle loop
 * (arch/host/irq.c).
 *
 * Under ThreadSanitizer, turning interrupts off and on acquires and
 * releases this CPU's "interrupts off" lock (asm/tsan.h): what a task does
 * with interrupts off is then ordered with its CPU's handlers.
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include "asm/percpu.h"
#include "asm/tsan.h"
#include "kernel/nr_cpus.h"
#include "lib/compiler.h"
#include "lib/types.h"

#define HOST_IRQ_ENABLED 1UL

/*
 * The flag, 0 or HOST_IRQ_ENABLED, kept as a bool: a store to it may
 * alias no other type, so a fast path that loaded __per_cpu_offset[] or a
 * list pointer before local_irq_save() need not load it again after.
 */
extern __thread bool host_irq_flags __host_cpu_reg;
/*
 * The flag is the CPU's, a register rather than memory: ThreadSanitizer
 * sees its accesses as relaxed atomics, or a task and the handler that
 * interrupts it would "race" on it (arch/host/tsan.c).
 */
#ifndef __SANITIZE_THREAD__
#define host_irq_flag() host_irq_flags
#define host_set_irq_flag(v) (host_irq_flags = (v))
#else
#define host_irq_flag() __atomic_load_n(&host_irq_flags, __ATOMIC_RELAXED)
#define host_set_irq_flag(v)                                                \
	__atomic_store_n(&host_irq_flags, (v), __ATOMIC_RELAXED)
#endif
/* This CPU's pending interrupts; others reach it through host_pending[]. */
extern __thread unsigned int host_pending_self __host_cpu_reg;
extern unsigned int *host_pending[NR_CPUS];
void host_deliver_irqs(void);

static inline void host_irq_check(void)
{
	if (unlikely(__atomic_load_n(&host_pending_self, __ATOMIC_RELAXED)))
		host_deliver_irqs();
}

static inline unsigned long arch_local_save_flags(void)
{
	return host_irq_flag();
}

static inline void arch_local_irq_disable(void)
{
	host_set_irq_flag(0);
	host_tsan_irqs_off();
}

static inline void arch_local_irq_enable(void)
{
	host_tsan_irqs_on();
	host_set_irq_flag(HOST_IRQ_ENABLED);
	host_irq_check();
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = host_irq_flag();

	host_set_irq_flag(0);
	host_tsan_irqs_off();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & HOST_IRQ_ENABLED)
		host_tsan_irqs_on();
	host_set_irq_flag(flags);
	if (flags & HOST_IRQ_ENABLED)
		host_irq_check();
}

/*
 * arch_local_irq_restore() without taking the interrupts: false when the
 * flags turned them on with one pending, which the caller then takes by
 * restoring again out of line (kernel/spinlock.h: local_irq_restore_fast).
 * The flag is stored before the look, as in arch_local_irq_restore(), so
 * an interrupt raised meanwhile is seen by one or the other.
 */
static inline bool arch_local_irq_restore_quiet(unsigned long flags)
{
	/*
	 * Each way stores its own constant, so that a fast path that saved
	 * the flag (storing 0) just before needs no store to keep them off.
	 */
	if (!(flags & HOST_IRQ_ENABLED)) {
		host_set_irq_flag(0);
		return true;
	}
	host_tsan_irqs_on();
	host_set_irq_flag(HOST_IRQ_ENABLED);
	return likely(!__atomic_load_n(&host_pending_self, __ATOMIC_RELAXED));
}
#define arch_local_irq_restore_quiet arch_local_irq_restore_quiet

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & HOST_IRQ_ENABLED);
}

#endif /* ASM_IRQFLAGS_H */
