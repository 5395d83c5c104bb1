/*
 * tests/torture_test.c - suite "torture": every allocator entry point at
 * once, from a timer on every online CPU while two kernel threads bound to
 * each CPU do the same, for a bounded time; then everything must add up.
 *
 * Owners.  On every online CPU: two threads (GFP_KERNEL-style masks, may
 * sleep, kmap and the KM_USER* slots) and one timer, re-armed each jiffy
 * from its own callback, that does OPS_PER_TICK steps in the tick's
 * interrupt (GFP_ATOMIC masks, the KM_IRQ* slots, never kmap).  Each owner
 * keeps RING blocks of each kind; a step picks a kind and a slot at
 * random (the timer's first step of a run, highmem when the boot has
 * some: a run of a few ticks may otherwise never draw it), checks and
 * frees what the slot holds, and allocates a new one:
 *  - pages: alloc_pages of orders 0..3, order 0 hot or cold (__GFP_COLD),
 *    freed by __free_pages, free_hot_page or free_cold_page; a quarter
 *    of them with __GFP_ZERO;
 *  - DMA pages: orders 0..1 with __GFP_DMA (when the boot has a DMA zone);
 *  - highmem: threads GFP_HIGHUSER or GFP_HIGHUSER | __GFP_ZERO, the timer
 *    GFP_ATOMIC | __GFP_HIGHMEM (2.6 never zeroed highmem for a caller
 *    that cannot sleep, so the timer does not ask), orders 0..1; a thread
 *    either keeps the block kmap()ped while it holds it or maps it with
 *    kmap_atomic(KM_USER0 or KM_USER1) for each look, the timer with
 *    KM_IRQ0 or KM_IRQ1;
 *  - objects of two private caches with constructors (40 bytes; 600
 *    bytes aligned to 64), kmem_cache_alloc/kmem_cache_free;
 *  - kmalloc/kfree of sizes across every size class (the timer up to
 *    8 KiB);
 *  - a private mempool over a third constructed cache, mempool_alloc with
 *    GFP_KERNEL (threads) or GFP_ATOMIC (timer).
 *
 * What each owner checks, counting what is wrong (the case reports it:
 * nothing is asserted in a timer or a helper thread):
 *  - pages: the block is naturally aligned, whole in one zone, its
 *    refcount 1; a HighMem page only for __GFP_HIGHMEM, a DMA page when
 *    __GFP_DMA asked; __GFP_ZERO memory is zero (scanned through
 *    kmap_atomic, page by page);
 *  - slab objects: aligned as their cache was asked, on a slab page of
 *    that cache, and in their constructor's state when handed out (the
 *    owner restores that state before it frees, as 2.6 requires);
 *  - kmalloc: ARCH_KMALLOC_MINALIGN and ksize() >= the size asked;
 *  - every block gets a pattern of its own (a serial number no other block
 *    shares) while it is held, checked before it is freed: two owners of
 *    one page or object, or a write by anyone else, break it.
 * A BUG or a validator report stops the boot, which is a failure too.
 *
 * Afterwards (every block freed, timers gone, threads done but not yet
 * stopped), with the slab caches reaped and the per-CPU lists drained:
 *  - per owner and kind, allocations == frees, and nothing failed (the
 *    run holds a few MiB at most, far above any watermark);
 *  - the zone counters moved by exactly what the run did: summed over the
 *    nodes, per zone type, nr_alloc_fast + nr_alloc_slow grew by the page
 *    allocations the owners made with that preferred zone plus the slabs
 *    every cache made (cache_grow_begin: one allocation each, DMA caches from
 *    DMA), and nr_alloc_fail not at all;
 *  - each private cache ran its constructor exactly num times per slab
 *    it made, and our constructors counted the same; the pool has nothing
 *    out, and mempool_allocs() grew by our successful mempool_alloc()s;
 *  - each zone's buddy free count plus its per-CPU pages before the drain
 *    equals its buddy count after the drain, which equals what it was
 *    before the run; check_all_zones() finds nothing wrong.
 *
 * Seeds: three cases, each with its own random choices derived from the
 * boot's seed and its name (ktest_random: each prints its replay line);
 * each owner's generator is seeded from them before anything starts.
 *
 * Time: torture.ms=N (default TORTURE_MS_DEFAULT: 12 ms, 100 under
 * ktest.soak=1; at most TORTURE_MS_MAX) is each case's run, counted in
 * jiffies.  The first CPU's timer ends the run (it sets stopping at the
 * first tick past it), not the case's thread, which would have to wait
 * for a slice of the busy threads on its CPU to wake up; every wait
 * after it is bounded (STOP_TIMEOUT), so a case takes N ms plus its
 * teardown, far inside the ktest limit.  An owner that has not taken a
 * step by then (a vCPU the host did not run) stretches the run by
 * EXTRA_TIMEOUT at most; one that never ran is noted, not failed: that
 * is the host's timing, not a bug.
 * The default boots run briefly; the torture boots of tests/boots.txt
 * ask for seconds.
 *
 * A boot without HighMem (under 896 MiB, or the host build) runs the
 * highmem kinds all the same - they get lowmem pages - and the case
 * highmem_kinds_got_highmem skips with the reason; likewise DMA pages are
 * left out, with a line saying so, when there is no DMA zone.
 */
#include "asm/page.h"
#include "kernel/cmdline.h"
#include "kernel/kmap_types.h"
#include "kernel/mutex.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/highmem.h"
#include "mm/internal.h"
#include "mm/mempool.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "mm/topology.h"
#include "tests/ktest.h"

