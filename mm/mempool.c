/*
 * mm/mempool.c - memory pools (see mm/mempool.h for what they are for).
 *
 * Allocation order, as in Linux 2.6:
 *  1. the pool's allocator with the caller's mask less __GFP_WAIT and
 *     __GFP_IO, and no failure report: it must neither sleep nor start
 *     I/O, since the reserve is right here (and the caller may be the I/O
 *     path itself) (2.6.11);
 *  2. an element of the reserve; a caller that cannot sleep gets NULL
 *     when it is empty (2.6.11);
 *  3. only for a caller that may sleep: the allocator with the full mask
 *     less retries (__GFP_NORETRY: one pass of reclaim) (2.6.18), then a
 *     sleep on pool->wait until mempool_free() refills the reserve - with
 *     a timeout, so that memory freed elsewhere is noticed too (2.6.18) -
 *     and from 1. again.  Deviations: the full mask is tried once before
 *     the first sleep, where 2.6.18 sleeps first; the timeout is HZ/5, not
 *     5 s; there is no __GFP_NOMEMALLOC to keep the allocator out of the
 *     emergency reserves (docs/linux-2.6.md).
 * mempool_free() refills the reserve first: while it holds fewer than
 * min_nr, a freed element goes back into it (and wakes a waiter);
 * otherwise back to the pool's allocator (2.6.11).  mempool_resize()
 * shrinks under the lock and grows into a new array, rechecking for a
 * racing resize (2.6.18).
 *
 * Why this guarantees progress: a caller that holds elements returns
 * them when its work is done, and every returned element goes to the
 * reserve first, so the next waiter gets one however short memory is.
 * Callers that need several elements of one pool to finish must not hold
 * some while they wait for others in a way that can deadlock: a pool of
 * min_nr covers min_nr elements in flight.
 *
 * Invariants (pool->lock held): 0 <= curr_nr <= min_nr; elements[0..
 * curr_nr) are the reserve; free_cache is a slab pool's cache while
 * curr_nr == min_nr, else mempool_miss_cache (update_free_cache_locked(),
 * after every change of either).  alloc_cache, set at creation, is a slab
 * pool's cache, or mempool_miss_cache for any other pool.  In MM_DEBUG
 * builds the sum over the CPUs of allocs - frees is the elements
 * mempool_alloc() has handed out and mempool_free() not yet taken back
 * (each CPU counts its own, lock-free: see count_allocated());
 * mempool_destroy() checks it is 0.  A production build counts nothing on
 * the fast path, as 2.6 did.
 *
 * The fast path (memory plentiful) is the allocator's: a slab pool's
 * kmem_cache_alloc/kmem_cache_free are inlined, not called through the
 * pool's pointers.  mempool_alloc() adds one load (pool->alloc_cache: the
 * cache whose array it pops); mempool_free() adds the NULL check and one
 * load (pool->free_cache: the cache whose array it pushes onto, while
 * the reserve is full).  Neither tests what it loaded: a pool that must
 * not take the cache's way - not a slab pool, or a reserve short of
 * elements - points at mempool_miss_cache, whose arrays are empty and
 * full at once, so the pop or push fails into the out-of-line end that
 * does the rest.  So mempool_alloc + mempool_free cost little more than
 * the cache's pair; every other way (a miss, another kind of pool, the
 * reserve) is a tail call out of line.
 *
 * Debugging: when the element's memory is debugged - a slab pool whose
 * cache poisons (slab_debug=P), a kmalloc pool whose size class does,
 * or a page pool under page_poison=1 - a reserve element is filled with
 * POISON_FREE (the last byte POISON_END) while it waits, and checked
 * when it is handed out: a write to an element after it was given back
 * to the pool stops the kernel with a BUG: line naming the pool.
 *
 * Locking: pool->lock (irqsave: mempool_free() may run in an interrupt
 * handler, as a bio's completion does) protects the reserve and the
 * counts; the pool's allocator and free function run without it.
 * pools_lock (a leaf) protects the list of pools for the dumps.
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "asm/local.h"
#include "kernel/bug.h"
#include "kernel/kallsyms.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/timer.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/highmem.h"
#include "mm/internal.h"
#include "mm/mempool.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"

#define POISON_FREE 0x6b
#define POISON_END 0xa5
/*
 * A waiter re-checks this often even if nobody frees into the pool: HZ/5
 * jiffies, unless a test has shortened it (mempool_set_recheck()).
 */
