/*
 * tests/ktest.c - runs the suites and prints KTAP version 1.
 *
 * Suites come from the ktest_suites section (KTEST_SUITE), in link order.
 * ktest.filter=GLOB[,GLOB...] selects cases by "suite.case" (a glob
 * without a dot selects whole suites; a case runs if any glob selects
 * it; several ktest.filter= parameters add up); suites with no selected
 * case are not printed at all, so the plan always matches what runs.  A
 * glob that selects no case is named ("# ktest: ktest.filter=GLOB
 * selects no case") and fails the run: it tested less than it was asked.
 *
 * Each case runs as: snapshot every KTEST_RESOURCE counter; init; the
 * case; exit (only if init completed, even when the case aborted); check
 * every KTEST_INVARIANT (before the counters' settling drains the slab
 * arrays, so that the arrays are checked as the case left them); compare
 * the counters.  A failed ASSERT longjmps back here, so the case's own
 * stack frames are abandoned, never returned through.
 *
 * Time limits: while a case runs, a kernel timer is armed for its limit
 * on another CPU when there is one (a case may keep its own CPU busy).
 * If it fires, the case is named and the boot ends: nothing can unwind a
 * thread stuck in the middle of the allocator.  It counts jiffies, which
 * the boot CPU's tick advances: a case that hangs CPU 0 with interrupts
 * off stops that clock too, and is left to the host runner's timeout.
 * The slowest case is reported at the end, to keep the limits honest.
 *
 * Whatever stops the kernel while a case runs (the time limit's panic, a
 * BUG, an oops, any panic), the panic context prints, after the panic's
 * own line, "ktest: the kernel stopped in case SUITE.CASE": the one line
 * that tools/grade.py and the runners read to name the case, whose
 * "not ok" line never comes.
 *
 * Randomness: the boot has one seed (from the TSC, or ktest.seed=N) and
 * each case derives its own from it and its name, so replaying a seed with
 * a filter reproduces a single case exactly.
 */
#include "asm/setjmp.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/kstrtox.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "asm/timex.h"
#include "mm/snapshot.h"
#include "tests/ktest.h"

#define MAX_RESOURCES 16
#define MAX_INVARIANTS 8
#define FILTER_MAX 1024	/* the whole list */
#define GLOB_MAX 128		/* one glob of it */

/* Weak: a build without misuse scenarios (or resources) has no section. */
extern const struct ktest_suite *const __start_ktest_suites[] __weak,
	*const __stop_ktest_suites[] __weak;
extern const struct ktest_resource *const __start_ktest_resources[] __weak,
	*const __stop_ktest_resources[] __weak;
extern const struct ktest_misuse *const __start_ktest_misuse[] __weak,
	*const __stop_ktest_misuse[] __weak;
extern const struct ktest_invariant *const __start_ktest_invariants[] __weak,
	*const __stop_ktest_invariants[] __weak;

static char filter[FILTER_MAX];
static u64 boot_seed;
static bool seed_given;
static char misuse[64];
static unsigned int time_limit_s = KTEST_TIME_LIMIT_S;
static bool print_times;
static bool soak;

struct ktest_counts {
	unsigned int pass, fail, skip;
};

/* ---- command line ---- */

/*
 * A kernel parameter is at most CMDLINE_PARAM_MAX - 1 bytes, so a long list
 * comes as several ktest.filter= parameters, whose globs add up.
 */
static int ktest_filter_setup(const char *val)
{
	size_t used = strlen(filter);

	if (!val || !*val)
		return -EINVAL;
	for (const char *p = val; *p; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len >= GLOB_MAX)
			return -EINVAL;
		p += len + (comma != NULL);
	}
	if (used + !!used + strlen(val) >= sizeof(filter))
		return -EINVAL;
	if (used)
		filter[used++] = ',';
	strscpy(filter + used, val, sizeof(filter) - used);
	return 0;
}
__setup("ktest.filter", ktest_filter_setup);

