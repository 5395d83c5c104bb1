/*
 * arch/x86/i8259.c - the legacy 8259A PIC pair, put out of the way.
 *
 * At reset the master PIC delivers IRQ 0-7 on vectors 8-15, on top of the
 * CPU's exceptions (#DF is 8).  mm86 takes its interrupts from the local
 * APIC, so the PICs are re-initialised with their vectors at 0x20-0x2F
 * (ICW1-ICW4: edge triggered, cascaded on IRQ 2, 8086 mode) and then every
 * line is masked.  A spurious IRQ 7 or 15 could still arrive; it lands on
 * a vector do_irq() counts as stray, not on an exception.
 */
#include "arch/x86/irq.h"
#include "asm/io.h"

#define PIC_MASTER_CMD 0x20
#define PIC_MASTER_DATA 0x21
#define PIC_SLAVE_CMD 0xA0
#define PIC_SLAVE_DATA 0xA1
#define PIC_VECTOR_BASE 0x20

void i8259_mask_all(void)
{
	outb(0x11, PIC_MASTER_CMD);			/* ICW1: init, ICW4 */
	outb(0x11, PIC_SLAVE_CMD);
	outb(PIC_VECTOR_BASE, PIC_MASTER_DATA);		/* ICW2: vectors */
	outb(PIC_VECTOR_BASE + 8, PIC_SLAVE_DATA);
	outb(0x04, PIC_MASTER_DATA);			/* ICW3: slave on IRQ 2 */
	outb(0x02, PIC_SLAVE_DATA);
	outb(0x01, PIC_MASTER_DATA);			/* ICW4: 8086 mode */
	outb(0x01, PIC_SLAVE_DATA);
	outb(0xff, PIC_MASTER_DATA);			/* mask everything */
	outb(0xff, PIC_SLAVE_DATA);
}
