/*
 * mm/slab_cache.c - a slab cache's life: how its objects are laid out in
 * slabs, its creation, destruction and counting, and the bootstrap.
 *
 * Layout (Linux 2.6's rules): objects are rounded to the cache's
 * alignment - a cache line with SLAB_HWCACHE_ALIGN, halved while the
 * object fits in half of it (2.6.11) - and a slab is the smallest block of
 * pages that wastes at most an eighth of itself (2.6.11).  What is left
 * over becomes the colour range: successive slabs start their objects
 * colour_off = max(cache line, align) bytes further in, cycling (2.6.11).
 * Objects of PAGE_SIZE/8 or more keep their slab descriptor off the slab,
 * in a kmalloc cache (2.6.11; unlike 2.6.11 it never moves back on-slab
 * when the left-over room would hold it).  Each CPU's array holds "limit"
 * objects and moves "batchcount" = (limit + 1) / 2 at a time, by object
 * size (2.6's enable_cpucache), and has room for array_max, to which a
 * run of frees may grow its limit (mm/slab.c's cpu_array_grow; not from
 * Linux: docs/linux-2.6.md); with more than one CPU, each node has a
 * shared array of 8 * batchcount objects for caches of objects up to a
 * page (2.6.11's enable_cpucache: shared = 8 on SMP); and a node gives an
 * empty slab back above free_limit = (1 + CPUs) * batchcount + num free
 * objects (2.6.11's formula; 2.6.14 counts the node's CPUs only).
 *
 * Bootstrap: struct kmem_cache objects come from the cache of caches,
 * which is static and set up first, by hand, with its descriptors on its
 * slabs (no kmalloc cache exists yet); kmalloc's caches follow, smallest
 * first, so that each off-slab class finds a smaller one for its
 * descriptors.  Per-CPU and shared arrays come straight from the page
 * allocator, one block per cache, each array padded to whole cache lines
 * (2.6.11 kmalloc()ed each array from its cache-line-aligned kmalloc
 * caches; here the kmalloc caches do not exist yet, and are not aligned).
 *
 * Locking: cache_chain_mutex (a sleeping lock) protects the list of
 * caches; walkers hold it too, so that a cache cannot go while a reaper
 * or a dump looks at it.  Creating and destroying are for task context
 * (they may allocate, sleep and cross-call).
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/slab_internal.h"

#define BYTES_PER_WORD sizeof(void *)
/*
 * Slabs up to 128 KiB (the largest kmalloc class) are tried for the 1/8
 * rule; larger ones only when no object fits otherwise (128 KiB objects
 * with debugging words), up to the largest block.
 */
#define PREFERRED_SLAB_ORDER 5
#define MAX_SLAB_ORDER (MAX_ORDER - 1)
/* A node's shared array holds this many batches (2.6.11's "shared"). */
#define SHARED_FACTOR 8

LIST_HEAD(cache_chain);
DEFINE_MUTEX(cache_chain_mutex);

/* The cache of caches: every struct kmem_cache but its own comes from it. */
struct kmem_cache cache_cache;

/* ---- layout ---------------------------------------------------------- */

/*
 * Objects per slab and leftover bytes for a slab of 2^order pages (2.6's
 * cache_estimate): on-slab, the descriptor and one bufctl per object come
 * out of the same pages, the descriptor and bufctls rounded up to align
 * (*mgmt) so that the first object is aligned; off the slab, only the
 * objects do.  *num is 0 when not one object fits.
 */
static void cache_estimate(unsigned int order, unsigned int size,
			   unsigned int align, bool off_slab,
			   unsigned int *num, unsigned int *left_over,
			   unsigned int *mgmt)
{
	/* LAB slab: BEGIN how many objects (and their bufctls) fit 2^order pages, and what is left over */
	unsigned int bytes = PAGE_SIZE << order, n;

	if (off_slab) {
		n = bytes / size;
		*mgmt = 0;
	} else {
		n = (bytes - sizeof(struct slab)) / (size + sizeof(kmem_bufctl_t));
		while (n && ALIGN(sizeof(struct slab) + n * sizeof(kmem_bufctl_t),
				  align) + n * size > bytes)
			n--;
		*mgmt = ALIGN(sizeof(struct slab) + n * sizeof(kmem_bufctl_t),
			      align);
	}
	*num = n;
	*left_over = bytes - n * size - *mgmt;
	/* LAB slab: END */
}

