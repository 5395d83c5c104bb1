/*
 * kernel/sched.c - per-CPU run queues, round-robin with preemption.
 *
 * Each CPU has a run queue: a FIFO of the runnable tasks that are not
 * running, plus the task running now (rq->curr) and the CPU's idle task,
 * which runs only when the queue is empty.  schedule() puts the running
 * task at the tail (if it is still runnable) and runs the head: plain
 * round-robin, no priorities.  The timer tick counts the running task's
 * time slice down and, when it is used up and someone is waiting, sets
 * need_resched; the interrupt return path (or the next preempt_enable())
 * then switches.  A task that sleeps leaves the queue; wake-up puts it
 * back at the tail and kicks the CPU if it was idle.
 *
 * Tasks do not move between CPUs: a kernel thread gets a CPU when it is
 * created (the least loaded, or the one kthread_bind() names) and keeps
 * it.  That is what lets the CPU number a task reads stay its CPU's
 * (raw_smp_processor_id() for placement hints) and preempt_count live
 * per CPU (kernel/preempt.h), and it keeps the locking to one lock per
 * queue.  It does not make per-CPU data safe in preemptible code: another
 * task on the same CPU can run between a read and its write, which is
 * why smp_processor_id() reports a preemptible caller (kernel/smp.h).
 *
 * Invariants (rq->lock held):
 *  - rq->curr is the task running on the CPU; it is never on rq->queue;
 *  - a task is on_rq while it is runnable: rq->curr or on rq->queue;
 *    rq->nr_running counts them, the idle task excluded;
 *  - a task's saved preempt count is what the CPU's count must read when
 *    it runs again: 1 (the queue's lock) for a task switched out inside
 *    schedule(), PREEMPT_ACTIVE + 1 for one preempted.
 *
 * Locking: rq->lock, with interrupts off, protects a queue and the
 * states of its tasks' transitions to and from TASK_RUNNING.  Wake-up
 * takes the wakee's queue lock; schedule() its own.  No path holds two
 * queue locks (the validator would call it recursive).  rq->lock is held
 * across the switch itself: the task switching out releases it in the
 * validator's view, the one switched to unlocks the bare ticket lock.
 * What is also read without the lock - a queue's nr_running,
 * nr_switches and curr, a task's on_rq, another CPU's need_resched - is
 * written with WRITE_ONCE.  (Thread creation and exit: kernel/kthread.c.)
 */
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"

/* Ticks a task runs before it gives way to the next in its queue. */
#define SCHED_TIMESLICE 4

struct rq {
	spinlock_t lock;
	struct list_head queue;		/* runnable, not running: FIFO */
	unsigned int nr_running;	/* runnable tasks, idle excluded */
	struct task_struct *curr;	/* running now */
	struct task_struct *idle;
	u64 idle_ns;			/* time idle was curr, up to idle_start */
	u64 idle_start;			/* when idle last became curr */
	struct task_struct *prev;	/* the task the last switch left */
	unsigned long nr_switches;
} __aligned(64);

static struct rq runqueues[NR_CPUS];
static struct task_struct idle_tasks[NR_CPUS];

DEFINE_PER_CPU(struct task_struct *, current_task) = &idle_tasks[0];
DEFINE_PER_CPU(int, __preempt_count);
DEFINE_PER_CPU(int, __need_resched);

enum system_states system_state = SYSTEM_BOOTING;

static unsigned long might_sleep_count;


static inline struct rq *this_rq(void)
{
	return &runqueues[smp_processor_id()];
}

/* ---- start-up ---- */

static void init_idle(struct task_struct *idle, int cpu)
{
	memset(idle, 0, sizeof(*idle));
	idle->state = TASK_RUNNING;
	idle->flags = PF_IDLE;
	idle->cpu = cpu;
	idle->usage = 1;
	INIT_LIST_HEAD(&idle->run_list);
	INIT_LIST_HEAD(&idle->tasks);
	snprintf(idle->comm, sizeof(idle->comm), "swapper/%d", cpu);
}

void sched_init(void)
{
	int cpu;

	BUG_ON(smp_processor_id() != 0);
	BUG_ON(preempt_count() != 0);
	init_timers();
	for_each_possible_cpu(cpu) {
		struct rq *rq = &runqueues[cpu];

		spin_lock_init(&rq->lock);
		INIT_LIST_HEAD(&rq->queue);
		init_idle(&idle_tasks[cpu], cpu);
		rq->curr = rq->idle = &idle_tasks[cpu];
		per_cpu(current_task, cpu) = &idle_tasks[cpu];
		per_cpu(__preempt_count, cpu) = 0;
		per_cpu(__need_resched, cpu) = 0;
	}
	pr_info("sched: %u run queues, round-robin, %d-tick slices at HZ=%d\n",
		nr_cpu_ids, SCHED_TIMESLICE, HZ);
}

/* ---- switching ---- */

