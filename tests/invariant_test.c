/*
 * tests/invariant_test.c - the "invariant" suite: the checkers that ktest
 * runs after every case (tests/resources.c) catch what they must.
 *
 * Each case corrupts one thing where only a checker looks - a page of a
 * private zone that claims to head a block of order MAX_ORDER, or a cache
 * of its own whose array, slab or node counters are made to lie - runs
 * the checker, reads its first violation, and puts everything back before
 * the runner's own check comes.  slab_check_all() checks every cache, so
 * the first violation must be this suite's cache's, named first.
 *
 * The corruptions are made the way the allocator itself would touch the
 * same fields: a CPU's array with interrupts off, a node's slabs and
 * counters under its list_lock.  No one else uses the suite's cache.
 */
#include "kernel/spinlock.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

#define WHY_LEN 160
#define CACHE_NAME "invariant_test"

/* ---- the buddy lists: an order past MAX_ORDER is named ---- */

static struct zone iz;

/*
 * A free block head with private == MAX_ORDER, on no list: what a merge
 * bounded by order < MAX_ORDER leaves.  The named finding must be the
 * first, ahead of the counts it also upsets.
 */
static void order_past_the_top_is_named(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	char why[WHY_LEN], want[WHY_LEN];
	int ret;

	KTEST_ASSERT_NOT_NULL(t, page);
	memset(&iz, 0, sizeof(iz));
	spin_lock_init(&iz.lock);
	zone_init_free_lists(&iz);
	iz.name = CACHE_NAME;
	iz.zone_start_pfn = page_to_pfn(page);
	iz.spanned_pages = iz.present_pages = iz.managed_pages = 1;
	KTEST_EXPECT_EQ(t, zone_check(&iz, why, sizeof(why)), 0);

	page->private = MAX_ORDER;
	__SetPageBuddy(page);
	iz.free_pages = 1UL << MAX_ORDER;
	ret = zone_check(&iz, why, sizeof(why));
	__ClearPageBuddy(page);
	page->private = 0;
	iz.free_pages = 0;

	snprintf(want, sizeof(want),
		 "%s: pfn %#lx is the head of an order-%u block (MAX_ORDER is %u)",
		 CACHE_NAME, page_to_pfn(page), MAX_ORDER, MAX_ORDER);
	KTEST_EXPECT_LT(t, ret, 0);
	KTEST_EXPECT_STREQ(t, why, want);
	KTEST_EXPECT_EQ(t, zone_check(&iz, why, sizeof(why)), 0);
	__free_page(page);
}

/* ---- the slab caches ---- */

/*
 * The fixture: a cache of its own with three objects handed out and one
 * freed, its arrays drained so that the fourth is back on the free chain
 * of their slab, which is partial.
 */
static struct {
	struct kmem_cache *cachep;
	void *obj[4];
	struct slab *slabp;
	struct kmem_list3 *l3;
} fx;

static int slab_fixture_init(struct ktest *t)
{
	memset(&fx, 0, sizeof(fx));
	fx.cachep = kmem_cache_create(CACHE_NAME, 64, 0, 0, NULL);
	if (!fx.cachep)
		return -1;
	for (unsigned int i = 0; i < ARRAY_SIZE(fx.obj); i++) {
		fx.obj[i] = kmem_cache_alloc(fx.cachep, GFP_KERNEL);
		if (!fx.obj[i])
			return -1;
	}
	kmem_cache_free(fx.cachep, fx.obj[3]);
	kmem_cache_shrink(fx.cachep);
	fx.slabp = page_get_slab(virt_to_page(fx.obj[0]));
	fx.l3 = &fx.cachep->nodelists[fx.slabp->nodeid];
	/* One slab holds all four (64-byte objects, a page's worth). */
	if (page_get_slab(virt_to_page(fx.obj[2])) != fx.slabp)
		return -1;
	return 0;
}

static void slab_fixture_exit(struct ktest *t)
{
	for (unsigned int i = 0; i < 3; i++)
		if (fx.obj[i])
			kmem_cache_free(fx.cachep, fx.obj[i]);
	if (fx.cachep)
		kmem_cache_destroy(fx.cachep);
}

/* The checker finds a violation in this suite's cache, saying word. */
static void expect_caught(struct ktest *t, int line, const char *word)
{
	char why[WHY_LEN];
	int n = slab_check_all(why, sizeof(why));

	if (n <= 0)
		KTEST_FAIL(t, "line %d: slab_check_all = %d: \"%s\" not caught",
			   line, n, word);
	else if (strncmp(why, CACHE_NAME ": ", strlen(CACHE_NAME) + 2) ||
		 !strstr(why, word))
		KTEST_FAIL(t, "line %d: slab_check_all = %d says \"%s\", expected \"%s: ...%s...\"",
			   line, n, why, CACHE_NAME, word);
}

static void expect_clean(struct ktest *t, int line)
{
	char why[WHY_LEN];
	int n = slab_check_all(why, sizeof(why));

	if (n)
		KTEST_FAIL(t, "line %d: slab_check_all = %d: %s", line, n, why);
}

#define EXPECT_CAUGHT(t, word) expect_caught(t, __LINE__, word)
#define EXPECT_CLEAN(t) expect_clean(t, __LINE__)

/* Pushes objp onto this CPU's array of the cache, as a free would. */
static void array_push(void *objp)
{
	unsigned long flags;
	struct array_cache *ac;

	local_irq_save(flags);
	ac = __cpu_array(fx.cachep);
	ac->entry[ac->avail++] = objp;
	local_irq_restore(flags);
}

