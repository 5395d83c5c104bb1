/*
 * tests/irq_alloc_test.c - suite "irq_alloc": allocating from the timer
 * interrupt while kernel threads allocate on the same CPU, and what a
 * sleeping allocation from an interrupt handler reports.
 *
 * atomic_in_tick_vs_kernel_threads: on each of the first MAX_CPUS online
 * CPUs (CPU 0 and up to three more: under QEMU's TCG, eight busy CPUs
 * slow the tick down for seconds and add little) a kernel thread bound
 * there allocates and frees, round after round, a block of each kind -
 * pages of orders 0, 1 and 2, an object of the suite's cache and a
 * kmalloc block - with GFP_KERNEL, sleeping now and then; meanwhile a
 * timer on the same CPU (the thread arms it after its first round, and
 * stops when it is done), re-armed for the next jiffy from its own
 * callback, does a round with GFP_ATOMIC in the tick's interrupt,
 * NR_TICKS times (8; 50 under ktest.soak=1).  Handler and thread each
 * keep the last RING blocks of each kind and free the oldest, so both
 * free as well as allocate, and into the same per-CPU lists and arrays.  Oracles:
 *  - the callback ran exactly NR_TICKS times, each on its CPU, each in
 *    interrupt context with interrupts off (it records, the case checks:
 *    nothing asserts in interrupt context);
 *  - one attempt of each kind per callback, and none failed (all owners
 *    together hold about 1 MiB at most, far from any watermark);
 *  - every block carries a pattern of its own (a serial number no other
 *    block shares), written when it is handed out and checked, whole,
 *    before it is freed: a block handed to two owners at once, or written
 *    by someone else meanwhile, loses its pattern;
 *  - the handler interrupted the threads at least once (they did run
 *    meanwhile), and nothing was reported by might_sleep();
 *  - nothing is left: every block allocated was freed (counted here, and
 *    the framework's page, object and thread counts).
 *
 * gfp_kernel_in_handler_reports: one alloc_page(GFP_KERNEL), then two
 * kmem_cache_alloc(GFP_KERNEL), each from a timer callback.  Each bumps
 * nr_might_sleep_reports() by exactly one; the first of each call site
 * prints Linux's two lines, which a console registered for the case
 * captures:
 *   BUG: sleeping function called from invalid context at mm/page_alloc.c:N
 *   in_atomic(): 1, irqs_disabled(): 1, pid: P, name: C
 * with P and C the task the tick interrupted (the callback records them).
 * A site reports once per boot, so the lines are required when nothing
 * was reported before the case (what a normal boot sees) and checked
 * whenever they appear; the second slab allocation, from a site that has
 * reported by then, must count without printing.  The allocations are
 * ones that cannot sleep here: plenty of free pages, and a cache whose
 * slab stays partial because the case holds one of its objects.
 *
 * Every wait is bounded; timers are gone (del_timer_sync) and threads
 * stopped before a case returns.  The callbacks stop re-arming by
 * themselves (or when told to, if the case gave up waiting), so
 * del_timer_sync never has to catch a timer that re-arms meanwhile.
 */
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

/* Callbacks per CPU: 8 (2 rounds of each ring), 50 under ktest.soak=1. */
#define NR_TICKS KTEST_SOAK(8u, 50u)
#define MAX_CPUS 4		/* CPUs the tick-against-threads run uses */
#define RING 4			/* blocks of each kind an owner keeps */
#define OBJ_SIZE 192		/* the test cache's objects */
#define RUN_TIMEOUT (20 * HZ)	/* the longest any wait of the suite */
#define THREAD_NAP_EVERY 8	/* jiffies between a thread's one-jiffy naps */

/* Pages of orders 0, 1 and 2, objects of the test cache, kmalloc blocks. */
enum kind { K_ORDER0, K_ORDER1, K_ORDER2, K_CACHE, K_KMALLOC, NR_KINDS };

static const char *const kind_name[NR_KINDS] = {
	"order-0", "order-1", "order-2", "cache", "kmalloc",
};
static const size_t kmalloc_sizes[] = { 8, 40, 96, 200, 520, 1500, 4000 };

/* One block held, and the pattern it was given. */
struct block {
	void *addr;		/* NULL: the slot is empty */
	size_t size;
	unsigned int order;	/* pages: the order */
	u32 seed;
};