static unsigned long mempool_recheck = HZ / 5;
#define MEMPOOL_RECHECK ((long)READ_ONCE(mempool_recheck))

unsigned long mempool_set_recheck(unsigned long jiffies)
{
	unsigned long old = READ_ONCE(mempool_recheck);

	BUG_ON(jiffies == 0);
	WRITE_ONCE(mempool_recheck, jiffies);
	return old;
}

static DEFINE_SPINLOCK(pools_lock);
static LIST_HEAD(pools);

/*
 * The stand-in for a pool's alloc_cache or free_cache when its fast path
 * may not use a real cache (mm/mempool.h): one array for every CPU, empty
 * and full at once (avail 0, limit 0), so that the inline pop and push
 * fail, and nothing ever writes it.  An object that says no where a test
 * would cost the fast path, as Linux's noop_qdisc; it is on no cache list.
 */
static struct array_cache mempool_miss_array;
static struct kmem_cache mempool_miss_cache = {
	.array = { [0 ... NR_CPUS - 1] = &mempool_miss_array },
	.name = "mempool-miss",
};

/* ---- what the elements are ----------------------------------------- */

/* The cache a slab or kmalloc element came from, NULL for other pools. */
static struct kmem_cache *element_cache(const mempool_t *pool, void *element)
{
	if (pool->alloc == mempool_alloc_slab)
		return pool->pool_data;
	if (pool->alloc == mempool_kmalloc) {
		struct page *page = virt_to_page(element);

		/* A block above the largest kmalloc class is pages, not a slab. */
		return PageSlab(page) ? page_get_cache(page) : NULL;
	}
	return NULL;
}

/* Bytes one element holds, 0 when the pool's allocator is its own. */
static size_t element_size(const mempool_t *pool)
{
	if (pool->alloc == mempool_alloc_slab)
		return kmem_cache_size(pool->pool_data);
	if (pool->alloc == mempool_kmalloc)
		return (size_t)pool->pool_data;
	if (pool->alloc == mempool_alloc_pages)
		return PAGE_SIZE << (unsigned long)pool->pool_data;
	return 0;
}

/* "slab foo", "kmalloc 256", "pages order 2", or the allocator's name. */
static void describe_pool(const mempool_t *pool, char *buf, size_t len)
{
	char sym[64];

	if (pool->alloc == mempool_alloc_slab)
		snprintf(buf, len, "slab %s", kmem_cache_name(pool->pool_data));
	else if (pool->alloc == mempool_kmalloc)
		snprintf(buf, len, "kmalloc %zu", (size_t)pool->pool_data);
	else if (pool->alloc == mempool_alloc_pages)
		snprintf(buf, len, "pages order %lu",
			 (unsigned long)pool->pool_data);
	else if (kallsyms_lookup((unsigned long)pool->alloc, sym, sizeof(sym)))
		snprintf(buf, len, "%s", sym);
	else
		snprintf(buf, len, "alloc_fn %p", (void *)pool->alloc);
}

/* ---- poisoning reserve elements ------------------------------------ */

static bool poisons(const mempool_t *pool, void *element)
{
	struct kmem_cache *cachep;

	if (pool->alloc == mempool_alloc_pages)
		return page_poisoning;
	cachep = element_cache(pool, element);
	return cachep && (cachep->flags & SLAB_POISON);
}

