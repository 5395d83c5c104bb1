/*
 * tests/mempool_test.c - suite "mempool": memory pools (mm/mempool.c),
 * driven into their reserve by allocation fault injection by task
 * (mm/fault_inject.h) or by an allocator that fails on demand.
 *
 * The cases:
 *  - allocator_first_while_memory_lasts: with memory to spare every
 *    mempool_alloc() is one call of the pool's allocator, with the
 *    caller's mask less __GFP_WAIT and __GFP_IO; the reserve is never
 *    touched, and every free goes back to the allocator.
 *  - reserve_when_the_allocator_fails: the task fault-injected, the pool
 *    hands out its reserve - the very elements it holds, min_nr of them
 *    and no more: the next GFP_ATOMIC call returns NULL without sleeping.
 *    Given back, they refill the reserve.
 *  - gfp_kernel_sleeps_until_another_cpu_frees (2+ CPUs): reserve empty,
 *    GFP_ATOMIC fails at once and GFP_KERNEL sleeps until a thread on
 *    another CPU frees the element it holds, and gets that element; the
 *    try before the sleep is the full mask with __GFP_NORETRY.
 *  - frees_race_for_the_last_place: a free in a timer callback races the
 *    case's free for the last place of a reserve short of one, until it
 *    has come between the case's look at curr_nr and its lock several
 *    times; the free that comes second finds the reserve full under the
 *    lock and gives its element to the allocator.
 *  - interrupt_free_wakes_the_sleeper: the same with the element freed
 *    by a timer callback, in interrupt context; then an element that
 *    comes back while the caller tries the allocator before its sleep
 *    (the allocator frees it) is taken without sleeping at all: the
 *    reserve is checked again once the caller is on pool->wait.
 *  - forward_progress_with_memory_exhausted: workers on every CPU, every
 *    one fault-injected, each needing both elements of a pool of two for
 *    each unit of work; all units complete in bounded time.
 *  - resize_up_and_down: mempool_resize() fills a bigger reserve from
 *    the allocator and gives back what a smaller one cannot hold,
 *    exactly; a grow the allocator cannot finish fails with min_nr set,
 *    and frees fill the rest, or a resize to the same size does.
 *  - resize_under_load: the same while threads allocate and free, with
 *    and without memory; nothing lost or leaked.
 *  - elements_are_of_the_pool_kind: slab, kmalloc and page pools hand
 *    out objects of their cache, blocks of at least their size, and
 *    blocks of their order from a zone of their zonelist - from the
 *    allocator and from the reserve alike, all distinct.  The reserve
 *    must still be whole after the allocator's share: a pool that drained
 *    it while memory was plentiful fails here at once (were the case to
 *    go on, its reserve takes would sleep for ever).
 *  - reserve_elements_are_poisoned: while in the reserve an element of
 *    a pool whose memory is debugged holds the poison, and comes out of
 *    the reserve as it was; other pools' elements are left alone.
 *  - statistics_are_exact: a pool's counters and mempool_reserved_bytes()
 *    follow every step of a scripted sequence.
 *  - bench_mempool_against_its_cache: cycles of mempool_alloc() +
 *    mempool_free() against the bare kmem_cache_alloc() +
 *    kmem_cache_free() of the pool's cache, memory plentiful (the
 *    target: within 1.2x), and with every element from the reserve.
 *  - create_fails_cleanly: mempool_create() that cannot allocate its
 *    pool or its whole reserve returns NULL and gives back what it took.
 *  - sleeper_retries_the_allocator_on_its_own: reserve empty, GFP_KERNEL
 *    asleep, and the allocator gets memory again while nothing comes back
 *    to the pool: the sleeper's timeout (HZ/5, 2 jiffies for the case:
 *    mempool_set_recheck()) has it try the allocator
 *    again, without __GFP_WAIT, and it gets that element; a thread frees
 *    an element into the pool only after a second, to end a sleep that
 *    had no timeout, and the case then fails.
 *
 * The oracles:
 *  - a counting allocator (kmalloc behind it) for the pool: its calls,
 *    the mask of each, the elements it made and those its free function
 *    took back; made - freed is what the pool holds, reserve and out;
 *  - the pool's reserve itself, read under pool->lock: curr_nr and
 *    elements[0..curr_nr), whose pointers and contents are compared with
 *    what the case handed out and wrote;
 *  - the pool's counters (allocs, from_reserve, waits, fails, out)
 *    against a model the case keeps of what it did, step by step;
 *  - sleeping: the sleeper's io_schedule_timeout() waits (blkio_count),
 *    which pool->waits must equal (the helpers free only once the
 *    sleeper is on pool->wait and off its run queue); each wait is
 *    preceded by two tries of the allocator (without and with
 *    __GFP_WAIT), which fixes the number of allocator calls too.  A
 *    GFP_NOWAIT caller must not sleep at all: its voluntary switches
 *    (nvcsw) stay as they were;
 *  - elements: the slab's own records (page_get_cache, the object index),
 *    ksize(), a page's order (private, PageHead, alignment) and zone;
 *  - locking, after every case (exit): the counting allocator's calls
 *    made with pool->lock held on their CPU (spin_is_held), which must be
 *    none, and the lock validator's reports during the case, none too (a
 *    pool->lock taken without irqsave, then by the timer's free, is one).
 *
 * The figures of the benchmark are "# CASE: bench: ..." lines in
 * bench_slab's shapes, TSC cycles (under QEMU TCG the emulated TSC's:
 * only ratios within one boot mean much), printed and never judged.
 *
 * On a one-CPU boot gfp_kernel_sleeps_until_another_cpu_frees skips;
 * the other cases run, their threads sharing CPU 0 with the case.
 * Threads record into struct helper and never use the ktest macros; the
 * case checks.  Helpers park until kthread_stop() when done.  Every wait
 * of a case is bounded (WAIT_TICKS); a helper that does not finish in
 * that time is reported and left running, and then the pools and caches
 * it may still use are left too, so that nothing is freed under it.
 * What a case holds - elements, pools, caches - is tracked here, and
 * exit gives it all back, so an ASSERT leaks nothing; exit also unmarks
 * the case's task, which cases mark for fault injection.
 */
#include "asm/timex.h"
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/mutex.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mempool.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "mm/topology.h"
#include "tests/bench.h"
#include "tests/ktest.h"

#define WAIT_TICKS (5 * HZ)	/* the longest a case waits for anything */
#define DELAY_MS 4		/* a freer holds its element this long first */
#define NOWAIT_BITS ((int)(__GFP_WAIT | __GFP_IO))
#define POISON_FREE 0x6b	/* a reserve element's bytes, when debugged */
#define POISON_END 0xa5		/* ... and its last byte */
#define MAX_POOLS 4
#define MAX_CACHES 2
#define MAX_HELD 64
#define MAX_HELPERS 8
#define NR_MASKS 8		/* allocator masks remembered */
#define OBJ_SIZE 72		/* the test caches' objects */
#define KM_SIZE 200		/* the kmalloc pools' elements */
#define PAGE_ORDER 2		/* the page pools' blocks */
#define PAIR_UNITS 3		/* forward progress: units per worker */
#define NR_RESIZES 10
#define MAX_RESERVE 12		/* resize_under_load's largest reserve */
#define CHURN_BATCH 16		/* churner operations between yields */
#define CHURN_ROUND 4		/* each churner's operations in the case, at least */
#define BENCH_OPS 1000		/* alloc+free pairs per timed run */
#define RACE_ROUNDS 400		/* a race's rounds, at most */
#define RACE_LANDINGS 8		/* ... until the interrupt came this often where it matters */
#define RACE_SIZE 16384		/* a raced element: its poisoning takes a while */

/* ---- a pool allocator that counts ------------------------------------- */

/*
 * kmalloc(size) behind it.  calls counts the calls since the last
 * reset_calls(), and every call from the limit-th on fails; masks[n %
 * NR_MASKS] is the mask of call n.  made and freed count over the case.
 * Once the pool exists (pool), a call made with its lock held by this CPU
 * counts in locked, which exit requires to be 0; and give_back, when set,
 * is an element the second call since the reset frees into the pool
 * before it fails, as an interrupt could while the caller reclaims.
 */
struct counting {
	size_t size;
	unsigned long limit;
	unsigned long calls;
	unsigned long made, freed;
	int masks[NR_MASKS];
	mempool_t *pool;
	unsigned long locked;
	void *give_back;
};

static struct counting cnt;

/* A call of the pool's allocator or free function: is its lock held? */
static bool counting_locked(struct counting *c)
{
	mempool_t *pool = READ_ONCE(c->pool);

	if (!pool || !spin_is_held(&pool->lock))
		return false;
	__atomic_fetch_add(&c->locked, 1, __ATOMIC_RELAXED);
	return true;
}

