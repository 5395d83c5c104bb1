/*
 * mm/slab_check.c - proof that the slab allocator's state is consistent:
 * every cache's slabs, lists, counters and arrays, checked against each
 * other.
 *
 * slab_check_all() walks the cache chain and, for each cache, verifies
 * what mm/slab.c's "Invariants" promise:
 *  - a slab on slabs_full has inuse == num, on slabs_partial
 *    0 < inuse < num, on slabs_free inuse == 0; it belongs to the node
 *    whose list holds it, and each of its pages has PG_slab and knows its
 *    cache and slab;
 *  - its free chain (slab->free, then bufctl[]) holds exactly
 *    num - inuse distinct indices below num, and ends in BUFCTL_END;
 *  - a node's free_objects is the sum of num - inuse over its listed
 *    slabs, its nr_slabs their number;
 *  - a CPU's array holds at most its limit, which lies between the
 *    cache's limit (2.6's) and array_max (as far as cpu_array_grow may
 *    take it); a shared array holds at most its limit, shared *
 *    batchcount;
 *  - every object in an array is an object of a listed slab of this
 *    cache, is not on that slab's free chain, and is in no other slot of
 *    any array; a slab has at most inuse objects in arrays.  With the
 *    chain's count this is every object's bookkeeping: on the free chain,
 *    in an array, or handed out, num of each slab in all.
 * It reports what it finds instead of stopping, as zone_check() does:
 * the number of violations, the first described in why.
 *
 * Reading the arrays: a CPU's array is its own, pushed and popped with
 * interrupts off and under no lock, so no lock keeps it still.  2.6's
 * /proc/slabinfo reader (cache_chain_mutex, then each node's list_lock)
 * takes nothing that would: it never reads an array's contents, only the
 * shared array's avail.  A cross-call on which each CPU checked its own
 * array would see each array at a different moment, with objects moving
 * between the arrays and the slabs in between, and report objects that
 * are where they should be.  So the check stops the CPUs whose arrays it
 * reads, as Linux's stop_machine() stops them all: smp_call_function()
 * (on_each_cpu_cond) parks every other CPU whose arrays hold objects in a
 * loop with interrupts off, where it cannot be half-way through an array
 * operation or a list_lock section (both run with interrupts off); this
 * CPU, with interrupts off too, reads its own array and theirs, and lets
 * them go at the end.  A CPU whose arrays were empty when looked at
 * (without its consent, a hint, as mm/slab.c's reaper looks) is not
 * stopped, nor its arrays read: objects it takes meanwhile count as
 * handed out.  Every node's list_lock of a cache is held from the reading
 * of the shared arrays to the end of the cache's walk, so that no object
 * moves between the slabs and an array that was read (free_block, the
 * refill, the shared array's drain all take the list_lock of the node
 * they touch).  Stopping only the CPUs that hold objects keeps the check
 * cheap on an emulator: after most cases only the case's own CPU does,
 * and a cross-call to an idle CPU of QEMU's costs milliseconds on a
 * loaded host.  A stopped CPU holds no spinlock another CPU waits for
 * with interrupts off, the one way it could hold the stop up: every
 * spinlock is taken with interrupts off but vmscan's shrinker_lock,
 * which only task context takes, with them on.  A slab that a CPU made
 * or unlinked and holds on no list (mm/slab.c) has no object in an array
 * that is read, and is not seen.
 *
 * Locks: cache_chain_mutex (no cache comes or goes, one check at a time),
 * then the CPUs stopped, then each cache's list_locks, node 0 first (the
 * one place they nest; spin_lock_nested's subclass is the node).  Task
 * context (it sleeps on the mutex).  The scratch space below is static
 * and used under cache_chain_mutex: the objects of the arrays of one
 * cache, sorted by address, and a bitmap of one slab's free chain.
 */
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/bitops.h"
#include "lib/sort.h"
#include "lib/sprintf.h"
#include "mm/slab_internal.h"

/*
 * The most objects the arrays of one cache can hold: a CPU's array_max
 * is at most 8 * 120 (mm/slab_cache.c's slab_array_max of 2.6's largest
 * limit), a shared array 8 batches of at most 60.  With NR_CPUS 16 the
 * scratch space is some 85 KiB on i386.
 */
#define CPU_ARRAY_MOST 960
#define SHARED_ARRAY_MOST 480
#define ARRAY_OBJS_MOST (NR_CPUS * CPU_ARRAY_MOST + MAX_NUMNODES * SHARED_ARRAY_MOST)

