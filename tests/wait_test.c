/*
 * tests/wait_test.c - suite "wait": wait queues, completions and mutexes
 * (kernel/wait.c, mutex.c).
 *
 * The cases start helper threads (tests/sched_helpers.h) that wait, lock
 * or go through a queue and record what they saw (what a wait returned,
 * how often they were woken, their turn through the queue); the case
 * checks the records once the helpers are done.  The case's own waits
 * are ended by the recording timers of the same header.  The oracles:
 *
 *  - who was woken: a task is on its run queue (on_rq) from its wake-up
 *    until it sleeps again (a preempted task stays on it), so once every
 *    helper is off its queue again, every helper a wake-up reached has
 *    run and counted it: the counts of wake-ups, of waiters let through
 *    and of timer runs are exact, whatever the timing.  A sleeper that
 *    was not woken has the same voluntary switch count (nvcsw) as before;
 *  - order: FIFO queues (exclusive waiters, completions, mutex hand-off)
 *    are filled one waiter at a time, each asleep before the next comes;
 *  - time, in jiffies only: wait timeouts return 0, and not before their
 *    jiffies; early wake-ups return the jiffies left;
 *  - exclusion: threads on every CPU do a read-modify-write of a plain
 *    counter under the mutex, stretched and once slept through: any
 *    overlap loses an increment, and the mutex names each its owner.
 *
 * A helper that may sleep in mutex_lock() cannot be stopped there: if a
 * failed case leaves one stuck, the suite's exit reports it and leaves it
 * running (and the thread leak check fails the case too).
 */
#include "asm/processor.h"
#include "kernel/mutex.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/string.h"
#include "tests/ktest.h"
#include "tests/sched_helpers.h"

#define NR_EXCLUSIVE 5		/* exclusive waiters on one queue */
#define NR_COMPLETION_WAITERS 3
#define NR_FIFO_LOCKERS 4
#define MAX_MUTEX_THREADS 8
/* Each thread's lock-unlock rounds: 12, 100 under ktest.soak=1. */
#define MUTEX_LOOPS KTEST_SOAK(12, 100)

/* What this suite's helpers share with the case; reset before every case. */
static struct {
	struct mutex lock;
	int tokens;		/* passes for exclusive waiters (atomic) */
	int passed;		/* waiters let through, in order (atomic) */
	/* count_under_mutex */
	int inside, overlaps, bad_owner;
	unsigned long counter;
} sh;

static int wait_test_init(struct ktest *t)
{
	th_suite_init(t);
	memset(&sh, 0, sizeof(sh));
	mutex_init(&sh.lock);
	return 0;
}

/* Through a queue: its turn among those that went through. */
static void note_passed(struct helper *h)
{
	__atomic_store_n(&h->seq, add_int(&sh.passed, 1), __ATOMIC_RELEASE);
}

/* ---- wait queues --------------------------------------------------------- */

static int wait_for_flag(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	wait_event(th_shared.wq,
		   READ_ONCE(th_shared.flag) || kthread_should_stop());
	h->cpu_later = raw_smp_processor_id();
	__atomic_store_n(&h->seq, 1, __ATOMIC_RELEASE);
	th_park(h);
	return 0;
}

static void wait_event_needs_its_condition(struct ktest *t)
{
	struct helper *h = th_start_helper(t, wait_for_flag, th_last_cpu());
	unsigned long nvcsw;

	assert_eventually(t, th_asleep(h));
	KTEST_EXPECT_TRUE(t, waitqueue_active(&th_shared.wq));

	/* Woken with the condition false: it looks, and sleeps again. */
	nvcsw = READ_ONCE(h->task->nvcsw);
	wake_up(&th_shared.wq);
	assert_eventually(t, th_asleep(h) &&
			     READ_ONCE(h->task->nvcsw) != nvcsw);
	KTEST_EXPECT_EQ(t, READ_ONCE(h->task->nvcsw), nvcsw + 1);
	KTEST_EXPECT_EQ(t, read_int(&h->seq), 0);
	KTEST_EXPECT_TRUE(t, waitqueue_active(&th_shared.wq));

	/* Now true: it returns, where it slept (another CPU if any). */
	WRITE_ONCE(th_shared.flag, true);
	wake_up(&th_shared.wq);
	assert_eventually(t, read_int(&h->seq) == 1);
	KTEST_EXPECT_EQ(t, h->cpu_later, h->bound);
	KTEST_EXPECT_FALSE(t, waitqueue_active(&th_shared.wq));
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

	th_note_start(h);
	for (;;) {
		prepare_to_wait_exclusive(&th_shared.wq, &wait,
					  TASK_UNINTERRUPTIBLE);
		if (kthread_should_stop() || (got = take_token()))
			break;
		schedule();
		add_int(&h->wakeups, 1);
	}
	finish_wait(&th_shared.wq, &wait);
	if (got)
		note_passed(h);
	th_park(h);
	return 0;
}

