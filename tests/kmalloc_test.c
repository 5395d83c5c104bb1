/*
 * tests/kmalloc_test.c - suite "kmalloc": kmalloc, kzalloc, kcalloc,
 * krealloc, kfree and ksize.
 *
 * The rules (Linux 2.6's, as mm/kmalloc.c keeps them):
 *
 *   classes   32 64 96 128 192 256 512 1024 ... 131072 (powers of two from
 *             256, and 96 and 192); a request takes the smallest class of
 *             at least its size, and ksize() is that class.  GFP_DMA takes
 *             the class's "(DMA)" twin, whose slabs lie in ZONE_DMA.
 *   large     above 131072 bytes: a block of 2^order pages straight from
 *             the page allocator, the smallest that holds the request;
 *             ksize() = PAGE_SIZE << order, the address is page-aligned.
 *   alignment 8 bytes (ARCH_KMALLOC_MINALIGN) for every class.
 *   zeroing   kzalloc and kcalloc zero the whole object (ksize bytes);
 *             kcalloc(n, size) is NULL when n * size overflows a size_t.
 *   krealloc  the same pointer while the new size fits in ksize(), else
 *             a new object with the old ksize() bytes copied (no more:
 *             with __GFP_ZERO the rest of the new object is zero) and the
 *             old one freed; krealloc(NULL, n) is kmalloc(n); krealloc(p,
 *             0) frees p and returns NULL; one that cannot allocate
 *             returns NULL and leaves p as it was.  Owner tracking
 *             (slab_debug=U) names krealloc's caller for what it
 *             allocates and frees.  kfree(NULL) does nothing.
 */
#include "kernel/kallsyms.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

static const unsigned int classes[] = {
	32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192, 16384,
	32768, 65536, 131072,
};

/* The class a request of size bytes takes; 0 above the largest. */
static unsigned int class_for(size_t size)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++)
		if (classes[i] >= size)
			return classes[i];
	return 0;
}

/* The order of the page block a large request takes. */
static unsigned int large_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

static unsigned long free_pages_now(void)
{
	return nr_free_pages() + nr_pcp_pages();
}

static struct zone *dma_zone(void)
{
	return &NODE_DATA(0)->node_zones[ZONE_DMA];
}

/* The kmalloc cache an object came from, by name; "" for a large block. */
static const char *cache_name_of(const void *p)
{
	struct page *pg = virt_to_page(p);

	return PageSlab(pg) ? page_get_cache(pg)->name : "";
}

/* ---- classes ----------------------------------------------------------- */

static bool check_class(struct ktest *t, size_t size, gfp_t flags)
{
	void *p = kmalloc(size, flags);
	unsigned int want = class_for(size);
	char name[32];
	bool ok = true;

	if (!p) {
		KTEST_FAIL(t, "kmalloc(%zu, %#x) returned NULL", size, flags);
		return false;
	}
	snprintf(name, sizeof(name), "size-%u%s", want,
		 (flags & GFP_DMA) ? "(DMA)" : "");
	if (ksize(p) != want || strcmp(cache_name_of(p), name)) {
		KTEST_FAIL(t, "kmalloc(%zu): ksize %zu from %s, expected %u from %s",
			   size, ksize(p), cache_name_of(p), want, name);
		ok = false;
	}
	kfree(p);
	return ok;
}

static bool check_large(struct ktest *t, size_t size)
{
	unsigned int order = large_order(size);
	void *p = kmalloc(size, GFP_KERNEL | __GFP_NOWARN);
	bool ok = true;

	if (!p) {
		KTEST_FAIL(t, "kmalloc(%zu) returned NULL (order %u, %lu pages free)",
			   size, order, free_pages_now());
		return false;
	}
	if (ksize(p) != (PAGE_SIZE << order) || ((unsigned long)p & ~PAGE_MASK) ||
	    PageSlab(virt_to_page(p))) {
		KTEST_FAIL(t, "kmalloc(%zu) = %p: ksize %zu (expected %lu), %s",
			   size, p, ksize(p), PAGE_SIZE << order,
			   PageSlab(virt_to_page(p)) ? "a slab object" : "from pages");
		ok = false;
	}
	kfree(p);
	return ok;
}

