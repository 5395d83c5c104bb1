/*
 * arch/x86/process.c - a new thread's first stack frame.
 *
 * arch_switch_to() pops four registers and returns; a thread that never
 * ran must have those on its stack, with entry() as the return address
 * and a zero %ebp, where call traces stop.  entry() must never return:
 * the word above the return address is a zero "return address" of its
 * own, so that a trace ends there too, and the stack is aligned as a
 * call would leave it (16 bytes at the call).
 */
#include "asm/switch_to.h"
#include "kernel/arch.h"
#include "kernel/bug.h"

void arch_thread_init(struct thread_context *ctx, void *stack, size_t size,
		      void (*entry)(void))
{
	unsigned long top = ((unsigned long)stack + size) & ~15UL;
	unsigned long *sp = (unsigned long *)(top - 16);

	BUG_ON(size < 256);
	*--sp = 0;			/* entry's return address: none */
	*--sp = (unsigned long)entry;	/* arch_switch_to's ret */
	*--sp = 0;			/* %ebp: the end of call traces */
	*--sp = 0;			/* %ebx */
	*--sp = 0;			/* %esi */
	*--sp = 0;			/* %edi */
	ctx->sp = (unsigned long)sp;
}

void arch_thread_free(struct thread_context *ctx)
{
	/* Nothing kept outside the stack. */
}