static void poison_bytes(u8 *p, size_t size, bool last)
{
	memset(p, POISON_FREE, size);
	if (last)
		p[size - 1] = POISON_END;
}

/* The first byte of [p, p+size) that is not the poison, or -1. */
static long check_bytes(const u8 *p, size_t size, bool last)
{
	for (size_t i = 0; i < size; i++) {
		u8 want = (last && i == size - 1) ? POISON_END : POISON_FREE;

		if (p[i] != want)
			return (long)i;
	}
	return -1;
}

static void __noreturn poison_bug(const mempool_t *pool, void *element,
				  size_t offset, u8 seen, u8 want)
{
	char what[64];

	describe_pool(pool, what, sizeof(what));
	pr_emerg("BUG: mempool: element %p of pool %p (%s) was written while in the reserve: byte %zu is 0x%02x, not 0x%02x\n",
		 element, (const void *)pool, what, offset, seen, want);
	dump_stack();
	panic("mempool element written while in the reserve");
}

/* Fills (check false) or checks (check true) an element's poison. */
static void poison_element(const mempool_t *pool, void *element, bool check)
{
	if (!poisons(pool, element))
		return;
	if (pool->alloc == mempool_alloc_pages) {
		struct page *page = element;
		unsigned long nr = 1UL << (unsigned long)pool->pool_data;

		for (unsigned long i = 0; i < nr; i++) {
			enum km_type km = kmap_alloc_type();
			u8 *p = kmap_atomic(page + i, km);
			bool last = i == nr - 1;
			long bad = -1;

			if (check)
				bad = check_bytes(p, PAGE_SIZE, last);
			else
				poison_bytes(p, PAGE_SIZE, last);
			if (bad >= 0) {
				u8 seen = p[bad];

				kunmap_atomic(p, km);
				poison_bug(pool, element, i * PAGE_SIZE + (size_t)bad,
					   seen, (last && (size_t)bad == PAGE_SIZE - 1) ?
					   POISON_END : POISON_FREE);
			}
			kunmap_atomic(p, km);
		}
	} else {
		size_t size = pool->alloc == mempool_kmalloc ?
				      (size_t)pool->pool_data :
				      element_size(pool);
		long bad = check ? check_bytes(element, size, true) : -1;

		if (!check)
			poison_bytes(element, size, true);
		else if (bad >= 0)
			poison_bug(pool, element, (size_t)bad,
				   ((u8 *)element)[bad],
				   (size_t)bad == size - 1 ? POISON_END : POISON_FREE);
	}
}

/* ---- the reserve ------------------------------------------------------ */

/* pool->free_cache from curr_nr and min_nr, after either changed. */
static void update_free_cache_locked(mempool_t *pool)
{
	lockdep_assert_held(&pool->lock);
	WRITE_ONCE(pool->free_cache,
		   pool->slab_cache && pool->curr_nr >= pool->min_nr ?
			   pool->slab_cache : &mempool_miss_cache);
}

static void add_element_locked(mempool_t *pool, void *element)
{
	lockdep_assert_held(&pool->lock);
	BUG_ON(pool->curr_nr >= pool->min_nr);
	pool->elements[pool->curr_nr] = element;
	/* WRITE_ONCE: mempool_free() glances at curr_nr without the lock. */
	WRITE_ONCE(pool->curr_nr, pool->curr_nr + 1);
	update_free_cache_locked(pool);
}

static inline void *remove_element_locked(mempool_t *pool)
{
	void *element;

	lockdep_assert_held(&pool->lock);
	BUG_ON(pool->curr_nr <= 0);
	WRITE_ONCE(pool->curr_nr, pool->curr_nr - 1);
	element = pool->elements[pool->curr_nr];
	update_free_cache_locked(pool);
	return element;
}

