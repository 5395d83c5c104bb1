/*
 * mm/slab.c - the slab allocator (Bonwick 1994; Linux 2.6's mm/slab.c).
 *
 * Why: most kernel allocations are small objects of a few fixed types,
 * allocated and freed at high rates.  Carving whole pages into objects of
 * one size wastes little, keeps objects of a type together, and lets a
 * constructor's work survive free/alloc cycles (the constructor runs when
 * an object is built, not each time it is handed out).  A per-CPU array
 * of free objects in front of the slabs (a magazine) makes the common
 * alloc and free a push or pop with interrupts off (2.6.11): no lock, no
 * shared cache line - each CPU's array sits on cache lines of its own
 * (mm/slab_cache.c).  Slabs are coloured - each new one starts its objects
 * one cache line further in, cycling (2.6.11) - so that the same object of
 * different slabs does not always compete for the same cache sets.
 *
 * Releases followed: an empty array takes up to batchcount objects,
 * partial slabs first, under one lock, and looks at itself again after a
 * grow that ran with interrupts on (2.6.11's cache_alloc_refill); a full
 * array gives its oldest batchcount back (2.6.11); each node has a shared
 * array of 8 * batchcount objects when the cache has more than one CPU
 * and objects up to a page (2.6.11's l3->shared): a full CPU array's
 * flush first goes there while it has room, and an empty one's refill
 * first takes from it - objects that one CPU frees and another allocates
 * pass through it without touching a slab; a slab that empties goes back
 * to the page allocator once its node holds more than free_limit free
 * objects (2.6.11); slabs are kept per node and a refill takes from this
 * CPU's node (2.6.14).  From later Linux: obj_to_index multiplies by a
 * reciprocal instead of dividing (2.6.22's reciprocal_divide); free_block
 * moves a slab between lists only when its state changes, not for every
 * object; a slab given back is unlinked under list_lock and its pages
 * freed after the lock is dropped (Linux 4.6); an array that finds its
 * node without free objects - at a glance, without the lock - makes a
 * slab with no lock held, takes its batch straight from it and then
 * lists it, one list_lock acquisition a grow where 2.6's took four (to
 * look, for the colour, to list the slab, to look again), and the
 * colour step takes no lock (Linux 4.6; a compare-and-exchange
 * here keeps the cycle exact where 4.6's was racy); the shared array is
 * glanced at without the lock first, so an empty (full) one costs a
 * refill (flush) nothing.  Not from Linux: a run of frees longer than a
 * CPU's array and its node's shared array grows the array, eightfold at
 * most, as 6.7 grows its hot lists (cpu_array_grow).  The hit is inline
 * in the entry points (mm/slab_internal.h: kmalloc and the mempools
 * inline it too)
 * and the refill and the flush out of line (2.6.11's
 * ____cache_alloc/cache_alloc_refill and __cache_free/cache_flusharray
 * split), so a hit saves no registers for calls it does not make: the
 * inline path ends in a call only as its last act (cache_alloc_slow,
 * cache_free_slow: the shared array's step, the refill or flush, debug,
 * zeroing and the full local_irq_restore), and restores the interrupt
 * flag with a bare store when nothing needs telling
 * (kernel/spinlock.h: local_irq_restore_fast).  The shared array's step
 * sits in those slow ends, before cache_alloc_cpu (cache_free_cpu) goes
 * to the slabs, where 2.6.11 had it inside cache_alloc_refill
 * (cache_flusharray): the same order of sources, one function further
 * out.  The checks of what kmem_cache_free() is given and the slab
 * debugging (mm/slab_debug.c) are MM_DEBUG's (mm/mm.h): a production
 * build compiles them out, as 2.6 without DEBUG had none.  Not followed:
 * alien arrays (a CPU's or a node's shared array may hold objects of
 * another node's slabs; free_block gives each back to its own node),
 * cache_reap's periodic drain of the shared arrays (they are drained by
 * kmem_cache_shrink and the reaper only), the small refill of an
 * untouched array, and a kmem_cache_shrink() that returns whether slabs
 * remain - here it returns the pages freed (docs/linux-2.6.md lists
 * these).
 *
 * Invariants:
 *  - every object is in exactly one place: handed out, in one CPU's array,
 *    in one node's shared array, or on its slab's free chain;
 *    slab->inuse counts the first three;
 *  - a slab is on its node's slabs_full (inuse == num), slabs_partial or
 *    slabs_free (inuse == 0) list, by that count, or - between
 *    cache_grow_begin and cache_grow_end, and between slab_unlink_locked
 *    and slab_destroy - on no node's list and out of its counts, held
 *    by the one CPU that made or unlinked it;
 *  - l3->free_objects is the number of objects on free chains of the
 *    node's listed slabs; a shared array holds at most its limit;
 *  - a CPU's array holds at most its limit, which is at least the
 *    cache's (2.6's) and at most array_max, the room it was made with;
 *  - every page of a slab has PG_slab and knows its cache and slab.
 *
 * Locking, in this order: cache_chain_mutex (the list of caches) >
 * l3->list_lock (a node's slabs of one cache and its shared array) >
 * zone->lock (inside the page allocator).  No two list_locks nest: a
 * slab's pages and its off-slab descriptor are given back after the
 * lock is dropped, and the shared array is emptied a chunk at a time,
 * free_block taking the lock of each object's node after.  A CPU's array
 * is touched only by that CPU with interrupts off; other CPUs drain it by
 * cross-call.  Slabs are made and their pages allocated without
 * list_lock held.  l3->free_objects and a shared array's avail are
 * written under list_lock with WRITE_ONCE: the allocation and free paths
 * glance at them without the lock.
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/slab_internal.h"
#include "mm/topology.h"




/* ---- slabs ----------------------------------------------------------- */