/* Each case's run, unless torture.ms=: 12 ms, 100 under ktest.soak=1. */
#define TORTURE_MS_DEFAULT KTEST_SOAK(12u, 100u)
#define TORTURE_MS_MAX 10000
#define THREADS_PER_CPU 2
#define RING 4			/* blocks of each kind an owner keeps */
#define OPS_PER_TICK 2		/* the timer's steps per callback */
#define NAP_EVERY 2		/* jiffies between a thread's one-jiffy naps */
#define STOP_TIMEOUT (10 * HZ)	/* the longest any wait after the run */
#define EXTRA_TIMEOUT (5 * HZ)	/* the most the run is stretched for a late owner */
#define MIN_RAM_MIB 64
#define POOL_MIN 4
#define TIMER_KMALLOC_MAX 8192
#define CTOR_FILL 0xc7c7c7c7u
#define CTOR_TAG 0xc0c0a5a5UL

enum kind { K_PAGE, K_DMA, K_HIGH, K_CACHE, K_KMALLOC, K_POOL, NR_KINDS };

static const char *const kind_name[NR_KINDS] = {
	"page", "dma", "highmem", "cache", "kmalloc", "mempool",
};

/* How a page block is freed, or how a highmem block is looked at. */
enum { FREE_PAGES, FREE_HOT, FREE_COLD };
enum { MAP_ATOMIC0, MAP_ATOMIC1, MAP_KMAP };

static const size_t kmalloc_sizes[] = {
	1, 8, 31, 32, 33, 64, 96, 100, 128, 192, 256, 300, 512, 1000, 1024,
	2048, 4000, 4096, 8192, 16384, 32768, 65536, 131072,
};

/* One block held and the pattern it carries. */
struct block {
	struct page *page;	/* page kinds: the first page */
	void *addr;		/* object kinds: the object */
	size_t size;		/* object kinds: its size */
	gfp_t gfp;
	u32 seed;
	u8 order;
	u8 how_free;
	u8 map;
	u8 cache;		/* K_CACHE: which private cache */
};

/* A thread or a timer: what it holds, what it did, what it found wrong. */
struct owner {
	u64 rng;
	bool irq;		/* the timer's */
	int cpu;
	bool done;		/* a thread: released everything */
	struct block ring[NR_KINDS][RING];
	unsigned long steps;
	unsigned long allocs[NR_KINDS], frees[NR_KINDS], fails[NR_KINDS];
	unsigned long pref[MAX_NR_ZONES];	/* page allocations by preferred zone */
	unsigned long highmem, highmem_zeroed, highmem_kmapped;
	unsigned long errors;
	char first_error[128];
};

struct cpu_run {
	int cpu;
	struct owner tick;
	struct owner thr[THREADS_PER_CPU];
	struct task_struct *task[THREADS_PER_CPU];
	struct timer_list timer;
	struct completion tick_done;
	unsigned int ticks, wrong_cpu, not_in_irq, irqs_on;
};

/* A private cache with a constructor, and what it constructed. */
struct tcache {
	const char *name;
	size_t size, align;
	unsigned long flags;
	void (*ctor)(void *obj);
	struct kmem_cache *c;
	unsigned long ctor_calls;	/* our count (atomic) */
};

static void ctor_a(void *obj);
static void ctor_b(void *obj);
static void ctor_pool(void *obj);

/* [0], [1]: K_CACHE's; [2]: the pool's elements. */
static struct tcache tcaches[3] = {
	{ .name = "torture-a", .size = 40, .ctor = ctor_a },
	{ .name = "torture-b", .size = 600, .align = 64,
	  .flags = SLAB_HWCACHE_ALIGN, .ctor = ctor_b },
	{ .name = "torture-pool", .size = 96, .ctor = ctor_pool },
};
#define POOL_CACHE 2

static struct cpu_run runs[NR_CPUS];
static int nr_runs;
static mempool_t *pool;
static bool stopping;
static unsigned long run_end, extra_end;	/* jiffies: the run, stretched */
static bool stretched_out;	/* extra_end came with an owner still idle */
static struct completion run_over;	/* stopping is set */
static DECLARE_WAIT_QUEUE_HEAD(threads_done);	/* a thread has released all */
static bool have_dma, have_high;
static u32 next_serial;
static unsigned int run_ms_given;	/* torture.ms=, 0 when not given */
/* What the seed cases of this boot did with highmem, for the last case. */
static unsigned int seed_runs;
static unsigned long got_highmem_thread, got_highmem_tick, got_highmem_zeroed,
	got_highmem_kmapped;

static int torture_ms_setup(const char *val)
{
	unsigned int v;

	if (!val || kstrtouint(val, 0, &v) || v == 0 || v > TORTURE_MS_MAX)
		return -EINVAL;
	run_ms_given = v;
	return 0;
}
__setup("torture.ms", torture_ms_setup);

static unsigned int run_ms(void)
{
	return run_ms_given ? run_ms_given : TORTURE_MS_DEFAULT;
}

/* ---- helpers, run by every owner --------------------------------------- */

static u32 rnd(struct owner *o)
{
	/* xorshift64* */
	o->rng ^= o->rng >> 12;
	o->rng ^= o->rng << 25;
	o->rng ^= o->rng >> 27;
	return (u32)((o->rng * 0x2545f4914f6cdd1dULL) >> 32);
}

static __printf(2, 3) void owner_error(struct owner *o, const char *fmt, ...)
{
	va_list args;

	if (o->errors++)
		return;
	va_start(args, fmt);
	vscnprintf(o->first_error, sizeof(o->first_error), fmt, args);
	va_end(args);
}

static u32 pattern_word(u32 seed, size_t i)
{
	return seed ^ ((u32)i * 2654435761u);
}

/* Whole up to a page; a word in STRIDE (and the last) above that. */
static size_t stride_for(size_t words)
{
	return words <= PAGE_SIZE / sizeof(u32) ? 1 : 61;
}

