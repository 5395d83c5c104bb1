#ifndef ARCH_X86_IRQ_H
#define ARCH_X86_IRQ_H

#include "asm/ptrace.h"

typedef void (*irq_handler_t)(struct pt_regs *regs);

void set_vector_handler(unsigned int vector, irq_handler_t handler);
void do_irq(struct pt_regs *regs);
/* Re-initialises the legacy PICs off the exception vectors, all masked. */
void i8259_mask_all(void);

#endif
