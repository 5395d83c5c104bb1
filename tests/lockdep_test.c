/*
 * tests/lockdep_test.c - the lock validator's graph and state logic, on
 * private locks whose classes each case throws away afterwards.
 *
 * A case takes its locks in an order that must (or must not) be
 * reported, with lockdep_expect_reports() on: a report prints through
 * the real path, captured here (tests/ktest_capture.c), and leaves the
 * validator on.  The case then checks which report came, by its
 * "WARNING:" line and the lines naming the classes, and that exactly one
 * did (lockdep_nr_reports()).  lockdep_reset_keys() forgets the private
 * classes, so each case starts from an empty graph.  The same reports
 * stopping a boot are tests/lockdep_misuse.c's.
 *
 *  - an order taken twice is no report; its reverse closes a cycle of 2;
 *  - A->B, B->C, then C->A closes a cycle of 3, printed as #2 #1 #0;
 *  - a second lock of a held class is recursion; as subclass 1 it is not;
 *  - a class taken in hardirq context, then with interrupts on (or the
 *    other way round, or held across local_irq_enable) is inconsistent;
 *  - a HARDIRQ-safe class held, through a chain, while a HARDIRQ-unsafe
 *    one is taken is reported when the edge closing the path comes, and
 *    when a usage change completes such a path;
 *  - a release of a lock not held is a bad unlock;
 *  - lockdep_is_held() is true exactly while the lock is held.
 */
#include "kernel/lockdep.h"
#include "kernel/mutex.h"
#include "kernel/preempt.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define NKEYS 4
static struct lock_class_key keys[NKEYS];
static spinlock_t la, la2, lb, lc;
static struct mutex lm;

#define MAX_SEEN 8
static struct {
	unsigned int n;			/* lines starting "WARNING:" */
	char line[MAX_SEEN][KTEST_CAPTURE_LINE];	/* every line of interest */
	unsigned int nlines;
} seen;

static bool interesting(const char *line)
{
	return !strncmp(line, "WARNING:", 8) || !strncmp(line, "-> #", 4) ||
	       !strncmp(line, "inconsistent {", 14);
}

static void capture_line(const char *line)
{
	if (!strncmp(line, "WARNING:", 8))
		seen.n++;
	if (interesting(line) && seen.nlines < MAX_SEEN)
		strscpy(seen.line[seen.nlines++], line, KTEST_CAPTURE_LINE);
}

static bool saw(const char *prefix)
{
	for (unsigned int i = 0; i < seen.nlines; i++)
		if (!strncmp(seen.line[i], prefix, strlen(prefix)))
			return true;
	return false;
}

static unsigned long reports_before;

static void begin(struct ktest *t)
{
	if (!debug_locks)
		ktest_skip(t, lockdep_enabled_at_boot() ?
			   "the validator turned itself off after a report" :
			   "the validator is off (debug_locks=0)");
	__spin_lock_init(&la, "test_a", &keys[0]);
	__spin_lock_init(&la2, "test_a", &keys[0]);	/* la's class */
	__spin_lock_init(&lb, "test_b", &keys[1]);
	__spin_lock_init(&lc, "test_c", &keys[2]);
	__mutex_init(&lm, "test_m", &keys[3]);
	memset(&seen, 0, sizeof(seen));
	reports_before = lockdep_nr_reports();
	ktest_capture_start(capture_line);
	lockdep_expect_reports(true);
}

/* The number of reports the scenario made; the classes are forgotten. */
static unsigned long end(void)
{
	lockdep_expect_reports(false);
	ktest_capture_stop();
	lockdep_reset_keys(keys, sizeof(keys));
	return lockdep_nr_reports() - reports_before;
}

static void take_in_order(spinlock_t *first, spinlock_t *second)
{
	spin_lock(first);
	spin_lock(second);
	spin_unlock(second);
	spin_unlock(first);
}

static void same_order_twice_is_quiet(struct ktest *t)
{
	begin(t);
	take_in_order(&la, &lb);
	take_in_order(&la, &lb);
	take_in_order(&lb, &lc);
	take_in_order(&la, &lc);	/* A->C, implied already: no cycle */
	KTEST_EXPECT_EQ(t, end(), 0UL);
	KTEST_EXPECT_EQ(t, seen.n, 0U);
}

