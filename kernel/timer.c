/*
 * kernel/timer.c - the tick: jiffies, kernel timers, timed sleeps.
 *
 * Every CPU takes a periodic interrupt HZ times a second (the local APIC
 * timer on the PC, arch_timer_start).  The boot CPU's tick advances
 * jiffies; every CPU's tick runs its own expired timers and then the
 * scheduler's tick (time slices).
 *
 * A CPU's timers sit on one list sorted by expiry: arming walks the list
 * (O(n), fine for the handful a teaching kernel has; Linux's timer wheel
 * makes it O(1)), and the tick only looks at the head.  A tick runs the
 * timers expired when it began, each function in the tick's interrupt
 * context with the list unlocked, so it may re-arm its own timer (for
 * the next tick at the earliest); base->running names it meanwhile so
 * that del_timer_sync() can wait for it to finish, and add_timer() and
 * mod_timer() leave a running timer on its base for the same reason.
 *
 * Locking: base->lock (irqsave; a leaf, taken from the tick) protects a
 * CPU's list and every timer on it.  A timer's cpu field says which lock
 * that is; it changes only while the timer is on no list.
 */
#include "kernel/lockdep.h"
#include "kernel/bug.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"

struct timer_base {
	spinlock_t lock;
	struct list_head list;		/* pending timers, earliest first */
	struct timer_list *running;	/* whose function runs now */
	unsigned long ticks;
} __aligned(64);

static struct timer_base bases[NR_CPUS];

volatile unsigned long jiffies = INITIAL_JIFFIES;

void init_timers(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		spin_lock_init(&bases[cpu].lock);
		INIT_LIST_HEAD(&bases[cpu].list);
	}
}

void init_timer(struct timer_list *timer)
{
	INIT_LIST_HEAD(&timer->entry);
	timer->cpu = -1;	/* TIMER_NEVER_ARMED */
}

void setup_timer(struct timer_list *timer, void (*fn)(unsigned long),
		 unsigned long data)
{
	init_timer(timer);
	timer->function = fn;
	timer->data = data;
}

bool timer_pending(const struct timer_list *timer)
{
	return !list_empty(&timer->entry);
}

/* The caller holds base->lock. */
static void enqueue_timer_locked(struct timer_base *base,
				 struct timer_list *timer)
{
	struct list_head *pos;

	lockdep_assert_held(&base->lock);
	list_for_each(pos, &base->list) {
		struct timer_list *t = list_entry(pos, struct timer_list, entry);

		if (time_before(timer->expires, t->expires))
			break;
	}
	list_add_tail(&timer->entry, pos);
}

