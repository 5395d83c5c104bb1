/*
 * tests/fuzz/fuzz_alloc.c - libFuzzer target: arbitrary bytes as a
 * sequence of operations on the page allocator (every order, hot and
 * cold, DMA, zeroed), the slab layer (kmalloc of any size, a cache with a
 * constructor), mempools (create, alloc under each GFP mask, free,
 * resize, destroy) and shrinkers under GFP_NOIO/GFP_NOFS/GFP_KERNEL
 * pressure, on a user-space kernel set up once over a small arena.
 * tests/fuzz/fuzz_alloc_smp.c builds the same target with two CPUs
 * (threads), the operations dealt to both.
 *
 * An input is read three bytes a step (op, a, b), at most MAX_STEPS
 * steps.  Byte a names a slot: a step on a held slot releases it, a step
 * on an empty one allocates into it what op says.
 *
 * What is checked, on what an input touches (no walk of the arena while
 * the input runs):
 *  - nobody holds memory twice: every page of a block is claimed in a
 *    per-pfn owner map when it is handed out (a page already claimed, or
 *    carrying live objects, is a failure), every object's bytes in a
 *    bitmap of 8-byte granules (a granule already set is a failure), and
 *    an object may not lie in a page the fuzzer holds as a block;
 *  - each block's struct pages, when it is handed out and again when it
 *    is freed: aligned to its order, in one zone that spans it (ZONE_DMA
 *    when __GFP_DMA was asked), head with one reference, private = order
 *    and PG_head exactly when order > 0, tails with no reference and no
 *    flag; an object's pages are neither free (buddy, per-CPU) nor
 *    reserved, and ksize() covers what was asked;
 *  - contents: each block and object is filled with a pattern naming its
 *    step, checked when it is freed (whole objects; whole blocks up to
 *    order FULL_ORDER, the first and last 64 bytes of each page above);
 *    __GFP_ZERO memory must read zero (the same extent); a cache object
 *    must come out in its constructed state (the fuzzer puts it back in
 *    that state before freeing it, as the slab contract asks);
 *  - mempools: a new pool's reserve is full; an allocation fails only
 *    without __GFP_WAIT and with the reserve empty; the reserve never
 *    holds more than min_nr; after a grow that succeeded it is full, and
 *    a failed resize leaves min_nr old or new; a free into a short
 *    reserve lands in it; the pool's count of elements out is what the
 *    fuzzer holds (elements are patterned like any object or block);
 *  - shrinkers: three are registered, needing nothing, __GFP_IO, and
 *    __GFP_IO|__GFP_FS.  Each holds pages the fuzzer parks with it.  A
 *    shrinker called with a mask that lacks what it needs, or by an
 *    allocation that may not reclaim (no __GFP_WAIT), or with IO/FS bits
 *    the allocation did not have, is a failure, and so is a forbidden
 *    shrinker's call count moving across a pressure allocation; pages
 *    it gives back must still hold their pattern and page state;
 *  - at the end of an input: everything is freed, the per-CPU lists
 *    drained and the caches reaped; the zone checker (check_all_zones)
 *    finds nothing, the owner map and granule bitmap are empty, and the
 *    free-page count is what it was before the input.
 * With two CPUs the checks that need the pools to stand still (counts
 * out, a reserve's exact size after a free or a failure) are left out;
 * every other check runs on both CPUs.
 *
 * Speed (issue 18 asked for 1,000 inputs a second): the checking loops
 * carry no coverage instrumentation and the allocator targets' objects
 * no comparison tracing (Makefile); an input is at most MAX_STEPS steps;
 * the arena is 24 MiB, so the end-of-input zone check walks 6,144 pages.
 * FUZZ_ALLOC_VERBOSE=1 prints what an input did to the pools and
 * shrinkers; FUZZ_ALLOC_CMDLINE replaces the kernel command line
 * (loglevel=8 shows the kernel's messages).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/host/host.h"
#include "asm/page.h"
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mempool.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/vmscan.h"

#ifndef FUZZ_CPUS
#define FUZZ_CPUS 1
#endif

#define ARENA (24UL << 20)	/* ZONE_DMA (16 MiB) and 8 MiB of ZONE_NORMAL */
#define NPFN (ARENA >> PAGE_SHIFT)
#define SLOTS 128
#define MAX_STEPS 256
#define ROUND 32		/* steps between the CPUs' meetings (SMP) */
#define FULL_ORDER 2		/* blocks up to this order patterned whole */
#define EDGE 64			/* bytes patterned at each end of a page above */
#define POOLS 4
#define PARK_MAX 64		/* pages a shrinker holds at most */
#define CTOR_BYTE 0xc7
#define CACHE_SIZE 200

enum kind { FREE_SLOT, PAGES, KMALLOC, CACHE, POOL_ELEM };