static void fill_words(u32 *p, size_t n, u32 seed, size_t base)
{
	size_t s = stride_for(n);

	for (size_t i = 0; i < n; i += s)
		p[i] = pattern_word(seed, base + i);
	p[n - 1] = pattern_word(seed, base + n - 1);
}

static bool words_intact(const u32 *p, size_t n, u32 seed, size_t base)
{
	size_t s = stride_for(n);

	for (size_t i = 0; i < n; i += s)
		if (p[i] != pattern_word(seed, base + i))
			return false;
	return p[n - 1] == pattern_word(seed, base + n - 1);
}

static u32 new_seed(void)
{
	return __atomic_add_fetch(&next_serial, 1, __ATOMIC_RELAXED) *
	       0x9e3779b9u;
}

/* ---- pages ------------------------------------------------------------- */

/*
 * The slot for a look at b: by the context we run in, not by the block's
 * owner, since a task releases what the timer left (owner_release_all).
 */
static enum km_type atomic_slot(const struct block *b)
{
	return kmap_atomic_type(b->map == MAP_ATOMIC1);
}

/* Page i of b, mapped for a look: kmap'ed already, or a kmap_atomic slot. */
static u32 *map_one(const struct block *b, unsigned int i)
{
	if (b->map == MAP_KMAP)
		return page_address(b->page + i);
	return kmap_atomic(b->page + i, atomic_slot(b));
}

static void unmap_one(const struct block *b, u32 *p)
{
	if (b->map != MAP_KMAP)
		kunmap_atomic(p, atomic_slot(b));
}

static void check_new_block(struct owner *o, struct block *b)
{
	unsigned long pfn = page_to_pfn(b->page), n = 1UL << b->order;
	struct zone *z = page_zone(b->page);
	bool high = PageHighMem(b->page);

	if (pfn & (n - 1))
		owner_error(o, "order-%u block at pfn %#lx is not aligned",
			    b->order, pfn);
	if (page_zone(b->page + n - 1) != z)
		owner_error(o, "order-%u block at pfn %#lx spans two zones",
			    b->order, pfn);
	if (page_count(b->page) != 1)
		owner_error(o, "pfn %#lx handed out with refcount %d", pfn,
			    page_count(b->page));
	if (is_highmem(z) != high)
		owner_error(o, "pfn %#lx: zone %s but PageHighMem %d", pfn,
			    z->name, high);
	if (high && !(b->gfp & __GFP_HIGHMEM))
		owner_error(o, "HighMem pfn %#lx for mode %#x without __GFP_HIGHMEM",
			    pfn, b->gfp);
	if ((b->gfp & __GFP_DMA) && zone_idx(z) != ZONE_DMA)
		owner_error(o, "pfn %#lx from %s for mode %#x with __GFP_DMA",
			    pfn, z->name, b->gfp);
}

/* The new block: zero if asked, then each page gets the pattern. */
static void stamp_block(struct owner *o, struct block *b)
{
	const size_t words = PAGE_SIZE / sizeof(u32);

	for (unsigned int i = 0; i < (1U << b->order); i++) {
		u32 *p = map_one(b, i);

		if (b->gfp & __GFP_ZERO) {
			for (size_t w = 0; w < words; w++)
				if (p[w]) {
					owner_error(o, "__GFP_ZERO pfn %#lx (mode %#x) holds %#x at byte %zu",
						    page_to_pfn(b->page + i), b->gfp,
						    p[w], w * sizeof(u32));
					break;
				}
		}
		fill_words(p, words, b->seed, i * words);
		unmap_one(b, p);
	}
}

static void verify_block(struct owner *o, const struct block *b)
{
	const size_t words = PAGE_SIZE / sizeof(u32);

	for (unsigned int i = 0; i < (1U << b->order); i++) {
		u32 *p = map_one(b, i);
		bool ok = words_intact(p, words, b->seed, i * words);

		unmap_one(b, p);
		if (!ok) {
			owner_error(o, "pfn %#lx (order %u, mode %#x) lost its pattern: two owners?",
				    page_to_pfn(b->page + i), b->order, b->gfp);
			return;
		}
	}
}

static gfp_t page_gfp(struct owner *o, enum kind k, struct block *b)
{
	gfp_t base = o->irq ? GFP_ATOMIC : GFP_KERNEL;

	switch (k) {
	case K_PAGE:
		b->order = (u8)(rnd(o) % 4);
		if (rnd(o) % 4 == 0)
			base |= __GFP_ZERO;
		if (b->order == 0 && rnd(o) % 3 == 0)
			base |= __GFP_COLD;
		return base;
	case K_DMA:
		b->order = (u8)(rnd(o) % 2);
		return base | __GFP_DMA;
	default:	/* K_HIGH */
		b->order = (u8)(rnd(o) % 2);
		if (o->irq)
			return GFP_ATOMIC | __GFP_HIGHMEM;
		return rnd(o) & 1 ? GFP_HIGHUSER | __GFP_ZERO : GFP_HIGHUSER;
	}
}

static void take_pages(struct owner *o, enum kind k, struct block *b)
{
	struct zone *pref;

	b->gfp = page_gfp(o, k, b);
	/* The zonelist alloc_pages() will use: the owner's CPU's node (a
	 * thread is bound there, a timer runs there). */
	pref = node_zonelist(cpu_to_node(o->cpu), b->gfp)->zones[0];
	b->page = alloc_pages(b->gfp, b->order);
	if (!b->page) {
		o->fails[k]++;
		return;
	}
	o->allocs[k]++;
	if (pref)
		o->pref[zone_idx(pref)]++;
	b->seed = new_seed();
	b->how_free = b->order ? FREE_PAGES : (u8)(rnd(o) % 3);
	b->map = o->irq ? (u8)(rnd(o) % 2) : (u8)(rnd(o) % 3);
	check_new_block(o, b);
	if (PageHighMem(b->page)) {
		o->highmem++;
		if (b->gfp & __GFP_ZERO)
			o->highmem_zeroed++;
		if (b->map == MAP_KMAP)
			o->highmem_kmapped++;
	}
	if (b->map == MAP_KMAP)
		for (unsigned int i = 0; i < (1U << b->order); i++)
			if (kmap(b->page + i) != page_address(b->page + i))
				owner_error(o, "kmap of pfn %#lx disagrees with page_address",
					    page_to_pfn(b->page + i));
	stamp_block(o, b);
}