/* Gives back every element of a pool being destroyed or failed. */
static void free_pool(mempool_t *pool)
{
	while (pool->curr_nr) {
		void *element = pool->elements[--pool->curr_nr];

		poison_element(pool, element, true);
		pool->free(element, pool->pool_data);
	}
	kfree(pool->elements);
	kfree(pool);
}

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	mempool_t *pool;
	unsigned long flags;

	might_sleep();
	if (WARN_ON(min_nr <= 0 || !alloc_fn || !free_fn))
		return NULL;
	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	pool->elements = kmalloc_array(min_nr, sizeof(void *), GFP_KERNEL);
	if (!pool->elements) {
		kfree(pool);
		return NULL;
	}
	spin_lock_init(&pool->lock);
	init_waitqueue_head(&pool->wait);
	pool->min_nr = min_nr;
	pool->pool_data = pool_data;
	pool->alloc = alloc_fn;
	pool->free = free_fn;
	if (alloc_fn == mempool_alloc_slab && free_fn == mempool_free_slab)
		pool->slab_cache = pool_data;
	pool->alloc_cache = pool->slab_cache ?: &mempool_miss_cache;
	pool->free_cache = &mempool_miss_cache;	/* until the reserve is full */
	INIT_LIST_HEAD(&pool->list);

	/* The reserve, allocated now while sleeping is allowed. */
	while (pool->curr_nr < pool->min_nr) {
		void *element = pool->alloc(GFP_KERNEL, pool->pool_data);

		if (!element) {
			free_pool(pool);
			return NULL;
		}
		poison_element(pool, element, false);
		spin_lock_irqsave(&pool->lock, flags);
		add_element_locked(pool, element);
		spin_unlock_irqrestore(&pool->lock, flags);
	}
	spin_lock_irqsave(&pools_lock, flags);
	list_add_tail(&pool->list, &pools);
	spin_unlock_irqrestore(&pools_lock, flags);
	return pool;
}

/* LAB mempool: BEGIN mempool_resize(): shrink under the lock, grow into a new array, fill the reserve */
/* A new reserve size, under the lock; the reserve may now be short or full. */
static void set_min_nr_locked(mempool_t *pool, int min_nr)
{
	lockdep_assert_held(&pool->lock);
	pool->min_nr = min_nr;
	update_free_cache_locked(pool);
}

/*
 * Allocates elements until the reserve holds min_nr; -ENOMEM when the
 * allocator fails first (mempool_free() then fills the rest, as elements
 * come back).
 */
static int fill_reserve(mempool_t *pool, int gfp_mask)
{
	unsigned long flags;

	for (;;) {
		void *element;

		spin_lock_irqsave(&pool->lock, flags);
		if (pool->curr_nr >= pool->min_nr) {
			spin_unlock_irqrestore(&pool->lock, flags);
			return 0;
		}
		spin_unlock_irqrestore(&pool->lock, flags);
		element = pool->alloc(gfp_mask, pool->pool_data);
		if (!element)
			return -ENOMEM;
		poison_element(pool, element, false);
		spin_lock_irqsave(&pool->lock, flags);
		if (pool->curr_nr < pool->min_nr) {
			add_element_locked(pool, element);
			element = NULL;
		}
		spin_unlock_irqrestore(&pool->lock, flags);
		if (element) {		/* filled by frees meanwhile */
			poison_element(pool, element, true);
			pool->free(element, pool->pool_data);
		}
	}
}

