/*
 * kernel/lockdep.h - the lock validator's interface (kernel/lockdep.c).
 *
 * Every spinlock and mutex carries a lockdep_map: the key of its class
 * and a name to print.  A lock defined statically (DEFINE_SPINLOCK,
 * DEFINE_MUTEX, __SPIN_LOCK_UNLOCKED(name) in an initialiser) has no key
 * of its own: its address, in the kernel image, is its key, so each such
 * lock is its own class.  A lock initialised at run time (spin_lock_init,
 * mutex_init: macros) gets the address of a static key at the call site,
 * so all locks initialised there share a class, as in Linux (2.6.18).
 *
 * The lock primitives call lock_acquire()/lock_release() around the real
 * operation when debug_locks is on (the default; debug_locks=0 on the
 * command line turns the validator off).  Nothing here allocates.
 *
 * LOCKDEP says whether the validator is built in: 1, the default, in every
 * build the tests run; 0 in the production build that make bench-host
 * measures (as Linux without CONFIG_PROVE_LOCKING), whose primitives and
 * assertions then never look at debug_locks.
 *
 * Assertions, for functions whose caller must hold a lock (their names
 * end in _locked) or must have interrupts off:
 *	lockdep_assert_held(lock)	a spinlock_t * or a struct mutex *
 *	lockdep_assert_irqs_disabled()
 * Both are BUGs when false while the validator is on; they check the real
 * owner (the CPU holding a spinlock, the task holding a mutex), not the
 * validator's records.
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include "kernel/bug.h"
#include "lib/compiler.h"
#include "lib/types.h"

/* Its address is what identifies a class: never read or written. */
struct lock_class_key {
	char dummy;
};

struct lock_class;

struct lockdep_map {
	struct lock_class_key *key;	/* NULL: the lock's own address */
	const char *name;
	struct lock_class *class_cache;	/* subclass 0, once looked up */
};

#define STATIC_LOCKDEP_MAP_INIT(lockname) { .key = NULL, .name = (lockname) }

/* Subclasses: the same class nested by annotation (spin_lock_nested). */
#define MAX_LOCKDEP_SUBCLASSES 8
#define SINGLE_DEPTH_NESTING 1

/* One lock the task holds (task_struct's held_locks[]). */
struct held_lock {
	struct lockdep_map *instance;
	struct lock_class *class;
	unsigned long acquire_ip;	/* where it was taken */
	u64 chain_key;			/* of the held classes up to here */
	u8 irq_context;			/* 1: taken in hardirq context */
	u8 trylock;
};

/*
 * Table sizes (kernel/lockdep.c): when one is too small the validator
 * says so ("BUG: MAX_LOCKDEP_KEYS too low!", Linux's names) and stops.
 */
#define MAX_LOCKDEP_KEYS 512		/* classes */
#define MAX_LOCKDEP_ENTRIES 4096	/* dependencies */
#define MAX_LOCKDEP_CHAINS 4096		/* distinct held-class sequences */

/* Held locks per task: Linux's MAX_LOCK_DEPTH (48 since 2.6.24). */
#define MAX_LOCK_DEPTH 48

#ifndef LOCKDEP
#define LOCKDEP 1
#endif

/* On unless debug_locks=0, off after the first report. */
extern int debug_locks;
/* Whether the validator is at work: a load of debug_locks, or 0 unbuilt. */
#define lockdep_active() (LOCKDEP && unlikely(debug_locks))
/* Says at boot whether the validator is on; at the end what it saw. */
void lockdep_info(void);
void lockdep_print_stats(void);
/* Turns the validator off (after a report); 1 if it was on. */
int debug_locks_off(void);

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      struct lock_class_key *key);
/* Puts a lock (spinlock or mutex) in the class of key, named after it. */
#define lockdep_set_class(lock, key)                                        \
	lockdep_init_map(&(lock)->dep_map, #key, (key))

void lock_acquire(struct lockdep_map *map, unsigned int subclass, int trylock,
		  unsigned long ip);
void lock_release(struct lockdep_map *map, unsigned long ip);
/* Interrupts are about to be enabled: the held locks are HARDIRQ-ON. */
void lockdep_hardirqs_on(unsigned long ip);

/*
 * The ip the primitives pass: 0 asks the validator to take the return
 * address of its own entry point, which, the primitives being inline, is
 * in the code that took the lock.  (A label's address, Linux's _THIS_IP_,
 * lets GCC move it to the start of the function.)
 */
#define LOCKDEP_CALLER_IP 0UL

/* The validator's side of each lock operation, cheap when it is off. */
#define lock_acquire_dep(map, subclass, trylock)                           \
	do {                                                                 \
		if (lockdep_active())                                        \
			lock_acquire(map, subclass, trylock, LOCKDEP_CALLER_IP); \
	} while (0)
#define lock_release_dep(map)                                               \
	do {                                                                 \
		if (lockdep_active())                                        \
			lock_release(map, LOCKDEP_CALLER_IP);                \
	} while (0)

/* ---- assertions ---- */

struct spinlock;
struct mutex;
bool lockdep_spin_is_held(const struct spinlock *lock);
bool lockdep_mutex_is_held(const struct mutex *lock);
/* Whether interrupts are off on this CPU (the arch's flags). */
bool lockdep_irqs_disabled(void);

#define lockdep_is_held(lock)                                               \
	_Generic((lock),                                                     \
		struct spinlock *: lockdep_spin_is_held,                     \
		const struct spinlock *: lockdep_spin_is_held,               \
		struct mutex *: lockdep_mutex_is_held,                       \
		const struct mutex *: lockdep_mutex_is_held)(lock)

/*
 * Part of the validator, as in Linux: checked while debug_locks is on, so
 * a debug_locks=0 boot keeps them off the allocator's fast paths.
 */
#define lockdep_assert_held(lock)                                           \
	BUG_ON(lockdep_active() && !lockdep_is_held(lock))
#define lockdep_assert_irqs_disabled()                                      \
	BUG_ON(lockdep_active() && !lockdep_irqs_disabled())

/* ---- the tests' entry points (tests/lockdep_test.c) ---- */

/*
 * Reports by the calling task are expected until turned back off: they
 * print, through the real path, but leave the validator on.
 */
void lockdep_expect_reports(bool on);
/* Reports so far, expected ones included. */
unsigned long lockdep_nr_reports(void);
/*
 * Forgets every class whose key lies in [start, start + size), with its
 * edges, chains and usage, and turns the validator back on if the boot
 * asked for it: a test runs its scenario on private classes and starts
 * afresh.  Held locks of those classes must have been released.
 */
void lockdep_reset_keys(const void *start, size_t size);
/* Whether the boot asked for the validator (debug_locks=0 did not). */
bool lockdep_enabled_at_boot(void);
/* Classes, edges and chains in use, and the table sizes. */
void lockdep_stats(unsigned int *classes, unsigned int *edges,
		   unsigned int *chains);

#endif /* KERNEL_LOCKDEP_H */