static void *array_objs[ARRAY_OBJS_MOST];
static unsigned int nr_array_objs;
static DECLARE_BITMAP(array_obj_seen, ARRAY_OBJS_MOST);
static DECLARE_BITMAP(on_chain, BUFCTL_END);

struct check_state {
	struct kmem_cache *cachep;
	char *why;
	size_t len;
	int errors;
};

static void __printf(2, 3) violation(struct check_state *st, const char *fmt, ...)
{
	va_list args;
	int n;

	if (st->errors++ || !st->why || !st->len)
		return;
	n = snprintf(st->why, st->len, "%s: ", st->cachep->name);
	if (n < 0 || (size_t)n >= st->len)
		return;
	va_start(args, fmt);
	vsnprintf(st->why + n, st->len - n, fmt, args);
	va_end(args);
}

/* ---- stopping the other CPUs ------------------------------------------ */

/*
 * The CPUs whose arrays hold objects, parked: each counts itself in and
 * spins, interrupts off, until the stop's generation moves on, then
 * counts itself out.  The state is static, so that the checker need not
 * wait for them to leave (a CPU of QEMU's on a loaded host may take
 * milliseconds to run again); the next stop waits for the last one's
 * CPUs to have left first.  Under cache_chain_mutex.
 */
static struct {
	unsigned int gen;	/* the stop's; it moves on to let them go */
	int wanted;		/* CPUs sent to park */
	int parked;		/* CPUs in park_cpu() */
	unsigned long cpus[BITS_TO_LONGS(NR_CPUS)];	/* those sent */
} cpu_stop;

/* How long a sent CPU may take to arrive before the check gives up. */
#define PARK_WAIT_NS (1000ULL * 1000 * 1000)

/* Runs on each CPU sent to park, by cross-call, interrupts off. */
static void park_cpu(void *info)
{
	unsigned int gen = (unsigned int)(unsigned long)info;

	__atomic_fetch_add(&cpu_stop.parked, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&cpu_stop.gen, __ATOMIC_ACQUIRE) == gen)
		cpu_relax();
	__atomic_fetch_sub(&cpu_stop.parked, 1, __ATOMIC_RELEASE);
}

/*
 * Does another CPU hold objects in any cache's array?  Read without its
 * consent, as a hint (mm/slab.c's cpu_array_to_drain): an array that
 * fills after this look is not read, its objects count as handed out.
 */
static bool cpu_has_array_objects(int cpu, void *unused)
{
	struct kmem_cache *cachep;

	if (cpu == raw_smp_processor_id())
		return false;
	list_for_each_entry(cachep, &cache_chain, next)
		if (data_race(READ_ONCE(cachep->array[cpu]->avail))) {
			__set_bit((unsigned long)cpu, cpu_stop.cpus);
			cpu_stop.wanted++;
			return true;
		}
	return false;
}

/*
 * Parks every other CPU whose arrays hold objects; false (none parked)
 * when one did not arrive.  Interrupts off (asserted), cache_chain_mutex
 * held.
 */
static bool stop_array_cpus(void)
{
	u64 start;

	lockdep_assert_irqs_disabled();
	lockdep_assert_held(&cache_chain_mutex);
	while (__atomic_load_n(&cpu_stop.parked, __ATOMIC_ACQUIRE))
		cpu_relax();
	cpu_stop.wanted = 0;
	bitmap_zero(cpu_stop.cpus, NR_CPUS);
	on_each_cpu_cond(cpu_has_array_objects, park_cpu,
			 (void *)(unsigned long)cpu_stop.gen, false);
	start = printk_clock_ns();
	while (__atomic_load_n(&cpu_stop.parked, __ATOMIC_ACQUIRE) <
	       cpu_stop.wanted) {
		if (printk_clock_ns() - start > PARK_WAIT_NS) {
			__atomic_fetch_add(&cpu_stop.gen, 1, __ATOMIC_RELEASE);
			return false;
		}
		cpu_relax();
	}
	return true;
}

static void release_array_cpus(void)
{
	__atomic_fetch_add(&cpu_stop.gen, 1, __ATOMIC_RELEASE);
}

/* ---- the arrays ------------------------------------------------------- */

/* The slab objp would be an object of, or NULL when it is none of cachep's. */
static struct slab *cache_obj_slab(struct kmem_cache *cachep, const void *objp)
{
	struct page *page;
	struct slab *slabp;

