/*
 * tests/slab_test.c - suite "slab": caches, slabs and the per-CPU arrays.
 *
 * Every expected number is worked out here from Linux 2.6's rules, written
 * out below (rule_layout), and compared with what the cache does; a cache's
 * fields are never their own expectation.  The rules, for an object of
 * size bytes, alignment align and creation flags:
 *
 *   alignment   a word (4); SLAB_HWCACHE_ALIGN: a cache line (64), halved
 *               while the object fits in half of it (never below a word);
 *               an explicit align larger than that wins; a red zone needs 8.
 *   buffer      size rounded to a word; debugging adds a red zone of 8
 *               before (the caller's object starts ALIGN(8, align) in) and
 *               8 after the object rounded to 8, and 2 owner words; then
 *               rounded to the alignment.
 *   placement   off the slab when buffer >= PAGE_SIZE / 8 (512): the
 *               descriptor (struct slab + a 16-bit bufctl per object)
 *               comes from the smallest kmalloc class that holds it.
 *   estimate    (2.6's cache_estimate) for 2^order pages of B bytes:
 *               off-slab  num = B / buffer, mgmt = 0;
 *               on-slab   num = (B - sizeof(struct slab)) / (buffer + 2),
 *                         less one while ALIGN(sizeof(struct slab) + 2 num,
 *                         align) + num * buffer > B; mgmt is that ALIGN();
 *               left = B - num * buffer - mgmt.
 *   order       the smallest order 0..MAX_ORDER-1 with num > 0 and
 *               left * 8 <= B (an eighth wasted at most); the largest if
 *               none is.
 *   colour      colour_off = max(64, align); colour = left / colour_off:
 *               slab k starts its objects (k mod colour) * colour_off
 *               further in (after the descriptor when it is on the slab).
 *   arrays      limit 120 (buffer <= 256), 54 (<= 1024), 24 (<= 4096),
 *               8 (larger); batchcount (limit + 1) / 2; a node keeps at
 *               most free_limit = (1 + nr_cpu_ids) * batchcount + num
 *               free objects in its slabs before it gives a free slab back.
 *   growth      a CPU's array may grow to array_max = max(limit, min(8 *
 *               limit, 256 KiB / buffer)): a full array whose node's
 *               shared array is full too (or absent) doubles its limit,
 *               up to array_max, instead of flushing, when the run of
 *               frees - a batchcount added at each full array, halved at
 *               each empty one, at most array_max - is at least its limit
 *               and the freed object's zone has pages_high free; a drain
 *               puts it back to limit with no run.
 *   shared      with more than one CPU and buffer <= PAGE_SIZE, each node
 *               has a shared array of 8 * batchcount: a full CPU array's
 *               flush moves its oldest min(batchcount, room) there while it
 *               has room, and an empty CPU array first takes up to
 *               batchcount from it (the newest); otherwise to/from slabs.
 *
 * The cases allocate on the boot CPU with nothing else using their caches,
 * so that which slab and which array an object comes from can be worked
 * out by hand: a refill takes up to batchcount objects, partial slabs
 * first; a CPU array is a LIFO stack; a free to a full array first gives
 * its oldest batchcount objects back (to the node's shared array while it
 * has room, when the cache has one; to their slabs otherwise).  list_lock is a
 * ticket lock: the tickets it handed out count its acquisitions.
 *
 * mixed_caches_on_every_cpu_stay_consistent ends with a checker of every
 * cache's books (check_cache): for each node, each slab's inuse plus the
 * length of its free chain is num, each slab is on the list its count
 * says, free_objects is the sum of the free chains, nr_slabs the slabs
 * listed; each object in a CPU or shared array is one of the cache's, at
 * an object's start, and on no free chain.
 */
#include "kernel/smp.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "mm/topology.h"
#include "tests/ktest.h"

/* ---- the rules ------------------------------------------------------- */

#define WORD ((unsigned int)sizeof(void *))
#define CACHE_LINE 64U
#define SLAB_DESC ((unsigned int)sizeof(struct slab))
#define BUFCTL ((unsigned int)sizeof(kmem_bufctl_t))
#define OFF_SLAB_MIN ((unsigned int)PAGE_SIZE / 8)
#define RULE_MAX_ORDER (MAX_ORDER - 1)

static const unsigned int kmalloc_classes[] = {
	32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192, 16384,
	32768, 65536, 131072,
};

/* The smallest kmalloc class of at least size bytes; 0 if none. */
static unsigned int class_for(unsigned int size)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(kmalloc_classes); i++)
		if (kmalloc_classes[i] >= size)
			return kmalloc_classes[i];
	return 0;
}

struct rule_layout {
	unsigned int align, buffer, obj_offset, colour_off;
	bool off_slab;
	unsigned int order, num, left, mgmt, colour;
	unsigned int desc_bytes;	/* off-slab: struct slab + bufctls */
	unsigned int limit, batch;
	unsigned int shared;		/* a shared array's limit; 0: none */
	unsigned int array_max;		/* how far a run of frees grows an array */
};

static void rule_estimate(unsigned int order, const struct rule_layout *r,
			  unsigned int *num, unsigned int *left,
			  unsigned int *mgmt)
{
	unsigned int bytes = (unsigned int)PAGE_SIZE << order, n;

	if (r->off_slab) {
		n = bytes / r->buffer;
		*mgmt = 0;
	} else {
		n = (bytes - SLAB_DESC) / (r->buffer + BUFCTL);
		while (n && ALIGN(SLAB_DESC + n * BUFCTL, r->align) +
					n * r->buffer > bytes)
			n--;
		*mgmt = ALIGN(SLAB_DESC + n * BUFCTL, r->align);
	}
	*num = n;
	*left = bytes - n * r->buffer - *mgmt;
}

/* The layout the rules give; dbg are the debug flags the cache gets. */
static void rule_layout(unsigned int size, unsigned int align,
			unsigned long flags, struct rule_layout *r)
{
	unsigned int ralign = WORD, buffer;

	memset(r, 0, sizeof(*r));
	if (flags & SLAB_HWCACHE_ALIGN) {
		ralign = CACHE_LINE;
		while (size <= ralign / 2 && ralign > WORD)
			ralign /= 2;
	}
	if (align > ralign)
		ralign = align;
	if ((flags & SLAB_RED_ZONE) && ralign < 8)
		ralign = 8;
	buffer = ALIGN(size, WORD);
	if (flags & SLAB_RED_ZONE) {
		r->obj_offset = ALIGN(8U, ralign);
		buffer = r->obj_offset + ALIGN(buffer, 8U) + 8;
	}
	if (flags & SLAB_STORE_USER)
		buffer += 2 * WORD;
	r->align = ralign;
	r->buffer = ALIGN(buffer, ralign);
	r->colour_off = max(CACHE_LINE, ralign);
	r->off_slab = r->buffer >= OFF_SLAB_MIN;
	for (unsigned int order = 0; order <= RULE_MAX_ORDER; order++) {
		unsigned int num, left, mgmt;

		rule_estimate(order, r, &num, &left, &mgmt);
		if (!num)
			continue;
		r->order = order;
		r->num = num;
		r->left = left;
		r->mgmt = mgmt;
		if (left * 8 <= ((unsigned int)PAGE_SIZE << order))
			break;
	}
	r->colour = r->left / r->colour_off;
	if (r->off_slab)
		r->desc_bytes = SLAB_DESC + r->num * BUFCTL;
	r->limit = r->buffer > 4096 ? 8 : r->buffer > 1024 ? 24 :
		   r->buffer > 256 ? 54 : 120;
	r->batch = (r->limit + 1) / 2;
	r->shared = nr_cpu_ids > 1 && r->buffer <= PAGE_SIZE ? 8 * r->batch : 0;
	r->array_max = max(r->limit, min(8 * r->limit, (256U << 10) / r->buffer));
}

/* The layout of a cache made by kmem_cache_create(name, size, align, flags, ctor). */
static void rule_for_cache(const char *name, unsigned int size,
			   unsigned int align, unsigned long flags,
			   struct rule_layout *r)
{
	rule_layout(size, align, flags | slab_debug_flags(name), r);
}

static unsigned long rule_free_limit(const struct rule_layout *r)
{
	return (1UL + nr_cpu_ids) * r->batch + r->num;
}

/* ---- looking at slabs ------------------------------------------------ */

static struct slab *slab_of(const void *obj)
{
	return page_get_slab(virt_to_page(obj));
}

/*
 * The first page of the slab holding obj, found through the pages (every
 * page of a slab points at its descriptor); *npages its length.
 */
static struct page *slab_first_page(const void *obj, unsigned int *npages)
{
	struct page *p = virt_to_page(obj), *first = p, *last = p;
	struct slab *s = page_get_slab(p);

	while (page_to_pfn(first) > 0 && PageSlab(first - 1) &&
	       page_get_slab(first - 1) == s)
		first--;
	while (page_to_pfn(last) + 1 < max_pfn && PageSlab(last + 1) &&
	       page_get_slab(last + 1) == s)
		last++;
	*npages = (unsigned int)(last - first) + 1;
	return first;
}

static unsigned long free_pages_now(void)
{
	return nr_free_pages() + nr_pcp_pages();
}

/*
 * The cases look at their own CPU's array and node from a task: raw, as
 * tasks never move between CPUs (kernel/sched.c), so the answer cannot go
 * stale, and the cases only read what they find there.
 */
static struct array_cache *this_array(struct kmem_cache *c)
{
	return c->array[raw_smp_processor_id()];
}

static struct kmem_list3 *this_node(struct kmem_cache *c)
{
	return &c->nodelists[cpu_to_node(raw_smp_processor_id())];
}

/* list_lock acquisitions so far (the ticket lock hands out one per lock). */
static u16 lock_tickets(struct kmem_list3 *l3)
{
	return __atomic_load_n(&l3->list_lock.next, __ATOMIC_RELAXED);
}

/*
 * The inline paths kmem_cache_alloc() and kmem_cache_free() inline
 * (mm/slab_internal.h: cache_alloc_fast, cache_free_fast), with slow ends
 * that count their calls and then do what the real ones do: a hit and a
 * push onto an array with room stay inline, so a case can see that they
 * never reached the out-of-line ends.  The allocation runs with
 * interrupts off, so that restoring them is a bare store (with them
 * coming back on, the validator's restore goes out of line too).
 */
static unsigned int slow_allocs, slow_frees;

static void *counting_alloc_slow(void *ctx, gfp_t flags, void *objp,
				 unsigned long caller, unsigned long irqflags)
{
	slow_allocs++;
	return cache_alloc_slow(ctx, flags, objp, caller, irqflags);
}

static void counting_free_slow(void *objp, void *ctx, struct kmem_cache *cachep,
			       unsigned long caller, unsigned long irqflags)
{
	slow_frees++;
	cache_free_slow(cachep, objp, irqflags);
}

/* kmem_cache_alloc(c, GFP_ATOMIC), interrupts off, slow end counted. */
static void *counted_alloc(struct kmem_cache *c)
{
	unsigned long flags;
	void *obj;

	local_irq_save(flags);
	obj = cache_alloc_fast(c, GFP_ATOMIC, _RET_IP_, counting_alloc_slow,
			       cache_alloc_hit, c);
	local_irq_restore(flags);
	return obj;
}

/* kmem_cache_free(c, obj), slow end counted. */
static void counted_free(struct kmem_cache *c, void *obj)
{
	cache_free_fast(c, obj, _RET_IP_, counting_free_slow, NULL);
}

/* Objects the cases hold (one case at a time). */
#define MAX_HELD 1536
static void *held[MAX_HELD];

static void free_held(struct kmem_cache *c, unsigned int from, unsigned int to)
{
	for (unsigned int i = from; i < to; i++)
		if (held[i]) {
			kmem_cache_free(c, held[i]);
			held[i] = NULL;
		}
}

/* Allocates n objects into held[0..n); aborts the case on NULL. */
static void alloc_held(struct ktest *t, struct kmem_cache *c, unsigned int n)
{
	KTEST_ASSERT_LE(t, n, (unsigned int)MAX_HELD);
	for (unsigned int i = 0; i < n; i++) {
		held[i] = kmem_cache_alloc(c, GFP_KERNEL);
		if (!held[i]) {
			free_held(c, 0, i);
			kmem_cache_destroy(c);
			KTEST_FAIL(t, "kmem_cache_alloc(%s) returned NULL after %u objects",
				   kmem_cache_name(c), i);
			ktest_abort(t);
		}
	}
}

static struct kmem_cache *create(struct ktest *t, const char *name,
				 unsigned int size, unsigned int align,
				 unsigned long flags, void (*ctor)(void *))
{
	struct kmem_cache *c = kmem_cache_create(name, size, align, flags, ctor);

	if (!c) {
		KTEST_FAIL(t, "kmem_cache_create(%s, %u, %u, %#lx) returned NULL",
			   name, size, align, flags);
		ktest_abort(t);
	}
	return c;
}

/* ---- layout ---------------------------------------------------------- */