static void *counting_alloc(int gfp_mask, void *data)
{
	struct counting *c = data;
	unsigned long n = __atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
	bool locked = counting_locked(c);
	void *element;

	__atomic_store_n(&c->masks[n % NR_MASKS], gfp_mask, __ATOMIC_RELAXED);
	/* Not with the lock held: that mempool_free() would never get it. */
	if (n == 1 && !locked && READ_ONCE(c->give_back))
		mempool_free(__atomic_exchange_n(&c->give_back, NULL,
						 __ATOMIC_ACQ_REL), c->pool);
	if (n >= READ_ONCE(c->limit))
		return NULL;
	element = kmalloc(c->size, (gfp_t)gfp_mask);
	if (element)
		__atomic_fetch_add(&c->made, 1, __ATOMIC_RELAXED);
	return element;
}

static void counting_free(void *element, void *data)
{
	struct counting *c = data;

	counting_locked(c);
	__atomic_fetch_add(&c->freed, 1, __ATOMIC_RELAXED);
	kfree(element);
}

static void reset_calls(unsigned long limit)
{
	WRITE_ONCE(cnt.calls, 0);
	WRITE_ONCE(cnt.limit, limit);
}

static unsigned long calls(void)
{
	return __atomic_load_n(&cnt.calls, __ATOMIC_RELAXED);
}

/* The mask of call n since the reset (one of the last NR_MASKS). */
static int mask_of_call(unsigned long n)
{
	return cnt.masks[n % NR_MASKS];
}

/* Elements of the counting allocator alive: in a reserve or out. */
static long counted_alive(void)
{
	return (long)(READ_ONCE(cnt.made) - READ_ONCE(cnt.freed));
}

/* The first try's mask: the caller's, less __GFP_WAIT and __GFP_IO. */
static void expect_nowait_mask(struct ktest *t, int mask, int gfp)
{
	KTEST_EXPECT_EQ(t, mask & NOWAIT_BITS, 0);
	KTEST_EXPECT_EQ(t, mask & ~(int)__GFP_NOWARN, gfp & ~NOWAIT_BITS);
}

/* ---- what a case holds, given back by exit ---------------------------- */

struct held {
	mempool_t *pool;
	void *element;
};

static mempool_t *pools[MAX_POOLS];
static struct kmem_cache *caches[MAX_CACHES];
static struct held held[MAX_HELD];
static int nr_held;

/* Keeps a new pool for exit (the cases make at most MAX_POOLS). */
static mempool_t *track_pool(struct ktest *t, mempool_t *pool)
{
	KTEST_ASSERT_NOT_NULL(t, pool);
	for (int i = 0; i < MAX_POOLS; i++) {
		if (!pools[i]) {
			pools[i] = pool;
			return pool;
		}
	}
	BUG();
}

static struct kmem_cache *track_cache(struct ktest *t, struct kmem_cache *c)
{
	KTEST_ASSERT_NOT_NULL(t, c);
	for (int i = 0; i < MAX_CACHES; i++) {
		if (!caches[i]) {
			caches[i] = c;
			return c;
		}
	}
	BUG();
}

static mempool_t *counting_pool(struct ktest *t, int min_nr, size_t size)
{
	cnt.size = size;
	reset_calls(~0UL);
	cnt.pool = track_pool(t, mempool_create(min_nr, counting_alloc,
						counting_free, &cnt));
	return cnt.pool;
}

/*
 * Destroys a pool of the suite.  One with elements out is reported and
 * left: destroying it stops the kernel.  False when it was left.
 */
static bool destroy_pool(struct ktest *t, mempool_t *pool)
{
	long out = mempool_out(pool);

	for (int i = 0; i < MAX_POOLS; i++)
		if (pools[i] == pool)
			pools[i] = NULL;
	if (cnt.pool == pool)
		cnt.pool = NULL;
	if (out) {
		KTEST_FAIL(t, "pool %p still has %ld elements out: left, not destroyed",
			   (void *)pool, out);
		return false;
	}
	mempool_destroy(pool);
	return true;
}

static void *take(mempool_t *pool, int gfp)
{
	void *element = mempool_alloc(pool, gfp);

	if (element) {
		BUG_ON(nr_held >= MAX_HELD);
		held[nr_held++] = (struct held){ pool, element };
	}
	return element;
}

/* No longer the case's to give back: a helper or the timer frees it. */
static void untrack(void *element)
{
	for (int i = 0; i < nr_held; i++) {
		if (held[i].element == element) {
			held[i] = held[--nr_held];
			return;
		}
	}
	BUG();
}

static void give(mempool_t *pool, void *element)
{
	untrack(element);
	mempool_free(element, pool);
}

/* ---- the pool's state and counters ------------------------------------ */

struct stats {
	int min_nr, curr_nr;
	long out;
	unsigned long allocs, from_reserve, waits, fails;
};

static void pool_stats(mempool_t *pool, struct stats *s)
{
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	s->min_nr = pool->min_nr;
	s->curr_nr = pool->curr_nr;
	s->out = mempool_out(pool);
	s->allocs = mempool_allocs(pool);
	s->from_reserve = READ_ONCE(pool->from_reserve);
	s->waits = READ_ONCE(pool->waits);
	s->fails = READ_ONCE(pool->fails);
	spin_unlock_irqrestore(&pool->lock, flags);
}

static void expect_stats(struct ktest *t, mempool_t *pool,
			 const struct stats *want)
{
	struct stats s;

	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.min_nr, want->min_nr);
	KTEST_EXPECT_EQ(t, s.curr_nr, want->curr_nr);
	KTEST_EXPECT_EQ(t, s.out, want->out);
	KTEST_EXPECT_EQ(t, s.allocs, want->allocs);
	KTEST_EXPECT_EQ(t, s.from_reserve, want->from_reserve);
	KTEST_EXPECT_EQ(t, s.waits, want->waits);
	KTEST_EXPECT_EQ(t, s.fails, want->fails);
}

/* Copies the reserve's pointers (at most max); returns curr_nr. */
static int peek_reserve(mempool_t *pool, void **out, int max)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&pool->lock, flags);
	n = pool->curr_nr;
	for (int i = 0; i < n && i < max; i++)
		out[i] = pool->elements[i];
	spin_unlock_irqrestore(&pool->lock, flags);
	return n;
}

static bool in_set(void *const *set, int n, const void *p)
{
	for (int i = 0; i < n; i++)
		if (set[i] == p)
			return true;
	return false;
}

/* ---- element contents ---------------------------------------------------- */

static bool poisoned(const u8 *p, size_t size)
{
	for (size_t i = 0; i + 1 < size; i++)
		if (p[i] != POISON_FREE)
			return false;
	return p[size - 1] == POISON_END;
}

static u8 pattern_byte(u8 seed, size_t i)
{
	return (u8)(seed + i * 7);
}

static void fill_pattern(u8 *p, size_t size, u8 seed)
{
	for (size_t i = 0; i < size; i++)
		p[i] = pattern_byte(seed, i);
}

static bool holds_pattern(const u8 *p, size_t size, u8 seed)
{
	for (size_t i = 0; i < size; i++)
		if (p[i] != pattern_byte(seed, i))
			return false;
	return true;
}

/* ---- helper threads ------------------------------------------------------ */

struct helper {
	struct task_struct *task;	/* NULL once stopped */
	int id;
	bool injected;			/* its allocations fail */
	int gfp;			/* what it allocates with */
	bool parked;			/* done, until kthread_stop() */
	unsigned long ok;		/* elements it got */
	unsigned long nulls;		/* mempool_alloc() returned NULL */
	unsigned long corrupt;		/* elements that lost its pattern */
	unsigned int units;		/* units of work done */
	bool saw_waiting;		/* the case was asleep on the pool */
	bool woke;			/* ... and runnable once it freed */
	bool rescued;			/* it had to free to end the case's sleep */
};

static struct helper helpers[MAX_HELPERS];
static int nr_helpers;

/* What the case shares with its helpers and its timer. */
static struct {
	struct task_struct *case_task;
	mempool_t *pool;		/* the pool the helpers use */
	size_t size;			/* bytes of its elements they write */
	void *handed;			/* the element a freer or the timer frees */
	bool returned;			/* the case's mempool_alloc() returned */
	bool stop;			/* churners: stop */
	struct mutex pair_lock;		/* forward progress: one acquirer */
	struct timer_list timer;
	bool timer_stop;		/* exit: free now, do not re-arm */
	int timer_rearms;
	bool timer_done, timer_in_irq, timer_saw_waiting, timer_woke;
	bool stuck;			/* a helper could not be stopped */
	unsigned long recheck;		/* the pool's recheck to put back, or 0 */
	unsigned long lockdep_reports;	/* the validator's, when the case began */
	struct timer_list race_timer;	/* frees race_el, racing the case */
	void *race_el;			/* the element it frees */
	bool race_fired;
} sh;

#define wait_until(cond) ktest_wait_until(cond, WAIT_TICKS)

static void need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2+ online CPUs (one-CPU boot: -smp 1, nosmp or maxcpus=1)");
}

/* The n-th online CPU, round and round. */
static int nth_cpu(int n)
{
	unsigned int i = 0, want = (unsigned int)n % num_online_cpus();
	int cpu;

	for_each_online_cpu(cpu)
		if (i++ == want)
			return cpu;
	return 0;
}