static void drop_pages(struct owner *o, struct block *b)
{
	verify_block(o, b);
	if (b->map == MAP_KMAP)
		for (unsigned int i = 0; i < (1U << b->order); i++)
			kunmap(b->page + i);
	if (b->how_free == FREE_HOT)
		free_hot_page(b->page);
	else if (b->how_free == FREE_COLD)
		free_cold_page(b->page);
	else
		__free_pages(b->page, b->order);
	b->page = NULL;
}

/* ---- constructed objects ----------------------------------------------- */

/* An object of a constructed cache: a tag naming its address, then fill. */
static size_t body_words(size_t size)
{
	return (size - sizeof(unsigned long)) / sizeof(u32);
}

static u32 *obj_body(void *obj)
{
	return (u32 *)((unsigned long *)obj + 1);
}

static void construct(struct tcache *tc, void *obj)
{
	u32 *body = obj_body(obj);

	*(unsigned long *)obj = CTOR_TAG ^ (unsigned long)obj;
	for (size_t i = 0; i < body_words(tc->size); i++)
		body[i] = CTOR_FILL;
	__atomic_add_fetch(&tc->ctor_calls, 1, __ATOMIC_RELAXED);
}

static void ctor_a(void *obj) { construct(&tcaches[0], obj); }
static void ctor_b(void *obj) { construct(&tcaches[1], obj); }
static void ctor_pool(void *obj) { construct(&tcaches[2], obj); }

static void check_constructed(struct owner *o, struct tcache *tc, void *obj)
{
	const u32 *body = obj_body(obj);
	struct page *page;

	if (tc->align && !IS_ALIGNED((unsigned long)obj, tc->align))
		owner_error(o, "%s: object %p not aligned to %zu", tc->name, obj,
			    tc->align);
	if (!IS_ALIGNED((unsigned long)obj, sizeof(unsigned long)))
		owner_error(o, "%s: object %p not word aligned", tc->name, obj);
	page = virt_to_page(obj);
	if (!PageSlab(page) || page_get_cache(page) != tc->c)
		owner_error(o, "%s: object %p is not on a slab of its cache",
			    tc->name, obj);
	if (*(unsigned long *)obj != (CTOR_TAG ^ (unsigned long)obj)) {
		owner_error(o, "%s: object %p handed out without its constructor's tag (%#lx)",
			    tc->name, obj, *(unsigned long *)obj);
		return;
	}
	for (size_t i = 0; i < body_words(tc->size); i++)
		if (body[i] != CTOR_FILL) {
			owner_error(o, "%s: object %p handed out with word %zu = %#x, not the constructor's",
				    tc->name, obj, i, body[i]);
			return;
		}
}

/* Before the free: the pattern must be there; the constructed state back. */
static void unconstruct(struct owner *o, struct tcache *tc, struct block *b)
{
	u32 *body = obj_body(b->addr);
	size_t n = body_words(tc->size);

	if (*(unsigned long *)b->addr != (CTOR_TAG ^ (unsigned long)b->addr) ||
	    !words_intact(body, n, b->seed, 0))
		owner_error(o, "%s: object %p lost its pattern: two owners?",
			    tc->name, b->addr);
	for (size_t i = 0; i < n; i++)
		body[i] = CTOR_FILL;
}

static void take_object(struct owner *o, enum kind k, struct block *b)
{
	gfp_t gfp = o->irq ? GFP_ATOMIC : GFP_KERNEL;
	struct tcache *tc;

	if (k == K_KMALLOC) {
		size_t n = ARRAY_SIZE(kmalloc_sizes);

		do {
			b->size = kmalloc_sizes[rnd(o) % n];
		} while (o->irq && b->size > TIMER_KMALLOC_MAX);
		b->addr = kmalloc(b->size, gfp);
		if (!b->addr) {
			o->fails[k]++;
			return;
		}
		o->allocs[k]++;
		if (!IS_ALIGNED((unsigned long)b->addr, ARCH_KMALLOC_MINALIGN))
			owner_error(o, "kmalloc(%zu) = %p: not aligned to %d",
				    b->size, b->addr, ARCH_KMALLOC_MINALIGN);
		if (ksize(b->addr) < b->size)
			owner_error(o, "kmalloc(%zu) = %p: ksize %zu", b->size,
				    b->addr, ksize(b->addr));
		b->seed = new_seed();
		if (b->size >= sizeof(u32))
			fill_words(b->addr, b->size / sizeof(u32), b->seed, 0);
		return;
	}
	if (k == K_POOL) {
		tc = &tcaches[POOL_CACHE];
		b->addr = mempool_alloc(pool, (int)gfp);
	} else {
		b->cache = (u8)(rnd(o) & 1);
		tc = &tcaches[b->cache];
		b->addr = kmem_cache_alloc(tc->c, gfp);
	}
	if (!b->addr) {
		o->fails[k]++;
		return;
	}
	o->allocs[k]++;
	check_constructed(o, tc, b->addr);
	b->seed = new_seed();
	fill_words(obj_body(b->addr), body_words(tc->size), b->seed, 0);
}

