/*
 * arch/x86/irq.c - interrupts (vectors 32-255): a handler per vector.
 *
 * do_trap() sends every vector >= 32 here.  A vector without a handler is
 * reported once and counted, never fatal: a stray interrupt must not take
 * the machine down, but must not go unnoticed either.  Local APIC
 * interrupts are acknowledged (EOI) after the handler; the spurious vector
 * must not be.
 *
 * A handler runs in hardirq context (irq_enter: in_interrupt() is true)
 * with interrupts off; interrupt gates never nest.  On the way out, if
 * the interrupted code had interrupts on and preempt_count is 0, and the
 * tick or a wake-up asked for a reschedule, the interrupted task is
 * preempted right here, on its own stack: it resumes at this point later
 * and returns from the interrupt then.
 */
#include "arch/x86/irq.h"
#include "asm/apic.h"
#include "asm/processor.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/sched.h"

static irq_handler_t vector_handlers[256];
static unsigned long stray_count;

void set_vector_handler(unsigned int vector, irq_handler_t handler)
{
	BUG_ON(vector < 32 || vector > 255);
	vector_handlers[vector] = handler;
}

void do_irq(struct pt_regs *regs)
{
	unsigned int v = regs->vector;

	if (v == SPURIOUS_APIC_VECTOR)
		return;
	irq_enter();
	if (vector_handlers[v]) {
		vector_handlers[v](regs);
	} else if (stray_count++ == 0) {
		pr_warn("irq: unexpected interrupt on vector %#x\n", v);
	}
	lapic_eoi();
	irq_exit();
	if ((regs->eflags & X86_EFLAGS_IF) && need_resched() &&
	    preempt_count() == 0)
		preempt_schedule_irq();
}
