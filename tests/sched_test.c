/*
 * tests/sched_test.c - suite "sched": kernel threads and where they run,
 * contexts (in_interrupt, in_atomic, might_sleep), preemption by the tick
 * (kernel/sched.c, kthread.c), and two benchmarks: the cost of a context
 * switch and the latency of a wake-up.
 *
 * The cases start helper threads (tests/sched_helpers.h) that do the
 * thing under test and record what they saw; the case checks the records
 * once the helpers are done.  The oracles:
 *
 *  - where a thread runs: smp_processor_id() inside it, against the CPU
 *    it was bound to (kthread_bind) or the one the scheduler gave it,
 *    which must have been the least loaded (nr_running_on) then;
 *  - contexts: preempt_count(), in_atomic(), in_interrupt() and
 *    irqs_disabled() in the case's thread as it takes preemption, a
 *    spinlock and interrupts away and back, in a timer function (hardirq,
 *    one level deep) and in a new thread before and after a sleep;
 *    might_sleep() counts every call from an atomic context;
 *  - preemption: two CPU-bound threads on one CPU can only take turns if
 *    the tick preempts them (their forced switches, nivcsw, say it did);
 *    with preemption off the other makes no progress although the tick
 *    asked for a switch (need_resched), and preempt_enable() switches.
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
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "tests/ktest.h"
#include "tests/sched_helpers.h"

#define TURNS 2			/* rounds of the preemption ping-pong */
#define HOLD_TICKS 2		/* preemption held off after need_resched */
/* bench_context_switch's rounds: 100 each, 300 under ktest.soak=1. */
#define PINGPONG_ROUNDS KTEST_SOAK(100, 300)
#define YIELD_ROUNDS KTEST_SOAK(100, 300)
/* bench_wakeup_latency's wake-ups of an idle CPU's thread and of one
 * behind a CPU-bound thread: 3 and 1, 5 and 3 under ktest.soak=1 (each
 * of the latter waits out the spinner's slice). */
#define MAX_IDLE_SAMPLES 5
#define MAX_BUSY_SAMPLES 3
#define IDLE_SAMPLES KTEST_SOAK(3, MAX_IDLE_SAMPLES)
#define BUSY_SAMPLES KTEST_SOAK(1, MAX_BUSY_SAMPLES)

struct wake_sample {
	u64 wake_ns, run_ns;
	unsigned long wake_tick, run_tick;	/* the target CPU's ticks */
	unsigned long spinner_nivcsw_wake, spinner_nivcsw_run;
	int cpu;
};

/* What this suite's helpers share with the case; reset before every case. */
static struct {
	spinlock_t spin;
	bool release;		/* CPU-bound helpers may stop */
	int started;		/* yield benchmark rendezvous (atomic) */
	int turn;		/* ping-pong: whose turn */
	int self_exit_ran;	/* the thread that returns on its own */
	/* hold_off_preemption */
	int before, during, after;
	bool resched;
	unsigned long held_ticks, nivcsw_before, nivcsw_after;
	/* wake-up latency */
	int kicks;
	struct helper *spinner;
	struct wake_sample samples[MAX_IDLE_SAMPLES + MAX_BUSY_SAMPLES];
} sh;

static int sched_test_init(struct ktest *t)
{
	th_suite_init(t);
	memset(&sh, 0, sizeof(sh));
	spin_lock_init(&sh.spin);
	return 0;
}

/* ---- threads and CPUs ---------------------------------------------------- */

static int report_cpu(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	schedule_timeout_uninterruptible(1);
	h->cpu_later = raw_smp_processor_id();
	th_park(h);
	return raw_smp_processor_id();
}

static void threads_run_on_every_cpu(struct ktest *t)
{
	int cpu, i;

	for_each_online_cpu(cpu)
		th_new_helper(t, report_cpu, cpu);
	KTEST_EXPECT_EQ(t, th_nr_helpers, (int)num_online_cpus());
	for (i = 0; i < th_nr_helpers; i++)
		KTEST_EXPECT_EQ(t, wake_up_process(th_helpers[i].task), 1);
	assert_eventually(t, th_all_parked());
	for (i = 0; i < th_nr_helpers; i++) {
		struct helper *h = &th_helpers[i];

		KTEST_EXPECT_EQ(t, h->cpu_seen, h->bound);
		KTEST_EXPECT_EQ(t, h->task_cpu, h->bound);
		/* Tasks do not migrate: after a sleep, still there. */
		KTEST_EXPECT_EQ(t, h->cpu_later, h->bound);
	}
	th_stop_helpers(t);
	for (i = 0; i < th_nr_helpers; i++)
		KTEST_EXPECT_EQ(t, th_helpers[i].exit_code,
				th_helpers[i].bound);
}

