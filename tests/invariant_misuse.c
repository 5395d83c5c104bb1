/*
 * tests/invariant_misuse.c - cases that corrupt the kernel's state where
 * no case of theirs looks, so that only the runner's check of the
 * kernel-wide invariants after every case (tests/resources.c) can fail
 * them, on its one line:
 *
 *     # CASE: CORRUPTION of LABEL: FIRST VIOLATION
 *
 * Each scenario runs a suite of one such case and then stops the kernel
 * (the corruption stays); the boot is judged on that line
 * (tests/boots.txt).  When the runner does not fail the case, the
 * scenario returns and the runner says that the misuse was not caught.
 */
#include "kernel/bug.h"
#include "kernel/spinlock.h"
#include "mm/gfp.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

static void run_one_case(const char *scenario, const struct ktest_case *c)
{
	const struct ktest_case cases[] = { *c, KTEST_END };
	const struct ktest_suite suite = { .name = "misuse_invariant",
					   .cases = cases };

	if (ktest_run_suite(&suite))
		panic("ktest: misuse %s: the case that corrupted the kernel failed",
		      scenario);
}

/*
 * A page that says it heads a free block of order MAX_ORDER, on no list:
 * what a merge that went one order too far leaves (the block's list head
 * past free_area[]).  The page stays allocated (a leak too).
 */
static void leaves_an_order_max_head(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, page);
	set_page_count(page, 0);
	page->private = MAX_ORDER;
	__SetPageBuddy(page);
}

static void misuse_corrupt_buddy_lists(void)
{
	const struct ktest_case c = KTEST_CASE(leaves_an_order_max_head);

	run_one_case("corrupt_buddy_lists", &c);
}
KTEST_MISUSE(corrupt_buddy_lists, misuse_corrupt_buddy_lists);

/*
 * This CPU's array of a cache of its own, its limit raised past the room
 * the array was made with (array_max), as a grow without its bound would.
 * The cache stays (a leak too).
 */
static void grows_an_array_past_its_room(struct ktest *t)
{
	struct kmem_cache *cachep = kmem_cache_create("misuse_array_room", 64, 0,
						      0, NULL);
	unsigned long flags;
	void *objp;

	KTEST_ASSERT_NOT_NULL(t, cachep);
	objp = kmem_cache_alloc(cachep, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, objp);
	local_irq_save(flags);
	__cpu_array(cachep)->limit = cachep->array_max + 1;
	local_irq_restore(flags);
	kmem_cache_free(cachep, objp);
}

static void misuse_corrupt_slab_array(void)
{
	const struct ktest_case c = KTEST_CASE(grows_an_array_past_its_room);

	run_one_case("corrupt_slab_array", &c);
}
KTEST_MISUSE(corrupt_slab_array, misuse_corrupt_slab_array);
