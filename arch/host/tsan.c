/*
 * arch/host/tsan.c - the kernel's synchronisation as ThreadSanitizer
 * should see it (make host-tsan; Linux finds the same races with KCSAN).
 *
 * Left alone, TSan sees one thread per CPU and nothing else: the tasks a
 * CPU switches between with swapcontext() and the interrupt handlers it
 * runs in host_deliver_irqs() are all that thread, ordered by program
 * order, so a task and a handler of one CPU could never race.  The model:
 *
 *  - Each task is a TSan fiber (made in arch_thread_init); the CPU
 *    thread's own context, where its idle task runs, is the thread's
 *    first fiber.  A context switch synchronises (the run queue's lock
 *    is held across it, kernel/sched.c): what the task switched out did
 *    happens before what the task switched to does next.
 *
 *  - Interrupt handlers run on a fiber of their CPU's own, switched to
 *    and back without synchronising: a handler is concurrent with the
 *    task it interrupts, as a real interrupt may come between any two
 *    instructions that run with interrupts on.  They run on a stack of
 *    their own too, as on Linux's per-CPU interrupt stacks: on the
 *    task's, below its frames, two fibers unordered would write the same
 *    words, one after the other.
 *
 *  - "Interrupts off" is a lock between the two, one per CPU (a
 *    thread-local byte, the CPU being the thread): a task acquires it
 *    when it turns its interrupts off (local_irq_disable, _save) and
 *    releases it when it turns them on (local_irq_enable, a restore to
 *    on); a handler acquires it on entry and releases it on exit.  So
 *    what a task does with interrupts off is ordered with the handlers,
 *    and per-CPU data a task touches with interrupts on while a handler
 *    touches it too is a data race.
 *
 *  - The this_cpu operations and local_add() are one instruction in the
 *    kernel, which an interrupt lands before or after, never inside: for
 *    TSan they are relaxed atomics (asm/percpu.h, asm/local.h), and so is
 *    the interrupt flag, a register (asm/irqflags.h).  Spinlocks,
 *    mutexes, completions and bit locks are built on __atomic builtins,
 *    which TSan knows.
 *
 * The limit is TSan's own: it reports two accesses that nothing orders in
 * the run it watched.  A task's access with interrupts on that is followed
 * by a section with them off before the handler comes (a spin_lock_irqsave
 * on the way) is ordered by that section, as an unlocked access before a
 * lock is for threads; the race is reported in the runs where the handler
 * comes before any such section, e.g. while the task spins (cpu_relax
 * takes interrupts).
 */
#ifdef __SANITIZE_THREAD__
#include <sanitizer/tsan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "asm/percpu.h"
#include "asm/switch_to.h"
#include "asm/tsan.h"
#include "kernel/bug.h"
#include "kernel/nr_cpus.h"

#define __no_tsan __attribute__((no_sanitize_thread))

/* "Interrupts off" on this CPU: the lock's address is all TSan needs. */
static __thread char irqs_off;

/* This CPU's interrupt fiber, its context and stack; the task it left. */
static __thread void *irq_fiber;
static __thread ucontext_t irq_uc, task_uc;
static __thread void (*irq_fn)(unsigned int);
static __thread unsigned int irq_arg;
static __thread void *task_fiber;

void host_tsan_irqs_off(void)
{
	__tsan_acquire(&irqs_off);
}

void host_tsan_irqs_on(void)
{
	__tsan_release(&irqs_off);
}

/*
 * The functions that switch fibers are not instrumented: an instrumented
 * one would enter on one fiber's shadow stack and return on the other's.
 */
__no_tsan static void irq_fiber_main(void)
{
	for (;;) {
		__tsan_acquire(&irqs_off);
		irq_fn(irq_arg);
		__tsan_release(&irqs_off);
		__tsan_switch_to_fiber(task_fiber,
				       __tsan_switch_to_fiber_no_sync);
		swapcontext(&irq_uc, &task_uc);
	}
}

__no_tsan static void irq_fiber_init(void)
{
	static char names[NR_CPUS][16];
	void *stack = malloc(THREAD_SIZE);

	if (!stack || getcontext(&irq_uc))
		panic("host: cannot make CPU %d's interrupt stack", host_cpu);
	irq_uc.uc_stack.ss_sp = stack;
	irq_uc.uc_stack.ss_size = THREAD_SIZE;
	irq_uc.uc_link = NULL;
	makecontext(&irq_uc, irq_fiber_main, 0);
	irq_fiber = __tsan_create_fiber(0);
	snprintf(names[host_cpu], sizeof(names[0]), "CPU %d irq", host_cpu);
	__tsan_set_fiber_name(irq_fiber, names[host_cpu]);
}

__no_tsan void host_tsan_call_irq(void (*fn)(unsigned int), unsigned int arg)
{
	if (!irq_fiber)
		irq_fiber_init();
	if (__tsan_get_current_fiber() == irq_fiber) {
		fn(arg);	/* a handler turned interrupts on: nested */
		return;
	}
	irq_fn = fn;
	irq_arg = arg;
	task_fiber = __tsan_get_current_fiber();
	__tsan_switch_to_fiber(irq_fiber, __tsan_switch_to_fiber_no_sync);
	swapcontext(&task_uc, &irq_uc);
}

void host_tsan_thread_init(struct thread_context *ctx)
{
	ctx->tsan_fiber = __tsan_create_fiber(0);
}

__no_tsan void host_tsan_switch_to(struct thread_context *prev,
				   struct thread_context *next)
{
	if (!prev->tsan_fiber)		/* the CPU thread's own context */
		prev->tsan_fiber = __tsan_get_current_fiber();
	__tsan_switch_to_fiber(next->tsan_fiber, 0);
}

void host_tsan_thread_free(struct thread_context *ctx)
{
	__tsan_destroy_fiber(ctx->tsan_fiber);
	ctx->tsan_fiber = NULL;
}
#endif /* __SANITIZE_THREAD__ */
