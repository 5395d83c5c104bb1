/*
 * tests/timer_test.c - suite "timer": sleeping for a time (msleep,
 * schedule_timeout) and kernel timers (add_timer, add_timer_on,
 * mod_timer, del_timer, del_timer_sync, the order they run in), in
 * kernel/timer.c.
 *
 * The timers are the recording ones of tests/sched_helpers.h: each run
 * notes where, when and in what context it ran, and how often; helper
 * threads sleep, arm a timer or wake the case from another CPU.  The
 * oracles:
 *
 *  - time: only what the code guarantees, in jiffies.  msleep(ms) sleeps
 *    at least msecs_to_jiffies(ms) + 1 of them, exactly checked.
 *    schedule_timeout() returns 0, and not before its jiffies; an early
 *    wake-up returns the jiffies left.  Timers run at or after their
 *    expiry, once, in hardirq context, on their CPU.  Nanoseconds
 *    (arch_clock_ns) are printed, not judged: the TSC and the local APIC
 *    timer are each calibrated against the PIT, and under QEMU TCG on a
 *    busy host every window may see the emulated PIT late.  Boots were
 *    seen with the tick up to 140% long (the least of three windows) and,
 *    with one window, the TSC's rate taken 75% too high: a correct
 *    msleep() then measures well long, or short;
 *  - runs: a timer function counts its runs, so a few ticks past an
 *    expiry the count is exact: a timer runs once, a disarmed one never,
 *    one that re-arms itself n times n + 1 times, one that
 *    del_timer_sync() disarmed no more;
 *  - order: timers are armed in a random order and must run by expiry.
 *
 * On a one-CPU boot del_timer_sync() cannot catch a timer function
 * running on another CPU: that half of its case is left out (and said).
 */
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "tests/ktest.h"
#include "tests/sched_helpers.h"

/* Timers armed in a random order: 4, 6 under ktest.soak=1. */
#define MAX_ORDER_TIMERS 6
#define ORDER_TIMERS KTEST_SOAK(4, MAX_ORDER_TIMERS)
#define SLOW_TIMER_US 2000	/* a timer function that takes a while */

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

/* Sleeps h->magic ms, and notes how long it took and where it woke. */
static int sleep_for_magic_ms(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	timed_msleep(h->magic, &h->jiffies_slept, &h->ns_slept);
	h->cpu_later = raw_smp_processor_id();
	th_park(h);
	return 0;
}

/*
 * Each length in a helper of its own, all at once and spread over the
 * CPUs (each CPU's timers are its own tick's): the case takes as long as
 * the longest sleep, not their sum.
 */
static void msleep_sleeps_at_least(struct ktest *t)
{
	static const unsigned int ms[] = { 1, 4, 5, 10, 20 };
	/* 20 ms only under ktest.soak=1: 10 already spans several jiffies. */
	unsigned int n = KTEST_SOAK(ARRAY_SIZE(ms) - 1, ARRAY_SIZE(ms));

	for (unsigned int i = 0; i < n; i++)
		th_new_helper(t, sleep_for_magic_ms, th_nth_cpu((int)i))->magic =
			ms[i];
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(th_helpers[i].task);
	assert_eventually(t, th_all_parked());
	for (unsigned int i = 0; i < n; i++) {
		struct helper *h = &th_helpers[i];

		KTEST_EXPECT_EQ(t, h->cpu_later, h->bound);
		expect_slept(t, h->magic, h->jiffies_slept, h->ns_slept,
			     h->cpu_later);
	}
}