struct slot {
	enum kind kind;
	unsigned int order;	/* PAGES, page pools */
	size_t size;		/* object bytes */
	void *addr;
	struct page *page;
	gfp_t gfp;
	int pool;		/* POOL_ELEM */
	u8 tag;
};

enum pool_type { POOL_SLAB, POOL_KMALLOC, POOL_PAGES };

struct fuzz_pool {
	mempool_t *pool;
	enum pool_type type;
	size_t size;		/* element bytes (slab, kmalloc) */
	unsigned int order;	/* POOL_PAGES */
	long out;		/* elements the fuzzer holds (atomic) */
};

struct fuzz_shrinker {
	struct shrinker s;
	spinlock_t lock;
	unsigned int nr;
	struct page *pages[PARK_MAX];
};

static struct slot slots[SLOTS];
static struct fuzz_pool pools[POOLS];
static struct kmem_cache *fuzz_cache;
static unsigned long baseline;
static u8 pfn_owner[NPFN];		/* 1 while the fuzzer holds the page */
static u16 pfn_objects[NPFN];		/* live objects touching the page */
static u64 granules[ARENA / 8 / 64];	/* live object bytes, 8 to a bit */

/* What each CPU is allocating right now, for the shrinkers' checks. */
static gfp_t cur_gfp[NR_CPUS];
static bool cur_active[NR_CPUS];
/* The round of steps the CPUs are in (FUZZ_CPUS > 1): it deals slots
 * and pools to CPUs. */
static unsigned int cur_round;
/* FUZZ_ALLOC_VERBOSE=1: what each input did to the shrinkers and pools. */
static bool verbose;

static void __attribute__((format(printf, 1, 2), noreturn))
fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "fuzz_alloc: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* ---- contents ---------------------------------------------------------- */

/*
 * The fuzzer's own checking loops carry no coverage instrumentation (a
 * comparison callback per byte or page was most of a run's time) and
 * guide nothing: coverage is the kernel's.
 */
#define CHECKER __attribute__((no_sanitize("coverage")))

/* Word-wide, and without ASan's shadow checks (the arena is not the
 * heap's). */
typedef u64 u64x8 __attribute__((vector_size(64)));

CHECKER __attribute__((no_sanitize("address")))
static long find_not(const void *p, size_t n, u8 want)
{
	const u8 *b = p;
	u64x8 w = (u64x8){ 0 } + (u64)(0x0101010101010101ULL * want);
	size_t i = 0;

	/* 64 bytes a round; the first bad byte is found below. */
	for (; i + 64 <= n; i += 64) {
		u64x8 v, d;
		u64 any = 0;

		__builtin_memcpy(&v, b + i, 64);
		d = v ^ w;
		for (int k = 0; k < 8; k++)
			any |= d[k];
		if (any)
			break;
	}
	for (; i < n; i++)
		if (b[i] != want)
			return (long)i;
	return -1;
}

/* memset without ASan's interceptor, which checks the range's shadow. */
CHECKER __attribute__((no_sanitize("address")))
static void fill(void *p, size_t n, u8 v)
{
	u8 *b = p;
	u64x8 w = (u64x8){ 0 } + (u64)(0x0101010101010101ULL * v);
	size_t i = 0;

	for (; i + 64 <= n; i += 64)
		__builtin_memcpy(b + i, &w, 64);
	for (; i < n; i++)
		b[i] = v;
}

/* The extents of a block that are patterned: all, or each page's ends. */
CHECKER static void block_extents(struct slot *s, u8 v, bool check, const char *what)
{
	size_t len = PAGE_SIZE << s->order;
	long bad;

	if (s->order <= FULL_ORDER) {
		if (!check) {
			fill(s->addr, len, v);
			return;
		}
		bad = find_not(s->addr, len, v);
		if (bad >= 0)
			fail("%s: order-%u block pfn %#lx: byte %ld is %#x, not %#x",
			     what, s->order, page_to_pfn(s->page), bad,
			     ((u8 *)s->addr)[bad], v);
		return;
	}
	for (size_t off = 0; off < len; off += PAGE_SIZE) {
		u8 *p = (u8 *)s->addr + off;

		if (!check) {
			fill(p, EDGE, v);
			fill(p + PAGE_SIZE - EDGE, EDGE, v);
			continue;
		}
		bad = find_not(p, EDGE, v);
		if (bad < 0 && (bad = find_not(p + PAGE_SIZE - EDGE, EDGE, v)) >= 0)
			bad += PAGE_SIZE - EDGE;
		if (bad >= 0)
			fail("%s: order-%u block pfn %#lx: byte %zu is %#x, not %#x",
			     what, s->order, page_to_pfn(s->page), off + (size_t)bad,
			     p[bad], v);
	}
}

static void object_check(const struct slot *s, u8 v, size_t n, const char *what)
{
	long bad = find_not(s->addr, n, v);

	if (bad >= 0)
		fail("%s: object %p (%zu bytes): byte %ld is %#x, not %#x",
		     what, s->addr, s->size, bad, ((u8 *)s->addr)[bad], v);
}

