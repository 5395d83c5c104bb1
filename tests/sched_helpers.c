/*
 * tests/sched_helpers.c - helper threads, recording timers and the
 * per-case set-up shared by the suites sched, timer and wait
 * (tests/sched_helpers.h says what they offer and their rules).
 */
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/smp.h"
#include "lib/err.h"
#include "lib/string.h"
#include "tests/sched_helpers.h"

struct helper th_helpers[MAX_HELPERS];
int th_nr_helpers;
struct timer_rec th_trec[NR_TIMERS];
struct th_shared th_shared;

/* ---- helper threads ------------------------------------------------------ */

void th_need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2+ online CPUs (one-CPU boot: -smp 1, nosmp or maxcpus=1)");
}

int th_nth_cpu(int n)
{
	unsigned int i = 0, want = (unsigned int)n % num_online_cpus();
	int cpu;

	for_each_online_cpu(cpu)
		if (i++ == want)
			return cpu;
	return 0;
}

int th_last_cpu(void)
{
	return th_nth_cpu((int)num_online_cpus() - 1);
}

void th_poll_pause(void)
{
	yield();
	cpu_relax();
}

void th_sleep_until(unsigned long when)
{
	while (time_before(jiffies, when))
		schedule_timeout_uninterruptible(1);
}

struct helper *th_new_helper(struct ktest *t, int (*fn)(void *), int cpu)
{
	struct helper *h;
	struct task_struct *k;

	KTEST_ASSERT_LT(t, th_nr_helpers, MAX_HELPERS);
	h = &th_helpers[th_nr_helpers];
	h->id = th_nr_helpers;
	h->bound = cpu;
	k = kthread_create(fn, h, "sched-test/%d", h->id);
	KTEST_ASSERT_FALSE(t, IS_ERR(k));
	if (cpu >= 0)
		kthread_bind(k, (unsigned int)cpu);
	h->task = k;
	th_nr_helpers++;
	return h;
}

struct helper *th_start_helper(struct ktest *t, int (*fn)(void *), int cpu)
{
	struct helper *h = th_new_helper(t, fn, cpu);

	wake_up_process(h->task);
	return h;
}

void th_note_start(struct helper *h)
{
	h->cpu_seen = raw_smp_processor_id();
	h->task_cpu = current->cpu;
	__atomic_store_n(&h->ran, 1, __ATOMIC_RELEASE);
	wake_up(&th_shared.kick);
}

void th_park(struct helper *h)
{
	__atomic_store_n(&h->parked, true, __ATOMIC_RELEASE);
	wake_up(&th_shared.kick);
	ktest_park_until_stopped();
}

bool th_asleep(const struct helper *h)
{
	return read_int(&h->ran) && !READ_ONCE(h->task->on_rq);
}

bool th_all_asleep(void)
{
	for (int i = 0; i < th_nr_helpers; i++)
		if (th_helpers[i].task && !th_asleep(&th_helpers[i]))
			return false;
	return true;
}

bool th_all_ran(void)
{
	for (int i = 0; i < th_nr_helpers; i++)
		if (th_helpers[i].task && !read_int(&th_helpers[i].ran))
			return false;
	return true;
}

bool th_parked(const struct helper *h)
{
	return __atomic_load_n(&h->parked, __ATOMIC_ACQUIRE);
}

bool th_all_parked(void)
{
	for (int i = 0; i < th_nr_helpers; i++)
		if (th_helpers[i].task && !th_parked(&th_helpers[i]))
			return false;
	return true;
}

void th_stop_helpers(struct ktest *t)
{
	for (int i = 0; i < th_nr_helpers; i++) {
		struct helper *h = &th_helpers[i];

		if (!h->task)
			continue;
		if (h->may_block && !wait_until(th_parked(h))) {
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
	struct timer_rec *r = &th_trec[data];
	int n;

	if ((r->when_asleep && READ_ONCE(th_shared.case_task->on_rq)) ||
	    (r->after && !read_int(&r->after->fired))) {
		mod_timer(&r->timer, jiffies + 1);
		return;
	}
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	r->cpu = smp_processor_id();
	r->when = jiffies;
	r->in_irq = in_irq();
	r->in_interrupt = in_interrupt();
	r->atomic = in_atomic();
	r->irqs_off = irqs_disabled();
	r->hardirqs = hardirq_count() / HARDIRQ_OFFSET;
	n = __atomic_fetch_add(&th_shared.nr_fired, 1, __ATOMIC_ACQ_REL);
	if (n < NR_TIMERS)
		th_shared.fire_order[n] = (int)data;
	switch (r->action) {
	case ACT_NONE:
		break;
	case ACT_WAKE_QUEUE:
		wake_up(&th_shared.wq);
		break;
	case ACT_SET_FLAG:
		WRITE_ONCE(th_shared.flag, true);
		wake_up(&th_shared.wq);
		break;
	case ACT_COMPLETE:
		complete(&th_shared.done);
		break;
	case ACT_WAKE_CASE:
		wake_up_process(th_shared.case_task);
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
	wake_up(&th_shared.kick);
}

void th_arm(int i, unsigned long expires, int cpu)
{
	struct timer_list *timer = &th_trec[i].timer;

	timer->expires = expires;
	if (cpu < 0)
		add_timer(timer);
	else
		add_timer_on(timer, cpu);
}

void th_expect_ran_in_irq(struct ktest *t, const struct timer_rec *r,
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

int th_suite_init(struct ktest *t)
{
	memset(th_helpers, 0, sizeof(th_helpers));
	th_nr_helpers = 0;
	memset(&th_shared, 0, sizeof(th_shared));
	th_shared.case_task = current;
	init_waitqueue_head(&th_shared.kick);
	init_waitqueue_head(&th_shared.wq);
	init_completion(&th_shared.done);
	memset(th_trec, 0, sizeof(th_trec));
	for (int i = 0; i < NR_TIMERS; i++)
		setup_timer(&th_trec[i].timer, timer_fn, (unsigned long)i);
	return 0;
}

void th_suite_exit(struct ktest *t)
{
	th_stop_helpers(t);
	for (int i = 0; i < NR_TIMERS; i++)
		del_timer_sync(&th_trec[i].timer);
}