/*
 * A helper that will run fn bound to cpu, allocating with gfp, marked
 * for fault injection from its start if injected.  Started.
 */
static struct helper *start_helper(struct ktest *t, int (*fn)(void *), int cpu,
				   bool injected, int gfp)
{
	struct helper *h;
	struct task_struct *k;

	KTEST_ASSERT_LT(t, nr_helpers, MAX_HELPERS);
	h = &helpers[nr_helpers];
	h->id = nr_helpers;
	h->injected = injected;
	h->gfp = gfp;
	k = kthread_create(fn, h, "mempool-test/%d", h->id);
	KTEST_ASSERT_FALSE(t, IS_ERR(k));
	kthread_bind(k, (unsigned int)cpu);
	h->task = k;
	nr_helpers++;
	wake_up_process(k);
	return h;
}

/* A helper's first act: it marks itself, if it is to fail. */
static void begin(struct helper *h)
{
	if (h->injected)
		fail_task_allocations(current, true);
}

/* Its last: unmarked, it sleeps until kthread_stop(). */
static void park(struct helper *h)
{
	if (h->injected)
		fail_task_allocations(current, false);
	__atomic_store_n(&h->parked, true, __ATOMIC_RELEASE);
	ktest_park_until_stopped();
}

static bool parked(const struct helper *h)
{
	return __atomic_load_n(&h->parked, __ATOMIC_ACQUIRE);
}

static bool all_parked(void)
{
	for (int i = 0; i < nr_helpers; i++)
		if (helpers[i].task && !parked(&helpers[i]))
			return false;
	return true;
}

/* Stops the parked helpers; reports and leaves the others. */
static void stop_helpers(struct ktest *t)
{
	WRITE_ONCE(sh.stop, true);
	for (int i = 0; i < nr_helpers; i++) {
		struct helper *h = &helpers[i];

		if (!h->task)
			continue;
		if (!wait_until(parked(h))) {
			KTEST_FAIL(t, "%s still busy after %d jiffies: left running",
				   h->task->comm, WAIT_TICKS);
			sh.stuck = true;
		} else {
			kthread_stop(h->task);
		}
		h->task = NULL;
	}
}

/* The case sleeps in mempool_alloc(): on the pool's queue, off its CPU's. */
static bool case_waiting(void)
{
	return !READ_ONCE(sh.returned) && waitqueue_active(&sh.pool->wait) &&
	       !READ_ONCE(sh.case_task->on_rq);
}

/*
 * Frees the element handed over; true when that made the case runnable
 * (or it has run already): the free woke it.  Without the wake-up it
 * would sleep on until its recheck, many jiffies later.
 */
static bool free_handed(void)
{
	mempool_free(__atomic_exchange_n(&sh.handed, NULL, __ATOMIC_ACQ_REL),
		     sh.pool);
	return READ_ONCE(sh.case_task->on_rq) || READ_ONCE(sh.returned);
}

/* ---- suite set-up -------------------------------------------------------- */

static void free_from_interrupt(unsigned long unused);
static void race_from_interrupt(unsigned long unused);

static int mempool_test_init(struct ktest *t)
{
	memset(&cnt, 0, sizeof(cnt));
	memset(pools, 0, sizeof(pools));
	memset(caches, 0, sizeof(caches));
	nr_held = 0;
	memset(helpers, 0, sizeof(helpers));
	nr_helpers = 0;
	memset(&sh, 0, sizeof(sh));
	sh.case_task = current;
	sh.lockdep_reports = lockdep_nr_reports();
	mutex_init(&sh.pair_lock);
	setup_timer(&sh.timer, free_from_interrupt, 0);
	setup_timer(&sh.race_timer, race_from_interrupt, 0);
	return 0;
}

/*
 * What every case requires of the pool's locking: no call of its
 * allocator or free function with pool->lock held, and no report of the
 * lock validator (pool->lock taken without irqsave and then by an
 * interrupt, a lock order inverted).
 */
static void expect_locking_clean(struct ktest *t)
{
	unsigned long reports = lockdep_nr_reports() - sh.lockdep_reports;

	if (cnt.locked)
		KTEST_FAIL(t, "the pool's allocator or free function was called %lu times with pool->lock held",
			   cnt.locked);
	if (reports)
		KTEST_FAIL(t, "the lock validator reported %lu problems during the case (above)",
			   reports);
}

static void mempool_test_exit(struct ktest *t)
{
	bool leave = false;

	fail_task_allocations(current, false);
	if (sh.recheck)
		mempool_set_recheck(sh.recheck);
	stop_helpers(t);
	WRITE_ONCE(sh.timer_stop, true);
	del_timer_sync(&sh.timer);
	del_timer_sync(&sh.race_timer);
	if (sh.stuck) {
		KTEST_FAIL(t, "pools and caches left to the stuck helpers");
		expect_locking_clean(t);
		return;
	}
	free_handed();
	race_from_interrupt(0);		/* the race's element, if still pending */
	while (nr_held)
		give(held[nr_held - 1].pool, held[nr_held - 1].element);
	for (int i = 0; i < MAX_POOLS; i++)
		if (pools[i] && !destroy_pool(t, pools[i]))
			leave = true;
	for (int i = 0; i < MAX_CACHES && !leave; i++)
		if (caches[i])
			kmem_cache_destroy(caches[i]);
	expect_locking_clean(t);
}

/* ---- the allocator first, the reserve last ------------------------------- */

static void allocator_first_while_memory_lasts(struct ktest *t)
{
	enum { MIN_NR = 4, N = 2 * MIN_NR + 1 };
	void *reserve[MIN_NR], *el[N];
	struct stats want = { .min_nr = MIN_NR, .curr_nr = MIN_NR };
	mempool_t *pool = counting_pool(t, MIN_NR, KM_SIZE);

	/* The reserve was made at creation, and nothing else. */
	KTEST_EXPECT_EQ(t, calls(), (unsigned long)MIN_NR);
	KTEST_EXPECT_EQ(t, counted_alive(), (long)MIN_NR);
	KTEST_ASSERT_EQ(t, peek_reserve(pool, reserve, MIN_NR), MIN_NR);
	expect_stats(t, pool, &want);

	/* More than the reserve holds, and all of it from the allocator. */
	reset_calls(~0UL);
	for (int i = 0; i < N; i++) {
		int gfp = (i & 1) ? GFP_ATOMIC : GFP_KERNEL;

		el[i] = take(pool, gfp);
		KTEST_ASSERT_NOT_NULL(t, el[i]);
		if (in_set(reserve, MIN_NR, el[i])) {
			KTEST_FAIL(t, "allocation %d (%s) took an element of the reserve while the allocator had memory: the allocator comes first",
				   i, gfp == GFP_KERNEL ? "GFP_KERNEL" : "GFP_ATOMIC");
			return;
		}
		KTEST_EXPECT_EQ(t, calls(), (unsigned long)i + 1);
		expect_nowait_mask(t, mask_of_call((unsigned long)i), gfp);
		want.allocs++;
		want.out++;
		expect_stats(t, pool, &want);
	}
	/* The reserve is full: every free goes back to the allocator. */
	for (int i = 0; i < N; i++) {
		unsigned long freed = READ_ONCE(cnt.freed);

		give(pool, el[i]);
		KTEST_EXPECT_EQ(t, READ_ONCE(cnt.freed), freed + 1);
	}
	want.out = 0;
	expect_stats(t, pool, &want);
	KTEST_EXPECT_EQ(t, calls(), (unsigned long)N);
	KTEST_EXPECT_EQ(t, counted_alive(), (long)MIN_NR);
}

static void reserve_when_the_allocator_fails(struct ktest *t)
{
	enum { MAX_NR = 6 };
	int min_nr = 2 + (int)ktest_random_below(t, MAX_NR - 1);
	void *reserve[MAX_NR], *el[MAX_NR], *after[MAX_NR];
	struct stats want = { .min_nr = min_nr, .curr_nr = min_nr };
	mempool_t *pool = counting_pool(t, min_nr, KM_SIZE);
	unsigned long nvcsw, made = READ_ONCE(cnt.made);

	KTEST_ASSERT_EQ(t, peek_reserve(pool, reserve, MAX_NR), min_nr);
	reset_calls(~0UL);
	fail_task_allocations(current, true);
	nvcsw = READ_ONCE(current->nvcsw);
	for (int i = 0; i < min_nr; i++) {
		el[i] = take(pool, GFP_ATOMIC);
		KTEST_ASSERT_NOT_NULL(t, el[i]);
		/* One of the reserve's, each once. */
		KTEST_EXPECT_TRUE(t, in_set(reserve, min_nr, el[i]));
		KTEST_EXPECT_FALSE(t, in_set(el, i, el[i]));
		want.curr_nr--;
		want.out++;
		want.allocs++;
		want.from_reserve++;
		expect_stats(t, pool, &want);
	}
	/* min_nr and no more: NULL, at once. */
	KTEST_EXPECT_NULL(t, take(pool, GFP_ATOMIC));
	KTEST_EXPECT_EQ(t, READ_ONCE(current->nvcsw), nvcsw);
	fail_task_allocations(current, false);
	want.fails++;
	expect_stats(t, pool, &want);
	/* The allocator was tried first every time, and made nothing. */
	KTEST_EXPECT_EQ(t, calls(), (unsigned long)min_nr + 1);
	KTEST_EXPECT_EQ(t, READ_ONCE(cnt.made), made);

	/* Given back, they refill the reserve: the same elements. */
	for (int i = 0; i < min_nr; i++)
		give(pool, el[i]);
	want.curr_nr = min_nr;
	want.out = 0;
	expect_stats(t, pool, &want);
	KTEST_EXPECT_EQ(t, READ_ONCE(cnt.freed), 0UL);
	KTEST_ASSERT_EQ(t, peek_reserve(pool, after, MAX_NR), min_nr);
	for (int i = 0; i < min_nr; i++)
		KTEST_EXPECT_TRUE(t, in_set(after, min_nr, reserve[i]));
}