/*
 * The sizes of the brief, worked by hand (no debugging; sizeof(struct
 * slab) is 28 on i386, alignment a word):
 *
 *   20: on-slab, order 0: (4096-28)/22 = 184; 28+368 -> 396 + 3680 = 4076;
 *       left 20 <= 512.                               num 184, colour 0
 *  100: (4068)/102 = 39; 108 + 3900 = 4008; left 88.  num 39, colour 1
 *  500: 4068/502 = 8; 44 + 4000 = 4044; left 52.      num 8, colour 0
 *  512: off-slab (>= 512): 4096/512 = 8, left 0.      num 8, colour 0
 * 1500: off-slab: order 0: 2, left 1096 > 512; order 1: 5, left 692 <= 1024.
 *                                                     order 1, num 5, colour 10
 * 3000: order 0: 1, left 1096 > 512; order 1: 2, left 2192 > 1024;
 *       order 2: 5, left 1384 <= 2048.                order 2, num 5, colour 21
 * 5000: order 0: none; order 1: 1, left 3192 > 1024; order 2: 3, left 1384.
 *                                                     order 2, num 3, colour 21
 */
static const struct {
	unsigned int size, order, num, colour;
	bool off_slab;
} by_hand[] = {
	{ 20, 0, 184, 0, false },   { 100, 0, 39, 1, false },
	{ 500, 0, 8, 0, false },    { 512, 0, 8, 0, true },
	{ 1500, 1, 5, 10, true },   { 3000, 2, 5, 21, true },
	{ 5000, 2, 3, 21, true },
};

static void check_layout(struct ktest *t, unsigned int size, unsigned int align,
			 unsigned long flags)
{
	static char name[40];	/* the cache keeps the pointer */
	struct rule_layout r;
	struct kmem_cache *c;
	struct page *first;
	unsigned int npages;
	struct slab *s;

	if (align || flags)
		snprintf(name, sizeof(name), "layout-%u-%u-%lx", size, align, flags);
	else
		snprintf(name, sizeof(name), "layout-%u", size);
	rule_for_cache(name, size, align, flags, &r);
	c = create(t, name, size, align, flags, NULL);
	KTEST_EXPECT_EQ(t, c->buffer_size, r.buffer);
	KTEST_EXPECT_EQ(t, c->gfporder, r.order);
	KTEST_EXPECT_EQ(t, c->num, r.num);
	KTEST_EXPECT_EQ(t, !!(c->flags & CFLGS_OFF_SLAB), r.off_slab);
	/* (The colours are the colour cases' to check.) */

	/* The first num objects share the first slab; the next is another's. */
	alloc_held(t, c, r.num + 1);
	s = slab_of(held[0]);
	first = slab_first_page(held[0], &npages);
	KTEST_EXPECT_EQ(t, npages, 1U << r.order);
	for (unsigned int i = 1; i < r.num; i++)
		if (slab_of(held[i]) != s) {
			KTEST_FAIL(t, "%s: object %u of the first %u is on another slab",
				   name, i, r.num);
			break;
		}
	KTEST_EXPECT_PTR_NE(t, slab_of(held[r.num]), s);
	for (unsigned int i = 0; i < r.num; i++) {
		unsigned long off = (unsigned long)held[i] -
				    (unsigned long)page_address(first);

		if (off + size > (PAGE_SIZE << r.order)) {
			KTEST_FAIL(t, "%s: object %p ends outside its slab", name, held[i]);
			break;
		}
	}
	/* The first slab has colour 0: objects start right after the descriptor. */
	KTEST_EXPECT_EQ(t, (unsigned long)s->s_mem - (unsigned long)page_address(first),
			(unsigned long)(r.off_slab ? 0 : r.mgmt));
	if (r.off_slab) {
		struct page *dp = virt_to_page(s);
		char want[24];

		/* The descriptor lives elsewhere, in the class that holds it. */
		KTEST_EXPECT_TRUE(t, (char *)s < (char *)page_address(first) ||
				      (char *)s >= (char *)page_address(first) + (PAGE_SIZE << r.order));
		KTEST_ASSERT_TRUE(t, PageSlab(dp));
		snprintf(want, sizeof(want), "size-%u", class_for(r.desc_bytes));
		KTEST_EXPECT_STREQ(t, page_get_cache(dp)->name, want);
		KTEST_EXPECT_EQ(t, c->slab_size, r.desc_bytes);
	} else {
		/*
		 * The descriptor opens the slab, its num bufctls right after
		 * it, and the objects start at the next multiple of the
		 * alignment: nothing of the one overlaps the other.
		 */
		KTEST_EXPECT_PTR_EQ(t, (void *)s, page_address(first));
		KTEST_EXPECT_EQ(t, c->slab_size, r.mgmt);
		KTEST_EXPECT_LE(t, (unsigned long)&s->bufctl[r.num],
				(unsigned long)s->s_mem);
	}
	KTEST_EXPECT_EQ(t, (unsigned long)s->s_mem % r.align, 0UL);
	/* The last object ends inside the slab, and no further object fits. */
	KTEST_EXPECT_LE(t, (unsigned long)s->s_mem + r.num * r.buffer,
			(unsigned long)page_address(first) + (PAGE_SIZE << r.order));
	free_held(c, 0, r.num + 1);
	kmem_cache_destroy(c);
}

static void objects_per_slab_and_order(struct ktest *t)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(by_hand); i++) {
		char name[32];
		struct rule_layout r;

		snprintf(name, sizeof(name), "layout-%u", by_hand[i].size);
		/* The hand-worked table is the rules' answer (i386, no debugging). */
		if (!slab_debug_flags(name) && WORD == 4 && SLAB_DESC == 28) {
			rule_layout(by_hand[i].size, 0, 0, &r);
			KTEST_EXPECT_EQ(t, r.order, by_hand[i].order);
			KTEST_EXPECT_EQ(t, r.num, by_hand[i].num);
			KTEST_EXPECT_EQ(t, r.colour, by_hand[i].colour);
			KTEST_EXPECT_EQ(t, r.off_slab, by_hand[i].off_slab);
		}
		check_layout(t, by_hand[i].size, 0, 0);
	}
}

/*
 * On-slab, the descriptor and a bufctl per object take their bytes from
 * the objects' pages, rounded up so that the first object is aligned;
 * off-slab, all the pages are objects'.  Sizes and alignments whose
 * counts differ from the naive PAGE_SIZE / size, and whose descriptor
 * rounds up by different amounts.
 */
static void descriptor_and_bufctls_fit_before_the_objects(struct ktest *t)
{
	static const struct {
		unsigned int size, align;
		unsigned long flags;
	} tab[] = {
		{ 12, 0, 0 }, { 36, 0, 0 }, { 100, 0, SLAB_HWCACHE_ALIGN },
		{ 200, 0, SLAB_HWCACHE_ALIGN }, { 24, 32, 0 }, { 250, 128, 0 },
		{ 60, 256, 0 }, { 400, 0, 0 }, { 700, 0, 0 }, { 2100, 0, 0 },
	};
	unsigned int differ = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(tab); i++) {
		char name[40];
		struct rule_layout r;

		snprintf(name, sizeof(name), "layout-%u-%u-%lx", tab[i].size,
			 tab[i].align, tab[i].flags);
		rule_for_cache(name, tab[i].size, tab[i].align, tab[i].flags, &r);
		differ += r.num != ((unsigned int)PAGE_SIZE << r.order) / r.buffer;
		check_layout(t, tab[i].size, tab[i].align, tab[i].flags);
	}
	/* The table is worth having: most sizes lose objects to the descriptor. */
	KTEST_EXPECT_GE(t, differ, 4U);
}

/* ---- alignment ------------------------------------------------------- */

/*
 * Objects are aligned as the rule says and packed at that stride: the
 * objects one refill hands out come from one slab, consecutive indices,
 * in descending order (the array is a stack).
 */
static void check_alignment(struct ktest *t, unsigned int size,
			    unsigned int align, unsigned long flags,
			    unsigned int want_align)
{
	char name[40];
	struct rule_layout r;
	struct kmem_cache *c;
	unsigned int n;

	snprintf(name, sizeof(name), "align-%u-%u-%lx", size, align, flags);
	rule_for_cache(name, size, align, flags, &r);
	/* Never below a word (4 bytes on i386), nor 8 with a red zone. */
	want_align = max(want_align, WORD);
	if ((slab_debug_flags(name) & SLAB_RED_ZONE) && want_align < 8)
		want_align = 8;
	KTEST_EXPECT_EQ(t, r.align, want_align);
	c = create(t, name, size, align, flags, NULL);
	KTEST_EXPECT_EQ(t, c->align, r.align);
	KTEST_EXPECT_EQ(t, c->buffer_size, r.buffer);
	n = min(r.num, r.batch);
	alloc_held(t, c, n);
	for (unsigned int i = 0; i < n; i++) {
		if ((unsigned long)held[i] % r.align) {
			KTEST_FAIL(t, "%s: object %p is not %u-aligned", name,
				   held[i], r.align);
			break;
		}
		if (i && (unsigned long)held[i - 1] - (unsigned long)held[i] != r.buffer) {
			KTEST_FAIL(t, "%s: objects %p and %p are not %u bytes apart",
				   name, held[i - 1], held[i], r.buffer);
			break;
		}
	}
	free_held(c, 0, n);
	kmem_cache_destroy(c);
}

static void hwcache_align_halves_for_small_objects(struct ktest *t)
{
	/* 64, halved while the object fits in half: 8 -> 8, 20 -> 32, ... */
	static const struct { unsigned int size, align; } tab[] = {
		{ 4, 4 }, { 8, 8 }, { 12, 16 }, { 16, 16 }, { 20, 32 },
		{ 32, 32 }, { 33, 64 }, { 60, 64 }, { 100, 64 }, { 200, 64 },
		{ 700, 64 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(tab); i++)
		check_alignment(t, tab[i].size, 0, SLAB_HWCACHE_ALIGN, tab[i].align);
}

static void explicit_align_is_honoured(struct ktest *t)
{
	check_alignment(t, 100, 128, 0, 128);
	check_alignment(t, 40, 256, 0, 256);
	check_alignment(t, 24, 16, SLAB_HWCACHE_ALIGN, 32);	/* the larger wins */
	check_alignment(t, 600, 1024, 0, 1024);
	/* No alignment asked for: a word, objects packed at the rounded size. */
	check_alignment(t, 30, 0, 0, 4);
}

/* ---- colouring ------------------------------------------------------- */

/*
 * A fresh cache colours its k-th slab (k mod colour) * colour_off.  Each
 * refill on an empty node makes one slab, so slabs appear in the order
 * the objects come out; each slab's start is found through its pages.
 */
static void check_colours(struct ktest *t, unsigned int size)
{
	static char name[32];
	struct rule_layout r;
	struct kmem_cache *c;
	struct slab *seen[40];
	unsigned int nslabs = 0, n;

	snprintf(name, sizeof(name), "colour-%u", size);
	rule_for_cache(name, size, 0, 0, &r);
	KTEST_ASSERT_GE(t, r.colour, 2U);
	c = create(t, name, size, 0, 0, NULL);
	KTEST_EXPECT_EQ(t, c->colour, r.colour);
	KTEST_EXPECT_EQ(t, c->colour_off, r.colour_off);
	n = (r.colour + 2) * r.num;	/* a full cycle and two slabs more */
	KTEST_ASSERT_LE(t, r.colour + 2, (unsigned int)ARRAY_SIZE(seen));
	alloc_held(t, c, n);
	for (unsigned int i = 0; i < n; i++) {
		struct slab *s = slab_of(held[i]);
		unsigned int k, npages;
		struct page *first;
		unsigned long want, got;

		for (k = 0; k < nslabs && seen[k] != s; k++)
			;
		if (k < nslabs)
			continue;
		if (nslabs == r.colour + 2) {
			KTEST_FAIL(t, "%s: %u objects span more than %u slabs of %u",
				   name, n, r.colour + 2, r.num);
			break;
		}
		seen[nslabs++] = s;
		first = slab_first_page(held[i], &npages);
		want = (k % r.colour) * r.colour_off + (r.off_slab ? 0 : r.mgmt);
		got = (unsigned long)s->s_mem - (unsigned long)page_address(first);
		if (got != want)
			KTEST_FAIL(t, "%s: slab %u starts its objects at offset %lu, not %lu (colour %u of %u, step %u)",
				   name, k, got, want, k % r.colour, r.colour,
				   r.colour_off);
		KTEST_EXPECT_EQ(t, npages, 1U << r.order);
	}
	KTEST_EXPECT_EQ(t, nslabs, r.colour + 2);
	ktest_printf(t, "%s: %u colours of %u bytes, %s", name, r.colour,
		     r.colour_off, r.off_slab ? "off-slab" : "on-slab");
	free_held(c, 0, n);
	kmem_cache_destroy(c);
}

/* The first size of sizes[] the rules give two colours or more, placed as asked. */
static unsigned int coloured_size(const unsigned int *sizes, unsigned int n,
				  bool off_slab)
{
	for (unsigned int i = 0; i < n; i++) {
		char name[32];
		struct rule_layout r;

		snprintf(name, sizeof(name), "colour-%u", sizes[i]);
		rule_for_cache(name, sizes[i], 0, 0, &r);
		if (r.colour >= 2 && r.off_slab == off_slab && r.colour + 2 <= 40 &&
		    (r.colour + 2) * r.num <= MAX_HELD)
			return sizes[i];
	}
	return 0;
}

/*
 * 256: on-slab, 3 colours after a 60-byte descriptor; 1500: off-slab, 10
 * colours.  With debugging the objects grow: the next candidate that
 * still has two colours or more.
 */
static const unsigned int coloured_on[] = { 256, 240, 200, 180, 160, 300, 400 };
static const unsigned int coloured_off[] = { 1500, 1400, 3000, 600 };

static void slabs_are_coloured_in_turn(struct ktest *t)
{
	unsigned int a = coloured_size(coloured_on, ARRAY_SIZE(coloured_on), false),
		     b = coloured_size(coloured_off, ARRAY_SIZE(coloured_off), true);

	struct rule_layout r;
	struct kmem_cache *c;

	KTEST_ASSERT_NE(t, a, 0U);
	KTEST_ASSERT_NE(t, b, 0U);
	check_colours(t, a);
	check_colours(t, b);
	/* Aligned beyond a cache line: a colour step is the alignment. */
	rule_for_cache("colour-align-128", 200, 128, 0, &r);
	c = create(t, "colour-align-128", 200, 128, 0, NULL);
	KTEST_EXPECT_EQ(t, c->colour_off, r.colour_off);
	KTEST_EXPECT_EQ(t, c->colour, r.colour);
	kmem_cache_destroy(c);
}

/*
 * The next colour is the node's, not the slab count's: it goes on
 * cycling when slabs are given back.  One object at a time on a fresh
 * cache: allocate it (a new slab), free it and shrink (the slab goes),
 * 2 * colour + 1 times; the k-th slab has colour k mod colour.
 */
static void colour_cycle_goes_on_after_a_shrink(struct ktest *t)
{
	unsigned int size = coloured_size(coloured_on, ARRAY_SIZE(coloured_on), false);
	struct rule_layout r;
	struct kmem_cache *c;

	KTEST_ASSERT_NE(t, size, 0U);
	rule_for_cache("colour-cycle", size, 0, 0, &r);
	KTEST_ASSERT_GE(t, r.colour, 2U);
	c = create(t, "colour-cycle", size, 0, 0, NULL);
	for (unsigned int k = 0; k < 2 * r.colour + 1; k++) {
		void *obj = kmem_cache_alloc(c, GFP_KERNEL);
		unsigned long want, got;
		struct page *first;
		unsigned int npages;

		if (!obj) {
			KTEST_FAIL(t, "slab %u: kmem_cache_alloc returned NULL", k);
			break;
		}
		first = slab_first_page(obj, &npages);
		want = (k % r.colour) * r.colour_off + r.mgmt;
		got = (unsigned long)slab_of(obj)->s_mem - (unsigned long)page_address(first);
		kmem_cache_free(c, obj);
		KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 1 << r.order);
		if (got != want) {
			KTEST_FAIL(t, "slab %u starts its objects at offset %lu, not %lu (colour %u of %u, step %u)",
				   k, got, want, k % r.colour, r.colour, r.colour_off);
			break;
		}
	}
	kmem_cache_destroy(c);
}

