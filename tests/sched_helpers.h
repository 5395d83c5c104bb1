/*
 * tests/sched_helpers.h - what the suites sched, timer and wait share:
 * helper threads that record, kernel timers that record, bounded waits,
 * and the per-case set-up and tear-down of both.
 *
 * What it offers:
 *  - helper threads: th_new_helper() creates one running fn (bound to a
 *    CPU, or not), th_start_helper() also wakes it; each gets a struct
 *    helper in th_helpers[] (in creation order, th_nr_helpers of them)
 *    for the thread to write what it saw.  th_note_start() is a helper's
 *    first act, th_park() its last (both wake a waiting case);
 *  - predicates on them: th_asleep() (started and off its run queue: a
 *    preempted task stays on it, so this is asleep, not merely
 *    preempted), th_parked(), and th_all_asleep(), th_all_ran(),
 *    th_all_parked() over every helper not yet stopped;
 *  - th_trec[]: NR_TIMERS timers, set up before every case, whose one
 *    function records where, when and in what context it ran, and then
 *    does its record's action (wakes th_shared.wq, sets th_shared.flag,
 *    completes th_shared.done or wakes the case), re-arms itself or
 *    busy-waits if told to, and wakes a waiting case (th_shared.kick).  th_arm() arms one, th_expect_ran_in_irq()
 *    checks its record;
 *  - bounded waits: wait_until(cond), assert_eventually(t, cond),
 *    th_sleep_until(jiffy);
 *  - CPUs: th_nth_cpu(n), th_last_cpu() (not the case's CPU 0 when there
 *    are two), th_need_two_cpus(t) (skips the case on a one-CPU boot);
 *  - th_suite_init() and th_suite_exit(), a suite's per-case .init and
 *    .exit, or the first thing its own init does and its exit.
 *
 * Its functions and data, visible to the whole kernel, begin with th_.
 *
 * The rules:
 *  - helpers record, the case checks: a helper writes what it saw (the
 *    CPU it ran on, what a wait returned, how often it was woken) into
 *    its struct helper or a suite's static struct, and never uses the
 *    ktest macros; the case checks the records once the helpers are done;
 *  - every wait is bounded: a case waits WAIT_TICKS at most for anything
 *    (a few such windows while a count shows progress, where a slow host
 *    may need them) and fails rather than hang the boot; every wait of a helper either
 *    ends on kthread_stop() or is bounded too, so th_suite_exit() can
 *    stop whatever a failed case left.  Only mutex_lock() cannot be cut
 *    short: a helper that may sleep in it (may_block) and is stuck there
 *    is reported and left running (the thread leak check fails the case
 *    too);
 *  - helpers do not return on their own: they park, asleep until
 *    kthread_stop().  A thread that tells its case it is done and then
 *    returns is still counted by the leak check until it has switched
 *    out for the last time, which the runner cannot wait for; a thread
 *    that kthread_stop() ended is one it waits for.
 *
 * th_helpers[], th_trec[] and th_shared are one set for the three suites:
 * th_suite_init() resets all of them before every case, whichever suite
 * it is in, and th_suite_exit() stops every helper and timer after it.
 * What only one suite's helpers share with its cases is in that suite's
 * own static struct, which its init resets too.
 */
#ifndef TESTS_SCHED_HELPERS_H
#define TESTS_SCHED_HELPERS_H

#include "kernel/arch.h"
#include "kernel/sched.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/types.h"
#include "tests/ktest.h"

#define MAX_HELPERS (2 * NR_CPUS + 8)	/* 2 a CPU, and 8 whatever the CPUs */
#define NR_TIMERS (NR_CPUS + 8)		/* 1 a CPU, and 8 more */
#define WAIT_TICKS (3 * HZ)	/* the longest a case waits for anything */

/* ---- helper threads and what they record --------------------------------- */