/* Wakes the case once it sleeps; what wake_up_process() said in ret. */
static int wake_the_case(void *data)
{
	struct helper *h = data;
	unsigned long end = jiffies + WAIT_TICKS;

	th_note_start(h);
	while (READ_ONCE(th_shared.case_task->on_rq) &&
	       !kthread_should_stop() && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	h->ret = wake_up_process(th_shared.case_task);
	th_park(h);
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

	/* A timer wakes it 2 jiffies in, asleep: the jiffies left. */
	th_trec[0].action = ACT_WAKE_CASE;
	th_trec[0].when_asleep = true;
	j0 = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	th_arm(0, j0 + 2, -1);
	ret = schedule_timeout(HZ);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, read_int(&th_trec[0].fired), 1);
	KTEST_EXPECT_GE(t, ret, 1L);
	KTEST_EXPECT_LT(t, ret, (long)HZ);
	KTEST_EXPECT_GE(t, ret, (long)HZ - (long)(j1 - j0));

	/*
	 * Another thread wakes it (from another CPU when there is one) as
	 * soon as it sleeps, perhaps within the same jiffy: up to all of it
	 * left.
	 */
	h = th_start_helper(t, wake_the_case, th_last_cpu());
	j0 = jiffies;
	set_current_state(TASK_UNINTERRUPTIBLE);
	ret = schedule_timeout(HZ);
	j1 = jiffies;
	assert_eventually(t, th_all_parked());
	KTEST_EXPECT_EQ(t, h->ret, 1L);
	KTEST_EXPECT_GE(t, ret, 1L);
	KTEST_EXPECT_GE(t, ret, (long)HZ - (long)(j1 - j0));
	KTEST_EXPECT_LE(t, ret, (long)HZ);
}

/* ---- kernel timers ------------------------------------------------------- */

static int arm_a_timer(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	th_arm(NR_CPUS + 1, jiffies + 2, -1);
	th_park(h);
	return 0;
}

static bool every_cpu_timer_fired(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (!read_int(&th_trec[cpu].fired))
			return false;
	return true;
}

static void timer_runs_once_in_irq_on_its_cpu(struct ktest *t)
{
	unsigned long j0 = jiffies;
	int cpu, me = raw_smp_processor_id(), remote = th_last_cpu();

	for_each_online_cpu(cpu)
		th_arm(cpu, j0 + 2, cpu);
	th_arm(NR_CPUS, j0 + 2, -1);
	th_start_helper(t, arm_a_timer, remote);
	assert_eventually(t, read_int(&th_trec[NR_CPUS].fired) &&
			     read_int(&th_trec[NR_CPUS + 1].fired) &&
			     every_cpu_timer_fired());
	/* Another tick on every CPU: none of them runs again. */
	th_sleep_until(jiffies + 2);
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, read_int(&th_trec[cpu].fired), 1);
		KTEST_EXPECT_FALSE(t, timer_pending(&th_trec[cpu].timer));
		th_expect_ran_in_irq(t, &th_trec[cpu], cpu, j0 + 2);
	}
	KTEST_EXPECT_EQ(t, read_int(&th_trec[NR_CPUS].fired), 1);
	th_expect_ran_in_irq(t, &th_trec[NR_CPUS], me, j0 + 2);
	KTEST_EXPECT_EQ(t, read_int(&th_trec[NR_CPUS + 1].fired), 1);
	th_expect_ran_in_irq(t, &th_trec[NR_CPUS + 1], remote,
			  th_trec[NR_CPUS + 1].timer.expires);
	KTEST_EXPECT_EQ(t, read_int(&th_shared.nr_fired),
			(int)num_online_cpus() + 2);
}