int mempool_resize(mempool_t *pool, int new_min_nr, int gfp_mask)
{
	void **new_elements, **old;
	unsigned long flags;
	int old_min_nr;

	BUG_ON(new_min_nr <= 0);
	might_sleep_if(gfp_mask & __GFP_WAIT);
	spin_lock_irqsave(&pool->lock, flags);
	old_min_nr = pool->min_nr;
	if (new_min_nr <= old_min_nr) {
		/* Shrink: give back what the smaller reserve cannot hold. */
		while (pool->curr_nr > new_min_nr) {
			void *element = remove_element_locked(pool);

			spin_unlock_irqrestore(&pool->lock, flags);
			poison_element(pool, element, true);
			pool->free(element, pool->pool_data);
			spin_lock_irqsave(&pool->lock, flags);
		}
		set_min_nr_locked(pool, new_min_nr);
		spin_unlock_irqrestore(&pool->lock, flags);
		/* The same size again: finish an earlier grow that fell short. */
		return new_min_nr == old_min_nr ? fill_reserve(pool, gfp_mask) : 0;
	}
	spin_unlock_irqrestore(&pool->lock, flags);

	/* Grow: a bigger array first, then elements to fill it. */
	new_elements = kmalloc_array(new_min_nr, sizeof(void *),
				     (gfp_t)gfp_mask);
	if (!new_elements)
		return -ENOMEM;
	spin_lock_irqsave(&pool->lock, flags);
	if (new_min_nr <= pool->min_nr) {
		/* Someone else grew it meanwhile. */
		spin_unlock_irqrestore(&pool->lock, flags);
		kfree(new_elements);
		return fill_reserve(pool, gfp_mask);
	}
	memcpy(new_elements, pool->elements,
	       (size_t)pool->curr_nr * sizeof(void *));
	old = pool->elements;
	pool->elements = new_elements;
	set_min_nr_locked(pool, new_min_nr);
	spin_unlock_irqrestore(&pool->lock, flags);
	kfree(old);
	/* min_nr is already the new one: what cannot be had now, frees fill. */
	return fill_reserve(pool, gfp_mask);
}
/* LAB mempool: END */

void mempool_destroy(mempool_t *pool)
{
	unsigned long flags;

	if (!pool)
		return;
	might_sleep();
	/* MM_DEBUG builds count what is out; 2.6 trusted the caller. */
	if (MM_DEBUG && mempool_out(pool)) {
		char what[64];
		long out = mempool_out(pool);

		describe_pool(pool, what, sizeof(what));
		pr_emerg("BUG: mempool_destroy: pool %p (%s) destroyed with %ld element%s outstanding\n",
			 (void *)pool, what, out, out == 1 ? "" : "s");
		dump_stack();
		panic("mempool_destroy with elements outstanding");
	}
	spin_lock_irqsave(&pools_lock, flags);
	list_del(&pool->list);
	spin_unlock_irqrestore(&pools_lock, flags);
	free_pool(pool);
}

/* ---- allocating and freeing ------------------------------------------ */

/*
 * Counts an element handed out (allocs) or taken back (frees) in this
 * CPU's slot, in MM_DEBUG builds.  Tasks never migrate here, so the CPU
 * read before the add is still the one it runs on; the add is one
 * instruction (local_add), which neither an interrupt handler nor a task
 * preempting this one on the same CPU can split: the slot needs no lock
 * and no preemption off around it (Linux's this_cpu adds, 2.6.33, without
 * the get_cpu()/put_cpu() pair).
 */
static __always_inline void count_allocated(mempool_t *pool)
{
	if (MM_DEBUG)
		local_add(1, &pool->cpu[raw_smp_processor_id()].allocs);
}

static __always_inline void count_freed(mempool_t *pool)
{
	if (MM_DEBUG)
		local_add(1, &pool->cpu[raw_smp_processor_id()].frees);
}

static inline void *hand_out(mempool_t *pool, void *element, bool reserve)
{
	count_allocated(pool);
	if (reserve)
		__atomic_fetch_add(&pool->from_reserve, 1, __ATOMIC_RELAXED);
	return element;
}

long mempool_out(const mempool_t *pool)
{
	long out = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		out += READ_ONCE(pool->cpu[cpu].allocs) -
		       READ_ONCE(pool->cpu[cpu].frees);
	return out;
}

unsigned long mempool_allocs(const mempool_t *pool)
{
	long allocs = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		allocs += READ_ONCE(pool->cpu[cpu].allocs);
	return (unsigned long)allocs;
}

