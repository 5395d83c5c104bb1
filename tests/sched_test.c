/*
 * tests/sched_test.c - suite "sched": kernel threads and where they run,
 * preemption by the tick, contexts (in_interrupt, in_atomic, might_sleep),
 * timed sleeps, kernel timers, wait queues, completions and mutexes
 * (kernel/sched.c, timer.c, wait.c, mutex.c), and two benchmarks: the
 * cost of a context switch and the latency of a wake-up.
 *
 * The cases start helper threads that do the thing under test and record
 * what they saw (the CPU they ran on, what a wait returned, how often
 * they were woken) in static structs; the case checks the records once
 * the helpers are done.  Helpers never use the ktest macros.  The oracles:
 *
 *  - where a thread runs: smp_processor_id() inside it, against the CPU
 *    it was bound to (kthread_bind) or the one the scheduler gave it,
 *    which must have been the least loaded (nr_running_on) then;
 *  - who was woken: a task is on its run queue (on_rq) from its wake-up
 *    until it sleeps again (a preempted task stays on it), so once every
 *    helper is off its queue again, every helper a wake-up reached has
 *    run and counted it: the counts of wake-ups, of waiters let through
 *    and of timer runs are exact, whatever the timing.  A sleeper that
 *    was not woken has the same voluntary switch count (nvcsw) as before;
 *  - order: FIFO queues (exclusive waiters, completions, mutex hand-off)
 *    are filled one waiter at a time, each asleep before the next comes;
 *    timers are armed in a random order and must run by expiry;
 *  - preemption: two CPU-bound threads on one CPU can only take turns if
 *    the tick preempts them (their forced switches, nivcsw, say it did);
 *    with preemption off the other makes no progress although the tick
 *    asked for a switch (need_resched), and preempt_enable() switches;
 *  - time: only what the code guarantees, in jiffies.  msleep(ms) sleeps
 *    at least msecs_to_jiffies(ms) + 1 of them, exactly checked.  Wait
 *    timeouts return 0, and not before their jiffies; early wake-ups
 *    return the jiffies left.  Timers run at or after their expiry, once,
 *    in hardirq context, on their CPU.  Nanoseconds (arch_clock_ns) are
 *    printed, not judged: the TSC and the local APIC timer are each
 *    calibrated against the PIT, and under QEMU TCG on a busy host every
 *    window may see the emulated PIT late.  Boots were seen with the
 *    tick up to 140% long (the least of three windows) and, with one
 *    window, the TSC's rate taken 75% too high: a correct msleep() then
 *    measures well long, or short.
 *
 * Every wait of a case is bounded (WAIT_TICKS) and fails the case rather
 * than hang the boot; every wait of a helper either ends on kthread_stop()
 * or is bounded too, so the suite's exit can stop whatever a failed case
 * left.  Only mutex_lock() cannot be cut short: a helper stuck in it is
 * reported and left running (the thread leak check fails the case too).
 * Helpers do not return on their own: they park, asleep until
 * kthread_stop().  A thread that tells its case it is done and then
 * returns is still counted by the leak check until it has switched out
 * for the last time, which the runner cannot wait for; a thread that
 * kthread_stop() ended is one it waits for.
 *
 * On a one-CPU boot the threads share CPU 0 with the case, and every case
 * still runs but the wake-up latency benchmark (it needs an idle CPU and
 * a busy one besides the case's), which skips.  Timing figures are
 * printed, never judged; the benchmarks still check that the switches
 * they time happened, on the CPU they were meant for.
 */
#include "asm/processor.h"
#include "asm/timex.h"
#include "kernel/arch.h"
#include "kernel/mutex.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define MAX_HELPERS (2 * NR_CPUS + 8)	/* 2 a CPU, and 8 whatever the CPUs */
#define NR_TIMERS (NR_CPUS + 8)		/* 1 a CPU, and 8 more */
#define WAIT_TICKS (3 * HZ)	/* the longest a case waits for anything */
#define TURNS 2			/* rounds of the preemption ping-pong */
#define HOLD_TICKS 2		/* preemption held off after need_resched */
#define NR_EXCLUSIVE 5		/* exclusive waiters on one queue */
#define NR_COMPLETION_WAITERS 3
#define NR_FIFO_LOCKERS 4
#define MAX_MUTEX_THREADS 8
#define MUTEX_LOOPS 100
#define ORDER_TIMERS 6
#define SLOW_TIMER_US 2000	/* a timer function that takes a while */
#define PINGPONG_ROUNDS 300
#define YIELD_ROUNDS 300
#define IDLE_SAMPLES 5
#define BUSY_SAMPLES 3

/* ---- helper threads and what they record --------------------------------- */

struct helper {
	struct task_struct *task;	/* NULL once stopped */
	int id;				/* its index in helpers[] */
	int bound;			/* the CPU it was bound to, or -1 */
	bool may_block;			/* sleeps in mutex_lock() */
	u32 magic;			/* what it returns */
	int exit_code;			/* what kthread_stop() returned */
	/* Written by the thread. */
	int ran;			/* it started (atomic) */
	int cpu_seen;			/* smp_processor_id() then */
	int task_cpu;			/* current->cpu then */
	int cpu_later;			/* ... after a sleep */
	int preempt_start, preempt_later; /* preempt_count() at those times */
	bool irqs_off_start, irqs_off_later;
	bool stop_seen_early;		/* kthread_should_stop() first */
	bool stop_seen;			/* ... after parking */
	bool parked;			/* done, until kthread_stop() */
	bool timed_out;			/* a bounded wait ran out */
	bool owner_ok;			/* the mutex named it owner */
	int progress;			/* a CPU-bound count (atomic) */
	int wakeups;			/* schedule() returns (atomic) */
	int seq;			/* its turn through a queue (atomic) */
	long ret;			/* what its wait or wake-up returned */
	unsigned long jiffies_slept;	/* a timed sleep, measured */
	u64 ns_slept;
	unsigned long nivcsw;		/* forced switches, measured */
	u64 cycles;			/* a benchmark loop */
};

static struct helper helpers[MAX_HELPERS];
static int nr_helpers;

enum timer_action {
	ACT_NONE,
	ACT_WAKE_QUEUE,		/* wake_up(&sh.wq), condition as is */
	ACT_SET_FLAG,		/* sh.flag = true, then wake_up(&sh.wq) */
	ACT_COMPLETE,		/* complete(&sh.done) */
	ACT_WAKE_CASE,		/* wake_up_process(the case's thread) */
};

struct timer_rec {
	struct timer_list timer;
	enum timer_action action;
	int rearm;		/* runs left that re-arm it; -1: for ever */
	unsigned long slow_us;	/* the function busy-waits this long */
	int started;		/* the function has begun (atomic) */
	int fired;		/* ... has finished, times (atomic) */
	int cpu;		/* where it last ran */
	unsigned long when;	/* jiffies then */
	bool in_irq, in_interrupt, atomic, irqs_off;
	int hardirqs;		/* hardirq_count() / HARDIRQ_OFFSET */
};

static struct timer_rec trec[NR_TIMERS];

struct wake_sample {
	u64 wake_ns, run_ns;
	unsigned long wake_tick, run_tick;	/* the target CPU's ticks */
	unsigned long spinner_nivcsw_wake, spinner_nivcsw_run;
	int cpu;
};

/* What the helpers share with the case; reset before every case. */
static struct {
	struct task_struct *case_task;
	wait_queue_head_t wq;
	struct completion done;
	struct mutex lock;
	spinlock_t spin;
	bool flag;		/* the condition waited for */
	bool release;		/* CPU-bound helpers may stop */
	int tokens;		/* passes for exclusive waiters (atomic) */
	int passed;		/* waiters let through, in order (atomic) */
	int started;		/* yield benchmark rendezvous (atomic) */
	int turn;		/* ping-pong: whose turn */
	int self_exit_ran;	/* the thread that returns on its own */
	/* count_under_mutex */
	int inside, overlaps, bad_owner;
	unsigned long counter;
	/* hold_off_preemption */
	int before, during, after;
	bool resched;
	unsigned long held_ticks, nivcsw_before, nivcsw_after;
	/* timers */
	int nr_fired;
	int fire_order[NR_TIMERS];
	/* wake-up latency */
	int kicks;
	struct helper *spinner;
	struct wake_sample samples[IDLE_SAMPLES + BUSY_SAMPLES];
} sh;