/* The smallest order that wastes at most 1/8 of the slab. */
static void calculate_slab_order(struct kmem_cache *cachep, bool off_slab)
{
	unsigned int num, left, mgmt = 0;

	for (unsigned int order = 0; order <= MAX_SLAB_ORDER; order++) {
		cache_estimate(order, cachep->buffer_size, cachep->align,
			       off_slab, &num, &left, &mgmt);
		if (!num)
			continue;
		cachep->gfporder = order;
		cachep->num = num;
		/* LAB slab: BEGIN the number of colours the left-over bytes give */
		cachep->colour = left / cachep->colour_off;
		/* LAB slab: END */
		cachep->slab_size = mgmt;
		if (left * 8 <= (PAGE_SIZE << order) ||
		    order >= PREFERRED_SLAB_ORDER)
			break;
	}
	if (off_slab)
		cachep->slab_size = (unsigned int)(sizeof(struct slab) +
						   cachep->num * sizeof(kmem_bufctl_t));
}

unsigned int slab_array_limit(unsigned int size)
{
	/* Linux 2.6's enable_cpucache(): fewer big objects per CPU. */
	if (size > 131072)
		return 1;
	if (size > PAGE_SIZE)
		return 8;
	if (size > 1024)
		return 24;
	if (size > 256)
		return 54;
	return 120;
}

/*
 * How far a run of frees may grow a CPU's array (mm/slab.c's
 * cpu_array_grow): eightfold, and to at most 256 KiB of objects, but
 * never below 2.6's limit.  Objects of 64 bytes: 120 grows to 960;
 * 2048 bytes: 24 to 128; 128 KiB: 1 to 2.
 */
#define ARRAY_GROW_SHIFT 3
#define ARRAY_MAX_BYTES (256U * 1024)

static unsigned int slab_array_max(unsigned int limit, unsigned int size)
{
	return max(limit, min(limit << ARRAY_GROW_SHIFT, ARRAY_MAX_BYTES / size));
}

/*
 * Bytes between two CPUs' arrays: one array with room for array_max
 * objects (so that a run of frees can grow it in place: mm/slab.c's
 * cpu_array_grow), rounded up to whole cache lines.  The block starts
 * on a page, so each array starts on a line of its own and no line
 * holds two CPUs' arrays: the CPU that pushes and pops its array never
 * bounces a line another CPU writes (each CPU's array was a separate,
 * cache-line-aligned kmalloc object) (2.6.11).
 */
static size_t array_stride(const struct kmem_cache *cachep)
{
	return ALIGN(sizeof(struct array_cache) + cachep->array_max * sizeof(void *),
		     (size_t)L1_CACHE_BYTES);
}

/* Bytes of a node's shared array, whole cache lines; 0 without one. */
static size_t shared_stride(const struct kmem_cache *cachep)
{
	if (!cachep->shared)
		return 0;
	return ALIGN(sizeof(struct array_cache) +
		     cachep->shared * cachep->batchcount * sizeof(void *),
		     (size_t)L1_CACHE_BYTES);
}

/* The order of the block that holds every CPU's and node's array. */
static unsigned int arrays_order(const struct kmem_cache *cachep)
{
	size_t total = array_stride(cachep) * nr_cpu_ids +
		       shared_stride(cachep) * (size_t)nr_online_nodes;
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < total)
		order++;
	return order;
}

static void init_array(struct array_cache *ac, unsigned int limit,
		       unsigned int batchcount)
{
	ac->avail = 0;
	ac->limit = limit;
	ac->batchcount = batchcount;
	ac->touched = 0;
	ac->free_run = 0;
}

/*
 * Per-CPU arrays for every possible CPU, then the shared array of every
 * online node (when the cache has them), in one block from the page
 * allocator, each on cache lines of its own (array_stride, shared_stride).
 * The block comes from the creator's node: mm86 does not place arrays
 * node-locally.
 */
static bool alloc_arrays(struct kmem_cache *cachep)
{
	size_t stride = array_stride(cachep);
	char *mem, *shared;

	cachep->arrays_order = arrays_order(cachep);
	mem = (char *)__get_free_pages(GFP_KERNEL, cachep->arrays_order);
	if (!mem)
		return false;
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		struct array_cache *ac = (struct array_cache *)(mem + cpu * stride);

		init_array(ac, cachep->limit, cachep->batchcount);
		cachep->array[cpu] = ac;
	}
	shared = mem + stride * nr_cpu_ids;
	for (int nid = 0; cachep->shared && nid < nr_online_nodes; nid++) {
		struct array_cache *ac = (struct array_cache *)
			(shared + (size_t)nid * shared_stride(cachep));

		init_array(ac, cachep->shared * cachep->batchcount,
			   cachep->batchcount);
		cachep->nodelists[nid].shared = ac;
	}
	return true;
}

static void free_arrays(struct kmem_cache *cachep)
{
	free_pages((unsigned long)cachep->array[0], cachep->arrays_order);
	memset(cachep->array, 0, sizeof(cachep->array));
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		cachep->nodelists[nid].shared = NULL;
}