static void drop_object(struct owner *o, enum kind k, struct block *b)
{
	if (k == K_KMALLOC) {
		if (b->size >= sizeof(u32) &&
		    !words_intact(b->addr, b->size / sizeof(u32), b->seed, 0))
			owner_error(o, "kmalloc(%zu) %p lost its pattern: two owners?",
				    b->size, b->addr);
		kfree(b->addr);
	} else if (k == K_POOL) {
		unconstruct(o, &tcaches[POOL_CACHE], b);
		mempool_free(b->addr, pool);
	} else {
		unconstruct(o, &tcaches[b->cache], b);
		kmem_cache_free(tcaches[b->cache].c, b->addr);
	}
	b->addr = NULL;
}

/* ---- an owner's step --------------------------------------------------- */

static bool held(const struct block *b)
{
	return b->page || b->addr;
}

static void drop(struct owner *o, enum kind k, struct block *b)
{
	if (!held(b))
		return;
	if (k <= K_HIGH)
		drop_pages(o, b);
	else
		drop_object(o, k, b);
	o->frees[k]++;
}

/* A step of kind k (K_DMA is K_PAGE without a DMA zone), a random slot. */
static void owner_step_kind(struct owner *o, enum kind k)
{
	struct block *b;

	if (k == K_DMA && !have_dma)
		k = K_PAGE;
	b = &o->ring[k][rnd(o) % RING];
	drop(o, k, b);
	memset(b, 0, sizeof(*b));
	if (k <= K_HIGH)
		take_pages(o, k, b);
	else
		take_object(o, k, b);
	WRITE_ONCE(o->steps, o->steps + 1);	/* all_owners_stepped() */
}

static void owner_step(struct owner *o)
{
	owner_step_kind(o, (enum kind)(rnd(o) % NR_KINDS));
}

static void owner_release_all(struct owner *o)
{
	for (int k = 0; k < NR_KINDS; k++)
		for (int i = 0; i < RING; i++)
			drop(o, (enum kind)k, &o->ring[k][i]);
}

/* ---- threads and timers ------------------------------------------------ */

static int torture_thread(void *data)
{
	struct owner *o = data;
	unsigned long nap = jiffies + NAP_EVERY;

	while (!READ_ONCE(stopping)) {
		owner_step(o);
		/* Busy most of the time, so the tick and the other thread
		 * interrupt and preempt it in the middle of everything. */
		if (time_after(jiffies, nap)) {
			/* The case's wake-up at the end cuts it short. */
			schedule_timeout_uninterruptible(1);
			nap = jiffies + NAP_EVERY;
		} else {
			cond_resched();
		}
	}
	owner_release_all(o);
	WRITE_ONCE(o->done, true);
	wake_up(&threads_done);
	ktest_park_until_stopped();
	return 0;
}

static bool all_owners_stepped(void);

static void torture_tick(unsigned long data)
{
	struct cpu_run *r = (struct cpu_run *)data;

	if (smp_processor_id() != r->cpu)
		r->wrong_cpu++;
	if (!in_interrupt())
		r->not_in_irq++;
	if (!irqs_disabled())
		r->irqs_on++;
	r->ticks++;
	/* The first CPU's timer ends the run: at run_end, once every owner
	 * has taken a step (extra_end at the latest). */
	if (r == &runs[0] && !READ_ONCE(stopping) &&
	    time_after_eq(jiffies, run_end)) {
		bool stepped = all_owners_stepped();

		if (stepped || time_after_eq(jiffies, extra_end)) {
			stretched_out = !stepped;
			WRITE_ONCE(stopping, true);
			complete(&run_over);
		}
	}
	if (READ_ONCE(stopping)) {
		complete(&r->tick_done);	/* and no more re-arming */
		return;
	}
	for (int i = 0; i < OPS_PER_TICK; i++) {
		/* HighMem in every run's timer (highmem_kinds_got_highmem). */
		if (!r->tick.steps && have_high)
			owner_step_kind(&r->tick, K_HIGH);
		else
			owner_step(&r->tick);
	}
	mod_timer(&r->timer, jiffies + 1);
}

/* ---- counters ---------------------------------------------------------- */

struct snapshot {
	unsigned long allocs[MAX_NR_ZONES], fails[MAX_NR_ZONES];
	unsigned long grown[MAX_NR_ZONES];	/* slabs made, by preferred zone */
	unsigned long cache_grown[ARRAY_SIZE(tcaches)];
	unsigned long cache_ctor[ARRAY_SIZE(tcaches)];
	unsigned long our_ctor[ARRAY_SIZE(tcaches)];
	unsigned long pool_allocs;
};

static void take_snapshot(struct snapshot *s)
{
	struct kmem_cache *c;
	struct zone *z;
	int nid;

	memset(s, 0, sizeof(*s));
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			s->allocs[zone_idx(z)] += zone_stat_read(z, NR_ALLOC_FAST) +
						  zone_stat_read(z, NR_ALLOC_SLOW);
			s->fails[zone_idx(z)] += zone_stat_read(z, NR_ALLOC_FAIL);
		}
	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(c, &cache_chain, next)
		s->grown[(c->gfpflags & __GFP_DMA) ? ZONE_DMA : ZONE_NORMAL] +=
			READ_ONCE(c->grown);
	mutex_unlock(&cache_chain_mutex);
	for (unsigned int i = 0; i < ARRAY_SIZE(tcaches); i++) {
		s->cache_grown[i] = READ_ONCE(tcaches[i].c->grown);
		s->cache_ctor[i] = READ_ONCE(tcaches[i].c->ctor_calls);
		s->our_ctor[i] = __atomic_load_n(&tcaches[i].ctor_calls,
						 __ATOMIC_RELAXED);
	}
	s->pool_allocs = mempool_allocs(pool);
}