/* ---- small helpers ------------------------------------------------------- */

/*
 * Sleeps a tick at a time until cond is true, WAIT_TICKS at most; true
 * when cond came true.
 */
#define wait_until(cond)                                                    \
	({                                                                   \
		unsigned long __end = jiffies + WAIT_TICKS;                  \
		bool __ok;                                                   \
		while (!(__ok = (cond)) && time_before(jiffies, __end))      \
			schedule_timeout_uninterruptible(1);                 \
		__ok;                                                        \
	})

/* wait_until(cond), failing the case (and leaving it) if it never is. */
#define assert_eventually(t, cond)                                          \
	do {                                                                 \
		if (!wait_until(cond)) {                                     \
			KTEST_FAIL(t, "still false after %d jiffies: %s",    \
				   WAIT_TICKS, #cond);                       \
			ktest_abort(t);                                      \
		}                                                            \
	} while (0)

static int read_int(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static int add_int(int *p, int n)
{
	return __atomic_add_fetch(p, n, __ATOMIC_ACQ_REL);
}

static void need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2+ online CPUs (one-CPU boot: -smp 1, nosmp or maxcpus=1)");
}

/* The n-th online CPU, round and round. */
static int nth_cpu(int n)
{
	unsigned int i = 0, want = (unsigned int)n % num_online_cpus();
	int cpu;

	for_each_online_cpu(cpu)
		if (i++ == want)
			return cpu;
	return 0;
}

/* The last online CPU: not the case's (CPU 0) when there are two. */
static int last_cpu(void)
{
	return nth_cpu((int)num_online_cpus() - 1);
}

static void sleep_until(unsigned long when)
{
	while (time_before(jiffies, when))
		schedule_timeout_uninterruptible(1);
}

/* A helper thread running fn, bound to cpu (-1: any), not yet woken. */
static struct helper *new_helper(struct ktest *t, int (*fn)(void *), int cpu)
{
	struct helper *h;
	struct task_struct *k;

	KTEST_ASSERT_LT(t, nr_helpers, MAX_HELPERS);
	h = &helpers[nr_helpers];
	h->id = nr_helpers;
	h->bound = cpu;
	k = kthread_create(fn, h, "sched-test/%d", h->id);
	KTEST_ASSERT_FALSE(t, IS_ERR(k));
	if (cpu >= 0)
		kthread_bind(k, (unsigned int)cpu);
	h->task = k;
	nr_helpers++;
	return h;
}

static struct helper *start_helper(struct ktest *t, int (*fn)(void *), int cpu)
{
	struct helper *h = new_helper(t, fn, cpu);

	wake_up_process(h->task);
	return h;
}

/* A helper's first act: where it runs. */
static void note_start(struct helper *h)
{
	h->cpu_seen = smp_processor_id();
	h->task_cpu = current->cpu;
	__atomic_store_n(&h->ran, 1, __ATOMIC_RELEASE);
}

/* A helper's last act: sleeps until kthread_stop(). */
static void park(struct helper *h)
{
	__atomic_store_n(&h->parked, true, __ATOMIC_RELEASE);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* Started, and off its run queue: asleep, not merely preempted. */
static bool asleep(const struct helper *h)
{
	return read_int(&h->ran) && !READ_ONCE(h->task->on_rq);
}

static bool all_asleep(void)
{
	for (int i = 0; i < nr_helpers; i++)
		if (helpers[i].task && !asleep(&helpers[i]))
			return false;
	return true;
}

static bool all_ran(void)
{
	for (int i = 0; i < nr_helpers; i++)
		if (helpers[i].task && !read_int(&helpers[i].ran))
			return false;
	return true;
}

static bool parked(const struct helper *h)
{
	return __atomic_load_n(&h->parked, __ATOMIC_ACQUIRE);
}

static bool all_parked(void)
{
	for (int i = 0; i < nr_helpers; i++)
		if (helpers[i].task && !parked(&helpers[i]))
			return false;
	return true;
}

/* Through a queue: its turn among those that went through. */
static void note_passed(struct helper *h)
{
	__atomic_store_n(&h->seq, add_int(&sh.passed, 1), __ATOMIC_RELEASE);
}

/* Stops every helper still running, keeping what kthread_stop() returns. */
static void stop_helpers(struct ktest *t)
{
	for (int i = 0; i < nr_helpers; i++) {
		struct helper *h = &helpers[i];

		if (!h->task)
			continue;
		if (h->may_block && !wait_until(parked(h))) {
			KTEST_FAIL(t, "%s is stuck in mutex_lock(): left running",
				   h->task->comm);
			h->task = NULL;
			continue;
		}
		h->exit_code = kthread_stop(h->task);
		h->task = NULL;
	}
}

/* ---- timer functions and what they record -------------------------------- */

static void timer_fn(unsigned long data)
{
	struct timer_rec *r = &trec[data];
	int n;

	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	r->cpu = smp_processor_id();
	r->when = jiffies;
	r->in_irq = in_irq();
	r->in_interrupt = in_interrupt();
	r->atomic = in_atomic();
	r->irqs_off = irqs_disabled();
	r->hardirqs = hardirq_count() / HARDIRQ_OFFSET;
	n = __atomic_fetch_add(&sh.nr_fired, 1, __ATOMIC_ACQ_REL);
	if (n < NR_TIMERS)
		sh.fire_order[n] = (int)data;
	switch (r->action) {
	case ACT_NONE:
		break;
	case ACT_WAKE_QUEUE:
		wake_up(&sh.wq);
		break;
	case ACT_SET_FLAG:
		WRITE_ONCE(sh.flag, true);
		wake_up(&sh.wq);
		break;
	case ACT_COMPLETE:
		complete(&sh.done);
		break;
	case ACT_WAKE_CASE:
		wake_up_process(sh.case_task);
		break;
	}
	if (r->slow_us)
		udelay(r->slow_us);
	if (r->rearm) {
		if (r->rearm > 0)
			r->rearm--;
		mod_timer(&r->timer, jiffies + 1);
	}
	add_int(&r->fired, 1);
}

/* Arms trec[i] for expires on cpu (-1: this CPU, with add_timer). */
static void arm(int i, unsigned long expires, int cpu)
{
	struct timer_list *timer = &trec[i].timer;

	timer->expires = expires;
	if (cpu < 0)
		add_timer(timer);
	else
		add_timer_on(timer, cpu);
}

/* The function ran in the tick's hardirq, on cpu, at or after expires. */
static void expect_ran_in_irq(struct ktest *t, const struct timer_rec *r,
			      int cpu, unsigned long expires)
{
	KTEST_EXPECT_EQ(t, r->cpu, cpu);
	KTEST_EXPECT_TRUE(t, r->in_irq);
	KTEST_EXPECT_TRUE(t, r->in_interrupt);
	KTEST_EXPECT_TRUE(t, r->atomic);
	KTEST_EXPECT_TRUE(t, r->irqs_off);
	KTEST_EXPECT_EQ(t, r->hardirqs, 1);
	KTEST_EXPECT_TRUE(t, time_after_eq(r->when, expires));
}

/* ---- suite set-up -------------------------------------------------------- */

static int sched_test_init(struct ktest *t)
{
	memset(helpers, 0, sizeof(helpers));
	nr_helpers = 0;
	memset(&sh, 0, sizeof(sh));
	sh.case_task = current;
	init_waitqueue_head(&sh.wq);
	init_completion(&sh.done);
	mutex_init(&sh.lock);
	spin_lock_init(&sh.spin);
	memset(trec, 0, sizeof(trec));
	for (int i = 0; i < NR_TIMERS; i++)
		setup_timer(&trec[i].timer, timer_fn, (unsigned long)i);
	return 0;
}

static void sched_test_exit(struct ktest *t)
{
	stop_helpers(t);
	for (int i = 0; i < NR_TIMERS; i++)
		del_timer_sync(&trec[i].timer);
}

/* ---- threads and CPUs ---------------------------------------------------- */

static int report_cpu(void *data)
{
	struct helper *h = data;

	note_start(h);
	schedule_timeout_uninterruptible(1);
	h->cpu_later = smp_processor_id();
	park(h);
	return smp_processor_id();
}

static void threads_run_on_every_cpu(struct ktest *t)
{
	int cpu, i;

	for_each_online_cpu(cpu)
		new_helper(t, report_cpu, cpu);
	KTEST_EXPECT_EQ(t, nr_helpers, (int)num_online_cpus());
	for (i = 0; i < nr_helpers; i++)
		KTEST_EXPECT_EQ(t, wake_up_process(helpers[i].task), 1);
	assert_eventually(t, all_parked());
	for (i = 0; i < nr_helpers; i++) {
		struct helper *h = &helpers[i];

		KTEST_EXPECT_EQ(t, h->cpu_seen, h->bound);
		KTEST_EXPECT_EQ(t, h->task_cpu, h->bound);
		/* Tasks do not migrate: after a sleep, still there. */
		KTEST_EXPECT_EQ(t, h->cpu_later, h->bound);
	}
	stop_helpers(t);
	for (i = 0; i < nr_helpers; i++)
		KTEST_EXPECT_EQ(t, helpers[i].exit_code, helpers[i].bound);
}

static int yield_until_released(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS;

	note_start(h);
	while (!READ_ONCE(sh.release) && !kthread_should_stop()) {
		if (time_after(jiffies, end)) {
			h->timed_out = true;
			break;
		}
		yield();
	}
	park(h);
	return 0;
}

/*
 * Unbound threads that stay runnable (they yield until released), started
 * one after the other: each goes to a CPU that was least loaded when it
 * was created, so 2 per CPU leave none without one (CPU 0 runs the case).
 */
static void unbound_threads_go_to_the_least_loaded_cpu(struct ktest *t)
{
	unsigned int per_cpu[NR_CPUS] = { 0 };
	int n = 2 * (int)num_online_cpus(), cpu, i;

	for (i = 0; i < n; i++) {
		unsigned int load[NR_CPUS], least = ~0u;
		struct helper *h;

		for_each_online_cpu(cpu) {
			load[cpu] = nr_running_on(cpu);
			least = min(least, load[cpu]);
		}
		h = start_helper(t, yield_until_released, -1);
		cpu = h->task->cpu;
		KTEST_ASSERT_TRUE(t, cpu >= 0 && cpu < (int)nr_cpu_ids);
		KTEST_ASSERT_TRUE(t, cpu_online(cpu));
		KTEST_EXPECT_EQ(t, load[cpu], least);
		per_cpu[cpu]++;
	}
	assert_eventually(t, all_ran());
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, helpers[i].cpu_seen, helpers[i].task->cpu);
	for_each_online_cpu(cpu) {
		ktest_printf(t, "CPU %d: %u of %d threads", cpu, per_cpu[cpu], n);
		KTEST_EXPECT_GE(t, per_cpu[cpu], 1U);
	}
	WRITE_ONCE(sh.release, true);
	assert_eventually(t, all_parked());
	for (i = 0; i < n; i++)
		KTEST_EXPECT_FALSE(t, helpers[i].timed_out);
}

static int until_stopped(void *data)
{
	struct helper *h = data;

	h->stop_seen_early = kthread_should_stop();
	note_start(h);
	park(h);
	h->stop_seen = kthread_should_stop();
	return (int)h->magic;
}

static int exit_at_once(void *data)
{
	__atomic_store_n(&sh.self_exit_ran, 1, __ATOMIC_RELEASE);
	return 0;
}

static void kthread_stop_returns_the_exit_code(struct ktest *t)
{
	unsigned int base = nr_threads();
	int n = (int)min(num_online_cpus() + 1, 4U), i;
	struct task_struct *k;
	char comm[TASK_COMM_LEN];

	for (i = 0; i < n; i++) {
		struct helper *h = new_helper(t, until_stopped, -1);
		struct task_struct *k = h->task;

		h->magic = ktest_random(t);
		snprintf(comm, sizeof(comm), "sched-test/%d", i);
		KTEST_EXPECT_STREQ(t, k->comm, comm);
		KTEST_EXPECT_EQ(t, k->state, (long)TASK_UNINTERRUPTIBLE);
		if (i)
			KTEST_EXPECT_GT(t, k->pid, helpers[i - 1].task->pid);
	}
	/* Created, not yet woken: counted already. */
	KTEST_EXPECT_EQ(t, nr_threads(), base + (unsigned int)n);
	for (i = 0; i < n; i++)
		wake_up_process(helpers[i].task);
	assert_eventually(t, all_parked());
	stop_helpers(t);
	for (i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, (u32)helpers[i].exit_code, helpers[i].magic);
		KTEST_EXPECT_FALSE(t, helpers[i].stop_seen_early);
		KTEST_EXPECT_TRUE(t, helpers[i].stop_seen);
	}
	/* Stopped threads are freed (perhaps just after kthread_stop). */
	assert_eventually(t, nr_threads() == base);

	/* One that returns on its own is freed without anyone's help. */
	k = kthread_create(exit_at_once, NULL, "sched-test/exit");
	KTEST_ASSERT_FALSE(t, IS_ERR(k));
	KTEST_EXPECT_EQ(t, nr_threads(), base + 1);
	wake_up_process(k);
	assert_eventually(t, nr_threads() == base);
	KTEST_EXPECT_EQ(t, read_int(&sh.self_exit_ran), 1);
}