/* Fills in a cache; false when it cannot be made. */
static bool setup_cache(struct kmem_cache *cachep, const char *name,
			size_t size, size_t align, unsigned long flags,
			void (*ctor)(void *))
{
	unsigned int ralign = BYTES_PER_WORD, buffer;
	bool off_slab;

	memset(cachep, 0, sizeof(*cachep));
	flags |= slab_debug_flags(name);
	/* A production build (MM_DEBUG=0) has no slab debugging (2.6: !DEBUG). */
	if (!MM_DEBUG)
		flags &= ~SLAB_DEBUG_FLAGS;
	if (ctor)
		flags &= ~SLAB_POISON; /* poison would undo the constructor */
	if (flags & SLAB_HWCACHE_ALIGN) {
		ralign = L1_CACHE_BYTES;
		while (size <= ralign / 2 && ralign > BYTES_PER_WORD)
			ralign /= 2;
	}
	if (align > ralign)
		ralign = (unsigned int)align;
	if (flags & SLAB_RED_ZONE && ralign < 8)
		ralign = 8;

	cachep->name = name;
	cachep->flags = flags;
	cachep->ctor = ctor;
	cachep->object_size = (unsigned int)size;
	cachep->align = ralign;
	buffer = (unsigned int)ALIGN(size, BYTES_PER_WORD);
	if (flags & SLAB_RED_ZONE) {
		cachep->obj_offset = ALIGN(8U, ralign);
		buffer = cachep->obj_offset + ALIGN(buffer, 8U) + 8;
	}
	if (flags & SLAB_STORE_USER)
		buffer += 2 * sizeof(unsigned long);
	cachep->buffer_size = ALIGN(buffer, ralign);
	cachep->reciprocal_buffer_size = reciprocal_value(cachep->buffer_size);
	/* LAB slab: BEGIN the colour step: how much further in each colour starts the objects */
	cachep->colour_off = max((unsigned int)L1_CACHE_BYTES, ralign);
	/* LAB slab: END */
	if (flags & SLAB_CACHE_DMA)
		cachep->gfpflags = __GFP_DMA;

	/*
	 * Big objects keep their descriptor off the slab (2.6: >= 1/8 page),
	 * in a kmalloc cache - once there is one: the cache of caches and the
	 * first kmalloc classes are made before any.
	 */
	off_slab = cachep->buffer_size >= PAGE_SIZE / 8 &&
		   kmalloc_slab_for(sizeof(struct slab)) != NULL;
	calculate_slab_order(cachep, off_slab);
	if (!cachep->num)
		return false;
	if (off_slab) {
		cachep->flags |= CFLGS_OFF_SLAB;
		cachep->slabp_cache = kmalloc_slab_for(cachep->slab_size);
		if (!cachep->slabp_cache)
			return false;
	}

	cachep->limit = slab_array_limit(cachep->buffer_size);
	cachep->batchcount = (cachep->limit + 1) / 2;
	cachep->array_max = slab_array_max(cachep->limit, cachep->buffer_size);
	/* A shared array of 8 batches per node, on SMP, for objects up to a page (2.6.11). */
	if (nr_cpu_ids > 1 && cachep->buffer_size <= PAGE_SIZE)
		cachep->shared = SHARED_FACTOR;
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct kmem_list3 *l3 = &cachep->nodelists[nid];

		spin_lock_init(&l3->list_lock);
		INIT_LIST_HEAD(&l3->slabs_partial);
		INIT_LIST_HEAD(&l3->slabs_full);
		INIT_LIST_HEAD(&l3->slabs_free);
		l3->free_limit = (1 + nr_cpu_ids) * cachep->batchcount +
				 cachep->num;
	}
	if (!alloc_arrays(cachep))
		return false;
	mutex_lock(&cache_chain_mutex);
	list_add_tail(&cachep->next, &cache_chain);
	mutex_unlock(&cache_chain_mutex);
	return true;
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned long flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *cachep = NULL;

	if (!name || !size || size > KMALLOC_MAX_CACHE_SIZE ||
	    (align & (align - 1)) || align > PAGE_SIZE) {
		pr_err("kmem_cache_create(%s, %zu, %zu): bad arguments\n",
		       name ? name : "(null)", size, align);
		goto fail;
	}
	cachep = kmem_cache_alloc(&cache_cache, GFP_KERNEL);
	if (!cachep)
		goto fail;
	if (!setup_cache(cachep, name, size, align, flags, ctor)) {
		kmem_cache_free(&cache_cache, cachep);
		cachep = NULL;
		goto fail;
	}
	return cachep;