/*
 * Takes the first n objects off slabp's free chain into objpp[] (n at
 * most the free ones).  The chain, the start and the size are read into
 * locals once: a store to objpp[] may alias the slab's fields and the
 * cache's, which the compiler would otherwise load again per object.
 */
static void slab_get_objs(struct kmem_cache *cachep, struct slab *slabp,
			  void **objpp, unsigned int n)
{
	char *base = (char *)slabp->s_mem + cachep->obj_offset;
	unsigned int size = cachep->buffer_size;
	kmem_bufctl_t free = slabp->free;

	slabp->inuse += n;
	while (n--) {
		*objpp++ = base + free * size;
		free = slabp->bufctl[free];
	}
	slabp->free = free;
}

/* Puts the object at index idx back at the head of slabp's free chain. */
static void slab_put_obj(struct slab *slabp, unsigned int idx)
{
	slabp->bufctl[idx] = slabp->free;
	slabp->free = (kmem_bufctl_t)idx;
	slabp->inuse--;
}

/* The descriptor of a new slab: on it, or from the descriptor cache. */
static struct slab *alloc_slabmgmt(struct kmem_cache *cachep, void *addr,
				   unsigned long colour_off, gfp_t flags)
{
	struct slab *slabp;

	if (cachep->flags & CFLGS_OFF_SLAB) {
		slabp = kmem_cache_alloc(cachep->slabp_cache,
					 flags & ~(__GFP_DMA | __GFP_ZERO));
		if (!slabp)
			return NULL;
		slabp->s_mem = (char *)addr + colour_off;
	} else {
		slabp = (struct slab *)((char *)addr + colour_off);
		slabp->s_mem = (char *)addr + colour_off + cachep->slab_size;
	}
	slabp->colouroff = colour_off;
	slabp->inuse = 0;
	return slabp;
}

/* Builds every object of a new slab (the constructor runs here, once). */
static void cache_init_objs(struct kmem_cache *cachep, struct slab *slabp)
{
	for (unsigned int i = 0; i < cachep->num; i++) {
		void *objp = index_to_obj(cachep, slabp, i);

		if (cachep->flags & SLAB_DEBUG_FLAGS)
			slab_debug_init_obj(cachep, objp);
		if (cachep->ctor) {
			cachep->ctor(objp);
			slab_stat_inc(&cachep->ctor_calls);
		}
		slabp->bufctl[i] = i + 1;
	}
	slabp->bufctl[cachep->num - 1] = BUFCTL_END;
	slabp->free = 0;
}

/*
 * The colour of the next slab of a node, and the node's colour moved on
 * to the one after it, cycling (Linux 4.6 took the step out of
 * list_lock; here a compare-and-exchange makes it exact, so that two
 * CPUs growing at once take two colours in turn, never one twice or one
 * past the last).
 */
static unsigned int next_colour(struct kmem_cache *cachep,
				struct kmem_list3 *l3)
{
	unsigned int colour = READ_ONCE(l3->colour_next), next;