static int yield_until_released(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS;

	th_note_start(h);
	while (!READ_ONCE(sh.release) && !kthread_should_stop()) {
		if (time_after(jiffies, end)) {
			h->timed_out = true;
			break;
		}
		yield();
	}
	th_park(h);
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
		h = th_start_helper(t, yield_until_released, -1);
		cpu = h->task->cpu;
		KTEST_ASSERT_TRUE(t, cpu >= 0 && cpu < (int)nr_cpu_ids);
		KTEST_ASSERT_TRUE(t, cpu_online(cpu));
		KTEST_EXPECT_EQ(t, load[cpu], least);
		per_cpu[cpu]++;
	}
	assert_eventually(t, th_all_ran());
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, th_helpers[i].cpu_seen,
				th_helpers[i].task->cpu);
	for_each_online_cpu(cpu) {
		ktest_printf(t, "CPU %d: %u of %d threads", cpu, per_cpu[cpu], n);
		KTEST_EXPECT_GE(t, per_cpu[cpu], 1U);
	}
	WRITE_ONCE(sh.release, true);
	assert_eventually(t, th_all_parked());
	for (i = 0; i < n; i++)
		KTEST_EXPECT_FALSE(t, th_helpers[i].timed_out);
}

static int until_stopped(void *data)
{
	struct helper *h = data;

	h->stop_seen_early = kthread_should_stop();
	th_note_start(h);
	th_park(h);
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
		struct helper *h = th_new_helper(t, until_stopped, -1);
		struct task_struct *k = h->task;

		h->magic = ktest_random(t);
		snprintf(comm, sizeof(comm), "sched-test/%d", i);
		KTEST_EXPECT_STREQ(t, k->comm, comm);
		KTEST_EXPECT_EQ(t, k->state, (long)TASK_UNINTERRUPTIBLE);
		if (i)
			KTEST_EXPECT_GT(t, k->pid, th_helpers[i - 1].task->pid);
	}
	/* Created, not yet woken: counted already. */
	KTEST_EXPECT_EQ(t, nr_threads(), base + (unsigned int)n);
	for (i = 0; i < n; i++)
		wake_up_process(th_helpers[i].task);
	assert_eventually(t, th_all_parked());
	th_stop_helpers(t);
	for (i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, (u32)th_helpers[i].exit_code,
				th_helpers[i].magic);
		KTEST_EXPECT_FALSE(t, th_helpers[i].stop_seen_early);
		KTEST_EXPECT_TRUE(t, th_helpers[i].stop_seen);
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

/*
 * kthread_stop() of a thread that was never woken: its function never
 * runs, and kthread_stop() returns -EINTR (2.6's kthread() looks at
 * kthread_should_stop() before it calls the function).
 */
static int never_to_run(void *data)
{
	__atomic_store_n((int *)data, 1, __ATOMIC_RELEASE);
	return 7;
}

static void kthread_stop_before_the_first_wake_up(struct ktest *t)
{
	static int ran;
	unsigned int base = nr_threads();
	struct task_struct *k;

	ran = 0;
	k = kthread_create(never_to_run, &ran, "sched-test/never");
	KTEST_ASSERT_FALSE(t, IS_ERR(k));
	KTEST_EXPECT_EQ(t, kthread_stop(k), -EINTR);
	KTEST_EXPECT_EQ(t, read_int(&ran), 0);
	assert_eventually(t, nr_threads() == base);
}

/* ---- contexts ------------------------------------------------------------ */

static int report_context(void *data)
{
	struct helper *h = data;

	h->preempt_start = preempt_count();
	h->irqs_off_start = irqs_disabled();
	th_note_start(h);
	schedule_timeout_uninterruptible(1);
	h->preempt_later = preempt_count();
	h->irqs_off_later = irqs_disabled();
	th_park(h);
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
	th_arm(0, jiffies + 1, -1);
	/* A new thread, and the same thread after a sleep: plain tasks. */
	h = th_start_helper(t, report_context, th_last_cpu());
	assert_eventually(t, read_int(&th_trec[0].fired) && th_all_parked());
	th_expect_ran_in_irq(t, &th_trec[0], raw_smp_processor_id(),
			  th_trec[0].timer.expires);
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
	ktest_expected_reports(true);
	preempt_disable();
	for (int i = 0; i < 3; i++)
		call_might_sleep();
	preempt_enable();
	ktest_expected_reports(false);
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
	struct helper *h = data, *other = &th_helpers[h->id ^ 1];
	unsigned long end = jiffies + WAIT_TICKS;

	th_note_start(h);
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
	th_park(h);
	return 0;
}

