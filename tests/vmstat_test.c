/*
 * tests/vmstat_test.c - the "vmstat" suite: the report formats of
 * mm/vmstat.c and the buddy counters they print.
 *
 * The formatter cases compare byte for byte against lines written out by
 * hand in Linux's formats (mm/vmstat.c frag_show_print: "Node %d, zone
 * %8s " then "%6lu " per order, so a buddyinfo line ends in a space;
 * fs/proc/meminfo.c show_val_kb: a 16-column "Name:" label then an
 * 8-column value and " kB"; "HardwareCorrupted: %5lu kB" for the one
 * name too long for the label).  None of them touches a zone.
 *
 * The last case reads the live zones: in every populated zone the blocks
 * on the free lists, sum of nr_free << order, add up to free_pages.  Both
 * are read under zone->lock, so they are one consistent picture.
 *
 * counters_exact_under_irqs_and_preemption: the zone event counters of a
 * private zone are counted from a timer on every online CPU (in the
 * hardirq, re-armed every jiffy; 6 runs per CPU, 50 under ktest.soak=1)
 * while two threads per CPU count into the same counter for as long as
 * the timers run (each counts its adds: at least CT_THREAD_MIN_ADDS, so
 * every thread is in the fray); the total must be exactly what was
 * added.  The threads are busy for every tick of the run and share
 * their CPU, so ticks and slice-end preemptions land in the middle of
 * their updates: a count lost to one shows as a shortfall.
 */
#include "asm/processor.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "lib/err.h"
#include "lib/string.h"
#include "mm/mmzone.h"
#include "mm/vmstat.h"
#include "tests/ktest.h"

#define SENTINEL 0x5a

/* Formats into a poisoned buffer; checks the line, its length, the NUL. */
static void expect_line(struct ktest *t, const char *expect, int ret,
			const char *buf, size_t bufsize)
{
	size_t len = strlen(expect);

	KTEST_EXPECT_EQ(t, ret, (int)len);
	KTEST_EXPECT_STREQ(t, buf, expect);
	if (len + 1 < bufsize)
		KTEST_EXPECT_EQ(t, (u8)buf[len + 1], (u8)SENTINEL);
}

/* ---------------------------------------------------------------- */
/* /proc/buddyinfo lines */

static int buddyinfo(char *buf, size_t size, int nid, const char *name,
		     const unsigned long *nr_free)
{
	memset(buf, SENTINEL, size);
	return format_buddyinfo_line(buf, size, nid, name, nr_free);
}

static void buddyinfo_normal_line(struct ktest *t)
{
	static const unsigned long nr_free[MAX_ORDER] = {
		105, 54, 23, 9, 3, 1, 1, 0, 1, 1, 225,
	};
	char buf[192];
	int ret = buddyinfo(buf, sizeof(buf), 0, "Normal", nr_free);

	expect_line(t,
		    "Node 0, zone   Normal    105     54     23      9      3      1      1      0      1      1    225 ",
		    ret, buf, sizeof(buf));
}

static void buddyinfo_dma_line(struct ktest *t)
{
	static const unsigned long nr_free[MAX_ORDER] = {
		1, 1, 0, 0, 2, 1, 1, 0, 1, 1, 3,
	};
	char buf[192];
	int ret = buddyinfo(buf, sizeof(buf), 0, "DMA", nr_free);

	expect_line(t,
		    "Node 0, zone      DMA      1      1      0      0      2      1      1      0      1      1      3 ",
		    ret, buf, sizeof(buf));
}

/* Another node, a 7-letter zone name, all zeroes. */
static void buddyinfo_highmem_node1(struct ktest *t)
{
	static const unsigned long nr_free[MAX_ORDER] = { 0 };
	char buf[192];
	int ret = buddyinfo(buf, sizeof(buf), 1, "HighMem", nr_free);

	expect_line(t,
		    "Node 1, zone  HighMem      0      0      0      0      0      0      0      0      0      0      0 ",
		    ret, buf, sizeof(buf));
}

