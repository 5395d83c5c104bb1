/*
 * tests/resources.c - the counters every test case must leave as it found
 * them, and the invariants of the whole kernel that must hold after it.
 * ktest snapshots each counter before a case and compares after it, so a
 * case that leaks pages fails by name; it checks each invariant after the
 * case, so a case that corrupts the allocators' state, even in structures
 * it never looks at itself, fails by name too.
 */
#include "kernel/sched.h"
#include "mm/internal.h"
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

/* ---- invariants: the kernel's state holds together after every case ---- */

/* Every zone's buddy lists against mem_map (mm/page_check.c). */
static int buddy_lists_check(char *why, size_t len)
{
	return -check_all_zones_quick(why, len);
}
KTEST_INVARIANT(buddy_lists, "the buddy free lists", buddy_lists_check);

/*
 * No two free buddies left unmerged in any zone: the merge rule.  Broken
 * (a buddy lab's merge that stops short, or its stub, which never
 * merges), it fails the case but corrupts nothing.
 */
static int buddy_merge_check(char *why, size_t len)
{
	return -check_all_zones_merged(why, len);
}
KTEST_RULE(buddy_merged, "the buddy merge rule", buddy_merge_check);

/* Every slab cache's slabs, lists and arrays (mm/slab_check.c). */
KTEST_INVARIANT(slab_caches, "the slab caches", slab_check_all);
