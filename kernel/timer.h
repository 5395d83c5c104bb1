/*
 * kernel/timer.h - jiffies, kernel timers, and sleeping for a time.
 *
 * jiffies counts timer ticks (HZ a second) from an initial value just
 * short of wrapping, as Linux does, so that code which compares jiffies
 * without time_after() breaks in the first five minutes, not after 200
 * days.  A timer runs its function once, in the tick's interrupt context
 * on the CPU that armed it (a timer re-armed while its function runs
 * stays on the CPU that runs it), at the first tick at or after expires
 * (re-armed by its own function, at the next tick at the earliest).
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include "lib/list.h"
#include "lib/types.h"

/*
 * 1000 ticks a second, i386's HZ from 2.6.0 to 2.6.12 (2.6.13 made it a
 * choice, 250 by default): a jiffy is a millisecond, so what sleeps or
 * waits for ticks - timers, slices, the tests that judge in jiffies -
 * waits a quarter of what it would at 250.
 */
#define HZ 1000
#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))
#define MAX_SCHEDULE_TIMEOUT ((long)(~0UL >> 1))

extern volatile unsigned long jiffies;

#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)

static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return (ms + (1000 / HZ) - 1) / (1000 / HZ);
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)(j * (1000 / HZ));
}

struct timer_list {
	struct list_head entry;	/* on its CPU's list, by expiry; else empty */
	unsigned long expires;
	void (*function)(unsigned long data);
	unsigned long data;
	int cpu;		/* the CPU whose list holds it */
};

/* Empties every CPU's timer list (sched_init). */
void init_timers(void);
void init_timer(struct timer_list *timer);
void setup_timer(struct timer_list *timer, void (*fn)(unsigned long),
		 unsigned long data);
/*
 * Arms a timer that is not pending for timer->expires, on this CPU (on
 * cpu for add_timer_on); add_timer() leaves one whose function runs now
 * on the CPU that runs it.
 */
void add_timer(struct timer_list *timer);
void add_timer_on(struct timer_list *timer, int cpu);
/* Re-arms (or arms) it for expires; 1 when it was pending. */
int mod_timer(struct timer_list *timer, unsigned long expires);
/* Disarms it; 1 when it was pending.  It may still be running elsewhere. */
int del_timer(struct timer_list *timer);
/* Disarms it and waits until its function is not running anywhere. */
int del_timer_sync(struct timer_list *timer);
bool timer_pending(const struct timer_list *timer);

/* The tick, from the arch's timer interrupt, on every CPU. */
void timer_interrupt(void);
/* Ticks this CPU has taken. */
unsigned long timer_ticks_on(int cpu);

/*
 * Sleeps until timeout jiffies have passed or the task is woken; the
 * caller sets its state first.  Returns the jiffies left (0: timed out).
 */
long schedule_timeout(long timeout);
long schedule_timeout_uninterruptible(long timeout);
/*
 * schedule_timeout() for a task that waits for memory or I/O to come back
 * (congestion_wait(), mempool_alloc(): 2.6.18's io_schedule_timeout),
 * counted in current->blkio_count as 2.6.18's delay accounting counts
 * them: one per wait, whether or not the task was switched out (a wake-up
 * or a timeout before schedule() ends the wait all the same, and leaves
 * nvcsw as it was).
 */
long io_schedule_timeout(long timeout);
/* Sleeps at least ms milliseconds. */
void msleep(unsigned int ms);

#endif /* KERNEL_TIMER_H */