static void resched_cpu(int cpu)
{
	WRITE_ONCE(per_cpu(__need_resched, cpu), 1);	/* cpu reads it */
	if (cpu != smp_processor_id())
		arch_send_reschedule(cpu);
}

static void check_stack_end(const struct task_struct *t)
{
	if (t->stack && *(const unsigned long *)t->stack != STACK_END_MAGIC)
		panic("stack overflow in %s (pid %d)", t->comm, t->pid);
}

/*
 * The second half of a switch, run by the task switched to (or by a new
 * task first thing): drops the queue lock the switch was made under, and
 * the last reference of a task that has died.
 */
static void finish_task_switch(void)
{
	struct rq *rq = this_rq();
	struct task_struct *prev = rq->prev;
	/* Off the queue and dead: the task can never run again. */
	bool dead = prev->state == TASK_DEAD && !prev->on_rq;

	arch_spin_unlock(&rq->lock);	/* the validator saw prev let go */
	__lockdep_irqs_on(LOCKDEP_CALLER_IP);
	arch_local_irq_enable();
	preempt_enable_no_resched();
	if (dead)
		task_dead(prev);
}

static void __noreturn report_atomic_schedule(struct task_struct *prev)
{
	pr_emerg("BUG: scheduling while atomic: %s/%d/0x%08x\n", prev->comm,
		 prev->pid, preempt_count());
	dump_stack();
	panic("scheduling while atomic");
}

/*
 * The time a CPU's idle task is curr is the CPU's idle time (the
 * interrupts it takes meanwhile included): counted at each switch to or
 * from it, for cpu_idle_ns().
 */
static void account_idle_locked(struct rq *rq, struct task_struct *prev,
				struct task_struct *next)
{
	u64 now = arch_clock_ns();

	lockdep_assert_held(&rq->lock);
	if (prev == rq->idle)
		WRITE_ONCE(rq->idle_ns, rq->idle_ns + now - rq->idle_start);
	else if (next == rq->idle)
		WRITE_ONCE(rq->idle_start, now);
}

void schedule(void)
{
	struct task_struct *prev, *next;
	unsigned long *switch_count;
	struct rq *rq;

again:
	prev = current;
	if (unlikely(in_atomic()))
		report_atomic_schedule(prev);
	check_stack_end(prev);
	arch_local_irq_disable();
	rq = this_rq();
	spin_lock(&rq->lock);
	arch_this_cpu_write_4(__need_resched, 0);

	/* Sleeping is a voluntary switch; anything else (preempted,
	 * yielding) an involuntary one, as Linux counts them. */
	switch_count = &prev->nivcsw;
	if (prev->state != TASK_RUNNING &&
	    !(preempt_count() & PREEMPT_ACTIVE)) {
		BUG_ON(prev == rq->idle);
		/*
		 * A task taken off the queue always switches out, so its
		 * voluntary switch is counted here, before it is seen off
		 * the queue: whoever reads on_rq false then reads nvcsw
		 * (without the lock) finds this sleep counted.
		 */
		WRITE_ONCE(prev->nvcsw, prev->nvcsw + 1);
		WRITE_ONCE(prev->on_rq, false);
		WRITE_ONCE(rq->nr_running, rq->nr_running - 1);
		switch_count = NULL;
	} else if (prev != rq->idle) {
		list_add_tail(&prev->run_list, &rq->queue);
	}
	if (!list_empty(&rq->queue)) {
		next = list_first_entry(&rq->queue, struct task_struct,
					run_list);
		list_del_init(&next->run_list);
	} else {
		next = rq->idle;
	}

	/*
	 * prev lets go of the queue lock in the validator's view here: the
	 * task that runs next drops it bare (2.6.18's rq->lock hand-over).
	 */
	lock_release_dep(&rq->lock.dep_map);
	if (next != prev) {
		if (switch_count && prev != rq->idle)
			(*switch_count)++;
		next->time_slice = SCHED_TIMESLICE;
		WRITE_ONCE(rq->nr_switches, rq->nr_switches + 1);
		account_idle_locked(rq, prev, next);
		WRITE_ONCE(rq->curr, next);	/* cpu_idle_ns() */
		rq->prev = prev;
		arch_this_cpu_write_4(current_task, next);
		prev->saved_preempt_count = preempt_count();
		arch_this_cpu_write_4(__preempt_count,
				      next->saved_preempt_count);
		lockdep_assert_irqs_disabled();
		arch_switch_to(&prev->ctx, &next->ctx);
		/* prev again, perhaps much later: on the same CPU. */
		finish_task_switch();
	} else {
		arch_spin_unlock(&rq->lock);
		__lockdep_irqs_on(LOCKDEP_CALLER_IP);
		arch_local_irq_enable();
		preempt_enable_no_resched();
	}
	if (unlikely(need_resched()) && !in_atomic())
		goto again;
}

/*
 * A new thread's first instructions (arch_thread_init points here).  One
 * stopped before it first ran never runs its function, and kthread_stop()
 * gets -EINTR (2.6's kthread()).
 */
