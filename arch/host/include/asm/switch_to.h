/*
 * asm/switch_to.h (host) - a task's registers are a ucontext: switching
 * is swapcontext() on the "CPU" thread, which the sanitizers understand.
 */
#ifndef ASM_SWITCH_TO_H
#define ASM_SWITCH_TO_H

#include <ucontext.h>

#include "asm/page.h"

struct thread_context {
	ucontext_t uc;
	void *stack;		/* its stack, for the address sanitizer; */
	size_t size;		/* NULL until known (a CPU thread's own) */
	void (*entry)(void);
	unsigned int valgrind_id;	/* its stack, registered */
	void *tsan_fiber;		/* the race detector's (asm/tsan.h) */
};

/* 64 KiB: sanitizer builds have large frames. */
#define THREAD_SIZE_ORDER 4
#define THREAD_SIZE (PAGE_SIZE << THREAD_SIZE_ORDER)

#endif /* ASM_SWITCH_TO_H */