/* ---- contexts ------------------------------------------------------------ */

static int report_context(void *data)
{
	struct helper *h = data;

	h->preempt_start = preempt_count();
	h->irqs_off_start = irqs_disabled();
	note_start(h);
	schedule_timeout_uninterruptible(1);
	h->preempt_later = preempt_count();
	h->irqs_off_later = irqs_disabled();
	park(h);
	return 0;
}

static void contexts_are_told_apart(struct ktest *t)
{
	unsigned long flags;
	struct helper *h;

	/* The case's thread: a plain task. */
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	KTEST_EXPECT_FALSE(t, in_interrupt());
	KTEST_EXPECT_FALSE(t, in_atomic());
	KTEST_EXPECT_FALSE(t, irqs_disabled());

	preempt_disable();
	KTEST_EXPECT_TRUE(t, in_atomic());
	KTEST_EXPECT_FALSE(t, in_interrupt());
	preempt_disable();
	KTEST_EXPECT_EQ(t, preempt_count(), 2);
	preempt_enable();
	preempt_enable();
	KTEST_EXPECT_EQ(t, preempt_count(), 0);

	spin_lock(&sh.spin);
	KTEST_EXPECT_TRUE(t, in_atomic());
	KTEST_EXPECT_FALSE(t, in_interrupt());
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_TRUE(t, spin_is_held(&sh.spin));
	spin_unlock(&sh.spin);
	KTEST_EXPECT_FALSE(t, in_atomic());

	spin_lock_irqsave(&sh.spin, flags);
	KTEST_EXPECT_TRUE(t, in_atomic());
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	spin_unlock_irqrestore(&sh.spin, flags);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_EQ(t, preempt_count(), 0);

	/* Interrupts off is not atomic in the preempt_count sense. */
	local_irq_disable();
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	KTEST_EXPECT_FALSE(t, in_atomic());
	local_irq_enable();

	/* A timer function: hardirq context, one level deep. */
	arm(0, jiffies + 1, -1);
	/* A new thread, and the same thread after a sleep: plain tasks. */
	h = start_helper(t, report_context, last_cpu());
	assert_eventually(t, read_int(&trec[0].fired) && all_parked());
	expect_ran_in_irq(t, &trec[0], smp_processor_id(),
			  trec[0].timer.expires);
	KTEST_EXPECT_EQ(t, h->preempt_start, 0);
	KTEST_EXPECT_FALSE(t, h->irqs_off_start);
	KTEST_EXPECT_EQ(t, h->preempt_later, 0);
	KTEST_EXPECT_FALSE(t, h->irqs_off_later);
	KTEST_EXPECT_EQ(t, h->cpu_seen, h->bound);
}

/* One call site for the whole case: it reports (prints) once per boot. */
static void call_might_sleep(void)
{
	might_sleep();
}