/*
 * Not exclusive: every wake-up reaches it; it leaves when th_shared.flag
 * is set.
 */
static int wait_shared(void *data)
{
	struct helper *h = data;
	DEFINE_WAIT(wait);

	th_note_start(h);
	for (;;) {
		prepare_to_wait(&th_shared.wq, &wait, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(th_shared.flag) || kthread_should_stop())
			break;
		schedule();
		add_int(&h->wakeups, 1);
	}
	finish_wait(&th_shared.wq, &wait);
	th_park(h);
	return 0;
}

/*
 * After a wake-up: once everyone it woke has run and slept again, the
 * count of exclusive waiters let through is exact, and the tokens used.
 */
static void expect_let_through(struct ktest *t, int passed)
{
	assert_eventually(t, th_all_asleep());
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
	shared = th_start_helper(t, wait_shared, th_nth_cpu(0));
	assert_eventually(t, th_asleep(shared));
	for (i = 0; i < NR_EXCLUSIVE; i++) {
		ex[i] = th_start_helper(t, wait_exclusive, th_nth_cpu(i + 1));
		assert_eventually(t, th_asleep(ex[i]));
	}

	/* wake_up(): the plain waiter and the first exclusive one. */
	__atomic_store_n(&sh.tokens, 1, __ATOMIC_RELEASE);
	wake_up(&th_shared.wq);
	expect_let_through(t, 1);
	KTEST_EXPECT_EQ(t, read_int(&shared->wakeups), 1);
	expect_first_woken(t, ex, 1);

	/* wake_up_nr(2): the plain one again and the next two. */
	__atomic_store_n(&sh.tokens, 2, __ATOMIC_RELEASE);
	wake_up_nr(&th_shared.wq, 2);
	expect_let_through(t, 3);
	KTEST_EXPECT_EQ(t, read_int(&shared->wakeups), 2);
	expect_first_woken(t, ex, 3);

	/* wake_up_all(): everyone left. */
	WRITE_ONCE(th_shared.flag, true);
	__atomic_store_n(&sh.tokens, 2, __ATOMIC_RELEASE);
	wake_up_all(&th_shared.wq);
	expect_let_through(t, NR_EXCLUSIVE);
	KTEST_EXPECT_EQ(t, read_int(&shared->wakeups), 3);
	expect_first_woken(t, ex, NR_EXCLUSIVE);
	for (i = 0; i < NR_EXCLUSIVE; i++)
		KTEST_EXPECT_EQ(t, ex[i]->cpu_seen, ex[i]->bound);
	KTEST_EXPECT_TRUE(t, th_all_parked());
	KTEST_EXPECT_FALSE(t, waitqueue_active(&th_shared.wq));
}

static void wait_event_timeout_returns_the_time_left(struct ktest *t)
{
	unsigned long j0, j1;
	long ret;

	/* False throughout: 0, and not before the timeout. */
	j0 = jiffies;
	ret = wait_event_timeout(th_shared.wq, READ_ONCE(th_shared.flag), 2);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, ret, 0L);
	KTEST_EXPECT_GE(t, j1 - j0, 2UL);

	/* True already: all of the timeout left. */
	WRITE_ONCE(th_shared.flag, true);
	ret = wait_event_timeout(th_shared.wq, READ_ONCE(th_shared.flag), 7);
	KTEST_EXPECT_EQ(t, ret, 7L);
	WRITE_ONCE(th_shared.flag, false);

	/*
	 * A wake-up with the condition still false (a timer at +1) does not
	 * end the wait; the one that makes it true (+2) does: the jiffies
	 * left.  Each acts only once the case sleeps (when_asleep), and the
	 * second only after the first (after), so the order holds however
	 * late the host runs the case.
	 */
	th_trec[0].action = ACT_WAKE_QUEUE;
	th_trec[1].action = ACT_SET_FLAG;
	th_trec[0].when_asleep = th_trec[1].when_asleep = true;
	th_trec[1].after = &th_trec[0];
	j0 = jiffies;
	th_arm(0, j0 + 1, -1);
	th_arm(1, j0 + 2, -1);
	ret = wait_event_timeout(th_shared.wq, READ_ONCE(th_shared.flag), HZ);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, read_int(&th_trec[0].fired), 1);
	KTEST_EXPECT_EQ(t, read_int(&th_trec[1].fired), 1);
	KTEST_EXPECT_GE(t, j1 - j0, 2UL);
	KTEST_EXPECT_GE(t, ret, 1L);
	KTEST_EXPECT_LT(t, ret, (long)HZ);
	KTEST_EXPECT_GE(t, ret, (long)HZ - (long)(j1 - j0));
}

/* ---- completions --------------------------------------------------------- */