/*
 * The colour step takes no lock (Linux 4.6) but stays exact: when every
 * CPU grows a fresh cache at once, each node's slabs still take its
 * colours in turn, so that over T slabs colour c is used T / colour
 * times, once more when c < T % colour - never one twice while another
 * is skipped, never one past the last.  Each CPU allocates GROW_SLABS
 * whole slabs, chained through the objects: with num <= batchcount and
 * nothing freed, each grow hands all of a slab's objects to that CPU's
 * array, so a CPU's objects come a slab at a time.  GROW_SLABS is prime:
 * a colour kept per CPU instead of per node would leave every CPU's
 * count one colour over, and the node's totals uneven.
 */
#define GROW_SLABS 101		/* slabs each CPU grows */

static struct kmem_cache *grow_cache;
static unsigned int grow_num;
static void *grow_chain[NR_CPUS];	/* each CPU's objects, newest first */
static unsigned int grow_failed[NR_CPUS];

static void grow_on_this_cpu(void *unused)
{
	int cpu = smp_processor_id();

	for (unsigned int i = 0; i < GROW_SLABS * grow_num; i++) {
		void **obj = kmem_cache_alloc(grow_cache, GFP_ATOMIC);

		if (!obj) {
			grow_failed[cpu]++;
			return;
		}
		*obj = grow_chain[cpu];
		grow_chain[cpu] = obj;
	}
}

static void colours_stay_in_turn_when_cpus_grow_at_once(struct ktest *t)
{
	unsigned int size = coloured_size(coloured_on, ARRAY_SIZE(coloured_on), false);
	unsigned int used[MAX_NUMNODES][16] = { { 0 } }, slabs[MAX_NUMNODES] = { 0 };
	struct rule_layout r;
	int cpu;

	KTEST_ASSERT_NE(t, size, 0U);
	rule_for_cache("colour-race", size, 0, 0, &r);
	KTEST_ASSERT_LE(t, r.num, r.batch);
	KTEST_ASSERT_LE(t, r.colour, 16U);
	grow_num = r.num;
	memset(grow_chain, 0, sizeof(grow_chain));
	memset(grow_failed, 0, sizeof(grow_failed));
	grow_cache = create(t, "colour-race", size, 0, 0, NULL);
	on_each_cpu(grow_on_this_cpu, NULL, true);
	for_each_online_cpu(cpu) {
		struct slab *prev = NULL;

		if (grow_failed[cpu])
			KTEST_FAIL(t, "CPU %d: kmem_cache_alloc returned NULL", cpu);
		for (void **obj = grow_chain[cpu]; obj; obj = *obj) {
			struct slab *s = slab_of(obj);
			struct page *first;
			unsigned int npages, colour;
			unsigned long off;

			if (s == prev)
				continue;
			prev = s;
			first = slab_first_page(obj, &npages);
			off = (unsigned long)s->s_mem - (unsigned long)page_address(first) -
			      r.mgmt;
			colour = off / r.colour_off;
			if (off % r.colour_off || colour >= r.colour) {
				KTEST_FAIL(t, "CPU %d: a slab starts its objects at colour offset %lu: not a colour of %u, step %u",
					   cpu, off, r.colour, r.colour_off);
				continue;
			}
			used[s->nodeid][colour]++;
			slabs[s->nodeid]++;
		}
	}
	for (int nid = 0; nid < nr_online_nodes; nid++) {
		if (!slabs[nid])
			continue;
		for (unsigned int c = 0; c < r.colour; c++) {
			unsigned int want = slabs[nid] / r.colour + (c < slabs[nid] % r.colour);

			ktest_printf(t, "node %d: colour %u of %u: %u of %u slabs", nid, c,
				     r.colour, used[nid][c], slabs[nid]);
			if (used[nid][c] != want)
				KTEST_FAIL(t, "node %d: colour %u taken by %u of %u slabs, not %u",
					   nid, c, used[nid][c], slabs[nid], want);
		}
	}
	for_each_online_cpu(cpu)
		while (grow_chain[cpu]) {
			void **obj = grow_chain[cpu];

			grow_chain[cpu] = *obj;
			kmem_cache_free(grow_cache, obj);
		}
	kmem_cache_destroy(grow_cache);
}

/* ---- the constructor ------------------------------------------------- */

#define CTOR_MAGIC 0xc0ffee11U

struct ctor_obj {
	u32 magic;
	u32 state;
	u8 pad[92];
};

static unsigned int ctor_count;

static void count_ctor(void *p)
{
	struct ctor_obj *o = p;

	o->magic = CTOR_MAGIC;
	o->state = 0;
	ctor_count++;
}

static void ctor_runs_once_per_object(struct ktest *t)
{
	const unsigned int n = 200;
	struct rule_layout r;
	struct kmem_cache *c;
	unsigned int slabs, reused = 0;
	static void *first[200];

	rule_for_cache("ctor-100", sizeof(struct ctor_obj), 0, 0, &r);
	/* Freeing n objects must leave every slab in place (see below). */
	KTEST_ASSERT_LE(t, (unsigned long)n - r.batch, rule_free_limit(&r));
	ctor_count = 0;
	c = create(t, "ctor-100", sizeof(struct ctor_obj), 0, 0, count_ctor);
	KTEST_EXPECT_EQ(t, ctor_count, 0U);	/* nothing built yet */
	alloc_held(t, c, n);
	/* One CPU fills slab after slab: ceil(n / num) slabs, all built. */
	slabs = DIV_ROUND_UP(n, r.num);
	KTEST_EXPECT_EQ(t, ctor_count, slabs * r.num);
	KTEST_EXPECT_EQ(t, c->grown, (unsigned long)slabs);
	for (unsigned int i = 0; i < n; i++) {
		struct ctor_obj *o = held[i];

		if (o->magic != CTOR_MAGIC || o->state != 0) {
			KTEST_FAIL(t, "object %u (%p) was not constructed", i, o);
			break;
		}
		o->state = 1;	/* the user's state, which a constructor would undo */
		first[i] = o;
	}
	/*
	 * Free them all: the array takes limit, then flushes batches to the
	 * slabs; at most n - batch objects reach the slabs, under free_limit,
	 * so no slab is given back.  Allocate n again: no constructor runs.
	 */
	free_held(c, 0, n);
	alloc_held(t, c, n);
	KTEST_EXPECT_EQ(t, ctor_count, slabs * r.num);
	KTEST_EXPECT_EQ(t, c->grown, (unsigned long)slabs);
	for (unsigned int i = 0; i < n; i++) {
		struct ctor_obj *o = held[i];
		bool was_out = false;

		KTEST_EXPECT_EQ(t, o->magic, CTOR_MAGIC);
		for (unsigned int j = 0; j < n && !was_out; j++)
			was_out = first[j] == o;
		if (was_out) {
			reused++;
			/* Not built again: what the user left is still there. */
			KTEST_EXPECT_EQ(t, o->state, 1U);
		}
	}
	/* Only slabs * num - n objects were never handed out. */
	KTEST_EXPECT_GE(t, reused, n - (slabs * r.num - n));
	free_held(c, 0, n);
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, ctor_count, slabs * r.num);
}

/* ---- kmem_cache_shrink ------------------------------------------------ */

/*
 * Holds every object of nslabs slabs in held[], grouped by slab:
 * held[k * num + j] is object j of slab k.  One CPU, fresh cache: the
 * objects come slab by slab.
 */
static void fill_slabs(struct ktest *t, struct kmem_cache *c,
		       const struct rule_layout *r, unsigned int nslabs)
{
	unsigned int n = nslabs * r->num;

	alloc_held(t, c, n);
	for (unsigned int k = 0; k < nslabs; k++)
		for (unsigned int j = 1; j < r->num; j++)
			if (slab_of(held[k * r->num + j]) != slab_of(held[k * r->num])) {
				free_held(c, 0, n);
				kmem_cache_destroy(c);
				KTEST_FAIL(t, "objects %u and %u should share a slab",
					   k * r->num, k * r->num + j);
				ktest_abort(t);
			}
}

/*
 * Two slabs emptied, one left with one object: 44 objects (size 256,
 * 15 a slab) go to the array (< limit), the drain puts them back (44 free
 * objects, under free_limit), and the two free slabs - two pages - are
 * given back.
 */
static void shrink_returns_the_pages_of_free_slabs(struct ktest *t)
{
	const unsigned int nslabs = 3, emptied = 2;
	struct rule_layout r;
	struct kmem_cache *c;
	unsigned long before;
	int pages;

	rule_for_cache("shrink-256", 256, 0, 0, &r);
	c = create(t, "shrink-256", 256, 0, 0, NULL);
	fill_slabs(t, c, &r, nslabs);
	/* Slabs 0, 1: every object; slab 2: all but object 0. */
	for (unsigned int k = 0; k < nslabs; k++)
		free_held(c, k * r.num + (k < emptied ? 0 : 1), (k + 1) * r.num);
	/* Nothing reached the slabs yet: the array holds every free object. */
	KTEST_ASSERT_LE(t, emptied * r.num + (nslabs - emptied) * (r.num - 1), r.limit);
	KTEST_ASSERT_LT(t, (unsigned long)(emptied * r.num + (nslabs - emptied) * (r.num - 1)),
			rule_free_limit(&r));
	before = free_pages_now();
	pages = kmem_cache_shrink(c);
	KTEST_EXPECT_EQ(t, pages, (int)(emptied << r.order));
	KTEST_EXPECT_EQ(t, free_pages_now() - before, (unsigned long)(emptied << r.order));
	/* Nothing left to give: a second shrink frees nothing. */
	before = free_pages_now();
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, free_pages_now(), before);
	free_held(c, 0, nslabs * r.num);
	kmem_cache_destroy(c);
}

/*
 * The same, with so many free objects in partial slabs that the node is
 * over free_limit when the drain returns the last objects of three slabs:
 * the drain itself gives those slabs back (free_block), and shrink must
 * count them - every page it freed - as it does the ones on slabs_free.
 */