static void every_size_lands_in_its_class(struct ktest *t)
{
	/* One by one up to a page. */
	for (size_t size = 1; size <= 4096; size++)
		if (!check_class(t, size, GFP_KERNEL))
			break;
	/* Every class boundary and the byte after it, to the largest. */
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++) {
		check_class(t, classes[i], GFP_KERNEL);
		check_class(t, classes[i] - 1, GFP_KERNEL);
		if (i + 1 < ARRAY_SIZE(classes))
			check_class(t, classes[i] + 1, GFP_KERNEL);
	}
	/* The byte after the largest: no class, a block of pages. */
	check_large(t, KMALLOC_MAX_CACHE_SIZE + 1);
}

/* ---- alignment ----------------------------------------------------------- */

static void every_class_is_8_byte_aligned(struct ktest *t)
{
	static void *p[ARRAY_SIZE(classes)][2][3];

	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++)
		for (unsigned int d = 0; d < 2; d++)
			for (unsigned int j = 0; j < 3; j++) {
				size_t size = classes[i] - (i ? j : 0);

				p[i][d][j] = kmalloc(size, GFP_KERNEL | (d ? GFP_DMA : 0));
				KTEST_EXPECT_NOT_NULL(t, p[i][d][j]);
				if ((unsigned long)p[i][d][j] % ARCH_KMALLOC_MINALIGN)
					KTEST_FAIL(t, "kmalloc(%zu%s) = %p is not 8-aligned",
						   size, d ? ", GFP_DMA" : "", p[i][d][j]);
			}
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++)
		for (unsigned int d = 0; d < 2; d++)
			for (unsigned int j = 0; j < 3; j++)
				kfree(p[i][d][j]);
	/* Odd sizes too: the start is what is aligned, not the size. */
	for (size_t size = 1; size <= 200; size += 7) {
		void *q = kmalloc(size, GFP_KERNEL), *r = kmalloc(size, GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, q);
		KTEST_ASSERT_NOT_NULL(t, r);
		KTEST_EXPECT_EQ(t, (unsigned long)q % 8, 0UL);
		KTEST_EXPECT_EQ(t, (unsigned long)r % 8, 0UL);
		kfree(q);
		kfree(r);
	}
}

/* ---- zeroing --------------------------------------------------------------- */

static bool all_zero(const void *p, size_t n)
{
	const u8 *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

#define ZERO_TRIES 8

/*
 * Dirties an object of size bytes, frees it, then asks zalloc for the
 * same size until the same memory comes back (a CPU array is a stack: the
 * first try, normally), and checks every byte of each result.
 */
static void check_zeroed(struct ktest *t, size_t size, const char *how,
			 void *(*zalloc)(size_t size))
{
	void *tries[ZERO_TRIES];
	unsigned int n = 0;
	void *dirty = kmalloc(size, GFP_KERNEL);
	size_t len;

	KTEST_ASSERT_NOT_NULL(t, dirty);
	len = ksize(dirty);
	memset(dirty, 0x5a, len);
	kfree(dirty);
	while (n < ZERO_TRIES) {
		void *p = zalloc(size);

		KTEST_ASSERT_NOT_NULL(t, p);
		tries[n++] = p;
		if (!all_zero(p, ksize(p)))
			KTEST_FAIL(t, "%s(%zu) = %p is not zeroed (ksize %zu)", how,
				   size, p, ksize(p));
		if (p == dirty)
			break;
	}
	if (tries[n - 1] != dirty)
		ktest_printf(t, "%s(%zu): the dirtied object did not come back in %u tries",
			     how, size, ZERO_TRIES);
	while (n)
		kfree(tries[--n]);
}

static void *zalloc_kzalloc(size_t size)
{
	return kzalloc(size, GFP_KERNEL);
}

static void *zalloc_kcalloc(size_t size)
{
	/* size / 8 elements of 8 bytes, or size of 1. */
	return size % 8 ? kcalloc(size, 1, GFP_KERNEL) : kcalloc(size / 8, 8, GFP_KERNEL);
}

static void kzalloc_and_kcalloc_zero_the_object(struct ktest *t)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++) {
		check_zeroed(t, classes[i], "kzalloc", zalloc_kzalloc);
		check_zeroed(t, classes[i] - 3, "kzalloc", zalloc_kzalloc);
		check_zeroed(t, classes[i], "kcalloc", zalloc_kcalloc);
	}
	check_zeroed(t, 200000, "kzalloc", zalloc_kzalloc);
	check_zeroed(t, 200000, "kcalloc", zalloc_kcalloc);
	/* GFP_DMA with __GFP_ZERO. */
	{
		void *p = kzalloc(100, GFP_KERNEL | GFP_DMA);

		KTEST_ASSERT_NOT_NULL(t, p);
		KTEST_EXPECT_TRUE(t, all_zero(p, ksize(p)));
		kfree(p);
	}
}