/* Each zone's buddy free count and, if pcp, its pages on per-CPU lists. */
static void count_free(unsigned long free[MAX_NUMNODES][MAX_NR_ZONES],
		       unsigned long pcp[MAX_NUMNODES][MAX_NR_ZONES])
{
	struct zone *z;
	int nid, cpu;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			unsigned long flags, n = 0;

			spin_lock_irqsave(&z->lock, flags);
			free[nid][zone_idx(z)] = z->free_pages;
			spin_unlock_irqrestore(&z->lock, flags);
			for_each_online_cpu(cpu)
				n += (unsigned long)READ_ONCE(z->pageset[cpu].pcp[0].count) +
				     (unsigned long)READ_ONCE(z->pageset[cpu].pcp[1].count);
			if (pcp)
				pcp[nid][zone_idx(z)] = n;
		}
}

/* ---- the case ---------------------------------------------------------- */

static void stop_threads(void)
{
	for (int i = 0; i < nr_runs; i++)
		for (int j = 0; j < THREADS_PER_CPU; j++)
			if (runs[i].task[j]) {
				kthread_stop(runs[i].task[j]);
				runs[i].task[j] = NULL;
			}
}

static void wake_threads(void)
{
	for (int i = 0; i < nr_runs; i++)
		for (int j = 0; j < THREADS_PER_CPU; j++)
			if (runs[i].task[j])
				wake_up_process(runs[i].task[j]);
}

static bool all_threads_done(void)
{
	for (int i = 0; i < nr_runs; i++)
		for (int j = 0; j < THREADS_PER_CPU; j++)
			if (runs[i].task[j] && !READ_ONCE(runs[i].thr[j].done))
				return false;
	return true;
}

/* Every owner has taken a step (a host may leave a vCPU unscheduled). */
static bool all_owners_stepped(void)
{
	for (int i = 0; i < nr_runs; i++) {
		if (!READ_ONCE(runs[i].tick.steps))
			return false;
		for (int j = 0; j < THREADS_PER_CPU; j++)
			if (!READ_ONCE(runs[i].thr[j].steps))
				return false;
	}
	return true;
}

static void report_owner(struct ktest *t, const char *who, int cpu,
			 const struct owner *o)
{
	for (int k = 0; k < NR_KINDS; k++) {
		if (o->allocs[k] != o->frees[k])
			KTEST_FAIL(t, "CPU %d %s: %lu %s allocations, %lu frees",
				   cpu, who, o->allocs[k], kind_name[k], o->frees[k]);
		if (o->fails[k])
			KTEST_FAIL(t, "CPU %d %s: %lu of %lu %s allocations failed",
				   cpu, who, o->fails[k], o->fails[k] + o->allocs[k],
				   kind_name[k]);
	}
	if (o->errors)
		KTEST_FAIL(t, "CPU %d %s: %lu errors, the first: %s", cpu, who,
			   o->errors, o->first_error);
}

