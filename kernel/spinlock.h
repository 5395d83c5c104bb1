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
 * lockdep_assert_held(l) (kernel/lockdep.h) in a function whose name ends
 * in _locked turns a forgotten lock into a BUG at the call, not a
 * corruption later.
 *
 * Every lock has a lockdep_map: its class for the lock validator
 * (kernel/lockdep.c), which sees each acquisition and release when it is
 * on.  DEFINE_SPINLOCK(x) and __SPIN_LOCK_UNLOCKED(x) key the class by
 * the lock's own address (a static lock is its own class);
 * spin_lock_init() by its call site.  spin_lock_nested(l, n) takes a lock
 * of a class already held, as subclass n, where the code orders the two
 * instances itself.  arch_spin_lock()/arch_spin_unlock() are the bare
 * ticket lock, unseen by the validator and touching neither preemption
 * nor interrupts: for the validator's own lock and for the run-queue
 * lock's hand-over across a context switch (kernel/sched.c).
 *
 * local_irq_enable() and local_irq_restore() tell the validator that
 * interrupts come on, so a lock held across that point counts as taken
 * with interrupts enabled (HARDIRQ-ON).
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "asm/irqflags.h"
#include "asm/processor.h"
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/preempt.h"
#include "kernel/smp.h"
#include "lib/compiler.h"

