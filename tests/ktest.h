/*
 * tests/ktest.h - the in-kernel test framework.
 *
 * A suite is a struct ktest_suite in its own file tests/<subject>_test.c,
 * registered with KTEST_SUITE() into the ktest_suites linker section; the
 * runner walks that section in link order.  Each case gets a fresh struct
 * ktest.  EXPECT macros record a failure and let the case go on; ASSERT
 * macros record it and abandon the case at once (a longjmp back into the
 * runner, after which the suite's exit() still runs).  Every failure
 * prints the expression, both values and file:line as KTAP "# " lines:
 * the first KTEST_FAILURES_SHOWN of a case, then one line that counts
 * the rest.
 *
 * Around every case (init and exit included) the runner snapshots each
 * registered resource counter (KTEST_RESOURCE: free pages, live slab
 * objects, ...) and fails the case if one differs afterwards: a leak
 * fails the test that caused it.  The line says
 *
 *     # CASE: LEAK of LABEL: B before the case, A after
 *
 * After every case and its exit, before the counters are read, the
 * runner checks each registered invariant of the whole kernel
 * (KTEST_INVARIANT: the buddy lists of every zone, every slab cache); a
 * violation fails the case with one line that names the invariant and
 * its first violation, and a second that counts the rest when there are
 * more:
 *
 *     # CASE: CORRUPTION of LABEL: FIRST VIOLATION
 *     # CASE: ... N more violations of LABEL not shown
 *
 * ("BROKEN RULE" instead of "CORRUPTION" for a rule whose violation
 * corrupts nothing: KTEST_RULE, the buddy allocator's merge rule)
 * for instance "# free_one_by_one_merges_back: CORRUPTION of the buddy
 * free lists: Normal: pfn 0x1c400 is the head of an order-11 block
 * (MAX_ORDER is 11)".  CASE is the case's name (a C identifier), LABEL
 * the invariant's.  Corrupted state stays: an invariant found broken is
 * reported by the case after which it was found, and not checked again
 * in that boot, so later cases are not blamed for it.
 *
 * Cases run in the init kernel thread, with interrupts on.  A case may
 * start threads of its own; they may EXPECT (failures are recorded and
 * printed from any CPU) but never ASSERT or skip, which jump back into the
 * case's own stack.  The case must stop or wait for its threads before it
 * returns: the thread count is a leak-checked resource.
 *
 * Output is KTAP version 1 with one nested subtest block per suite.
 *
 * A case that asks which CPU it runs on uses raw_smp_processor_id(): a
 * task never changes CPU, so the answer is the task's own even where it
 * could be preempted, and the checked smp_processor_id() would report
 * there (kernel/smp.h).  Code that updates per-CPU data still needs
 * preemption or interrupts off around the update.
 */
#ifndef TESTS_KTEST_H
#define TESTS_KTEST_H

#include "kernel/timer.h"
#include "lib/compiler.h"
#include "lib/types.h"

struct task_struct;

struct ktest;

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
	unsigned int time_limit_s;	/* 0: KTEST_TIME_LIMIT_S */
};

/*
 * Every case runs under a watchdog: one that outlives its time limit is
 * named, the tasks are shown, and the boot ends with a panic (its thread
 * cannot be unwound from outside).  The limit is wall time on a loaded
 * host, many times what the case needs; ktest.time_limit=S changes the
 * default (0 turns the watchdog off, e.g. to step through a case in gdb).
 */
#define KTEST_TIME_LIMIT_S 30

struct ktest_suite {
	const char *name;
	/*
	 * Optional: returns NULL when the suite can run in this boot, or a
	 * reason to skip the whole suite ("needs -numa", ...).
	 */
	const char *(*skip_if)(void);
	/* Optional per-case setup; non-zero fails the case without running it. */
	int (*init)(struct ktest *t);
	/* Optional per-case teardown; runs after init succeeded, even on abort. */
	void (*exit)(struct ktest *t);
	const struct ktest_case *cases; /* ends with an entry whose name is NULL */
};