fail:
	if (flags & SLAB_PANIC)
		panic("kmem_cache_create(): failed to create slab `%s'",
		      name ? name : "(null)");
	return NULL;
}

void kmem_cache_destroy(struct kmem_cache *cachep)
{
	struct slab_counts c;

	BUG_ON(!cachep || cachep == &cache_cache);
	kmem_cache_shrink(cachep);
	slab_count(cachep, &c);
	if (c.num_slabs)
		slab_bug(cachep, NULL,
			 "kmem_cache_destroy: cache %s still has %lu objects in use",
			 cachep->name, c.active_objs);
	mutex_lock(&cache_chain_mutex);
	list_del(&cachep->next);
	mutex_unlock(&cache_chain_mutex);
	free_arrays(cachep);
	kmem_cache_free(&cache_cache, cachep);
}

const char *kmem_cache_name(const struct kmem_cache *cachep)
{
	return cachep->name;
}

unsigned int kmem_cache_size(const struct kmem_cache *cachep)
{
	return cachep->object_size;
}

/* Boot: the cache of caches by hand, then kmalloc's caches (kmalloc.c). */
void kmem_cache_init(void)
{
	if (!setup_cache(&cache_cache, "kmem_cache", sizeof(struct kmem_cache),
			 0, SLAB_HWCACHE_ALIGN, NULL))
		panic("kmem_cache_init: cannot make the cache of caches");
	kmalloc_caches_init();
}

/* ---- counting -------------------------------------------------------- */

void slab_count(struct kmem_cache *cachep, struct slab_counts *c)
{
	unsigned long free_objs = 0;

	memset(c, 0, sizeof(*c));
	for (int nid = 0; nid < nr_online_nodes; nid++) {
		struct kmem_list3 *l3 = &cachep->nodelists[nid];
		unsigned long flags;
		struct slab *slabp;

		spin_lock_irqsave(&l3->list_lock, flags);
		list_for_each_entry(slabp, &l3->slabs_full, list)
			c->active_slabs++;
		list_for_each_entry(slabp, &l3->slabs_partial, list)
			c->active_slabs++;
		list_for_each_entry(slabp, &l3->slabs_free, list)
			c->free_slabs++;
		free_objs += l3->free_objects;
		if (l3->shared)
			c->in_shared += l3->shared->avail;
		spin_unlock_irqrestore(&l3->list_lock, flags);
	}
	c->num_slabs = c->active_slabs + c->free_slabs;
	c->num_objs = c->num_slabs * cachep->num;
	c->active_objs = c->num_objs - free_objs;
	c->in_arrays = c->in_shared;
	for (int cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		if (cachep->array[cpu])
			c->in_arrays += READ_ONCE(cachep->array[cpu]->avail);
}

unsigned long slab_live_objects(void)
{
	struct kmem_cache *cachep;
	unsigned long live = 0;

	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(cachep, &cache_chain, next) {
		struct slab_counts c;

		slab_count(cachep, &c);
		live += c.active_objs - c.in_arrays;
	}
	mutex_unlock(&cache_chain_mutex);
	return live;
}

unsigned long slab_total_pages(void)
{
	struct kmem_cache *cachep;
	unsigned long pages = 0;

	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(cachep, &cache_chain, next)
		for (int nid = 0; nid < MAX_NUMNODES; nid++)
			pages += READ_ONCE(cachep->nodelists[nid].nr_slabs)
				 << cachep->gfporder;
	mutex_unlock(&cache_chain_mutex);
	return pages;
}

/*
 * Linux's /proc/slabinfo, version 2.1 (objects in CPU and shared arrays
 * count as active): the tunables' sharedfactor is a shared array's limit
 * in batches (0: none), sharedavail the objects in the shared arrays.
 */
void slabinfo_line(struct kmem_cache *cachep, char *buf, size_t len)
{
	struct slab_counts c;

	slab_count(cachep, &c);
	snprintf(buf, len, "%-17s %6lu %6lu %6u %4u %4u : tunables %4u %4u %4u : slabdata %6lu %6lu %6u",
		 cachep->name, c.active_objs, c.num_objs, cachep->buffer_size,
		 cachep->num, 1U << cachep->gfporder, cachep->limit,
		 cachep->batchcount, cachep->shared, c.active_slabs,
		 c.num_slabs, (unsigned int)c.in_shared);
}

void show_slabinfo(void)
{
	struct kmem_cache *cachep;

	pr_info("/proc/slabinfo:\n");
	pr_info("slabinfo - version: 2.1\n");
	pr_info("# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(cachep, &cache_chain, next) {
		char line[SLABINFO_LINE];

		slabinfo_line(cachep, line, sizeof(line));
		pr_info("%s\n", line);
	}
	mutex_unlock(&cache_chain_mutex);
}