/* ---- krealloc ------------------------------------------------------------- */

static void fill(void *p, size_t n, u8 seed)
{
	for (size_t i = 0; i < n; i++)
		((u8 *)p)[i] = (u8)(seed + i * 7);
}

static bool filled(const void *p, size_t n, u8 seed)
{
	for (size_t i = 0; i < n; i++)
		if (((const u8 *)p)[i] != (u8)(seed + i * 7))
			return false;
	return true;
}

/*
 * krealloc(p, n) for a p that must stay live: a NULL result means p was
 * kept, so it is freed here before the case stops (no leak, and no NULL
 * dereference in the checks that follow).
 */
static void *krealloc_or_stop(struct ktest *t, void *p, size_t n)
{
	void *q = krealloc(p, n, GFP_KERNEL);

	if (!q) {
		KTEST_FAIL(t, "krealloc(%p of ksize %zu, %zu) returned NULL",
			   p, ksize(p), n);
		kfree(p);
		ktest_abort(t);
	}
	return q;
}

static void krealloc_keeps_the_contents(struct ktest *t)
{
	void *p, *q, *r, *big, *bigger;

	/* Within the class (40 -> size-64): the same object. */
	p = kmalloc(40, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	fill(p, 40, 1);
	q = krealloc_or_stop(t, p, 64);
	KTEST_EXPECT_PTR_EQ(t, q, p);
	KTEST_EXPECT_TRUE(t, filled(q, 40, 1));
	fill(q, ksize(q), 2);
	/* Across classes (64 -> size-128): a copy, the old object freed. */
	r = krealloc_or_stop(t, q, 100);
	KTEST_EXPECT_PTR_NE(t, r, q);
	KTEST_EXPECT_EQ(t, ksize(r), (size_t)128);
	KTEST_EXPECT_TRUE(t, filled(r, 64, 2));
	/* The old one is free: the next size-64 allocation takes it (LIFO). */
	p = kmalloc(64, GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, p, q);
	kfree(p);
	/* Shrinking: the same object, contents kept. */
	fill(r, ksize(r), 3);
	q = krealloc_or_stop(t, r, 10);
	KTEST_EXPECT_PTR_EQ(t, q, r);
	KTEST_EXPECT_TRUE(t, filled(q, 128, 3));
	/* Growing into pages, and further. */
	big = krealloc_or_stop(t, q, 200000);
	KTEST_EXPECT_EQ(t, ksize(big), (size_t)(PAGE_SIZE << 6));
	KTEST_EXPECT_TRUE(t, filled(big, 128, 3));
	fill(big, 200000, 4);
	bigger = krealloc_or_stop(t, big, 1 << 20);
	KTEST_EXPECT_PTR_NE(t, bigger, big);
	KTEST_EXPECT_TRUE(t, filled(bigger, 200000, 4));
	/* And back down: a large block that still fits is kept. */
	big = krealloc_or_stop(t, bigger, 5000);
	KTEST_EXPECT_PTR_EQ(t, big, bigger);
	KTEST_EXPECT_TRUE(t, filled(big, 5000, 4));
	kfree(big);
}

#define NEIGHBOURS 8

/*
 * ... and no more: what lies past the old object is not its to copy.  A
 * size-64 object whose next 36 bytes (a dirtied neighbour, or a red
 * zone) are not all zero, grown to 100 bytes with __GFP_ZERO: the new
 * size-128 object is zeroed, then gets the old 64 bytes, so bytes 64 to
 * 127 stay zero - a copy of new_size bytes would bring those 36 along.
 */
static void krealloc_copies_no_more(struct ktest *t)
{
	static u8 *objs[NEIGHBOURS];
	u8 *p = NULL, *q;

	for (unsigned int i = 0; i < NEIGHBOURS; i++) {
		objs[i] = kmalloc(64, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, objs[i]);
		memset(objs[i], 0x5a, 64);
	}
	for (unsigned int i = 0; i < NEIGHBOURS && !p; i++)
		if (memchr_inv(objs[i] + 64, 0, 100 - 64))
			p = objs[i];
	KTEST_EXPECT_NOT_NULL(t, p);
	if (p) {
		q = krealloc(p, 100, GFP_KERNEL | __GFP_ZERO);
		KTEST_EXPECT_NOT_NULL(t, q);
		if (q) {
			KTEST_EXPECT_TRUE(t, !memchr_inv(q, 0x5a, 64));
			if (memchr_inv(q + 64, 0, 64))
				KTEST_FAIL(t, "krealloc(kmalloc(64), 100, __GFP_ZERO): byte %td is %#x, not 0: more than ksize() = 64 bytes were copied",
					   (u8 *)memchr_inv(q + 64, 0, 64) - q,
					   *(u8 *)memchr_inv(q + 64, 0, 64));
			kfree(q);
		} else {
			kfree(p);
		}
	}
	for (unsigned int i = 0; i < NEIGHBOURS; i++)
		if (objs[i] != p)
			kfree(objs[i]);
}

/*
 * Every byte of the old object's class moves, not just what was asked
 * for: krealloc() cannot know the request, so it copies ksize() bytes
 * (the 2.6.22 rule); and a shrink within the class moves nothing.
 */
static void krealloc_copies_the_whole_class(struct ktest *t)
{
	static const size_t from[] = { 33, 65, 97, 129, 200, 700, 3000 };

	for (unsigned int i = 0; i < ARRAY_SIZE(from); i++) {
		size_t cls = class_for(from[i]), to = class_for(cls + 1);
		u8 *p = kmalloc(from[i], GFP_KERNEL), *q;

		KTEST_ASSERT_NOT_NULL(t, p);
		fill(p, cls, (u8)i);
		q = krealloc_or_stop(t, p, cls + 1);
		if (ksize(q) != to || !filled(q, cls, (u8)i))
			KTEST_FAIL(t, "krealloc(kmalloc(%zu), %zu): ksize %zu (expected %zu), the old %zu bytes %s",
				   from[i], cls + 1, ksize(q), to, cls,
				   filled(q, cls, (u8)i) ? "kept" : "lost");
		p = krealloc_or_stop(t, q, from[i]);
		KTEST_EXPECT_PTR_EQ(t, p, q);
		kfree(p);
	}
	krealloc_copies_no_more(t);
}

/* krealloc(NULL, n) is kmalloc(n); krealloc(p, 0) frees p and is NULL. */
static void krealloc_of_null_and_to_zero(struct ktest *t)
{
	unsigned long live;
	void *p, *q;

	p = krealloc(NULL, 100, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), (size_t)class_for(100));
	KTEST_EXPECT_STREQ(t, cache_name_of(p), "size-128");
	live = slab_live_objects();
	q = krealloc(p, 0, GFP_KERNEL);
	KTEST_EXPECT_NULL(t, q);
	KTEST_EXPECT_EQ(t, slab_live_objects(), live - 1);
	/* Freed into this CPU's array: the next size-128 object is it. */
	q = kmalloc(128, GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, q, p);
	kfree(q);
	if (q != p && slab_live_objects() == live)
		kfree(p);	/* krealloc(p, 0) kept it */
}