static int wait_for_done(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	h->ret = (long)wait_for_completion_timeout(&th_shared.done, WAIT_TICKS);
	if (h->ret)
		note_passed(h);
	th_park(h);
	return 0;
}

static void complete_lets_one_waiter_through(struct ktest *t)
{
	unsigned long nvcsw[NR_COMPLETION_WAITERS];
	int i;

	for (i = 0; i < NR_COMPLETION_WAITERS; i++) {
		struct helper *h;

		h = th_start_helper(t, wait_for_done, th_nth_cpu(i + 1));

		assert_eventually(t, th_asleep(h));
	}

	/*
	 * complete(): the first waiter goes through, and the others are not
	 * even woken (a waiter woken for nothing sleeps again: one more
	 * voluntary switch).
	 */
	for (i = 0; i < NR_COMPLETION_WAITERS; i++)
		nvcsw[i] = READ_ONCE(th_helpers[i].task->nvcsw);
	complete(&th_shared.done);
	assert_eventually(t, th_all_asleep());
	KTEST_EXPECT_EQ(t, read_int(&sh.passed), 1);
	KTEST_EXPECT_EQ(t, read_int(&th_helpers[0].seq), 1);
	for (i = 1; i < NR_COMPLETION_WAITERS; i++)
		KTEST_EXPECT_EQ(t, READ_ONCE(th_helpers[i].task->nvcsw),
				nvcsw[i]);
	KTEST_EXPECT_FALSE(t, completion_done(&th_shared.done));

	/* complete_all(): the rest, and whoever comes later. */
	complete_all(&th_shared.done);
	assert_eventually(t, th_all_parked());
	KTEST_EXPECT_EQ(t, read_int(&sh.passed), NR_COMPLETION_WAITERS);
	for (i = 0; i < NR_COMPLETION_WAITERS; i++) {
		KTEST_EXPECT_GE(t, th_helpers[i].ret, 1L);
		KTEST_EXPECT_LE(t, th_helpers[i].ret, (long)WAIT_TICKS);
		KTEST_EXPECT_EQ(t, th_helpers[i].cpu_seen, th_helpers[i].bound);
	}
	KTEST_EXPECT_TRUE(t, completion_done(&th_shared.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&th_shared.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&th_shared.done));
	KTEST_EXPECT_EQ(t, wait_for_completion_timeout(&th_shared.done, 1),
			1UL);
}

static void completion_counts_and_times_out(struct ktest *t)
{
	unsigned long j0, j1, ret;

	KTEST_EXPECT_FALSE(t, completion_done(&th_shared.done));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&th_shared.done));

	/* Two complete()s with nobody waiting: two passes. */
	complete(&th_shared.done);
	complete(&th_shared.done);
	KTEST_EXPECT_TRUE(t, completion_done(&th_shared.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&th_shared.done));
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&th_shared.done));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&th_shared.done));
	complete(&th_shared.done);
	reinit_completion(&th_shared.done);
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&th_shared.done));

	/* Nobody completes: 0, and not before the timeout. */
	j0 = jiffies;
	ret = wait_for_completion_timeout(&th_shared.done, 2);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, ret, 0UL);
	KTEST_EXPECT_GE(t, j1 - j0, 2UL);

	/* A timer completes it 2 jiffies in: the jiffies left, pass taken. */
	th_trec[0].action = ACT_COMPLETE;
	j0 = jiffies;
	th_arm(0, j0 + 2, -1);
	ret = wait_for_completion_timeout(&th_shared.done, HZ);
	j1 = jiffies;
	KTEST_EXPECT_EQ(t, read_int(&th_trec[0].fired), 1);
	KTEST_EXPECT_GE(t, ret, 1UL);
	KTEST_EXPECT_LT(t, ret, (unsigned long)HZ);
	KTEST_EXPECT_GE(t, ret, (unsigned long)HZ - (j1 - j0));
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&th_shared.done));
}

/* ---- mutexes ------------------------------------------------------------- */

/*
 * A read-modify-write of a plain counter, stretched (and once, slept
 * through) under the mutex: any overlap loses an increment.
 */
static int count_under_mutex(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	for (int i = 0; i < MUTEX_LOOPS; i++) {
		unsigned long v;

		mutex_lock(&sh.lock);
		if (add_int(&sh.inside, 1) != 1)
			add_int(&sh.overlaps, 1);
		if (READ_ONCE(sh.lock.owner) != current)
			add_int(&sh.bad_owner, 1);
		v = READ_ONCE(sh.counter);
		if (i == MUTEX_LOOPS / 2)
			schedule_timeout_uninterruptible(1);
		else
			for (int k = 0; k < 4; k++)
				cpu_relax();
		WRITE_ONCE(sh.counter, v + 1);
		add_int(&sh.inside, -1);
		mutex_unlock(&sh.lock);
	}
	th_park(h);
	return 0;
}