static void mod_timer_rearms_and_del_timer_disarms(struct ktest *t)
{
	struct timer_rec *r = &th_trec[0], *self = &th_trec[1];
	unsigned long j0, expires, flags;

	/* Never armed. */
	KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 0);

	/* mod_timer() moves a pending timer (1): it runs then, once. */
	j0 = jiffies;
	th_arm(0, j0 + HZ, -1);
	KTEST_EXPECT_TRUE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, mod_timer(&r->timer, j0 + 2), 1);
	assert_eventually(t, read_int(&r->fired) == 1);
	KTEST_EXPECT_TRUE(t, time_after_eq(r->when, j0 + 2));
	KTEST_EXPECT_TRUE(t, time_before(r->when, j0 + HZ));
	KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 0);

	/*
	 * mod_timer() arms an idle one (0); del_timer() disarms it (1).
	 * Interrupts off: the tick that would run it is this CPU's, so a
	 * host that stalls this CPU past the expiry cannot run it between
	 * the two calls.
	 */
	local_irq_save(flags);
	expires = jiffies + 1;
	KTEST_EXPECT_EQ(t, mod_timer(&r->timer, expires), 0);
	KTEST_EXPECT_TRUE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 1);
	local_irq_restore(flags);
	KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
	KTEST_EXPECT_EQ(t, del_timer(&r->timer), 0);
	/* This CPU's tick past its expiry has run this CPU's timers. */
	th_sleep_until(expires + 1);
	KTEST_EXPECT_EQ(t, read_int(&r->fired), 1);

	/* A function that re-arms its own timer twice runs 3 times. */
	self->rearm = 2;
	th_arm(1, jiffies + 1, -1);
	assert_eventually(t, read_int(&self->fired) == 3);
	KTEST_EXPECT_FALSE(t, timer_pending(&self->timer));
	th_sleep_until(jiffies + 2);
	KTEST_EXPECT_EQ(t, read_int(&self->fired), 3);
}

static void del_timer_sync_waits_for_the_function(struct ktest *t)
{
	struct timer_rec *periodic = &th_trec[0], *slow = &th_trec[1];
	int cpu = th_last_cpu(), fired;
	unsigned long end;

	/*
	 * A timer that re-arms itself every tick: once del_timer_sync() is
	 * back it is disarmed, and runs no more.  (What it returns depends
	 * on whether it caught the function running.)
	 */
	periodic->rearm = -1;
	th_arm(0, jiffies + 1, cpu);
	assert_eventually(t, read_int(&periodic->fired) >= 2);
	del_timer_sync(&periodic->timer);
	KTEST_EXPECT_FALSE(t, timer_pending(&periodic->timer));
	fired = read_int(&periodic->fired);
	th_sleep_until(jiffies + 2);
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
	th_arm(1, jiffies + 1, cpu);
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
	int perm[MAX_ORDER_TIMERS];
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
		th_arm(i, j0 + 2 + (unsigned long)perm[i], -1);
	assert_eventually(t, read_int(&th_shared.nr_fired) == ORDER_TIMERS);
	/* A timer counts itself before it files its place: fired comes after. */
	for (i = 0; i < ORDER_TIMERS; i++)
		assert_eventually(t, read_int(&th_trec[i].fired));
	for (int k = 0; k < ORDER_TIMERS; k++) {
		struct timer_rec *r = &th_trec[th_shared.fire_order[k]];

		KTEST_EXPECT_EQ(t, perm[th_shared.fire_order[k]], k);
		KTEST_EXPECT_TRUE(t, time_after_eq(r->when, r->timer.expires));
	}
}

/*
 * A timer re-armed from its own function for a time already come runs at
 * the next tick, not again in this one: the tick runs the timers expired
 * when it began (2.6's __run_timers took the bucket off its wheel before
 * running it).  Run again in the same tick, such a timer would run
 * without end on the CPU's interrupt, and on CPU 0 jiffies would stop;
 * the function here gives up after a few runs in one tick, so that the
 * case fails instead of the machine locking up.
 */
#define REARM_NOW_RUNS 5
#define REARM_NOW_GIVE_UP 3

struct rearm_now {
	struct timer_list timer;
	int runs;		/* the function's runs */
	int same_tick;		/* runs in the tick of the run before */
	unsigned long last_tick;
};