/* A handler or a thread: what it holds and what it did. */
struct owner {
	struct block ring[NR_KINDS][RING];
	unsigned int round;
	unsigned long allocs[NR_KINDS], failures[NR_KINDS], frees[NR_KINDS];
	unsigned long corrupt;	/* blocks that had lost their pattern */
};

/* Everything about one CPU of atomic_in_tick_vs_kernel_threads. */
struct cpu_run {
	int cpu;
	struct owner handler;
	struct timer_list timer;
	struct completion ticks_done;
	unsigned int runs;
	bool stop;			/* no more re-arming */
	unsigned int wrong_cpu, not_in_irq, irqs_on;
	unsigned int hit_thread;	/* ticks that interrupted our thread */
	struct owner thread;
	struct task_struct *task;
};

static struct cpu_run cpu_runs[MAX_CPUS];
static struct kmem_cache *test_cache;
static u32 next_serial;

/* ---- blocks with patterns -------------------------------------------- */

static u32 pattern_word(u32 seed, size_t i)
{
	return seed ^ ((u32)i * 2654435761u);
}

static void fill_block(struct block *b)
{
	u32 *p = b->addr;

	for (size_t i = 0; i < b->size / sizeof(u32); i++)
		p[i] = pattern_word(b->seed, i);
}

static bool block_intact(const struct block *b)
{
	const u32 *p = b->addr;

	for (size_t i = 0; i < b->size / sizeof(u32); i++)
		if (p[i] != pattern_word(b->seed, i))
			return false;
	return true;
}

/* Takes a block of kind k into b (kmalloc's size varies with the round). */
static void take_block(struct owner *o, enum kind k, struct block *b,
		       gfp_t gfp)
{
	struct page *page;

	switch (k) {
	case K_ORDER0:
	case K_ORDER1:
	case K_ORDER2:
		b->order = k - K_ORDER0;
		b->size = PAGE_SIZE << b->order;
		page = alloc_pages(gfp, b->order);
		b->addr = page ? page_address(page) : NULL;
		break;
	case K_CACHE:
		b->size = OBJ_SIZE;
		b->addr = kmem_cache_alloc(test_cache, gfp);
		break;
	default:
		b->size = kmalloc_sizes[o->round % ARRAY_SIZE(kmalloc_sizes)];
		b->addr = kmalloc(b->size, gfp);
		break;
	}
	if (!b->addr) {
		o->failures[k]++;
		return;
	}
	o->allocs[k]++;
	b->seed = __atomic_add_fetch(&next_serial, 1, __ATOMIC_RELAXED) *
		  0x9e3779b9u;
	fill_block(b);
}

/* Checks and frees the block in b, if any. */
static void drop_block(struct owner *o, enum kind k, struct block *b)
{
	if (!b->addr)
		return;
	if (!block_intact(b))
		o->corrupt++;
	if (k <= K_ORDER2)
		free_pages((unsigned long)b->addr, b->order);
	else if (k == K_CACHE)
		kmem_cache_free(test_cache, b->addr);
	else
		kfree(b->addr);
	o->frees[k]++;
	b->addr = NULL;
}

/* One round: of each kind, the oldest block held goes, a new one comes. */
static void owner_round(struct owner *o, gfp_t gfp)
{
	unsigned int slot = o->round % RING;

	for (int k = 0; k < NR_KINDS; k++) {
		drop_block(o, k, &o->ring[k][slot]);
		take_block(o, k, &o->ring[k][slot], gfp);
	}
	o->round++;
}

static void owner_release_all(struct owner *o)
{
	for (int k = 0; k < NR_KINDS; k++)
		for (int i = 0; i < RING; i++)
			drop_block(o, k, &o->ring[k][i]);
}

/* What the case checks of an owner once it has released everything. */
static void check_owner(struct ktest *t, const char *who, int cpu,
			const struct owner *o, unsigned long want_allocs)
{
	for (int k = 0; k < NR_KINDS; k++) {
		if (want_allocs &&
		    o->allocs[k] + o->failures[k] != want_allocs)
			KTEST_FAIL(t, "CPU %d %s: %lu + %lu %s allocations, planned %lu",
				   cpu, who, o->allocs[k], o->failures[k],
				   kind_name[k], want_allocs);
		if (o->failures[k])
			KTEST_FAIL(t, "CPU %d %s: %lu of %lu %s allocations failed",
				   cpu, who, o->failures[k],
				   o->allocs[k] + o->failures[k], kind_name[k]);
		if (o->frees[k] != o->allocs[k])
			KTEST_FAIL(t, "CPU %d %s: %lu %s blocks allocated, %lu freed",
				   cpu, who, o->allocs[k], kind_name[k],
				   o->frees[k]);
	}
	if (o->corrupt)
		KTEST_FAIL(t, "CPU %d %s: %lu blocks lost their pattern (handed out twice?)",
			   cpu, who, o->corrupt);
}