/* ---- ownership --------------------------------------------------------- */

static unsigned long pfn_of(const void *addr)
{
	unsigned long pfn = (unsigned long)__pa(addr) >> PAGE_SHIFT;

	if (pfn >= NPFN)
		fail("address %p is outside the arena", addr);
	return pfn;
}

CHECKER static void claim_pages(unsigned long pfn, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		if (__atomic_exchange_n(&pfn_owner[pfn + i], 1, __ATOMIC_RELAXED))
			fail("pfn %#lx handed out while held (block %#lx/%lu)",
			     pfn + i, pfn, n);
		if (__atomic_load_n(&pfn_objects[pfn + i], __ATOMIC_RELAXED))
			fail("pfn %#lx handed out as a block while it holds live objects",
			     pfn + i);
	}
}

CHECKER static void unclaim_pages(unsigned long pfn, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__atomic_store_n(&pfn_owner[pfn + i], 0, __ATOMIC_RELAXED);
}

/* Sets (or clears) the granules of [addr, addr + size): none may be set. */
CHECKER static void mark_object(const void *addr, size_t size, bool set)
{
	unsigned long first = (unsigned long)__pa(addr) / 8;
	unsigned long last = ((unsigned long)__pa(addr) + size - 1) / 8;
	unsigned long pfirst = pfn_of(addr), plast = pfn_of((const u8 *)addr + size - 1);

	if ((unsigned long)addr % ARCH_KMALLOC_MINALIGN)
		fail("object %p is not %u-byte aligned", addr, ARCH_KMALLOC_MINALIGN);
	for (unsigned long g = first; g <= last;) {
		unsigned long w = g / 64, lo = g % 64;
		unsigned long hi = (last / 64 == w) ? last % 64 : 63;
		u64 mask = (hi == 63 ? ~0ULL : ((1ULL << (hi + 1)) - 1)) &
			   ~((1ULL << lo) - 1);

		if (set) {
			u64 old = __atomic_fetch_or(&granules[w], mask, __ATOMIC_RELAXED);

			if (old & mask)
				fail("object %p (%zu bytes) overlaps a live object (granule %#lx)",
				     addr, size, w * 64 + (unsigned long)__builtin_ctzll(old & mask));
		} else {
			__atomic_fetch_and(&granules[w], ~mask, __ATOMIC_RELAXED);
		}
		g = w * 64 + hi + 1;
	}
	for (unsigned long pfn = pfirst; pfn <= plast; pfn++) {
		struct page *pg = pfn_to_page(pfn);

		if (set && __atomic_load_n(&pfn_owner[pfn], __ATOMIC_RELAXED))
			fail("object %p lies in pfn %#lx, a block the fuzzer holds",
			     addr, pfn);
		if (PageBuddy(pg) || PagePcp(pg) || PageReserved(pg))
			fail("object %p (%zu bytes, %s) in pfn %#lx with flags %#lx",
			     addr, size, set ? "new" : "freed", pfn,
			     pg->flags & PAGE_FLAGS_MASK);
		__atomic_fetch_add(&pfn_objects[pfn], set ? 1 : -1, __ATOMIC_RELAXED);
	}
}

/* ---- struct page state of a held block --------------------------------- */

CHECKER static void check_block(const struct slot *s, const char *when)
{
	struct page *page = s->page;
	unsigned long pfn = page_to_pfn(page), n = 1UL << s->order;
	unsigned int zid = page_zonenum(page);
	int nid = page_to_nid(page);
	struct zone *zone = page_zone(page);

	if (pfn & (n - 1))
		fail("%s: order-%u block at pfn %#lx is misaligned", when, s->order, pfn);
	if (pfn + n > NPFN || !zone_spans_pfn(zone, pfn) ||
	    !zone_spans_pfn(zone, pfn + n - 1))
		fail("%s: order-%u block at pfn %#lx leaves zone %s", when,
		     s->order, pfn, zone->name);
	if (zid == ZONE_HIGHMEM || ((s->gfp & __GFP_DMA) && zid != ZONE_DMA))
		fail("%s: order-%u block at pfn %#lx (gfp %#x) in zone %s", when,
		     s->order, pfn, s->gfp, zone->name);
	if (page_count(page) != 1 || page->private != s->order ||
	    (page->flags & PAGE_FLAGS_MASK) != (s->order ? 1UL << PG_head : 0))
		fail("%s: order-%u head pfn %#lx: refcount %d private %lu flags %#lx",
		     when, s->order, pfn, page_count(page), page->private,
		     page->flags & PAGE_FLAGS_MASK);
	for (unsigned long i = 1; i < n; i++) {
		struct page *t = page + i;

		if (page_count(t) || (t->flags & PAGE_FLAGS_MASK) ||
		    page_zonenum(t) != zid || page_to_nid(t) != nid)
			fail("%s: tail %lu of order-%u block %#lx: refcount %d flags %#lx zone %u",
			     when, i, s->order, pfn, page_count(t),
			     t->flags & PAGE_FLAGS_MASK, page_zonenum(t));
	}
}