static void rearm_now_fn(unsigned long data)
{
	struct rearm_now *r = (struct rearm_now *)data;
	unsigned long tick = timer_ticks_on(raw_smp_processor_id());

	if (r->runs && tick == r->last_tick)
		r->same_tick++;
	r->last_tick = tick;
	WRITE_ONCE(r->runs, r->runs + 1);
	if (r->runs < REARM_NOW_RUNS && r->same_tick < REARM_NOW_GIVE_UP)
		mod_timer(&r->timer, jiffies);
}

static void a_timer_rearmed_for_now_runs_at_the_next_tick(struct ktest *t)
{
	static struct rearm_now r;

	r = (struct rearm_now){ .runs = 0 };
	setup_timer(&r.timer, rearm_now_fn, (unsigned long)&r);
	r.timer.expires = jiffies + 1;
	add_timer(&r.timer);
	wait_until(READ_ONCE(r.runs) >= REARM_NOW_RUNS ||
		   READ_ONCE(r.same_tick) >= REARM_NOW_GIVE_UP);
	del_timer_sync(&r.timer);
	ktest_printf(t, "%d runs, %d of them in the tick of the run before",
		     r.runs, r.same_tick);
	KTEST_EXPECT_EQ(t, r.same_tick, 0);
	KTEST_EXPECT_EQ(t, r.runs, REARM_NOW_RUNS);
}

/*
 * add_timer() on a timer whose function is running on another CPU keeps
 * it on that CPU's base (2.6's add_timer is __mod_timer, which does not
 * move a running timer), so that del_timer_sync() still sees it running
 * there and waits for it.  Moved to this CPU, del_timer_sync() would look
 * at this CPU's base only and return while the function still runs.
 */
struct running_rec {
	struct timer_list timer;
	int started, done;
};

static void running_fn(unsigned long data)
{
	struct running_rec *r = (struct running_rec *)data;
	unsigned long end = jiffies + 20;

	/* Released: the case reads it (read_int) before it re-arms r. */
	smp_store_release(&r->started, 1);
	/* 20 jiffies of CPU 0's tick; WAIT_TICKS at most if it stalls. */
	while (time_before(jiffies, end))
		cpu_relax();
	WRITE_ONCE(r->done, 1);
}

static void add_timer_keeps_a_running_timer_on_its_cpu(struct ktest *t)
{
	static struct running_rec r;
	int cpu = th_last_cpu();

	if (cpu == raw_smp_processor_id()) {
		ktest_skip(t, "needs 2 CPUs: a timer function running on another");
		return;
	}
	r = (struct running_rec){ .started = 0 };
	setup_timer(&r.timer, running_fn, (unsigned long)&r);
	r.timer.expires = jiffies + 1;
	add_timer_on(&r.timer, cpu);
	assert_eventually(t, read_int(&r.started));
	/* Re-armed far ahead while it runs, then disarmed: it never runs again. */
	r.timer.expires = jiffies + 100 * HZ;
	add_timer(&r.timer);
	KTEST_EXPECT_EQ(t, del_timer_sync(&r.timer), 1);
	KTEST_EXPECT_EQ(t, read_int(&r.done), 1);
	/* Let it finish before the record is reused. */
	wait_until(read_int(&r.done));
}

static const struct ktest_case timer_cases[] = {
	KTEST_CASE(msleep_sleeps_at_least),
	KTEST_CASE(schedule_timeout_returns_the_time_left),
	KTEST_CASE(timer_runs_once_in_irq_on_its_cpu),
	KTEST_CASE(mod_timer_rearms_and_del_timer_disarms),
	KTEST_CASE(del_timer_sync_waits_for_the_function),
	KTEST_CASE(timers_run_in_expiry_order),
	KTEST_CASE(a_timer_rearmed_for_now_runs_at_the_next_tick),
	KTEST_CASE(add_timer_keeps_a_running_timer_on_its_cpu),
	KTEST_END,
};

static const struct ktest_suite timer_suite = {
	.name = "timer",
	.init = th_suite_init,
	.exit = th_suite_exit,
	.cases = timer_cases,
};
KTEST_SUITE(timer_suite);