/*
 * A krealloc() that cannot allocate returns NULL and leaves the object
 * as it was: live, the caller's, its contents kept - whether the request
 * is larger than any block or the allocator fails (fault injection) -
 * and a later krealloc() that can allocate moves it.
 */
static void krealloc_that_fails_keeps_the_object(struct ktest *t)
{
	static const size_t to[] = { PAGE_SIZE << MAX_ORDER, 200 };
	u8 *p = kmalloc(100, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, p);
	for (unsigned int i = 0; i < ARRAY_SIZE(to); i++) {
		unsigned long live;
		void *q, *r;

		fill(p, ksize(p), (u8)(9 + i));
		live = slab_live_objects();
		if (i)
			fail_task_allocations(current, true);
		q = krealloc(p, to[i], GFP_KERNEL | __GFP_NOWARN);
		if (i)
			fail_task_allocations(current, false);
		if (q) {
			KTEST_FAIL(t, "krealloc(kmalloc(100), %zu) with no memory = %p, not NULL",
				   to[i], q);
			if (q != p)
				kfree(q);
			return;
		}
		if (slab_live_objects() != live) {
			KTEST_FAIL(t, "krealloc(kmalloc(100), %zu) failed and freed the object",
				   to[i]);
			return;
		}
		KTEST_EXPECT_TRUE(t, filled(p, ksize(p), (u8)(9 + i)));
		/* Still the caller's: the next size-128 object is another. */
		r = kmalloc(128, GFP_KERNEL);
		KTEST_EXPECT_PTR_NE(t, r, (void *)p);
		kfree(r);
	}
	/* And with memory to be had, the same call moves it. */
	p = krealloc_or_stop(t, p, 200);
	KTEST_EXPECT_EQ(t, ksize(p), (size_t)256);
	KTEST_EXPECT_TRUE(t, filled(p, 128, (u8)(9 + ARRAY_SIZE(to) - 1)));
	kfree(p);
}