/* ---- sleeping for an element ----------------------------------------------- */

/*
 * A pool of min_nr whose allocator fails from now on, its reserve handed
 * out to the case; then GFP_ATOMIC must fail without sleeping.  Returns
 * the pool and, in *one, one of the elements, all held.
 */
static mempool_t *empty_pool(struct ktest *t, int min_nr, struct stats *want,
			     void **one)
{
	mempool_t *pool = counting_pool(t, min_nr, KM_SIZE);
	unsigned long nvcsw;

	reset_calls(0);
	for (int i = 0; i < min_nr; i++)
		KTEST_ASSERT_NOT_NULL(t, *one = take(pool, GFP_ATOMIC));
	nvcsw = READ_ONCE(current->nvcsw);
	KTEST_EXPECT_NULL(t, take(pool, GFP_ATOMIC));
	KTEST_EXPECT_EQ(t, READ_ONCE(current->nvcsw), nvcsw);
	*want = (struct stats){ .min_nr = min_nr, .out = min_nr,
				.allocs = (unsigned long)min_nr,
				.from_reserve = (unsigned long)min_nr,
				.fails = 1 };
	expect_stats(t, pool, want);
	sh.pool = pool;
	return pool;
}

/*
 * After a GFP_KERNEL mempool_alloc() that waited `waits` times before an
 * element came back: one wait each, and before each the allocator
 * tried without and with __GFP_WAIT; once more on the round that found
 * the element in the reserve.
 */
static void expect_slept(struct ktest *t, mempool_t *pool, struct stats *want,
			 unsigned long waits)
{
	KTEST_EXPECT_GE(t, waits, 1UL);
	KTEST_EXPECT_EQ(t, calls(), 2 * waits + 1);
	expect_nowait_mask(t, mask_of_call(0), GFP_KERNEL);
	KTEST_EXPECT_EQ(t, mask_of_call(1) & GFP_KERNEL, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, mask_of_call(1) & __GFP_NORETRY, __GFP_NORETRY);
	want->waits += waits;
	want->allocs++;
	want->from_reserve++;
	expect_stats(t, pool, want);
}