static int suite_init(struct ktest *t)
{
	memset(cpu_runs, 0, sizeof(cpu_runs));
	test_cache = kmem_cache_create("irq_alloc", OBJ_SIZE, 0, 0, NULL);
	if (!test_cache) {
		KTEST_FAIL(t, "kmem_cache_create(irq_alloc, %d) failed", OBJ_SIZE);
		return -1;
	}
	return 0;
}

static void suite_exit(struct ktest *t)
{
	kmem_cache_destroy(test_cache);
	test_cache = NULL;
}

/* ---- the tick against the threads ------------------------------------ */

/* The timer's function: interrupt context on r->cpu. */
static void alloc_tick(unsigned long data)
{
	struct cpu_run *r = (struct cpu_run *)data;

	if (smp_processor_id() != r->cpu)
		r->wrong_cpu++;
	if (!in_interrupt())
		r->not_in_irq++;
	if (!irqs_disabled())
		r->irqs_on++;
	if (current == r->task)
		r->hit_thread++;
	owner_round(&r->handler, GFP_ATOMIC);
	if (++r->runs < NR_TICKS && !READ_ONCE(r->stop)) {
		mod_timer(&r->timer, jiffies + 1);
	} else {
		WRITE_ONCE(r->stop, true);	/* the thread stops too */
		complete(&r->ticks_done);
	}
}

static int alloc_thread(void *data)
{
	struct cpu_run *r = data;
	unsigned long nap = jiffies + THREAD_NAP_EVERY;

	/*
	 * Busy most of the time, so that the ticks interrupt it, until its
	 * CPU's timer is done: then it leaves the CPU to the case at once
	 * (the case's thread on CPU 0 would otherwise wait out its slice).
	 * It starts the timer itself, on its own CPU, once it is running.
	 */
	while (!kthread_should_stop() && !READ_ONCE(r->stop)) {
		owner_round(&r->thread, GFP_KERNEL);
		if (r->thread.round == 1) {
			r->timer.expires = jiffies + 1;
			add_timer(&r->timer);
		}
		if (time_after(jiffies, nap)) {
			/* kthread_stop() cuts it short. */
			schedule_timeout_uninterruptible(1);
			nap = jiffies + THREAD_NAP_EVERY;
		} else {
			cond_resched();
		}
	}
	owner_release_all(&r->thread);
	ktest_park_until_stopped();
	return 0;
}

static void stop_threads(struct cpu_run *r, int n)
{
	for (int i = 0; i < n; i++)
		kthread_stop(r[i].task);
}

/* Starts a thread bound to each CPU of r[0..n-1]; false if one failed. */
static bool start_threads(struct ktest *t, struct cpu_run *r, int n)
{
	for (int i = 0; i < n; i++) {
		struct task_struct *k = kthread_create(alloc_thread, &r[i],
						       "irq_alloc/%d", r[i].cpu);

		if (IS_ERR(k)) {
			KTEST_FAIL(t, "kthread_create for CPU %d: %ld", r[i].cpu,
				   PTR_ERR(k));
			stop_threads(r, i);
			return false;
		}
		kthread_bind(k, (unsigned int)r[i].cpu);
		r[i].task = k;
	}
	/*
	 * All made before any runs, and all woken with preemption off: one
	 * on this CPU would otherwise take it at its wake-up (wake-up
	 * preemption), or keep it a slice, before the others are woken.
	 */
	preempt_disable();
	for (int i = 0; i < n; i++)
		wake_up_process(r[i].task);
	preempt_enable();
	return true;
}