/* An object's owner words, past the object (no red zone): [0] allocated, [1] freed by. */
static unsigned long *owner_of(struct kmem_cache *c, const void *p)
{
	return (unsigned long *)((char *)p + ALIGN(c->object_size, (unsigned int)sizeof(void *)));
}

/*
 * krealloc() passes its caller down, as kmalloc() does: owner tracking
 * names the code that called krealloc - here this function - for the
 * object it allocates and the one it frees, never krealloc itself.
 * Needs slab_debug=U on size-128 and size-256 (the kmalloc lab's graded
 * boot has it) and no red zone there.
 */
static void krealloc_records_its_caller(struct ktest *t)
{
	struct kmem_cache *c128 = kmalloc_slab_for(128), *c256 = kmalloc_slab_for(256);
	char sym[96];
	void *p, *q;

	if (!(c128->flags & SLAB_STORE_USER) || !(c256->flags & SLAB_STORE_USER) ||
	    ((c128->flags | c256->flags) & SLAB_RED_ZONE))
		ktest_skip(t, "size-128 and size-256 do not track owners (boot with slab_debug=U,size-128,size-256)");
	if (!kallsyms_lookup((unsigned long)krealloc_records_its_caller + 1, sym, sizeof(sym)))
		ktest_skip(t, "no symbols to name an owner by (the host build has none)");
	p = krealloc(NULL, 100, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_PTR_EQ(t, (void *)page_get_cache(virt_to_page(p)), (void *)c128);
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, owner_of(c128, p)[0], krealloc_records_its_caller,
					 "krealloc_records_its_caller"));
	q = krealloc_or_stop(t, p, 200);
	KTEST_EXPECT_PTR_EQ(t, (void *)page_get_cache(virt_to_page(q)), (void *)c256);
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, owner_of(c256, q)[0], krealloc_records_its_caller,
					 "krealloc_records_its_caller"));
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, owner_of(c128, p)[1], krealloc_records_its_caller,
					 "krealloc_records_its_caller"));
	KTEST_EXPECT_NULL(t, krealloc(q, 0, GFP_KERNEL));
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, owner_of(c256, q)[1], krealloc_records_its_caller,
					 "krealloc_records_its_caller"));
}

/* ---- large requests -------------------------------------------------------- */

static void large_requests_come_from_pages(struct ktest *t)
{
	static const size_t sizes[] = { 200000, 1 << 20 };

	/* ksize() is the whole block: PAGE_SIZE << its order. */
	check_large(t, KMALLOC_MAX_CACHE_SIZE + 1);	/* 33 pages: order 6 */
	check_large(t, 200000);				/* 49 pages: order 6 */
	check_large(t, 262144);				/* exactly order 6 */
	check_large(t, 262145);				/* order 7 */
	check_large(t, 1 << 20);			/* order 8 */
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned int order = large_order(sizes[i]);
		unsigned long before = free_pages_now();
		u8 *p = kmalloc(sizes[i], GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, p);
		KTEST_EXPECT_EQ(t, (unsigned long)p & ~PAGE_MASK, 0UL);
		KTEST_EXPECT_EQ(t, ksize(p), (size_t)(PAGE_SIZE << order));
		KTEST_EXPECT_FALSE(t, PageSlab(virt_to_page(p)));
		/* Exactly one block of 2^order pages, no slab pages around it. */
		KTEST_EXPECT_EQ(t, before - free_pages_now(), 1UL << order);
		/* All of it is usable. */
		memset(p, 0xc3, ksize(p));
		KTEST_EXPECT_EQ(t, p[0], 0xc3);
		KTEST_EXPECT_EQ(t, p[ksize(p) - 1], 0xc3);
		kfree(p);
		KTEST_EXPECT_EQ(t, free_pages_now(), before);
	}
	/* Larger than the largest block: NULL, not a smaller block. */
	KTEST_EXPECT_NULL(t, kmalloc(PAGE_SIZE << MAX_ORDER, GFP_KERNEL | __GFP_NOWARN));
}

/* ---- GFP_DMA ----------------------------------------------------------------- */