static void __noreturn kthread_entry(void)
{
	struct task_struct *self;

	finish_task_switch();
	self = current;
	if (kthread_should_stop())
		do_exit(-EINTR);
	do_exit(self->threadfn(self->data));
}

void sched_fork(struct task_struct *p, void *stack, size_t size)
{
	p->saved_preempt_count = 1;	/* the queue lock kthread_entry drops */
	arch_thread_init(&p->ctx, stack, size, kthread_entry);
}

void preempt_schedule(void)
{
	if (preempt_count() || arch_irqs_disabled_flags(arch_local_save_flags()))
		return;
	do {
		__preempt_count_add(PREEMPT_ACTIVE);
		schedule();
		__preempt_count_sub(PREEMPT_ACTIVE);
	} while (need_resched());
}

/*
 * The interrupt return path, interrupts off, when the interrupted task
 * had them on and preempt_count is 0: it is switched out as runnable
 * (PREEMPT_ACTIVE) and comes back here to return from the interrupt.
 */
void preempt_schedule_irq(void)
{
	do {
		__preempt_count_add(PREEMPT_ACTIVE);
		arch_local_irq_enable();
		schedule();
		arch_local_irq_disable();
		__preempt_count_sub(PREEMPT_ACTIVE);
	} while (need_resched());
}

int cond_resched(void)
{
	if (!need_resched() || in_atomic() ||
	    arch_irqs_disabled_flags(arch_local_save_flags()))
		return 0;
	preempt_schedule();
	return 1;
}

void yield(void)
{
	set_current_state(TASK_RUNNING);
	__preempt_count_add(PREEMPT_ACTIVE);
	schedule();
	__preempt_count_sub(PREEMPT_ACTIVE);
}

void scheduler_tick(void)
{
	struct rq *rq = this_rq();
	struct task_struct *p = rq->curr;

	spin_lock(&rq->lock);
	if (p == rq->idle) {
		if (!list_empty(&rq->queue))
			set_need_resched();
	} else if (p->time_slice && --p->time_slice == 0) {
		p->time_slice = SCHED_TIMESLICE;
		if (!list_empty(&rq->queue))
			set_need_resched();
	}
	spin_unlock(&rq->lock);
}

/* ---- waking ---- */

int try_to_wake_up(struct task_struct *p, unsigned int state)
{
	struct rq *rq = &runqueues[p->cpu];
	unsigned long flags;
	int woken = 0;

	spin_lock_irqsave(&rq->lock, flags);
	if (READ_ONCE(p->state) & (long)state) {
		WRITE_ONCE(p->state, TASK_RUNNING);
		woken = 1;
		if (!p->on_rq) {
			WRITE_ONCE(p->on_rq, true);
			WRITE_ONCE(rq->nr_running, rq->nr_running + 1);
			list_add_tail(&p->run_list, &rq->queue);
			if (rq->curr == rq->idle)
				resched_cpu(p->cpu);
		}
	}
	spin_unlock_irqrestore(&rq->lock, flags);
	return woken;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL);
}

/* ---- idle ---- */

void cpu_idle(void)
{
	BUG_ON(!(current->flags & PF_IDLE));
	for (;;) {
		arch_local_irq_disable();
		smp_handle_call_function();
		if (need_resched()) {
			arch_local_irq_enable();
			schedule();
			continue;
		}
		arch_idle();	/* enables interrupts and waits for one */
	}
}

/* ---- statistics ---- */

/*
 * A diagnostic read without the queue's lock: a switch while this reads
 * may be counted twice or not at all (a 64-bit value is two stores on
 * i386).
 */
u64 cpu_idle_ns(int cpu)
{
	struct rq *rq = &runqueues[cpu];
	u64 ns = READ_ONCE(rq->idle_ns), start = READ_ONCE(rq->idle_start);
	u64 now = arch_clock_ns();

	if (READ_ONCE(rq->curr) == rq->idle && now > start)
		ns += now - start;
	return ns;
}

unsigned long nr_context_switches(void)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(runqueues[cpu].nr_switches);
	return n;
}

unsigned int nr_running_on(int cpu)
{
	return READ_ONCE(runqueues[cpu].nr_running);
}

/* ---- might_sleep ---- */

void __might_sleep(const char *file, int line, bool *reported)
{
	if (!might_sleep_invalid())
		return;
	__atomic_fetch_add(&might_sleep_count, 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(reported, true, __ATOMIC_RELAXED))
		return;
	pr_err("BUG: sleeping function called from invalid context at %s:%d\n",
	       file, line);
	pr_err("in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s\n",
	       in_atomic(),
	       arch_irqs_disabled_flags(arch_local_save_flags()),
	       current->pid, current->comm);
	dump_stack();
}

unsigned long nr_might_sleep_reports(void)
{
	return READ_ONCE(might_sleep_count);
}