#define KTEST_CASE(fn) { .name = #fn, .run = fn }
/* A case that needs longer than KTEST_TIME_LIMIT_S on a slow host. */
#define KTEST_CASE_SLOW(fn, seconds)                                       \
	{ .name = #fn, .run = fn, .time_limit_s = (seconds) }
#define KTEST_END { .name = NULL, .run = NULL }

#define KTEST_SUITE(suite)                                                 \
	static const struct ktest_suite *const __ktest_suite_##suite        \
		__section("ktest_suites") __used = &(suite)

/* A counter that must read the same before and after every case. */
struct ktest_resource {
	const char *name;
	long (*count)(void);
};

/*
 * Puts the kernel where the counters can be read (tests/resources.c):
 * once before each reading of them all.
 */
void ktest_resources_settle(void);

#define KTEST_RESOURCE(var, label, fn)                                     \
	static const struct ktest_resource __ktest_res_##var = { label, fn }; \
	static const struct ktest_resource *const __ktest_resp_##var        \
		__section("ktest_resources") __used = &__ktest_res_##var

/*
 * A kernel-wide invariant that must hold after every case (the buddy
 * lists of every zone, every slab cache: tests/resources.c).  check
 * writes its first violation, one line without a newline, into why
 * (len bytes) and returns how many it found; 0 when it holds.  One whose
 * violation means corrupted memory (KTEST_INVARIANT) is reported as a
 * CORRUPTION; a rule whose violation corrupts nothing (KTEST_RULE: free
 * buddies left unmerged waste memory, they do not damage it) as a BROKEN
 * RULE.  Both fail the case.
 */
struct ktest_invariant {
	const char *name;
	int (*check)(char *why, size_t len);
	bool corruption;
};

#define __KTEST_INVARIANT(var, label, fn, corrupts)                        \
	static const struct ktest_invariant __ktest_inv_##var =            \
		{ label, fn, corrupts };                                   \
	static const struct ktest_invariant *const __ktest_invp_##var      \
		__section("ktest_invariants") __used = &__ktest_inv_##var
#define KTEST_INVARIANT(var, label, fn) __KTEST_INVARIANT(var, label, fn, true)
#define KTEST_RULE(var, label, fn) __KTEST_INVARIANT(var, label, fn, false)

/*
 * A misuse scenario: code that must stop the kernel (a BUG:, a panic, a
 * triple fault).  It runs instead of the suites when the command line says
 * ktest.misuse=NAME; the host runner judges the boot on its exact line.
 */
struct ktest_misuse {
	const char *name;
	void (*run)(void);
};

#define KTEST_MISUSE(var, fn)                                              \
	static const struct ktest_misuse __ktest_mis_##var = { #var, fn };    \
	static const struct ktest_misuse *const __ktest_misp_##var          \
		__section("ktest_misuse") __used = &__ktest_mis_##var

/* Per-case state.  Tests may use priv; the rest belongs to the runner. */
struct ktest {
	const char *name;
	const struct ktest_suite *suite;
	void *priv;
	bool failed;
	bool skipped;
	const char *skip_reason;
	bool seed_printed;
	unsigned int nr_failures; /* EXPECT/ASSERT failures, shown or not */
	u64 rng_state;
	void *abort_env; /* the runner's jump buffer */
	struct task_struct *task; /* the case's thread: only it may ASSERT */
};

/* Runs every registered suite (honouring ktest.filter) and prints KTAP.
 * Returns the number of failed cases. */
int ktest_run_all(void);

/*
 * Runs one suite that is not registered, as its own KTAP document (for
 * misuse scenarios that exercise the runner itself).  Returns the number
 * of failed cases.
 */
int ktest_run_suite(const struct ktest_suite *s);

/*
 * Capturing printed lines (tests/ktest_capture.c): between start and stop,
 * fn gets each complete line, its timestamp taken off and cut to
 * KTEST_CAPTURE_LINE - 1 characters, on whatever CPU printed it and under
 * the log's lock.  One capture at a time.  The lines are held back from
 * the serial line unless ktest.echo=1.  For the runner: ktest_capture_reset()
 * as each case starts; ktest_capture_end_case() as it ends, which prints
 * how many lines were held back and the first report among them, or, for
 * a failed case, the lines themselves; ktest_capture_replay() prints them
 * from the panic context.
 */
#define KTEST_CAPTURE_LINE 160
/*
 * A passing boot may print "BUG:" or "WARNING:" only between these two
 * lines (tools/runner.py): reports a case provokes on purpose.  Capture
 * start and stop print them; ktest_expected_reports(true/false) too.
 */
#define KTEST_EXPECTED_BEGIN "ktest: expected reports begin"
#define KTEST_EXPECTED_END "ktest: expected reports end"
void ktest_expected_reports(bool begin);
void ktest_capture_start(void (*fn)(const char *line));
void ktest_capture_stop(void);
void ktest_capture_reset(void);
void ktest_capture_end_case(const char *case_name, bool failed);
void ktest_capture_replay(const char *case_name);

/* Runs the misuse scenario named on the command line, if any.  Does not
 * return when one was requested and it did stop the kernel. */
void ktest_run_misuse(void);

/*
 * For cases with helper threads.  ktest_wait_until() waits until cond is
 * true, timeout jiffies at most, and says whether it came true: for the
 * first KTEST_SPIN_JIFFIES it yields the CPU between looks (most
 * conditions come true well within a tick, and sleeping a tick at a time
 * made every wait at least a jiffy), then sleeps a tick at a time.
 * ktest_park_until_stopped() is a helper's last act: asleep
 * until kthread_stop() (a thread that returns by itself is still counted
 * by the leak check until its CPU has left it; one kthread_stop() ended
 * is waited for).
 */
#define KTEST_SPIN_JIFFIES 2
#define ktest_wait_until(cond, timeout)                                     \
	({                                                                   \
		unsigned long __start = jiffies;                             \
		unsigned long __end = __start + (timeout);                   \
		bool __ok;                                                   \
		while (!(__ok = (cond)) && time_before(jiffies, __end)) {    \
			if (time_before(jiffies,                             \
					__start + KTEST_SPIN_JIFFIES))       \
				yield();                                     \
			else                                                 \
				schedule_timeout_uninterruptible(1);         \
		}                                                            \
		__ok;                                                        \
	})
void ktest_park_until_stopped(void);

/* Writes a "# " diagnostic line at the case's indentation. */
void ktest_printf(struct ktest *t, const char *fmt, ...) __printf(2, 3);
/* A suite's recorded breach (a string), reported once by its invariant. */
int ktest_take_breach(char *breach, char *why, size_t len);
/* Whether addr lies in the function fn named name (kallsyms); says why not. */
bool ktest_in_function(struct ktest *t, unsigned long addr, const void *fn,
		       const char *name);

/* Marks the case skipped with a reason and leaves it. */
void ktest_skip(struct ktest *t, const char *reason) __noreturn;

/* Leaves the case after a failed ASSERT. */
void ktest_abort(struct ktest *t) __noreturn;

/*
 * Deterministic per-case randomness: derived from the boot's seed
 * (ktest.seed=N replays it) and the case name; the first call prints the
 * seed so that a failing run can be replayed.
 */
u32 ktest_random(struct ktest *t);
/* A value in [0, bound), bound > 0. */
u32 ktest_random_below(struct ktest *t, u32 bound);
/* The boot's seed. */
u64 ktest_seed(void);

/*
 * ktest.soak=1 selects the long variants.  A case that loops, races or
 * measures for a while runs a short variant by default (make run) and a
 * long one under soak (the boot matrix passes ktest.soak=1 to some boots,
 * tests/boots.txt); both check the same things, the long one over more
 * rounds or a longer window.  KTEST_SOAK(short, long) picks one.
 */
bool ktest_soak(void);
#define KTEST_SOAK(short_val, long_val) (ktest_soak() ? (long_val) : (short_val))

/*
 * A case prints its first KTEST_FAILURES_SHOWN failures in full; the rest
 * are counted, and when the case ends (or a case that runs a sub-case of
 * its own calls it) ktest_report_hidden_failures() prints one diagnostic
 * "# CASE: ... N more failures not shown" if there were any.
 */
#define KTEST_FAILURES_SHOWN 10u
void ktest_report_hidden_failures(struct ktest *t);

/* Failure reporters used by the macros below. */
void ktest_fail_cmp(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *op, const char *rhs_expr,
		    long long lhs, long long rhs);
void ktest_fail_ptr(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *op, const char *rhs_expr,
		    const void *lhs, const void *rhs);
void ktest_fail_str(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *op, const char *rhs_expr,
		    const char *lhs, const char *rhs);
void ktest_fail_mem(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *rhs_expr,
		    const void *lhs, const void *rhs, size_t len);
void ktest_fail_msg(struct ktest *t, const char *file, int line,
		    const char *fmt, ...) __printf(4, 5);

/*
 * The macros below take the expressions' text from the KTEST_* macro
 * itself (#a, #b there): a macro argument is stringified before it is
 * expanded only in the macro that names it with #, so that
 * KTEST_EXPECT_EQ(t, mask & NOWAIT_BITS, 0) says "mask & NOWAIT_BITS",
 * as written, and not NOWAIT_BITS's expansion.
 */
#define __KTEST_CMP(t, a, op, b, a_str, b_str, on_fail)                     \
	do {                                                                 \
		__typeof__(a) __a = (a);                                     \
		__typeof__(b) __b = (b);                                     \
		if (!(__a op __b)) {                                         \
			ktest_fail_cmp(t, __FILE__, __LINE__, a_str, #op,    \
				       b_str, (long long)__a,                \
				       (long long)__b);                      \
			on_fail;                                             \
		}                                                            \
	} while (0)

#define __KTEST_PTR(t, a, op, b, a_str, b_str, on_fail)                     \
	do {                                                                 \
		const void *__a = (a);                                       \
		const void *__b = (b);                                       \
		if (!(__a op __b)) {                                         \
			ktest_fail_ptr(t, __FILE__, __LINE__, a_str, #op,    \
				       b_str, __a, __b);                     \
			on_fail;                                             \
		}                                                            \
	} while (0)

#define __KTEST_STR(t, a, op, b, a_str, b_str, on_fail)                     \
	do {                                                                 \
		const char *__a = (a);                                       \
		const char *__b = (b);                                       \
		if (!(ktest_strcmp(__a, __b) op 0)) {                        \
			ktest_fail_str(t, __FILE__, __LINE__, a_str, #op,    \
				       b_str, __a, __b);                     \
			on_fail;                                             \
		}                                                            \
	} while (0)

#define __KTEST_MEM(t, a, b, len, a_str, b_str, on_fail)                    \
	do {                                                                 \
		const void *__a = (a);                                       \
		const void *__b = (b);                                       \
		size_t __n = (len);                                          \
		if (ktest_memcmp(__a, __b, __n) != 0) {                      \
			ktest_fail_mem(t, __FILE__, __LINE__, a_str, b_str,  \
				       __a, __b, __n);                       \
			on_fail;                                             \
		}                                                            \
	} while (0)

/* "Expected c to be true" (or false, when c must not hold). */
#define __KTEST_TRUE(t, c, want, c_str, on_fail)                            \
	do {                                                                 \
		if (!(c) != !(want)) {                                       \
			ktest_fail_msg(t, __FILE__, __LINE__,                \
				       "Expected %s to be %s", c_str,        \
				       (want) ? "true" : "false");           \
			on_fail;                                             \
		}                                                            \
	} while (0)

#define __KTEST_CONT (void)0
#define __KTEST_STOP ktest_abort(t)

/* Compare two strings or memory without pulling lib/string.h in here. */
int ktest_strcmp(const char *a, const char *b);
int ktest_memcmp(const void *a, const void *b, size_t n);

#define KTEST_EXPECT_EQ(t, a, b) __KTEST_CMP(t, a, ==, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_NE(t, a, b) __KTEST_CMP(t, a, !=, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_LT(t, a, b) __KTEST_CMP(t, a, <, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_LE(t, a, b) __KTEST_CMP(t, a, <=, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_GT(t, a, b) __KTEST_CMP(t, a, >, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_GE(t, a, b) __KTEST_CMP(t, a, >=, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_TRUE(t, c) __KTEST_TRUE(t, c, true, #c, __KTEST_CONT)
#define KTEST_EXPECT_FALSE(t, c) __KTEST_TRUE(t, c, false, #c, __KTEST_CONT)
#define KTEST_EXPECT_PTR_EQ(t, a, b) __KTEST_PTR(t, a, ==, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_PTR_NE(t, a, b) __KTEST_PTR(t, a, !=, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_NULL(t, a) __KTEST_PTR(t, a, ==, NULL, #a, "NULL", __KTEST_CONT)
#define KTEST_EXPECT_NOT_NULL(t, a) __KTEST_PTR(t, a, !=, NULL, #a, "NULL", __KTEST_CONT)
#define KTEST_EXPECT_STREQ(t, a, b) __KTEST_STR(t, a, ==, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_STRNE(t, a, b) __KTEST_STR(t, a, !=, b, #a, #b, __KTEST_CONT)
#define KTEST_EXPECT_MEMEQ(t, a, b, n) __KTEST_MEM(t, a, b, n, #a, #b, __KTEST_CONT)

#define KTEST_ASSERT_EQ(t, a, b) __KTEST_CMP(t, a, ==, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_NE(t, a, b) __KTEST_CMP(t, a, !=, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_LT(t, a, b) __KTEST_CMP(t, a, <, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_LE(t, a, b) __KTEST_CMP(t, a, <=, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_GT(t, a, b) __KTEST_CMP(t, a, >, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_GE(t, a, b) __KTEST_CMP(t, a, >=, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_TRUE(t, c) __KTEST_TRUE(t, c, true, #c, __KTEST_STOP)
#define KTEST_ASSERT_FALSE(t, c) __KTEST_TRUE(t, c, false, #c, __KTEST_STOP)
#define KTEST_ASSERT_PTR_EQ(t, a, b) __KTEST_PTR(t, a, ==, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_NULL(t, a) __KTEST_PTR(t, a, ==, NULL, #a, "NULL", __KTEST_STOP)
#define KTEST_ASSERT_NOT_NULL(t, a) __KTEST_PTR(t, a, !=, NULL, #a, "NULL", __KTEST_STOP)
#define KTEST_ASSERT_STREQ(t, a, b) __KTEST_STR(t, a, ==, b, #a, #b, __KTEST_STOP)
#define KTEST_ASSERT_MEMEQ(t, a, b, n) __KTEST_MEM(t, a, b, n, #a, #b, __KTEST_STOP)

#define KTEST_FAIL(t, fmt, ...) \
	ktest_fail_msg(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#endif /* TESTS_KTEST_H */