/* Takes objp back off the top of this CPU's array. */
static void array_pop(struct ktest *t, void *objp)
{
	unsigned long flags;
	struct array_cache *ac;
	bool ok;

	local_irq_save(flags);
	ac = __cpu_array(fx.cachep);
	ok = ac->avail && ac->entry[ac->avail - 1] == objp;
	if (ok)
		ac->avail--;
	local_irq_restore(flags);
	KTEST_EXPECT_TRUE(t, ok);
}

static void clean_fixture_passes(struct ktest *t)
{
	EXPECT_CLEAN(t);
	KTEST_EXPECT_EQ(t, fx.slabp->inuse, 3u);
}

static void object_twice_in_the_arrays(struct ktest *t)
{
	array_push(fx.obj[0]);
	array_push(fx.obj[0]);
	EXPECT_CAUGHT(t, "is in the arrays twice");
	array_pop(t, fx.obj[0]);
	array_pop(t, fx.obj[0]);
	EXPECT_CLEAN(t);
}

static void free_object_in_an_array(struct ktest *t)
{
	array_push(fx.obj[3]);
	EXPECT_CAUGHT(t, "is in an array and on the free chain");
	array_pop(t, fx.obj[3]);
	EXPECT_CLEAN(t);
}

static u64 not_an_object;

static void foreign_pointer_in_an_array(struct ktest *t)
{
	array_push(&not_an_object);
	EXPECT_CAUGHT(t, "not an object of this cache");
	array_pop(t, &not_an_object);
	EXPECT_CLEAN(t);
}

static void array_limit_past_its_room(struct ktest *t)
{
	unsigned long flags;
	unsigned int limit;

	local_irq_save(flags);
	limit = __cpu_array(fx.cachep)->limit;
	__cpu_array(fx.cachep)->limit = fx.cachep->array_max + 1;
	local_irq_restore(flags);
	EXPECT_CAUGHT(t, "'s array has limit");
	local_irq_save(flags);
	__cpu_array(fx.cachep)->limit = limit;
	local_irq_restore(flags);
	EXPECT_CLEAN(t);
}

/* Changes a node's field by delta under its list_lock. */
static void node_add(unsigned long *field, long delta)
{
	unsigned long flags;

	spin_lock_irqsave(&fx.l3->list_lock, flags);
	*field += (unsigned long)delta;
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
}

static void inuse_disagrees_with_the_chain(struct ktest *t)
{
	unsigned long flags;

	spin_lock_irqsave(&fx.l3->list_lock, flags);
	fx.slabp->inuse++;
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
	EXPECT_CAUGHT(t, "objects on its free chain, inuse 4");
	spin_lock_irqsave(&fx.l3->list_lock, flags);
	fx.slabp->inuse--;
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
	EXPECT_CLEAN(t);
}

static void node_counters_disagree(struct ktest *t)
{
	node_add(&fx.l3->free_objects, 1);
	EXPECT_CAUGHT(t, "free_objects says");
	node_add(&fx.l3->free_objects, -1);
	node_add(&fx.l3->nr_slabs, 1);
	EXPECT_CAUGHT(t, "nr_slabs says");
	node_add(&fx.l3->nr_slabs, -1);
	EXPECT_CLEAN(t);
}

static void partial_slab_on_the_full_list(struct ktest *t)
{
	unsigned long flags;

	spin_lock_irqsave(&fx.l3->list_lock, flags);
	list_move(&fx.slabp->list, &fx.l3->slabs_full);
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
	EXPECT_CAUGHT(t, "'s slabs_full has inuse 3");
	spin_lock_irqsave(&fx.l3->list_lock, flags);
	list_move(&fx.slabp->list, &fx.l3->slabs_partial);
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
	EXPECT_CLEAN(t);
}

/* The chain's last link made to point back at its first. */
static void free_chain_loops(struct ktest *t)
{
	unsigned long flags;
	unsigned int last;

	spin_lock_irqsave(&fx.l3->list_lock, flags);
	last = fx.slabp->free;
	while (fx.slabp->bufctl[last] != BUFCTL_END)
		last = fx.slabp->bufctl[last];
	fx.slabp->bufctl[last] = fx.slabp->free;
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
	EXPECT_CAUGHT(t, "twice");
	spin_lock_irqsave(&fx.l3->list_lock, flags);
	fx.slabp->bufctl[last] = BUFCTL_END;
	spin_unlock_irqrestore(&fx.l3->list_lock, flags);
	EXPECT_CLEAN(t);
}

static const struct ktest_case invariant_cases[] = {
	KTEST_CASE(order_past_the_top_is_named),
	KTEST_CASE(clean_fixture_passes),
	KTEST_CASE(object_twice_in_the_arrays),
	KTEST_CASE(free_object_in_an_array),
	KTEST_CASE(foreign_pointer_in_an_array),
	KTEST_CASE(array_limit_past_its_room),
	KTEST_CASE(inuse_disagrees_with_the_chain),
	KTEST_CASE(node_counters_disagree),
	KTEST_CASE(partial_slab_on_the_full_list),
	KTEST_CASE(free_chain_loops),
	KTEST_END,
};

/* Every case runs with the slab fixture (the zone case ignores it). */
static const struct ktest_suite invariant_suite = {
	.name = "invariant",
	.init = slab_fixture_init,
	.exit = slab_fixture_exit,
	.cases = invariant_cases,
};
KTEST_SUITE(invariant_suite);
