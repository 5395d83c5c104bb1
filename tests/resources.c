/*
 * tests/resources.c - the counters every test case must leave as it found
 * them.  ktest snapshots each before a case and compares after it, so a
 * case that leaks pages fails by name.
 */
#include "kernel/sched.h"
#include "mm/mmzone.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

/*
 * Before the counters are read: caches keep free slabs and CPU arrays of
 * free objects for speed; they are given back first, so that only what a
 * case still holds counts (and an off-slab descriptor counts as live only
 * while its slab is in use).
 */
void ktest_resources_settle(void)
{
	kmem_cache_reap_all();
}

/* Free pages wherever they are: the buddy lists and the per-CPU lists. */
static long free_pages_count(void)
{
	return (long)(nr_free_pages() + nr_pcp_pages());
}
KTEST_RESOURCE(free_pages, "free pages", free_pages_count);

/* Objects handed out by every slab cache and not freed. */
static long live_slab_objects(void)
{
	return (long)slab_live_objects();
}
KTEST_RESOURCE(slab_objects, "live slab objects", live_slab_objects);

/* Kernel threads: a case must stop or reap what it started. */
static long live_threads(void)
{
	return (long)nr_threads();
}
KTEST_RESOURCE(threads, "kernel threads", live_threads);