static int freer_fn(void *data)
{
	struct helper *h = data;
	unsigned long end;
	bool waiting;

	msleep(DELAY_MS);
	end = jiffies + WAIT_TICKS;
	while (!(waiting = case_waiting()) && time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	h->saw_waiting = waiting;
	h->woke = free_handed();
	park(h);
	return 0;
}

static void gfp_kernel_sleeps_until_another_cpu_frees(struct ktest *t)
{
	struct stats want;
	mempool_t *pool;
	struct helper *h;
	unsigned long waits;
	void *el, *got;

	need_two_cpus(t);
	pool = empty_pool(t, 2, &want, &el);
	/* A thread on the last CPU holds one element, and frees it later. */
	untrack(el);
	sh.handed = el;
	reset_calls(0);
	h = start_helper(t, freer_fn, nth_cpu((int)num_online_cpus() - 1),
			 false, 0);
	waits = READ_ONCE(current->blkio_count);
	got = take(pool, GFP_KERNEL);
	WRITE_ONCE(sh.returned, true);
	waits = READ_ONCE(current->blkio_count) - waits;
	KTEST_EXPECT_PTR_EQ(t, got, el);
	KTEST_ASSERT_TRUE(t, wait_until(parked(h)));
	KTEST_EXPECT_TRUE(t, h->saw_waiting);
	KTEST_EXPECT_TRUE(t, h->woke);
	KTEST_EXPECT_NE(t, h->task->cpu, raw_smp_processor_id());
	expect_slept(t, pool, &want, waits);
	ktest_printf(t, "slept %lu times until CPU %d freed the element",
		     waits, h->task->cpu);
}

/* ---- a free racing a free ---------------------------------------------------- */

/*
 * The timer of the race: frees the pending element, if any, into the
 * pool.  Not if the task it interrupted holds pool->lock (taken without
 * irqsave): that free would spin on it for ever; the lock validator
 * reports such a lock, and the timer tries again at the next tick.
 */
static void race_from_interrupt(unsigned long unused)
{
	void *el;

	if (in_irq() && spin_is_held(&sh.pool->lock)) {
		mod_timer(&sh.race_timer, jiffies + 1);
		return;
	}
	el = __atomic_exchange_n(&sh.race_el, NULL, __ATOMIC_ACQ_REL);
	if (el)
		mempool_free(el, sh.pool);
	__atomic_store_n(&sh.race_fired, true, __ATOMIC_RELEASE);
}

/*
 * One round: the reserve's one element taken and given back by the case,
 * over and over, until the timer frees the element pending (one of the
 * allocator's) into the pool.  1 when the interrupt came while the
 * case's free ran and its element went in first: the case's free, which
 * had seen a short reserve, found it full under the lock; 0 when it came
 * elsewhere; -1 when the round could not be set up (said).
 */
static int race_round(struct ktest *t, mempool_t *pool)
{
	unsigned long end = jiffies + WAIT_TICKS;
	int landed = 0;
	void *el, *in;

	KTEST_ASSERT_NOT_NULL(t, el = take(pool, GFP_KERNEL));
	if (peek_reserve(pool, &in, 1) != 1) {
		KTEST_FAIL(t, "the element to race with came from the reserve while the allocator had memory: the allocator comes first");
		return -1;
	}
	untrack(el);
	__atomic_store_n(&sh.race_el, el, __ATOMIC_RELEASE);
	__atomic_store_n(&sh.race_fired, false, __ATOMIC_RELEASE);
	mod_timer(&sh.race_timer, jiffies + 1);
	fail_task_allocations(current, true);
	while (!__atomic_load_n(&sh.race_fired, __ATOMIC_ACQUIRE) &&
	       time_before(jiffies, end)) {
		void *mine = mempool_alloc(pool, GFP_ATOMIC);
		bool fired;

		if (!mine)
			break;
		fired = __atomic_load_n(&sh.race_fired, __ATOMIC_ACQUIRE);
		mempool_free(mine, pool);
		if (!fired && __atomic_load_n(&sh.race_fired, __ATOMIC_ACQUIRE) &&
		    peek_reserve(pool, &in, 1) == 1 && in == el)
			landed = 1;
	}
	fail_task_allocations(current, false);
	KTEST_ASSERT_TRUE(t, __atomic_load_n(&sh.race_fired, __ATOMIC_ACQUIRE));
	return landed;
}

/*
 * A free in an interrupt races a free in a task for the reserve's last
 * place: each looks at curr_nr without the lock, poisons its element (a
 * poisoned cache of large objects: a long while) and takes the lock.
 * Rounds go on until the interrupt has come inside the task's free
 * RACE_LANDINGS times (the task takes the reserve's element and frees it
 * again and again until the timer fires, poisoning most of the time: the
 * interrupt comes there in one round of ten or so, under QEMU).  The
 * task's free must then find the reserve full under the lock and give
 * its element to the allocator - without that look,
 * add_element_locked()'s BUG_ON stops the kernel.  Each round ends with
 * the reserve full and nothing out.
 */
static void frees_race_for_the_last_place(struct ktest *t)
{
	struct kmem_cache *cache = track_cache(t, kmem_cache_create("mempool-race",
				RACE_SIZE, 0, SLAB_POISON, NULL));
	mempool_t *pool = track_pool(t, mempool_create_slab_pool(1, cache));
	unsigned int rounds = 0, landed = 0;
	struct stats s;

	sh.pool = pool;
	while (landed < RACE_LANDINGS && rounds < RACE_ROUNDS) {
		int got = race_round(t, pool);

		if (got < 0)
			return;
		landed += (unsigned int)got;
		rounds++;
		pool_stats(pool, &s);
		KTEST_ASSERT_EQ(t, s.curr_nr, 1);
		KTEST_ASSERT_EQ(t, s.out, 0L);
	}
	ktest_printf(t, "%u rounds, the interrupt inside the task's free in %u",
		     rounds, landed);
}

/* The timer: frees the handed element once the case sleeps for it. */
static void free_from_interrupt(unsigned long unused)
{
	bool waiting = case_waiting();

	if (!waiting && !READ_ONCE(sh.timer_stop) &&
	    sh.timer_rearms++ < WAIT_TICKS) {
		mod_timer(&sh.timer, jiffies + 1);
		return;
	}
	sh.timer_in_irq = in_irq();
	sh.timer_saw_waiting = waiting;
	sh.timer_woke = free_handed();
	WRITE_ONCE(sh.timer_done, true);
}

static void interrupt_free_wakes_the_sleeper(struct ktest *t)
{
	struct stats want;
	unsigned long waits;
	void *el, *got;
	mempool_t *pool = empty_pool(t, 1, &want, &el);

	untrack(el);
	sh.handed = el;
	reset_calls(0);
	mod_timer(&sh.timer, jiffies + msecs_to_jiffies(DELAY_MS));
	waits = READ_ONCE(current->blkio_count);
	got = take(pool, GFP_KERNEL);
	WRITE_ONCE(sh.returned, true);
	waits = READ_ONCE(current->blkio_count) - waits;
	KTEST_EXPECT_PTR_EQ(t, got, el);
	/* It freed, so it ran; it is not re-armed after that. */
	KTEST_EXPECT_TRUE(t, READ_ONCE(sh.timer_done));
	KTEST_EXPECT_TRUE(t, sh.timer_in_irq);
	KTEST_EXPECT_TRUE(t, sh.timer_saw_waiting);
	KTEST_EXPECT_TRUE(t, sh.timer_woke);
	expect_slept(t, pool, &want, waits);

	/*
	 * The element comes back while the caller's try before the sleep
	 * runs (the allocator's second call frees it, as an interrupt
	 * could): the reserve is checked once the caller is on the queue,
	 * so it takes the element at once instead of sleeping.
	 */
	KTEST_ASSERT_NOT_NULL(t, got);
	untrack(got);
	cnt.give_back = got;
	reset_calls(0);
	waits = READ_ONCE(current->blkio_count);
	el = take(pool, GFP_KERNEL);
	waits = READ_ONCE(current->blkio_count) - waits;
	KTEST_EXPECT_NULL(t, cnt.give_back);
	KTEST_EXPECT_PTR_EQ(t, el, got);
	KTEST_EXPECT_EQ(t, waits, 0UL);
	want.allocs++;
	want.from_reserve++;
	expect_stats(t, pool, &want);
}

/* How long a reviver lets the case sleep on before it frees an element. */
#define RESCUE_TICKS HZ

/*
 * Once the case sleeps in mempool_alloc(), lets the allocator succeed
 * again, and frees nothing into the pool - unless the case still sleeps
 * RESCUE_TICKS later, many times the pool's recheck: then it frees the
 * element it holds, so that a sleep without a timeout ends, and says so.
 */
static int reviver_fn(void *data)
{
	struct helper *h = data;
	unsigned long end;
	bool waiting;

	msleep(DELAY_MS);
	end = jiffies + WAIT_TICKS;
	while (!(waiting = case_waiting()) && !READ_ONCE(sh.returned) &&
	       time_before(jiffies, end))
		schedule_timeout_uninterruptible(1);
	h->saw_waiting = waiting;
	if (waiting) {
		WRITE_ONCE(cnt.limit, ~0UL);
		end = jiffies + RESCUE_TICKS;
		while (!READ_ONCE(sh.returned) && time_before(jiffies, end))
			schedule_timeout_uninterruptible(1);
		if (!READ_ONCE(sh.returned)) {
			h->rescued = true;
			h->woke = free_handed();
		}
	}
	park(h);
	return 0;
}

static void sleeper_retries_the_allocator_on_its_own(struct ktest *t)
{
	struct stats want;
	unsigned long waits, made, last;
	mempool_t *pool;
	struct helper *h;
	void *el, *got;

	pool = empty_pool(t, 1, &want, &el);
	/* A thread holds the one element; the allocator fails until it acts. */
	untrack(el);
	sh.handed = el;
	reset_calls(0);
	made = READ_ONCE(cnt.made);
	h = start_helper(t, reviver_fn, nth_cpu((int)num_online_cpus() - 1),
			 false, 0);
	/* The mechanism, not the figure: a recheck of 2 jiffies (exit puts
	 * HZ/5 back). */
	sh.recheck = mempool_set_recheck(2);
	waits = READ_ONCE(current->blkio_count);
	got = take(pool, GFP_KERNEL);
	WRITE_ONCE(sh.returned, true);
	waits = READ_ONCE(current->blkio_count) - waits;
	KTEST_ASSERT_TRUE(t, wait_until(parked(h)));
	KTEST_ASSERT_NOT_NULL(t, got);
	KTEST_EXPECT_TRUE(t, h->saw_waiting);
	if (h->rescued) {
		KTEST_FAIL(t, "mempool_alloc(GFP_KERNEL) slept on for %d jiffies after the allocator had memory again: a sleeper must retry the allocator after a timeout, not only when an element comes back",
			   RESCUE_TICKS);
		return;
	}
	/* The allocator's element, made after the sleep, tried without __GFP_WAIT. */
	KTEST_EXPECT_PTR_NE(t, got, el);
	KTEST_EXPECT_EQ(t, READ_ONCE(cnt.made), made + 1);
	last = calls() - 1;
	expect_nowait_mask(t, mask_of_call(last), GFP_KERNEL);
	KTEST_EXPECT_GE(t, waits, 1UL);
	want.waits += waits;
	want.allocs++;
	want.out++;
	expect_stats(t, pool, &want);
	ktest_printf(t, "slept %lu times, then the allocator's element after %lu calls",
		     waits, calls());
}

/* ---- forward progress ------------------------------------------------------ */

/*
 * A unit of work needs both elements of a pool of two.  Linux's rule for
 * a caller that needs several elements of one pool: it must not wait for
 * one while holding another, unless no other caller can be doing the
 * same - dm-crypt takes its bio_alloc_lock around the blocking
 * allocations of a bio's pages for that reason.  So a worker takes the
 * pair under pair_lock (the first, a yield of the CPU, the second), then
 * works and frees both without it.  Its work lasts until another worker
 * waits in mempool_alloc() for an element, or a tick has passed (the
 * last units have nobody to wait), so the case sees the waits it counts
 * without each unit sleeping out a tick.
 *
 * Why it cannot deadlock: every worker is fault-injected, so the only
 * elements are the reserve's two.  Only the holder of pair_lock ever
 * waits in mempool_alloc(); every other worker holds none or both, and
 * frees them within a tick without waiting for anything.  The
 * freed elements go to the reserve first (it is short) and wake the
 * waiter, so each acquisition ends, and each of the units with it.
 */
static int pair_worker(void *data)
{
	struct helper *h = data;

	begin(h);
	for (unsigned int u = 0; u < PAIR_UNITS; u++) {
		u8 *a, *b;

		mutex_lock(&sh.pair_lock);
		a = mempool_alloc(sh.pool, GFP_KERNEL);
		yield();
		b = mempool_alloc(sh.pool, GFP_KERNEL);
		mutex_unlock(&sh.pair_lock);
		if (a && b) {
			unsigned long end = jiffies + 1;

			fill_pattern(a, sh.size, (u8)h->id);
			fill_pattern(b, sh.size, (u8)~h->id);
			while (!waitqueue_active(&sh.pool->wait) &&
			       time_before(jiffies, end))
				yield();
			h->corrupt += !holds_pattern(a, sh.size, (u8)h->id) +
				      !holds_pattern(b, sh.size, (u8)~h->id);
			h->units++;
		} else {
			h->nulls++;
		}
		mempool_free(a, sh.pool);
		mempool_free(b, sh.pool);
	}
	park(h);
	return 0;
}

static void forward_progress_with_memory_exhausted(struct ktest *t)
{
	int n = (int)clamp(2 * num_online_cpus(), 4U, (unsigned int)MAX_HELPERS);
	unsigned long units = (unsigned long)n * PAIR_UNITS;
	struct kmem_cache *cache = track_cache(t, kmem_cache_create("mempool-pairs",
				OBJ_SIZE, 0, 0, NULL));
	mempool_t *pool = track_pool(t, mempool_create_slab_pool(2, cache));
	unsigned long injected = nr_injected_failures(), start = jiffies;
	struct stats s;
	bool done;

	sh.pool = pool;
	sh.size = OBJ_SIZE;
	for (int i = 0; i < n; i++)
		start_helper(t, pair_worker, nth_cpu(i), true, GFP_KERNEL);
	done = wait_until(all_parked());
	pool_stats(pool, &s);
	if (!done)
		KTEST_FAIL(t, "units not done after %d jiffies: reserve %d of %d, %ld out, %lu waits",
			   WAIT_TICKS, s.curr_nr, s.min_nr, s.out, s.waits);
	for (int i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, helpers[i].units, (unsigned int)PAIR_UNITS);
		KTEST_EXPECT_EQ(t, helpers[i].nulls, 0UL);
		KTEST_EXPECT_EQ(t, helpers[i].corrupt, 0UL);
	}
	/* Every element came from the reserve, and went back to it. */
	KTEST_EXPECT_EQ(t, s.allocs, 2 * units);
	KTEST_EXPECT_EQ(t, s.from_reserve, 2 * units);
	KTEST_EXPECT_EQ(t, s.fails, 0UL);
	KTEST_EXPECT_EQ(t, s.out, 0L);
	KTEST_EXPECT_EQ(t, s.curr_nr, 2);
	KTEST_EXPECT_GE(t, nr_injected_failures() - injected, 2 * units);
	/* Someone waited for a pair while another worked with it. */
	KTEST_EXPECT_GE(t, s.waits, 1UL);
	ktest_printf(t, "%d workers on %u CPUs, %d units each, pool of 2: done in %lu jiffies, %lu waits",
		     n, num_online_cpus(), PAIR_UNITS, jiffies - start, s.waits);
}

