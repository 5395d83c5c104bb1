/*
 * asm/irqflags.h - the interrupt flag, in Linux's arch_local_* names.
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include "asm/processor.h"

static inline unsigned long arch_local_save_flags(void)
{
	return read_eflags();
}

static inline void arch_local_irq_disable(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}

static inline void arch_local_irq_enable(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		arch_local_irq_enable();
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

#endif /* ASM_IRQFLAGS_H */