struct helper {
	struct task_struct *task;	/* NULL once stopped */
	int id;				/* its index in th_helpers[] */
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

extern struct helper th_helpers[MAX_HELPERS];
extern int th_nr_helpers;

/* ---- timer functions and what they record -------------------------------- */

enum timer_action {
	ACT_NONE,
	ACT_WAKE_QUEUE,		/* wake_up(&th_shared.wq), flag as is */
	ACT_SET_FLAG,		/* th_shared.flag = true, then wake_up() */
	ACT_COMPLETE,		/* complete(&th_shared.done) */
	ACT_WAKE_CASE,		/* wake_up_process(the case's thread) */
};

struct timer_rec {
	struct timer_list timer;
	enum timer_action action;
	int rearm;		/* runs left that re-arm it; -1: for ever */
	unsigned long slow_us;	/* the function busy-waits this long */
	/*
	 * Its action waits for the case to be asleep (off its run queue):
	 * until then the function only re-arms itself for the next tick, and
	 * counts as neither started nor fired.  For cases that judge a sleep
	 * a timer ends: a host that stalls the case past the expiry would
	 * otherwise have the timer act before the case sleeps.
	 */
	bool when_asleep;
	/* Likewise until this other timer's function has run (NULL: none). */
	const struct timer_rec *after;
	int started;		/* the function has begun (atomic) */
	int fired;		/* ... has finished, times (atomic) */
	int cpu;		/* where it last ran */
	unsigned long when;	/* jiffies then */
	bool in_irq, in_interrupt, atomic, irqs_off;
	int hardirqs;		/* hardirq_count() / HARDIRQ_OFFSET */
};

extern struct timer_rec th_trec[NR_TIMERS];

/* What the timer functions act on and record; reset before every case. */
struct th_shared {
	struct task_struct *case_task;
	wait_queue_head_t kick;	/* wait_until()'s: helpers and timers wake it */
	wait_queue_head_t wq;
	struct completion done;
	bool flag;		/* the condition waited for */
	int nr_fired;
	int fire_order[NR_TIMERS];
};

extern struct th_shared th_shared;

/* ---- small helpers ------------------------------------------------------- */

/*
 * Waits until cond is true, WAIT_TICKS at most; true when cond came true.
 * Most conditions a case waits for (a helper on another CPU started,
 * went to sleep, parked; a timer ran) come true within microseconds of
 * an event, far inside a tick.  So it sleeps on th_shared.kick, which
 * th_note_start(), th_park() and the recording timers wake, a tick at
 * most at a time; and after each wake-up (and at first) it looks again
 * and again for TH_POLL_NS, yielding the CPU to whoever else is runnable
 * on it, for what follows the event at once (a helper that started goes
 * to sleep: off its run queue).  The poll's bound is by arch_clock_ns(),
 * which may be calibrated well off: it only decides how long the case
 * looks before it sleeps, never whether it passes.
 */
#define TH_POLL_NS 1000000ULL	/* 1 ms, a quarter of a jiffy */
#define wait_until(cond)                                                    \
	({                                                                   \
		unsigned long __end = jiffies + WAIT_TICKS;                  \
		u64 __poll_end = arch_clock_ns() + TH_POLL_NS;               \
		bool __done;                                                 \
		while (!(__done = (cond))) {                                 \
			if (arch_clock_ns() < __poll_end) {                  \
				th_poll_pause();                             \
				continue;                                    \
			}                                                    \
			if (!time_before(jiffies, __end))                    \
				break;                                       \
			wait_event_timeout(th_shared.kick, (cond), 1);       \
			__poll_end = arch_clock_ns() + TH_POLL_NS;           \
		}                                                            \
		__done;                                                      \
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

static inline int read_int(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline int add_int(int *p, int n)
{
	return __atomic_add_fetch(p, n, __ATOMIC_ACQ_REL);
}

/* wait_until()'s pause between two looks: yield(), then a cpu_relax(). */
void th_poll_pause(void);
/* Skips the case on a one-CPU boot. */
void th_need_two_cpus(struct ktest *t);
/* The n-th online CPU, round and round. */
int th_nth_cpu(int n);
/* The last online CPU: not the case's (CPU 0) when there are two. */
int th_last_cpu(void);
/* Sleeps a tick at a time until jiffies reaches when. */
void th_sleep_until(unsigned long when);

/* A helper thread running fn, bound to cpu (-1: any), not yet woken. */
struct helper *th_new_helper(struct ktest *t, int (*fn)(void *), int cpu);
/* The same, woken. */
struct helper *th_start_helper(struct ktest *t, int (*fn)(void *), int cpu);
/* A helper's first act: where it runs. */
void th_note_start(struct helper *h);
/* A helper's last act: sleeps until kthread_stop(). */
void th_park(struct helper *h);

/* Started, and off its run queue: asleep, not merely preempted. */
bool th_asleep(const struct helper *h);
/* Done, and asleep in th_park() or on its way there. */
bool th_parked(const struct helper *h);
/* The same, true of every helper not yet stopped. */
bool th_all_asleep(void);
bool th_all_ran(void);
bool th_all_parked(void);

/* Stops every helper still running, keeping what kthread_stop() returns. */
void th_stop_helpers(struct ktest *t);

/* Arms th_trec[i] for expires on cpu (-1: this CPU, with add_timer). */
void th_arm(int i, unsigned long expires, int cpu);
/* The function ran in the tick's hardirq, on cpu, at or after expires. */
void th_expect_ran_in_irq(struct ktest *t, const struct timer_rec *r,
			  int cpu, unsigned long expires);

/* ---- suite set-up -------------------------------------------------------- */

/* Resets th_helpers[], th_trec[] and th_shared; the case is the caller. */
int th_suite_init(struct ktest *t);
/* Stops every helper, and every timer (waiting for its function). */
void th_suite_exit(struct ktest *t);

#endif /* TESTS_SCHED_HELPERS_H */
