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
 *   lockdep_bad_unlock      spin_unlock() of a lock nobody holds
 *   smp_processor_id_preemptible  smp_processor_id() in init with
 *                           preemption and interrupts on
 */
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
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

static void misuse_lockdep_irq_inconsistent(void)
{
	unsigned long flags;

	pr_info("ktest: misuse lockdep_irq_inconsistent: misuse_a in hardirq context, then with interrupts on\n");
	local_irq_save(flags);
	irq_enter();
	spin_lock(&misuse_a);
	spin_unlock(&misuse_a);
	irq_exit();
	local_irq_restore(flags);
	spin_lock(&misuse_a);
	spin_unlock(&misuse_a);
}
KTEST_MISUSE(lockdep_irq_inconsistent, misuse_lockdep_irq_inconsistent);

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