static int ktest_seed_setup(const char *val)
{
	unsigned long long v;

	if (!val || kstrtoull(val, 0, &v))
		return -EINVAL;
	boot_seed = v;
	seed_given = true;
	return 0;
}
__setup("ktest.seed", ktest_seed_setup);

static int ktest_misuse_setup(const char *val)
{
	if (!val || !*val || strscpy(misuse, val, sizeof(misuse)) < 0)
		return -EINVAL;
	return 0;
}
__setup("ktest.misuse", ktest_misuse_setup);

static int ktest_time_limit_setup(const char *val)
{
	unsigned int v;

	if (!val || kstrtouint(val, 0, &v) || v > 24 * 3600)
		return -EINVAL;
	time_limit_s = v;
	return 0;
}
__setup("ktest.time_limit", ktest_time_limit_setup);

/* ktest.times=1: a "# time" diagnostic after each case (where time goes). */
static int ktest_times_setup(const char *val)
{
	unsigned int v;

	if (!val || kstrtouint(val, 0, &v) || v > 1)
		return -EINVAL;
	print_times = v;
	return 0;
}
__setup("ktest.times", ktest_times_setup);

static int ktest_soak_setup(const char *val)
{
	unsigned int v;

	if (!val || kstrtouint(val, 0, &v) || v > 1)
		return -EINVAL;
	soak = v;
	return 0;
}
__setup("ktest.soak", ktest_soak_setup);

bool ktest_soak(void)
{
	return soak;
}

/* ---- selection ---- */

/* Does one glob (no comma) of the filter select this case? */
static bool glob_selects(const char *glob, size_t len,
			 const struct ktest_suite *s, const struct ktest_case *c)
{
	char pat[GLOB_MAX];
	char full[2 * GLOB_MAX];

	if (len >= sizeof(pat))
		return false;
	memcpy(pat, glob, len);
	pat[len] = '\0';
	if (!strchr(pat, '.'))
		return glob_match(pat, s->name);
	snprintf(full, sizeof(full), "%s.%s", s->name, c->name);
	return glob_match(pat, full);
}

/* The filter is a comma-separated list of globs; a case runs if any selects it. */
static bool case_selected(const struct ktest_suite *s, const struct ktest_case *c)
{
	const char *p = filter;

	if (!filter[0])
		return true;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len && glob_selects(p, len, s, c))
			return true;
		if (!comma)
			return false;
		p = comma + 1;
	}
}

/* Does one glob of the filter select any case of any suite? */
static bool glob_selects_any(const char *glob, size_t len)
{
	for (const struct ktest_suite *const *sp = __start_ktest_suites;
	     sp < __stop_ktest_suites; sp++)
		for (const struct ktest_case *c = (*sp)->cases; c->name; c++)
			if (glob_selects(glob, len, *sp, c))
				return true;
	return false;
}

/*
 * Each glob of the filter that selects nothing is named: a run that
 * tested less than it was asked to (a typing error, a case renamed) must
 * not say it passed.  Returns how many there were.
 */
static unsigned int report_unmatched_globs(void)
{
	const char *p = filter;
	unsigned int n = 0;

	while (filter[0]) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len && !glob_selects_any(p, len)) {
			printk_raw("# ktest: ktest.filter=%.*s selects no case: nothing ran for it\n",
				   (int)len, p);
			n++;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	return n;
}

static unsigned int selected_cases(const struct ktest_suite *s)
{
	unsigned int n = 0;

	for (const struct ktest_case *c = s->cases; c->name; c++)
		n += case_selected(s, c);
	return n;
}

/* ---- reporting helpers used by the macros ---- */

/*
 * addr lies in the function fn called name: kallsyms names it
 * "name+0x.../0x..." and it is past fn's first byte (a return address, as
 * owner tracking records).  Says what it found otherwise.
 */
