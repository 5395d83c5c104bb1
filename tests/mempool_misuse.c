/*
 * tests/mempool_misuse.c - mempool misuse that must stop the kernel, one
 * boot each (ktest.misuse=NAME in tests/boots.txt), judged on its line.
 *
 *   mempool_destroy_busy   a pool destroyed while one of its elements is
 *                          still out: "the mempool code will get upset"
 *   mempool_reserve_write  an element written after it went back into a
 *                          poisoning pool's reserve, caught when the
 *                          reserve hands it out again
 */
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "mm/fault_inject.h"
#include "mm/mempool.h"
#include "mm/slab.h"
#include "tests/ktest.h"

static void misuse_mempool_destroy_busy(void)
{
	mempool_t *pool = mempool_create_kmalloc_pool(2, 64);
	void *element;

	if (!pool)
		return;
	element = mempool_alloc(pool, GFP_KERNEL);
	pr_info("ktest: misuse mempool_destroy_busy: destroying pool %p with element %p out\n",
		(void *)pool, element);
	mempool_destroy(pool);
}
KTEST_MISUSE(mempool_destroy_busy, misuse_mempool_destroy_busy);

static void misuse_mempool_reserve_write(void)
{
	struct kmem_cache *cache = kmem_cache_create("misuse-pool", 96, 0,
						     SLAB_POISON, NULL);
	mempool_t *pool = cache ? mempool_create_slab_pool(1, cache) : NULL;
	char *element;

	if (!pool)
		return;
	/* With the allocator failing, the reserve's one element comes out. */
	fail_task_allocations(current, true);
	element = mempool_alloc(pool, GFP_KERNEL);
	mempool_free(element, pool);	/* back into the reserve */
	pr_info("ktest: misuse mempool_reserve_write: writing to %p in the reserve\n",
		element);
	element[10] = 'x';
	element = mempool_alloc(pool, GFP_KERNEL);
	fail_task_allocations(current, false);
}
KTEST_MISUSE(mempool_reserve_write, misuse_mempool_reserve_write);
