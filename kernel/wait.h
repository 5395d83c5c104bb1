/*
 * kernel/wait.h - wait queues and completions: sleeping until something
 * happens.
 *
 * A waiter adds an entry naming itself to the queue and sleeps; whoever
 * makes the awaited thing happen calls wake_up() on the queue.  The
 * condition is always re-tested after setting the task state and before
 * sleeping (prepare_to_wait, then test, then schedule), so a wake-up that
 * comes between the test and the sleep finds the task still runnable and
 * is not lost.  Exclusive waiters (prepare_to_wait_exclusive) are queued
 * at the tail and wake_up() wakes only one of them; wake_up_all() wakes
 * everyone.
 *
 * A completion is a counted event on a wait queue: complete() lets one
 * waiter through, complete_all() all of them, for good.
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "lib/list.h"

#define WQ_FLAG_EXCLUSIVE 0x01

struct wait_queue_entry {
	unsigned int flags;
	struct task_struct *task;
	struct list_head entry;
};

typedef struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
} wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)                                 \
	{ .lock = __SPIN_LOCK_UNLOCKED(name.lock),                          \
	  .head = LIST_HEAD_INIT((name).head) }
#define DECLARE_WAIT_QUEUE_HEAD(name)                                       \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
#define DEFINE_WAIT(name)                                                   \
	struct wait_queue_entry name = {                                    \
		.flags = 0,                                                  \
		.task = current,                                             \
		.entry = LIST_HEAD_INIT((name).entry),                       \
	}

void init_waitqueue_head(wait_queue_head_t *wq);
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait,
		     long state);
void prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *wait, long state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait);
/* Wakes every non-exclusive waiter and nr_exclusive exclusive ones (0: all). */
void __wake_up(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive);
#define wake_up(wq) __wake_up(wq, TASK_NORMAL, 1)
#define wake_up_nr(wq, nr) __wake_up(wq, TASK_NORMAL, nr)
#define wake_up_all(wq) __wake_up(wq, TASK_NORMAL, 0)
bool waitqueue_active(wait_queue_head_t *wq);

/* Sleeps until condition is true. */
#define wait_event(wq, condition)                                           \
	do {                                                                 \
		DEFINE_WAIT(__wait);                                         \
		might_sleep();                                               \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__wait, TASK_UNINTERRUPTIBLE); \
			if (condition)                                       \
				break;                                       \
			schedule();                                          \
		}                                                            \
		finish_wait(&(wq), &__wait);                                 \
	} while (0)

/*
 * Sleeps until condition is true or timeout jiffies have passed.  Returns
 * 0 when it timed out with the condition false, else the jiffies left
 * (at least 1).
 */
#define wait_event_timeout(wq, condition, timeout)                          \
	({                                                                   \
		long __ret = (timeout);                                      \
		DEFINE_WAIT(__wait);                                         \
		might_sleep();                                               \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__wait, TASK_UNINTERRUPTIBLE); \
			if (condition) {                                     \
				if (!__ret)                                  \
					__ret = 1;                           \
				break;                                       \
			}                                                    \
			if (!__ret)                                          \
				break;                                       \
			__ret = schedule_timeout(__ret);                     \
		}                                                            \
		finish_wait(&(wq), &__wait);                                 \
		__ret;                                                       \
	})

struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

#define COMPLETION_INITIALIZER(name)                                        \
	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((name).wait) }
#define DECLARE_COMPLETION(name) struct completion name = COMPLETION_INITIALIZER(name)

void init_completion(struct completion *x);
static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}
void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
/* 0 on timeout, else the jiffies left (at least 1). */
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout);
bool try_wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

#endif /* KERNEL_WAIT_H */