bool ktest_in_function(struct ktest *t, unsigned long addr, const void *fn,
		       const char *name)
{
	char sym[96];
	size_t len = strlen(name);

	if (!kallsyms_lookup(addr, sym, sizeof(sym))) {
		ktest_printf(t, "%08lx is in no known function", addr);
		return false;
	}
	if (strncmp(sym, name, len) != 0 || sym[len] != '+' ||
	    addr <= (unsigned long)fn) {
		ktest_printf(t, "%08lx is %s, not in %s", addr, sym, name);
		return false;
	}
	return true;
}

/*
 * For an invariant of a suite's own (KTEST_INVARIANT): the first breach
 * the suite recorded in breach, reported once into why and forgotten.
 */
int ktest_take_breach(char *breach, char *why, size_t len)
{
	if (!breach[0])
		return 0;
	strscpy(why, breach, len);
	breach[0] = '\0';
	return 1;
}

void ktest_printf(struct ktest *t, const char *fmt, ...)
{
	char buf[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	printk_raw("    # %s: %s\n", t->name, buf);
}

/*
 * Counts a failure and says whether to print it: the first
 * KTEST_FAILURES_SHOWN of a case are, the rest only counted (a loop
 * that fails on every page would bury the first, telling, message under
 * a thousand others).  Helper threads may fail at the same time: the
 * count is atomic.
 */
static bool fail_header(struct ktest *t, const char *file, int line)
{
	unsigned int n = __atomic_add_fetch(&t->nr_failures, 1,
					    __ATOMIC_RELAXED);

	t->failed = true;
	if (n > KTEST_FAILURES_SHOWN)
		return false;
	printk_raw("    # %s: EXPECTATION FAILED at %s:%d\n", t->name, file,
		   line);
	return true;
}

void ktest_report_hidden_failures(struct ktest *t)
{
	unsigned int n = __atomic_load_n(&t->nr_failures, __ATOMIC_RELAXED);

	if (n > KTEST_FAILURES_SHOWN)
		printk_raw("    # %s: ... %u more failures not shown\n", t->name,
			   n - KTEST_FAILURES_SHOWN);
}

void ktest_fail_cmp(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *op, const char *rhs_expr,
		    long long lhs, long long rhs)
{
	if (!fail_header(t, file, line))
		return;
	printk_raw("    # Expected %s %s %s, but\n", lhs_expr, op, rhs_expr);
	printk_raw("    #     %s == %lld (0x%llx)\n", lhs_expr, lhs,
		   (unsigned long long)lhs);
	printk_raw("    #     %s == %lld (0x%llx)\n", rhs_expr, rhs,
		   (unsigned long long)rhs);
}

void ktest_fail_ptr(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *op, const char *rhs_expr,
		    const void *lhs, const void *rhs)
{
	if (!fail_header(t, file, line))
		return;
	printk_raw("    # Expected %s %s %s, but\n", lhs_expr, op, rhs_expr);
	printk_raw("    #     %s == %p\n", lhs_expr, lhs);
	printk_raw("    #     %s == %p\n", rhs_expr, rhs);
}

void ktest_fail_str(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *op, const char *rhs_expr,
		    const char *lhs, const char *rhs)
{
	if (!fail_header(t, file, line))
		return;
	printk_raw("    # Expected %s %s %s, but\n", lhs_expr, op, rhs_expr);
	printk_raw("    #     %s == \"%s\"\n", lhs_expr, lhs);
	printk_raw("    #     %s == \"%s\"\n", rhs_expr, rhs);
}

void ktest_fail_mem(struct ktest *t, const char *file, int line,
		    const char *lhs_expr, const char *rhs_expr,
		    const void *lhs, const void *rhs, size_t len)
{
	const u8 *a = lhs, *b = rhs;
	size_t i = 0;

	if (!fail_header(t, file, line))
		return;
	if (a && b)
		while (i < len && a[i] == b[i])
			i++;
	printk_raw("    # Expected %s and %s to hold the same %zu bytes, but\n",
		   lhs_expr, rhs_expr, len);
	if (a && b)
		printk_raw("    #     they differ at byte %zu: 0x%02x != 0x%02x\n",
			   i, a[i], b[i]);
	else
		printk_raw("    #     one of them is NULL\n");
}

void ktest_fail_msg(struct ktest *t, const char *file, int line,
		    const char *fmt, ...)
{
	char buf[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	if (!fail_header(t, file, line))
		return;
	printk_raw("    # %s\n", buf);
}

int ktest_strcmp(const char *a, const char *b)
{
	if (!a || !b)
		return a == b ? 0 : 1;
	return strcmp(a, b);
}

int ktest_memcmp(const void *a, const void *b, size_t n)
{
	if (!a || !b)
		return a == b ? 0 : 1;
	return memcmp(a, b, n);
}

void ktest_park_until_stopped(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* The jump buffer is on the case's own stack: only its thread may jump. */
static void check_case_thread(struct ktest *t, const char *what)
{
	if (current != t->task)
		panic("ktest: %s: %s from thread %s, not the case's own (use EXPECT in helper threads)",
		      t->name, what, current->comm);
}

void ktest_abort(struct ktest *t)
{
	check_case_thread(t, "ASSERT failed");
	arch_longjmp(t->abort_env, 1);
}

void ktest_skip(struct ktest *t, const char *reason)
{
	check_case_thread(t, "skip");
	t->skipped = true;
	t->skip_reason = reason;
	arch_longjmp(t->abort_env, 1);
}

/* ---- randomness ---- */

static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static u64 name_hash(const char *suite, const char *name)
{
	u64 h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (const char *p = suite; *p; p++)
		h = (h ^ (u8)*p) * 0x100000001b3ULL;
	h = (h ^ '.') * 0x100000001b3ULL;
	for (const char *p = name; *p; p++)
		h = (h ^ (u8)*p) * 0x100000001b3ULL;
	return h;
}

u32 ktest_random(struct ktest *t)
{
	if (!t->seed_printed) {
		t->seed_printed = true;
		ktest_printf(t, "random, replay with ktest.seed=%llu ktest.filter=%s.%s",
			     (unsigned long long)boot_seed, t->suite->name,
			     t->name);
	}
	return (u32)(splitmix64(&t->rng_state) >> 32);
}

u32 ktest_random_below(struct ktest *t, u32 bound)
{
	/* Lemire's multiply-shift with rejection: unbiased. */
	u64 m = (u64)ktest_random(t) * bound;
	u32 low = (u32)m;

	if (low < bound) {
		u32 threshold = -bound % bound;

		while (low < threshold) {
			m = (u64)ktest_random(t) * bound;
			low = (u32)m;
		}
	}
	return (u32)(m >> 32);
}

u64 ktest_seed(void)
{
	return boot_seed;
}

/* ---- running ---- */

static unsigned int nr_resources(void)
{
	return (unsigned int)(__stop_ktest_resources - __start_ktest_resources);
}

/*
 * Before the counts are read.  Threads a case started may have exited
 * without yet being switched out for the last time (their stacks are
 * still allocated): wait for them; then what the counters need
 * (ktest_resources_settle()), so that they see only what the case really
 * kept.
 */
static void quiesce(void)
{
	if (!sched_wait_for_exited(HZ))
		printk_raw("    # ktest: exited threads still not reaped after 1 s\n");
	ktest_resources_settle();
}

static void snapshot(long *vals)
{
	quiesce();
	for (unsigned int i = 0; i < nr_resources(); i++)
		vals[i] = __start_ktest_resources[i]->count();
}

static void check_leaks(struct ktest *t, const long *before)
{
	quiesce();
	for (unsigned int i = 0; i < nr_resources(); i++) {
		const struct ktest_resource *r = __start_ktest_resources[i];
		long after = r->count();

		if (after != before[i]) {
			t->failed = true;
			printk_raw("    # %s: LEAK of %s: %ld before the case, %ld after\n",
				   t->name, r->name, before[i], after);
		}
	}
}

static unsigned int nr_invariants(void)
{
	return (unsigned int)(__stop_ktest_invariants - __start_ktest_invariants);
}

/* An invariant found broken stays so: the case after which it broke is named. */
static bool invariant_broken[MAX_INVARIANTS];

/* What each invariant's check costs, said at the end of the run. */
static struct invariant_cost {
	unsigned int runs;
	u64 total_ns, most_ns;
	const char *most_suite, *most_case;
} invariant_cost[MAX_INVARIANTS];

static void note_invariant_cost(struct invariant_cost *c,
				const struct ktest *t, u64 ns)
{
	c->runs++;
	c->total_ns += ns;
	if (ns > c->most_ns) {
		c->most_ns = ns;
		c->most_suite = t->suite->name;
		c->most_case = t->name;
	}
}

static void print_invariant_costs(void)
{
	for (unsigned int i = 0; i < nr_invariants(); i++) {
		const struct invariant_cost *c = &invariant_cost[i];

		if (c->runs)
			printk_raw("# ktest: %s checked after %u cases in %llu us, at most %llu us (after %s.%s)\n",
				   __start_ktest_invariants[i]->name, c->runs,
				   (unsigned long long)(c->total_ns / 1000),
				   (unsigned long long)(c->most_ns / 1000),
				   c->most_suite, c->most_case);
	}
}

/* After the case and its exit: every invariant of the kernel holds. */
static void check_invariants(struct ktest *t)
{
	char why[KTEST_CAPTURE_LINE];

	for (unsigned int i = 0; i < nr_invariants(); i++) {
		const struct ktest_invariant *inv = __start_ktest_invariants[i];
		u64 start;
		int n;

		if (invariant_broken[i])
			continue;
		why[0] = '\0';
		start = printk_clock_ns();
		n = inv->check(why, sizeof(why));
		note_invariant_cost(&invariant_cost[i], t,
				    printk_clock_ns() - start);
		if (n <= 0)
			continue;
		invariant_broken[i] = true;
		t->failed = true;
		printk_raw("    # %s: %s of %s: %s\n", t->name,
			   inv->corruption ? "CORRUPTION" : "BROKEN RULE",
			   inv->name, why);
		if (n > 1)
			printk_raw("    # %s: ... %d more violations of %s not shown\n",
				   t->name, n - 1, inv->name);
	}
}

/* ---- the watchdog ---- */

static struct timer_list watchdog;
static const struct ktest *watched;	/* the case running, under the watchdog */
static unsigned int watched_limit_s;
static unsigned long slowest_jiffies;
static const char *slowest_suite, *slowest_case;

/* ---- the case that was running when the kernel stopped ---- */

static const struct ktest *running;

static void ktest_panic_context(void)
{
	const struct ktest *t = READ_ONCE(running);

	if (t) {
		ktest_capture_replay(t->name);
		pr_emerg("ktest: the kernel stopped in case %s.%s\n",
			 t->suite->name, t->name);
	}
}

static void watchdog_fire(unsigned long unused)
{
	const struct ktest *t = READ_ONCE(watched);

	if (!t)
		return;
	printk_raw("    # %s: time limit of %u s exceeded: the case hangs\n",
		   t->name, watched_limit_s);
	show_tasks();
	panic("ktest: case %s.%s exceeded its time limit of %u s",
	      t->suite->name, t->name, watched_limit_s);
}

/* The CPU the watchdog's timer runs on: not the case's, when possible. */
static int watchdog_cpu(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != raw_smp_processor_id())
			return cpu;
	return raw_smp_processor_id();
}

static void watchdog_arm(const struct ktest *t, const struct ktest_case *c)
{
	unsigned int limit = c->time_limit_s ? c->time_limit_s : time_limit_s;

	if (!time_limit_s)
		return;
	/* A case's own limit grows with the default, for slower hosts. */
	if (c->time_limit_s)
		limit = c->time_limit_s * time_limit_s / KTEST_TIME_LIMIT_S;
	watched_limit_s = limit ? limit : 1;
	WRITE_ONCE(watched, t);
	setup_timer(&watchdog, watchdog_fire, 0);
	watchdog.expires = jiffies + (unsigned long)watched_limit_s * HZ;
	add_timer_on(&watchdog, watchdog_cpu());
}

static void watchdog_disarm(void)
{
	if (!READ_ONCE(watched))
		return;
	del_timer_sync(&watchdog);
	WRITE_ONCE(watched, NULL);
}

/* Idle time of every online CPU, added up (ktest.times). */
static __noinline u64 all_idle_ns(void)
{
	u64 sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		sum += cpu_idle_ns(cpu);
	return sum;
}

static void note_duration(const struct ktest *t, unsigned long start)
{
	unsigned long took = jiffies - start;

	if (!slowest_case || took > slowest_jiffies) {
		slowest_jiffies = took;
		slowest_suite = t->suite->name;
		slowest_case = t->name;
	}
}

static void run_case(const struct ktest_suite *s, const struct ktest_case *c,
		     unsigned int num, struct ktest_counts *counts)
{
	unsigned long start = jiffies;
	u64 start_ns = printk_clock_ns(), idle0 = all_idle_ns();
	struct arch_jmp_buf env;
	struct ktest t = {
		.name = c->name,
		.suite = s,
		.abort_env = &env,
		.rng_state = boot_seed ^ name_hash(s->name, c->name),
		.task = current,
	};
	long before[MAX_RESOURCES];
	volatile bool inited = false;

	WRITE_ONCE(running, &t);
	ktest_capture_reset();
	mm_snapshot_set_case(s->name, c->name);
	snapshot(before);
	watchdog_arm(&t, c);
	if (arch_setjmp(&env) == 0) {
		if (s->init && s->init(&t) != 0) {
			KTEST_FAIL(&t, "suite init failed");
		} else {
			inited = true;
			c->run(&t);
		}
	}
	if (inited && s->exit)
		s->exit(&t);
	check_invariants(&t);
	if (!t.skipped)
		check_leaks(&t, before);
	watchdog_disarm();
	mm_snapshot_set_case(NULL, NULL);
	WRITE_ONCE(running, NULL);
	note_duration(&t, start);
	ktest_report_hidden_failures(&t);
	if (print_times)
		printk_raw("    # time %s.%s %llu us, CPUs idle %llu us\n",
			   s->name, c->name,
			   (unsigned long long)((printk_clock_ns() - start_ns) / 1000),
			   (unsigned long long)((all_idle_ns() - idle0) / 1000));

	ktest_capture_end_case(c->name, t.failed);
	if (t.failed) {
		counts->fail++;
		printk_raw("    not ok %u %s\n", num, c->name);
	} else if (t.skipped) {
		counts->skip++;
		printk_raw("    ok %u %s # SKIP %s\n", num, c->name,
			   t.skip_reason);
	} else {
		counts->pass++;
		printk_raw("    ok %u %s\n", num, c->name);
	}
}

/* "suite:NAME", the label of the snapshot after a suite. */
static const char *suite_label(const struct ktest_suite *s)
{
	static char label[64];

	snprintf(label, sizeof(label), "suite:%s", s->name);
	return label;
}

static void run_suite(const struct ktest_suite *s, unsigned int num,
		      struct ktest_counts *total)
{
	struct ktest_counts counts = { 0, 0, 0 };
	const char *skip = s->skip_if ? s->skip_if() : NULL;
	unsigned int n = 0;

	printk_raw("    KTAP version 1\n");
	printk_raw("    # Subtest: %s\n", s->name);
	printk_raw("    1..%u\n", selected_cases(s));
	for (const struct ktest_case *c = s->cases; c->name; c++) {
		if (!case_selected(s, c))
			continue;
		n++;
		if (skip) {
			counts.skip++;
			printk_raw("    ok %u %s # SKIP %s\n", n, c->name, skip);
		} else {
			run_case(s, c, n, &counts);
		}
	}
	printk_raw("# %s: pass:%u fail:%u skip:%u total:%u\n", s->name,
		   counts.pass, counts.fail, counts.skip, n);
	if (counts.fail)
		printk_raw("not ok %u %s\n", num, s->name);
	else if (skip)
		printk_raw("ok %u %s # SKIP %s\n", num, s->name, skip);
	else
		printk_raw("ok %u %s\n", num, s->name);
	mm_snapshot_point(MMSNAP_SUITE, suite_label(s));
	total->pass += counts.pass;
	total->fail += counts.fail;
	total->skip += counts.skip;
}

int ktest_run_all(void)
{
	const struct ktest_suite *const *sp;
	struct ktest_counts total = { 0, 0, 0 };
	unsigned int nsuites = 0, num = 0, unmatched;

	BUG_ON(nr_resources() > MAX_RESOURCES);
	BUG_ON(nr_invariants() > MAX_INVARIANTS);
	if (!seed_given)
		boot_seed = get_cycles();
	set_panic_context(ktest_panic_context);
	for (sp = __start_ktest_suites; sp < __stop_ktest_suites; sp++)
		nsuites += selected_cases(*sp) > 0;

	printk_raw("KTAP version 1\n");
	printk_raw("# ktest: seed %llu (replay with ktest.seed=%llu)\n",
		   (unsigned long long)boot_seed,
		   (unsigned long long)boot_seed);
	if (filter[0])
		printk_raw("# ktest: filter %s\n", filter);
	unmatched = report_unmatched_globs();
	if (soak)
		printk_raw("# ktest: soak: the long variants (ktest.soak=1)\n");
	printk_raw("1..%u\n", nsuites);
	for (sp = __start_ktest_suites; sp < __stop_ktest_suites; sp++)
		if (selected_cases(*sp) > 0)
			run_suite(*sp, ++num, &total);
	printk_raw("# totals: pass:%u fail:%u skip:%u total:%u\n", total.pass,
		   total.fail, total.skip, total.pass + total.fail + total.skip);
	if (slowest_case)
		printk_raw("# ktest: slowest case %s.%s: %u ms (time limit %u s)\n",
			   slowest_suite, slowest_case,
			   jiffies_to_msecs(slowest_jiffies), time_limit_s);
	print_invariant_costs();

	if (unmatched)
		pr_err("ktest: FAILED: %u glob%s of ktest.filter=%s selected no case\n",
		       unmatched, unmatched == 1 ? "" : "s", filter);
	if (total.fail)
		pr_err("ktest: %u of %u tests FAILED\n", total.fail,
		       total.pass + total.fail + total.skip);
	else if (!unmatched)
		pr_info("ktest: all %u tests passed (%u skipped)\n",
			total.pass + total.skip, total.skip);
	return (int)(total.fail + unmatched);
}

int ktest_run_suite(const struct ktest_suite *s)
{
	struct ktest_counts total = { 0, 0, 0 };

	if (!seed_given)
		boot_seed = get_cycles();
	set_panic_context(ktest_panic_context);
	printk_raw("KTAP version 1\n");
	printk_raw("1..1\n");
	run_suite(s, 1, &total);
	return (int)total.fail;
}

void ktest_run_misuse(void)
{
	const struct ktest_misuse *const *mp;

	if (!misuse[0])
		return;
	for (mp = __start_ktest_misuse; mp < __stop_ktest_misuse; mp++) {
		if (strcmp((*mp)->name, misuse) != 0)
			continue;
		pr_info("ktest: misuse scenario %s: it must stop the kernel\n",
			misuse);
		(*mp)->run();
		pr_err("ktest: misuse scenario %s returned: the misuse was not caught\n",
		       misuse);
		arch_exit(EXIT_FAILURE_STATUS);
	}
	pr_err("ktest: no misuse scenario named '%s'; known:", misuse);
	for (mp = __start_ktest_misuse; mp < __stop_ktest_misuse; mp++)
		pr_cont(" %s", (*mp)->name);
	pr_cont("\n");
	arch_exit(EXIT_FAILURE_STATUS);
}
