/*
 * kernel/mutex.h - sleeping locks.
 *
 * A mutex is held by one task at a time and may be held across sleeps
 * (an allocation, a wait); a task that finds it taken sleeps instead of
 * spinning.  Only the owner may unlock it, and only task context may take
 * it (it sleeps): both are checked.
 *
 * Each mutex has a class for the lock validator (kernel/lockdep.h):
 * DEFINE_MUTEX(m) keys it by the mutex's address, mutex_init() by its
 * call site; mutex_lock_nested(m, n) takes a second mutex of a class
 * already held, as subclass n.  The wait_lock inside is the mutex's own
 * business and is not validated (arch_spin_lock).
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
	struct lockdep_map dep_map;
};

#define __MUTEX_INITIALIZER(name)                                           \
	{ .owner = NULL, .wait_lock = __SPIN_LOCK_UNLOCKED(name.wait_lock),  \
	  .wait_list = LIST_HEAD_INIT((name).wait_list), .contended = 0,     \
	  .dep_map = STATIC_LOCKDEP_MAP_INIT(#name) }
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key);
#define mutex_init(lock)                                                    \
	do {                                                                 \
		static struct lock_class_key __key;                          \
		__mutex_init((lock), #lock, &__key);                         \
	} while (0)
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
#define mutex_lock(lock) mutex_lock_nested((lock), 0)
/* 1 when taken, 0 when someone holds it. */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

static inline bool mutex_is_locked(const struct mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}

#endif /* KERNEL_MUTEX_H */