void add_timer_on(struct timer_list *timer, int cpu)
{
	struct timer_base *base = &bases[cpu];
	unsigned long flags;

	BUG_ON(!timer->function);
	BUG_ON(timer_pending(timer));
	spin_lock_irqsave(&base->lock, flags);
	timer->cpu = cpu;
	enqueue_timer_locked(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
}

/*
 * mod_timer() for a timer that is not pending: like 2.6's add_timer(),
 * which is __mod_timer(timer, timer->expires), it stays on the CPU whose
 * base runs its function right now, so that del_timer_sync() still finds
 * it running there.
 */
void add_timer(struct timer_list *timer)
{
	BUG_ON(timer_pending(timer));
	mod_timer(timer, timer->expires);
}

/*
 * Locks the base a timer is on (or was last on) and returns it, with the
 * timer's cpu known not to change until the lock is dropped (it changes
 * only under the lock of the base it leaves); NULL for a timer never
 * armed.  Linux's lock_timer_base().
 */
#define TIMER_NEVER_ARMED (-1)
#define TIMER_MIGRATING (-2)	/* mod_timer() moves it between bases */

static struct timer_base *lock_timer_base(struct timer_list *timer,
					  unsigned long *flags)
{
	for (;;) {
		int cpu = READ_ONCE(timer->cpu);
		struct timer_base *base;

		if (cpu == TIMER_NEVER_ARMED)
			return NULL;
		if (cpu == TIMER_MIGRATING) {
			cpu_relax();
			continue;
		}
		base = &bases[cpu];
		spin_lock_irqsave(&base->lock, *flags);
		if (timer->cpu == cpu)
			return base;
		spin_unlock_irqrestore(&base->lock, *flags);
	}
}

/* The caller holds base->lock. */
static int detach_timer_locked(struct timer_base *base,
			       struct timer_list *timer)
{
	lockdep_assert_held(&base->lock);
	if (!timer_pending(timer))
		return 0;
	list_del_init(&timer->entry);
	return 1;
}

int del_timer(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int ret;

	base = lock_timer_base(timer, &flags);
	if (!base)
		return 0;
	ret = detach_timer_locked(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

/*
 * Pending and running are judged together, under the base's lock: a
 * callback that re-arms its own timer cannot slip in between (Linux's
 * try_to_del_timer_sync).  Waiting for a callback that runs on this CPU's
 * own interrupt would never end: task context only, or another CPU's.
 */
int del_timer_sync(struct timer_list *timer)
{
	for (;;) {
		struct timer_base *base;
		unsigned long flags;
		int ret = -1;

		base = lock_timer_base(timer, &flags);
		if (!base)
			return 0;
		if (base->running != timer)
			ret = detach_timer_locked(base, timer);
		spin_unlock_irqrestore(&base->lock, flags);
		if (ret >= 0)
			return ret;
		BUG_ON(in_irq() && base == &bases[smp_processor_id()]);
		cpu_relax();
	}
}

/*
 * Re-arms the timer in one step, under the lock of the base it is on: two
 * mod_timer() calls, or one and the callback's own re-arm, cannot both
 * add it.  It moves to this CPU's base unless its callback is running on
 * its old one (del_timer_sync() watches that base); while it moves, its
 * cpu says TIMER_MIGRATING and everyone else waits (Linux's __mod_timer).
 */
int mod_timer(struct timer_list *timer, unsigned long expires)
{
	struct timer_base *base, *new_base;
	unsigned long flags, unused;
	int ret = 0;

	BUG_ON(!timer->function);
	local_irq_save(flags);
	new_base = &bases[smp_processor_id()];
	base = lock_timer_base(timer, &unused);
	if (base) {
		ret = detach_timer_locked(base, timer);
		if (base != new_base && base->running != timer) {
			WRITE_ONCE(timer->cpu, TIMER_MIGRATING);
			spin_unlock(&base->lock);
			base = NULL;
		}
	}
	if (!base) {
		base = new_base;
		spin_lock(&base->lock);
		WRITE_ONCE(timer->cpu, smp_processor_id());
	}
	timer->expires = expires;
	enqueue_timer_locked(base, timer);
	spin_unlock(&base->lock);
	local_irq_restore(flags);
	return ret;
}

/*
 * Runs the timers that had expired when the tick began.  They are first
 * moved, in order, onto a list of the tick's own (under base->lock, so
 * del_timer() can still take one off it): a function that re-arms its
 * timer for a time already come puts it back on the base, for the next
 * tick, as 2.6's __run_timers did by taking the bucket off its wheel
 * before running it; otherwise the tick would run it again and again,
 * and on CPU 0 jiffies would stop.
 */
static void run_timers(struct timer_base *base)
{
	struct list_head expired = LIST_HEAD_INIT(expired);
	unsigned long now = jiffies;

	spin_lock(&base->lock);
	while (!list_empty(&base->list)) {
		struct timer_list *t = list_first_entry(&base->list,
							struct timer_list, entry);

		if (time_before(now, t->expires))
			break;
		list_move_tail(&t->entry, &expired);
	}
	while (!list_empty(&expired)) {
		struct timer_list *t = list_first_entry(&expired,
							struct timer_list, entry);
		void (*fn)(unsigned long) = t->function;
		unsigned long data = t->data;

		list_del_init(&t->entry);
		base->running = t;
		spin_unlock(&base->lock);
		fn(data);
		spin_lock(&base->lock);
		base->running = NULL;
	}
	spin_unlock(&base->lock);
}

void timer_interrupt(void)
{
	int cpu = smp_processor_id();
	struct timer_base *base = &bases[cpu];

	WRITE_ONCE(base->ticks, base->ticks + 1);	/* timer_ticks_on() */
	/*
	 * jiffies is read everywhere without a lock: a volatile word, which
	 * Linux's KCSAN takes as a marked access.  Here the race detector is
	 * not shown this one store, so that its readers need no READ_ONCE.
	 */
	if (cpu == 0)
		data_race(jiffies++);
	run_timers(base);
	scheduler_tick();
}

unsigned long timer_ticks_on(int cpu)
{
	return READ_ONCE(bases[cpu].ticks);
}

/* ---- sleeping for a time ---- */

static void process_timeout(unsigned long data)
{
	wake_up_process((struct task_struct *)data);
}

long schedule_timeout(long timeout)
{
	struct timer_list timer;
	unsigned long expire;
	long left;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (WARN_ON(timeout < 0)) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + (unsigned long)timeout;
	setup_timer(&timer, process_timeout, (unsigned long)current);
	timer.expires = expire;
	add_timer(&timer);
	schedule();
	del_timer_sync(&timer);
	left = (long)(expire - jiffies);
	return left < 0 ? 0 : left;
}

long io_schedule_timeout(long timeout)
{
	current->blkio_count++;
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

void msleep(unsigned int ms)
{
	/* +1: the current tick is already partly gone. */
	long timeout = (long)msecs_to_jiffies(ms) + 1;

	might_sleep();
	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}
