/*
 * tests/lockdep_misuse.c - each report of the lock validator and of the
 * preemption check, from a misuse, in a boot of its own (ktest.misuse=NAME
 * in tests/boots.txt), judged on its exact line.
 *
 * These reports warn and carry on, as Linux's do: the scenario returns,
 * and ktest ends the boot with the failure status (exit 35) saying the
 * misuse was "not caught", so each boot is judged on the report's line,
 * which only the validator prints.
 *
 *   lockdep_circular        A then B, later B then A
 *   lockdep_recursive       two locks of one class (one init site) nested
 *                           without spin_lock_nested()
 *   lockdep_irq_inconsistent a lock taken in hardirq context, then with
 *                           interrupts on
 *   lockdep_irq_order       a lock taken in hardirq context held while one
 *                           taken with interrupts on is taken
 *   lockdep_irq_inversion   the same order first, the usages after
 *   lockdep_bad_unlock      spin_unlock() of a lock nobody holds
 *   lockdep_shrinker_abba   a shrinker that takes a mutex reclaim reaches
 *                           with the shrinker list read-locked, and
 *                           register_shrinker() called with that mutex
 *                           held (2.6.18's shrinker_rwsem report)
 *   smp_processor_id_preemptible  smp_processor_id() in init with
 *                           preemption and interrupts on
 *   lockdep_nonstatic_key   a lock on the stack never initialised: its
 *                           address is no key (then the validator is off)
 *   lockdep_invalid_subclass spin_lock_nested() with subclass 8
 *   lockdep_depth           more locks held at once than MAX_LOCK_DEPTH
 *   lockdep_keys            more classes than MAX_LOCKDEP_KEYS
 * The last four print a "BUG:"/"INFO:" line and turn the validator off.
 */
#include "kernel/lockdep.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "mm/mmzone.h"
#include "mm/topology.h"
#include "mm/vmscan.h"
#include "tests/ktest.h"

static DEFINE_SPINLOCK(misuse_a);
static DEFINE_SPINLOCK(misuse_b);

static void misuse_lockdep_circular(void)
{
	pr_info("ktest: misuse lockdep_circular: misuse_a then misuse_b, then the reverse\n");
	spin_lock(&misuse_a);
	spin_lock(&misuse_b);
	spin_unlock(&misuse_b);
	spin_unlock(&misuse_a);
	spin_lock(&misuse_b);
	spin_lock(&misuse_a);
	spin_unlock(&misuse_a);
	spin_unlock(&misuse_b);
}
KTEST_MISUSE(lockdep_circular, misuse_lockdep_circular);

static DEFINE_MUTEX(misuse_shrinker_mutex);

static int misuse_shrink(int nr_to_scan, gfp_t gfp_mask)
{
	mutex_lock(&misuse_shrinker_mutex);
	mutex_unlock(&misuse_shrinker_mutex);
	return 0;
}

static struct shrinker misuse_shrinker = { .shrink = misuse_shrink };
static struct shrinker misuse_shrinker2 = { .shrink = misuse_shrink };

static void misuse_lockdep_shrinker_abba(void)
{
	pr_info("ktest: misuse lockdep_shrinker_abba: reclaim runs a shrinker that takes misuse_shrinker_mutex, then register_shrinker() with it held\n");
	register_shrinker(&misuse_shrinker);
	try_to_free_pages(node_zonelist(numa_node_id(), GFP_KERNEL),
			  GFP_KERNEL, 0);
	mutex_lock(&misuse_shrinker_mutex);
	register_shrinker(&misuse_shrinker2);
	mutex_unlock(&misuse_shrinker_mutex);
	unregister_shrinker(&misuse_shrinker2);
	unregister_shrinker(&misuse_shrinker);
}
KTEST_MISUSE(lockdep_shrinker_abba, misuse_lockdep_shrinker_abba);

static spinlock_t misuse_pair[2];

static void misuse_lockdep_recursive(void)
{
	for (int i = 0; i < 2; i++)
		spin_lock_init(&misuse_pair[i]);	/* one site: one class */
	pr_info("ktest: misuse lockdep_recursive: two locks of one class nested\n");
	spin_lock(&misuse_pair[0]);
	spin_lock(&misuse_pair[1]);
	spin_unlock(&misuse_pair[1]);
	spin_unlock(&misuse_pair[0]);
}
KTEST_MISUSE(lockdep_recursive, misuse_lockdep_recursive);