static void atomic_in_tick_vs_kernel_threads(struct ktest *t)
{
	unsigned long reports = nr_might_sleep_reports();
	unsigned int hit = 0;
	int cpu, n = 0;

	for_each_online_cpu(cpu) {
		struct cpu_run *r;

		if (n == MAX_CPUS)
			break;
		r = &cpu_runs[n++];
		r->cpu = cpu;
		init_completion(&r->ticks_done);
		setup_timer(&r->timer, alloc_tick, (unsigned long)r);
	}
	if (!start_threads(t, cpu_runs, n))
		return;
	for (int i = 0; i < n; i++)
		if (!wait_for_completion_timeout(&cpu_runs[i].ticks_done,
						 RUN_TIMEOUT))
			KTEST_FAIL(t, "CPU %d: %u of %u callbacks within %d s (thread rounds: %u)",
				   cpu_runs[i].cpu, READ_ONCE(cpu_runs[i].runs),
				   NR_TICKS, RUN_TIMEOUT / HZ,
				   READ_ONCE(cpu_runs[i].thread.round));
	for (int i = 0; i < n; i++) {
		WRITE_ONCE(cpu_runs[i].stop, true);
		del_timer_sync(&cpu_runs[i].timer);
	}
	stop_threads(cpu_runs, n);

	for (int i = 0; i < n; i++) {
		struct cpu_run *r = &cpu_runs[i];

		owner_release_all(&r->handler);
		KTEST_EXPECT_EQ(t, r->runs, NR_TICKS);
		KTEST_EXPECT_EQ(t, r->wrong_cpu, 0u);
		KTEST_EXPECT_EQ(t, r->not_in_irq, 0u);
		KTEST_EXPECT_EQ(t, r->irqs_on, 0u);
		KTEST_EXPECT_FALSE(t, timer_pending(&r->timer));
		check_owner(t, "handler", r->cpu, &r->handler, NR_TICKS);
		check_owner(t, "thread", r->cpu, &r->thread, 0);
		hit += r->hit_thread;
		ktest_printf(t, "CPU %d: %u ticks (%u in its thread), thread %u rounds",
			     r->cpu, r->runs, r->hit_thread, r->thread.round);
	}
	KTEST_EXPECT_GT(t, hit, 0u);
	KTEST_EXPECT_EQ(t, nr_might_sleep_reports(), reports);
}

/* ---- a sleeping allocation in the handler ---------------------------- */

#define INVALID_CONTEXT "sleeping function called from invalid context"
#define LOGLEVEL_ERR 3		/* the reports' level (KERN_ERR) */
#define MAX_REPORTS 4
#define CAP_LINE KTEST_CAPTURE_LINE

/*
 * What the capture keeps: each line naming INVALID_CONTEXT and the line
 * after it.  capture_line() runs under the log's lock on any CPU; the case
 * reads the lines once ktest_capture_stop() has returned.
 */
static struct {
	bool want_next;
	unsigned int nr;
	char bug[MAX_REPORTS][CAP_LINE], next[MAX_REPORTS][CAP_LINE];
} cap;

/* A finished line (tests/ktest_capture.c took its timestamp off). */
static void capture_line(const char *line)
{
	if (cap.want_next) {
		strscpy(cap.next[cap.nr - 1], line, CAP_LINE);
		cap.want_next = false;
	} else if (strstr(line, INVALID_CONTEXT) && cap.nr < MAX_REPORTS) {
		strscpy(cap.bug[cap.nr++], line, CAP_LINE);
		cap.want_next = true;
	}
}

/* A call made from a timer callback, and what the callback saw. */
struct handler_call {
	struct timer_list timer;
	struct completion done;
	void (*fn)(void);
	unsigned long reports;	/* might_sleep reports the call added */
	int pid;		/* the task the tick interrupted */
	char comm[TASK_COMM_LEN];
};

static void call_in_tick(unsigned long data)
{
	struct handler_call *c = (struct handler_call *)data;
	unsigned long before = nr_might_sleep_reports();

	c->pid = current->pid;
	strscpy(c->comm, current->comm, sizeof(c->comm));
	c->fn();
	c->reports = nr_might_sleep_reports() - before;
	complete(&c->done);
}

static void page_gfp_kernel(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (page)
		__free_page(page);
}

static void cache_gfp_kernel(void)
{
	void *obj = kmem_cache_alloc(test_cache, GFP_KERNEL);

	if (obj)
		kmem_cache_free(test_cache, obj);
}

/* Runs fn from the next tick on this CPU, capturing what it prints. */
static bool run_in_tick(struct ktest *t, struct handler_call *c,
			void (*fn)(void))
{
	bool ran;

	memset(c, 0, sizeof(*c));
	memset(&cap, 0, sizeof(cap));
	c->fn = fn;
	init_completion(&c->done);
	setup_timer(&c->timer, call_in_tick, (unsigned long)c);
	ktest_capture_start(capture_line);
	c->timer.expires = jiffies + 1;
	add_timer(&c->timer);
	ran = wait_for_completion_timeout(&c->done, RUN_TIMEOUT) != 0;
	del_timer_sync(&c->timer);
	ktest_capture_stop();
	if (!ran)
		KTEST_FAIL(t, "the timer did not run within %d s",
			   RUN_TIMEOUT / HZ);
	return ran;
}