static void might_sleep_counts_atomic_callers(struct ktest *t)
{
	unsigned long base = nr_might_sleep_reports();

	call_might_sleep();
	KTEST_EXPECT_EQ(t, nr_might_sleep_reports() - base, 0UL);

	ktest_printf(t, "expected below: one \"BUG: sleeping function called from invalid context\" report");
	preempt_disable();
	for (int i = 0; i < 3; i++)
		call_might_sleep();
	preempt_enable();
	KTEST_EXPECT_EQ(t, nr_might_sleep_reports() - base, 3UL);

	local_irq_disable();
	call_might_sleep();
	local_irq_enable();
	KTEST_EXPECT_EQ(t, nr_might_sleep_reports() - base, 4UL);

	spin_lock(&sh.spin);
	call_might_sleep();
	spin_unlock(&sh.spin);
	KTEST_EXPECT_EQ(t, nr_might_sleep_reports() - base, 5UL);

	call_might_sleep();
	KTEST_EXPECT_EQ(t, nr_might_sleep_reports() - base, 5UL);
}

/* ---- preemption ---------------------------------------------------------- */

/*
 * Both on one CPU, never sleeping: each publishes round r and spins until
 * the other has too.  Neither can get past its first round unless the
 * tick takes the CPU from it.
 */
static int take_turns(void *data)
{
	struct helper *h = data, *other = &helpers[h->id ^ 1];
	unsigned long end = jiffies + WAIT_TICKS;

	note_start(h);
	for (int r = 1; r <= TURNS; r++) {
		__atomic_store_n(&h->progress, r, __ATOMIC_RELEASE);
		while (read_int(&other->progress) < r) {
			if (time_after(jiffies, end) || kthread_should_stop()) {
				h->timed_out = true;
				goto out;
			}
			cpu_relax();
		}
	}
out:
	h->nivcsw = current->nivcsw;
	park(h);
	return 0;
}

static void tick_preempts_cpu_bound_threads(struct ktest *t)
{
	int cpu = last_cpu();

	new_helper(t, take_turns, cpu);
	new_helper(t, take_turns, cpu);
	wake_up_process(helpers[0].task);
	wake_up_process(helpers[1].task);
	assert_eventually(t, all_parked());
	for (int i = 0; i < 2; i++) {
		struct helper *h = &helpers[i];

		KTEST_EXPECT_EQ(t, h->cpu_seen, cpu);
		KTEST_EXPECT_FALSE(t, h->timed_out);
		KTEST_EXPECT_EQ(t, read_int(&h->progress), TURNS);
		/* Each had to be switched out while runnable. */
		KTEST_EXPECT_GE(t, h->nivcsw, 1UL);
	}
	ktest_printf(t, "CPU %d: forced switches %lu and %lu", cpu,
		     helpers[0].nivcsw, helpers[1].nivcsw);
}

static int count_while_running(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS;

	note_start(h);
	while (!READ_ONCE(sh.release) && !kthread_should_stop() &&
	       time_before(jiffies, end)) {
		__atomic_add_fetch(&h->progress, 1, __ATOMIC_RELAXED);
		cpu_relax();
	}
	park(h);
	return 0;
}

/*
 * With preemption off, spins until the tick asks for a reschedule and
 * HOLD_TICKS more of this CPU's ticks: the counter beside it on this CPU
 * (helpers[0]) must not move meanwhile, and must once preempt_enable()
 * has given way.
 */
static int hold_off_preemption(void *data)
{
	struct helper *h = data, *other = &helpers[0];
	int cpu = smp_processor_id();
	unsigned long end = jiffies + WAIT_TICKS, ticks0, ticks;

	note_start(h);
	preempt_disable();
	sh.before = read_int(&other->progress);
	ticks0 = timer_ticks_on(cpu);
	while (!need_resched() && time_before(jiffies, end))
		cpu_relax();
	sh.resched = need_resched();
	ticks = timer_ticks_on(cpu);
	while (timer_ticks_on(cpu) - ticks < HOLD_TICKS &&
	       time_before(jiffies, end))
		cpu_relax();
	sh.held_ticks = timer_ticks_on(cpu) - ticks0;
	sh.during = read_int(&other->progress);
	sh.nivcsw_before = current->nivcsw;
	preempt_enable();
	sh.nivcsw_after = current->nivcsw;
	sh.after = read_int(&other->progress);
	WRITE_ONCE(sh.release, true);
	park(h);
	return 0;
}

static void preempt_disable_holds_off_the_tick(struct ktest *t)
{
	int cpu = last_cpu();

	/* The counter first: it is runnable when the holder starts. */
	start_helper(t, count_while_running, cpu);
	start_helper(t, hold_off_preemption, cpu);
	assert_eventually(t, all_parked());
	KTEST_EXPECT_EQ(t, helpers[0].cpu_seen, cpu);
	KTEST_EXPECT_EQ(t, helpers[1].cpu_seen, cpu);
	KTEST_EXPECT_TRUE(t, sh.resched);
	KTEST_EXPECT_GE(t, sh.held_ticks, (unsigned long)HOLD_TICKS);
	KTEST_EXPECT_EQ(t, sh.during, sh.before);
	KTEST_EXPECT_GT(t, sh.nivcsw_after, sh.nivcsw_before);
	KTEST_EXPECT_GT(t, sh.after, sh.during);
	ktest_printf(t, "CPU %d: preemption held off for %lu ticks, the other thread counted %d before and %d after",
		     cpu, sh.held_ticks, sh.during, sh.after);
}

/* ---- sleeping for a time ------------------------------------------------- */

/* msleep(ms): how long it took, in jiffies and ns. */
static void timed_msleep(unsigned int ms, unsigned long *dj, u64 *dns)
{
	unsigned long j0;
	u64 t0;

	j0 = jiffies;
	t0 = arch_clock_ns();
	msleep(ms);
	*dns = arch_clock_ns() - t0;
	*dj = jiffies - j0;
}

static void expect_slept(struct ktest *t, unsigned int ms, unsigned long dj,
			 u64 dns, int cpu)
{
	ktest_printf(t, "msleep(%u) on CPU %d: %lu jiffies (at least %lu), %llu us",
		     ms, cpu, dj, msecs_to_jiffies(ms) + 1,
		     (unsigned long long)(dns / 1000));
	KTEST_EXPECT_GE(t, dj, msecs_to_jiffies(ms) + 1);
}

#define REMOTE_SLEEP_MS 10

static int sleep_remotely(void *data)
{
	struct helper *h = data;

	note_start(h);
	timed_msleep(REMOTE_SLEEP_MS, &h->jiffies_slept, &h->ns_slept);
	h->cpu_later = smp_processor_id();
	park(h);
	return 0;
}

static void msleep_sleeps_at_least(struct ktest *t)
{
	static const unsigned int ms[] = { 1, 4, 5, 20 };
	struct helper *h;

	/* Meanwhile, on another CPU: its timers are its own tick's. */
	h = start_helper(t, sleep_remotely, last_cpu());
	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		unsigned long dj;
		u64 dns;

		timed_msleep(ms[i], &dj, &dns);
		expect_slept(t, ms[i], dj, dns, smp_processor_id());
	}
	assert_eventually(t, all_parked());
	KTEST_EXPECT_EQ(t, h->cpu_later, h->bound);
	expect_slept(t, REMOTE_SLEEP_MS, h->jiffies_slept, h->ns_slept,
		     h->cpu_later);
}

/* Wakes the case once it sleeps; what wake_up_process() said in ret. */
static int wake_the_case(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS;

	note_start(h);
	while (READ_ONCE(sh.case_task->on_rq) && !kthread_should_stop() &&
	       time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	h->ret = wake_up_process(sh.case_task);
	park(h);
	return 0;
}

static void schedule_timeout_returns_the_time_left(struct ktest *t)
{
	unsigned long j0, j1;
	struct helper *h;
	long ret;

	/* A running task is not woken. */
	KTEST_EXPECT_EQ(t, wake_up_process(current), 0);

	/* Nobody wakes it: 0, after the whole timeout. */
	j0 = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	ret = schedule_timeout(2);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, ret, 0L);
	KTEST_EXPECT_GE(t, j1 - j0, 2UL);
	KTEST_EXPECT_EQ(t, current->state, (long)TASK_RUNNING);

	/* A timer wakes it 2 jiffies in: the jiffies left. */
	trec[0].action = ACT_WAKE_CASE;
	j0 = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	arm(0, j0 + 2, -1);
	ret = schedule_timeout(HZ);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, read_int(&trec[0].fired), 1);
	KTEST_EXPECT_GE(t, ret, 1L);
	KTEST_EXPECT_LT(t, ret, (long)HZ);
	KTEST_EXPECT_GE(t, ret, (long)HZ - (long)(j1 - j0));

	/*
	 * Another thread wakes it (from another CPU when there is one) as
	 * soon as it sleeps, perhaps within the same jiffy: up to all of it
	 * left.
	 */
	h = start_helper(t, wake_the_case, last_cpu());
	j0 = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	ret = schedule_timeout(HZ);
	j1 = jiffies;
	assert_eventually(t, all_parked());
	KTEST_EXPECT_EQ(t, h->ret, 1L);
	KTEST_EXPECT_GE(t, ret, 1L);
	KTEST_EXPECT_GE(t, ret, (long)HZ - (long)(j1 - j0));
	KTEST_EXPECT_LE(t, ret, (long)HZ);
}