static void shrink_counts_the_slabs_its_drain_frees(struct ktest *t)
{
	const unsigned int emptied = 3;
	struct rule_layout r;
	struct kmem_cache *c;
	unsigned long before, delta;
	unsigned int nslabs;
	int pages;

	rule_for_cache("shrink2-256", 256, 0, 0, &r);
	/* (num - 1) free objects per slab, more than free_limit in all. */
	nslabs = (unsigned int)(rule_free_limit(&r) / (r.num - 1)) + 2;
	KTEST_ASSERT_LE(t, nslabs * r.num, (unsigned int)MAX_HELD);
	c = create(t, "shrink2-256", 256, 0, 0, NULL);
	fill_slabs(t, c, &r, nslabs);
	/* Keep object 0 of each slab: no slab becomes free while we do this. */
	for (unsigned int k = 0; k < nslabs; k++)
		free_held(c, k * r.num + 1, (k + 1) * r.num);
	KTEST_EXPECT_EQ(t, c->reaped, 0UL);
	/* The last object of three slabs: into the array, after the rest. */
	for (unsigned int k = 0; k < emptied; k++)
		free_held(c, k * r.num, k * r.num + 1);
	KTEST_EXPECT_EQ(t, c->reaped, 0UL);
	before = free_pages_now();
	pages = kmem_cache_shrink(c);
	delta = free_pages_now() - before;
	KTEST_EXPECT_EQ(t, delta, (unsigned long)(emptied << r.order));
	KTEST_EXPECT_EQ(t, pages, (int)(emptied << r.order));
	if (pages != (int)delta)
		ktest_printf(t, "kmem_cache_shrink returned %d, but %lu pages came back (slabs freed by the drain are not counted)",
			     pages, delta);
	free_held(c, 0, nslabs * r.num);
	kmem_cache_destroy(c);
}

static bool on_chain(const struct kmem_cache *c, const struct slab *s, long idx);

/*
 * Whether obj is on its slab's free chain: false too when its page is no
 * longer a slab of c (the slab was given back), so that a broken
 * allocator fails the case rather than the kernel.
 */
static bool obj_on_free_chain(const struct kmem_cache *c, const void *obj)
{
	struct page *pg = virt_to_page(obj);
	long idx;

	if (!PageSlab(pg) || page_get_cache(pg) != c)
		return false;
	idx = obj_to_index(c, page_get_slab(pg), obj);
	return idx >= 0 && on_chain(c, page_get_slab(pg), idx);
}

/*
 * After a flush: no object in this CPU's array of c is also on its
 * slab's free chain - it would be handed out twice.  One that is stops
 * the case there, leaving the cache as it is: the kernel's check after
 * the case (slab_check_all) reports the corruption, where going on would
 * hand the object out twice and stop the kernel in the cache's
 * destruction first.
 */
static void array_holds_no_free_object(struct ktest *t, struct kmem_cache *c)
{
	struct array_cache *ac = this_array(c);

	for (unsigned int i = 0; i < ac->avail; i++)
		if (obj_on_free_chain(c, ac->entry[i])) {
			KTEST_FAIL(t, "%s: array slot %u holds %p, which is on its slab's free chain too",
				   kmem_cache_name(c), i, ac->entry[i]);
			ktest_abort(t);
		}
}

/* ---- per-CPU arrays --------------------------------------------------- */

struct remote_op {
	struct kmem_cache *c;
	void *obj;
	unsigned int avail;
};

static void remote_free(void *arg)
{
	struct remote_op *op = arg;

	kmem_cache_free(op->c, op->obj);
	op->avail = this_array(op->c)->avail;
}

static void remote_alloc(void *arg)
{
	struct remote_op *op = arg;

	op->obj = kmem_cache_alloc(op->c, GFP_ATOMIC);
	op->avail = this_array(op->c)->avail;
}

static void remote_free_is_reused_on_that_cpu(struct ktest *t)
{
	struct remote_op op;
	struct kmem_cache *c;
	void *obj, *mine;
	unsigned int avail0;

	if (num_online_cpus() < 2 || !cpu_online(1))
		ktest_skip(t, "needs a second CPU");
	c = create(t, "remote-64", 64, 0, 0, NULL);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	avail0 = this_array(c)->avail;
	op = (struct remote_op){ c, obj, 0 };
	KTEST_ASSERT_EQ(t, smp_call_function_single(1, remote_free, &op, true), 0);
	/* It went to CPU 1's array, not back to ours. */
	KTEST_EXPECT_EQ(t, op.avail, 1U);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, avail0);
	/* CPU 0 does not get it: it takes its own array's top. */
	mine = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_PTR_NE(t, mine, obj);
	/* CPU 1 gets it back: the top of its (LIFO) array. */
	op = (struct remote_op){ c, NULL, 0 };
	KTEST_ASSERT_EQ(t, smp_call_function_single(1, remote_alloc, &op, true), 0);
	KTEST_EXPECT_PTR_EQ(t, op.obj, obj);
	KTEST_EXPECT_EQ(t, op.avail, 0U);
	if (op.obj)
		kmem_cache_free(c, op.obj);
	kmem_cache_free(c, mine);
	kmem_cache_destroy(c);
}

/*
 * A free goes onto this CPU's array, not to the slabs: no list_lock, no
 * change to the node's free objects; the next allocations here take the
 * objects back newest first (the array is a stack).  Both are the inline
 * paths' (cache_alloc_array, cache_free_array): neither reaches an
 * out-of-line end (counted_alloc, counted_free).  With slab debugging
 * every allocation goes out of line: only the frees are counted then.
 */
static void free_goes_to_this_cpus_array_first(struct ktest *t)
{
	struct kmem_cache *c = create(t, "lifo-64", 64, 0, 0, NULL);
	struct kmem_list3 *l3 = this_node(c);
	unsigned long free_objs;
	unsigned int avail;
	void *a, *b, *x, *y;
	u16 tickets;

	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	if (!a || !b) {
		KTEST_FAIL(t, "kmem_cache_alloc returned NULL");
		goto out;
	}
	avail = this_array(c)->avail;
	free_objs = l3->free_objects;
	tickets = lock_tickets(l3);
	slow_allocs = slow_frees = 0;
	counted_free(c, a);
	counted_free(c, b);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, avail + 2);
	KTEST_EXPECT_EQ(t, l3->free_objects, free_objs);
	x = counted_alloc(c);
	y = counted_alloc(c);
	KTEST_EXPECT_PTR_EQ(t, x, b);
	KTEST_EXPECT_PTR_EQ(t, y, a);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, avail);
	KTEST_EXPECT_EQ(t, (u16)(lock_tickets(l3) - tickets), 0);
	/* Two pushes onto an array with room, two pops of a non-empty one. */
	KTEST_EXPECT_EQ(t, slow_frees, 0U);
	if (!(c->flags & SLAB_DEBUG_FLAGS))
		KTEST_EXPECT_EQ(t, slow_allocs, 0U);
	a = x;
	b = y;
out:
	if (a)
		kmem_cache_free(c, a);
	if (b)
		kmem_cache_free(c, b);
	kmem_cache_destroy(c);
}

/*
 * One allocation from c's empty array, with free objects on the node's
 * slabs: one list_lock acquisition, no new slab, and batch objects taken
 * (one handed out).  Returns the object.
 */
static void *refill_from_the_slabs(struct ktest *t, struct kmem_cache *c,
				   struct kmem_list3 *l3, unsigned int batch)
{
	unsigned long grown = c->grown;
	u16 tickets = lock_tickets(l3);
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);

	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_EQ(t, (u16)(lock_tickets(l3) - tickets), 1);
	KTEST_EXPECT_EQ(t, c->grown, grown);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, batch - 1);
	return obj;
}

/*
 * An empty array takes batchcount objects at once, under one list_lock:
 * on a fresh cache it makes one slab and takes min(batchcount, num) from
 * it; with partial slabs it takes a whole batch across them; with free
 * slabs only, it takes its batch from them and makes none.
 */
static void refill_takes_a_batch_under_one_lock(struct ktest *t)
{
	struct rule_layout r20, r100, r7500;
	unsigned int back;
	struct kmem_cache *c;
	struct kmem_list3 *l3;
	void *obj;

	/* size 20: num 184 >= batchcount 60. */
	rule_for_cache("refill-20", 20, 0, 0, &r20);
	c = create(t, "refill-20", 20, 0, 0, NULL);
	KTEST_EXPECT_EQ(t, c->batchcount, r20.batch);
	KTEST_EXPECT_EQ(t, c->limit, r20.limit);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, min(r20.batch, r20.num) - 1);
	KTEST_EXPECT_EQ(t, this_node(c)->free_objects,
			(unsigned long)(r20.num - min(r20.batch, r20.num)));
	kmem_cache_free(c, obj);
	kmem_cache_destroy(c);

	/* size 100: num 39 < batchcount 60, so one slab is not a batch. */
	rule_for_cache("refill-100", 100, 0, 0, &r100);
	c = create(t, "refill-100", 100, 0, 0, NULL);
	l3 = this_node(c);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, min(r100.batch, r100.num) - 1);
	kmem_cache_free(c, obj);
	kmem_cache_destroy(c);
	/*
	 * A fresh cache with three partial slabs, 38 free objects each, and
	 * empty arrays: allocate three slabs, keep one object of each, free
	 * the rest (all into the array: 114 < limit) and shrink (the drain
	 * puts them back; no slab is free, none is given back).
	 */
	c = create(t, "refill2-100", 100, 0, 0, NULL);
	l3 = this_node(c);
	fill_slabs(t, c, &r100, 3);
	for (unsigned int k = 0; k < 3; k++)
		free_held(c, k * r100.num + 1, (k + 1) * r100.num);
	KTEST_EXPECT_EQ(t, kmem_cache_shrink(c), 0);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, 0U);
	KTEST_EXPECT_EQ(t, l3->free_objects, 3UL * (r100.num - 1));
	obj = refill_from_the_slabs(t, c, l3, r100.batch);
	KTEST_EXPECT_EQ(t, l3->free_objects,
			3UL * (r100.num - 1) - r100.batch);
	/* The batch spans two slabs: 38 from the first, 22 from the second. */
	if (this_array(c)->avail) {
		struct array_cache *ac = this_array(c);
		struct slab *a = slab_of(ac->entry[0]);
		unsigned int from_a = 0;

		for (unsigned int i = 0; i < ac->avail; i++)
			from_a += slab_of(ac->entry[i]) == a;
		from_a += slab_of(obj) == a;
		KTEST_EXPECT_EQ(t, from_a, r100.num - 1);
	}
	kmem_cache_free(c, obj);
	free_held(c, 0, 3 * r100.num);
	kmem_cache_destroy(c);

	/*
	 * Free slabs, no partial one: 7500-byte objects, one a slab (order
	 * 1), no shared array (larger than a page), limit 8, batchcount 4.
	 * limit + 1 objects, a slab each, freed in order: the last free
	 * finds the array full and gives its oldest batchcount back to
	 * their slabs, which become free and stay (under free_limit; one
	 * full array is too short a run to grow it).  The array's others
	 * are taken back, and the next refill takes a batch from the free
	 * slabs, under one lock, and grows nothing.
	 */
	rule_for_cache("refill3-7500", 7500, 0, 0, &r7500);
	KTEST_ASSERT_EQ(t, r7500.num, 1U);
	KTEST_ASSERT_EQ(t, r7500.shared, 0U);
	c = create(t, "refill3-7500", 7500, 0, 0, NULL);
	l3 = this_node(c);
	alloc_held(t, c, r7500.limit + 1);
	free_held(c, 0, r7500.limit + 1);
	back = r7500.limit - r7500.batch + 1;
	array_holds_no_free_object(t, c);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, back);
	KTEST_EXPECT_EQ(t, l3->free_objects, (unsigned long)r7500.batch);
	KTEST_EXPECT_TRUE(t, list_empty(&l3->slabs_partial));
	alloc_held(t, c, back);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, 0U);
	obj = refill_from_the_slabs(t, c, l3, r7500.batch);
	KTEST_EXPECT_EQ(t, l3->free_objects, 0UL);
	kmem_cache_free(c, obj);
	free_held(c, 0, back);
	kmem_cache_destroy(c);
}

/*
 * An array that finds its node without a free object grows the cache
 * and takes its batch straight from the new slab, then lists the slab:
 * one list_lock acquisition in all (Linux 4.6; the 2.6 flow took four:
 * to look, for the colour, to list the slab and to look again).  Size
 * 100 (num 39 < batchcount 60): the whole slab goes to the array and
 * the slab is listed full; size 20 (num 184): a batch goes and the slab
 * is listed partial with the rest free.  A grow whose page allocation
 * fails (fault injection, past kmem_cache_alloc's own check: counted_alloc
 * does not ask it) hands out NULL and leaves the array and the node as
 * they were.
 */