static void cycle_of_two_is_reported(struct ktest *t)
{
	begin(t);
	take_in_order(&la, &lb);
	take_in_order(&lb, &la);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_EQ(t, seen.n, 1U);
	KTEST_EXPECT_TRUE(t, saw("WARNING: possible circular locking dependency detected"));
	/* Held B, taking A, with A -> B recorded: #1 is B, #0 the new A. */
	KTEST_EXPECT_TRUE(t, saw("-> #1 (test_b)"));
	KTEST_EXPECT_TRUE(t, saw("-> #0 (test_a)"));
	KTEST_EXPECT_FALSE(t, saw("-> #2"));
}

static void cycle_of_three_is_reported(struct ktest *t)
{
	begin(t);
	take_in_order(&la, &lb);
	take_in_order(&lb, &lc);
	take_in_order(&lc, &la);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("WARNING: possible circular locking dependency detected"));
	/* A -> B -> C exists; held C, taking A: #2 C, #1 B, #0 A. */
	KTEST_EXPECT_TRUE(t, saw("-> #2 (test_c)"));
	KTEST_EXPECT_TRUE(t, saw("-> #1 (test_b)"));
	KTEST_EXPECT_TRUE(t, saw("-> #0 (test_a)"));
}

static void recursion_is_reported(struct ktest *t)
{
	begin(t);
	spin_lock(&la);
	spin_lock(&la2);	/* another lock, but of a class held */
	spin_unlock(&la2);
	spin_unlock(&la);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_EQ(t, seen.n, 1U);
	KTEST_EXPECT_TRUE(t, saw("WARNING: possible recursive locking detected"));
}

static void nested_annotation_is_allowed(struct ktest *t)
{
	begin(t);
	spin_lock(&la);
	spin_lock_nested(&la2, SINGLE_DEPTH_NESTING);
	spin_unlock(&la2);
	spin_unlock(&la);
	/* And the annotated order is an order: it still finds cycles. */
	spin_lock_nested(&la2, SINGLE_DEPTH_NESTING);
	spin_lock(&lb);
	spin_unlock(&lb);
	spin_unlock(&la2);
	KTEST_EXPECT_EQ(t, end(), 0UL);
	KTEST_EXPECT_EQ(t, seen.n, 0U);
}

/* Takes l as an interrupt handler would: hardirq count up, irqs off. */
static void take_in_hardirq(spinlock_t *l)
{
	unsigned long flags;

	local_irq_save(flags);
	irq_enter();
	spin_lock(l);
	spin_unlock(l);
	irq_exit();
	local_irq_restore(flags);
}

static void hardirq_then_irqs_on_is_inconsistent(struct ktest *t)
{
	begin(t);
	take_in_hardirq(&la);
	take_in_hardirq(&la);	/* the same usage again: nothing new */
	spin_lock(&la);		/* interrupts on */
	spin_unlock(&la);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("WARNING: inconsistent lock state"));
	KTEST_EXPECT_TRUE(t, saw("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage."));
}

static void irqs_on_then_hardirq_is_inconsistent(struct ktest *t)
{
	begin(t);
	spin_lock(&lb);
	spin_unlock(&lb);
	take_in_hardirq(&lb);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage."));
}

static void irqsave_is_consistent_until_irqs_come_on(struct ktest *t)
{
	unsigned long flags;
	unsigned long quiet;

	begin(t);
	take_in_hardirq(&lc);
	spin_lock_irqsave(&lc, flags);	/* irq-safe use: fine */
	spin_unlock_irqrestore(&lc, flags);
	quiet = lockdep_nr_reports() - reports_before;
	spin_lock_irqsave(&lc, flags);
	local_irq_enable();		/* now an interrupt could take lc */
	local_irq_disable();
	spin_unlock_irqrestore(&lc, flags);
	KTEST_EXPECT_EQ(t, quiet, 0UL);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage."));
}

