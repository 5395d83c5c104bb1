/*
 * arch/x86/irq.c - interrupts (vectors 32-255): a handler per vector.
 *
 * do_trap() sends every vector >= 32 here.  A vector without a handler is
 * reported once and counted, never fatal: a stray interrupt must not take
 * the machine down, but must not go unnoticed either.  Local APIC
 * interrupts are acknowledged (EOI) after the handler; the spurious vector
 * must not be.
 */
#include "arch/x86/irq.h"
#include "asm/apic.h"
#include "kernel/bug.h"
#include "kernel/printk.h"

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
	if (vector_handlers[v]) {
		vector_handlers[v](regs);
	} else if (stray_count++ == 0) {
		pr_warn("irq: unexpected interrupt on vector %#x\n", v);
	}
	lapic_eoi();
}
