/*
 * asm/ioapic.h - the I/O APIC, through which the PC's device interrupts
 * (the ISA IRQs: PIT, keyboard, serial ports, ...) reach the local APICs.
 *
 * ISA IRQs are named by their ISA number (0-15); the MADT's interrupt
 * source overrides say which I/O APIC input (global system interrupt,
 * GSI) each is wired to.  Every call may be made from any CPU, with
 * interrupts on or off.
 */
#ifndef ASM_IOAPIC_H
#define ASM_IOAPIC_H

#define NR_ISA_IRQS 16

/*
 * Finds the I/O APIC that serves GSI 0 in the MADT, maps it, masks every
 * input and prints what it found.  Without one (no MADT, or no such
 * entry) the calls below return -ENOENT.  Once, on the boot CPU, after
 * paging_init() and before the other CPUs start.
 */
void ioapic_init(void);

/*
 * Delivers ISA IRQ isa_irq as vector (32-254) to the local APIC whose id
 * is dest_apic_id: fixed delivery, physical destination, the polarity and
 * trigger of the MADT's override (ISA's edge, active high without one),
 * and unmasks it.  Returns 0, -EINVAL for a bad argument, or -ENOENT when
 * no I/O APIC input carries the IRQ.
 */
int ioapic_route_isa_irq(unsigned int isa_irq, unsigned int vector,
			 unsigned int dest_apic_id);

/*
 * Masks ISA IRQ isa_irq.  An interrupt a local APIC accepted before may
 * still be delivered after this returns (a local APIC cannot be asked to
 * give one back).  Returns 0, -EINVAL or -ENOENT as above.
 */
int ioapic_mask_isa_irq(unsigned int isa_irq);

/*
 * The GSI that ISA IRQ isa_irq is wired to (the MADT's override, or the
 * same number), or -EINVAL for isa_irq >= NR_ISA_IRQS, -ENOENT without
 * an I/O APIC.
 */
int ioapic_isa_irq_to_gsi(unsigned int isa_irq);

#endif /* ASM_IOAPIC_H */