/* Fields wider than their width push the line out; nothing is cut. */
static void buddyinfo_wide_fields(struct ktest *t)
{
	static const unsigned long nr_free[MAX_ORDER] = {
		1234567, 999999, 4294967295UL, 0, 0, 0, 0, 0, 0, 0, 12,
	};
	char buf[192];
	int ret = buddyinfo(buf, sizeof(buf), 12, "LongZoneName", nr_free);

	expect_line(t,
		    "Node 12, zone LongZoneName 1234567 999999 4294967295      0      0      0      0      0      0      0     12 ",
		    ret, buf, sizeof(buf));
}

/* snprintf's contract: full length back, the prefix stored, then a NUL. */
static void buddyinfo_truncates(struct ktest *t)
{
	static const unsigned long nr_free[MAX_ORDER] = {
		105, 54, 23, 9, 3, 1, 1, 0, 1, 1, 225,
	};
	const int full = 99; /* the Normal line above */
	char buf[32];
	int ret;

	memset(buf, SENTINEL, sizeof(buf)); /* the bytes past size stay so */
	ret = buddyinfo(buf, 10, 0, "Normal", nr_free);
	KTEST_EXPECT_EQ(t, ret, full);
	KTEST_EXPECT_STREQ(t, buf, "Node 0, z");
	KTEST_EXPECT_EQ(t, (u8)buf[10], (u8)SENTINEL);

	ret = buddyinfo(buf, 22, 0, "Normal", nr_free);
	KTEST_EXPECT_EQ(t, ret, full);
	KTEST_EXPECT_STREQ(t, buf, "Node 0, zone   Normal");

	memset(buf, SENTINEL, sizeof(buf));
	ret = format_buddyinfo_line(buf, 0, 0, "Normal", nr_free);
	KTEST_EXPECT_EQ(t, ret, full);
	KTEST_EXPECT_EQ(t, (u8)buf[0], (u8)SENTINEL);

	ret = format_buddyinfo_line(NULL, 0, 0, "Normal", nr_free);
	KTEST_EXPECT_EQ(t, ret, full);
}

/* ---------------------------------------------------------------- */
/* /proc/meminfo lines */

static int meminfo(char *buf, size_t size, const char *name,
		   unsigned long kb)
{
	memset(buf, SENTINEL, size);
	return format_meminfo_line(buf, size, name, kb);
}

static void meminfo_lines(struct ktest *t)
{
	char buf[64];
	int ret;

	ret = meminfo(buf, sizeof(buf), "MemTotal", 130680);
	expect_line(t, "MemTotal:         130680 kB", ret, buf, sizeof(buf));
	ret = meminfo(buf, sizeof(buf), "MemFree", 0);
	expect_line(t, "MemFree:               0 kB", ret, buf, sizeof(buf));
	ret = meminfo(buf, sizeof(buf), "HighTotal", 3407872);
	expect_line(t, "HighTotal:       3407872 kB", ret, buf, sizeof(buf));
	ret = meminfo(buf, sizeof(buf), "HighFree", 99999999);
	expect_line(t, "HighFree:       99999999 kB", ret, buf, sizeof(buf));
	ret = meminfo(buf, sizeof(buf), "LowTotal", 889508);
	expect_line(t, "LowTotal:         889508 kB", ret, buf, sizeof(buf));
	ret = meminfo(buf, sizeof(buf), "LowFree", 12);
	expect_line(t, "LowFree:              12 kB", ret, buf, sizeof(buf));
}

/* A value wider than 8 columns pushes " kB" out, as seq_put_decimal does. */
static void meminfo_wide_value(struct ktest *t)
{
	char buf[64];
	int ret = meminfo(buf, sizeof(buf), "MemTotal", 4294967295UL);

	expect_line(t, "MemTotal:       4294967295 kB", ret, buf, sizeof(buf));
}

/* Linux's longest labels: "ShmemHugePages: " fills the 16 columns, and
 * "HardwareCorrupted: %5lu kB" keeps the value ending in column 24. */