static void gfp_dma_objects_lie_in_zone_dma(struct ktest *t)
{
	struct zone *dma = dma_zone();

	if (!populated_zone(dma))
		ktest_skip(t, "node 0 has no ZONE_DMA pages");
	KTEST_EXPECT_EQ(t, (int)zone_idx(dma), (int)ZONE_DMA);
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++) {
		void *p[3];

		for (unsigned int j = 0; j < 3; j++) {
			p[j] = kmalloc(classes[i] - j, GFP_KERNEL | GFP_DMA);
			KTEST_ASSERT_NOT_NULL(t, p[j]);
			if (page_zone(virt_to_page(p[j])) != dma)
				KTEST_FAIL(t, "kmalloc(%u, GFP_DMA) = %p is in zone %s of node %d",
					   classes[i] - j, p[j],
					   page_zone(virt_to_page(p[j]))->name,
					   page_to_nid(virt_to_page(p[j])));
		}
		check_class(t, classes[i], GFP_KERNEL | GFP_DMA);
		for (unsigned int j = 0; j < 3; j++)
			kfree(p[j]);
	}
	/* A large block too. */
	{
		void *p = kmalloc(200000, GFP_KERNEL | GFP_DMA | __GFP_NOWARN);

		if (!p) {
			ktest_printf(t, "no order-6 block free in ZONE_DMA: large GFP_DMA not checked");
		} else {
			KTEST_EXPECT_PTR_EQ(t, page_zone(virt_to_page(p)), dma);
			kfree(p);
		}
	}
}

/* ---- kcalloc overflow, kfree(NULL) ---------------------------------------- */

static void kcalloc_overflow_returns_null(struct ktest *t)
{
	void *p;

	KTEST_EXPECT_NULL(t, kcalloc(SIZE_MAX / 4 + 1, 4, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kcalloc(SIZE_MAX / 65537 + 1, 65537, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kcalloc(2, SIZE_MAX / 2 + 1, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kcalloc(SIZE_MAX, SIZE_MAX, GFP_KERNEL));
	/* kmalloc_array() is kcalloc() without the zeroing: the same test. */
	KTEST_EXPECT_NULL(t, kmalloc_array(SIZE_MAX / 4 + 1, 4, GFP_KERNEL));
	KTEST_EXPECT_NULL(t, kmalloc_array(SIZE_MAX / sizeof(void *) + 1,
					   sizeof(void *), GFP_KERNEL));
	/*
	 * Products that fit but are far too large: NULL from the page
	 * allocator's side (more than the largest block), up to sizes near
	 * 4 GiB, where PAGE_SIZE << order would wrap (kmalloc_large() checks
	 * the size against the largest block first).
	 */
	KTEST_EXPECT_NULL(t, kcalloc(65536, 32768, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kcalloc(3, 1 << 22, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kmalloc(SIZE_MAX - PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN));
	KTEST_EXPECT_NULL(t, kmalloc_array(3, 1U << 30, GFP_KERNEL | __GFP_NOWARN));
	/* A product that fits: a zeroed object of the right class. */
	p = kcalloc(10, 12, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, p);
	KTEST_EXPECT_EQ(t, ksize(p), (size_t)128);
	KTEST_EXPECT_TRUE(t, all_zero(p, 120));
	kfree(p);
}

static void kfree_null_is_a_noop(struct ktest *t)
{
	unsigned long live = slab_live_objects(), pages = free_pages_now();

	kfree(NULL);
	KTEST_EXPECT_EQ(t, slab_live_objects(), live);
	KTEST_EXPECT_EQ(t, free_pages_now(), pages);
	KTEST_EXPECT_EQ(t, ksize(NULL), (size_t)0);
}

static const struct ktest_case kmalloc_cases[] = {
	KTEST_CASE(every_size_lands_in_its_class),
	KTEST_CASE(every_class_is_8_byte_aligned),
	KTEST_CASE(kzalloc_and_kcalloc_zero_the_object),
	KTEST_CASE(krealloc_keeps_the_contents),
	KTEST_CASE(krealloc_copies_the_whole_class),
	KTEST_CASE(krealloc_of_null_and_to_zero),
	KTEST_CASE(krealloc_that_fails_keeps_the_object),
	KTEST_CASE(krealloc_records_its_caller),
	KTEST_CASE(large_requests_come_from_pages),
	KTEST_CASE(gfp_dma_objects_lie_in_zone_dma),
	KTEST_CASE(kcalloc_overflow_returns_null),
	KTEST_CASE(kfree_null_is_a_noop),
	KTEST_END,
};

static const struct ktest_suite kmalloc_suite = {
	.name = "kmalloc",
	.cases = kmalloc_cases,
};
KTEST_SUITE(kmalloc_suite);