/* ---- resizing --------------------------------------------------------------- */

/* Resizes to size and checks the reserve: full, made or freed exactly. */
static void expect_resized(struct ktest *t, mempool_t *pool, int size)
{
	int before = pool->curr_nr;
	unsigned long made = cnt.made, freed = cnt.freed;
	struct stats s;

	KTEST_EXPECT_EQ(t, mempool_resize(pool, size, GFP_KERNEL), 0);
	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.min_nr, size);
	KTEST_EXPECT_EQ(t, s.curr_nr, size);
	KTEST_EXPECT_EQ(t, cnt.made - made,
			(unsigned long)(size > before ? size - before : 0));
	KTEST_EXPECT_EQ(t, cnt.freed - freed,
			(unsigned long)(size < before ? before - size : 0));
}

/*
 * A size whose pointers do not fit a size_t (2^30 + 1 on i386, where
 * 4 * (2^30 + 1) wraps to 4): mempool_resize() fails with -ENOMEM and
 * leaves the pool as it was, and mempool_create() gives nothing, instead
 * of an array of a few slots that the refill would write past
 * (kmalloc_array, not a multiplication).  The allocator is made to fail
 * meanwhile, so that a wrapped array is never filled past its end: the
 * case fails on min_nr instead of corrupting the kernel.  Only where
 * size_t is 32 bits can an int min_nr overflow it.
 */
static void sizes_that_overflow_fail(struct ktest *t)
{
	const int huge = (int)(SIZE_MAX / sizeof(void *) + 1);
	mempool_t *pool;
	unsigned long made;
	struct stats s;

	if (sizeof(size_t) > sizeof(int))
		ktest_skip(t, "an int min_nr cannot overflow a 64-bit size_t");
	pool = counting_pool(t, 2, KM_SIZE);
	/* A size that fits grows the pool (a resize that never grows fails). */
	expect_resized(t, pool, 3);
	made = cnt.made;
	reset_calls(0);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, huge, GFP_KERNEL), -ENOMEM);
	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.min_nr, 3);
	KTEST_EXPECT_EQ(t, s.curr_nr, 3);
	KTEST_EXPECT_EQ(t, cnt.made, made);
	KTEST_EXPECT_NULL(t, mempool_create(huge, counting_alloc,
					    counting_free, &cnt));
	KTEST_EXPECT_EQ(t, cnt.made, made);
	reset_calls(~0UL);
}

static void resize_up_and_down(struct ktest *t)
{
	mempool_t *pool = counting_pool(t, 4, KM_SIZE);
	unsigned long freed;
	struct stats s;
	void *el[3];

	expect_resized(t, pool, 9);
	expect_resized(t, pool, 2);
	expect_resized(t, pool, 2);
	/*
	 * A grow the allocator cannot finish fails with the new min_nr set
	 * and what it got in the reserve; elements coming back fill the rest.
	 */
	reset_calls(1);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, 5, GFP_KERNEL), -ENOMEM);
	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.min_nr, 5);
	KTEST_EXPECT_EQ(t, s.curr_nr, 3);
	reset_calls(~0UL);
	for (int i = 0; i < 3; i++)
		KTEST_ASSERT_NOT_NULL(t, el[i] = take(pool, GFP_KERNEL));
	freed = cnt.freed;
	for (int i = 0; i < 3; i++)
		give(pool, el[i]);
	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.curr_nr, 5);
	KTEST_EXPECT_EQ(t, s.from_reserve, 0UL);
	KTEST_EXPECT_EQ(t, cnt.freed - freed, 1UL);
	/* Another that falls short, finished by a resize to the same size. */
	reset_calls(1);
	KTEST_EXPECT_EQ(t, mempool_resize(pool, 7, GFP_KERNEL), -ENOMEM);
	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.min_nr, 7);
	KTEST_EXPECT_EQ(t, s.curr_nr, 6);
	reset_calls(~0UL);
	expect_resized(t, pool, 7);
	expect_resized(t, pool, 1);
	KTEST_EXPECT_EQ(t, counted_alive(), 1L);
}

/*
 * Allocates and frees one element at a time until told to stop, with
 * its mask, fault-injected or not; so no churner waits holding one.
 */
static int churner(void *data)
{
	struct helper *h = data;
	unsigned int n = 0;

	begin(h);
	while (!READ_ONCE(sh.stop)) {
		u8 *el = mempool_alloc(sh.pool, h->gfp);

		if (el) {
			fill_pattern(el, sh.size, (u8)h->id);
			h->corrupt += !holds_pattern(el, sh.size, (u8)h->id);
			mempool_free(el, sh.pool);
			WRITE_ONCE(h->ok, h->ok + 1);	/* churned() reads */
		} else {
			WRITE_ONCE(h->nulls, h->nulls + 1);
		}
		if (++n % CHURN_BATCH == 0)
			yield();
	}
	park(h);
	return 0;
}

/* The churners' operations so far: all of them, or the fewest of one. */
static unsigned long churned(bool least)
{
	unsigned long sum = 0, fewest = ~0UL;

	for (int i = 0; i < nr_helpers; i++) {
		unsigned long n = READ_ONCE(helpers[i].ok) +
				  READ_ONCE(helpers[i].nulls);

		sum += n;
		fewest = min(fewest, n);
	}
	return least ? fewest : sum;
}

static void resize_under_load(struct ktest *t)
{
	static const struct {
		bool injected;
		int gfp;
	} kinds[] = {
		{ false, GFP_KERNEL }, { false, GFP_ATOMIC },
		{ true, GFP_KERNEL }, { true, GFP_ATOMIC },
	};
	int size = 4, nr_injected = 0;
	mempool_t *pool = counting_pool(t, size, KM_SIZE);
	unsigned long ok = 0, nulls = 0, reserve_ok = 0;
	struct stats s;

	sh.pool = pool;
	sh.size = KM_SIZE;
	for (unsigned int i = 0; i < ARRAY_SIZE(kinds); i++) {
		start_helper(t, churner, nth_cpu((int)i), kinds[i].injected,
			     kinds[i].gfp);
		nr_injected += kinds[i].injected;
	}
	/*
	 * Up and down, each time while the churners go on.  Only the
	 * injected ones take from the reserve, one element each at most:
	 * it is never short by more than that.
	 */
	for (int r = 0; r < NR_RESIZES; r++) {
		unsigned long mark = churned(false);

		/* Down to 1..size-1, up to size+1..MAX_RESERVE, in turn. */
		if (r & 1)
			size = 1 + (int)ktest_random_below(t, (u32)(size - 1));
		else
			size += 1 + (int)ktest_random_below(t, (u32)(MAX_RESERVE - size));
		KTEST_EXPECT_EQ(t, mempool_resize(pool, size, GFP_KERNEL), 0);
		pool_stats(pool, &s);
		KTEST_EXPECT_EQ(t, s.min_nr, size);
		KTEST_EXPECT_LE(t, s.curr_nr, size);
		KTEST_EXPECT_GE(t, s.curr_nr, size - nr_injected);
		if (!wait_until(churned(false) >= mark + CHURN_BATCH)) {
			KTEST_FAIL(t, "the churners made no progress in %d jiffies",
				   WAIT_TICKS);
			break;
		}
	}
	/* Every kind of churner has worked, the injected ones too. */
	if (!wait_until(churned(true) >= CHURN_ROUND))
		KTEST_FAIL(t, "a churner did fewer than %d operations in %d jiffies",
			   CHURN_ROUND, WAIT_TICKS);
	stop_helpers(t);
	for (int i = 0; i < nr_helpers; i++) {
		struct helper *h = &helpers[i];

		ok += h->ok;
		nulls += h->nulls;
		if (h->injected)
			reserve_ok += h->ok;
		KTEST_EXPECT_EQ(t, h->corrupt, 0UL);
		/* Only GFP_ATOMIC without memory may fail. */
		if (!h->injected || h->gfp == GFP_KERNEL)
			KTEST_EXPECT_EQ(t, h->nulls, 0UL);
	}
	pool_stats(pool, &s);
	KTEST_EXPECT_EQ(t, s.allocs, ok);
	KTEST_EXPECT_EQ(t, s.fails, nulls);
	KTEST_EXPECT_EQ(t, s.from_reserve, reserve_ok);
	KTEST_EXPECT_GT(t, reserve_ok, 0UL);
	KTEST_EXPECT_EQ(t, s.out, 0L);
	KTEST_EXPECT_EQ(t, s.min_nr, size);
	KTEST_EXPECT_EQ(t, s.curr_nr, size);
	/* Nothing lost, nothing leaked: the allocator's balance is the reserve. */
	KTEST_EXPECT_EQ(t, counted_alive(), (long)s.curr_nr);
	ktest_printf(t, "%d resizes up and down, the last to %d; %lu allocations, %lu from the reserve, %lu NULL, %lu waits",
		     NR_RESIZES, size, ok, reserve_ok, nulls, s.waits);
}