/* ---- the shrinkers ----------------------------------------------------- */

static struct fuzz_shrinker shrinkers[3];

static int fuzz_shrink(struct fuzz_shrinker *fs, int nr_to_scan, gfp_t gfp)
{
	int cpu = smp_processor_id();
	struct page *freed[PARK_MAX];
	unsigned long flags;
	int n = 0, left;

	if ((gfp & fs->s.needs) != fs->s.needs)
		fail("shrinker needing %#x called with gfp %#x", fs->s.needs, gfp);
	if (cur_active[cpu]) {
		if (!(cur_gfp[cpu] & __GFP_WAIT))
			fail("shrinker called by an allocation that may not sleep (gfp %#x)",
			     cur_gfp[cpu]);
		if (gfp & (__GFP_IO | __GFP_FS) & ~cur_gfp[cpu])
			fail("shrinker called with gfp %#x for an allocation with %#x",
			     gfp, cur_gfp[cpu]);
	}
	spin_lock_irqsave(&fs->lock, flags);
	while (n < nr_to_scan && fs->nr)
		freed[n++] = fs->pages[--fs->nr];
	left = (int)fs->nr;
	spin_unlock_irqrestore(&fs->lock, flags);
	for (int i = 0; i < n; i++) {
		struct slot s = { .kind = PAGES, .page = freed[i],
				  .addr = page_address(freed[i]) };

		check_block(&s, "parked page");
		block_extents(&s, (u8)(0xe0 + (fs - shrinkers)), true, "parked page");
		unclaim_pages(page_to_pfn(freed[i]), 1);
		__free_page(freed[i]);
	}
	return left;
}

static int shrink0(int nr, gfp_t gfp) { return fuzz_shrink(&shrinkers[0], nr, gfp); }
static int shrink1(int nr, gfp_t gfp) { return fuzz_shrink(&shrinkers[1], nr, gfp); }
static int shrink2(int nr, gfp_t gfp) { return fuzz_shrink(&shrinkers[2], nr, gfp); }

/* Allocation wrappers that tell the shrinkers what is being allocated. */
static void begin_alloc(gfp_t gfp)
{
	int cpu = smp_processor_id();

	cur_gfp[cpu] = gfp;
	cur_active[cpu] = true;
}

static void end_alloc(void)
{
	cur_active[smp_processor_id()] = false;
}

/* May this CPU sleep?  The second CPU runs its share in a cross-call. */
static bool may_sleep(void)
{
	return smp_processor_id() == 0;
}

static gfp_t fix_gfp(gfp_t gfp)
{
	return may_sleep() ? gfp : gfp & ~(__GFP_WAIT | __GFP_IO | __GFP_FS);
}

/* Parks up to n pages with shrinker i. */
static void park(unsigned int i, unsigned int n, gfp_t gfp)
{
	struct fuzz_shrinker *fs = &shrinkers[i];

	for (unsigned int k = 0; k < n; k++) {
		struct slot s = { .kind = PAGES, .gfp = gfp };
		unsigned long flags;

		begin_alloc(gfp);
		s.page = alloc_pages(gfp | __GFP_NOWARN, 0);
		end_alloc();
		if (!s.page)
			return;
		s.addr = page_address(s.page);
		check_block(&s, "parked page");
		claim_pages(page_to_pfn(s.page), 1);
		block_extents(&s, (u8)(0xe0 + i), false, NULL);
		spin_lock_irqsave(&fs->lock, flags);
		if (fs->nr < PARK_MAX) {
			fs->pages[fs->nr++] = s.page;
			s.page = NULL;
		}
		spin_unlock_irqrestore(&fs->lock, flags);
		if (s.page) {
			unclaim_pages(page_to_pfn(s.page), 1);
			__free_page(s.page);
			return;
		}
	}
}

/* ---- mempools ---------------------------------------------------------- */

/* No __GFP_ZERO (a reserve element is not zeroed: 2.6 callers may not
 * ask) and no __GFP_NOFAIL (nobody here frees: it would spin). */
static const gfp_t pool_gfps[10] = {
	GFP_ATOMIC, GFP_NOWAIT, GFP_NOIO, GFP_NOFS, GFP_KERNEL,
	GFP_KERNEL | __GFP_NORETRY, GFP_NOFS | __GFP_REPEAT,
	GFP_ATOMIC | __GFP_COLD, GFP_NOIO | __GFP_DMA, GFP_HIGHUSER,
};