static void a_grow_fills_the_array_under_one_lock(struct ktest *t)
{
	static const unsigned int sizes[] = { 100, 20 };
	struct kmem_cache *fc;
	void *none;

	for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct rule_layout r;
		struct kmem_cache *c;
		struct kmem_list3 *l3;
		struct slab *s;
		unsigned int took;
		u16 tickets;
		void *obj;

		rule_for_cache("grow-one-lock", sizes[k], 0, 0, &r);
		c = create(t, "grow-one-lock", sizes[k], 0, 0, NULL);
		l3 = this_node(c);
		took = min(r.batch, r.num);
		tickets = lock_tickets(l3);
		obj = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, obj);
		ktest_printf(t, "size %u: num %u, batchcount %u: %u list_lock acquisitions, %u objects in the array",
			     sizes[k], r.num, r.batch,
			     (u16)(lock_tickets(l3) - tickets), this_array(c)->avail);
		KTEST_EXPECT_EQ(t, (u16)(lock_tickets(l3) - tickets), 1);
		KTEST_EXPECT_EQ(t, c->grown, 1UL);
		KTEST_EXPECT_EQ(t, l3->nr_slabs, 1UL);
		KTEST_EXPECT_EQ(t, this_array(c)->avail, took - 1);
		s = slab_of(obj);
		KTEST_EXPECT_EQ(t, s->inuse, took);
		KTEST_EXPECT_EQ(t, l3->free_objects, (unsigned long)(r.num - took));
		if (took == r.num) {
			KTEST_EXPECT_TRUE(t, !list_empty(&l3->slabs_full) &&
					     list_first_entry(&l3->slabs_full, struct slab, list) == s);
			KTEST_EXPECT_TRUE(t, list_empty(&l3->slabs_partial));
		} else {
			KTEST_EXPECT_TRUE(t, !list_empty(&l3->slabs_partial) &&
					     list_first_entry(&l3->slabs_partial, struct slab, list) == s);
			KTEST_EXPECT_TRUE(t, list_empty(&l3->slabs_full));
		}
		KTEST_EXPECT_TRUE(t, list_empty(&l3->slabs_free));
		kmem_cache_free(c, obj);
		kmem_cache_destroy(c);
	}

	fc = create(t, "grow-fails", 100, 0, 0, NULL);
	fail_task_allocations(current, true);
	none = counted_alloc(fc);
	fail_task_allocations(current, false);
	KTEST_EXPECT_NULL(t, none);
	KTEST_EXPECT_EQ(t, fc->grown, 0UL);
	KTEST_EXPECT_EQ(t, this_array(fc)->avail, 0U);
	KTEST_EXPECT_EQ(t, this_node(fc)->nr_slabs, 0UL);
	if (none)
		kmem_cache_free(fc, none);
	kmem_cache_destroy(fc);
}

/*
 * A grow that may sleep runs with interrupts on, and an interrupt handler
 * on this CPU may free objects into the array meanwhile: after the grow
 * the array is looked at again, what was freed there stays, the array
 * holds at most its limit, and the object handed out is the one freed
 * last (the array is a stack).  The cache's constructor stands in for
 * the handler, at a known moment: at the first object of the armed grow
 * it frees limit objects into this CPU's array, which then has no room
 * for the new slab's batch, so the slab is listed whole.  Size 100 (num
 * 39 <= batchcount 60): whole slabs are allocated first, so that the
 * node has no free object and the array is empty when the grow begins.
 */
static struct kmem_cache *meanwhile_cache;
static void *meanwhile[MAX_HELD];
static unsigned int meanwhile_nr;	/* armed: objects the ctor frees */

static void free_meanwhile_ctor(void *obj)
{
	unsigned int n = meanwhile_nr;

	meanwhile_nr = 0;
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(meanwhile_cache, meanwhile[i]);
}

static void a_grow_keeps_what_was_freed_meanwhile(struct ktest *t)
{
	struct rule_layout r;
	struct kmem_cache *c;
	struct array_cache *ac;
	struct kmem_list3 *l3;
	unsigned int n, k;
	unsigned long grown;
	void *obj;

	rule_for_cache("grow-meanwhile", 100, 0, 0, &r);
	KTEST_ASSERT_LE(t, r.num, r.batch);
	meanwhile_nr = 0;
	c = meanwhile_cache = create(t, "grow-meanwhile", 100, 0, 0,
				     free_meanwhile_ctor);
	ac = this_array(c);
	l3 = this_node(c);
	/* As many frees as the array's own limit (the rule's, unless changed). */
	k = ac->limit;
	n = DIV_ROUND_UP(k, r.num) * r.num;
	if (k < 2 || n > MAX_HELD) {
		kmem_cache_destroy(c);
		ktest_skip(t, "the array's limit leaves no room for frees during a grow");
	}
	alloc_held(t, c, n);
	/* Whole slabs, all handed out: the next allocation grows. */
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, l3->free_objects, 0UL);
	for (unsigned int i = 0; i < k; i++) {
		meanwhile[i] = held[i];
		held[i] = NULL;
	}
	grown = c->grown;
	meanwhile_nr = k;
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, meanwhile_nr, 0U);	/* the grow ran, and freed */
	KTEST_ASSERT_NOT_NULL(t, obj);
	ktest_printf(t, "%u objects freed during the grow: the array holds %u (limit %u), the node %lu free",
		     k, ac->avail, ac->limit, l3->free_objects);
	KTEST_EXPECT_EQ(t, c->grown, grown + 1);
	KTEST_EXPECT_LE(t, ac->avail, ac->limit);
	/* Nothing lost: the newest freed is handed out, the rest wait. */
	KTEST_EXPECT_PTR_EQ(t, obj, meanwhile[k - 1]);
	KTEST_EXPECT_EQ(t, ac->avail, k - 1);
	for (unsigned int i = 0; i < min(ac->avail, k - 1); i++)
		if (ac->entry[i] != meanwhile[i]) {
			KTEST_FAIL(t, "array slot %u holds %p, not object %u freed during the grow (%p)",
				   i, ac->entry[i], i, meanwhile[i]);
			break;
		}
	/* No room for a batch: the new slab is listed whole. */
	KTEST_EXPECT_EQ(t, l3->free_objects, (unsigned long)r.num);
	/*
	 * An object lost (in no array, handed to no one) is freed here, so
	 * that a broken refill fails the case rather than the cache's
	 * destruction, and the kernel.
	 */
	for (unsigned int i = 0; i < k; i++) {
		bool found = meanwhile[i] == obj;

		for (unsigned int j = 0; j < ac->avail && !found; j++)
			found = ac->entry[j] == meanwhile[i];
		if (!found)
			kmem_cache_free(c, meanwhile[i]);
	}
	kmem_cache_free(c, obj);
	free_held(c, k, n);
	kmem_cache_destroy(c);
}

/*
 * A free to a full array first gives back its oldest batchcount objects
 * (to their slabs, once the node's shared array - if the cache has one -
 * is full), then pushes.  Allocate limit + shared + 1 objects, empty the
 * arrays (kmem_cache_shrink drains them), then free them all in order:
 * the first limit + shared fill the array and the shared array, the last
 * one flushes to the slabs.
 */
static void full_array_flushes_a_batch(struct ktest *t)
{
	static void *order[MAX_HELD];
	struct rule_layout r;
	struct kmem_cache *c;
	struct array_cache *ac;
	struct kmem_list3 *l3;
	unsigned long free_objs;
	unsigned int n, first;
	u16 tickets, locks;

	rule_for_cache("flush-20", 20, 0, 0, &r);
	n = r.limit + r.shared + 1;
	KTEST_ASSERT_LE(t, n, (unsigned int)MAX_HELD);
	c = create(t, "flush-20", 20, 0, 0, NULL);
	/* 2.6's flush: the array's growth held off (a_run_of_frees_grows_the_array). */
	c->array_max = c->limit;
	ac = this_array(c);
	l3 = this_node(c);
	alloc_held(t, c, n);
	for (unsigned int i = 0; i < n; i++)
		order[i] = held[i];
	kmem_cache_shrink(c);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	/* limit + shared frees fill the arrays; nothing reaches the slabs. */
	free_objs = l3->free_objects;
	free_held(c, 0, r.limit + r.shared);
	KTEST_EXPECT_EQ(t, ac->avail, r.limit);
	KTEST_EXPECT_EQ(t, l3->shared ? l3->shared->avail : 0U, r.shared);
	KTEST_EXPECT_EQ(t, l3->free_objects, free_objs);
	tickets = lock_tickets(l3);
	/* One more: the array's oldest batchcount go back first. */
	free_held(c, n - 1, n);
	locks = (u16)(lock_tickets(l3) - tickets);
	array_holds_no_free_object(t, c);
	KTEST_EXPECT_EQ(t, ac->avail, r.limit - r.batch + 1);
	KTEST_EXPECT_EQ(t, l3->free_objects, free_objs + r.batch);
	/* What stays is the newest, in the order it was freed. */
	first = r.shared + r.batch;
	for (unsigned int i = 0; i < ac->avail; i++)
		if (ac->entry[i] != order[first + i]) {
			KTEST_FAIL(t, "array slot %u holds %p, not object %u freed (%p)",
				   i, ac->entry[i], first + i, order[first + i]);
			break;
		}
	/* And the flushed ones are on their slabs' free chains. */
	for (unsigned int i = r.shared; i < first; i++)
		if (!obj_on_free_chain(c, order[i])) {
			KTEST_FAIL(t, "flushed object %u (%p) is not on its slab's free chain",
				   i, order[i]);
			break;
		}
	/* A full shared array is seen without its lock: one acquisition. */
	KTEST_EXPECT_EQ(t, locks, 1);
	ktest_printf(t, "a flush of %u objects took the node's list_lock %u time%s",
		     r.batch, (unsigned int)locks, locks == 1 ? "" : "s");
	kmem_cache_destroy(c);
}

/* ---- the arrays' growth ---------------------------------------------- */

/* This CPU's array and its node's shared array, by the rules at the top. */
struct array_model {
	unsigned int avail, limit, run, shared;
	unsigned int to_slabs;		/* objects flushed to their slabs */
	unsigned int slow;		/* frees that found the array full */
	unsigned int grew_at[8];	/* the frees that grew the limit */
	unsigned int grows;
};

/* One free onto the array; zone_ok: the object's zone has pages_high free. */
static void model_free(const struct rule_layout *r, struct array_model *m,
		       bool zone_ok, unsigned int nth)
{
	if (m->avail >= m->limit) {
		unsigned int nr, grown = min(2 * m->limit, r->array_max);

		m->slow++;
		m->run = min(m->run + r->batch, r->array_max);
		nr = min(min(r->batch, m->avail), r->shared - m->shared);
		m->shared += nr;
		m->avail -= nr;
		if (m->avail >= m->limit && zone_ok && m->run >= m->limit &&
		    grown > m->limit) {
			m->limit = grown;
			if (m->grows < ARRAY_SIZE(m->grew_at))
				m->grew_at[m->grows++] = nth;
		}
		if (m->avail >= m->limit) {
			nr = min(r->batch, m->avail);
			m->to_slabs += nr;
			m->avail -= nr;
		}
	}
	m->avail++;
}

/*
 * Allocates n objects of c, empties the arrays (kmem_cache_shrink) and
 * frees them all in order, each free beside the model's (zone_ok: the
 * objects' zone has pages_high free), then compares the array, the
 * shared array and the slabs with *m - and the frees that went out of
 * line with the model's full arrays: a push onto an array below its own
 * limit, grown or not, stays inline (counted_free).
 */
static void free_run_against_model(struct ktest *t, struct kmem_cache *c,
				   const struct rule_layout *r, unsigned int n,
				   bool zone_ok, struct array_model *m)
{
	struct array_cache *ac;
	struct kmem_list3 *l3 = this_node(c);
	unsigned long free_objs, reaped;

	alloc_held(t, c, n);
	kmem_cache_shrink(c);
	ac = this_array(c);
	KTEST_EXPECT_EQ(t, ac->avail, 0U);
	KTEST_EXPECT_EQ(t, ac->limit, r->limit);
	memset(m, 0, sizeof(*m));
	m->limit = r->limit;
	free_objs = l3->free_objects;
	reaped = c->reaped;
	slow_frees = 0;
	for (unsigned int i = 0; i < n; i++) {
		model_free(r, m, zone_ok, i + 1);
		counted_free(c, held[i]);
		held[i] = NULL;
	}
	for (unsigned int k = 0; k < m->grows; k++)
		ktest_printf(t, "free %u doubled the limit", m->grew_at[k]);
	ktest_printf(t, "%u frees: limit %u, %u in the array, %u in the shared array, %u to the slabs, run %u, %u out of line",
		     n, ac->limit, ac->avail, l3->shared ? l3->shared->avail : 0U,
		     (unsigned int)(l3->free_objects + (c->reaped - reaped) * r->num -
				    free_objs), ac->free_run, slow_frees);
	KTEST_EXPECT_EQ(t, ac->limit, m->limit);
	KTEST_EXPECT_EQ(t, ac->avail, m->avail);
	KTEST_EXPECT_EQ(t, ac->free_run, m->run);
	KTEST_EXPECT_EQ(t, slow_frees, m->slow);
	KTEST_EXPECT_EQ(t, l3->shared ? l3->shared->avail : 0U, m->shared);
	/* Each slab that emptied past free_limit took num free objects away. */
	KTEST_EXPECT_EQ(t, l3->free_objects + (c->reaped - reaped) * r->num,
			free_objs + m->to_slabs);
}

/*
 * A run of frees longer than the array and its node's shared array
 * grows the array, doubling its limit at each full array up to
 * array_max, instead of flushing to the slabs; past array_max the
 * batches go to the slabs again (the growth's rule at the top).
 */
static void a_run_of_frees_grows_the_array(struct ktest *t)
{
	struct array_model m;
	struct rule_layout r;
	struct kmem_cache *c;
	struct zone *z;
	unsigned int n;

	rule_for_cache("grow-20", 20, 0, 0, &r);
	n = min(r.array_max + r.shared + 2 * r.batch, (unsigned int)MAX_HELD);
	c = create(t, "grow-20", 20, 0, 0, NULL);
	KTEST_EXPECT_EQ(t, c->array_max, r.array_max);
	held[0] = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, held[0]);
	z = page_zone(virt_to_page(held[0]));
	kmem_cache_free(c, held[0]);
	if (z->free_pages < z->pages_high + 64) {
		kmem_cache_destroy(c);
		ktest_skip(t, "the zone is near pages_high: the arrays do not grow");
	}
	free_run_against_model(t, c, &r, n, true, &m);
	/* The run reached the cap, and what did not fit went to the slabs. */
	KTEST_EXPECT_EQ(t, m.limit, r.array_max);
	KTEST_EXPECT_GT(t, m.to_slabs, 0U);
	kmem_cache_destroy(c);
}