/*
 * Nearly every lock in count_under_mutex() sleeps and is handed over by
 * a wake-up on another CPU: on a host with fewer cores than vCPUs the
 * convoy can outlast one WAIT_TICKS window.  It is waited for while the
 * counter moves (up to MUTEX_WINDOWS windows, inside the case's time
 * limit); a window without an increment is a lost wake-up, and fails.
 */
#define MUTEX_WINDOWS 6

/* Windows waited until every thread parked, or 0 (*stalled: no progress). */
static unsigned int mutex_windows_waited(bool *stalled)
{
	unsigned long last = ~0UL;

	*stalled = false;
	for (unsigned int w = 1; w <= MUTEX_WINDOWS; w++) {
		unsigned long now;

		if (wait_until(th_all_parked()))
			return w;
		now = READ_ONCE(sh.counter);
		if (now == last) {
			*stalled = true;
			return 0;
		}
		last = now;
	}
	return 0;
}

static void mutex_excludes_across_cpus_and_sleeps(struct ktest *t)
{
	int n = clamp(2 * (int)num_online_cpus(), 3, MAX_MUTEX_THREADS), i;
	unsigned int windows;
	bool stalled;

	for (i = 0; i < n; i++)
		th_new_helper(t, count_under_mutex,
			      th_nth_cpu(i))->may_block = true;
	for (i = 0; i < n; i++)
		wake_up_process(th_helpers[i].task);
	windows = mutex_windows_waited(&stalled);
	if (!windows) {
		KTEST_FAIL(t, "threads still running, the counter at %lu of %lu: %s",
			   READ_ONCE(sh.counter), (unsigned long)n * MUTEX_LOOPS,
			   stalled ? "no increment for a whole window (a lost wake-up?)"
				   : "still moving after every window");
		ktest_abort(t);
	}
	if (windows > 1)
		ktest_printf(t, "slow host: the threads took %u windows of %d jiffies",
			     windows, WAIT_TICKS);
	KTEST_EXPECT_EQ(t, sh.counter, (unsigned long)n * MUTEX_LOOPS);
	KTEST_EXPECT_EQ(t, read_int(&sh.overlaps), 0);
	KTEST_EXPECT_EQ(t, read_int(&sh.bad_owner), 0);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&sh.lock));
	for (i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, th_helpers[i].cpu_seen, th_helpers[i].bound);
	ktest_printf(t, "%d threads on %u CPU(s): %lu increments, %lu sleeps on the mutex",
		     n, num_online_cpus(), sh.counter, sh.lock.contended);
}

static int lock_in_turn(void *data)
{
	struct helper *h = data;

	th_note_start(h);
	mutex_lock(&sh.lock);
	note_passed(h);
	h->owner_ok = READ_ONCE(sh.lock.owner) == current;
	mutex_unlock(&sh.lock);
	th_park(h);
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
		int cpu = i ? th_nth_cpu(i) : raw_smp_processor_id();
		struct helper *h = th_new_helper(t, lock_in_turn, cpu);

		h->may_block = true;
		wake_up_process(h->task);
		queued = wait_until(th_asleep(h) &&
				    READ_ONCE(sh.lock.contended) ==
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
	KTEST_EXPECT_PTR_EQ(t, owner, th_helpers[0].task);

	assert_eventually(t, th_all_parked());
	for (i = 0; i < NR_FIFO_LOCKERS; i++) {
		KTEST_EXPECT_EQ(t, read_int(&th_helpers[i].seq), i + 1);
		KTEST_EXPECT_TRUE(t, th_helpers[i].owner_ok);
	}
	KTEST_EXPECT_EQ(t, sh.lock.contended, (unsigned long)NR_FIFO_LOCKERS);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&sh.lock));
	KTEST_EXPECT_EQ(t, mutex_trylock(&sh.lock), 1);
	KTEST_EXPECT_PTR_EQ(t, sh.lock.owner, current);
	mutex_unlock(&sh.lock);
}

static const struct ktest_case wait_cases[] = {
	KTEST_CASE(wait_event_needs_its_condition),
	KTEST_CASE(wake_up_wakes_one_exclusive_waiter),
	KTEST_CASE(wait_event_timeout_returns_the_time_left),
	KTEST_CASE(complete_lets_one_waiter_through),
	KTEST_CASE(completion_counts_and_times_out),
	KTEST_CASE(mutex_excludes_across_cpus_and_sleeps),
	KTEST_CASE(mutex_hands_off_in_fifo_order),
	KTEST_END,
};

static const struct ktest_suite wait_suite = {
	.name = "wait",
	.init = wait_test_init,
	.exit = th_suite_exit,
	.cases = wait_cases,
};
KTEST_SUITE(wait_suite);