static void pool_check(int p, const char *when)
{
	mempool_t *pool = pools[p].pool;

	if (pool->curr_nr < 0 || pool->curr_nr > pool->min_nr)
		fail("%s: pool %d holds %d in a reserve of %d", when, p,
		     pool->curr_nr, pool->min_nr);
	if (MM_DEBUG && FUZZ_CPUS == 1 && mempool_out(pool) != pools[p].out)
		fail("%s: pool %d counts %ld elements out, the fuzzer holds %ld",
		     when, p, mempool_out(pool), pools[p].out);
}

static void pool_create(int p, u8 a, u8 b)
{
	struct fuzz_pool *fp = &pools[p];
	int min_nr = 1 + a % 8;

	fp->type = (enum pool_type)((b >> 2) % 3);
	fp->out = 0;
	begin_alloc(GFP_KERNEL);
	switch (fp->type) {
	case POOL_SLAB:
		fp->size = CACHE_SIZE;
		fp->pool = mempool_create_slab_pool(min_nr, fuzz_cache);
		break;
	case POOL_KMALLOC:
		fp->size = 8 + (size_t)(b >> 4) * 100 + (a >> 3);
		fp->pool = mempool_create_kmalloc_pool(min_nr, fp->size);
		break;
	case POOL_PAGES:
		fp->order = (b >> 4) % 3;
		fp->pool = mempool_create_page_pool(min_nr, (int)fp->order);
		break;
	}
	end_alloc();
	if (fp->pool) {
		if (fp->pool->min_nr != min_nr || fp->pool->curr_nr != min_nr)
			fail("pool created with min_nr %d holds %d of %d", min_nr,
			     fp->pool->curr_nr, fp->pool->min_nr);
		pool_check(p, "create");
	}
}

static void release(struct slot *s);

static void pool_destroy(int p)
{
	/* With two CPUs the other may hold elements in slots it owns now. */
	if (FUZZ_CPUS > 1 && __atomic_load_n(&pools[p].out, __ATOMIC_ACQUIRE))
		return;
	for (unsigned int i = 0; i < SLOTS; i++)
		if (slots[i].kind == POOL_ELEM && slots[i].pool == p)
			release(&slots[i]);
	pool_check(p, "destroy");
	if (verbose)
		fprintf(stderr, "pool %d type %d destroyed: min_nr %d, %lu allocations, %lu from the reserve, %lu failed\n",
			p, pools[p].type, pools[p].pool->min_nr,
			mempool_allocs(pools[p].pool), pools[p].pool->from_reserve,
			pools[p].pool->fails);
	mempool_destroy(pools[p].pool);
	pools[p].pool = NULL;
}

/* A mempool step on the empty slot s: create, alloc, resize or destroy. */
static void pool_step(struct slot *s, u8 op, u8 a, u8 b)
{
	int p = b & (POOLS - 1);
	struct fuzz_pool *fp = &pools[p];
	gfp_t gfp = pool_gfps[(b >> 2) % 10];
	unsigned int sub = (op >> 4) % 4;

	/* Two CPUs: in round r, pool p is CPU (p + r) % 2's to use, and only
	 * CPU 0 (which may sleep) creates, resizes or destroys. */
	if (FUZZ_CPUS > 1 && (p + cur_round) % 2 != (unsigned int)smp_processor_id())
		return;
	if (!fp->pool) {
		if (may_sleep())
			pool_create(p, a, b);
		return;
	}
	/* Highmem is for pages only; a cache's zone is its own. */
	if (fp->type != POOL_PAGES)
		gfp &= ~__GFP_HIGHMEM;
	if (fp->type == POOL_SLAB)
		gfp &= ~__GFP_DMA;
	/* The reserve is the only thing a sleeping allocation can count on
	 * here: nobody would wake a waiter. */
	if ((gfp & __GFP_WAIT) && (!may_sleep() || fp->pool->curr_nr == 0))
		gfp &= ~(__GFP_WAIT | __GFP_IO | __GFP_FS);
	if (sub == 2 && may_sleep()) {
		int new_min = 1 + a % 12, old_min = fp->pool->min_nr, ret;

		begin_alloc(gfp);
		ret = mempool_resize(fp->pool, new_min, (int)gfp);
		end_alloc();
		/* A grow whose new array could not be had changes nothing. */
		if (fp->pool->min_nr != new_min &&
		    (ret == 0 || fp->pool->min_nr != old_min))
			fail("resize from %d to %d returned %d and left min_nr %d",
			     old_min, new_min, ret, fp->pool->min_nr);
		/* A shrink only gives back what the smaller reserve cannot
		 * hold (2.6): only a grow, or the same size, refills. */
		if (ret == 0 && new_min >= old_min && fp->pool->curr_nr != new_min)
			fail("resize to %d succeeded with %d in the reserve", new_min,
			     fp->pool->curr_nr);
		pool_check(p, "resize");
		return;
	}
	if (sub == 3 && may_sleep()) {
		pool_destroy(p);
		return;
	}
	s->tag = (u8)(op ^ a ^ b) | 1;
	begin_alloc(gfp);
	s->addr = mempool_alloc(fp->pool, (int)gfp);
	end_alloc();
	if (!s->addr) {
		if ((gfp & __GFP_WAIT) || (FUZZ_CPUS == 1 && fp->pool->curr_nr))
			fail("mempool_alloc (gfp %#x) failed with %d in the reserve",
			     gfp, fp->pool->curr_nr);
		return;
	}
	s->kind = POOL_ELEM;
	s->pool = p;
	s->gfp = gfp & ~__GFP_DMA;	/* a reserve element has any zone */
	__atomic_fetch_add(&fp->out, 1, __ATOMIC_RELAXED);
	if (fp->type == POOL_PAGES) {
		s->page = s->addr;
		s->order = fp->order;
		s->addr = page_address(s->page);
		check_block(s, "pool page");
		claim_pages(page_to_pfn(s->page), 1UL << s->order);
		block_extents(s, s->tag, false, NULL);
	} else {
		s->size = fp->size;
		if (fp->type == POOL_KMALLOC && ksize(s->addr) < s->size)
			fail("pool element %p: ksize %zu < %zu", s->addr,
			     ksize(s->addr), s->size);
		mark_object(s->addr, s->size, true);
		fill(s->addr, s->size, s->tag);
	}
	pool_check(p, "alloc");
}

