/*
 * tests/host/race_test.c - two data races the race detector must report,
 * and the same code made right, which it must not (make host-tsan,
 * arch/host/tsan.c).  Built into the user-space program only.
 *
 * The races are misuse scenarios (ktest.misuse=NAME): a TSan run stops at
 * its report, which tools/host-tests.py judges on the "WARNING:
 * ThreadSanitizer: data race" line and the two functions it names.
 *
 *   race_counter     a counter two CPUs bump: one under its lock
 *                    (counter_add_locked), one forgetting it
 *                    (counter_add_unlocked);
 *   race_percpu_irq  per-CPU data that a task bumps with preemption off
 *                    but interrupts on (percpu_hits_task) while the tick,
 *                    on the same CPU, bumps it too (percpu_hits_tick).
 *
 * The race suite runs the same code made right - both CPUs under the
 * lock, the task's bump with interrupts off - in every host run: no
 * update may be lost, and a TSan run must report nothing.  The second is
 * what shows that interrupts off orders a task with its CPU's handlers
 * in TSan's eyes, and interrupts on do not: one flag apart.
 */
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "tests/ktest.h"

/* How long each side runs: a few ticks is plenty to meet. */
#define RACE_TICKS 20

/* ---- a counter, with and without its lock ---- */

static struct {
	spinlock_t lock;
	unsigned long count;		/* lock */
	unsigned long helper_adds;	/* the helper's own, relaxed */
} counter = { .lock = __SPIN_LOCK_UNLOCKED(counter.lock) };

static __noinline void counter_add_locked(void)
{
	spin_lock(&counter.lock);
	counter.count++;
	spin_unlock(&counter.lock);
}

/* The misuse: the lock forgotten. */
static __noinline void counter_add_unlocked(void)
{
	counter.count++;
}

static int counter_helper(void *locked)
{
	while (!kthread_should_stop()) {
		if (locked)
			counter_add_locked();
		else
			counter_add_unlocked();
		/* Relaxed: the count of adds orders nothing. */
		__atomic_fetch_add(&counter.helper_adds, 1, __ATOMIC_RELAXED);
		cpu_relax();
	}
	return 0;
}

/*
 * This CPU adds under the lock while a thread on another adds with or
 * without it, for RACE_TICKS; returns this CPU's adds, or -1 without a
 * second CPU.
 */
static long add_on_two_cpus(bool helper_locks)
{
	int cpu = (raw_smp_processor_id() + 1) % (int)num_online_cpus();
	struct task_struct *k;
	unsigned long end, mine = 0;

	if (num_online_cpus() < 2)
		return -1;
	counter.count = 0;
	counter.helper_adds = 0;
	k = kthread_create_on_cpu(counter_helper,
				  (void *)(unsigned long)helper_locks,
				  (unsigned int)cpu, "race_counter");
	if (IS_ERR(k))
		return -1;
	wake_up_process(k);
	end = jiffies + RACE_TICKS;
	while (time_before(jiffies, end) ||
	       !__atomic_load_n(&counter.helper_adds, __ATOMIC_RELAXED)) {
		counter_add_locked();
		mine++;
		cpu_relax();
	}
	kthread_stop(k);
	return (long)mine;
}

static void misuse_race_counter(void)
{
	pr_info("ktest: misuse race_counter: counter_add_unlocked() on one CPU, counter_add_locked() on another\n");
	add_on_two_cpus(false);
}
KTEST_MISUSE(race_counter, misuse_race_counter);

static void counter_locked_on_both_cpus(struct ktest *t)
{
	long mine = add_on_two_cpus(true);

	if (mine < 0) {
		ktest_skip(t, "needs 2 CPUs");
		return;
	}
	KTEST_EXPECT_GT(t, counter.helper_adds, 0UL);
	KTEST_EXPECT_EQ(t, counter.count,
			(unsigned long)mine + counter.helper_adds);
}

/* ---- per-CPU data, a task and the tick ---- */

struct hits {
	unsigned long n;	/* this CPU's task and tick bump it */
};
static DEFINE_PER_CPU(struct hits, hits);
static struct timer_list hits_timer;
static unsigned long hits_ticks;	/* the tick's bumps */
static bool hits_stop;

/* The tick, every jiffy on the task's CPU: interrupts off, of course. */
static __noinline void percpu_hits_tick(unsigned long unused)
{
	raw_cpu_ptr(&hits)->n++;
	WRITE_ONCE(hits_ticks, hits_ticks + 1);
	if (!READ_ONCE(hits_stop))
		mod_timer(&hits_timer, jiffies + 1);
}

/* The task's bump: preemption off, interrupts too or not. */
static __noinline void percpu_hits_task(bool irqs_off)
{
	unsigned long flags = 0;

	if (irqs_off)
		local_irq_save(flags);
	else
		preempt_disable();
	this_cpu_ptr(&hits)->n++;
	if (irqs_off)
		local_irq_restore(flags);
	else
		preempt_enable();
}

/* Bumps against the tick for RACE_TICKS; returns the task's bumps. */
static unsigned long bump_against_the_tick(bool irqs_off)
{
	unsigned long end, mine = 0;

	preempt_disable();
	this_cpu_ptr(&hits)->n = 0;
	preempt_enable();
	hits_ticks = 0;
	WRITE_ONCE(hits_stop, false);
	setup_timer(&hits_timer, percpu_hits_tick, 0);
	hits_timer.expires = jiffies + 1;
	add_timer_on(&hits_timer, raw_smp_processor_id());
	end = jiffies + RACE_TICKS;
	while (time_before(jiffies, end)) {
		percpu_hits_task(irqs_off);
		mine++;
		cpu_relax();	/* where the host takes the tick */
	}
	WRITE_ONCE(hits_stop, true);
	del_timer_sync(&hits_timer);
	return mine;
}

static void misuse_race_percpu_irq(void)
{
	pr_info("ktest: misuse race_percpu_irq: percpu_hits_task() with interrupts on, percpu_hits_tick() on the same CPU\n");
	bump_against_the_tick(false);
}
KTEST_MISUSE(race_percpu_irq, misuse_race_percpu_irq);

static void percpu_bumped_with_irqs_off(struct ktest *t)
{
	unsigned long mine = bump_against_the_tick(true);
	unsigned long n;

	preempt_disable();
	n = this_cpu_ptr(&hits)->n;
	preempt_enable();
	KTEST_EXPECT_GT(t, hits_ticks, 0UL);
	KTEST_EXPECT_EQ(t, n, mine + hits_ticks);
}

static const struct ktest_case race_cases[] = {
	KTEST_CASE(counter_locked_on_both_cpus),
	KTEST_CASE(percpu_bumped_with_irqs_off),
	KTEST_END,
};

static const struct ktest_suite race_suite = {
	.name = "race",
	.cases = race_cases,
};
KTEST_SUITE(race_suite);
