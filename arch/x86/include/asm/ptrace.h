/*
 * asm/ptrace.h - the register frame the trap entry code builds.
 *
 * The order is the reverse of the pushes in arch/x86/entry.S: segment
 * registers, then pushal, then the vector and error code the stub pushed,
 * then what the CPU pushed.  A trap taken in the kernel has no stack
 * switch, so the interrupted ESP is the address just past eflags.
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include "lib/types.h"

struct pt_regs {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp_at_pushal, ebx, edx, ecx, eax;
	u32 vector, error_code;
	u32 eip, cs, eflags;
};

static inline unsigned long kernel_stack_pointer(const struct pt_regs *regs)
{
	return (unsigned long)(regs + 1);
}

#endif /* ASM_PTRACE_H */