/*
 * The fast path's call of the pool's allocator and free function: a slab
 * pool's are inlined (the slab array's pop and push, with kmem_cache_free's
 * check in MM_DEBUG builds), with no indirect call; any other pool's are
 * called through the pointers.  caller is whom slab owner tracking names.
 */
static __always_inline void *pool_alloc(mempool_t *pool, int gfp_mask,
					unsigned long caller)
{
	struct kmem_cache *cachep = pool->slab_cache;

	if (likely(cachep))
		return __cache_alloc(cachep, (gfp_t)gfp_mask, caller);
	return pool->alloc(gfp_mask, pool->pool_data);
}

static __always_inline void pool_free(mempool_t *pool, void *element,
				      unsigned long caller)
{
	struct kmem_cache *cachep = pool->slab_cache;

	if (likely(cachep)) {
		if (MM_DEBUG)
			slab_check_free(cachep, element, "kmem_cache_free");
		__cache_free(cachep, element, caller);
		return;
	}
	pool->free(element, pool->pool_data);
}

/* LAB mempool: BEGIN mempool_alloc(): the allocator without __GFP_WAIT and __GFP_IO, then the reserve, then wait and retry */
/* Steps 2 and 3: the allocator without sleeping has just failed. */
static __noinline void *mempool_alloc_slow(mempool_t *pool, int gfp_mask,
					   int gfp_nowait)
{
	unsigned long flags;
	void *element;

	for (;;) {
		DEFINE_WAIT(wait);

		/* 2. The reserve. */
		spin_lock_irqsave(&pool->lock, flags);
		if (pool->curr_nr) {
			element = remove_element_locked(pool);
			spin_unlock_irqrestore(&pool->lock, flags);
			poison_element(pool, element, true);
			return hand_out(pool, element, true);
		}
		spin_unlock_irqrestore(&pool->lock, flags);

		/* Not allowed to sleep: nothing more to try. */
		if (!(gfp_mask & __GFP_WAIT)) {
			__atomic_fetch_add(&pool->fails, 1, __ATOMIC_RELAXED);
			return NULL;
		}

		/* 3. The full mask, once a round: it may reclaim. */
		element = pool->alloc(gfp_mask | __GFP_NORETRY | __GFP_NOWARN,
				      pool->pool_data);
		if (element)
			return hand_out(pool, element, false);

		/* Then wait for an element to come back. */
		prepare_to_wait(&pool->wait, &wait, TASK_UNINTERRUPTIBLE);
		if (!READ_ONCE(pool->curr_nr)) {
			__atomic_fetch_add(&pool->waits, 1, __ATOMIC_RELAXED);
			io_schedule_timeout(MEMPOOL_RECHECK);
		}
		finish_wait(&pool->wait, &wait);

		/* 1. again: memory may have been freed elsewhere. */
		element = pool->alloc(gfp_nowait, pool->pool_data);
		if (element)
			return hand_out(pool, element, false);
	}
}

/* Step 1's mask: the caller's less sleeping and I/O, and no report. */
static inline int gfp_nowait_of(int gfp_mask)
{
	return (gfp_mask & ~(__GFP_WAIT | __GFP_IO)) | __GFP_NOWARN;
}

/*
 * Any other pool (or armed fault injection, through should_fail_alloc()
 * in pool_alloc()): step 1 through the pool's functions, then steps 2
 * and 3.  Out of line, so that mempool_alloc() holds nothing across a
 * call.
 */
static __noinline void *mempool_alloc_other(mempool_t *pool, int gfp_mask,
					    unsigned long caller)
{
	int gfp_nowait = gfp_nowait_of(gfp_mask);
	void *element;

	/* 1. The allocator, without sleeping or I/O. */
	element = pool_alloc(pool, gfp_nowait, caller);
	if (likely(element))
		return hand_out(pool, element, false);
	return mempool_alloc_slow(pool, gfp_mask, gfp_nowait);
}