static void meminfo_long_names(struct ktest *t)
{
	char buf[64];
	int ret;

	ret = meminfo(buf, sizeof(buf), "ShmemHugePages", 2048);
	expect_line(t, "ShmemHugePages:     2048 kB", ret, buf, sizeof(buf));
	ret = meminfo(buf, sizeof(buf), "HardwareCorrupted", 0);
	expect_line(t, "HardwareCorrupted:     0 kB", ret, buf, sizeof(buf));
}

static void meminfo_truncates(struct ktest *t)
{
	char buf[32];
	int ret;

	memset(buf, SENTINEL, sizeof(buf)); /* the bytes past size stay so */
	ret = meminfo(buf, 12, "MemTotal", 130680);

	KTEST_EXPECT_EQ(t, ret, 27);
	KTEST_EXPECT_STREQ(t, buf, "MemTotal:  ");
	KTEST_EXPECT_EQ(t, (u8)buf[12], (u8)SENTINEL);
}

/* ---------------------------------------------------------------- */
/* The live zones */

static void buddy_counts_match_free_pages(struct ktest *t)
{
	int populated = 0;
	struct zone *zone;
	int nid;

	for_each_online_node(nid) {
		for_each_zone_in_node(zone, NODE_DATA(nid)) {
			unsigned long flags, sum = 0, free_pages;
			int order;

			if (!populated_zone(zone))
				continue;
			populated++;

			spin_lock_irqsave(&zone->lock, flags);
			for (order = 0; order < MAX_ORDER; order++)
				sum += zone->free_area[order].nr_free << order;
			free_pages = zone->free_pages;
			spin_unlock_irqrestore(&zone->lock, flags);

			if (sum != free_pages)
				KTEST_FAIL(t, "node %d zone %s: free lists hold %lu pages, free_pages is %lu",
					   nid, zone->name, sum, free_pages);
		}
	}
	KTEST_EXPECT_GT(t, populated, 0);
}

/* ---------------------------------------------------------------- */
/* zone event counters under interrupts and preemption */

#define CT_THREADS_PER_CPU 2
/* Each timer's runs: 6 (more than a slice: each CPU's threads are
 * preempted), 50 under ktest.soak=1. */
#define CT_TIMER_RUNS KTEST_SOAK(6, 50)
#define CT_THREAD_MIN_ADDS 1000UL	/* a thread's, however soon the timers end */
#define CT_CHECK_EVERY 256	/* adds between two looks at the timers */
#define CT_TIMER_ADDS 1000UL
#define CT_WAIT (10 * HZ)

static struct zone cz;	/* only its pagesets' counters are used */

static struct ct_timer {
	struct timer_list timer;
	int cpu;
	int runs;		/* left; atomic */
} ct_timers[NR_CPUS];

static struct ct_thread {
	struct task_struct *task;
	unsigned long adds;	/* read once done */
	int done;		/* atomic */
} ct_threads[NR_CPUS * CT_THREADS_PER_CPU];

static void ct_timer_fn(unsigned long data)
{
	struct ct_timer *c = &ct_timers[data];

	for (unsigned long i = 0; i < CT_TIMER_ADDS; i++)
		zone_stat_inc(&cz, NR_ALLOC_SLOW);
	if (__atomic_sub_fetch(&c->runs, 1, __ATOMIC_ACQ_REL) > 0)
		mod_timer(&c->timer, jiffies + 1);
}

static bool ct_timers_done(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (__atomic_load_n(&ct_timers[cpu].runs, __ATOMIC_ACQUIRE) > 0)
			return false;
	return true;
}

/* Counts until every timer has run out (CT_WAIT at most). */
static int ct_thread_fn(void *arg)
{
	struct ct_thread *c = arg;
	unsigned long end = jiffies + CT_WAIT, n = 0;

	for (;;) {
		for (int i = 0; i < CT_CHECK_EVERY; i++)
			zone_stat_inc(&cz, NR_ALLOC_SLOW);
		n += CT_CHECK_EVERY;
		cpu_relax();	/* the host build takes its interrupts here too */
		if (n >= CT_THREAD_MIN_ADDS &&
		    (ct_timers_done() || time_after(jiffies, end)))
			break;
	}
	c->adds = n;
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	ktest_park_until_stopped();
	return 0;
}