/* ---- kernel timers ------------------------------------------------------- */

static int arm_a_timer(void *data)
{
	struct helper *h = data;

	note_start(h);
	arm(NR_CPUS + 1, jiffies + 2, -1);
	park(h);
	return 0;
}

static bool every_cpu_timer_fired(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (!read_int(&trec[cpu].fired))
			return false;
	return true;
}

static void timer_runs_once_in_irq_on_its_cpu(struct ktest *t)
{
	unsigned long j0 = jiffies;
	int cpu, me = smp_processor_id(), remote = last_cpu();

	for_each_online_cpu(cpu)
		arm(cpu, j0 + 2, cpu);
	arm(NR_CPUS, j0 + 2, -1);
	start_helper(t, arm_a_timer, remote);
	assert_eventually(t, read_int(&trec[NR_CPUS].fired) &&
			     read_int(&trec[NR_CPUS + 1].fired) &&
			     every_cpu_timer_fired());
	/* A few more ticks: none of them runs again. */
	sleep_until(jiffies + 3);
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, read_int(&trec[cpu].fired), 1);
		KTEST_EXPECT_FALSE(t, timer_pending(&trec[cpu].timer));
		expect_ran_in_irq(t, &trec[cpu], cpu, j0 + 2);
	}
	KTEST_EXPECT_EQ(t, read_int(&trec[NR_CPUS].fired), 1);
	expect_ran_in_irq(t, &trec[NR_CPUS], me, j0 + 2);
	KTEST_EXPECT_EQ(t, read_int(&trec[NR_CPUS + 1].fired), 1);
	expect_ran_in_irq(t, &trec[NR_CPUS + 1], remote,
			  trec[NR_CPUS + 1].timer.expires);
	KTEST_EXPECT_EQ(t, read_int(&sh.nr_fired), (int)num_online_cpus() + 2);
}

static void mod_timer_rearms_and_del_timer_disarms(struct ktest *t)
{
	struct timer_rec *r = &trec[0], *self = &trec[1];
	unsigned long j0, expires;

	/* Never armed. */
	KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 0);

	/* mod_timer() moves a pending timer (1): it runs then, once. */
	j0 = jiffies;
	arm(0, j0 + HZ, -1);
	KTEST_EXPECT_TRUE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, mod_timer(&r->timer, j0 + 2), 1);
	assert_eventually(t, read_int(&r->fired) == 1);
	KTEST_EXPECT_TRUE(t, time_after_eq(r->when, j0 + 2));
	KTEST_EXPECT_TRUE(t, time_before(r->when, j0 + HZ));
	KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 0);

	/* mod_timer() arms an idle one (0); del_timer() disarms it (1). */
	expires = jiffies + 2;
	KTEST_EXPECT_EQ(t, mod_timer(&r->timer, expires), 0);
	KTEST_EXPECT_TRUE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 1);
	KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 0);
	/* This CPU's tick past its expiry has run this CPU's timers. */
	sleep_until(expires + 1);
	KTEST_EXPECT_EQ(t, read_int(&r->fired), 1);

	/* A function that re-arms its own timer 3 times runs 4 times. */
	self->rearm = 3;
	arm(1, jiffies + 1, -1);
	assert_eventually(t, read_int(&self->fired) == 4);
	KTEST_EXPECT_FALSE(t, timer_pending(&self->timer));
	sleep_until(jiffies + 2);
	KTEST_EXPECT_EQ(t, read_int(&self->fired), 4);
}

static void del_timer_sync_waits_for_the_function(struct ktest *t)
{
	struct timer_rec *periodic = &trec[0], *slow = &trec[1];
	int cpu = last_cpu(), fired;
	unsigned long end;

	/*
	 * A timer that re-arms itself every tick: once del_timer_sync() is
	 * back it is disarmed, and runs no more.  (What it returns depends
	 * on whether it caught the function running.)
	 */
	periodic->rearm = -1;
	arm(0, jiffies + 1, cpu);
	assert_eventually(t, read_int(&periodic->fired) >= 3);
	del_timer_sync(&periodic->timer);
	KTEST_EXPECT_FALSE(t, timer_pending(&periodic->timer));
	fired = read_int(&periodic->fired);
	sleep_until(jiffies + 3);
	KTEST_EXPECT_EQ(t, read_int(&periodic->fired), fired);
	KTEST_EXPECT_EQ(t, periodic->cpu, cpu);

	/*
	 * A function that takes SLOW_TIMER_US on another CPU, caught while it
	 * runs: del_timer_sync() finds nothing pending (0) and returns only
	 * once the function has.
	 */
	if (num_online_cpus() < 2) {
		ktest_printf(t, "one CPU: a timer function cannot be caught running");
		return;
	}
	slow->slow_us = SLOW_TIMER_US;
	arm(1, jiffies + 1, cpu);
	end = jiffies + WAIT_TICKS;
	while (!read_int(&slow->started) && time_before(jiffies, end))
		cpu_relax();
	KTEST_ASSERT_TRUE(t, read_int(&slow->started));
	KTEST_EXPECT_EQ(t, del_timer_sync(&slow->timer), 0);
	KTEST_EXPECT_EQ(t, read_int(&slow->fired), 1);
	KTEST_EXPECT_EQ(t, slow->cpu, cpu);
}

static void timers_run_in_expiry_order(struct ktest *t)
{
	int perm[ORDER_TIMERS];
	unsigned long j0;
	int i;

	/* Expiries j0+2 .. j0+2+ORDER_TIMERS-1, armed in a random order. */
	for (i = 0; i < ORDER_TIMERS; i++)
		perm[i] = i;
	for (i = ORDER_TIMERS - 1; i > 0; i--) {
		int j = (int)ktest_random_below(t, (u32)i + 1), x = perm[i];

		perm[i] = perm[j];
		perm[j] = x;
	}
	j0 = jiffies;
	for (i = 0; i < ORDER_TIMERS; i++)
		arm(i, j0 + 2 + (unsigned long)perm[i], -1);
	assert_eventually(t, read_int(&sh.nr_fired) == ORDER_TIMERS);
	for (int k = 0; k < ORDER_TIMERS; k++) {
		struct timer_rec *r = &trec[sh.fire_order[k]];

		KTEST_EXPECT_EQ(t, perm[sh.fire_order[k]], k);
		KTEST_EXPECT_TRUE(t, time_after_eq(r->when, r->timer.expires));
	}
}

/* ---- wait queues --------------------------------------------------------- */

static int wait_for_flag(void *data)
{
	struct helper *h = data;

	note_start(h);
	wait_event(sh.wq, READ_ONCE(sh.flag) || kthread_should_stop());
	h->cpu_later = smp_processor_id();
	__atomic_store_n(&h->seq, 1, __ATOMIC_RELEASE);
	park(h);
	return 0;
}