/*
 * The reaper (kmem_cache_reap_all: the tests' leak check, reclaim) puts
 * a grown array back to 2.6's limit even when it holds no object, as on
 * a CPU that grew it and then took every object back, and holds nothing
 * in any other cache: it cross-calls the CPUs whose arrays hold objects
 * or are grown, not only the first.  The run and the taking back happen
 * on another CPU, in a cross-call, after every array was drained.
 */
struct grow_op {
	struct kmem_cache *c;
	unsigned int n;		/* in: objects in held[] to free; out: taken back */
	unsigned int limit;	/* the limit the run left */
};

static void grow_then_empty_on_this_cpu(void *arg)
{
	struct grow_op *op = arg;
	struct array_cache *ac = this_array(op->c);
	unsigned int k = 0;

	for (unsigned int i = 0; i < op->n; i++)
		kmem_cache_free(op->c, held[i]);
	op->limit = ac->limit;
	while (ac->avail && k < MAX_HELD)
		held[k++] = kmem_cache_alloc(op->c, GFP_ATOMIC);
	op->n = k;
}

static void the_reaper_puts_a_grown_empty_array_back(struct ktest *t)
{
	struct rule_layout r;
	struct kmem_cache *c;
	struct grow_op op;
	int cpu = (int)nr_cpu_ids - 1;
	struct zone *z;

	if (num_online_cpus() < 2 || !cpu_online(cpu))
		ktest_skip(t, "needs 2 CPUs: the array grows on another");
	rule_for_cache("reap-20", 20, 0, 0, &r);
	c = create(t, "reap-20", 20, 0, 0, NULL);
	op = (struct grow_op){ c, min(r.array_max + r.shared + 2 * r.batch,
				      (unsigned int)MAX_HELD), 0 };
	alloc_held(t, c, op.n);
	z = page_zone(virt_to_page(held[0]));
	if (z->free_pages < z->pages_high + 64) {
		free_held(c, 0, op.n);
		kmem_cache_destroy(c);
		ktest_skip(t, "the zone is near pages_high: the arrays do not grow");
	}
	kmem_cache_reap_all();
	KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, grow_then_empty_on_this_cpu,
						    &op, true), 0);
	ktest_printf(t, "CPU %d: limit %u after the run, %u objects taken back",
		     cpu, op.limit, op.n);
	KTEST_EXPECT_GT(t, op.limit, r.limit);
	KTEST_EXPECT_EQ(t, c->array[cpu]->avail, 0U);
	kmem_cache_reap_all();
	KTEST_EXPECT_EQ(t, c->array[cpu]->limit, r.limit);
	KTEST_EXPECT_EQ(t, c->array[cpu]->free_run, 0U);
	free_held(c, 0, op.n);
	kmem_cache_destroy(c);
}

/* One allocation from the array, refilled from the shared array (not empty). */
static void model_alloc(const struct rule_layout *r, struct array_model *m)
{
	if (!m->avail) {
		unsigned int nr = min(min(r->batch, m->shared), m->limit);

		m->run >>= 1;
		m->shared -= nr;
		m->avail += nr;
	}
	m->avail--;
}

/*
 * The run measures frees not taken back: an array that empties halves
 * it, and a later run must be as long as the array again to grow it -
 * until then a full array flushes as 2.6's does.  A drain
 * (kmem_cache_shrink) puts the array back to 2.6's limit with no run.
 */
static void an_empty_array_halves_the_run(struct ktest *t)
{
	struct array_model m;
	struct rule_layout r;
	struct kmem_cache *c;
	struct array_cache *ac;
	struct kmem_list3 *l3;
	unsigned int n, stash, got = 0, run;
	unsigned long free_objs, reaped;

	rule_for_cache("halve-20", 20, 0, 0, &r);
	if (!r.shared)
		ktest_skip(t, "one CPU: no shared array to refill from");
	/* n frees grow the array to 4 * limit, the shared array full. */
	n = r.limit + r.shared + 4 * r.batch;
	stash = 2 * r.batch + 1;
	KTEST_ASSERT_LE(t, n + stash, (unsigned int)MAX_HELD);
	c = create(t, "halve-20", 20, 0, 0, NULL);
	l3 = this_node(c);
	/* Objects to free at the end, taken before the run begins. */
	for (unsigned int i = n; i < n + stash; i++) {
		held[i] = kmem_cache_alloc(c, GFP_KERNEL);
		KTEST_ASSERT_NOT_NULL(t, held[i]);
	}
	free_run_against_model(t, c, &r, n, true, &m);
	ac = this_array(c);
	KTEST_ASSERT_GT(t, m.limit, r.limit);
	KTEST_ASSERT_GT(t, m.shared, 0U);
	/* Empty the array, then one more: the refill halves the run. */
	run = ac->free_run;
	while (ac->avail) {
		model_alloc(&r, &m);
		held[got++] = kmem_cache_alloc(c, GFP_KERNEL);
	}
	KTEST_EXPECT_EQ(t, ac->free_run, run);
	model_alloc(&r, &m);
	held[got++] = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, held[got - 1]);
	KTEST_EXPECT_EQ(t, ac->free_run, run / 2);
	KTEST_EXPECT_EQ(t, ac->avail, m.avail);
	/*
	 * Free them back, and the stash: the array and the shared array
	 * fill again, but the halved run is shorter than the array, so the
	 * last full array flushes to the slabs instead of growing.
	 */
	free_objs = l3->free_objects;
	reaped = c->reaped;
	m.to_slabs = 0;
	m.grows = 0;
	for (unsigned int i = 0; i < n + stash; i++) {
		if (!held[i])
			continue;
		model_free(&r, &m, true, i + 1);
		kmem_cache_free(c, held[i]);
		held[i] = NULL;
	}
	ktest_printf(t, "after %u more frees: limit %u, run %u, %u to the slabs",
		     got + stash, ac->limit, ac->free_run,
		     (unsigned int)(l3->free_objects + (c->reaped - reaped) * r.num -
				    free_objs));
	KTEST_EXPECT_EQ(t, ac->limit, m.limit);
	KTEST_EXPECT_EQ(t, ac->avail, m.avail);
	KTEST_EXPECT_EQ(t, ac->free_run, m.run);
	KTEST_EXPECT_EQ(t, l3->free_objects + (c->reaped - reaped) * r.num,
			free_objs + m.to_slabs);
	KTEST_EXPECT_GT(t, m.to_slabs, 0U);
	KTEST_EXPECT_EQ(t, m.grows, 0U);
	kmem_cache_shrink(c);
	KTEST_EXPECT_EQ(t, ac->limit, r.limit);
	KTEST_EXPECT_EQ(t, ac->free_run, 0U);
	kmem_cache_destroy(c);
}

/*
 * While the objects' zone has fewer than pages_high free pages, no
 * array grows: a run flushes to the slabs as 2.6 does, and the objects
 * go back to the zone's memory.  pages_high is raised past the zone's
 * free pages for the frees, which allocate nothing.
 */
static void no_array_grows_below_pages_high(struct ktest *t)
{
	struct array_model m;
	struct rule_layout r;
	struct kmem_cache *c;
	unsigned long saved;
	struct zone *z;
	unsigned int n;

	rule_for_cache("nogrow-20", 20, 0, 0, &r);
	n = min(r.limit + r.shared + 4 * r.batch, (unsigned int)MAX_HELD);
	c = create(t, "nogrow-20", 20, 0, 0, NULL);
	held[0] = kmem_cache_alloc(c, GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, held[0]);
	z = page_zone(virt_to_page(held[0]));
	kmem_cache_free(c, held[0]);
	saved = z->pages_high;
	z->pages_high = z->free_pages + 4096;
	free_run_against_model(t, c, &r, n, false, &m);
	z->pages_high = saved;
	KTEST_EXPECT_EQ(t, m.limit, r.limit);
	kmem_cache_destroy(c);
}

/* ---- the shared arrays ------------------------------------------------ */

/*
 * The setup of the shared-array cases: a fresh cache of 20-byte objects
 * (limit 120, batchcount 60, 184 a slab) with limit + 1 objects
 * allocated on this CPU and then freed in order after a shrink: the
 * array fills, and the last free flushes the oldest batchcount of them,
 * order[0 .. batch), to this node's shared array.  Skips without one.
 */
static struct kmem_cache *flush_to_shared(struct ktest *t, const char *name,
					  struct rule_layout *r, void **order)
{
	struct kmem_cache *c;
	struct array_cache *ac;
	struct kmem_list3 *l3;
	unsigned long free_objs;
	u16 tickets;

	rule_for_cache(name, 20, 0, 0, r);
	if (!r->shared)
		ktest_skip(t, "one CPU: no shared array");
	c = create(t, name, 20, 0, 0, NULL);
	ac = this_array(c);
	l3 = this_node(c);
	KTEST_EXPECT_NOT_NULL(t, l3->shared);
	if (!l3->shared) {
		kmem_cache_destroy(c);
		ktest_abort(t);
	}
	KTEST_EXPECT_EQ(t, l3->shared->limit, r->shared);
	KTEST_EXPECT_EQ(t, l3->shared->batchcount, r->batch);
	alloc_held(t, c, r->limit + 1);
	for (unsigned int i = 0; i <= r->limit; i++)
		order[i] = held[i];
	kmem_cache_shrink(c);
	KTEST_EXPECT_EQ(t, l3->shared->avail, 0U);
	free_objs = l3->free_objects;
	free_held(c, 0, r->limit);
	tickets = lock_tickets(l3);
	free_held(c, r->limit, r->limit + 1);
	/* One lock for the move; the slabs got nothing. */
	KTEST_EXPECT_EQ(t, (u16)(lock_tickets(l3) - tickets), 1);
	KTEST_EXPECT_EQ(t, l3->free_objects, free_objs);
	KTEST_EXPECT_EQ(t, ac->avail, r->limit - r->batch + 1);
	KTEST_EXPECT_EQ(t, l3->shared->avail, r->batch);
	return c;
}

/*
 * The flush lands in the shared array: the array's oldest batchcount
 * objects, in the order they were freed, and the array keeps the newest.
 */
static void flush_lands_in_the_shared_array(struct ktest *t)
{
	static void *order[MAX_HELD];
	struct rule_layout r;
	struct kmem_cache *c = flush_to_shared(t, "shflush-20", &r, order);
	struct array_cache *shared = this_node(c)->shared;
	struct array_cache *ac = this_array(c);

	for (unsigned int i = 0; i < shared->avail; i++)
		if (shared->entry[i] != order[i]) {
			KTEST_FAIL(t, "shared slot %u holds %p, not object %u freed (%p)",
				   i, shared->entry[i], i, order[i]);
			break;
		}
	for (unsigned int i = 0; i < ac->avail; i++)
		if (ac->entry[i] != order[r.batch + i]) {
			KTEST_FAIL(t, "array slot %u holds %p, not object %u freed (%p)",
				   i, ac->entry[i], r.batch + i, order[r.batch + i]);
			break;
		}
	/* Not on any free chain: they are still out of the slabs. */
	for (unsigned int i = 0; i < r.batch; i++)
		if (obj_on_free_chain(c, order[i])) {
			KTEST_FAIL(t, "object %u (%p) is in the shared array and on its slab's free chain",
				   i, order[i]);
			break;
		}
	kmem_cache_destroy(c);
}

/*
 * An empty array on another CPU refills from the shared array first:
 * batchcount objects, the ones flushed there last, under one list_lock,
 * and no slab touched or made; its first object is the newest.
 */
static void refill_on_another_cpu_takes_from_the_shared_array(struct ktest *t)
{
	static void *order[MAX_HELD];
	struct remote_op op;
	struct rule_layout r;
	struct kmem_cache *c;
	struct kmem_list3 *l3;
	unsigned long free_objs, grown;
	u16 tickets;

	if (num_online_cpus() < 2 || !cpu_online(1) || raw_smp_processor_id() == 1 ||
	    cpu_to_node(1) != cpu_to_node(raw_smp_processor_id()))
		ktest_skip(t, "needs a second CPU on this node");
	c = flush_to_shared(t, "shrefill-20", &r, order);
	l3 = this_node(c);
	free_objs = l3->free_objects;
	grown = c->grown;
	tickets = lock_tickets(l3);
	op = (struct remote_op){ c, NULL, 0 };
	KTEST_ASSERT_EQ(t, smp_call_function_single(1, remote_alloc, &op, true), 0);
	KTEST_EXPECT_EQ(t, (u16)(lock_tickets(l3) - tickets), 1);
	KTEST_EXPECT_EQ(t, l3->shared->avail, 0U);
	KTEST_EXPECT_EQ(t, op.avail, r.batch - 1);
	KTEST_EXPECT_PTR_EQ(t, op.obj, order[r.batch - 1]);
	KTEST_EXPECT_EQ(t, l3->free_objects, free_objs);
	KTEST_EXPECT_EQ(t, c->grown, grown);
	/* The rest of the batch is in CPU 1's array, oldest at the bottom. */
	for (unsigned int i = 0; i < c->array[1]->avail; i++)
		if (c->array[1]->entry[i] != order[i]) {
			KTEST_FAIL(t, "CPU 1's slot %u holds %p, not object %u (%p)",
				   i, c->array[1]->entry[i], i, order[i]);
			break;
		}
	if (op.obj)
		kmem_cache_free(c, op.obj);	/* here: harmless, any CPU may */
	kmem_cache_destroy(c);
}

