/*
 * asm/tsan.h (host) - the hooks through which the user-space build tells
 * ThreadSanitizer how the kernel synchronises: tasks as fibers, interrupt
 * handlers on a fiber of their own, "interrupts off" as a lock between
 * them.  The model and its limits are arch/host/tsan.c's head comment.
 * Without -fsanitize=thread every hook is an empty inline.
 */
#ifndef ASM_TSAN_H
#define ASM_TSAN_H

struct thread_context;

#ifdef __SANITIZE_THREAD__
/* A task's interrupts go off (acquire) / on (release): asm/irqflags.h. */
void host_tsan_irqs_off(void);
void host_tsan_irqs_on(void);
/* Runs fn(arg), host_deliver_irqs()'s handlers, on this CPU's interrupt
 * fiber and stack. */
void host_tsan_call_irq(void (*fn)(unsigned int), unsigned int arg);
/* A task's fiber: made, switched to (just before swapcontext), freed. */
void host_tsan_thread_init(struct thread_context *ctx);
void host_tsan_switch_to(struct thread_context *prev,
			 struct thread_context *next);
void host_tsan_thread_free(struct thread_context *ctx);
#else
static inline void host_tsan_irqs_off(void) {}
static inline void host_tsan_irqs_on(void) {}
static inline void host_tsan_call_irq(void (*fn)(unsigned int),
				      unsigned int arg)
{
	fn(arg);
}
static inline void host_tsan_thread_init(struct thread_context *ctx) {}
static inline void host_tsan_switch_to(struct thread_context *prev,
				       struct thread_context *next) {}
static inline void host_tsan_thread_free(struct thread_context *ctx) {}
#endif

#endif /* ASM_TSAN_H */
