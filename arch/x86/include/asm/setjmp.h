/*
 * asm/setjmp.h - a non-local exit for the test framework: an ASSERT that
 * fails leaves the test case by longjmp back into the runner.  Only the
 * callee-saved registers, the stack pointer and the return address are
 * kept, as the i386 System V ABI requires.
 */
#ifndef ASM_SETJMP_H
#define ASM_SETJMP_H

#include "lib/compiler.h"

struct arch_jmp_buf {
	unsigned long ebx, esi, edi, ebp, esp, eip;
};

int arch_setjmp(struct arch_jmp_buf *env) __attribute__((returns_twice));
void arch_longjmp(struct arch_jmp_buf *env, int val) __noreturn;

#endif /* ASM_SETJMP_H */