	if (!objp || !virt_addr_valid(objp))
		return NULL;
	page = virt_to_page(objp);
	if (!PageSlab(page) || page_get_cache(page) != cachep)
		return NULL;
	slabp = page_get_slab(page);
	if (!virt_addr_valid(slabp) || obj_to_index(cachep, slabp, objp) < 0)
		return NULL;
	return slabp;
}

/*
 * One array's count and limit, and its objects into array_objs[]: each
 * must be an object of this cache.  name says which array it is.
 */
static void gather_array(struct check_state *st, const struct array_cache *ac,
			 const char *name, unsigned int lo, unsigned int hi)
{
	unsigned int n = min(ac->avail, hi);

	if (ac->limit < lo || ac->limit > hi)
		violation(st, "%s has limit %u, outside %u..%u", name,
			  ac->limit, lo, hi);
	if (ac->avail > ac->limit)
		violation(st, "%s holds %u objects, its limit is %u", name,
			  ac->avail, ac->limit);
	for (unsigned int i = 0; i < n; i++) {
		void *objp = ac->entry[i];

		if (!cache_obj_slab(st->cachep, objp))
			violation(st, "%s holds %p in slot %u, not an object of this cache",
				  name, objp, i);
		else if (nr_array_objs < ARRAY_OBJS_MOST)
			array_objs[nr_array_objs++] = objp;
	}
}

static int cmp_ptr(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Every CPU's and node's array of the cache, sorted by address. */
static void gather_arrays(struct check_state *st)
{
	struct kmem_cache *cachep = st->cachep;
	char name[32];

	nr_array_objs = 0;
	if (cachep->array_max > CPU_ARRAY_MOST)
		violation(st, "array_max %u is more than slab_check.c makes room for (%u)",
			  cachep->array_max, CPU_ARRAY_MOST);
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		snprintf(name, sizeof(name), "CPU %d's array", cpu);
		if (!cachep->array[cpu])
			violation(st, "%s is missing", name);
		else if (cpu == raw_smp_processor_id() ||
			 test_bit((unsigned long)cpu, cpu_stop.cpus))
			gather_array(st, cachep->array[cpu], name,
				     cachep->limit, cachep->array_max);
	}
	for (int nid = 0; nid < nr_online_nodes; nid++) {
		const struct array_cache *shared = cachep->nodelists[nid].shared;
		unsigned int limit = cachep->shared * cachep->batchcount;

		snprintf(name, sizeof(name), "node %d's shared array", nid);
		if (shared)
			gather_array(st, shared, name, limit,
				     min(limit, (unsigned int)SHARED_ARRAY_MOST));
	}
	sort(array_objs, nr_array_objs, sizeof(array_objs[0]), cmp_ptr, NULL);
	bitmap_zero(array_obj_seen, nr_array_objs);
}

