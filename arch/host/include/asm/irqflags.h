/*
 * asm/irqflags.h (host) - "interrupts" are a per-thread flag: there are
 * no interrupts in user space, but the code that disables them must still
 * run, nest and restore exactly as in the kernel.
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include "lib/types.h"

#define HOST_IRQ_ENABLED 1UL

extern __thread unsigned long host_irq_flags;

static inline unsigned long arch_local_save_flags(void)
{
	return host_irq_flags;
}

static inline void arch_local_irq_disable(void)
{
	host_irq_flags = 0;
}

static inline void arch_local_irq_enable(void)
{
	host_irq_flags = HOST_IRQ_ENABLED;
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = host_irq_flags;

	host_irq_flags = 0;
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	host_irq_flags = flags;
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & HOST_IRQ_ENABLED);
}

#endif /* ASM_IRQFLAGS_H */