/*
 * kmem_cache_shrink empties the shared arrays too: their objects go back
 * to their slabs, every slab is free again and given back.
 */
static void shrink_empties_the_shared_array(struct ktest *t)
{
	static void *order[MAX_HELD];
	struct rule_layout r;
	struct kmem_cache *c = flush_to_shared(t, "shshrink-20", &r, order);
	struct kmem_list3 *l3 = this_node(c);
	struct slab_counts sc;
	unsigned long before, slabs;
	int pages;

	slab_count(c, &sc);
	KTEST_EXPECT_EQ(t, sc.in_shared, (unsigned long)r.batch);
	KTEST_EXPECT_EQ(t, sc.in_arrays, (unsigned long)r.limit + 1);
	/*
	 * limit + 1 objects: from one slab (num 184), or, with debugging's
	 * red zones making objects bigger, from as many as they fill.
	 */
	KTEST_EXPECT_EQ(t, sc.num_slabs,
			(unsigned long)DIV_ROUND_UP(r.limit + 1, r.num));
	slabs = sc.num_slabs;
	before = free_pages_now();
	pages = kmem_cache_shrink(c);
	KTEST_EXPECT_EQ(t, l3->shared->avail, 0U);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, 0U);
	KTEST_EXPECT_EQ(t, (unsigned long)pages, slabs << r.order);
	KTEST_EXPECT_EQ(t, free_pages_now() - before, slabs << r.order);
	slab_count(c, &sc);
	KTEST_EXPECT_EQ(t, sc.in_arrays, 0UL);
	KTEST_EXPECT_EQ(t, sc.num_slabs, 0UL);
	kmem_cache_destroy(c);
}

/*
 * /proc/slabinfo's tunables: limit, batchcount and the shared factor (a
 * shared array's limit in batches, 0 without one); its last column the
 * objects in the shared arrays.
 */
static void slabinfo_shows_the_shared_array(struct ktest *t)
{
	static void *order[MAX_HELD];
	static char line[200], want[64];
	struct rule_layout r;
	struct kmem_cache *c = flush_to_shared(t, "shinfo-20", &r, order);
	size_t len;

	slabinfo_line(c, line, sizeof(line));
	snprintf(want, sizeof(want), " : tunables %4u %4u %4u : ", r.limit,
		 r.batch, r.shared / r.batch);
	KTEST_EXPECT_NOT_NULL(t, strstr(line, want));
	snprintf(want, sizeof(want), " %6u", r.batch);
	len = strlen(line);
	KTEST_EXPECT_TRUE(t, len >= strlen(want) &&
			     !strcmp(line + len - strlen(want), want));
	ktest_printf(t, "%s", line);
	kmem_cache_shrink(c);
	slabinfo_line(c, line, sizeof(line));
	snprintf(want, sizeof(want), " %6u", 0U);
	len = strlen(line);
	KTEST_EXPECT_TRUE(t, len >= strlen(want) &&
			     !strcmp(line + len - strlen(want), want));
	kmem_cache_destroy(c);
}

/* ---- the consistency checker ------------------------------------------ */

struct check_report {
	unsigned int errors;
	char first[160];
};

static void report(struct check_report *rep, const char *fmt, ...) __printf(2, 3);

static void report(struct check_report *rep, const char *fmt, ...)
{
	va_list args;

	if (rep->errors++)
		return;
	va_start(args, fmt);
	vscnprintf(rep->first, sizeof(rep->first), fmt, args);
	va_end(args);
}

/* The length of a slab's free chain; num + 1 when it loops or runs wild. */
static unsigned int chain_length(const struct kmem_cache *c, const struct slab *s)
{
	unsigned int n = 0;

	for (kmem_bufctl_t i = s->free; i != BUFCTL_END; i = s->bufctl[i]) {
		if (i >= c->num || n > c->num)
			return c->num + 1;
		n++;
	}
	return n;
}

static bool on_chain(const struct kmem_cache *c, const struct slab *s, long idx)
{
	unsigned int n = 0;

	for (kmem_bufctl_t i = s->free; i != BUFCTL_END && n <= c->num;
	     i = s->bufctl[i], n++)
		if ((long)i == idx)
			return true;
	return false;
}

enum which_list { FULL, PARTIAL, FREE };

static void check_list(struct kmem_cache *c, int nid, struct list_head *head,
		       enum which_list which, unsigned long *free_sum,
		       unsigned long *slabs, unsigned long *inuse_sum,
		       struct check_report *rep)
{
	static const char *const names[] = { "full", "partial", "free" };
	struct slab *s;

	list_for_each_entry(s, head, list) {
		unsigned int len = chain_length(c, s);
		struct page *pg;

		if (++*slabs > 1000000) {
			report(rep, "%s node %d: the %s list does not end", c->name, nid,
			       names[which]);
			return;
		}
		if (len > c->num) {
			report(rep, "%s node %d: slab %p's free chain is broken",
			       c->name, nid, s);
			continue;
		}
		if (s->inuse + len != c->num)
			report(rep, "%s node %d: slab %p: inuse %u + free %u != num %u",
			       c->name, nid, s, s->inuse, len, c->num);
		if ((which == FULL && s->inuse != c->num) ||
		    (which == PARTIAL && (s->inuse == 0 || s->inuse >= c->num)) ||
		    (which == FREE && s->inuse != 0))
			report(rep, "%s node %d: slab %p with %u of %u in use is on the %s list",
			       c->name, nid, s, s->inuse, c->num, names[which]);
		if (s->nodeid != nid)
			report(rep, "%s: slab %p of node %d is on node %d's lists",
			       c->name, s, s->nodeid, nid);
		pg = virt_to_page(s->s_mem);
		if (!PageSlab(pg) || page_get_cache(pg) != c || page_get_slab(pg) != s)
			report(rep, "%s: slab %p's pages do not point back at it",
			       c->name, s);
		*free_sum += len;
		*inuse_sum += s->inuse;
	}
}

/*
 * Walks every node's lists of c: each slab's free count (inuse + length
 * of the free chain == num), each slab on the list its count says,
 * l3->free_objects == the sum of the free chains, nr_slabs == the slabs
 * listed.  Then every object in a CPU or shared array: an object of this cache, at
 * an object's start, and not also on its slab's free chain.  Adds the
 * objects in use (arrays included) to *inuse.
 */
static void check_array(struct kmem_cache *c, struct array_cache *ac,
			const char *who, unsigned long *in_arrays,
			struct check_report *rep)
{
	if (ac->avail > ac->limit) {
		report(rep, "%s: %s holds %u > limit %u", c->name, who,
		       ac->avail, ac->limit);
		return;
	}
	*in_arrays += ac->avail;
	for (unsigned int i = 0; i < ac->avail; i++) {
		void *obj = ac->entry[i];
		struct page *pg;
		long idx;

		if (!virt_addr_valid(obj) || !PageSlab(pg = virt_to_page(obj)) ||
		    page_get_cache(pg) != c) {
			report(rep, "%s: %s holds %p, not one of its objects",
			       c->name, who, obj);
			continue;
		}
		idx = obj_to_index(c, page_get_slab(pg), obj);
		if (idx < 0)
			report(rep, "%s: %s holds %p, inside an object",
			       c->name, who, obj);
		else if (on_chain(c, page_get_slab(pg), idx))
			report(rep, "%s: %p is in %s and on its slab's free chain",
			       c->name, obj, who);
	}
}

static void check_cache(struct kmem_cache *c, unsigned long *inuse,
			unsigned long *in_arrays, struct check_report *rep)
{
	int nid, cpu;

	for_each_online_node(nid) {
		struct kmem_list3 *l3 = &c->nodelists[nid];
		unsigned long free_sum = 0, slabs = 0, flags;

		spin_lock_irqsave(&l3->list_lock, flags);
		check_list(c, nid, &l3->slabs_full, FULL, &free_sum, &slabs, inuse, rep);
		check_list(c, nid, &l3->slabs_partial, PARTIAL, &free_sum, &slabs, inuse, rep);
		check_list(c, nid, &l3->slabs_free, FREE, &free_sum, &slabs, inuse, rep);
		if (free_sum != l3->free_objects)
			report(rep, "%s node %d: free_objects %lu, free chains hold %lu",
			       c->name, nid, l3->free_objects, free_sum);
		if (slabs != l3->nr_slabs)
			report(rep, "%s node %d: nr_slabs %lu, lists hold %lu",
			       c->name, nid, l3->nr_slabs, slabs);
		if (l3->shared) {
			char who[24];

			snprintf(who, sizeof(who), "node %d's shared array", nid);
			check_array(c, l3->shared, who, in_arrays, rep);
		}
		spin_unlock_irqrestore(&l3->list_lock, flags);
	}
	for_each_possible_cpu(cpu) {
		char who[16];

		if (!c->array[cpu])
			continue;
		snprintf(who, sizeof(who), "CPU %d's array", cpu);
		check_array(c, c->array[cpu], who, in_arrays, rep);
	}
}

/* Every cache on the chain; fails the case with the first finding. */
static void check_all_caches(struct ktest *t, const char *when)
{
	struct check_report rep = { 0, "" };
	struct kmem_cache *c;

	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(c, &cache_chain, next) {
		unsigned long inuse = 0, in_arrays = 0;

		check_cache(c, &inuse, &in_arrays, &rep);
	}
	mutex_unlock(&cache_chain_mutex);
	if (rep.errors)
		KTEST_FAIL(t, "%s: %u inconsistencies; the first: %s", when,
			   rep.errors, rep.first);
}

/* ---- stress on every CPU ----------------------------------------------- */

#define STRESS_SLOTS 48
#define STRESS_OPS 1200
#define STRESS_KINDS 5	/* three caches, kmalloc, kmalloc(GFP_DMA) */

struct stress_slot {
	void *p;
	u32 tag;
	u16 size;
	u8 kind;
};

static struct stress_slot slots[NR_CPUS][STRESS_SLOTS];
static struct kmem_cache *stress_caches[3];
static const unsigned int stress_sizes[3] = { 24, 300, 1500 };
static u32 stress_seed;
static int stress_next[NR_CPUS];	/* the next online CPU, cyclically */
static int stress_errors;
static int stress_first_error;		/* 0: none yet */
static char stress_msg[128];

static void stress_error(const char *fmt, ...) __printf(1, 2);

