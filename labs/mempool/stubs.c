/*
 * labs/mempool/stubs.c - what the mempool lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB mempool: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/mempool.c: mempool_resize(): shrink under the lock, grow into a new array, fill the reserve */
int mempool_resize(mempool_t *pool, int new_min_nr, int gfp_mask)
{
	return -ENOMEM;
}
/* END STUB */

/* STUB mm/mempool.c: mempool_alloc(): the allocator without __GFP_WAIT and __GFP_IO, then the reserve, then wait and retry */
void *mempool_alloc(mempool_t *pool, int gfp_mask)
{
	void *element;

	might_sleep_if(gfp_mask & __GFP_WAIT);
	element = pool->alloc(gfp_mask | __GFP_NOWARN, pool->pool_data);
	if (!element)
		return NULL;
	return hand_out(pool, element, false);
}
/* END STUB */

/* STUB mm/mempool.c: mempool_free(): refill a short reserve first (poisoned, waking a waiter) */
void mempool_free(void *element, mempool_t *pool)
{
	if (unlikely(!element))
		return;
	count_freed(pool);
	pool_free(pool, element, MM_RET_IP);
}
/* END STUB */
