/*
 * kernel/wait.c - wait queues and completions (see kernel/wait.h).
 *
 * Locking: wq->lock (irqsave: interrupt handlers wake queues) protects the
 * queue's list, and a completion's count.  complete() counts and wakes
 * under the one lock: once a waiter has seen the count it may free the
 * completion (it is often on its stack), so complete() must be done with
 * it by then.  It is taken before a run-queue lock (__wake_up wakes
 * tasks with it held), never after one.
 */
#include "kernel/lockdep.h"
#include "kernel/bug.h"
#include "kernel/wait.h"

void init_waitqueue_head(wait_queue_head_t *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait,
		     long state)
{
	unsigned long flags;

	/* Under the lock: a waker reads the flags of a queued entry. */
	spin_lock_irqsave(&wq->lock, flags);
	wait->flags &= ~WQ_FLAG_EXCLUSIVE;
	if (list_empty(&wait->entry))
		list_add(&wait->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *wait, long state)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	wait->flags |= WQ_FLAG_EXCLUSIVE;
	if (list_empty(&wait->entry))
		list_add_tail(&wait->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	if (!list_empty(&wait->entry)) {
		spin_lock_irqsave(&wq->lock, flags);
		list_del_init(&wait->entry);
		spin_unlock_irqrestore(&wq->lock, flags);
	}
}

/* The caller holds wq->lock. */
static void __wake_up_locked(wait_queue_head_t *wq, unsigned int mode,
			     int nr_exclusive)
{
	struct wait_queue_entry *w, *tmp;

	lockdep_assert_held(&wq->lock);
	list_for_each_entry_safe(w, tmp, &wq->head, entry) {
		bool exclusive = w->flags & WQ_FLAG_EXCLUSIVE;

		if (try_to_wake_up(w->task, mode) && exclusive &&
		    !--nr_exclusive)
			break;
	}
}

void __wake_up(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_locked(wq, mode, nr_exclusive);
	spin_unlock_irqrestore(&wq->lock, flags);
}

bool waitqueue_active(wait_queue_head_t *wq)
{
	return !list_empty(&wq->head);
}

/* ---- completions ---- */

#define COMPLETE_ALL (~0u >> 1)

void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETE_ALL)
		x->done++;
	__wake_up_locked(&x->wait, TASK_NORMAL, 1);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETE_ALL;
	__wake_up_locked(&x->wait, TASK_NORMAL, 0);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

/* Takes one "done" if there is one; the caller holds x->wait.lock. */
static bool take_done_locked(struct completion *x)
{
	lockdep_assert_held(&x->wait.lock);
	if (!x->done)
		return false;
	if (x->done != COMPLETE_ALL)
		x->done--;
	return true;
}

static long do_wait_for_common(struct completion *x, long timeout)
{
	DEFINE_WAIT(wait);
	unsigned long flags;

	might_sleep();
	for (;;) {
		bool got;

		prepare_to_wait_exclusive(&x->wait, &wait, TASK_UNINTERRUPTIBLE);
		spin_lock_irqsave(&x->wait.lock, flags);
		got = take_done_locked(x);
		spin_unlock_irqrestore(&x->wait.lock, flags);
		if (got) {
			if (!timeout)
				timeout = 1;
			break;
		}
		if (!timeout)
			break;
		timeout = schedule_timeout(timeout);
	}
	finish_wait(&x->wait, &wait);
	return timeout;
}

void wait_for_completion(struct completion *x)
{
	do_wait_for_common(x, MAX_SCHEDULE_TIMEOUT);
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return (unsigned long)do_wait_for_common(x, (long)timeout);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool got;

	spin_lock_irqsave(&x->wait.lock, flags);
	got = take_done_locked(x);
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return got;
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