/* "BUG: ... invalid context at FILE:N", N a line number, nothing after. */
static bool bug_line_ok(const char *line, const char *file)
{
	char want[CAP_LINE];
	size_t n = (size_t)snprintf(want, sizeof(want),
				    "BUG: " INVALID_CONTEXT " at %s:", file);
	const char *num = line + n;

	if (strncmp(line, want, n))
		return false;
	if (*num < '1' || *num > '9')
		return false;
	while (*num >= '0' && *num <= '9')
		num++;
	return *num == '\0';
}

/*
 * One sleeping allocation from the handler: one report counted; its two
 * lines when the site reports now (must, when fresh), none when it has
 * reported already (must_be_quiet).
 */
static void check_report(struct ktest *t, void (*fn)(void), const char *file,
			 bool fresh, bool must_be_quiet)
{
	struct handler_call c;
	char want[CAP_LINE];

	if (!run_in_tick(t, &c, fn))
		return;
	KTEST_EXPECT_EQ(t, c.reports, 1UL);
	if (must_be_quiet) {
		KTEST_EXPECT_EQ(t, cap.nr, 0u);
		return;
	}
	if (!cap.nr) {
		if (fresh)
			KTEST_FAIL(t, "no \"" INVALID_CONTEXT "\" line for %s",
				   file);
		else
			ktest_printf(t, "%s printed nothing (reported earlier): counted only",
				     file);
		return;
	}
	KTEST_EXPECT_EQ(t, cap.nr, 1u);
	if (!bug_line_ok(cap.bug[0], file))
		KTEST_FAIL(t, "BUG line for %s reads \"%s\"", file, cap.bug[0]);
	snprintf(want, sizeof(want),
		 "in_atomic(): 1, irqs_disabled(): 1, pid: %d, name: %s",
		 c.pid, c.comm);
	KTEST_EXPECT_STREQ(t, cap.next[0], want);
	ktest_printf(t, "captured: %s", cap.bug[0]);
	ktest_printf(t, "captured: %s", cap.next[0]);
}

static void gfp_kernel_in_handler_reports(struct ktest *t)
{
	/* No site has reported yet (a capture sees every level). */
	bool fresh = nr_might_sleep_reports() == 0;
	void *held = kmem_cache_alloc(test_cache, GFP_KERNEL);

	/* Held, it keeps a partial slab: the handler's allocation never
	 * has to grow the cache (which would enable interrupts there). */
	KTEST_ASSERT_NOT_NULL(t, held);
	check_report(t, page_gfp_kernel, "mm/page_alloc.c", fresh, false);
	check_report(t, cache_gfp_kernel, "mm/slab.c", fresh, false);
	check_report(t, cache_gfp_kernel, "mm/slab.c", fresh, true);
	kmem_cache_free(test_cache, held);
}

/* ---- a handler refills the CPU array while a sleeping grow runs ---- */

#define BURST 110		/* objects the tick takes, then gives back */
#define GROWER_HOLD 4096	/* objects the thread takes per round */
/* 1 KiB: 4 to a slab, so that the thread spends much of its time in a
 * sleeping grow, where the tick's bursts must land. */
#define RACE_OBJ_SIZE 1024
/* The race's length, in ticks that free a burst into the array: 4, 120
 * under ktest.soak=1. */
#define RACE_BURSTS KTEST_SOAK(4, 120)

static struct race {
	struct kmem_cache *cache;
	struct timer_list timer;
	void *burst[2][BURST];		/* this tick's and the last one's */
	int held[2];
	unsigned int ticks;		/* burst_tick()'s runs */
	int bursts;			/* bursts freed into the array */
	bool stop;			/* the race is over */
	struct completion done;		/* ... and the tick knows it */
	unsigned long overflows;	/* array seen above its limit */
	unsigned int max_avail;
	void *hold[GROWER_HOLD];
} race;

/* Frees every object of one of the two bursts. */
static void free_burst(int b)
{
	while (race.held[b])
		kmem_cache_free(race.cache, race.burst[b][--race.held[b]]);
}