static void tick_preempts_cpu_bound_threads(struct ktest *t)
{
	int cpu = th_last_cpu();

	th_new_helper(t, take_turns, cpu);
	th_new_helper(t, take_turns, cpu);
	wake_up_process(th_helpers[0].task);
	wake_up_process(th_helpers[1].task);
	assert_eventually(t, th_all_parked());
	for (int i = 0; i < 2; i++) {
		struct helper *h = &th_helpers[i];

		KTEST_EXPECT_EQ(t, h->cpu_seen, cpu);
		KTEST_EXPECT_FALSE(t, h->timed_out);
		KTEST_EXPECT_EQ(t, read_int(&h->progress), TURNS);
		/* Each had to be switched out while runnable. */
		KTEST_EXPECT_GE(t, h->nivcsw, 1UL);
	}
	ktest_printf(t, "CPU %d: forced switches %lu and %lu", cpu,
		     th_helpers[0].nivcsw, th_helpers[1].nivcsw);
}

/*
 * Counts until released: between counts it pauses (count_while_running)
 * or yields (count_and_yield, the counter preempt_disable_holds_off_the_tick
 * watches: the holder gets the CPU at once, not after the counter's
 * slice, and the counter takes it back the moment the holder lets go).
 */
static void count_until_released(struct helper *h, bool yielding)
{
	unsigned long end = jiffies + WAIT_TICKS;

	th_note_start(h);
	while (!READ_ONCE(sh.release) && !kthread_should_stop() &&
	       time_before(jiffies, end)) {
		__atomic_add_fetch(&h->progress, 1, __ATOMIC_RELAXED);
		if (yielding)
			yield();
		else
			cpu_relax();
	}
	th_park(h);
}

static int count_while_running(void *data)
{
	count_until_released(data, false);
	return 0;
}

static int count_and_yield(void *data)
{
	count_until_released(data, true);
	return 0;
}

/*
 * With preemption off, spins until the tick asks for a reschedule and
 * HOLD_TICKS more of this CPU's ticks: the counter beside it on this CPU
 * (th_helpers[0]) must not move meanwhile; preempt_enable() must give
 * way at once, and the counter move while this spins on, preemptible.
 */
static int hold_off_preemption(void *data)
{
	struct helper *h = data, *other = &th_helpers[0];
	int cpu = raw_smp_processor_id();
	unsigned long end = jiffies + WAIT_TICKS, ticks0, ticks;

	th_note_start(h);
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
	/*
	 * Preemptible again, it gave way at once (nivcsw); the counter runs
	 * then, or at a later tick if a wake-up on this CPU rescheduled it
	 * before it got back to counting: it must count while this spins.
	 */
	while (read_int(&other->progress) == sh.during &&
	       time_before(jiffies, end))
		cpu_relax();
	sh.after = read_int(&other->progress);
	WRITE_ONCE(sh.release, true);
	th_park(h);
	return 0;
}

static void preempt_disable_holds_off_the_tick(struct ktest *t)
{
	int cpu = th_last_cpu();

	/* The counter first: it is runnable when the holder starts. */
	th_start_helper(t, count_and_yield, cpu);
	th_start_helper(t, hold_off_preemption, cpu);
	assert_eventually(t, th_all_parked());
	KTEST_EXPECT_EQ(t, th_helpers[0].cpu_seen, cpu);
	KTEST_EXPECT_EQ(t, th_helpers[1].cpu_seen, cpu);
	KTEST_EXPECT_TRUE(t, sh.resched);
	KTEST_EXPECT_GE(t, sh.held_ticks, (unsigned long)HOLD_TICKS);
	KTEST_EXPECT_EQ(t, sh.during, sh.before);
	KTEST_EXPECT_GT(t, sh.nivcsw_after, sh.nivcsw_before);
	KTEST_EXPECT_GT(t, sh.after, sh.during);
	ktest_printf(t, "CPU %d: preemption held off for %lu ticks, the other thread counted %d before and %d after",
		     cpu, sh.held_ticks, sh.during, sh.after);
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
	struct helper *h = data, *peer = &th_helpers[h->id ^ 1];
	cycles_t start = get_cycles();
	int i;

	th_note_start(h);
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
	th_park(h);
	return 0;
}