/* The first index of array_objs[] at or above addr. */
static unsigned int first_obj_at(const void *addr)
{
	unsigned int lo = 0, hi = nr_array_objs;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if ((unsigned long)array_objs[mid] < (unsigned long)addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The objects of the arrays that lie in slabp: none on its free chain
 * (on_chain[] holds it), none twice, at most inuse of them.
 */
static void check_slab_array_objs(struct check_state *st,
				  const struct slab *slabp)
{
	struct kmem_cache *cachep = st->cachep;
	const char *end = (const char *)slabp->s_mem +
			  cachep->num * cachep->buffer_size;
	unsigned int i = first_obj_at(slabp->s_mem), k = 0;

	for (; i < nr_array_objs && (const char *)array_objs[i] < end; i++) {
		unsigned int idx = obj_index(cachep, slabp, array_objs[i]);

		__set_bit(i, array_obj_seen);
		k++;
		if (i && array_objs[i] == array_objs[i - 1])
			violation(st, "object %p is in the arrays twice",
				  array_objs[i]);
		else if (test_bit(idx, on_chain))
			violation(st, "object %p (index %u) is in an array and on the free chain of slab %p",
				  array_objs[i], idx, slabp);
	}
	if (k > slabp->inuse)
		violation(st, "slab %p has %u objects in arrays but inuse %u",
			  slabp, k, slabp->inuse);
}

/* Objects no listed slab claimed: their slab is on no list of the cache. */
static void check_unclaimed(struct check_state *st)
{
	for (unsigned int i = 0; i < nr_array_objs; i++)
		if (!test_bit(i, array_obj_seen)) {
			violation(st, "object %p in an array belongs to slab %p, which no list holds",
				  array_objs[i],
				  cache_obj_slab(st->cachep, array_objs[i]));
			return;
		}
}

/* ---- the slabs -------------------------------------------------------- */

enum slab_list { SLABS_FULL, SLABS_PARTIAL, SLABS_FREE };

static const char *const slab_list_names[] = {
	[SLABS_FULL] = "slabs_full",
	[SLABS_PARTIAL] = "slabs_partial",
	[SLABS_FREE] = "slabs_free",
};

static bool inuse_fits_list(const struct kmem_cache *cachep,
			    const struct slab *slabp, enum slab_list which)
{
	switch (which) {
	case SLABS_FULL:
		return slabp->inuse == cachep->num;
	case SLABS_PARTIAL:
		return slabp->inuse > 0 && slabp->inuse < cachep->num;
	default:
		return slabp->inuse == 0;
	}
}

/*
 * The slab's pages hold its objects (and, on the slab, its descriptor
 * and bufctls before them), and each page has PG_slab and points back at
 * cache and slab.  False when the descriptor's s_mem does not even lead
 * to memory (it was overwritten): the slab is reported and nothing more
 * of it is read.
 */
static bool check_slab_pages(struct check_state *st, struct slab *slabp)
{
	struct kmem_cache *cachep = st->cachep;
	bool on_slab = !(cachep->flags & CFLGS_OFF_SLAB);
	const char *first = on_slab ? (const char *)slabp - slabp->colouroff :
		(const char *)slabp->s_mem - slabp->colouroff;
	const char *end = first + (PAGE_SIZE << cachep->gfporder);
	const char *objs_end = (const char *)slabp->s_mem +
			       (size_t)cachep->num * cachep->buffer_size;
	struct page *page;

	if (!virt_addr_valid(first) || !virt_addr_valid(end - 1) ||
	    ((unsigned long)first & ~PAGE_MASK)) {
		violation(st, "slab %p has s_mem %p, colouroff %lu: its pages are not memory",
			  slabp, slabp->s_mem, slabp->colouroff);
		return false;
	}
	if ((const char *)slabp->s_mem < first || objs_end > end) {
		violation(st, "slab %p: its %u objects of %u bytes at %p run past its %lu pages at %p",
			  slabp, cachep->num, cachep->buffer_size,
			  slabp->s_mem, 1UL << cachep->gfporder, first);
		return false;
	}
	if (on_slab && (const char *)&slabp->bufctl[cachep->num] >
		       (const char *)slabp->s_mem) {
		violation(st, "slab %p: its %u bufctls end at %p, past its first object at %p",
			  slabp, cachep->num, (void *)&slabp->bufctl[cachep->num],
			  slabp->s_mem);
		return false;
	}
	page = virt_to_page(first);
	for (unsigned int i = 0; i < (1U << cachep->gfporder); i++)
		if (!PageSlab(page + i) || page_get_cache(page + i) != cachep ||
		    page_get_slab(page + i) != slabp) {
			violation(st, "page pfn %#lx of slab %p has slab=%d cache %p slab %p",
				  page_to_pfn(page + i), slabp, PageSlab(page + i),
				  page_get_cache(page + i), page_get_slab(page + i));
			return false;
		}
	return true;
}

/* Marks slabp's free chain in on_chain[]; returns its length. */
static unsigned int walk_free_chain(struct check_state *st,
				    const struct slab *slabp)
{
	unsigned int num = st->cachep->num, n = 0;

	bitmap_zero(on_chain, num);
	for (unsigned int idx = slabp->free; idx != BUFCTL_END;
	     idx = slabp->bufctl[idx]) {
		if (idx >= num) {
			violation(st, "the free chain of slab %p holds index %u, num is %u",
				  slabp, idx, num);
			break;
		}
		if (__test_and_set_bit(idx, on_chain)) {
			violation(st, "the free chain of slab %p holds index %u twice",
				  slabp, idx);
			break;
		}
		n++;
	}
	return n;
}

static void check_slab(struct check_state *st, struct slab *slabp, int nid,
		       enum slab_list which)
{
	struct kmem_cache *cachep = st->cachep;
	unsigned int free;

	if (slabp->nodeid != nid)
		violation(st, "slab %p on node %d's %s says node %d", slabp,
			  nid, slab_list_names[which], slabp->nodeid);
	if (!inuse_fits_list(cachep, slabp, which))
		violation(st, "slab %p on node %d's %s has inuse %u of %u",
			  slabp, nid, slab_list_names[which], slabp->inuse,
			  cachep->num);
	if (!check_slab_pages(st, slabp))
		return;
	free = walk_free_chain(st, slabp);
	if (slabp->inuse > cachep->num || free != cachep->num - slabp->inuse)
		violation(st, "slab %p has %u objects on its free chain, inuse %u of %u",
			  slabp, free, slabp->inuse, cachep->num);
	check_slab_array_objs(st, slabp);
}

/* A node's three lists against its counters; its list_lock held (asserted). */
static void check_node_locked(struct check_state *st, int nid)
{
	struct kmem_cache *cachep = st->cachep;
	struct kmem_list3 *l3 = &cachep->nodelists[nid];
	struct list_head *lists[] = {
		[SLABS_FULL] = &l3->slabs_full,
		[SLABS_PARTIAL] = &l3->slabs_partial,
		[SLABS_FREE] = &l3->slabs_free,
	};
	/* More slabs than RAM holds: a list that loops. */
	unsigned long most = max_pfn >> cachep->gfporder, slabs = 0, free = 0;

	lockdep_assert_held(&l3->list_lock);
	for (unsigned int which = 0; which < ARRAY_SIZE(lists); which++) {
		struct slab *slabp;

		list_for_each_entry(slabp, lists[which], list) {
			if (++slabs > most) {
				violation(st, "node %d's %s loops", nid,
					  slab_list_names[which]);
				return;
			}
			/*
			 * A list pointer overwritten: stop before following
			 * it.  (The list's head, in the cache, may lie
			 * outside the page allocator's memory: a static
			 * cache of the host build.)
			 */
			if (!virt_addr_valid(slabp) ||
			    (slabp->list.next != lists[which] &&
			     !virt_addr_valid(slabp->list.next))) {
				violation(st, "node %d's %s leads to %p, not memory",
					  nid, slab_list_names[which], slabp);
				return;
			}
			check_slab(st, slabp, nid, which);
			free += cachep->num - slabp->inuse;
		}
	}
	if (l3->nr_slabs != slabs)
		violation(st, "node %d's lists hold %lu slabs, nr_slabs says %lu",
			  nid, slabs, l3->nr_slabs);
	if (l3->free_objects != free)
		violation(st, "node %d's slabs hold %lu free objects, free_objects says %lu",
			  nid, free, l3->free_objects);
}

/*
 * One cache, interrupts off and the other CPUs whose arrays held objects
 * parked.  Every node's list_lock is held from the reading of the shared
 * arrays to the end of the walk, in node order (the one place that nests
 * them): a CPU still running may move objects between an array that is
 * not read and the slabs meanwhile, never between an array that is and
 * the slabs, nor between a shared array and the slabs.
 */
static int slab_check_cache(struct kmem_cache *cachep, char *why, size_t len)
{
	struct check_state st = { cachep, why, len, 0 };

	for (int nid = 0; nid < nr_online_nodes; nid++)
		spin_lock_nested(&cachep->nodelists[nid].list_lock, nid);
	gather_arrays(&st);
	for (int nid = 0; nid < nr_online_nodes; nid++)
		check_node_locked(&st, nid);
	check_unclaimed(&st);
	for (int nid = nr_online_nodes - 1; nid >= 0; nid--)
		spin_unlock(&cachep->nodelists[nid].list_lock);
	return st.errors;
}

int slab_check_all(char *why, size_t len)
{
	struct kmem_cache *cachep;
	unsigned long flags;
	int errors = 0;

	if (why && len)
		why[0] = '\0';
	mutex_lock(&cache_chain_mutex);
	local_irq_save(flags);
	if (stop_array_cpus()) {
		list_for_each_entry(cachep, &cache_chain, next)
			errors += slab_check_cache(cachep, errors ? NULL : why,
						   errors ? 0 : len);
		release_array_cpus();
	} else {
		pr_err("slab_check: a CPU did not stop within %llu ms: the caches were not checked\n",
		       PARK_WAIT_NS / 1000000);
	}
	local_irq_restore(flags);
	mutex_unlock(&cache_chain_mutex);
	return errors;
}