/* ---- the steps --------------------------------------------------------- */

static void release(struct slot *s)
{
	switch (s->kind) {
	case PAGES:
		check_block(s, "free");
		block_extents(s, s->tag, true, "free");
		unclaim_pages(page_to_pfn(s->page), 1UL << s->order);
		if (s->order == 0 && (s->tag & 2))
			free_cold_page(s->page);
		else
			__free_pages(s->page, s->order);
		break;
	case KMALLOC:
		object_check(s, s->tag, s->size, "kfree");
		mark_object(s->addr, s->size, false);
		kfree(s->addr);
		break;
	case CACHE:
		object_check(s, s->tag, s->size, "kmem_cache_free");
		mark_object(s->addr, s->size, false);
		fill(s->addr, CACHE_SIZE, CTOR_BYTE);
		kmem_cache_free(fuzz_cache, s->addr);
		break;
	case POOL_ELEM: {
		struct fuzz_pool *fp = &pools[s->pool];
		int before = fp->pool->curr_nr, min = fp->pool->min_nr;
		void *elem = s->addr;

		if (fp->type == POOL_PAGES) {
			check_block(s, "mempool_free");
			block_extents(s, s->tag, true, "mempool_free");
			unclaim_pages(page_to_pfn(s->page), 1UL << s->order);
			elem = s->page;
		} else {
			object_check(s, s->tag, s->size, "mempool_free");
			mark_object(s->addr, s->size, false);
			if (fp->type == POOL_SLAB)
				fill(s->addr, CACHE_SIZE, CTOR_BYTE);
		}
		mempool_free(elem, fp->pool);
		__atomic_fetch_sub(&fp->out, 1, __ATOMIC_RELAXED);
		if (FUZZ_CPUS == 1) {
			if (before < min && fp->pool->curr_nr != before + 1)
				fail("mempool_free into a short reserve (%d of %d) left %d",
				     before, min, fp->pool->curr_nr);
			pool_check(s->pool, "free");
		}
		break;
	}
	case FREE_SLOT:
		break;
	}
	s->kind = FREE_SLOT;
}

/*
 * The block alloc_pages(s->gfp, s->order) gave s, if any: checked, owned
 * by s, zero where __GFP_ZERO asked, then stamped with s's tag.
 */
static void took_pages(struct slot *s, const char *what)
{
	if (!s->page)
		return;
	s->kind = PAGES;
	s->addr = page_address(s->page);
	check_block(s, what);
	claim_pages(page_to_pfn(s->page), 1UL << s->order);
	if (s->gfp & __GFP_ZERO)
		block_extents(s, 0, true, "__GFP_ZERO");
	block_extents(s, s->tag, false, NULL);
}

static void alloc_pages_step(struct slot *s, u8 op, u8 b)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;

	s->order = b % 11;
	if (b & 0x80)
		gfp |= __GFP_COLD;
	if ((b & 0x40) && s->order < 4)
		gfp |= __GFP_DMA;
	if (op & 0x80)
		gfp |= __GFP_ZERO;
	if (op & 0x40)
		gfp &= ~__GFP_WAIT & ~__GFP_IO & ~__GFP_FS;
	if ((op & 0x60) == 0x60)
		gfp |= __GFP_HIGH;	/* GFP_ATOMIC: below the min watermark */
	s->gfp = gfp = fix_gfp(gfp);
	begin_alloc(gfp);
	s->page = alloc_pages(gfp, s->order);
	end_alloc();
	took_pages(s, "alloc");
}

