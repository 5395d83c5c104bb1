/*
 * mm/mempool.h - memory pools: allocations that must make progress.
 *
 * A pool keeps min_nr elements out of circulation, allocated when it is
 * created.  mempool_alloc() asks the pool's own allocator first, without
 * sleeping or I/O; only when that fails does it hand out a reserved
 * element, and when the reserve is empty too a caller that may sleep
 * waits for mempool_free() to bring one back.  So code that needs a few
 * elements to finish what frees memory (the block layer: a bio to write
 * pages out) always gets them in the end, however short memory is: each
 * element it gets comes back when its I/O completes.
 *
 * The API: mempool_create/resize/destroy/alloc/free, the slab element
 * functions and the int gfp_mask of the allocator types are 2.6.11's (and
 * LWN's 2003 description of 2.6.0's); gfp_t replaced int by 2.6.18.  The
 * kmalloc and page element functions are 2.6.18's (not in 2.6.11); the
 * mempool_create_*_pool() helpers come from later releases (not
 * re-checked which).  The per-CPU counts, the reserve poisoning and the
 * list of pools are mm86's own.  docs/linux-2.6.md has the details.
 */
#ifndef MM_MEMPOOL_H
#define MM_MEMPOOL_H

#include "kernel/nr_cpus.h"
#include "kernel/spinlock.h"
#include "kernel/wait.h"
#include "lib/list.h"
#include "mm/gfp.h"

struct kmem_cache;

typedef void *(mempool_alloc_t)(int gfp_mask, void *pool_data);
typedef void (mempool_free_t)(void *element, void *pool_data);

typedef struct mempool_s {
	spinlock_t lock;
	int min_nr;			/* the reserve's size */
	int curr_nr;			/* elements in the reserve now */
	void **elements;		/* the reserve: elements[0..curr_nr) */
	void *pool_data;
	mempool_alloc_t *alloc;
	mempool_free_t *free;
	/*
	 * A slab pool's cache (alloc and free are mempool_alloc_slab and
	 * mempool_free_slab), else NULL (set once, by mempool_create).
	 */
	struct kmem_cache *slab_cache;
	/*
	 * The caches whose arrays mempool_alloc() pops and mempool_free()
	 * pushes inline, one load each and never NULL: a slab pool's cache
	 * - for the free, only while the reserve is full - else the stand-in
	 * mempool_miss_cache, whose arrays are empty and full at once, so that
	 * the pop and the push fail and take the way out of line.  alloc_cache
	 * is set once; free_cache is a hint read without the lock (as 2.6's
	 * look at curr_nr was), kept by every change of curr_nr or min_nr.
	 */
	struct kmem_cache *alloc_cache;
	struct kmem_cache *free_cache;
	wait_queue_head_t wait;		/* callers waiting for an element */
	/*
	 * The fast path's counts, per CPU, kept in MM_DEBUG builds only (2.6
	 * kept none; mm/mm.h): each CPU adds to its own with local_add(), no
	 * lock, no atomic, one add on each side.  Elements out is the sum of
	 * allocs - frees (a CPU may free what another handed out).
	 */
	struct mempool_cpu {
		long allocs;		/* mempool_alloc() successes */
		long frees;		/* mempool_free()s of an element */
		/* A cache line each (when kmalloc aligns the pool, as it
		 * does without slab debugging); not __aligned: kmalloc
		 * promises no more than a word. */
		char pad[64 - 2 * sizeof(long)];
	} cpu[NR_CPUS];
	/* The slow path's counts, atomic. */
	unsigned long from_reserve;	/* allocations served by the reserve */
	unsigned long waits;		/* sleeps for an element */
	unsigned long fails;		/* NULL returns */
	struct list_head list;		/* on the list of every pool */
} mempool_t;

/*
 * Elements out and successful allocations, summed over the CPUs (MM_DEBUG
 * builds; 0 in others, which do not count).
 */
long mempool_out(const mempool_t *pool);
unsigned long mempool_allocs(const mempool_t *pool);

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data);
int mempool_resize(mempool_t *pool, int new_min_nr, int gfp_mask);
void mempool_destroy(mempool_t *pool);
void *mempool_alloc(mempool_t *pool, int gfp_mask);
void mempool_free(void *element, mempool_t *pool);

/* Elements from a slab cache: pool_data is the struct kmem_cache. */
void *mempool_alloc_slab(int gfp_mask, void *pool_data);
void mempool_free_slab(void *element, void *pool_data);
/* kmalloc()ed elements: pool_data is the size, (void *)(size_t)size. */
void *mempool_kmalloc(int gfp_mask, void *pool_data);
void mempool_kfree(void *element, void *pool_data);
/* Blocks of pages (struct page *): pool_data is the order. */
void *mempool_alloc_pages(int gfp_mask, void *pool_data);
void mempool_free_pages(void *element, void *pool_data);

mempool_t *mempool_create_slab_pool(int min_nr, struct kmem_cache *cachep);
mempool_t *mempool_create_kmalloc_pool(int min_nr, size_t size);
mempool_t *mempool_create_page_pool(int min_nr, int order);

/*
 * How long a sleeping mempool_alloc() waits before it tries the
 * allocator again, in jiffies (HZ/5); returns the old value.  For tests,
 * which shorten it and put it back.
 */
unsigned long mempool_set_recheck(unsigned long jiffies);

/* Bytes held in every pool's reserve (for /proc/meminfo's Mempool:). */
unsigned long mempool_reserved_bytes(void);
/* One line per pool: reserve, elements out, served from the reserve, waits. */
void show_mempools(void);

#endif /* MM_MEMPOOL_H */