static void take_irqsave_in_order(spinlock_t *first, spinlock_t *second)
{
	unsigned long flags;

	spin_lock_irqsave(first, flags);
	spin_lock(second);
	spin_unlock(second);
	spin_unlock_irqrestore(first, flags);
}

static void safe_to_unsafe_through_a_chain_is_reported(struct ktest *t)
{
	unsigned long quiet;

	begin(t);
	take_in_hardirq(&la);		/* A: HARDIRQ-safe */
	take_irqsave_in_order(&la, &lb);	/* A -> B, B neutral */
	spin_lock(&lc);			/* C: HARDIRQ-unsafe */
	spin_unlock(&lc);
	quiet = lockdep_nr_reports() - reports_before;
	take_irqsave_in_order(&lb, &lc);	/* B -> C: A ->* C */
	KTEST_EXPECT_EQ(t, quiet, 0UL);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected"));
}

static void usage_change_inverting_an_order_is_reported(struct ktest *t)
{
	unsigned long quiet;

	begin(t);
	take_irqsave_in_order(&la, &lb);	/* A -> B, neither used yet */
	take_in_hardirq(&la);		/* A: HARDIRQ-safe, B still neutral */
	quiet = lockdep_nr_reports() - reports_before;
	spin_lock(&lb);			/* B: HARDIRQ-unsafe, under safe A */
	spin_unlock(&lb);
	KTEST_EXPECT_EQ(t, quiet, 0UL);
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("WARNING: possible irq lock inversion dependency detected"));
}

static void bad_unlock_is_reported(struct ktest *t)
{
	begin(t);
	lock_release(&lb.dep_map, LOCKDEP_CALLER_IP);	/* lb is not held */
	KTEST_EXPECT_EQ(t, end(), 1UL);
	KTEST_EXPECT_TRUE(t, saw("WARNING: bad unlock balance detected!"));
}

static void is_held_follows_the_owner(struct ktest *t)
{
	begin(t);
	KTEST_EXPECT_FALSE(t, lockdep_is_held(&la));
	spin_lock(&la);
	KTEST_EXPECT_TRUE(t, lockdep_is_held(&la));
	KTEST_EXPECT_FALSE(t, lockdep_is_held(&la2));
	spin_unlock(&la);
	KTEST_EXPECT_FALSE(t, lockdep_is_held(&la));
	KTEST_EXPECT_FALSE(t, lockdep_is_held(&lm));
	mutex_lock(&lm);
	KTEST_EXPECT_TRUE(t, lockdep_is_held(&lm));
	lockdep_assert_held(&lm);
	mutex_unlock(&lm);
	KTEST_EXPECT_FALSE(t, lockdep_is_held(&lm));
	KTEST_EXPECT_FALSE(t, lockdep_irqs_disabled());
	local_irq_disable();
	KTEST_EXPECT_TRUE(t, lockdep_irqs_disabled());
	lockdep_assert_irqs_disabled();
	local_irq_enable();
	KTEST_EXPECT_EQ(t, end(), 0UL);
}

static const struct ktest_case lockdep_cases[] = {
	KTEST_CASE(same_order_twice_is_quiet),
	KTEST_CASE(cycle_of_two_is_reported),
	KTEST_CASE(cycle_of_three_is_reported),
	KTEST_CASE(recursion_is_reported),
	KTEST_CASE(nested_annotation_is_allowed),
	KTEST_CASE(hardirq_then_irqs_on_is_inconsistent),
	KTEST_CASE(irqs_on_then_hardirq_is_inconsistent),
	KTEST_CASE(irqsave_is_consistent_until_irqs_come_on),
	KTEST_CASE(safe_to_unsafe_through_a_chain_is_reported),
	KTEST_CASE(usage_change_inverting_an_order_is_reported),
	KTEST_CASE(bad_unlock_is_reported),
	KTEST_CASE(is_held_follows_the_owner),
	KTEST_END,
};

static const struct ktest_suite lockdep_suite = {
	.name = "lockdep",
	.cases = lockdep_cases,
};
KTEST_SUITE(lockdep_suite);