/*
 * Step 1 past the inline pop of pool->alloc_cache's array
 * (cache_alloc_fast's slow end): for a slab pool, the cache's own slow
 * path with step 1's mask (gfp_mask is the caller's), then steps 2 and 3;
 * for any other pool (the stand-in's pop always fails), the interrupt
 * flag restored and mempool_alloc_other().
 */
static __noinline void *mempool_alloc_cache_miss(void *ctx, gfp_t gfp_mask,
						 void *objp,
						 unsigned long caller,
						 unsigned long irqflags)
{
	mempool_t *pool = ctx;
	int gfp_nowait = gfp_nowait_of((int)gfp_mask);

	if (pool->alloc_cache == &mempool_miss_cache) {
		local_irq_restore(irqflags);
		return mempool_alloc_other(pool, (int)gfp_mask, caller);
	}
	objp = cache_alloc_slow(pool->slab_cache, (gfp_t)gfp_nowait, objp,
				caller, irqflags);
	if (likely(objp))
		return hand_out(pool, objp, false);
	return mempool_alloc_slow(pool, (int)gfp_mask, gfp_nowait);
}

/* cache_alloc_fast's hit: the array's top, handed out. */
static inline void *mempool_cache_hit(void *ctx, void *objp)
{
	return hand_out(ctx, objp, false);
}

void *mempool_alloc(mempool_t *pool, int gfp_mask)
{
	if (MM_DEBUG)
		might_sleep_if(gfp_mask & __GFP_WAIT);
	/*
	 * 1. The allocator, without sleeping or I/O: a slab pool's array
	 * inline (step 1's mask differs from the caller's only in bits the
	 * hit does not look at), the rest - and any other pool, whose
	 * alloc_cache is the stand-in - in mempool_alloc_cache_miss().
	 */
	if (likely(!fail_alloc_armed()))
		return cache_alloc_fast(pool->alloc_cache, (gfp_t)gfp_mask,
					MM_RET_IP, mempool_alloc_cache_miss,
					mempool_cache_hit, pool);
	return mempool_alloc_other(pool, gfp_mask, MM_RET_IP);
}
/* LAB mempool: END */

/* LAB mempool: BEGIN mempool_free(): refill a short reserve first (poisoned, waking a waiter) */
/*
 * mempool_free() of an element its inline push did not take: a reserve
 * that looked short gets it (poisoned, under the lock, a waiter woken) if
 * it still is; anything else - a full reserve of a pool other than a slab
 * pool, or one that filled meanwhile - goes back to the allocator.  Out of
 * line, so that mempool_free()'s common case holds nothing across a call;
 * caller is mempool_free()'s, for owner tracking.
 */
static __noinline void mempool_free_other(void *element, mempool_t *pool,
					  unsigned long caller)
{
	unsigned long flags;

	/* The hint, without the lock, as 2.6 had it: the lock checks again. */
	if (READ_ONCE(pool->curr_nr) >= pool->min_nr) {
		pool_free(pool, element, caller);
		return;
	}
	poison_element(pool, element, false);
	spin_lock_irqsave(&pool->lock, flags);
	if (pool->curr_nr < pool->min_nr) {
		add_element_locked(pool, element);
		spin_unlock_irqrestore(&pool->lock, flags);
		wake_up(&pool->wait);
		return;
	}
	spin_unlock_irqrestore(&pool->lock, flags);
	pool_free(pool, element, caller);
}

/*
 * The slow end of mempool_free()'s inline push (cache_free_fast's): a
 * slab pool's full array flushes as the cache's own free would; the
 * stand-in's push (a short reserve, or not a slab pool) always fails and
 * goes to mempool_free_other(), with the interrupt flag restored first.
 */
static __noinline void mempool_free_miss(void *element, void *ctx,
					 struct kmem_cache *cachep,
					 unsigned long caller,
					 unsigned long irqflags)
{
	if (cachep != &mempool_miss_cache) {
		cache_free_slow(cachep, element, irqflags);
		return;
	}
	local_irq_restore(irqflags);
	mempool_free_other(element, ctx, caller);
}

