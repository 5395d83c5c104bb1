/*
 * arch/host/irq.c - interrupts, the tick, idling and context switches for
 * CPUs that are threads.
 *
 * Each CPU has a word of pending interrupts: the tick, a cross-call, a
 * reschedule kick.  Other threads set bits in it (and wake the CPU with a
 * futex if it is idle); the CPU takes them in host_deliver_irqs() as a
 * real CPU would at an interrupt: flag off, hardirq context, the handlers,
 * then - if the interrupted code had interrupts on and preempt_count is
 * 0 - preemption.  One ticker thread sets every started CPU's tick bit HZ
 * times a second.
 *
 * Tasks are ucontexts switched with swapcontext() on their CPU's thread;
 * tasks never move between CPUs, so each thread-local (the CPU number, its
 * interrupt flag) stays right across a switch.  ThreadSanitizer is told
 * of both switches, to a task and to the handlers (asm/tsan.h).
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "asm/irqflags.h"
#include "asm/switch_to.h"
#include "asm/tsan.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"

#define PEND_TICK 0x1u
#define PEND_RESCHED 0x2u
#define PEND_CALL 0x4u

__thread unsigned int host_pending_self;
unsigned int *host_pending[NR_CPUS];
static unsigned int idle_waiting[NR_CPUS];
static bool tick_on[NR_CPUS];
static bool ticker_started;

static long futex(unsigned int *uaddr, int op, unsigned int val,
		  const struct timespec *timeout)
{
	return syscall(SYS_futex, uaddr, op, val, timeout, NULL, 0);
}

/* The CPU's thread publishes its pending word as it starts. */
void host_irq_init_this_cpu(void)
{
	__atomic_store_n(&host_pending[host_cpu], &host_pending_self,
			 __ATOMIC_RELEASE);
}

static void kick(int cpu, unsigned int bit)
{
	unsigned int *pending = __atomic_load_n(&host_pending[cpu],
						__ATOMIC_ACQUIRE);

	if (!pending)
		return;
	__atomic_fetch_or(pending, bit, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&idle_waiting[cpu], __ATOMIC_SEQ_CST))
		futex(pending, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* The handlers of the interrupts pending in p, in hardirq context. */
static void handle_irqs(unsigned int p)
{
	irq_enter();
	if (p & PEND_CALL)
		smp_handle_call_function();
	if (p & PEND_TICK)
		timer_interrupt();
	irq_exit();
}

void host_deliver_irqs(void)
{
	unsigned int p;

	if (!(host_irq_flag() & HOST_IRQ_ENABLED))
		return;
	while ((p = __atomic_exchange_n(&host_pending_self, 0,
					__ATOMIC_ACQ_REL))) {
		host_set_irq_flag(0);
		host_tsan_call_irq(handle_irqs, p);
		if (need_resched() && preempt_count() == 0)
			preempt_schedule_irq();
		host_tsan_irqs_on();
		host_set_irq_flag(HOST_IRQ_ENABLED);
	}
}

int arch_send_call_function_ipi(int cpu)
{
	kick(cpu, PEND_CALL);
	return 0;
}

void arch_send_reschedule(int cpu)
{
	kick(cpu, PEND_RESCHED);
}

static void *ticker(void *unused)
{
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		next.tv_nsec += 1000000000L / HZ;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			if (__atomic_load_n(&tick_on[cpu], __ATOMIC_ACQUIRE))
				kick(cpu, PEND_TICK);
	}
	return NULL;
}

void arch_timer_start(void)
{
	__atomic_store_n(&tick_on[host_cpu], true, __ATOMIC_RELEASE);
	if (!__atomic_exchange_n(&ticker_started, true, __ATOMIC_ACQ_REL)) {
		pthread_t th;

		if (pthread_create(&th, NULL, ticker, NULL))
			panic("host: cannot start the tick thread");
		pthread_detach(th);
	}
}

void arch_idle(void)
{
	int cpu = host_cpu;
	struct timespec timeout = { 0, 50 * 1000 * 1000 };

	while (!__atomic_load_n(&host_pending_self, __ATOMIC_SEQ_CST)) {
		__atomic_store_n(&idle_waiting[cpu], 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&host_pending_self, __ATOMIC_SEQ_CST))
			futex(&host_pending_self, FUTEX_WAIT_PRIVATE, 0,
			      &timeout);
		__atomic_store_n(&idle_waiting[cpu], 0, __ATOMIC_SEQ_CST);
	}
	arch_local_irq_enable();	/* takes what is pending */
}

/*
 * The address sanitizer must be told when the stack changes under it
 * (__sanitizer_start/finish_switch_fiber), or a longjmp on a thread stack
 * (a ktest ASSERT) looks like a wild stack access.
 */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#else
static inline void __sanitizer_start_switch_fiber(void **fake, const void *bottom,
						  size_t size) {}
static inline void __sanitizer_finish_switch_fiber(void *fake, const void **bottom,
						   size_t *size) {}
#endif

/* Valgrind must be told which memory is a stack, or it takes a switch
 * to another thread's stack for wild reads. */
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define VALGRIND_STACK_REGISTER(start, end) 0
#define VALGRIND_STACK_DEREGISTER(id)
#endif

static __thread struct thread_context *switching_to;

/* A CPU thread's own stack: where its idle task runs. */
static void this_thread_stack(struct thread_context *ctx)
{
	pthread_attr_t attr;

	if (pthread_getattr_np(pthread_self(), &attr) ||
	    pthread_attr_getstack(&attr, &ctx->stack, &ctx->size))
		panic("host: cannot find this thread's stack");
	pthread_attr_destroy(&attr);
}

static void thread_start(void)
{
	__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
	switching_to->entry();
}

void arch_thread_init(struct thread_context *ctx, void *stack, size_t size,
		      void (*entry)(void))
{
	if (getcontext(&ctx->uc))
		panic("host: getcontext failed");
	ctx->uc.uc_stack.ss_sp = stack;
	ctx->uc.uc_stack.ss_size = size;
	ctx->uc.uc_link = NULL;
	ctx->stack = stack;
	ctx->size = size;
	ctx->entry = entry;
	ctx->valgrind_id = VALGRIND_STACK_REGISTER(stack, (char *)stack + size);
	host_tsan_thread_init(ctx);
	makecontext(&ctx->uc, thread_start, 0);
}

void arch_thread_free(struct thread_context *ctx)
{
	VALGRIND_STACK_DEREGISTER(ctx->valgrind_id);
	host_tsan_thread_free(ctx);
}

void arch_switch_to(struct thread_context *prev, struct thread_context *next)
{
	void *fake_stack = NULL;

	if (!prev->stack)
		this_thread_stack(prev);
	switching_to = next;
	__sanitizer_start_switch_fiber(&fake_stack, next->stack, next->size);
	host_tsan_switch_to(prev, next);
	if (swapcontext(&prev->uc, &next->uc))
		panic("host: swapcontext failed");
	__sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
}
