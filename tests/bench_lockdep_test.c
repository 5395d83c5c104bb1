/*
 * tests/bench_lockdep_test.c - suite "bench_lockdep": what the lock
 * validator costs a spin_lock/spin_unlock pair, printed, never judged by
 * time (bench_page's conventions, tests/bench.h).
 *
 * In one boot, on one CPU, with interrupts on:
 *
 *   spin_lock+spin_unlock of a lock with no other held: the validator's
 *   fast path (its chain is cached after the first time);
 *   the same with a second lock held (a chain of two);
 *   the same pair without the validator: preempt_disable, the bare
 *   ticket lock and back, exactly what spin_lock() runs when
 *   debug_locks is 0 but its test of debug_locks.
 *
 * and the ratio, validated over bare.  The validator cannot be switched
 * off and on again in a running boot (other CPUs' held-lock stacks would
 * go stale), hence the bare pair as the "off" figure; a boot with
 * debug_locks=0 measures the real off path in the first two lines, and
 * the first line says which it was.
 */
#include "kernel/lockdep.h"
#include "kernel/spinlock.h"
#include "tests/bench.h"

#define OPS KTEST_SOAK(5000U, 20000U)	/* pairs per timed run */

static DEFINE_SPINLOCK(bench_outer);
static DEFINE_SPINLOCK(bench_inner);

static bool validated_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		spin_lock(&bench_inner);
		spin_unlock(&bench_inner);
	}
	return true;
}

static bool nested_pairs(unsigned int ops, unsigned int unused)
{
	spin_lock(&bench_outer);
	for (unsigned int i = 0; i < ops; i++) {
		spin_lock(&bench_inner);
		spin_unlock(&bench_inner);
	}
	spin_unlock(&bench_outer);
	return true;
}

static bool bare_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		preempt_disable();
		arch_spin_lock(&bench_inner);
		arch_spin_unlock(&bench_inner);
		preempt_enable();
	}
	return true;
}

static void spin_lock_pair_cost(struct ktest *t)
{
	struct bench_result on, nested, bare;

	bench_print_lockdep(t);
	KTEST_ASSERT_TRUE(t, bench_measure(validated_pairs, 0, OPS, &on));
	KTEST_ASSERT_TRUE(t, bench_measure(nested_pairs, 0, OPS, &nested));
	KTEST_ASSERT_TRUE(t, bench_measure(bare_pairs, 0, OPS, &bare));
	KTEST_EXPECT_FALSE(t, spin_is_locked(&bench_inner));
	bench_print(t, debug_locks ? "spin_lock+spin_unlock, validated" :
		    "spin_lock+spin_unlock, validator off", &on, "pair");
	bench_print(t, debug_locks ?
		    "spin_lock+spin_unlock under another lock, validated" :
		    "spin_lock+spin_unlock under another lock, validator off",
		    &nested, "pair");
	bench_print(t, "bare ticket lock pair with preemption off", &bare,
		    "pair");
	if (!bare.median) {
		ktest_printf(t, "bench: ratios n/a (the bare pair measured 0 cycles)");
		return;
	}
	bench_print_ratio(t, "spin_lock pair / bare pair",
			  bench_ratio(&on, &bare), "the validator's cost");
	bench_print_ratio(t, "nested spin_lock pair / bare pair",
			  bench_ratio(&nested, &bare), "the validator's cost");
}

static const struct ktest_case bench_lockdep_cases[] = {
	KTEST_CASE(spin_lock_pair_cost),
	KTEST_END,
};

static const struct ktest_suite bench_lockdep_suite = {
	.name = "bench_lockdep",
	.cases = bench_lockdep_cases,
};
KTEST_SUITE(bench_lockdep_suite);