/* ---- what the elements are --------------------------------------------------- */

enum kind { SLAB, KMALLOC, PAGES };

struct kind_pool {
	enum kind kind;
	mempool_t *pool;
	struct kmem_cache *cache;	/* SLAB: the pool's cache */
	size_t size;			/* bytes of an element */
	bool poisons;			/* its reserve is poisoned */
};

static const char *kind_name(enum kind kind)
{
	return kind == SLAB ? "slab" : kind == KMALLOC ? "kmalloc" : "page";
}

static void *element_memory(const struct kind_pool *k, void *element)
{
	return k->kind == PAGES ? page_address(element) : element;
}

/* The zones GFP_KERNEL may take pages from here. */
static bool gfp_kernel_zone(const struct zone *z)
{
	struct zone **zp = node_zonelist(numa_node_id(), GFP_KERNEL)->zones;

	for (; *zp; zp++)
		if (*zp == z)
			return true;
	return false;
}

static void expect_element_kind(struct ktest *t, const struct kind_pool *k,
				void *element)
{
	struct page *page;

	switch (k->kind) {
	case SLAB:
		page = virt_to_page(element);
		KTEST_EXPECT_TRUE(t, PageSlab(page));
		KTEST_EXPECT_PTR_EQ(t, page_get_cache(page), k->cache);
		KTEST_EXPECT_GE(t, obj_to_index(k->cache, page_get_slab(page),
						element), 0L);
		break;
	case KMALLOC:
		KTEST_EXPECT_GE(t, ksize(element), k->size);
		KTEST_EXPECT_PTR_EQ(t, page_get_cache(virt_to_page(element)),
				    kmalloc_slab_for(k->size));
		break;
	case PAGES:
		page = element;
		KTEST_EXPECT_EQ(t, page->private, (unsigned long)PAGE_ORDER);
		KTEST_EXPECT_TRUE(t, PageHead(page));
		KTEST_EXPECT_EQ(t, page_count(page), 1);
		KTEST_EXPECT_EQ(t, page_to_pfn(page) & ((1UL << PAGE_ORDER) - 1), 0UL);
		KTEST_EXPECT_FALSE(t, is_highmem(page_zone(page)));
		KTEST_EXPECT_TRUE(t, gfp_kernel_zone(page_zone(page)));
		break;
	}
}

static void elements_are_of_the_pool_kind(struct ktest *t)
{
	enum { MIN_NR = 3, PER_POOL = 2 * MIN_NR, NR_KINDS = 3 };
	struct kmem_cache *cache = track_cache(t, kmem_cache_create("mempool-kind",
				OBJ_SIZE, 0, 0, NULL));
	struct kind_pool k[NR_KINDS] = {
		{ SLAB, NULL, cache, OBJ_SIZE, false },
		{ KMALLOC, NULL, NULL, KM_SIZE, false },
		{ PAGES, NULL, NULL, PAGE_SIZE << PAGE_ORDER, false },
	};
	struct {
		const u8 *start;
		size_t len;
	} ranges[NR_KINDS * PER_POOL];
	int nr = 0;

	k[0].pool = track_pool(t, mempool_create_slab_pool(MIN_NR, cache));
	k[1].pool = track_pool(t, mempool_create_kmalloc_pool(MIN_NR, KM_SIZE));
	k[2].pool = track_pool(t, mempool_create_page_pool(MIN_NR, PAGE_ORDER));
	for (int i = 0; i < NR_KINDS; i++) {
		struct stats s;

		/* MIN_NR from the allocator, then the reserve's MIN_NR. */
		for (int j = 0; j < PER_POOL; j++) {
			void *el;

			if (j == MIN_NR) {
				pool_stats(k[i].pool, &s);
				if (s.curr_nr != MIN_NR) {
					KTEST_FAIL(t, "%s pool: the reserve was drained to %d of %d while the allocator had memory: mempool_alloc() must try the allocator first",
						   kind_name(k[i].kind), s.curr_nr, MIN_NR);
					return;
				}
				fail_task_allocations(current, true);
			}
			el = take(k[i].pool, GFP_KERNEL);
			KTEST_ASSERT_NOT_NULL(t, el);
			expect_element_kind(t, &k[i], el);
			ranges[nr].start = element_memory(&k[i], el);
			ranges[nr].len = k[i].kind == KMALLOC ? ksize(el) : k[i].size;
			nr++;
		}
		fail_task_allocations(current, false);
		pool_stats(k[i].pool, &s);
		KTEST_EXPECT_EQ(t, s.from_reserve, (unsigned long)MIN_NR);
		KTEST_EXPECT_EQ(t, s.curr_nr, 0);
	}
	/* All distinct: no two overlap. */
	for (int i = 0; i < nr; i++)
		for (int j = i + 1; j < nr; j++)
			if (ranges[i].start < ranges[j].start + ranges[j].len &&
			    ranges[j].start < ranges[i].start + ranges[i].len)
				KTEST_FAIL(t, "elements %d (%p, %zu bytes) and %d (%p, %zu bytes) overlap",
					   i, ranges[i].start, ranges[i].len,
					   j, ranges[j].start, ranges[j].len);
}

/* ---- poison ------------------------------------------------------------------- */

/* Every reserve element holds the poison (called when the pool poisons). */
static void expect_reserve_poisoned(struct ktest *t, const struct kind_pool *k)
{
	unsigned long flags;
	int bad = 0, n;

	spin_lock_irqsave(&k->pool->lock, flags);
	n = k->pool->curr_nr;
	for (int i = 0; i < n; i++)
		bad += !poisoned(element_memory(k, k->pool->elements[i]), k->size);
	spin_unlock_irqrestore(&k->pool->lock, flags);
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_GT(t, n, 0);
}

/*
 * One element out of the reserve, as it was in it; then written and
 * given back: the reserve's last element again, poisoned anew if the
 * pool poisons, as written if not.
 */
static void poison_round_trip(struct ktest *t, const struct kind_pool *k)
{
	unsigned long flags;
	void *el, *last;
	u8 *mem;
	bool ok;

	if (k->poisons)
		expect_reserve_poisoned(t, k);
	fail_task_allocations(current, true);
	el = take(k->pool, GFP_ATOMIC);
	fail_task_allocations(current, false);
	KTEST_ASSERT_NOT_NULL(t, el);
	mem = element_memory(k, el);
	if (k->poisons)
		KTEST_EXPECT_TRUE(t, poisoned(mem, k->size));
	fill_pattern(mem, k->size, 0x5a);
	give(k->pool, el);

	spin_lock_irqsave(&k->pool->lock, flags);
	last = k->pool->elements[k->pool->curr_nr - 1];
	ok = k->poisons ? poisoned(mem, k->size) : holds_pattern(mem, k->size, 0x5a);
	spin_unlock_irqrestore(&k->pool->lock, flags);
	KTEST_EXPECT_PTR_EQ(t, last, el);
	if (!ok)
		KTEST_FAIL(t, "%s pool: a reserve element %s", kind_name(k->kind),
			   k->poisons ? "lacks the poison" : "was written by the pool");
}

static void reserve_elements_are_poisoned(struct ktest *t)
{
	enum { MIN_NR = 3, NR_POOLS = 4 };
	struct kmem_cache *poison = track_cache(t, kmem_cache_create("mempool-poison",
				OBJ_SIZE, 0, SLAB_POISON, NULL));
	struct kmem_cache *plain = track_cache(t, kmem_cache_create("mempool-plain",
				OBJ_SIZE, 0, 0, NULL));
	/* 64 bytes: slab_debug=P,size-64 poisons that kmalloc class alone. */
	struct kind_pool k[NR_POOLS] = {
		{ SLAB, NULL, poison, OBJ_SIZE, poison->flags & SLAB_POISON },
		{ SLAB, NULL, plain, OBJ_SIZE, plain->flags & SLAB_POISON },
		{ KMALLOC, NULL, NULL, 64, kmalloc_slab_for(64)->flags & SLAB_POISON },
		{ PAGES, NULL, NULL, PAGE_SIZE, page_poisoning },
	};

	KTEST_EXPECT_TRUE(t, k[0].poisons);
	k[0].pool = track_pool(t, mempool_create_slab_pool(MIN_NR, poison));
	k[1].pool = track_pool(t, mempool_create_slab_pool(MIN_NR, plain));
	k[2].pool = track_pool(t, mempool_create_kmalloc_pool(MIN_NR, 64));
	k[3].pool = track_pool(t, mempool_create_page_pool(MIN_NR, 0));
	for (int i = 0; i < NR_POOLS; i++)
		poison_round_trip(t, &k[i]);
	ktest_printf(t, "poisoning: slab SLAB_POISON yes, slab plain %s, kmalloc-64 %s, pages %s",
		     k[1].poisons ? "yes" : "no", k[2].poisons ? "yes" : "no",
		     k[3].poisons ? "yes" : "no");
}