static void kmalloc_step(struct slot *s, u8 op, u8 a, u8 b)
{
	gfp_t gfp = ((op & 0x80) ? GFP_DMA : GFP_KERNEL) | __GFP_NOWARN;

	s->size = ((size_t)b << 4 | (a & 15)) * ((op >> 3) % 16 + 1) + 1;
	if (op & 0x40)
		s->size = (s->size & 255) + 1;
	if ((op & 0x60) == 0x20)
		gfp |= __GFP_ZERO;
	s->gfp = gfp = fix_gfp(gfp);
	begin_alloc(gfp);
	s->addr = kmalloc(s->size, gfp);
	end_alloc();
	if (!s->addr)
		return;
	if (ksize(s->addr) < s->size)
		fail("kmalloc(%zu): ksize %zu", s->size, ksize(s->addr));
	if ((gfp & __GFP_DMA) && page_zonenum(virt_to_page(s->addr)) != ZONE_DMA)
		fail("kmalloc(%zu, GFP_DMA) = %p outside ZONE_DMA", s->size, s->addr);
	s->kind = KMALLOC;
	mark_object(s->addr, s->size, true);
	if (gfp & __GFP_ZERO)
		object_check(s, 0, s->size, "kmalloc __GFP_ZERO");
	fill(s->addr, s->size, s->tag);
}

static void cache_step(struct slot *s, u8 op)
{
	gfp_t gfp = fix_gfp((op & 0x80) ? GFP_ATOMIC : GFP_KERNEL);

	begin_alloc(gfp);
	s->addr = kmem_cache_alloc(fuzz_cache, gfp);
	end_alloc();
	if (!s->addr)
		return;
	s->size = CACHE_SIZE;
	s->kind = CACHE;
	mark_object(s->addr, s->size, true);
	object_check(s, CTOR_BYTE, CACHE_SIZE, "constructed object");
	fill(s->addr, s->size, s->tag);
}

/*
 * Reclaim under a mask: park pages with the shrinkers, then ask for a
 * block big enough that the allocator has to reclaim to find one.
 */
static void pressure_step(struct slot *s, u8 op, u8 a, u8 b)
{
	static const gfp_t masks[4] = { GFP_NOIO, GFP_NOFS, GFP_KERNEL, GFP_ATOMIC };
	gfp_t gfp = fix_gfp(masks[(op >> 4) % 4] | __GFP_NOWARN);
	unsigned long calls[3];

	if (!(op & 0x80)) {
		park(a % 3, 1 + b % 16, fix_gfp(GFP_KERNEL));
		return;
	}
	for (int i = 0; i < 3; i++)
		calls[i] = shrinkers[i].s.calls;
	s->order = 6 + b % 5;
	s->gfp = gfp;
	begin_alloc(gfp);
	s->page = alloc_pages(gfp, s->order);
	end_alloc();
	if (FUZZ_CPUS == 1)
		for (int i = 0; i < 3; i++)
			if ((gfp & shrinkers[i].s.needs) != shrinkers[i].s.needs &&
			    shrinkers[i].s.calls != calls[i])
				fail("shrinker %d (needs %#x) ran for gfp %#x", i,
				     shrinkers[i].s.needs, gfp);
	took_pages(s, "alloc under pressure");
}

static void step(uint8_t op, uint8_t a, uint8_t b, u8 tag)
{
	struct slot *s = &slots[a % SLOTS];

	if (s->kind != FREE_SLOT) {
		release(s);
		return;
	}
	s->tag = tag;
	switch (op % 5) {
	case 0:
		alloc_pages_step(s, op, b);
		break;
	case 1:
		kmalloc_step(s, op, a, b);
		break;
	case 2:
		cache_step(s, op);
		break;
	case 3:
		pool_step(s, op, a, b);
		break;
	case 4:
		pressure_step(s, op, a, b);
		break;
	}
}

/* ---- set-up and one input ---------------------------------------------- */

static void fuzz_ctor(void *obj)
{
	fill(obj, CACHE_SIZE, CTOR_BYTE);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const gfp_t needs[3] = { 0, __GFP_IO, __GFP_IO | __GFP_FS };
	static int (*const fns[3])(int, gfp_t) = { shrink0, shrink1, shrink2 };

	host_nr_cpus = FUZZ_CPUS;
	host_exit_aborts = true;
	verbose = getenv("FUZZ_ALLOC_VERBOSE") != NULL;
	host_memory_init(ARENA);
	arch_early_init();
	/* FUZZ_ALLOC_CMDLINE=loglevel=8 shows what the kernel says. */
	kernel_setup(host_boot_info(ARENA, getenv("FUZZ_ALLOC_CMDLINE") ?
					       getenv("FUZZ_ALLOC_CMDLINE") :
					       "loglevel=1"));
	if (num_online_cpus() != FUZZ_CPUS)
		fail("%u CPUs online, %d wanted", num_online_cpus(), FUZZ_CPUS);
	fuzz_cache = kmem_cache_create("fuzz-200", CACHE_SIZE, 0,
				       SLAB_HWCACHE_ALIGN, fuzz_ctor);
	if (!fuzz_cache)
		abort();
	for (int i = 0; i < 3; i++) {
		spin_lock_init(&shrinkers[i].lock);
		shrinkers[i].s.shrink = fns[i];
		shrinkers[i].s.needs = needs[i];
		shrinkers[i].s.seeks = DEFAULT_SEEKS;
		register_shrinker(&shrinkers[i].s);
	}
	kmem_cache_reap_all();
	drain_all_pages();
	baseline = nr_free_pages();
	return 0;
}

