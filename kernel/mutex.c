/*
 * kernel/mutex.c - sleeping locks with hand-off.
 *
 * Unlocking with sleepers waiting does not free the lock: it hands it to
 * the first sleeper (owner = that task) and wakes it.  So the lock goes
 * in arrival order and no late-comer can take it from under a woken
 * sleeper: a sleeper is never starved.
 *
 * Before the scheduler runs (the boot, one task) a mutex is only ever
 * free when taken: there is nobody to wait for.
 *
 * Locking: lock->wait_lock (interrupts off, a leaf apart from the
 * wake-up it does) protects owner and wait_list.  It is taken bare
 * (arch_spin_lock): the validator sees the mutex itself, told before a
 * locker may sleep and before the owner lets go (2.6.18).  owner and
 * contended are also read without it: WRITE_ONCE under it, READ_ONCE
 * outside.
 */
#include "kernel/bug.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"

/* Misuse stops the kernel, naming the lock and both tasks. */
static void __noreturn mutex_bug(const char *fn, struct mutex *lock,
				 const char *what)
{
	struct task_struct *owner = READ_ONCE(lock->owner);

	pr_emerg("BUG: %s: mutex %p %s (held by %s/%d, called by %s/%d)\n", fn,
		 (void *)lock, what, owner ? owner->comm : "nobody",
		 owner ? owner->pid : -1, current->comm, current->pid);
	dump_stack();
	panic("%s misuse", fn);
}

struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

/* wait_lock, unseen by the validator: interrupts off, then the lock. */
#define wait_lock_irqsave(lock, flags)                                      \
	do {                                                                 \
		(flags) = arch_local_irq_save();                             \
		arch_spin_lock(&(lock)->wait_lock);                          \
	} while (0)
#define wait_unlock_irqrestore(lock, flags)                                 \
	do {                                                                 \
		arch_spin_unlock(&(lock)->wait_lock);                        \
		local_irq_restore(flags);                                    \
	} while (0)

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
{
	lock->owner = NULL;
	lock->wait_lock = (spinlock_t)__SPIN_LOCK_UNLOCKED(mutex.wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
	lock->contended = 0;
	lockdep_init_map(&lock->dep_map, name, key);
}

void mutex_lock_nested(struct mutex *lock, unsigned int subclass)
{
	struct task_struct *self = current;
	struct mutex_waiter waiter;
	unsigned long flags;

	might_sleep();
	if (unlikely(debug_locks))
		lock_acquire(&lock->dep_map, subclass, 0, _RET_IP_);
	wait_lock_irqsave(lock, flags);
	if (lock->owner == self)
		mutex_bug("mutex_lock", lock, "already held by this task: deadlock");
	if (!lock->owner) {
		WRITE_ONCE(lock->owner, self);
		wait_unlock_irqrestore(lock, flags);
		return;
	}
	WRITE_ONCE(lock->contended, lock->contended + 1);
	waiter.task = self;
	list_add_tail(&waiter.list, &lock->wait_list);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		wait_unlock_irqrestore(lock, flags);
		schedule();
		wait_lock_irqsave(lock, flags);
		if (lock->owner == self)	/* handed over by mutex_unlock */
			break;
	}
	wait_unlock_irqrestore(lock, flags);
	__set_current_state(TASK_RUNNING);
}

int mutex_trylock(struct mutex *lock)
{
	unsigned long flags;
	int taken = 0;

	wait_lock_irqsave(lock, flags);
	if (!lock->owner) {
		WRITE_ONCE(lock->owner, current);
		taken = 1;
	}
	wait_unlock_irqrestore(lock, flags);
	if (taken && unlikely(debug_locks))
		lock_acquire(&lock->dep_map, 0, 1, _RET_IP_);
	return taken;
}

void mutex_unlock(struct mutex *lock)
{
	struct task_struct *next = NULL;
	unsigned long flags;

	if (READ_ONCE(lock->owner) == current && unlikely(debug_locks))
		lock_release(&lock->dep_map, _RET_IP_);
	wait_lock_irqsave(lock, flags);
	if (lock->owner != current)
		mutex_bug("mutex_unlock", lock, "is not held by the caller");
	if (!list_empty(&lock->wait_list)) {
		struct mutex_waiter *w = list_first_entry(&lock->wait_list,
							  struct mutex_waiter, list);

		list_del(&w->list);
		next = w->task;
	}
	WRITE_ONCE(lock->owner, next);
	if (next)
		wake_up_process(next);
	wait_unlock_irqrestore(lock, flags);
}
