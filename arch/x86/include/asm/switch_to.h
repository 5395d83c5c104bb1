/*
 * asm/switch_to.h - what a switched-out task keeps: its stack pointer.
 * Everything else the switch must preserve (the callee-saved registers,
 * and the return address into schedule()) is pushed on its own stack
 * (arch/x86/switch.S).
 */
#ifndef ASM_SWITCH_TO_H
#define ASM_SWITCH_TO_H

#include "asm/page.h"

struct thread_context {
	unsigned long sp;
};

/* A kernel thread's stack, with its task_struct at the bottom: 16 KiB. */
#define THREAD_SIZE_ORDER 2
#define THREAD_SIZE (PAGE_SIZE << THREAD_SIZE_ORDER)

#endif /* ASM_SWITCH_TO_H */