#if FUZZ_CPUS > 1
/*
 * Two CPUs: the steps are taken in rounds of ROUND.  In round r, slot i
 * belongs to CPU (i + r) % 2, so a block one CPU allocates the other
 * often frees (the per-CPU lists' remote frees).  CPU 1 runs its share in
 * a cross-call (interrupts off: no sleeping masks, no pool creation or
 * destruction), CPU 0 its own at the same time, then waits for CPU 1.
 */
struct round {
	const uint8_t *data;
	size_t first, last;	/* steps */
	unsigned int r;
	int done;
};

static void run_share(struct round *rd, int cpu)
{
	for (size_t i = rd->first; i < rd->last; i++) {
		const uint8_t *d = rd->data + 3 * i;

		if ((d[1] % SLOTS + rd->r) % 2 != (unsigned int)cpu)
			continue;
		step(d[0], d[1], d[2], (u8)(i + 1));
	}
}

static void cpu1_share(void *arg)
{
	struct round *rd = arg;

	run_share(rd, 1);
	__atomic_store_n(&rd->done, 1, __ATOMIC_RELEASE);
}

static void run_steps(const uint8_t *data, size_t steps)
{
	for (size_t first = 0, r = 0; first < steps; first += ROUND, r++) {
		struct round rd = { data, first, min(first + ROUND, steps),
				    (unsigned int)r, 0 };
		unsigned long spins = 0;

		cur_round = (unsigned int)r;
		if (smp_call_function_single(1, cpu1_share, &rd, false))
			fail("CPU 1 did not take the cross-call");
		run_share(&rd, 0);
		while (!__atomic_load_n(&rd.done, __ATOMIC_ACQUIRE)) {
			if (++spins > 4000000000UL)
				fail("CPU 1 never finished its share");
			host_cpu_relax();
		}
	}
}
#else
static void run_steps(const uint8_t *data, size_t steps)
{
	for (size_t i = 0; i < steps; i++)
		step(data[3 * i], data[3 * i + 1], data[3 * i + 2], (u8)(i + 1));
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t steps = min(size / 3, (size_t)MAX_STEPS);
	char why[160];

	run_steps(data, steps);
	if (verbose) {
		unsigned int held = 0;

		for (unsigned int i = 0; i < SLOTS; i++)
			held += slots[i].kind != FREE_SLOT;
		show_free_areas();
		fprintf(stderr, "%zu steps, %u slots held, %lu pages free\n", steps,
			held, nr_free_pages());
		for (int i = 0; i < 3; i++)
			fprintf(stderr, "shrinker %d (needs %#x): %lu calls, %lu skips, %u parked\n",
				i, shrinkers[i].s.needs, shrinkers[i].s.calls,
				shrinkers[i].s.skipped, shrinkers[i].nr);
		for (int p = 0; p < POOLS; p++)
			if (pools[p].pool)
				fprintf(stderr, "pool %d type %d: %d of %d in reserve, %ld out, %lu from reserve, %lu fails\n",
					p, pools[p].type, pools[p].pool->curr_nr,
					pools[p].pool->min_nr, pools[p].out,
					pools[p].pool->from_reserve, pools[p].pool->fails);
	}
	for (unsigned int i = 0; i < SLOTS; i++)
		release(&slots[i]);
	for (int p = 0; p < POOLS; p++)
		if (pools[p].pool)
			pool_destroy(p);
	for (int i = 0; i < 3; i++)
		fuzz_shrink(&shrinkers[i], PARK_MAX, GFP_KERNEL);
	kmem_cache_reap_all();
	drain_all_pages();
	if (check_all_zones(why, sizeof(why)))
		fail("zone check: %s", why);
	if (find_not(pfn_owner, sizeof(pfn_owner), 0) >= 0 ||
	    find_not(pfn_objects, sizeof(pfn_objects), 0) >= 0)
		fail("pages still marked held after the input");
	if (find_not(granules, sizeof(granules), 0) >= 0)
		fail("object granules still marked after the input");
	if (nr_free_pages() != baseline)
		fail("pages lost: %lu free, %lu before", nr_free_pages(), baseline);
	return 0;
}