static void stress_error(const char *fmt, ...)
{
	va_list args;
	int zero = 0;

	__atomic_fetch_add(&stress_errors, 1, __ATOMIC_RELAXED);
	if (!__atomic_compare_exchange_n(&stress_first_error, &zero, 1, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	va_start(args, fmt);
	vscnprintf(stress_msg, sizeof(stress_msg), fmt, args);
	va_end(args);
}

static u32 xorshift(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* Tag words at both ends of what the slot asked for. */
static void stress_mark(struct stress_slot *sl)
{
	unsigned int end = max(sl->size, (u16)8) - 4;

	*(u32 *)sl->p = sl->tag;
	*(u32 *)((char *)sl->p + (end & ~3U)) = ~sl->tag;
}

static void stress_release(struct stress_slot *sl, int cpu)
{
	unsigned int end = max(sl->size, (u16)8) - 4;
	struct page *pg = virt_to_page(sl->p);

	if (*(u32 *)sl->p != sl->tag ||
	    *(u32 *)((char *)sl->p + (end & ~3U)) != ~sl->tag)
		stress_error("CPU %d: object %p (kind %u, %u bytes) was overwritten: another user had it",
			     cpu, sl->p, sl->kind, sl->size);
	if (sl->kind < 3) {
		if (!PageSlab(pg) || page_get_cache(pg) != stress_caches[sl->kind])
			stress_error("CPU %d: object %p is not in cache %s", cpu,
				     sl->p, stress_caches[sl->kind]->name);
		kmem_cache_free(stress_caches[sl->kind], sl->p);
	} else {
		if (ksize(sl->p) < sl->size)
			stress_error("CPU %d: kmalloc(%u) gave %p of ksize %zu", cpu,
				     sl->size, sl->p, ksize(sl->p));
		if (sl->kind == 4 && zone_idx(page_zone(pg)) != ZONE_DMA)
			stress_error("CPU %d: kmalloc(%u, GFP_DMA) gave %p outside ZONE_DMA",
				     cpu, sl->size, sl->p);
		kfree(sl->p);
	}
	sl->p = NULL;
}

static void stress_fill(struct stress_slot *sl, int cpu, u32 *rnd, u32 gen)
{
	sl->kind = (u8)(xorshift(rnd) % STRESS_KINDS);
	if (sl->kind < 3) {
		sl->size = (u16)stress_sizes[sl->kind];
		sl->p = kmem_cache_alloc(stress_caches[sl->kind], GFP_ATOMIC);
	} else {
		sl->size = (u16)(1 + xorshift(rnd) % (sl->kind == 3 ? 2048 : 512));
		sl->p = kmalloc(sl->size, GFP_ATOMIC | (sl->kind == 4 ? GFP_DMA : 0));
	}
	if (!sl->p) {
		stress_error("CPU %d: allocation of kind %u, %u bytes, returned NULL",
			     cpu, sl->kind, sl->size);
		return;
	}
	sl->tag = ((u32)cpu << 24) ^ (gen << 8) ^ (u32)(sl - slots[cpu]);
	stress_mark(sl);
}

/* Random allocations and frees in this CPU's slots. */
static void stress_mix(void *arg)
{
	int cpu = smp_processor_id();
	u32 rnd = stress_seed ^ (0x9e3779b9U * (u32)(cpu + 1)) ^ (u32)(uintptr_t)arg;

	if (!rnd)
		rnd = 1;
	for (u32 i = 0; i < STRESS_OPS; i++) {
		struct stress_slot *sl = &slots[cpu][xorshift(&rnd) % STRESS_SLOTS];

		if (sl->p)
			stress_release(sl, cpu);
		else
			stress_fill(sl, cpu, &rnd, i);
	}
}

/* Frees the next CPU's objects here: frees of objects another CPU allocated. */
static void stress_free_neighbour(void *arg)
{
	int cpu = smp_processor_id(), other = stress_next[cpu];

	for (unsigned int i = 0; i < STRESS_SLOTS; i++)
		if (slots[other][i].p)
			stress_release(&slots[other][i], cpu);
}

static void stress_free_own(void *arg)
{
	int cpu = smp_processor_id();

	for (unsigned int i = 0; i < STRESS_SLOTS; i++)
		if (slots[cpu][i].p)
			stress_release(&slots[cpu][i], cpu);
}

/* What the stress caches hold: in use by slabs' count == held + in arrays. */
static void check_stress_counts(struct ktest *t, const char *when)
{
	for (unsigned int k = 0; k < 3; k++) {
		struct check_report rep = { 0, "" };
		unsigned long inuse = 0, in_arrays = 0, held_here = 0;
		int cpu;

		check_cache(stress_caches[k], &inuse, &in_arrays, &rep);
		for_each_possible_cpu(cpu)
			for (unsigned int i = 0; i < STRESS_SLOTS; i++)
				held_here += slots[cpu][i].p && slots[cpu][i].kind == k;
		if (rep.errors)
			KTEST_FAIL(t, "%s: %s: %s", when, stress_caches[k]->name, rep.first);
		if (inuse != held_here + in_arrays)
			KTEST_FAIL(t, "%s: %s: slabs count %lu objects in use, the test holds %lu and the arrays %lu",
				   when, stress_caches[k]->name, inuse, held_here,
				   in_arrays);
	}
}

static void mixed_caches_on_every_cpu_stay_consistent(struct ktest *t)
{
	int cpu, prev = -1, first = -1;

	memset(slots, 0, sizeof(slots));
	stress_errors = 0;
	stress_first_error = 0;
	stress_msg[0] = '\0';
	stress_seed = ktest_random(t) | 1;
	for_each_online_cpu(cpu) {
		if (prev >= 0)
			stress_next[prev] = cpu;
		else
			first = cpu;
		prev = cpu;
	}
	stress_next[prev] = first;
	stress_caches[0] = create(t, "stress-24", 24, 0, 0, NULL);
	stress_caches[1] = create(t, "stress-300-hw", 300, 0, SLAB_HWCACHE_ALIGN, NULL);
	stress_caches[2] = create(t, "stress-1500", 1500, 0, 0, NULL);

	on_each_cpu(stress_mix, (void *)1, true);
	check_all_caches(t, "after the first mix");
	check_stress_counts(t, "after the first mix");
	/* The frees went through the CPU arrays: some objects wait there. */
	{
		unsigned long in_arrays = 0;
		struct slab_counts sc;

		for (unsigned int k = 0; k < 3; k++) {
			slab_count(stress_caches[k], &sc);
			in_arrays += sc.in_arrays;
		}
		KTEST_EXPECT_GT(t, in_arrays, 0UL);
	}
	/* Every CPU frees what its neighbour allocated, then mixes again. */
	on_each_cpu(stress_free_neighbour, NULL, true);
	on_each_cpu(stress_mix, (void *)2, true);
	check_all_caches(t, "after cross-CPU frees and a second mix");
	check_stress_counts(t, "after cross-CPU frees and a second mix");
	on_each_cpu(stress_free_own, NULL, true);
	check_all_caches(t, "after everything was freed");
	check_stress_counts(t, "after everything was freed");
	if (stress_errors)
		KTEST_FAIL(t, "%d errors on the CPUs; the first: %s", stress_errors,
			   stress_msg);
	ktest_printf(t, "%u CPUs, %u operations each in two rounds, seed %#x",
		     num_online_cpus(), STRESS_OPS, stress_seed);
	for (unsigned int k = 0; k < 3; k++)
		kmem_cache_destroy(stress_caches[k]);
}

/* ---- destroy, DMA, arguments ------------------------------------------ */

/*
 * Three slabs of 100-byte objects, all freed into the array (117 < limit
 * 120): destroy drains and gives back the three slab pages and the block
 * of arrays (per CPU a header and array_max entries, and per node a
 * shared array of a header and shared entries, each rounded up to cache
 * lines; the block a power-of-two number of pages).
 */
static void destroy_gives_the_pages_back(struct ktest *t)
{
	struct rule_layout r;
	struct kmem_cache *c, *it;
	unsigned long before, arrays_bytes;
	unsigned int array_pages = 1, n;
	bool listed = false;

	rule_for_cache("destroy-100", 100, 0, 0, &r);
	n = 3 * r.num;
	KTEST_ASSERT_LE(t, n, r.limit);
	arrays_bytes = ALIGN(sizeof(struct array_cache) + r.array_max * sizeof(void *),
			     (unsigned long)CACHE_LINE) * nr_cpu_ids;
	if (r.shared)
		arrays_bytes += ALIGN(sizeof(struct array_cache) + r.shared * sizeof(void *),
				      (unsigned long)CACHE_LINE) * (unsigned long)nr_online_nodes;
	while (array_pages * PAGE_SIZE < arrays_bytes)
		array_pages <<= 1;
	c = create(t, "destroy-100", 100, 0, 0, NULL);
	alloc_held(t, c, n);
	free_held(c, 0, n);
	KTEST_EXPECT_EQ(t, this_array(c)->avail, n);
	before = free_pages_now();
	kmem_cache_destroy(c);
	KTEST_EXPECT_EQ(t, free_pages_now() - before,
			(unsigned long)(3 * (1U << r.order) + array_pages));
	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(it, &cache_chain, next)
		listed |= it == c;
	mutex_unlock(&cache_chain_mutex);
	KTEST_EXPECT_FALSE(t, listed);

	/* Off-slab too: the descriptors go back to their kmalloc class. */
	c = create(t, "destroy-1500", 1500, 0, 0, NULL);
	alloc_held(t, c, 20);
	free_held(c, 0, 20);
	kmem_cache_destroy(c);
	/* An empty cache never grew: destroy just gives its arrays back. */
	c = create(t, "destroy-empty", 64, 0, 0, NULL);
	kmem_cache_destroy(c);
}

static void dma_cache_objects_lie_in_zone_dma(struct ktest *t)
{
	struct zone *dma = &NODE_DATA(0)->node_zones[ZONE_DMA];
	static const unsigned int sizes[] = { 64, 700, 3000 };

	if (!populated_zone(dma))
		ktest_skip(t, "node 0 has no ZONE_DMA pages");
	for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k++) {
		struct rule_layout r;
		struct kmem_cache *c;
		static char name[32];
		unsigned int n;

		snprintf(name, sizeof(name), "dma-%u", sizes[k]);
		rule_for_cache(name, sizes[k], 0, SLAB_CACHE_DMA, &r);
		c = create(t, name, sizes[k], 0, SLAB_CACHE_DMA, NULL);
		n = 2 * r.num + 1;	/* three slabs */
		alloc_held(t, c, n);
		for (unsigned int i = 0; i < n; i++) {
			struct page *pg = virt_to_page(held[i]);

			if (page_zone(pg) != dma || zone_idx(page_zone(pg)) != ZONE_DMA ||
			    page_to_pfn(pg) >= MAX_DMA_PFN) {
				KTEST_FAIL(t, "%s: object %p is in zone %s of node %d, pfn %#lx",
					   name, held[i], page_zone(pg)->name,
					   page_to_nid(pg), page_to_pfn(pg));
				break;
			}
		}
		free_held(c, 0, n);
		kmem_cache_destroy(c);
	}
}

/*
 * No cache line holds parts of two CPUs' arrays (mm/slab.c: "no shared
 * cache line"): for every cache and every pair of possible CPUs, the
 * lines [first, last] each array's bytes - the header and the array_max
 * entry slots it may grow to - fall on are disjoint.
 */
static void cpu_arrays_share_no_cache_line(struct ktest *t)
{
	struct kmem_cache *c;
	unsigned int caches = 0, pairs = 0;

	if (nr_cpu_ids < 2)
		ktest_skip(t, "one possible CPU: no pair of arrays to compare");
	mutex_lock(&cache_chain_mutex);
	list_for_each_entry(c, &cache_chain, next) {
		caches++;
		for (int a = 0; a < (int)nr_cpu_ids; a++) {
			const struct array_cache *x = c->array[a];
			unsigned long xb = (unsigned long)x;
			unsigned long xl = xb / L1_CACHE_BYTES;
			unsigned long xe = (xb + sizeof(*x) + c->array_max * sizeof(void *) - 1) /
					   L1_CACHE_BYTES;

			for (int b = a + 1; b < (int)nr_cpu_ids; b++) {
				const struct array_cache *y = c->array[b];
				unsigned long yb = (unsigned long)y;
				unsigned long yl = yb / L1_CACHE_BYTES;
				unsigned long ye = (yb + sizeof(*y) + c->array_max * sizeof(void *) - 1) /
						   L1_CACHE_BYTES;

				pairs++;
				if (!(xe < yl || ye < xl)) {
					KTEST_FAIL(t, "%s: CPU %d's array %p (lines %#lx-%#lx) and CPU %d's %p (lines %#lx-%#lx) share a cache line",
						   c->name, a, (void *)x, xl, xe, b,
						   (void *)y, yl, ye);
					goto out;
				}
			}
		}
	}
out:
	mutex_unlock(&cache_chain_mutex);
	/* Every cache was looked at, and every pair in each. */
	KTEST_EXPECT_GT(t, caches, 0U);
	if (!t->failed)
		KTEST_EXPECT_EQ(t, pairs, caches * nr_cpu_ids * (nr_cpu_ids - 1) / 2);
}

static void bad_arguments_are_refused(struct ktest *t)
{
	KTEST_EXPECT_NULL(t, kmem_cache_create("bad-size-0", 0, 0, 0, NULL));
	KTEST_EXPECT_NULL(t, kmem_cache_create("bad-align-3", 64, 3, 0, NULL));
	KTEST_EXPECT_NULL(t, kmem_cache_create("bad-too-big", KMALLOC_MAX_CACHE_SIZE + 1,
					       0, 0, NULL));
	KTEST_EXPECT_NULL(t, kmem_cache_create(NULL, 64, 0, 0, NULL));
}

static const struct ktest_case slab_cases[] = {
	KTEST_CASE(objects_per_slab_and_order),
	KTEST_CASE(descriptor_and_bufctls_fit_before_the_objects),
	KTEST_CASE(hwcache_align_halves_for_small_objects),
	KTEST_CASE(explicit_align_is_honoured),
	KTEST_CASE(slabs_are_coloured_in_turn),
	KTEST_CASE(colour_cycle_goes_on_after_a_shrink),
	KTEST_CASE(colours_stay_in_turn_when_cpus_grow_at_once),
	KTEST_CASE(ctor_runs_once_per_object),
	KTEST_CASE(shrink_returns_the_pages_of_free_slabs),
	KTEST_CASE(shrink_counts_the_slabs_its_drain_frees),
	KTEST_CASE(free_goes_to_this_cpus_array_first),
	KTEST_CASE(remote_free_is_reused_on_that_cpu),
	KTEST_CASE(refill_takes_a_batch_under_one_lock),
	KTEST_CASE(a_grow_fills_the_array_under_one_lock),
	KTEST_CASE(a_grow_keeps_what_was_freed_meanwhile),
	KTEST_CASE(full_array_flushes_a_batch),
	KTEST_CASE(a_run_of_frees_grows_the_array),
	KTEST_CASE(the_reaper_puts_a_grown_empty_array_back),
	KTEST_CASE(an_empty_array_halves_the_run),
	KTEST_CASE(no_array_grows_below_pages_high),
	KTEST_CASE(flush_lands_in_the_shared_array),
	KTEST_CASE(refill_on_another_cpu_takes_from_the_shared_array),
	KTEST_CASE(shrink_empties_the_shared_array),
	KTEST_CASE(slabinfo_shows_the_shared_array),
	KTEST_CASE(mixed_caches_on_every_cpu_stay_consistent),
	KTEST_CASE(destroy_gives_the_pages_back),
	KTEST_CASE(dma_cache_objects_lie_in_zone_dma),
	KTEST_CASE(bad_arguments_are_refused),
	KTEST_CASE(cpu_arrays_share_no_cache_line),
	KTEST_END,
};

static const struct ktest_suite slab_suite = {
	.name = "slab",
	.cases = slab_cases,
};
KTEST_SUITE(slab_suite);
