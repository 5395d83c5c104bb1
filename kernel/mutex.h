/*
 * kernel/mutex.h - sleeping locks.
 *
 * A mutex is held by one task at a time and may be held across sleeps
 * (an allocation, a wait); a task that finds it taken sleeps instead of
 * spinning.  Only the owner may unlock it, and only task context may take
 * it (it sleeps): both are checked.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "lib/list.h"

struct mutex {
	struct task_struct *owner;	/* NULL when free */
	spinlock_t wait_lock;
	struct list_head wait_list;	/* sleepers, in arrival order */
	unsigned long contended;	/* times a locker had to sleep */
};

#define __MUTEX_INITIALIZER(name)                                           \
	{ .owner = NULL, .wait_lock = __SPIN_LOCK_UNLOCKED,                  \
	  .wait_list = LIST_HEAD_INIT((name).wait_list), .contended = 0 }
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

void mutex_init(struct mutex *lock);
void mutex_lock(struct mutex *lock);
/* 1 when taken, 0 when someone holds it. */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

static inline bool mutex_is_locked(const struct mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}

/* The precondition of a function that needs lock held by its caller. */
#define assert_mutex_held(lock) BUG_ON(READ_ONCE((lock)->owner) != current)

#endif /* KERNEL_MUTEX_H */