void mempool_free(void *element, mempool_t *pool)
{
	struct kmem_cache *cachep;

	if (unlikely(!element))
		return;
	count_freed(pool);
	/*
	 * One load, without the lock: a slab pool whose reserve is full
	 * pushes onto its cache's array inline; any other (the stand-in's
	 * push fails) goes out of line, which looks at the reserve again.
	 */
	cachep = READ_ONCE(pool->free_cache);
	if (MM_DEBUG && cachep != &mempool_miss_cache)
		slab_check_free(cachep, element, "kmem_cache_free");
	cache_free_fast(cachep, element, MM_RET_IP, mempool_free_miss, pool);
}
/* LAB mempool: END */

/* ---- the usual allocators ------------------------------------------- */

void *mempool_alloc_slab(int gfp_mask, void *pool_data)
{
	return kmem_cache_alloc(pool_data, (gfp_t)gfp_mask);
}

void mempool_free_slab(void *element, void *pool_data)
{
	kmem_cache_free(pool_data, element);
}

void *mempool_kmalloc(int gfp_mask, void *pool_data)
{
	return kmalloc((size_t)pool_data, (gfp_t)gfp_mask);
}

void mempool_kfree(void *element, void *pool_data)
{
	kfree(element);
}

void *mempool_alloc_pages(int gfp_mask, void *pool_data)
{
	return alloc_pages((gfp_t)gfp_mask, (unsigned int)(unsigned long)pool_data);
}

void mempool_free_pages(void *element, void *pool_data)
{
	__free_pages(element, (unsigned int)(unsigned long)pool_data);
}

mempool_t *mempool_create_slab_pool(int min_nr, struct kmem_cache *cachep)
{
	return mempool_create(min_nr, mempool_alloc_slab, mempool_free_slab,
			      cachep);
}

mempool_t *mempool_create_kmalloc_pool(int min_nr, size_t size)
{
	return mempool_create(min_nr, mempool_kmalloc, mempool_kfree,
			      (void *)size);
}

mempool_t *mempool_create_page_pool(int min_nr, int order)
{
	return mempool_create(min_nr, mempool_alloc_pages, mempool_free_pages,
			      (void *)(long)order);
}

/* ---- statistics ------------------------------------------------------ */

unsigned long mempool_reserved_bytes(void)
{
	unsigned long bytes = 0, flags;
	mempool_t *pool;

	spin_lock_irqsave(&pools_lock, flags);
	list_for_each_entry(pool, &pools, list)
		bytes += (unsigned long)READ_ONCE(pool->curr_nr) *
			 element_size(pool);
	spin_unlock_irqrestore(&pools_lock, flags);
	return bytes;
}

void show_mempools(void)
{
	unsigned long flags;
	mempool_t *pool;

	pr_info("mempools:\n");
	pr_info("# pool       kind                     min_nr curr_nr    out     allocs from_reserve  waits  fails\n");
	spin_lock_irqsave(&pools_lock, flags);
	list_for_each_entry(pool, &pools, list) {
		char what[40];

		describe_pool(pool, what, sizeof(what));
		if (MM_DEBUG)
			pr_info("%p %-24s %6d %7d %6ld %10lu %12lu %6lu %6lu\n",
				(void *)pool, what, pool->min_nr, pool->curr_nr,
				mempool_out(pool), mempool_allocs(pool),
				pool->from_reserve, pool->waits, pool->fails);
		else	/* out and allocs are not counted */
			pr_info("%p %-24s %6d %7d %6s %10s %12lu %6lu %6lu\n",
				(void *)pool, what, pool->min_nr, pool->curr_nr,
				"-", "-", pool->from_reserve, pool->waits,
				pool->fails);
	}
	spin_unlock_irqrestore(&pools_lock, flags);
}