/* Two runnable threads yield to each other. */
static int yield_to_each_other(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS, nivcsw;
	cycles_t start;
	int i;

	th_note_start(h);
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
	th_park(h);
	return 0;
}

static void bench_context_switch(struct ktest *t)
{
	int cpu = th_last_cpu();
	unsigned long switches;
	u64 per_switch;

	/* The ping-pong: 2 switches a round trip. */
	th_new_helper(t, ping_pong, cpu);
	th_new_helper(t, ping_pong, cpu);
	switches = nr_context_switches();
	wake_up_process(th_helpers[0].task);
	wake_up_process(th_helpers[1].task);
	assert_eventually(t, th_all_parked());
	switches = nr_context_switches() - switches;
	KTEST_EXPECT_EQ(t, read_int(&th_helpers[0].progress), PINGPONG_ROUNDS);
	KTEST_EXPECT_EQ(t, read_int(&th_helpers[1].progress), PINGPONG_ROUNDS);
	KTEST_EXPECT_GE(t, switches, 2UL * PINGPONG_ROUNDS - 1);
	KTEST_EXPECT_EQ(t, th_helpers[0].cpu_seen, cpu);
	KTEST_EXPECT_EQ(t, th_helpers[1].cpu_seen, cpu);
	per_switch = th_helpers[0].cycles / (2 * PINGPONG_ROUNDS);
	ktest_printf(t, "bench: switch by wake_up_process()+schedule() on CPU %d: %llu cycles/switch (%llu ns; %d round trips, %lu switches counted)",
		     cpu, (unsigned long long)per_switch,
		     cycles_to_ns(per_switch), PINGPONG_ROUNDS, switches);

	/* yield() between two runnable threads: each yield is a switch. */
	th_new_helper(t, yield_to_each_other, cpu);
	th_new_helper(t, yield_to_each_other, cpu);
	wake_up_process(th_helpers[2].task);
	wake_up_process(th_helpers[3].task);
	assert_eventually(t, th_all_parked());
	KTEST_EXPECT_EQ(t, th_helpers[2].cpu_seen, cpu);
	KTEST_EXPECT_EQ(t, th_helpers[3].cpu_seen, cpu);
	KTEST_EXPECT_GE(t, th_helpers[2].nivcsw + th_helpers[3].nivcsw,
			2UL * YIELD_ROUNDS - 1);
	per_switch = th_helpers[2].cycles / (2 * YIELD_ROUNDS);
	ktest_printf(t, "bench: switch by yield() on CPU %d: %llu cycles/switch (%llu ns; %d yields each, %lu + %lu forced switches)",
		     cpu, (unsigned long long)per_switch,
		     cycles_to_ns(per_switch), YIELD_ROUNDS,
		     th_helpers[2].nivcsw, th_helpers[3].nivcsw);
}

/*
 * Sleeps until the case kicks it (sh.kicks moves past what it has
 * served), then records when it got to run: the latency of the wake-up.
 */
static int wakee(void *data)
{
	struct helper *h = data;
	int cpu = raw_smp_processor_id(), served = 0;

	th_note_start(h);
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
		s->cpu = raw_smp_processor_id();
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

	assert_eventually(t, th_asleep(w) && read_int(&w->seq) == k &&
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
	int cpu = th_last_cpu(), k;

	th_need_two_cpus(t);
	w = th_start_helper(t, wakee, cpu);
	for (k = 0; k < IDLE_SAMPLES; k++)
		kick(t, w, k, true);
	assert_eventually(t, read_int(&w->seq) == IDLE_SAMPLES);

	/* The same with a CPU-bound thread on that CPU. */
	spinner = th_start_helper(t, count_while_running, cpu);
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
	KTEST_CASE(kthread_stop_before_the_first_wake_up),
	KTEST_CASE(contexts_are_told_apart),
	KTEST_CASE(might_sleep_counts_atomic_callers),
	KTEST_CASE(tick_preempts_cpu_bound_threads),
	KTEST_CASE(preempt_disable_holds_off_the_tick),
	KTEST_CASE(bench_context_switch),
	KTEST_CASE(bench_wakeup_latency),
	KTEST_END,
};

static const struct ktest_suite sched_suite = {
	.name = "sched",
	.init = sched_test_init,
	.exit = th_suite_exit,
	.cases = sched_cases,
};
KTEST_SUITE(sched_suite);
