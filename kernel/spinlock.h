/*
 * kernel/spinlock.h - fair (ticket) spinlocks.
 *
 * A lock is two counters: the next ticket to hand out and the ticket now
 * served.  spin_lock() takes a ticket and spins until it is served, so
 * CPUs get the lock in the order they asked for it (no starvation under
 * contention, which a plain test-and-set lock does not promise).  The
 * _irqsave variants disable local interrupts first: a lock that an
 * interrupt handler may take must always be taken that way, or the handler
 * can spin on a lock its own CPU holds.
 *
 * Holding a spinlock is atomic context: spin_lock() disables preemption
 * (so the holder cannot be switched out while others spin for it) and
 * spin_unlock() enables it again, rescheduling if an interrupt asked for
 * that meanwhile.  Sleeping with a spinlock held is a bug that
 * might_sleep() reports.
 *
 * The owner CPU is recorded so that preconditions can be asserted:
 * assert_spin_locked(l) in a function whose name ends in _locked (or whose
 * comment says "zone->lock held") turns a forgotten lock into a BUG at the
 * call, not a corruption later.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "asm/irqflags.h"
#include "asm/processor.h"
#include "kernel/bug.h"
#include "kernel/preempt.h"
#include "kernel/smp.h"
#include "lib/compiler.h"

typedef struct spinlock {
	u16 next;   /* the ticket the next locker takes */
	u16 owner;  /* the ticket being served */
	int cpu;    /* holder's CPU, -1 when free: for assertions only */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED { 0, 0, -1 }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED

static inline void spin_lock_init(spinlock_t *lock)
{
	lock->next = 0;
	lock->owner = 0;
	lock->cpu = -1;
}

static inline void __spin_acquire(spinlock_t *lock)
{
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
	lock->cpu = smp_processor_id();
}

static inline void __spin_release(spinlock_t *lock)
{
	lock->cpu = -1;
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}

static inline void spin_lock(spinlock_t *lock)
{
	preempt_disable();
	__spin_acquire(lock);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u16 expected = owner;

	preempt_disable();
	if (!__atomic_compare_exchange_n(&lock->next, &expected,
					 (u16)(owner + 1), false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		preempt_enable();
		return false;
	}
	lock->cpu = smp_processor_id();
	return true;
}

static inline void spin_unlock(spinlock_t *lock)
{
	__spin_release(lock);
	preempt_enable();
}

static inline bool spin_is_locked(const spinlock_t *lock)
{
	return __atomic_load_n(&lock->next, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
}

/* Held by this CPU: the precondition of every ..._locked function. */
static inline bool spin_is_held(const spinlock_t *lock)
{
	return spin_is_locked(lock) && lock->cpu == smp_processor_id();
}

#define assert_spin_locked(lock) BUG_ON(!spin_is_held(lock))

#define spin_lock_irqsave(lock, flags)                                      \
	do {                                                                 \
		(flags) = arch_local_irq_save();                             \
		preempt_disable();                                           \
		__spin_acquire(lock);                                        \
	} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *lock,
					  unsigned long flags)
{
	__spin_release(lock);
	arch_local_irq_restore(flags);
	preempt_enable();
}

static inline void spin_lock_irq(spinlock_t *lock)
{
	arch_local_irq_disable();
	preempt_disable();
	__spin_acquire(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	__spin_release(lock);
	arch_local_irq_enable();
	preempt_enable();
}

#define local_irq_save(flags) ((flags) = arch_local_irq_save())
#define local_irq_restore(flags) arch_local_irq_restore(flags)
#define local_irq_disable() arch_local_irq_disable()
#define local_irq_enable() arch_local_irq_enable()
#define irqs_disabled() arch_irqs_disabled_flags(arch_local_save_flags())

#endif /* KERNEL_SPINLOCK_H */