/* ---- statistics ---------------------------------------------------------------- */

static void statistics_are_exact(struct ktest *t)
{
	enum { MIN_NR = 4 };
	struct stats want = { .min_nr = MIN_NR, .curr_nr = MIN_NR };
	unsigned long base = mempool_reserved_bytes(), bytes;
	struct kmem_cache *cache = track_cache(t, kmem_cache_create("mempool-stats",
				OBJ_SIZE, 0, 0, NULL));
	mempool_t *slab, *km, *pages;
	void *plenty[2], *reserve[MIN_NR];

	/* Each pool's reserve counts in full from its creation. */
	slab = track_pool(t, mempool_create_slab_pool(MIN_NR, cache));
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), base + MIN_NR * OBJ_SIZE);
	km = track_pool(t, mempool_create_kmalloc_pool(MIN_NR, KM_SIZE));
	bytes = base + MIN_NR * (OBJ_SIZE + KM_SIZE);
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), bytes);
	pages = track_pool(t, mempool_create_page_pool(MIN_NR, PAGE_ORDER));
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(),
			bytes + MIN_NR * (PAGE_SIZE << PAGE_ORDER));
	KTEST_ASSERT_TRUE(t, destroy_pool(t, pages));
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), bytes);

	/* Two from the allocator. */
	for (int i = 0; i < 2; i++)
		KTEST_ASSERT_NOT_NULL(t, plenty[i] = take(km, GFP_KERNEL));
	want.allocs = 2;
	want.out = 2;
	expect_stats(t, km, &want);
	/* The reserve, emptied, and one GFP_ATOMIC too many. */
	fail_task_allocations(current, true);
	for (int i = 0; i < MIN_NR; i++)
		KTEST_ASSERT_NOT_NULL(t, reserve[i] = take(km, GFP_ATOMIC));
	KTEST_EXPECT_NULL(t, take(km, GFP_ATOMIC));
	fail_task_allocations(current, false);
	want.allocs += MIN_NR;
	want.from_reserve = MIN_NR;
	want.out += MIN_NR;
	want.curr_nr = 0;
	want.fails = 1;
	expect_stats(t, km, &want);
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), base + MIN_NR * OBJ_SIZE);

	/* Frees refill the reserve first, whatever the element's origin. */
	give(km, plenty[0]);
	give(km, reserve[0]);
	want.out -= 2;
	want.curr_nr = 2;
	expect_stats(t, km, &want);
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), bytes - (MIN_NR - 2) * KM_SIZE);
	/* With a reserve not full, memory still comes from the allocator. */
	KTEST_ASSERT_NOT_NULL(t, plenty[0] = take(km, GFP_KERNEL));
	want.allocs++;
	want.out++;
	expect_stats(t, km, &want);
	give(km, plenty[0]);
	give(km, plenty[1]);
	for (int i = 1; i < MIN_NR; i++)
		give(km, reserve[i]);
	want.out = 0;
	want.curr_nr = MIN_NR;
	expect_stats(t, km, &want);
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), bytes);

	/* Destroyed, the reserves count no more. */
	KTEST_ASSERT_TRUE(t, destroy_pool(t, km));
	KTEST_ASSERT_TRUE(t, destroy_pool(t, slab));
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), base);
}

/* ---- cost ------------------------------------------------------------------------ */

static struct kmem_cache *bench_cache;

static bool cache_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = kmem_cache_alloc(bench_cache, GFP_KERNEL);

		if (!p)
			return false;
		kmem_cache_free(bench_cache, p);
	}
	return true;
}

static bool pool_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = mempool_alloc(sh.pool, GFP_KERNEL);

		if (!p)
			return false;
		mempool_free(p, sh.pool);
	}
	return true;
}

static void bench_mempool_against_its_cache(struct ktest *t)
{
	enum { MIN_NR = 4 };
	const unsigned long ops = (BENCH_RUNS + 1) * BENCH_OPS;
	struct stats want = { .min_nr = MIN_NR, .curr_nr = MIN_NR };
	struct bench_result bare, plenty, reserve;
	bool ok;

	bench_cache = track_cache(t, kmem_cache_create("mempool-bench", 64, 0, 0, NULL));
	sh.pool = track_pool(t, mempool_create_slab_pool(MIN_NR, bench_cache));
	KTEST_EXPECT_TRUE(t, bench_measure(cache_pairs, 0, BENCH_OPS, &bare));
	KTEST_EXPECT_TRUE(t, bench_measure(pool_pairs, 0, BENCH_OPS, &plenty));
	fail_task_allocations(current, true);
	ok = bench_measure(pool_pairs, 0, BENCH_OPS, &reserve);
	fail_task_allocations(current, false);
	KTEST_EXPECT_TRUE(t, ok);
	/* The plentiful runs never touched the reserve; the others always. */
	want.allocs = 2 * ops;
	want.from_reserve = ops;
	expect_stats(t, sh.pool, &want);
	if (t->failed)
		return;

	bench_print(t, "kmem_cache_alloc+kmem_cache_free, 64 bytes", &bare, "op");
	bench_print(t, "mempool_alloc+mempool_free, slab pool, memory plentiful",
		    &plenty, "op");
	bench_print(t, "mempool_alloc+mempool_free, every element from the reserve",
		    &reserve, "op");
	bench_print_ratio(t, "mempool (plentiful) / kmem_cache",
			  bench_ratio(&plenty, &bare),
			  "a measurement; the goal on real hardware is <= 1.2x");
	bench_print_ratio(t, "mempool (reserve) / kmem_cache",
			  bench_ratio(&reserve, &bare), "for reference");
}

/* ---- creation failing ------------------------------------------------------------ */

static void create_fails_cleanly(struct ktest *t)
{
	enum { MIN_NR = 4 };
	unsigned long base = mempool_reserved_bytes();
	unsigned long injected = nr_injected_failures();
	struct kmem_cache *cache = track_cache(t, kmem_cache_create("mempool-nocreate",
				OBJ_SIZE, 0, 0, NULL));

	/* Nothing can be allocated: not even the pool. */
	fail_task_allocations(current, true);
	KTEST_EXPECT_NULL(t, mempool_create_slab_pool(MIN_NR, cache));
	KTEST_EXPECT_NULL(t, mempool_create_kmalloc_pool(MIN_NR, KM_SIZE));
	KTEST_EXPECT_NULL(t, mempool_create_page_pool(MIN_NR, PAGE_ORDER));
	fail_task_allocations(current, false);
	KTEST_EXPECT_GE(t, nr_injected_failures() - injected, 3UL);

	/* The pool, and part of its reserve: what was taken goes back. */
	cnt.size = KM_SIZE;
	for (unsigned long got = 0; got < MIN_NR; got++) {
		unsigned long made = cnt.made, freed = cnt.freed;

		reset_calls(got);
		KTEST_EXPECT_NULL(t, mempool_create(MIN_NR, counting_alloc,
						    counting_free, &cnt));
		KTEST_EXPECT_EQ(t, calls(), got + 1);
		KTEST_EXPECT_EQ(t, cnt.made - made, got);
		KTEST_EXPECT_EQ(t, cnt.freed - freed, got);
	}
	KTEST_EXPECT_EQ(t, mempool_reserved_bytes(), base);
}

static const struct ktest_case mempool_cases[] = {
	KTEST_CASE(allocator_first_while_memory_lasts),
	KTEST_CASE(reserve_when_the_allocator_fails),
	KTEST_CASE(gfp_kernel_sleeps_until_another_cpu_frees),
	KTEST_CASE(frees_race_for_the_last_place),
	KTEST_CASE(interrupt_free_wakes_the_sleeper),
	KTEST_CASE(forward_progress_with_memory_exhausted),
	KTEST_CASE(resize_up_and_down),
	KTEST_CASE(sizes_that_overflow_fail),
	KTEST_CASE(resize_under_load),
	KTEST_CASE(elements_are_of_the_pool_kind),
	KTEST_CASE(reserve_elements_are_poisoned),
	KTEST_CASE(statistics_are_exact),
	KTEST_CASE(bench_mempool_against_its_cache),
	KTEST_CASE(create_fails_cleanly),
	KTEST_CASE(sleeper_retries_the_allocator_on_its_own),
	KTEST_END,
};

static const struct ktest_suite mempool_suite = {
	.name = "mempool",
	.init = mempool_test_init,
	.exit = mempool_test_exit,
	.cases = mempool_cases,
};
KTEST_SUITE(mempool_suite);