/* misuse_a as an interrupt handler would take it. */
static void take_a_in_hardirq(void)
{
	unsigned long flags;

	local_irq_save(flags);
	irq_enter();
	spin_lock(&misuse_a);
	spin_unlock(&misuse_a);
	irq_exit();
	local_irq_restore(flags);
}

static void misuse_lockdep_irq_inconsistent(void)
{
	pr_info("ktest: misuse lockdep_irq_inconsistent: misuse_a in hardirq context, then with interrupts on\n");
	take_a_in_hardirq();
	spin_lock(&misuse_a);
	spin_unlock(&misuse_a);
}
KTEST_MISUSE(lockdep_irq_inconsistent, misuse_lockdep_irq_inconsistent);

static DEFINE_SPINLOCK(misuse_c);

static void a_then_c_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&misuse_a, flags);
	spin_lock(&misuse_c);
	spin_unlock(&misuse_c);
	spin_unlock_irqrestore(&misuse_a, flags);
}

static void misuse_lockdep_irq_order(void)
{
	pr_info("ktest: misuse lockdep_irq_order: misuse_c (irqs on) under misuse_a (hardirq)\n");
	take_a_in_hardirq();
	spin_lock(&misuse_c);
	spin_unlock(&misuse_c);
	a_then_c_irqsave();
}
KTEST_MISUSE(lockdep_irq_order, misuse_lockdep_irq_order);

static void misuse_lockdep_irq_inversion(void)
{
	pr_info("ktest: misuse lockdep_irq_inversion: misuse_a -> misuse_c first, then their usages\n");
	a_then_c_irqsave();
	take_a_in_hardirq();
	spin_lock(&misuse_c);
	spin_unlock(&misuse_c);
}
KTEST_MISUSE(lockdep_irq_inversion, misuse_lockdep_irq_inversion);

static void misuse_lockdep_bad_unlock(void)
{
	pr_info("ktest: misuse lockdep_bad_unlock: unlocking misuse_b, which nobody holds\n");
	preempt_disable();	/* spin_unlock() enables it again */
	spin_unlock(&misuse_b);
}
KTEST_MISUSE(lockdep_bad_unlock, misuse_lockdep_bad_unlock);

static void misuse_smp_processor_id_preemptible(void)
{
	pr_info("ktest: misuse smp_processor_id_preemptible: on CPU %d\n",
		smp_processor_id());
}
KTEST_MISUSE(smp_processor_id_preemptible, misuse_smp_processor_id_preemptible);

static void misuse_lockdep_nonstatic_key(void)
{
	spinlock_t on_stack;

	/* Zeroed, not spin_lock_init(): no key, and not a static object. */
	memset(&on_stack, 0, sizeof(on_stack));
	pr_info("ktest: misuse lockdep_nonstatic_key: a lock on the stack without spin_lock_init()\n");
	spin_lock(&on_stack);
	spin_unlock(&on_stack);
}
KTEST_MISUSE(lockdep_nonstatic_key, misuse_lockdep_nonstatic_key);

static void misuse_lockdep_invalid_subclass(void)
{
	pr_info("ktest: misuse lockdep_invalid_subclass: spin_lock_nested(misuse_a, 8)\n");
	spin_lock_nested(&misuse_a, 8);
	spin_unlock(&misuse_a);
}
KTEST_MISUSE(lockdep_invalid_subclass, misuse_lockdep_invalid_subclass);

/* Zeroed static locks: each keyed by its own address, its own class. */
#define MANY_LOCKS (MAX_LOCKDEP_KEYS + 1)
static spinlock_t many[MANY_LOCKS];

static void misuse_lockdep_depth(void)
{
	unsigned long flags;

	pr_info("ktest: misuse lockdep_depth: %d locks held at once\n",
		MAX_LOCK_DEPTH + 1);
	local_irq_save(flags);
	for (int i = 0; i <= MAX_LOCK_DEPTH; i++)
		spin_lock(&many[i]);
	for (int i = MAX_LOCK_DEPTH; i >= 0; i--)
		spin_unlock(&many[i]);
	local_irq_restore(flags);
}
KTEST_MISUSE(lockdep_depth, misuse_lockdep_depth);

static void misuse_lockdep_keys(void)
{
	pr_info("ktest: misuse lockdep_keys: %d classes of lock, one each\n",
		MANY_LOCKS);
	for (int i = 0; i < MANY_LOCKS; i++) {
		spin_lock(&many[i]);
		spin_unlock(&many[i]);
	}
}
KTEST_MISUSE(lockdep_keys, misuse_lockdep_keys);