static void torture_run(struct ktest *t)
{
	static unsigned long free_before[MAX_NUMNODES][MAX_NR_ZONES],
		free_after[MAX_NUMNODES][MAX_NR_ZONES],
		pcp_after[MAX_NUMNODES][MAX_NR_ZONES],
		free_drained[MAX_NUMNODES][MAX_NR_ZONES];
	unsigned long pref[MAX_NR_ZONES] = { 0 }, allocs[NR_KINDS] = { 0 };
	unsigned long steps = 0, ticks = 0, pool_allocs = 0, start, ran;
	unsigned long flushes = kmap_window_flushes(), sleeps = kmap_sleeps();
	struct snapshot before, after;
	char why[128];
	u64 seed;
	int cpu;

	seed = (u64)ktest_random(t) << 32 | ktest_random(t);
	memset(runs, 0, sizeof(runs));
	nr_runs = 0;
	WRITE_ONCE(stopping, false);
	stretched_out = false;
	init_completion(&run_over);

	/* Threads made (not yet running) and owners seeded before counting. */
	for_each_online_cpu(cpu) {
		struct cpu_run *r = &runs[nr_runs++];

		r->cpu = cpu;
		r->tick.irq = true;
		r->tick.cpu = cpu;
		r->tick.rng = ((u64)ktest_random(t) << 32 | ktest_random(t)) | 1;
		init_completion(&r->tick_done);
		setup_timer(&r->timer, torture_tick, (unsigned long)r);
		for (int j = 0; j < THREADS_PER_CPU; j++) {
			struct task_struct *k;

			r->thr[j].cpu = cpu;
			r->thr[j].rng = ((u64)ktest_random(t) << 32 |
					 ktest_random(t)) | 1;
			k = kthread_create_on_cpu(torture_thread, &r->thr[j],
						  (unsigned int)cpu,
						  "torture/%d.%d", cpu, j);
			if (IS_ERR(k)) {
				KTEST_FAIL(t, "kthread_create_on_cpu(%d): %ld", cpu,
					   PTR_ERR(k));
				/* kthread_stop() wakes them: they stop at once. */
				WRITE_ONCE(stopping, true);
				stop_threads();
				return;
			}
			r->task[j] = k;
		}
	}
	ktest_printf(t, "seed %#llx: %d CPU%s, %d threads and a timer each, %u ms%s%s",
		     (unsigned long long)seed, nr_runs, nr_runs > 1 ? "s" : "",
		     THREADS_PER_CPU, run_ms(),
		     have_high ? "" : "; no HighMem zone: the highmem kinds get lowmem",
		     have_dma ? "" : "; no DMA zone: no __GFP_DMA blocks");

	kmem_cache_reap_all();
	drain_all_pages();
	count_free(free_before, NULL);
	take_snapshot(&before);

	start = jiffies;
	/* An overcommitted host may not have run some vCPU by run_end: a
	 * little longer, bounded, so that every owner has been in the fray. */
	run_end = start + msecs_to_jiffies(run_ms());
	extra_end = run_end + EXTRA_TIMEOUT;
	/*
	 * Every thread woken and every timer armed before any of them runs:
	 * a thread woken on this CPU would otherwise take it at once
	 * (wake-up preemption) and hold back the rest, the timers too.
	 */
	preempt_disable();
	for (int i = 0; i < nr_runs; i++)
		for (int j = 0; j < THREADS_PER_CPU; j++)
			wake_up_process(runs[i].task[j]);
	for (int i = 0; i < nr_runs; i++) {
		runs[i].timer.expires = jiffies + 1;
		add_timer_on(&runs[i].timer, runs[i].cpu);
	}
	preempt_enable();
	if (!wait_for_completion_timeout(&run_over, msecs_to_jiffies(run_ms()) +
						    EXTRA_TIMEOUT + STOP_TIMEOUT))
		KTEST_FAIL(t, "the first CPU's timer did not end the run within %d s of its end",
			   (EXTRA_TIMEOUT + STOP_TIMEOUT) / HZ);
	WRITE_ONCE(stopping, true);
	ran = jiffies - start;
	if (stretched_out)
		ktest_printf(t, "slow host: not every owner ran within %u ms more (noted, not failed)",
			     jiffies_to_msecs(EXTRA_TIMEOUT));

	for (int i = 0; i < nr_runs; i++) {
		if (!wait_for_completion_timeout(&runs[i].tick_done, STOP_TIMEOUT))
			KTEST_FAIL(t, "CPU %d: the timer did not stop within %d s",
				   runs[i].cpu, STOP_TIMEOUT / HZ);
		del_timer_sync(&runs[i].timer);
		KTEST_EXPECT_FALSE(t, timer_pending(&runs[i].timer));
		owner_release_all(&runs[i].tick);
	}
	wake_threads();		/* out of their naps */
	if (!wait_event_timeout(threads_done, all_threads_done(), STOP_TIMEOUT))
		KTEST_FAIL(t, "the threads did not release everything within %d s",
			   STOP_TIMEOUT / HZ);

	/* Everything is back; nothing else allocates.  Count, then drain. */
	take_snapshot(&after);
	kmem_cache_reap_all();
	count_free(free_after, pcp_after);
	drain_all_pages();
	count_free(free_drained, NULL);
	stop_threads();

	for (int i = 0; i < nr_runs; i++) {
		struct cpu_run *r = &runs[i];
		unsigned long thread_steps = 0;

		KTEST_EXPECT_EQ(t, r->wrong_cpu, 0u);
		KTEST_EXPECT_EQ(t, r->not_in_irq, 0u);
		KTEST_EXPECT_EQ(t, r->irqs_on, 0u);
		if (!r->tick.steps)
			ktest_printf(t, "CPU %d: the timer never ran a step (%u callbacks): a slow host",
				     r->cpu, r->ticks);
		report_owner(t, "timer", r->cpu, &r->tick);
		for (int j = 0; j < THREADS_PER_CPU; j++) {
			struct owner *o = &r->thr[j];

			if (!o->steps)
				ktest_printf(t, "CPU %d thread %d never ran a step: a slow host",
					     r->cpu, j);
			report_owner(t, "thread", r->cpu, o);
			thread_steps += o->steps;
		}
		ticks += r->ticks;
		for (int n = 0; n <= THREADS_PER_CPU; n++) {
			struct owner *o = n ? &r->thr[n - 1] : &r->tick;

			steps += o->steps;
			for (int k = 0; k < NR_KINDS; k++)
				allocs[k] += o->allocs[k];
			for (int z = 0; z < MAX_NR_ZONES; z++)
				pref[z] += o->pref[z];
			if (n)
				got_highmem_thread += o->highmem;
			else
				got_highmem_tick += o->highmem;
			got_highmem_zeroed += o->highmem_zeroed;
			got_highmem_kmapped += o->highmem_kmapped;
		}
		ktest_printf(t, "CPU %d: %u ticks, %lu timer steps, %lu thread steps",
			     r->cpu, r->ticks, r->tick.steps, thread_steps);
	}
	pool_allocs = allocs[K_POOL];

	/* The zone counters: exactly the owners' pages and the slabs made. */
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		unsigned long want = pref[z] + after.grown[z] - before.grown[z];
		unsigned long got = after.allocs[z] - before.allocs[z];

		if (got != want)
			KTEST_FAIL(t, "%s: nr_alloc_fast + nr_alloc_slow grew by %lu; the run made %lu page allocations there and %lu slabs",
				   zone_names[z], got, pref[z],
				   after.grown[z] - before.grown[z]);
		KTEST_EXPECT_EQ(t, after.fails[z] - before.fails[z], 0UL);
	}
	/* Constructors: once per object of each slab made, all counted. */
	for (unsigned int i = 0; i < ARRAY_SIZE(tcaches); i++) {
		unsigned long made = after.cache_grown[i] - before.cache_grown[i];

		KTEST_EXPECT_EQ(t, after.cache_ctor[i] - before.cache_ctor[i],
				made * tcaches[i].c->num);
		KTEST_EXPECT_EQ(t, after.our_ctor[i] - before.our_ctor[i],
				made * tcaches[i].c->num);
	}
	KTEST_EXPECT_EQ(t, mempool_out(pool), 0L);
	KTEST_EXPECT_EQ(t, after.pool_allocs - before.pool_allocs, pool_allocs);

	/* The per-CPU lists drained back give each zone what it had. */
	KTEST_EXPECT_EQ(t, nr_pcp_pages(), 0UL);
	for (int nid = 0; nid < nr_online_nodes; nid++)
		for (int z = 0; z < MAX_NR_ZONES; z++) {
			if (free_after[nid][z] + pcp_after[nid][z] != free_drained[nid][z])
				KTEST_FAIL(t, "node %d %s: %lu buddy + %lu per-CPU pages before the drain, %lu after it",
					   nid, zone_names[z], free_after[nid][z],
					   pcp_after[nid][z], free_drained[nid][z]);
			if (free_drained[nid][z] != free_before[nid][z])
				KTEST_FAIL(t, "node %d %s: %lu free pages before the run, %lu after",
					   nid, zone_names[z], free_before[nid][z],
					   free_drained[nid][z]);
		}
	if (check_all_zones(why, sizeof(why)))
		KTEST_FAIL(t, "zone checker: %s", why);

	KTEST_EXPECT_GT(t, steps, 0UL);
	ktest_printf(t, "%lu steps in %lu ms (%lu ticks): pages %lu, dma %lu, highmem %lu, cache %lu, kmalloc %lu, mempool %lu",
		     steps, (unsigned long)jiffies_to_msecs(ran), ticks,
		     allocs[K_PAGE], allocs[K_DMA], allocs[K_HIGH],
		     allocs[K_CACHE], allocs[K_KMALLOC], allocs[K_POOL]);
	ktest_printf(t, "page allocations by preferred zone: DMA %lu, Normal %lu, HighMem %lu; slabs made %lu",
		     pref[ZONE_DMA], pref[ZONE_NORMAL], pref[ZONE_HIGHMEM],
		     after.grown[ZONE_DMA] + after.grown[ZONE_NORMAL] -
			     before.grown[ZONE_DMA] - before.grown[ZONE_NORMAL]);
	ktest_printf(t, "kmap: the window flushed on every CPU %lu times, %lu sleeps for a slot",
		     kmap_window_flushes() - flushes, kmap_sleeps() - sleeps);
	seed_runs++;
}