static void wait_event_needs_its_condition(struct ktest *t)
{
	struct helper *h = start_helper(t, wait_for_flag, last_cpu());
	unsigned long nvcsw;

	assert_eventually(t, asleep(h));
	KTEST_EXPECT_TRUE(t, waitqueue_active(&sh.wq));

	/* Woken with the condition false: it looks, and sleeps again. */
	nvcsw = READ_ONCE(h->task->nvcsw);
	wake_up(&sh.wq);
	assert_eventually(t, asleep(h) && READ_ONCE(h->task->nvcsw) != nvcsw);
	KTEST_EXPECT_EQ(t, READ_ONCE(h->task->nvcsw), nvcsw + 1);
	KTEST_EXPECT_EQ(t, read_int(&h->seq), 0);
	KTEST_EXPECT_TRUE(t, waitqueue_active(&sh.wq));

	/* Now true: it returns, where it slept (another CPU if any). */
	WRITE_ONCE(sh.flag, true);
	wake_up(&sh.wq);
	assert_eventually(t, read_int(&h->seq) == 1);
	KTEST_EXPECT_EQ(t, h->cpu_later, h->bound);
	KTEST_EXPECT_FALSE(t, waitqueue_active(&sh.wq));
}

static bool take_token(void)
{
	int n = read_int(&sh.tokens);

	while (n > 0)
		if (__atomic_compare_exchange_n(&sh.tokens, &n, n - 1, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return true;
	return false;
}

/* Exclusive: goes through with a token, counts the wake-ups without one. */
static int wait_exclusive(void *data)
{
	struct helper *h = data;
	DEFINE_WAIT(wait);
	bool got = false;

	note_start(h);
	for (;;) {
		prepare_to_wait_exclusive(&sh.wq, &wait, TASK_UNINTERRUPTIBLE);
		if (kthread_should_stop() || (got = take_token()))
			break;
		schedule();
		add_int(&h->wakeups, 1);
	}
	finish_wait(&sh.wq, &wait);
	if (got)
		note_passed(h);
	park(h);
	return 0;
}

/* Not exclusive: every wake-up reaches it; it leaves when sh.flag is set. */
static int wait_shared(void *data)
{
	struct helper *h = data;
	DEFINE_WAIT(wait);

	note_start(h);
	for (;;) {
		prepare_to_wait(&sh.wq, &wait, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(sh.flag) || kthread_should_stop())
			break;
		schedule();
		add_int(&h->wakeups, 1);
	}
	finish_wait(&sh.wq, &wait);
	park(h);
	return 0;
}

/*
 * After a wake-up: once everyone it woke has run and slept again, the
 * count of exclusive waiters let through is exact, and the tokens used.
 */
static void expect_let_through(struct ktest *t, int passed)
{
	assert_eventually(t, all_asleep());
	KTEST_EXPECT_EQ(t, read_int(&sh.passed), passed);
	KTEST_EXPECT_EQ(t, read_int(&sh.tokens), 0);
}

/* Exclusive waiters woken (and let through) so far: the first n. */
static void expect_first_woken(struct ktest *t, struct helper **ex, int n)
{
	for (int i = 0; i < NR_EXCLUSIVE; i++) {
		KTEST_EXPECT_EQ(t, read_int(&ex[i]->wakeups), i < n ? 1 : 0);
		KTEST_EXPECT_EQ(t, read_int(&ex[i]->seq) != 0, i < n);
	}
}

static void wake_up_wakes_one_exclusive_waiter(struct ktest *t)
{
	struct helper *shared, *ex[NR_EXCLUSIVE];
	int i;

	/* One plain waiter, then the exclusive ones in a known order. */
	shared = start_helper(t, wait_shared, nth_cpu(0));
	assert_eventually(t, asleep(shared));
	for (i = 0; i < NR_EXCLUSIVE; i++) {
		ex[i] = start_helper(t, wait_exclusive, nth_cpu(i + 1));
		assert_eventually(t, asleep(ex[i]));
	}

	/* wake_up(): the plain waiter and the first exclusive one. */
	__atomic_store_n(&sh.tokens, 1, __ATOMIC_RELEASE);
	wake_up(&sh.wq);
	expect_let_through(t, 1);
	KTEST_EXPECT_EQ(t, read_int(&shared->wakeups), 1);
	expect_first_woken(t, ex, 1);

	/* wake_up_nr(2): the plain one again and the next two. */
	__atomic_store_n(&sh.tokens, 2, __ATOMIC_RELEASE);
	wake_up_nr(&sh.wq, 2);
	expect_let_through(t, 3);
	KTEST_EXPECT_EQ(t, read_int(&shared->wakeups), 2);
	expect_first_woken(t, ex, 3);

	/* wake_up_all(): everyone left. */
	WRITE_ONCE(sh.flag, true);
	__atomic_store_n(&sh.tokens, 2, __ATOMIC_RELEASE);
	wake_up_all(&sh.wq);
	expect_let_through(t, NR_EXCLUSIVE);
	KTEST_EXPECT_EQ(t, read_int(&shared->wakeups), 3);
	expect_first_woken(t, ex, NR_EXCLUSIVE);
	for (i = 0; i < NR_EXCLUSIVE; i++)
		KTEST_EXPECT_EQ(t, ex[i]->cpu_seen, ex[i]->bound);
	KTEST_EXPECT_TRUE(t, all_parked());
	KTEST_EXPECT_FALSE(t, waitqueue_active(&sh.wq));
}

static void wait_event_timeout_returns_the_time_left(struct ktest *t)
{
	unsigned long j0, j1;
	long ret;

	/* False throughout: 0, and not before the timeout. */
	j0 = jiffies;
	ret = wait_event_timeout(sh.wq, READ_ONCE(sh.flag), 3);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, ret, 0L);
	KTEST_EXPECT_GE(t, j1 - j0, 3UL);

	/* True already: all of the timeout left. */
	WRITE_ONCE(sh.flag, true);
	ret = wait_event_timeout(sh.wq, READ_ONCE(sh.flag), 7);
	KTEST_EXPECT_EQ(t, ret, 7L);
	WRITE_ONCE(sh.flag, false);

	/*
	 * A wake-up with the condition still false (a timer at +1) does not
	 * end the wait; the one that makes it true (+3) does: the jiffies
	 * left.
	 */
	trec[0].action = ACT_WAKE_QUEUE;
	trec[1].action = ACT_SET_FLAG;
	j0 = jiffies;
	arm(0, j0 + 1, -1);
	arm(1, j0 + 3, -1);
	ret = wait_event_timeout(sh.wq, READ_ONCE(sh.flag), HZ);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, read_int(&trec[0].fired), 1);
	KTEST_EXPECT_EQ(t, read_int(&trec[1].fired), 1);
	KTEST_EXPECT_GE(t, j1 - j0, 3UL);
	KTEST_EXPECT_GE(t, ret, 1L);
	KTEST_EXPECT_LT(t, ret, (long)HZ);
	KTEST_EXPECT_GE(t, ret, (long)HZ - (long)(j1 - j0));
}

/* ---- completions --------------------------------------------------------- */

static int wait_for_done(void *data)
{
	struct helper *h = data;

	note_start(h);
	h->ret = (long)wait_for_completion_timeout(&sh.done, WAIT_TICKS);
	if (h->ret)
		note_passed(h);
	park(h);
	return 0;
}

static void complete_lets_one_waiter_through(struct ktest *t)
{
	unsigned long nvcsw[NR_COMPLETION_WAITERS];
	int i;

	for (i = 0; i < NR_COMPLETION_WAITERS; i++) {
		struct helper *h;

		h = start_helper(t, wait_for_done, nth_cpu(i + 1));

		assert_eventually(t, asleep(h));
	}

	/*
	 * complete(): the first waiter goes through, and the others are not
	 * even woken (a waiter woken for nothing sleeps again: one more
	 * voluntary switch).
	 */
	for (i = 0; i < NR_COMPLETION_WAITERS; i++)
		nvcsw[i] = READ_ONCE(helpers[i].task->nvcsw);
	complete(&sh.done);
	assert_eventually(t, all_asleep());
	KTEST_EXPECT_EQ(t, read_int(&sh.passed), 1);
	KTEST_EXPECT_EQ(t, read_int(&helpers[0].seq), 1);
	for (i = 1; i < NR_COMPLETION_WAITERS; i++)
		KTEST_EXPECT_EQ(t, READ_ONCE(helpers[i].task->nvcsw), nvcsw[i]);
	KTEST_EXPECT_FALSE(t, completion_done(&sh.done));

	/* complete_all(): the rest, and whoever comes later. */
	complete_all(&sh.done);
	assert_eventually(t, all_parked());
	KTEST_EXPECT_EQ(t, read_int(&sh.passed), NR_COMPLETION_WAITERS);
	for (i = 0; i < NR_COMPLETION_WAITERS; i++) {
		KTEST_EXPECT_GE(t, helpers[i].ret, 1L);
		KTEST_EXPECT_LE(t, helpers[i].ret, (long)WAIT_TICKS);
		KTEST_EXPECT_EQ(t, helpers[i].cpu_seen, helpers[i].bound);
	}
	KTEST_EXPECT_TRUE(t, completion_done(&sh.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&sh.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&sh.done));
	KTEST_EXPECT_EQ(t, wait_for_completion_timeout(&sh.done, 1), 1UL);
}