static bool ct_all_done(int nthreads)
{
	for (int i = 0; i < nthreads; i++)
		if (!__atomic_load_n(&ct_threads[i].done, __ATOMIC_ACQUIRE))
			return false;
	return ct_timers_done();
}

static void counters_exact_under_irqs_and_preemption(struct ktest *t)
{
	unsigned long expect = 0, end;
	int cpu, nthreads = 0, ntimers = 0;
	bool done;

	memset(&cz, 0, sizeof(cz));
	memset(ct_timers, 0, sizeof(ct_timers));
	memset(ct_threads, 0, sizeof(ct_threads));
	for_each_online_cpu(cpu) {
		for (int k = 0; k < CT_THREADS_PER_CPU; k++) {
			struct ct_thread *c = &ct_threads[nthreads];
			struct task_struct *task;

			task = kthread_create(ct_thread_fn, c, "vmstat_ct");
			if (IS_ERR(task)) {
				KTEST_FAIL(t, "kthread_create failed");
				goto stop;
			}
			kthread_bind(task, cpu);
			c->task = task;
			nthreads++;
		}
	}
	for_each_online_cpu(cpu) {
		struct ct_timer *c = &ct_timers[cpu];

		setup_timer(&c->timer, ct_timer_fn, (unsigned long)cpu);
		c->cpu = cpu;
		c->runs = CT_TIMER_RUNS;
		c->timer.expires = jiffies + 1;
		add_timer_on(&c->timer, cpu);
		ntimers++;
		expect += CT_TIMER_RUNS * CT_TIMER_ADDS;
	}
	/* All woken before one on this CPU takes it (wake-up preemption). */
	preempt_disable();
	for (int i = 0; i < nthreads; i++)
		wake_up_process(ct_threads[i].task);
	preempt_enable();

	end = jiffies + CT_WAIT;
	while (!(done = ct_all_done(nthreads)) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	KTEST_EXPECT_TRUE(t, done);
	for (int i = 0; i < ntimers; i++)
		del_timer_sync(&ct_timers[i].timer);
	if (done) {
		for (int i = 0; i < nthreads; i++)
			expect += ct_threads[i].adds;
		KTEST_EXPECT_EQ(t, zone_stat_read(&cz, NR_ALLOC_SLOW), expect);
		ktest_printf(t, "%d threads and %d timers counted %lu events",
			     nthreads, ntimers, zone_stat_read(&cz, NR_ALLOC_SLOW));
	}
stop:
	for (int i = 0; i < nthreads; i++)
		kthread_stop(ct_threads[i].task);
}

/*
 * The non-locking update asserts what it relies on: called with
 * interrupts on it must stop the kernel (lockdep_assert_irqs_disabled()).
 */
static void misuse_zone_stat_irqs_on(void)
{
	pr_info("ktest: misuse zone_stat_irqs_on: __zone_stat_inc with interrupts on\n");
	memset(&cz, 0, sizeof(cz));
	__zone_stat_inc(&cz, NR_ALLOC_FAST);
}
KTEST_MISUSE(zone_stat_irqs_on, misuse_zone_stat_irqs_on);

static const struct ktest_case vmstat_cases[] = {
	KTEST_CASE(buddyinfo_normal_line),
	KTEST_CASE(buddyinfo_dma_line),
	KTEST_CASE(buddyinfo_highmem_node1),
	KTEST_CASE(buddyinfo_wide_fields),
	KTEST_CASE(buddyinfo_truncates),
	KTEST_CASE(meminfo_lines),
	KTEST_CASE(meminfo_wide_value),
	KTEST_CASE(meminfo_long_names),
	KTEST_CASE(meminfo_truncates),
	KTEST_CASE(buddy_counts_match_free_pages),
	KTEST_CASE(counters_exact_under_irqs_and_preemption),
	KTEST_END,
};

static const struct ktest_suite vmstat_suite = {
	.name = "vmstat",
	.cases = vmstat_cases,
};
KTEST_SUITE(vmstat_suite);