/*
 * Each tick takes BURST objects and then frees the BURST it took on the
 * tick before: the frees land in this CPU's array, up to its limit.
 * After RACE_BURSTS frees it ends the race (it, not the case's thread:
 * that one would have to wait for a slice of the busy grower on its CPU).
 */
static void burst_tick(unsigned long unused)
{
	int b = race.ticks++ & 1;

	while (race.held[b] < BURST) {
		void *obj = kmem_cache_alloc(race.cache, GFP_ATOMIC);

		if (!obj)
			break;
		race.burst[b][race.held[b]++] = obj;
	}
	if (race.held[b ^ 1]) {
		free_burst(b ^ 1);
		if (++race.bursts >= RACE_BURSTS)
			WRITE_ONCE(race.stop, true);
	}
	if (!READ_ONCE(race.stop))
		mod_timer(&race.timer, jiffies + 1);
	else
		complete(&race.done);
}

/* Allocates with GFP_KERNEL, growing the cache (interrupts on), and
 * looks at the array after every allocation, until the race is over. */
static bool race_over(void)
{
	return READ_ONCE(race.stop) || kthread_should_stop();
}

static int grower(void *unused)
{
	struct array_cache *ac = race.cache->array[raw_smp_processor_id()];

	while (!race_over()) {
		int n;

		for (n = 0; n < GROWER_HOLD && !race_over(); n++) {
			unsigned long flags;

			race.hold[n] = kmem_cache_alloc(race.cache, GFP_KERNEL);
			local_irq_save(flags);
			/* Its own limit, which a run of frees may have grown. */
			if (ac->avail > ac->limit || ac->limit > race.cache->array_max)
				race.overflows++;
			race.max_avail = max(race.max_avail, ac->avail);
			local_irq_restore(flags);
			if (!race.hold[n])
				break;
		}
		while (n)
			kmem_cache_free(race.cache, race.hold[--n]);
		kmem_cache_shrink(race.cache);
		cond_resched();
	}
	ktest_park_until_stopped();
	return 0;
}

/*
 * A regression test: the refill (now in cache_alloc_cpu()) once refilled
 * the array after a sleeping grow without looking at it again, and an
 * interrupt handler that had freed objects into it meanwhile made the
 * refill write past the array's limit (into the next CPU's).  The tick frees a burst into
 * CPU 0's array while a thread there grows the cache; the array must
 * never hold more than its limit.
 */
static void refill_after_grow_respects_limit(struct ktest *t)
{
	struct task_struct *k;

	memset(&race, 0, sizeof(race));
	init_completion(&race.done);
	race.cache = kmem_cache_create("irq_alloc-race", RACE_OBJ_SIZE, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, race.cache);
	setup_timer(&race.timer, burst_tick, 0);
	race.timer.expires = jiffies + 1;
	add_timer(&race.timer);
	k = kthread_create(grower, NULL, "irq_alloc-grow");
	if (IS_ERR(k)) {
		WRITE_ONCE(race.stop, true);
		del_timer_sync(&race.timer);
		kmem_cache_destroy(race.cache);
		KTEST_FAIL(t, "no thread: %ld", PTR_ERR(k));
		return;
	}
	kthread_bind(k, 0);
	wake_up_process(k);
	if (!wait_for_completion_timeout(&race.done, RUN_TIMEOUT))
		KTEST_FAIL(t, "%d of %d bursts within %d s", READ_ONCE(race.bursts),
			   RACE_BURSTS, RUN_TIMEOUT / HZ);
	WRITE_ONCE(race.stop, true);
	kthread_stop(k);
	del_timer_sync(&race.timer);
	free_burst(0);
	free_burst(1);
	ktest_printf(t, "array above its limit %lu times; most held %u (limit %u, %u at most)",
		     race.overflows, race.max_avail, race.cache->limit,
		     race.cache->array_max);
	KTEST_EXPECT_EQ(t, race.overflows, 0UL);
	KTEST_EXPECT_LE(t, race.max_avail, race.cache->array_max);
	kmem_cache_destroy(race.cache);
}

static const struct ktest_case irq_alloc_cases[] = {
	KTEST_CASE(atomic_in_tick_vs_kernel_threads),
	KTEST_CASE(gfp_kernel_in_handler_reports),
	KTEST_CASE(refill_after_grow_respects_limit),
	KTEST_END,
};

static const struct ktest_suite irq_alloc_suite = {
	.name = "irq_alloc",
	.init = suite_init,
	.exit = suite_exit,
	.cases = irq_alloc_cases,
};
KTEST_SUITE(irq_alloc_suite);