static void completion_counts_and_times_out(struct ktest *t)
{
	unsigned long j0, j1, ret;

	KTEST_EXPECT_FALSE(t, completion_done(&sh.done));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&sh.done));

	/* Two complete()s with nobody waiting: two passes. */
	complete(&sh.done);
	complete(&sh.done);
	KTEST_EXPECT_TRUE(t, completion_done(&sh.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&sh.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&sh.done));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&sh.done));
	complete(&sh.done);
	reinit_completion(&sh.done);
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&sh.done));

	/* Nobody completes: 0, and not before the timeout. */
	j0 = jiffies;
	ret = wait_for_completion_timeout(&sh.done, 3);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, ret, 0UL);
	KTEST_EXPECT_GE(t, j1 - j0, 3UL);

	/* A timer completes it 2 jiffies in: the jiffies left, pass taken. */
	trec[0].action = ACT_COMPLETE;
	j0 = jiffies;
	arm(0, j0 + 2, -1);
	ret = wait_for_completion_timeout(&sh.done, HZ);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, read_int(&trec[0].fired), 1);
	KTEST_EXPECT_GE(t, ret, 1UL);
	KTEST_EXPECT_LT(t, ret, (unsigned long)HZ);
	KTEST_EXPECT_GE(t, ret, (unsigned long)HZ - (j1 - j0));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&sh.done));
}

/* ---- mutexes ------------------------------------------------------------- */

/*
 * A read-modify-write of a plain counter, stretched (and once, slept
 * through) under the mutex: any overlap loses an increment.
 */
static int count_under_mutex(void *data)
{
	struct helper *h = data;

	note_start(h);
	for (int i = 0; i < MUTEX_LOOPS; i++) {
		unsigned long v;

		mutex_lock(&sh.lock);
		if (add_int(&sh.inside, 1) != 1)
			add_int(&sh.overlaps, 1);
		if (READ_ONCE(sh.lock.owner) != current)
			add_int(&sh.bad_owner, 1);
		v = READ_ONCE(sh.counter);
		if (i == MUTEX_LOOPS / 2)
			msleep(1);
		else
			for (int k = 0; k < 4; k++)
				cpu_relax();
		WRITE_ONCE(sh.counter, v + 1);
		add_int(&sh.inside, -1);
		mutex_unlock(&sh.lock);
	}
	park(h);
	return 0;
}

static void mutex_excludes_across_cpus_and_sleeps(struct ktest *t)
{
	int n = clamp(2 * (int)num_online_cpus(), 3, MAX_MUTEX_THREADS), i;

	for (i = 0; i < n; i++)
		new_helper(t, count_under_mutex, nth_cpu(i))->may_block = true;
	for (i = 0; i < n; i++)
		wake_up_process(helpers[i].task);
	assert_eventually(t, all_parked());
	KTEST_EXPECT_EQ(t, sh.counter, (unsigned long)n * MUTEX_LOOPS);
	KTEST_EXPECT_EQ(t, read_int(&sh.overlaps), 0);
	KTEST_EXPECT_EQ(t, read_int(&sh.bad_owner), 0);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&sh.lock));
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, helpers[i].cpu_seen, helpers[i].bound);
	ktest_printf(t, "%d threads on %u CPU(s): %lu increments, %lu sleeps on the mutex",
		     n, num_online_cpus(), sh.counter, sh.lock.contended);
}

static int lock_in_turn(void *data)
{
	struct helper *h = data;

	note_start(h);
	mutex_lock(&sh.lock);
	note_passed(h);
	h->owner_ok = READ_ONCE(sh.lock.owner) == current;
	mutex_unlock(&sh.lock);
	park(h);
	return 0;
}

static void mutex_hands_off_in_fifo_order(struct ktest *t)
{
	struct task_struct *owner;
	bool queued = true;
	int got, i;

	mutex_lock(&sh.lock);
	KTEST_EXPECT_EQ(t, mutex_trylock(&sh.lock), 0);
	/* Sleepers in a known order; the first on this CPU. */
	for (i = 0; i < NR_FIFO_LOCKERS && queued; i++) {
		int cpu = i ? nth_cpu(i) : smp_processor_id();
		struct helper *h = new_helper(t, lock_in_turn, cpu);

		h->may_block = true;
		wake_up_process(h->task);
		queued = wait_until(asleep(h) && READ_ONCE(sh.lock.contended) ==
						  (unsigned long)i + 1);
		if (!queued)
			KTEST_FAIL(t, "locker %d did not come to sleep on the mutex", i);
	}
	/*
	 * Unlocking hands the mutex to the first sleeper: it cannot run
	 * before preemption is back on here, yet the mutex is already its.
	 */
	preempt_disable();
	mutex_unlock(&sh.lock);
	got = mutex_trylock(&sh.lock);
	owner = READ_ONCE(sh.lock.owner);
	preempt_enable();
	if (got)
		mutex_unlock(&sh.lock);
	KTEST_ASSERT_TRUE(t, queued);
	KTEST_EXPECT_EQ(t, got, 0);
	KTEST_EXPECT_PTR_EQ(t, owner, helpers[0].task);

	assert_eventually(t, all_parked());
	for (i = 0; i < NR_FIFO_LOCKERS; i++) {
		KTEST_EXPECT_EQ(t, read_int(&helpers[i].seq), i + 1);
		KTEST_EXPECT_TRUE(t, helpers[i].owner_ok);
	}
	KTEST_EXPECT_EQ(t, sh.lock.contended, (unsigned long)NR_FIFO_LOCKERS);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&sh.lock));
	KTEST_EXPECT_EQ(t, mutex_trylock(&sh.lock), 1);
	KTEST_EXPECT_PTR_EQ(t, sh.lock.owner, current);
	mutex_unlock(&sh.lock);
}

/* ---- benchmarks ---------------------------------------------------------- */

static unsigned long long cycles_to_ns(u64 cycles)
{
	unsigned long khz = arch_cpu_khz();

	return khz ? (unsigned long long)(cycles * 1000000ULL / khz) : 0;
}

/* Two threads hand a turn back and forth: wake_up_process(), schedule(). */
static int ping_pong(void *data)
{
	struct helper *h = data, *peer = &helpers[h->id ^ 1];
	cycles_t start = get_cycles();
	int i;

	note_start(h);
	for (i = 0; i < PINGPONG_ROUNDS; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(sh.turn) == h->id ||
			    kthread_should_stop())
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		if (kthread_should_stop())
			break;
		WRITE_ONCE(sh.turn, peer->id);
		wake_up_process(peer->task);
	}
	h->cycles = get_cycles() - start;
	__atomic_store_n(&h->progress, i, __ATOMIC_RELEASE);
	park(h);
	return 0;
}

/* Two runnable threads yield to each other. */
static int yield_to_each_other(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS, nivcsw;
	cycles_t start;
	int i;

	note_start(h);
	add_int(&sh.started, 1);
	while (read_int(&sh.started) < 2 && !kthread_should_stop() &&
	       time_before(jiffies, end))
		yield();
	nivcsw = current->nivcsw;
	start = get_cycles();
	for (i = 0; i < YIELD_ROUNDS; i++)
		yield();
	h->cycles = get_cycles() - start;
	h->nivcsw = current->nivcsw - nivcsw;
	park(h);
	return 0;
}