typedef struct spinlock {
	u16 next;   /* the ticket the next locker takes */
	u16 owner;  /* the ticket being served */
	int cpu;    /* holder's CPU, -1 when free: for assertions only,
		       read without the lock (READ_ONCE/WRITE_ONCE) */
	struct lockdep_map dep_map;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lockname)                                      \
	{ .next = 0, .owner = 0, .cpu = -1,                                  \
	  .dep_map = STATIC_LOCKDEP_MAP_INIT(#lockname) }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

static inline void __spin_lock_init(spinlock_t *lock, const char *name,
				    struct lock_class_key *key)
{
	lock->next = 0;
	lock->owner = 0;
	lock->cpu = -1;
	lockdep_init_map(&lock->dep_map, name, key);
}

/* One class per call site, named after the argument, as in Linux. */
#define spin_lock_init(lock)                                                \
	do {                                                                 \
		static struct lock_class_key __key;                          \
		__spin_lock_init((lock), #lock, &__key);                     \
	} while (0)

/* The bare ticket lock: no preemption, interrupts or validator. */
static inline void arch_spin_lock(spinlock_t *lock)
{
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
	/* Preemption or interrupts are off: the CPU cannot change. */
	WRITE_ONCE(lock->cpu, raw_smp_processor_id());	/* spin_is_held() */
}

static inline void arch_spin_unlock(spinlock_t *lock)
{
	WRITE_ONCE(lock->cpu, -1);
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}

static inline bool arch_spin_trylock(spinlock_t *lock)
{
	/* Acquire: the unlock that served this ticket released the lock. */
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE);
	u16 expected = owner;

	if (!__atomic_compare_exchange_n(&lock->next, &expected,
					 (u16)(owner + 1), false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	WRITE_ONCE(lock->cpu, raw_smp_processor_id());
	return true;
}

/*
 * The validator is told before the wait (so a deadlock it predicts is
 * reported even when this attempt would hang) and before the release.
 */
static __always_inline void __spin_acquire_ip(spinlock_t *lock,
					      unsigned int subclass,
					      unsigned long ip)
{
	if (lockdep_active())
		lock_acquire(&lock->dep_map, subclass, 0, ip);
	arch_spin_lock(lock);
}

static __always_inline void __spin_release_ip(spinlock_t *lock,
					      unsigned long ip)
{
	if (lockdep_active())
		lock_release(&lock->dep_map, ip);
	arch_spin_unlock(lock);
}

static __always_inline bool __spin_trylock_ip(spinlock_t *lock,
					      unsigned long ip)
{
	preempt_disable();
	if (!arch_spin_trylock(lock)) {
		preempt_enable();
		return false;
	}
	if (lockdep_active())
		lock_acquire(&lock->dep_map, 0, 1, ip);
	return true;
}

/* Macros, so that the validator records the caller's address. */
#define __spin_acquire(lock, subclass)                                      \
	__spin_acquire_ip((lock), (subclass), LOCKDEP_CALLER_IP)
#define __spin_release(lock) __spin_release_ip((lock), LOCKDEP_CALLER_IP)

#define spin_lock_nested(lock, subclass)                                    \
	do {                                                                 \
		preempt_disable();                                           \
		__spin_acquire((lock), (subclass));                          \
	} while (0)
#define spin_lock(lock) spin_lock_nested((lock), 0)
#define spin_trylock(lock) __spin_trylock_ip((lock), LOCKDEP_CALLER_IP)

#define spin_unlock(lock)                                                   \
	do {                                                                 \
		__spin_release(lock);                                        \
		preempt_enable();                                            \
	} while (0)

static inline bool spin_is_locked(const spinlock_t *lock)
{
	return __atomic_load_n(&lock->next, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
}

/*
 * Held by this CPU: the precondition of every ..._locked function.  The
 * raw CPU number is enough: if this CPU holds the lock, preemption is off
 * and the number cannot go stale; if it does not, no stale number can
 * equal the holder's, since a task never changes CPU.
 */
static inline bool spin_is_held(const spinlock_t *lock)
{
	return spin_is_locked(lock) &&
	       READ_ONCE(lock->cpu) == raw_smp_processor_id();
}

/* Interrupts come on: the validator marks the held locks HARDIRQ-ON. */
static inline void __lockdep_irqs_on(unsigned long ip)
{
	if (lockdep_active())
		lockdep_hardirqs_on(ip);
}

#define spin_lock_irqsave_nested(lock, flags, subclass)                     \
	do {                                                                 \
		(flags) = arch_local_irq_save();                             \
		preempt_disable();                                           \
		__spin_acquire((lock), (subclass));                          \
	} while (0)
#define spin_lock_irqsave(lock, flags) spin_lock_irqsave_nested(lock, flags, 0)

static __always_inline void __spin_unlock_irqrestore_ip(spinlock_t *lock,
							unsigned long flags,
							unsigned long ip)
{
	__spin_release_ip(lock, ip);
	if (!arch_irqs_disabled_flags(flags))
		__lockdep_irqs_on(ip);
	arch_local_irq_restore(flags);
	preempt_enable();
}
#define spin_unlock_irqrestore(lock, flags)                                 \
	__spin_unlock_irqrestore_ip((lock), (flags), LOCKDEP_CALLER_IP)

#define spin_lock_irq(lock)                                                 \
	do {                                                                 \
		arch_local_irq_disable();                                    \
		preempt_disable();                                           \
		__spin_acquire((lock), 0);                                   \
	} while (0)

#define spin_unlock_irq(lock)                                               \
	do {                                                                 \
		__spin_release(lock);                                        \
		__lockdep_irqs_on(LOCKDEP_CALLER_IP);                        \
		arch_local_irq_enable();                                     \
		preempt_enable();                                            \
	} while (0)

#define local_irq_save(flags) ((flags) = arch_local_irq_save())
#define local_irq_restore(flags)                                            \
	do {                                                                 \
		unsigned long __f = (flags);                                 \
		if (!arch_irqs_disabled_flags(__f))                          \
			__lockdep_irqs_on(LOCKDEP_CALLER_IP);                \
		arch_local_irq_restore(__f);                                 \
	} while (0)

/*
 * For fast paths that must hold no value across a call (so that they
 * need no callee-saved registers): local_irq_restore_fast(flags)
 * restores flags and returns true when that is a bare store - the flags
 * keep interrupts off, or the validator is off and the architecture has
 * nothing to do when they come on (the host: no interrupt pending); else
 * it returns false, and the caller ends with local_irq_restore_slow(flags),
 * out of line, which does all of local_irq_restore() (the validator told,
 * pending interrupts taken).  With the validator on, nothing was done; on
 * the host, the flag may already be stored, and storing it again is
 * harmless.
 */
#ifndef arch_local_irq_restore_quiet
#define arch_local_irq_restore_quiet(flags) (arch_local_irq_restore(flags), true)
#endif

static __always_inline bool local_irq_restore_fast(unsigned long flags)
{
	if (!arch_irqs_disabled_flags(flags) && lockdep_active())
		return false;
	return arch_local_irq_restore_quiet(flags);
}

static __attribute__((noinline, cold, unused)) void
local_irq_restore_slow(unsigned long flags)
{
	/* The validator records the fast path's address, not this one's. */
	if (!arch_irqs_disabled_flags(flags))
		__lockdep_irqs_on(_RET_IP_);
	arch_local_irq_restore(flags);
}

#define local_irq_disable() arch_local_irq_disable()
#define local_irq_enable()                                                  \
	do {                                                                 \
		__lockdep_irqs_on(LOCKDEP_CALLER_IP);                        \
		arch_local_irq_enable();                                     \
	} while (0)
#define irqs_disabled() arch_irqs_disabled_flags(arch_local_save_flags())

#endif /* KERNEL_SPINLOCK_H */