static void seed_0(struct ktest *t) { torture_run(t); }
static void seed_1(struct ktest *t) { torture_run(t); }
static void seed_2(struct ktest *t) { torture_run(t); }

/*
 * With a HighMem zone, the seed cases of this boot got HighMem pages in
 * the threads and in the timer, zeroed ones, and kmap()ped ones.
 */
static void highmem_kinds_got_highmem(struct ktest *t)
{
	if (!have_high)
		ktest_skip(t, "no HighMem zone in this boot (needs -m 1G or more; none on the host build)");
	if (!seed_runs)
		ktest_skip(t, "no seed case ran in this boot (filtered out)");
	ktest_printf(t, "%u runs: %lu HighMem blocks in threads (%lu zeroed, %lu kmapped), %lu in timers",
		     seed_runs, got_highmem_thread, got_highmem_zeroed,
		     got_highmem_kmapped, got_highmem_tick);
	KTEST_EXPECT_GT(t, got_highmem_thread, 0UL);
	KTEST_EXPECT_GT(t, got_highmem_zeroed, 0UL);
	KTEST_EXPECT_GT(t, got_highmem_kmapped, 0UL);
	KTEST_EXPECT_GT(t, got_highmem_tick, 0UL);
}

/* ---- suite set-up ------------------------------------------------------ */

static bool zone_type_present(enum zone_type type)
{
	int nid;

	for_each_online_node(nid)
		if (populated_zone(&NODE_DATA(nid)->node_zones[type]))
			return true;
	return false;
}

static const char *torture_skip_if(void)
{
	if (totalram_pages() < ((unsigned long)MIN_RAM_MIB << (20 - PAGE_SHIFT)))
		return "needs 64 MiB of RAM or more";
	return NULL;
}

static int torture_init(struct ktest *t)
{
	have_high = zone_type_present(ZONE_HIGHMEM) && totalhigh_pages() > 0;
	/* Plenty of DMA memory, or no __GFP_DMA: it is small, and scarce. */
	have_dma = zone_type_present(ZONE_DMA) &&
		   NODE_DATA(0)->node_zones[ZONE_DMA].free_pages > 1024;
	for (unsigned int i = 0; i < ARRAY_SIZE(tcaches); i++) {
		struct tcache *tc = &tcaches[i];

		tc->c = kmem_cache_create(tc->name, tc->size, tc->align,
					  tc->flags, tc->ctor);
		if (!tc->c) {
			KTEST_FAIL(t, "kmem_cache_create(%s) failed", tc->name);
			while (i--) {
				kmem_cache_destroy(tcaches[i].c);
				tcaches[i].c = NULL;
			}
			return -1;
		}
	}
	pool = mempool_create_slab_pool(POOL_MIN, tcaches[POOL_CACHE].c);
	if (!pool) {
		KTEST_FAIL(t, "mempool_create_slab_pool failed");
		for (unsigned int i = 0; i < ARRAY_SIZE(tcaches); i++) {
			kmem_cache_destroy(tcaches[i].c);
			tcaches[i].c = NULL;
		}
		return -1;
	}
	return 0;
}

static void torture_exit(struct ktest *t)
{
	mempool_destroy(pool);
	pool = NULL;
	for (unsigned int i = 0; i < ARRAY_SIZE(tcaches); i++) {
		kmem_cache_destroy(tcaches[i].c);
		tcaches[i].c = NULL;
	}
}

static const struct ktest_case torture_cases[] = {
	KTEST_CASE(seed_0),
	KTEST_CASE(seed_1),
	KTEST_CASE(seed_2),
	KTEST_CASE(highmem_kinds_got_highmem),
	KTEST_END,
};

static const struct ktest_suite torture_suite = {
	.name = "torture",
	.skip_if = torture_skip_if,
	.init = torture_init,
	.exit = torture_exit,
	.cases = torture_cases,
};
KTEST_SUITE(torture_suite);