static void bench_context_switch(struct ktest *t)
{
	int cpu = last_cpu();
	unsigned long switches;
	u64 per_switch;

	/* The ping-pong: 2 switches a round trip. */
	new_helper(t, ping_pong, cpu);
	new_helper(t, ping_pong, cpu);
	switches = nr_context_switches();
	wake_up_process(helpers[0].task);
	wake_up_process(helpers[1].task);
	assert_eventually(t, all_parked());
	switches = nr_context_switches() - switches;
	KTEST_EXPECT_EQ(t, read_int(&helpers[0].progress), PINGPONG_ROUNDS);
	KTEST_EXPECT_EQ(t, read_int(&helpers[1].progress), PINGPONG_ROUNDS);
	KTEST_EXPECT_GE(t, switches, 2UL * PINGPONG_ROUNDS - 1);
	KTEST_EXPECT_EQ(t, helpers[0].cpu_seen, cpu);
	KTEST_EXPECT_EQ(t, helpers[1].cpu_seen, cpu);
	per_switch = helpers[0].cycles / (2 * PINGPONG_ROUNDS);
	ktest_printf(t, "bench: switch by wake_up_process()+schedule() on CPU %d: %llu cycles/switch (%llu ns; %d round trips, %lu switches counted)",
		     cpu, (unsigned long long)per_switch,
		     cycles_to_ns(per_switch), PINGPONG_ROUNDS, switches);

	/* yield() between two runnable threads: each yield is a switch. */
	new_helper(t, yield_to_each_other, cpu);
	new_helper(t, yield_to_each_other, cpu);
	wake_up_process(helpers[2].task);
	wake_up_process(helpers[3].task);
	assert_eventually(t, all_parked());
	KTEST_EXPECT_EQ(t, helpers[2].cpu_seen, cpu);
	KTEST_EXPECT_EQ(t, helpers[3].cpu_seen, cpu);
	KTEST_EXPECT_GE(t, helpers[2].nivcsw + helpers[3].nivcsw,
			2UL * YIELD_ROUNDS - 1);
	per_switch = helpers[2].cycles / (2 * YIELD_ROUNDS);
	ktest_printf(t, "bench: switch by yield() on CPU %d: %llu cycles/switch (%llu ns; %d yields each, %lu + %lu forced switches)",
		     cpu, (unsigned long long)per_switch,
		     cycles_to_ns(per_switch), YIELD_ROUNDS,
		     helpers[2].nivcsw, helpers[3].nivcsw);
}

/*
 * Sleeps until the case kicks it (sh.kicks moves past what it has
 * served), then records when it got to run: the latency of the wake-up.
 */
static int wakee(void *data)
{
	struct helper *h = data;
	int cpu = smp_processor_id(), served = 0;

	note_start(h);
	for (;;) {
		struct wake_sample *s;
		struct helper *spinner;

		set_current_state(TASK_UNINTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (read_int(&sh.kicks) == served) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		s = &sh.samples[served];
		s->run_ns = arch_clock_ns();
		s->run_tick = timer_ticks_on(cpu);
		spinner = READ_ONCE(sh.spinner);
		if (spinner)
			s->spinner_nivcsw_run = spinner->task->nivcsw;
		s->cpu = smp_processor_id();
		__atomic_store_n(&h->seq, ++served, __ATOMIC_RELEASE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Wakes the wakee for sample k, once it sleeps (and its CPU idles, if idle). */
static void kick(struct ktest *t, struct helper *w, int k, bool idle)
{
	struct wake_sample *s = &sh.samples[k];
	int cpu = w->bound;

	assert_eventually(t, asleep(w) && read_int(&w->seq) == k &&
			     (!idle || nr_running_on(cpu) == 0));
	if (sh.spinner)
		s->spinner_nivcsw_wake = READ_ONCE(sh.spinner->task->nivcsw);
	s->wake_tick = timer_ticks_on(cpu);
	s->wake_ns = arch_clock_ns();
	__atomic_store_n(&sh.kicks, k + 1, __ATOMIC_RELEASE);
	KTEST_EXPECT_EQ(t, wake_up_process(w->task), 1);
}

static void print_latencies(struct ktest *t, const char *what, int first, int n)
{
	u64 lo = ~0ULL, hi = 0, sum = 0;
	unsigned long tlo = ~0UL, thi = 0;

	for (int k = first; k < first + n; k++) {
		struct wake_sample *s = &sh.samples[k];
		u64 ns = s->run_ns - s->wake_ns;
		unsigned long ticks = s->run_tick - s->wake_tick;

		lo = min(lo, ns);
		hi = max(hi, ns);
		sum += ns;
		tlo = min(tlo, ticks);
		thi = max(thi, ticks);
	}
	ktest_printf(t, "bench: wake-up latency, %s: %llu us average (%llu..%llu), %lu..%lu ticks, %d wake-ups",
		     what, (unsigned long long)(sum / (u64)n / 1000),
		     (unsigned long long)(lo / 1000),
		     (unsigned long long)(hi / 1000), tlo, thi, n);
}

static void bench_wakeup_latency(struct ktest *t)
{
	struct helper *w, *spinner;
	int cpu = last_cpu(), k;

	need_two_cpus(t);
	w = start_helper(t, wakee, cpu);
	for (k = 0; k < IDLE_SAMPLES; k++)
		kick(t, w, k, true);
	assert_eventually(t, read_int(&w->seq) == IDLE_SAMPLES);

	/* The same with a CPU-bound thread on that CPU. */
	spinner = start_helper(t, count_while_running, cpu);
	assert_eventually(t, read_int(&spinner->ran));
	WRITE_ONCE(sh.spinner, spinner);
	for (; k < IDLE_SAMPLES + BUSY_SAMPLES; k++)
		kick(t, w, k, false);
	assert_eventually(t, read_int(&w->seq) == k);
	WRITE_ONCE(sh.release, true);

	for (k = 0; k < IDLE_SAMPLES + BUSY_SAMPLES; k++) {
		struct wake_sample *s = &sh.samples[k];

		KTEST_EXPECT_EQ(t, s->cpu, cpu);
		if (k < IDLE_SAMPLES)
			continue;
		/*
		 * A busy CPU is not kicked: the woken thread waits for the
		 * tick to end the spinner's slice, and runs at that very
		 * switch, first in the queue.
		 */
		KTEST_EXPECT_GE(t, s->run_tick - s->wake_tick, 1UL);
		KTEST_EXPECT_EQ(t, s->spinner_nivcsw_run,
				s->spinner_nivcsw_wake + 1);
	}
	KTEST_EXPECT_EQ(t, spinner->cpu_seen, cpu);
	print_latencies(t, "idle CPU", 0, IDLE_SAMPLES);
	print_latencies(t, "CPU busy with a CPU-bound thread", IDLE_SAMPLES,
			BUSY_SAMPLES);
}

static const struct ktest_case sched_cases[] = {
	KTEST_CASE(threads_run_on_every_cpu),
	KTEST_CASE(unbound_threads_go_to_the_least_loaded_cpu),
	KTEST_CASE(kthread_stop_returns_the_exit_code),
	KTEST_CASE(contexts_are_told_apart),
	KTEST_CASE(might_sleep_counts_atomic_callers),
	KTEST_CASE(tick_preempts_cpu_bound_threads),
	KTEST_CASE(preempt_disable_holds_off_the_tick),
	KTEST_CASE(msleep_sleeps_at_least),
	KTEST_CASE(schedule_timeout_returns_the_time_left),
	KTEST_CASE(timer_runs_once_in_irq_on_its_cpu),
	KTEST_CASE(mod_timer_rearms_and_del_timer_disarms),
	KTEST_CASE(del_timer_sync_waits_for_the_function),
	KTEST_CASE(timers_run_in_expiry_order),
	KTEST_CASE(wait_event_needs_its_condition),
	KTEST_CASE(wake_up_wakes_one_exclusive_waiter),
	KTEST_CASE(wait_event_timeout_returns_the_time_left),
	KTEST_CASE(complete_lets_one_waiter_through),
	KTEST_CASE(completion_counts_and_times_out),
	KTEST_CASE(mutex_excludes_across_cpus_and_sleeps),
	KTEST_CASE(mutex_hands_off_in_fifo_order),
	KTEST_CASE(bench_context_switch),
	KTEST_CASE(bench_wakeup_latency),
	KTEST_END,
};

static const struct ktest_suite sched_suite = {
	.name = "sched",
	.init = sched_test_init,
	.exit = sched_test_exit,
	.cases = sched_cases,
};
KTEST_SUITE(sched_suite);