	do {
		/* LAB slab: BEGIN the colour after this one, cycling back to 0 after the last */
		next = colour + 1 < cachep->colour ? colour + 1 : 0;
		/* LAB slab: END */
	} while (!__atomic_compare_exchange_n(&l3->colour_next, &colour, next,
					      false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return colour;
}

/*
 * Makes one slab for node nid, with no lock held (Linux 4.6's
 * cache_grow_begin): its colour, its pages, its descriptor and its
 * objects, built and free; cache_grow_end() lists it.  Between the two
 * the slab is the caller's alone, on no list and in no count, so the
 * caller may take objects off it without a lock.  Called with
 * interrupts off (the CPU array's rule, asserted), which it turns back
 * on around the page allocation and the constructors when the caller
 * may sleep - the allocation may reclaim and wait, and the caller's CPU
 * array must be looked at afresh after.  NULL when no page (or no
 * off-slab descriptor) could be had.
 */
static struct slab *cache_grow_begin(struct kmem_cache *cachep, gfp_t flags,
				     int nid)
{
	unsigned long offset;
	struct page *page;
	struct slab *slabp = NULL;
	void *addr;

	lockdep_assert_irqs_disabled();
	offset = next_colour(cachep, &cachep->nodelists[nid]) *
		 cachep->colour_off;

	/* Slab pages need an address: never highmem. */
	flags = (flags & ~(__GFP_HIGHMEM | __GFP_ZERO | __GFP_COLD)) |
		cachep->gfpflags;
	if (flags & __GFP_WAIT)
		local_irq_enable();
	page = alloc_pages_node(nid, flags, cachep->gfporder);
	if (!page)
		goto out;
	addr = page_address(page);
	slabp = alloc_slabmgmt(cachep, addr, offset, flags);
	if (!slabp) {
		__free_pages(page, cachep->gfporder);
		goto out;
	}
	slabp->nodeid = nid;
	for (unsigned int i = 0; i < (1U << cachep->gfporder); i++) {
		__SetPageSlab(page + i);
		page[i].owner_data[0] = (unsigned long)cachep;
		page[i].owner_data[1] = (unsigned long)slabp;
	}
	cache_init_objs(cachep, slabp);
out:
	if (flags & __GFP_WAIT)
		local_irq_disable();
	return slabp;
}

/*
 * Lists a slab cache_grow_begin() made on its node, on the list its
 * count says, and counts it (Linux 4.6's cache_grow_end): the one
 * list_lock acquisition a grow costs.  Interrupts off (asserted); NULL
 * (a grow that failed) is nothing to do.
 */
static void cache_grow_end(struct kmem_cache *cachep, struct slab *slabp)
{
	struct kmem_list3 *l3;

	lockdep_assert_irqs_disabled();
	if (!slabp)
		return;
	l3 = &cachep->nodelists[slabp->nodeid];
	spin_lock(&l3->list_lock);
	if (slabp->inuse == cachep->num)
		list_add_tail(&slabp->list, &l3->slabs_full);
	else if (slabp->inuse)
		list_add_tail(&slabp->list, &l3->slabs_partial);
	else
		list_add_tail(&slabp->list, &l3->slabs_free);
	WRITE_ONCE(l3->free_objects,
		   l3->free_objects + cachep->num - slabp->inuse);
	l3->nr_slabs++;
	slab_stat_inc(&cachep->grown);
	spin_unlock(&l3->list_lock);
}

/* The first byte of a slab's pages. */
static void *slab_pages(const struct kmem_cache *cachep, const struct slab *slabp)
{
	unsigned long mgmt = (cachep->flags & CFLGS_OFF_SLAB) ? 0 : cachep->slab_size;

	return (char *)slabp->s_mem - slabp->colouroff - mgmt;
}

/*
 * Takes a free slab off its node, the node's list_lock held (asserted):
 * off its list onto the caller's list of slabs to destroy, its objects
 * out of free_objects, out of nr_slabs.  The caller gives them back with
 * slab_destroy_list() after dropping the lock (Linux 4.6).
 */
static void slab_unlink_locked(struct kmem_cache *cachep,
			       struct kmem_list3 *l3, struct slab *slabp,
			       struct list_head *doomed)
{
	lockdep_assert_held(&l3->list_lock);
	list_move(&slabp->list, doomed);
	WRITE_ONCE(l3->free_objects, l3->free_objects - cachep->num);
	l3->nr_slabs--;
}

/*
 * Gives a free slab's pages back, no list_lock held: the slab is on no
 * node's list (slab_unlink_locked).  An off-slab descriptor goes back to
 * its own (smaller) cache.
 */
static void slab_destroy(struct kmem_cache *cachep, struct slab *slabp)
{
	struct page *page = virt_to_page(slab_pages(cachep, slabp));

	if (cachep->flags & (SLAB_POISON | SLAB_RED_ZONE))
		for (unsigned int i = 0; i < cachep->num; i++)
			slab_debug_check_free_obj(cachep,
						  index_to_obj(cachep, slabp, i));

	for (unsigned int i = 0; i < (1U << cachep->gfporder); i++) {
		__ClearPageSlab(page + i);
		page[i].owner_data[0] = page[i].owner_data[1] = 0;
	}
	slab_stat_inc(&cachep->reaped);
	if (cachep->flags & CFLGS_OFF_SLAB)
		kmem_cache_free(cachep->slabp_cache, slabp);
	__free_pages(page, cachep->gfporder);
}

/* Destroys the slabs slab_unlink_locked() put on doomed; pages freed. */
static unsigned int slab_destroy_list(struct kmem_cache *cachep,
				      struct list_head *doomed)
{
	struct slab *slabp, *next;
	unsigned int pages = 0;

	list_for_each_entry_safe(slabp, next, doomed, list) {
		slab_destroy(cachep, slabp);
		pages += 1U << cachep->gfporder;
	}
	return pages;
}

/*
 * Returns nr objects to their slabs (2.6's free_block).  A slab changes
 * lists only when its state does (later Linux): a full one that gets an
 * object back goes to the tail of slabs_partial, one that becomes free to
 * slabs_free - or, when its node already has more free objects than
 * free_limit, is given back after the lock is dropped (Linux 4.6); a
 * partial slab that stays partial stays where it is.  Interrupts off
 * (asserted); takes each node's list_lock.
 */
static unsigned int free_block(struct kmem_cache *cachep, void **objpp,
			       unsigned int nr)
{
	/* Read once: slab_put_obj()'s stores may alias the cache's fields. */
	const unsigned int full = cachep->num;
	struct kmem_list3 *l3 = NULL;
	int locked = -1;	/* the node whose list_lock is held */
	unsigned long freed = 0;	/* objects not yet in l3->free_objects */
	LIST_HEAD(doomed);

	lockdep_assert_irqs_disabled();

	for (unsigned int i = 0; i < nr; i++) {
		void *objp = objpp[i];
		struct slab *slabp = page_get_slab(virt_to_page(objp));

		/* An MM_DEBUG build checks what it is given; production trusts it. */
		if (MM_DEBUG)
			BUG_ON(obj_to_index(cachep, slabp, objp) < 0);
		/* One acquisition for a run of objects of the same node. */
		if (unlikely(slabp->nodeid != locked)) {
			if (l3) {
				WRITE_ONCE(l3->free_objects,
					   l3->free_objects + freed);
				spin_unlock(&l3->list_lock);
			}
			freed = 0;
			locked = slabp->nodeid;
			l3 = &cachep->nodelists[locked];
			spin_lock(&l3->list_lock);
		}
		slab_put_obj(slabp, obj_index(cachep, slabp, objp));
		freed++;
		if (slabp->inuse == 0) {
			if (l3->free_objects + freed > l3->free_limit) {
				WRITE_ONCE(l3->free_objects,
					   l3->free_objects + freed);
				freed = 0;
				slab_unlink_locked(cachep, l3, slabp, &doomed);
			} else {
				list_move(&slabp->list, &l3->slabs_free);
			}
		} else if (slabp->inuse == full - 1) {
			list_move_tail(&slabp->list, &l3->slabs_partial);
		}
	}
	if (l3) {
		WRITE_ONCE(l3->free_objects, l3->free_objects + freed);
		spin_unlock(&l3->list_lock);
	}
	return slab_destroy_list(cachep, &doomed);
}

/* ---- the per-CPU arrays ---------------------------------------------- */

/*
 * This CPU's array (2.6's cpu_cache_get).  Interrupts must be off: a
 * handler on this CPU pushes and pops the same array, and with them on a
 * task preempted between the lookup and the push would share it with the
 * task that runs next (asserted by cpu_array(); __cpu_array(), in
 * mm/slab_internal.h, is for the fast paths that turn them off in the
 * same function just before).
 */
static __always_inline struct array_cache *cpu_array(struct kmem_cache *cachep)
{
	lockdep_assert_irqs_disabled();
	/* Interrupts off, just asserted: smp_processor_id()'s check is moot. */
	return __cpu_array(cachep);
}

/*
 * Moves up to nr free objects of a node's slabs to objpp[] - partial
 * slabs first, then free ones, so that partly used slabs fill up and free
 * ones stay whole to be given back (2.6.11's refill loop) - and each slab
 * it took from to the list its new count says; returns how many it took,
 * 0 when the node has no free object.  The mirror of free_block; the
 * node's list_lock held (asserted).
 */
static unsigned int take_objs_locked(struct kmem_cache *cachep,
				     struct kmem_list3 *l3, void **objpp,
				     unsigned int nr)
{
	unsigned int taken = 0;

	lockdep_assert_held(&l3->list_lock);
	while (taken < nr) {
		struct list_head *from = !list_empty(&l3->slabs_partial) ?
						 &l3->slabs_partial :
						 &l3->slabs_free;
		struct slab *slabp;
		unsigned int n;

		if (list_empty(from))
			break;
		slabp = list_first_entry(from, struct slab, list);
		n = min(cachep->num - slabp->inuse, nr - taken);
		WRITE_ONCE(l3->free_objects, l3->free_objects - n);
		slab_get_objs(cachep, slabp, objpp + taken, n);
		taken += n;
		/* Only a change of state moves the slab (it stays first). */
		if (slabp->inuse == cachep->num)
			list_move(&slabp->list, &l3->slabs_full);
		else if (from == &l3->slabs_free)
			list_move(&slabp->list, &l3->slabs_partial);
	}
	return taken;
}

/*
 * An object for this CPU: the top of its array, the object freed here
 * last (cache-hot).  An empty array first takes up to batchcount objects
 * from this node's slabs under one list_lock (2.6.11's ____cache_alloc
 * and cache_alloc_refill); when the node has none - seen without the
 * lock - a slab is made and up to batchcount of its objects go straight
 * into the array before it is listed, so that a grow takes list_lock
 * once (Linux 4.6).  Interrupts off (asserted).  __cache_alloc()
 * (mm/slab_internal.h) pops a non-empty array itself and calls this out
 * of line for the rest, as 2.6.11's ____cache_alloc called
 * cache_alloc_refill: the fast path then saves no registers for the
 * refill's calls.
 */
__noinline void *cache_alloc_cpu(struct kmem_cache *cachep, gfp_t flags)
{
	/* LAB slab: BEGIN pop the top of this CPU's array; an empty array takes a batch from the slabs first, or from a new slab */
	struct array_cache *ac = cpu_array(cachep);	/* asserts IRQs off */
	struct kmem_list3 *l3;
	struct slab *slabp;
	int nid;

	if (likely(ac->avail))
		return ac_pop(ac);
	nid = numa_node_id();
	l3 = &cachep->nodelists[nid];
	/* A glance first: a node with no free object costs no lock (4.6). */
	if (READ_ONCE(l3->free_objects)) {
		spin_lock(&l3->list_lock);
		ac->avail = take_objs_locked(cachep, l3, ac->entry,
					     ac->batchcount);
		spin_unlock(&l3->list_lock);
		if (ac->avail)
			return ac_pop(ac);
	}
	slabp = cache_grow_begin(cachep, flags, nid);
	/*
	 * A sleeping grow ran with interrupts on: a handler on this CPU may
	 * have filled the array meanwhile, and refilling on top of that
	 * would write past its limit (Linux 2.6's rule: look again before
	 * refilling).  The new slab is then listed whole.
	 */
	ac = cpu_array(cachep);
	if (slabp && !ac->avail) {
		ac->avail = min(cachep->num, ac->batchcount);
		slab_get_objs(cachep, slabp, ac->entry, ac->avail);
	}
	cache_grow_end(cachep, slabp);
	return ac->avail ? ac_pop(ac) : NULL;
	/* LAB slab: END */
}

/*
 * Puts a freed object on top of this CPU's array.  A full array first
 * gives its oldest batchcount objects back to their slabs, and keeps the
 * rest, the newest, at its bottom (2.6.11's cache_flusharray).
 * Interrupts off (asserted).  __cache_free() (mm/slab_internal.h)
 * pushes onto an array with room itself and calls this out of line for a
 * full one (2.6.11's __cache_free and cache_flusharray).
 */
__noinline void cache_free_cpu(struct kmem_cache *cachep, void *objp)
{
	/* LAB slab: BEGIN push onto this CPU's array; a full array first gives its oldest batch back */
	struct array_cache *ac = cpu_array(cachep);

	if (unlikely(ac->avail >= ac->limit)) {
		unsigned int batch = min(ac->batchcount, ac->avail);

		free_block(cachep, ac->entry, batch);
		ac->avail -= batch;
		memmove(ac->entry, ac->entry + batch,
			ac->avail * sizeof(void *));
	}
	ac->entry[ac->avail++] = objp;
	/* LAB slab: END */
}

/* ---- the arrays' size -------------------------------------------------- */

/*
 * A full array whose node's shared array is full too would give a batch
 * to the slabs: when the run of frees that filled them is at least the
 * array's limit, the array doubles its limit instead, up to the cache's
 * array_max, and the free goes on top of it.  A run is counted a batch
 * at each full array (cache_free_slow) and halved at each empty one
 * (cache_alloc_slow), so that it measures frees not taken back, as
 * Linux 6.7's free_count does for the page allocator's hot lists.  No
 * array grows while the freed object's zone has fewer than pages_high
 * free pages (6.7's test for its hot lists), and a drain -
 * kmem_cache_shrink, destroy, the reaper - puts the array back to 2.6's
 * limit.  Every CPU's array has room for array_max from its cache's
 * creation (mm/slab_cache.c's array_stride), so that growing is a
 * store: no allocation in a free, and no array that moves or goes while
 * another CPU counts it.  Interrupts off (asserted).
 *
 * Not from Linux: SLAB's enable_cpucache says its sizes "are guessed,
 * we should auto-tune as described by Bonwick", and never did; this
 * tunes by the run of frees, as 6.7 tunes its hot lists, where Bonwick
 * resized magazines on depot lock contention.
 */
static void cpu_array_grow(struct kmem_cache *cachep, struct array_cache *ac,
			   const void *objp)
{
	unsigned int limit = min(ac->limit * 2, cachep->array_max);
	struct zone *zone = page_zone(virt_to_page(objp));

	lockdep_assert_irqs_disabled();
	if (limit > ac->limit && ac->free_run >= ac->limit &&
	    READ_ONCE(zone->free_pages) >= zone->pages_high)
		ac->limit = limit;
}

/* A drained array: back to 2.6's limit, its run forgotten. */
static void cpu_array_reset(struct kmem_cache *cachep, struct array_cache *ac)
{
	ac->limit = cachep->limit;
	ac->free_run = 0;
}

/* ---- the shared arrays ------------------------------------------------ */

/*
 * This CPU's node's lists of cachep; their shared array (2.6.11's
 * l3->shared) is NULL when the cache has none (one CPU, or objects
 * larger than a page).
 */
static __always_inline struct kmem_list3 *this_node_l3(struct kmem_cache *cachep)
{
	return &cachep->nodelists[numa_node_id()];
}

/*
 * Before an empty array refills from the slabs: it takes up to batchcount
 * objects from its node's shared array, the ones flushed there last,
 * under the node's list_lock (2.6.11's cache_alloc_refill).  A glance
 * without the lock first: an empty shared array costs no lock (later
 * Linux).  Interrupts off (asserted).
 */
static void shared_refill(struct kmem_cache *cachep, struct array_cache *ac)
{
	struct kmem_list3 *l3 = this_node_l3(cachep);
	struct array_cache *shared = l3->shared;
	unsigned int nr;

	lockdep_assert_irqs_disabled();
	if (!shared || !READ_ONCE(shared->avail))
		return;
	spin_lock(&l3->list_lock);
	nr = min(min(ac->batchcount, shared->avail), ac->limit - ac->avail);
	WRITE_ONCE(shared->avail, shared->avail - nr);
	memcpy(ac->entry + ac->avail, shared->entry + shared->avail,
	       nr * sizeof(void *));
	shared->touched = 1;
	spin_unlock(&l3->list_lock);
	ac->avail += nr;
}

/*
 * Before a full array flushes to the slabs: its oldest batchcount objects
 * go to its node's shared array while that has room (as many as fit),
 * and the rest move down (2.6.11's cache_flusharray); a full shared array
 * costs no lock (a glance first).  Interrupts off (asserted).
 */
static void shared_flush(struct kmem_cache *cachep, struct array_cache *ac)
{
	struct kmem_list3 *l3 = this_node_l3(cachep);
	struct array_cache *shared = l3->shared;
	unsigned int nr;

	lockdep_assert_irqs_disabled();
	if (!shared || READ_ONCE(shared->avail) >= shared->limit)
		return;
	spin_lock(&l3->list_lock);
	nr = min(min(ac->batchcount, ac->avail), shared->limit - shared->avail);
	memcpy(shared->entry + shared->avail, ac->entry, nr * sizeof(void *));
	WRITE_ONCE(shared->avail, shared->avail + nr);
	spin_unlock(&l3->list_lock);
	ac->avail -= nr;
	memmove(ac->entry, ac->entry + nr, ac->avail * sizeof(void *));
}

/*
 * Empties every node's shared array of cachep into the slabs; pages
 * freed.  free_block takes the list_lock of each object's node, which
 * may be this one, so the objects leave the array a chunk at a time
 * under the lock and go to their slabs after it; each round takes at
 * least one, or ends.  Interrupts on (task context).
 */
static unsigned int drain_shared(struct kmem_cache *cachep)
{
	void *chunk[32];
	unsigned int pages = 0;

	for (int nid = 0; nid < nr_online_nodes; nid++) {
		struct kmem_list3 *l3 = &cachep->nodelists[nid];
		unsigned int rounds;

		if (!l3->shared)
			continue;
		rounds = DIV_ROUND_UP(l3->shared->limit, ARRAY_SIZE(chunk));
		while (rounds--) {
			unsigned long flags;
			unsigned int nr;

			spin_lock_irqsave(&l3->list_lock, flags);
			nr = min(l3->shared->avail, (unsigned int)ARRAY_SIZE(chunk));
			WRITE_ONCE(l3->shared->avail, l3->shared->avail - nr);
			memcpy(chunk, l3->shared->entry + l3->shared->avail,
			       nr * sizeof(void *));
			spin_unlock(&l3->list_lock);
			pages += free_block(cachep, chunk, nr);
			local_irq_restore(flags);
			if (!nr)
				break;
		}
	}
	return pages;
}

/*
 * The out-of-line ends of __cache_alloc() and __cache_free()
 * (mm/slab_internal.h): the refill of an empty array (from the node's
 * shared array first, then cache_alloc_cpu's from the slabs), the flush
 * of a full one (to the shared array first, then cache_free_cpu's to the
 * slabs), the full local_irq_restore(), the debug and the zeroing.  The
 * inline paths call them last, so that they hold nothing across a call.
 */
__noinline void *cache_alloc_slow(void *ctx, gfp_t flags, void *objp,
				  unsigned long caller, unsigned long irqflags)
{
	struct kmem_cache *cachep = ctx;

	if (!objp) {
		struct array_cache *ac = cpu_array(cachep);

		if (!ac->avail) {
			/* An empty array: the run of frees is cut in half. */
			ac->free_run >>= 1;
			shared_refill(cachep, ac);
		}
		objp = cache_alloc_cpu(cachep, flags);
	}
	local_irq_restore(irqflags);
	if (unlikely(!objp))
		return NULL;
	if (MM_DEBUG && unlikely(cachep->flags & SLAB_DEBUG_FLAGS))
		slab_debug_alloc(cachep, objp, caller);
	if (unlikely(flags & __GFP_ZERO))
		memset(objp, 0, cachep->object_size);
	return objp;
}

__noinline void cache_free_slow(struct kmem_cache *cachep, void *objp,
				unsigned long irqflags)
{
	struct array_cache *ac = cpu_array(cachep);

	if (ac->avail >= ac->limit) {
		ac->free_run = min(ac->free_run + ac->batchcount, cachep->array_max);
		shared_flush(cachep, ac);
		if (ac->avail >= ac->limit)
			cpu_array_grow(cachep, ac, objp);
	}
	cache_free_cpu(cachep, objp);
	local_irq_restore(irqflags);
}

struct drain_arg {
	struct kmem_cache *cachep;
	unsigned int pages;	/* slabs that emptied and were given back */
};

static void do_drain(void *arg)
{
	struct drain_arg *d = arg;
	struct array_cache *ac = cpu_array(d->cachep);

	__atomic_fetch_add(&d->pages, free_block(d->cachep, ac->entry, ac->avail),
			   __ATOMIC_RELAXED);
	ac->avail = 0;
	cpu_array_reset(d->cachep, ac);
}

/* Empties every CPU's array of cachep (by cross-call); pages freed. */
static unsigned int drain_cpu_caches(struct kmem_cache *cachep)
{
	struct drain_arg d = { cachep, 0 };

	on_each_cpu(do_drain, &d, true);
	return d.pages;
}

/* ---- allocating and freeing ------------------------------------------ */

void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t flags)
{
	if (MM_DEBUG)
		might_sleep_if(flags & __GFP_WAIT);
	return __cache_alloc(cachep, flags, MM_RET_IP);
}

/*
 * The object must be a live object of this cache: where it points is
 * checked in every MM_DEBUG build (it catches a free to the wrong cache);
 * whether it is live is checked with slab debugging on.  A production
 * build (MM_DEBUG=0) checks nothing, as 2.6's kmem_cache_free without
 * DEBUG did not.
 */
static __always_inline void check_free(struct kmem_cache *cachep,
				       const void *objp, const char *fn)
{
	struct page *page;

	if (!virt_addr_valid(objp) || !PageSlab(page = virt_to_page(objp)))
		slab_bug(cachep, objp, "%s: %p is not a slab object", fn, objp);
	if (page_get_cache(page) != cachep)
		slab_bug(cachep, objp, "%s: object %p belongs to cache %s, freed to cache %s",
			 fn, objp, page_get_cache(page)->name, cachep->name);
	if (obj_to_index(cachep, page_get_slab(page), objp) < 0)
		slab_bug(cachep, objp, "%s: %p is inside a slab of %s but not the start of an object",
			 fn, objp, cachep->name);
}

/* check_free() for the mempools' inline free. */
void slab_check_free(struct kmem_cache *cachep, const void *objp,
		     const char *fn)
{
	check_free(cachep, objp, fn);
}

void kmem_cache_free(struct kmem_cache *cachep, void *objp)
{
	if (MM_DEBUG)
		check_free(cachep, objp, "kmem_cache_free");
	__cache_free(cachep, objp, MM_RET_IP);
}

/* ---- caches ---------------------------------------------------------- */

/* Frees every free slab of every node; returns the pages freed. */
static int drain_freelist(struct kmem_cache *cachep)
{
	int pages = 0;

	for (int nid = 0; nid < nr_online_nodes; nid++) {
		struct kmem_list3 *l3 = &cachep->nodelists[nid];
		unsigned long flags;

		LIST_HEAD(doomed);

		spin_lock_irqsave(&l3->list_lock, flags);
		while (!list_empty(&l3->slabs_free))
			slab_unlink_locked(cachep, l3,
					   list_first_entry(&l3->slabs_free,
							    struct slab, list),
					   &doomed);
		spin_unlock_irqrestore(&l3->list_lock, flags);
		pages += (int)slab_destroy_list(cachep, &doomed);
	}
	return pages;
}

int kmem_cache_shrink(struct kmem_cache *cachep)
{
	int pages = (int)drain_cpu_caches(cachep);

	pages += (int)drain_shared(cachep);
	return pages + drain_freelist(cachep);
}

/* On each CPU: every cache's array back to its slabs (one cross-call). */
static void do_drain_all(void *arg)
{
	unsigned int *pages = arg;
	struct kmem_cache *cachep;

	list_for_each_entry(cachep, &cache_chain, next) {
		struct array_cache *ac = cpu_array(cachep);

		__atomic_fetch_add(pages, free_block(cachep, ac->entry, ac->avail),
				   __ATOMIC_RELAXED);
		ac->avail = 0;
		cpu_array_reset(cachep, ac);
	}
}

/*
 * Does cpu hold objects in any cache's array, or an array grown past
 * 2.6's limit (which the drain puts back, empty or not)?  cache_chain_mutex
 * held; the counts are the other CPU's, read without its consent (hints,
 * as on_each_cpu_cond() says).
 */
static bool cpu_array_to_drain(int cpu, void *unused)
{
	struct kmem_cache *cachep;

	list_for_each_entry(cachep, &cache_chain, next) {
		struct array_cache *ac = cachep->array[cpu];

		if (ac && (data_race(READ_ONCE(ac->avail)) ||
			   data_race(READ_ONCE(ac->limit)) != cachep->limit))
			return true;
	}
	return false;
}

/* cache_chain_mutex held: every cache's free memory back to the pages. */
static unsigned long reap_all_locked(void)
{
	struct kmem_cache *cachep;
	unsigned long pages = 0;

	lockdep_assert_held(&cache_chain_mutex);
	/*
	 * Twice: giving back an off-slab slab frees its descriptor into a
	 * smaller cache's array, which the second pass empties.  Each pass
	 * is one cross-call for all caches, not one per cache, and only to
	 * the CPUs whose arrays hold something or have grown (the second
	 * pass's, mostly this CPU's descriptors, is seldom more than a local
	 * call).
	 */
	for (int pass = 0; pass < 2; pass++) {
		unsigned int drained = 0;

		on_each_cpu_cond(cpu_array_to_drain, do_drain_all,
				 &drained, true);
		pages += drained;
		list_for_each_entry(cachep, &cache_chain, next)
			pages += drain_shared(cachep) +
				 (unsigned long)drain_freelist(cachep);
	}
	return pages;
}

unsigned long kmem_cache_reap_all(void)
{
	unsigned long pages;

	mutex_lock(&cache_chain_mutex);
	pages = reap_all_locked();
	mutex_unlock(&cache_chain_mutex);
	return pages;
}

/*
 * For reclaim: the same, unless someone holds the list (creating a cache,
 * or reaping already): reclaim must not wait for a cache being created by
 * the allocation it serves.
 */
unsigned long kmem_cache_reap_all_trylock(void)
{
	unsigned long pages;

	if (!mutex_trylock(&cache_chain_mutex))
		return 0;
	pages = reap_all_locked();
	mutex_unlock(&cache_chain_mutex);
	return pages;
}

