/*
 * tests/slab_debug_test.c - suite "slab_debug": what slab debugging
 * leaves in memory, checked without stopping the kernel.
 *
 * The cases that need debugging make their own caches with the flags
 * passed explicitly, so they run in every boot; those about slab_debug=
 * read the command line themselves and compare.  Everything is read from
 * the documented object layout (mm/slab_internal.h), not through
 * mm/slab_debug.c's helpers:
 *
 *   | red zone 1 (8) | object (size, rounded to 8) | red zone 2 (8) |
 *   | last allocated by (4) | last freed by (4) |
 *
 * (without a red zone the two owner words follow the object rounded to a
 * word).  A free object is read while it sits in this CPU's array: it is
 * still memory of its slab, and nothing else touches it.  What must stop
 * the kernel - overflows, writes after free, double frees, bad kfree()s -
 * is in tests/slab_misuse.c, one boot each.
 */
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

/* Linux's values (include/linux/poison.h); slab_debug.c keeps them private. */
#define RED_INACTIVE 0x09F911029D74E35BULL
#define RED_ACTIVE 0xD84156C5635688C0ULL
#define POISON_FREE 0x6b
#define POISON_END 0xa5

#define ALL_DEBUG (SLAB_POISON | SLAB_RED_ZONE | SLAB_STORE_USER | SLAB_CONSISTENCY)

/* ---- what the case made: freed and destroyed by the exit, on abort too - */

#define MAX_CACHES 6
#define MAX_OBJS 512

static struct kmem_cache *caches[MAX_CACHES];
static struct {
	struct kmem_cache *cachep;	/* NULL: a kmalloc object */
	void *obj;
} objs[MAX_OBJS];
static unsigned int nr_objs;

static struct kmem_cache *make_cache(struct ktest *t, const char *name,
				     size_t size, size_t align,
				     unsigned long flags, void (*ctor)(void *))
{
	struct kmem_cache *c = kmem_cache_create(name, size, align, flags, ctor);

	KTEST_ASSERT_NOT_NULL(t, c);
	for (unsigned int i = 0; i < MAX_CACHES; i++) {
		if (!caches[i]) {
			caches[i] = c;
			return c;
		}
	}
	KTEST_FAIL(t, "more than %d caches in one case", MAX_CACHES);
	kmem_cache_destroy(c);
	ktest_abort(t);
}

/* Remembers an object the case holds (the exit frees what is left). */
static void hold(struct ktest *t, struct kmem_cache *c, void *obj)
{
	KTEST_ASSERT_NOT_NULL(t, obj);
	KTEST_ASSERT_LT(t, nr_objs, (unsigned int)MAX_OBJS);
	objs[nr_objs].cachep = c;
	objs[nr_objs].obj = obj;
	nr_objs++;
}

/* Forgets obj (the case is about to free it itself). */
static void release(void *obj)
{
	for (unsigned int i = 0; i < nr_objs; i++) {
		if (objs[i].obj == obj) {
			objs[i] = objs[--nr_objs];
			return;
		}
	}
}

/* Not inlined: records_allocator_and_freer() finds it as the allocator. */
static __attribute__((noinline, noclone)) void *get(struct ktest *t,
						     struct kmem_cache *c,
						     gfp_t gfp)
{
	void *obj = kmem_cache_alloc(c, gfp);

	hold(t, c, obj);
	return obj;
}

static void put(struct kmem_cache *c, void *obj)
{
	release(obj);
	kmem_cache_free(c, obj);
}

static void slab_debug_exit(struct ktest *t)
{
	while (nr_objs) {
		nr_objs--;
		if (objs[nr_objs].cachep)
			kmem_cache_free(objs[nr_objs].cachep, objs[nr_objs].obj);
		else
			kfree(objs[nr_objs].obj);
	}
	for (unsigned int i = 0; i < MAX_CACHES; i++) {
		if (caches[i])
			kmem_cache_destroy(caches[i]);
		caches[i] = NULL;
	}
}

/* ---- the layout -------------------------------------------------------- */

static u64 redzone1(void *obj)
{
	return *(u64 *)((char *)obj - 8);
}

static u64 redzone2(struct kmem_cache *c, void *obj)
{
	return *(u64 *)((char *)obj + ALIGN(kmem_cache_size(c), 8U));
}

/* [0]: last allocated by, [1]: last freed by. */
static unsigned long *owner(struct kmem_cache *c, void *obj)
{
	unsigned int size = kmem_cache_size(c);

	if (c->flags & SLAB_RED_ZONE)
		return (unsigned long *)((char *)obj + ALIGN(size, 8U) + 8);
	return (unsigned long *)((char *)obj + ALIGN(size, (unsigned int)sizeof(void *)));
}

/* 0x6b in every byte but the last, which is 0xa5. */
static bool poisoned(const void *obj, unsigned int size)
{
	const u8 *b = obj;

	for (unsigned int i = 0; i + 1 < size; i++)
		if (b[i] != POISON_FREE)
			return false;
	return b[size - 1] == POISON_END;
}

static bool all_bytes(const void *p, u8 v, size_t n)
{
	return memchr_inv(p, v, n) == NULL;
}

/* Both red zones of obj hold want; reports which one does not. */
static void expect_red_zones(struct ktest *t, struct kmem_cache *c, void *obj,
			     u64 want)
{
	KTEST_EXPECT_EQ(t, redzone1(obj), want);
	KTEST_EXPECT_EQ(t, redzone2(c, obj), want);
}

/* The slab of obj. */
static struct slab *slab_of(void *obj)
{
	return page_get_slab(virt_to_page(obj));
}

/* ---- layout ---------------------------------------------------------- */

/*
 * A cache has just the debug flags it was created with - not more from
 * slab_debug= on the command line (which applies to every cache when it
 * names none); says so when it has more.
 */
static bool flags_as_asked(struct ktest *t, struct kmem_cache *c,
			   unsigned long asked)
{
	if ((c->flags & SLAB_DEBUG_FLAGS) == asked)
		return true;
	ktest_printf(t, "%s has debug flags %#lx (asked %#lx, slab_debug= adds the rest): its layout is not checked",
		     c->name, c->flags & SLAB_DEBUG_FLAGS, asked);
	return false;
}

/*
 * The buffer is red zone + object rounded to 8 + red zone + two owner
 * words, and the caller's object starts after the first red zone - at a
 * multiple of the cache's alignment when that is more than 8.
 */
static void debug_object_layout(struct ktest *t)
{
	struct kmem_cache *c40 = make_cache(t, "sd_layout40", 40, 0, ALL_DEBUG, NULL);
	struct kmem_cache *c20 = make_cache(t, "sd_layout20", 20, 0, ALL_DEBUG, NULL);
	struct kmem_cache *hw = make_cache(t, "sd_layout_hw", 100, 0,
					   SLAB_HWCACHE_ALIGN | SLAB_RED_ZONE, NULL);
	struct kmem_cache *a32 = make_cache(t, "sd_layout_a32", 24, 32,
					    SLAB_RED_ZONE | SLAB_STORE_USER, NULL);
	struct kmem_cache *u20 = make_cache(t, "sd_layout_u20", 20, 0,
					    SLAB_STORE_USER, NULL);
	struct kmem_cache *f20 = make_cache(t, "sd_layout_f20", 20, 0,
					    SLAB_CONSISTENCY | SLAB_POISON, NULL);

	KTEST_EXPECT_EQ(t, c40->flags & ALL_DEBUG, ALL_DEBUG);
	KTEST_EXPECT_EQ(t, c40->obj_offset, 8U);
	KTEST_EXPECT_EQ(t, c40->buffer_size, 8U + 40 + 8 + 8);
	KTEST_EXPECT_EQ(t, c20->obj_offset, 8U);
	KTEST_EXPECT_EQ(t, c20->buffer_size, 8U + 24 + 8 + 8);
	/* A cache line: 64 bytes of alignment, the red zone just before. */
	KTEST_EXPECT_EQ(t, hw->obj_offset, 64U);
	KTEST_EXPECT_EQ(t, hw->buffer_size, 192U);
	KTEST_EXPECT_EQ(t, a32->obj_offset, 32U);
	KTEST_EXPECT_EQ(t, a32->buffer_size, 96U);
	/* No red zone: owner words right after the object, no offset. */
	if (flags_as_asked(t, u20, SLAB_STORE_USER)) {
		KTEST_EXPECT_EQ(t, u20->obj_offset, 0U);
		KTEST_EXPECT_EQ(t, u20->buffer_size, 20U + 8);
	}
	/* F and P take no room. */
	if (flags_as_asked(t, f20, SLAB_CONSISTENCY | SLAB_POISON)) {
		KTEST_EXPECT_EQ(t, f20->obj_offset, 0U);
		KTEST_EXPECT_EQ(t, f20->buffer_size, 20U);
	}
	KTEST_EXPECT_EQ(t, kmem_cache_size(c20), 20U);

	for (int i = 0; i < 4; i++) {
		void *o40 = get(t, c40, GFP_KERNEL);
		void *o20 = get(t, c20, GFP_KERNEL);
		void *ohw = get(t, hw, GFP_KERNEL);
		void *o32 = get(t, a32, GFP_KERNEL);

		KTEST_EXPECT_EQ(t, (unsigned long)o40 % 8, 0UL);
		KTEST_EXPECT_EQ(t, (unsigned long)o20 % 8, 0UL);
		KTEST_EXPECT_EQ(t, (unsigned long)ohw % 64, 0UL);
		KTEST_EXPECT_EQ(t, (unsigned long)o32 % 32, 0UL);
		/* The object is where index_to_obj() says, in its slab. */
		KTEST_EXPECT_GE(t, obj_to_index(c40, slab_of(o40), o40), 0L);
		KTEST_EXPECT_GE(t, obj_to_index(hw, slab_of(ohw), ohw), 0L);
		expect_red_zones(t, hw, ohw, RED_ACTIVE);
		expect_red_zones(t, a32, o32, RED_ACTIVE);
	}
}

/* ---- red zones ------------------------------------------------------- */

/*
 * Every object of a slab: the ones handed out have active red zones, all
 * others - in the CPU array or on the free chain - inactive ones.
 */
static void check_slab_red_zones(struct ktest *t, struct kmem_cache *c,
				 void *const *live, unsigned int nr_live)
{
	struct slab *slabp = slab_of(live[0]);

	for (unsigned int i = 0; i < c->num; i++) {
		void *obj = index_to_obj(c, slabp, i);
		u64 want = RED_INACTIVE;

		for (unsigned int j = 0; j < nr_live; j++)
			if (live[j] == obj)
				want = RED_ACTIVE;
		if (redzone1(obj) != want || redzone2(c, obj) != want) {
			KTEST_FAIL(t, "object %u (%p) of the slab: red zones %016llx %016llx, expected %016llx",
				   i, obj, (unsigned long long)redzone1(obj),
				   (unsigned long long)redzone2(c, obj),
				   (unsigned long long)want);
			return;
		}
	}
}

static void red_zones_follow_the_object_state(struct ktest *t)
{
	static const unsigned int sizes[] = { 40, 20, 8, 1 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		struct kmem_cache *c = make_cache(t, "sd_redzone", sizes[s], 0,
						  ALL_DEBUG, NULL);
		void *live[3];

		for (int i = 0; i < 3; i++) {
			live[i] = get(t, c, GFP_KERNEL);
			expect_red_zones(t, c, live[i], RED_ACTIVE);
		}
		/* All three come from the cache's one slab (a fresh cache). */
		KTEST_ASSERT_TRUE(t, slab_of(live[1]) == slab_of(live[0]) &&
					     slab_of(live[2]) == slab_of(live[0]));
		check_slab_red_zones(t, c, live, 3);

		/* Using the whole object, and not one byte more, is legal. */
		memset(live[1], 0xee, sizes[s]);
		expect_red_zones(t, c, live[1], RED_ACTIVE);

		put(c, live[1]);
		expect_red_zones(t, c, live[1], RED_INACTIVE);
		live[1] = live[2];
		check_slab_red_zones(t, c, live, 2);
		put(c, live[0]);
		put(c, live[2]);
		expect_red_zones(t, c, live[0], RED_INACTIVE);
		expect_red_zones(t, c, live[2], RED_INACTIVE);

		/* The freed object comes back (LIFO) with its zones re-armed. */
		live[0] = get(t, c, GFP_KERNEL);
		KTEST_EXPECT_PTR_EQ(t, live[0], live[2]);
		expect_red_zones(t, c, live[0], RED_ACTIVE);
		put(c, live[0]);
		slab_debug_exit(t);
	}
}

/* ---- poisoning ------------------------------------------------------- */

static void free_objects_are_poisoned(struct ktest *t)
{
	static const unsigned int sizes[] = { 48, 20, 1, 300, 4096 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		unsigned int size = sizes[s];
		struct kmem_cache *c = make_cache(t, "sd_poison", size, 0,
						  SLAB_POISON, NULL);
		u8 *a, *b;

		KTEST_EXPECT_TRUE(t, c->flags & SLAB_POISON);
		/* Never handed out before: built poisoned, and not cleared. */
		a = get(t, c, GFP_KERNEL);
		KTEST_EXPECT_TRUE(t, poisoned(a, size));

		memset(a, 0x11, size);
		put(c, a);
		if (!poisoned(a, size))
			KTEST_FAIL(t, "size %u: freed object %p not poisoned: %02x .. %02x",
				   size, a, a[0], a[size - 1]);

		/* It comes back first (LIFO), still poisoned... */
		b = get(t, c, GFP_KERNEL);
		KTEST_EXPECT_PTR_EQ(t, b, a);
		KTEST_EXPECT_TRUE(t, poisoned(b, size));
		put(c, b);

		/* ...unless the caller asks for zeroes. */
		b = get(t, c, GFP_KERNEL | __GFP_ZERO);
		KTEST_EXPECT_TRUE(t, all_bytes(b, 0, size));
		put(c, b);
		KTEST_EXPECT_TRUE(t, poisoned(b, size));
		slab_debug_exit(t);
	}
}

/* Poisoning goes with everything else on, and leaves the red zones alone. */
static void poison_and_red_zones_together(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "sd_poison_rz", 64, 0, ALL_DEBUG, NULL);
	u8 *a = get(t, c, GFP_KERNEL);

	memset(a, 0x5a, 64);
	put(c, a);
	KTEST_EXPECT_TRUE(t, poisoned(a, 64));
	expect_red_zones(t, c, a, RED_INACTIVE);
	KTEST_EXPECT_NE(t, owner(c, a)[0], 0UL);
	KTEST_EXPECT_NE(t, owner(c, a)[1], 0UL);
}

#define CTOR_MAGIC 0xc0ffee11U

static void magic_ctor(void *obj)
{
	u32 *w = obj;

	w[0] = CTOR_MAGIC;
	w[1] = ~CTOR_MAGIC;
}

/* Poison would undo the constructor: a cache with one is not poisoned. */
static void constructor_turns_poison_off(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "sd_ctor", 32, 0, ALL_DEBUG, magic_ctor);
	u32 *a, *b;

	KTEST_EXPECT_EQ(t, c->flags & SLAB_POISON, 0UL);
	KTEST_EXPECT_TRUE(t, c->flags & SLAB_RED_ZONE);
	a = get(t, c, GFP_KERNEL);
	KTEST_EXPECT_EQ(t, a[0], CTOR_MAGIC);
	KTEST_EXPECT_EQ(t, a[1], ~CTOR_MAGIC);
	expect_red_zones(t, c, a, RED_ACTIVE);
	put(c, a);
	KTEST_EXPECT_EQ(t, a[0], CTOR_MAGIC);
	expect_red_zones(t, c, a, RED_INACTIVE);
	b = get(t, c, GFP_KERNEL);
	KTEST_EXPECT_PTR_EQ(t, b, a);
	KTEST_EXPECT_EQ(t, b[0], CTOR_MAGIC);
	KTEST_EXPECT_EQ(t, b[1], ~CTOR_MAGIC);
	put(c, b);
}

/* ---- owner tracking -------------------------------------------------- */

static void records_allocator_and_freer(struct ktest *t)
{
	static const unsigned long flag_sets[] = { ALL_DEBUG, SLAB_STORE_USER,
						   SLAB_STORE_USER | SLAB_POISON };

	for (unsigned int f = 0; f < ARRAY_SIZE(flag_sets); f++) {
		struct kmem_cache *c = make_cache(t, "sd_owner", 44, 0,
						  flag_sets[f], NULL);
		unsigned long *who;
		void *obj;

		/* Directly here, not through get(): the caller is this function. */
		obj = kmem_cache_alloc(c, GFP_KERNEL);
		hold(t, c, obj);
		who = owner(c, obj);
		KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[0], records_allocator_and_freer,
						 "records_allocator_and_freer"));
		KTEST_EXPECT_EQ(t, who[1], 0UL);	/* never freed yet */

		release(obj);
		kmem_cache_free(c, obj);
		KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[1], records_allocator_and_freer,
						 "records_allocator_and_freer"));
		KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[0], records_allocator_and_freer,
						 "records_allocator_and_freer"));
		/* The tracking words are outside the poisoned object. */
		if (c->flags & SLAB_POISON)
			KTEST_EXPECT_TRUE(t, poisoned(obj, 44));

		/* Allocated from elsewhere: the allocator word changes, the freer stays. */
		obj = get(t, c, GFP_KERNEL);
		KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[0], get, "get"));
		KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[1], records_allocator_and_freer,
						 "records_allocator_and_freer"));
		slab_debug_exit(t);
	}
}

/* kmalloc, kzalloc and kfree record their own callers, not themselves. */
static void kmalloc_records_its_caller(struct ktest *t)
{
	struct kmem_cache *c = kmalloc_slab_for(64);
	unsigned long *who;
	void *p;

	if (!(c->flags & SLAB_STORE_USER))
		ktest_skip(t, "size-64 does not track owners (boot with slab_debug or slab_debug=U,size-64)");

	p = kmalloc(64, GFP_KERNEL);
	hold(t, NULL, p);
	who = owner(c, p);
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[0], kmalloc_records_its_caller,
					 "kmalloc_records_its_caller"));
	release(p);
	kfree(p);
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[1], kmalloc_records_its_caller,
					 "kmalloc_records_its_caller"));

	p = kzalloc(64, GFP_KERNEL);
	hold(t, NULL, p);
	KTEST_EXPECT_TRUE(t, all_bytes(p, 0, 64));
	who = owner(c, p);
	KTEST_EXPECT_TRUE(t, ktest_in_function(t, who[0], kmalloc_records_its_caller,
					 "kmalloc_records_its_caller"));
	release(p);
	kfree(p);
}

/* ---- sanity checks (F) ----------------------------------------------- */

/*
 * F alone finds double frees by looking for the object on the free
 * chains and in the CPU arrays: legal frees - in any order, from the
 * array and back onto the chains - must never be taken for one.
 */
static void consistency_checks_accept_legal_frees(struct ktest *t)
{
	struct kmem_cache *c = make_cache(t, "sd_consistency", 24, 0,
					  SLAB_CONSISTENCY, NULL);
	static void *v[400];
	struct slab_counts sc;

	if (flags_as_asked(t, c, SLAB_CONSISTENCY))
		KTEST_EXPECT_EQ(t, c->buffer_size, 24U);
	for (unsigned int i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = get(t, c, GFP_KERNEL);
	KTEST_ASSERT_GT(t, (unsigned int)ARRAY_SIZE(v), c->num); /* several slabs */
	/* Odd ones first, so slabs go partial and arrays flush to the chains. */
	for (unsigned int i = 1; i < ARRAY_SIZE(v); i += 2)
		put(c, v[i]);
	for (unsigned int i = 1; i < ARRAY_SIZE(v); i += 2)
		v[i] = get(t, c, GFP_KERNEL);
	for (unsigned int i = 0; i < ARRAY_SIZE(v); i += 2)
		put(c, v[i]);
	kmem_cache_shrink(c);
	for (unsigned int i = 1; i < ARRAY_SIZE(v); i += 2)
		put(c, v[i]);
	slab_count(c, &sc);
	KTEST_EXPECT_EQ(t, sc.active_objs, sc.in_arrays);
	kmem_cache_shrink(c);
	slab_count(c, &sc);
	KTEST_EXPECT_EQ(t, sc.num_slabs, 0UL);
}

/* ---- everything on, under load --------------------------------------- */

/*
 * Random allocations and frees on a cache with every check on: each live
 * object holds its own pattern over its whole size, so a red zone or
 * poison write that strayed into a neighbour would show; any false alarm
 * stops the kernel.
 */
static void random_traffic_with_all_checks(struct ktest *t)
{
	static const unsigned int sizes[] = { 8, 52, 200, 1000 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		unsigned int size = sizes[s];
		struct kmem_cache *c = make_cache(t, "sd_traffic", size, 0,
						  ALL_DEBUG, NULL);
		static u8 *live[256];
		unsigned int nr = 0;

		for (unsigned int op = 0; op < 3000; op++) {
			bool alloc = nr == 0 ||
				     (nr < ARRAY_SIZE(live) && ktest_random_below(t, 100) < 55);

			if (alloc) {
				u8 *p = get(t, c, GFP_KERNEL);

				if (!poisoned(p, size)) {
					KTEST_FAIL(t, "size %u: object %p not poisoned when handed out", size, p);
					return;
				}
				memset(p, (u8)(op | 1), size);
				live[nr++] = p;
			} else {
				unsigned int i = ktest_random_below(t, nr);
				u8 *p = live[i];

				if (redzone1(p) != RED_ACTIVE || redzone2(c, p) != RED_ACTIVE ||
				    !all_bytes(p, p[0], size)) {
					KTEST_FAIL(t, "size %u: live object %p damaged", size, p);
					return;
				}
				put(c, p);
				live[i] = live[--nr];
			}
		}
		while (nr)
			put(c, live[--nr]);
		slab_debug_exit(t);
	}
}

/*
 * Big objects: off-slab descriptors (themselves from kmalloc caches) and
 * slabs of many pages, with every check on.
 */
static void big_objects_with_all_checks(struct ktest *t)
{
	static const unsigned int sizes[] = { 1000, 4096, 20000, 65536 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		unsigned int size = sizes[s];
		struct kmem_cache *c = make_cache(t, "sd_big", size, 0, ALL_DEBUG, NULL);
		u8 *p[3];

		KTEST_EXPECT_TRUE(t, c->flags & CFLGS_OFF_SLAB);
		for (int i = 0; i < 3; i++) {
			p[i] = get(t, c, GFP_KERNEL);
			KTEST_EXPECT_TRUE(t, poisoned(p[i], size));
			expect_red_zones(t, c, p[i], RED_ACTIVE);
			memset(p[i], 0x33 + i, size);
		}
		for (int i = 0; i < 3; i++) {
			KTEST_EXPECT_TRUE(t, all_bytes(p[i], (u8)(0x33 + i), size));
			put(c, p[i]);
			KTEST_EXPECT_TRUE(t, poisoned(p[i], size));
			expect_red_zones(t, c, p[i], RED_INACTIVE);
		}
		slab_debug_exit(t);
	}
}

/*
 * The largest size a cache may have leaves no room for red zones in the
 * largest slab: creating it with them may fail, but cleanly - and if it
 * succeeds, its objects must work.
 */
static void largest_cache_with_red_zones(struct ktest *t)
{
	struct kmem_cache *c = kmem_cache_create("sd_largest", KMALLOC_MAX_CACHE_SIZE,
						 0, SLAB_RED_ZONE | SLAB_STORE_USER,
						 NULL);
	u8 *p;

	if (!c) {
		ktest_printf(t, "a %u-byte cache with red zones was refused",
			     (unsigned int)KMALLOC_MAX_CACHE_SIZE);
		return;
	}
	caches[0] = c;
	p = get(t, c, GFP_KERNEL);
	memset(p, 0x44, KMALLOC_MAX_CACHE_SIZE);
	if (c->flags & SLAB_RED_ZONE)
		expect_red_zones(t, c, p, RED_ACTIVE);
	put(c, p);
	if (c->flags & SLAB_RED_ZONE)
		expect_red_zones(t, c, p, RED_INACTIVE);
}

/* ---- slab_debug= ----------------------------------------------------- */

struct cmdline_debug {
	bool present;
	unsigned long flags;
	unsigned int nr_names;
	char names[8][32];
};

/*
 * Reads slab_debug= from the command line independently of
 * mm/slab_debug.c: no value = F Z P U for every cache; letters; then
 * ",name" for each cache it is limited to.  False when the value is
 * something this reading does not follow (the case then skips).
 */
static bool read_slab_debug(struct cmdline_debug *d)
{
	char val[CMDLINE_PARAM_MAX];
	const char *p = val;
	int len;

	memset(d, 0, sizeof(*d));
	len = cmdline_find_option(boot_command_line, "slab_debug", val, sizeof(val));
	if (len == -ENOENT)
		return true;
	d->present = true;
	if (len == 0) {
		d->flags = ALL_DEBUG;
		return true;
	}
	for (; *p && *p != ','; p++) {
		switch (*p) {
		case 'F': case 'f': d->flags |= SLAB_CONSISTENCY; break;
		case 'Z': case 'z': d->flags |= SLAB_RED_ZONE; break;
		case 'P': case 'p': d->flags |= SLAB_POISON; break;
		case 'U': case 'u': d->flags |= SLAB_STORE_USER; break;
		default: return false;
		}
	}
	if (!d->flags)
		d->flags = ALL_DEBUG;
	while (*p == ',') {
		const char *name = ++p;

		while (*p && *p != ',')
			p++;
		if (p == name)
			continue;
		if (d->nr_names == ARRAY_SIZE(d->names) ||
		    (size_t)(p - name) >= sizeof(d->names[0]))
			return false;
		memcpy(d->names[d->nr_names], name, (size_t)(p - name));
		d->names[d->nr_names++][p - name] = '\0';
	}
	return true;
}

static unsigned long expected_flags(const struct cmdline_debug *d, const char *name)
{
	if (!d->present)
		return 0;
	if (!d->nr_names)
		return d->flags;
	for (unsigned int i = 0; i < d->nr_names; i++)
		if (!strcmp(d->names[i], name))
			return d->flags;
	return 0;
}

/* kmalloc's caches and the cache of caches carry exactly what slab_debug= says. */
static void kmalloc_caches_follow_slab_debug(struct ktest *t)
{
	struct cmdline_debug d;
	struct kmem_cache *c;
	unsigned int debugged = 0, checked = 0;

	if (!read_slab_debug(&d))
		ktest_skip(t, "a slab_debug= value this case does not read");
	if (!d.present)
		ktest_skip(t, "no slab_debug on the command line");

	list_for_each_entry(c, &cache_chain, next) {
		if (!(c->flags & CFLGS_KMALLOC) && c != &cache_cache)
			continue;
		unsigned long want = expected_flags(&d, c->name);
		unsigned long has = c->flags & SLAB_DEBUG_FLAGS;

		checked++;
		/*
		 * Red zones and owner words (24 bytes) cannot fit around an
		 * object of the largest class in the largest slab: that class
		 * may go without them.
		 */
		if (has != want && c->object_size + 24 > KMALLOC_MAX_CACHE_SIZE &&
		    has == (want & ~(SLAB_RED_ZONE | SLAB_STORE_USER))) {
			ktest_printf(t, "%s: no red zones or owner tracking (no room)",
				     c->name);
			want = has;
		}
		if (has != want)
			KTEST_FAIL(t, "cache %s: debug flags %#lx, slab_debug= asks for %#lx",
				   c->name, has, want);
		if (c->flags & SLAB_DEBUG_FLAGS)
			debugged++;
	}
	KTEST_EXPECT_EQ(t, checked, 31U);	/* 15 classes, 15 DMA twins, kmem_cache */
	if (d.nr_names)
		KTEST_EXPECT_LE(t, debugged, d.nr_names);
	else
		KTEST_EXPECT_EQ(t, debugged, checked);
	KTEST_EXPECT_EQ(t, slab_debug_flags("size-64"), expected_flags(&d, "size-64"));
}

/* A new cache gets the flags slab_debug= names it for, on top of its own. */
static void new_caches_get_slab_debug_flags(struct ktest *t)
{
	static const char *const names[] = { "sd_named", "size-64", "size-32" };
	struct cmdline_debug d;

	if (!read_slab_debug(&d))
		ktest_skip(t, "a slab_debug= value this case does not read");
	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++) {
		struct kmem_cache *plain = make_cache(t, names[i], 40, 0, 0, NULL);
		struct kmem_cache *own = make_cache(t, names[i], 40, 0,
						    SLAB_STORE_USER, NULL);

		KTEST_EXPECT_EQ(t, plain->flags & SLAB_DEBUG_FLAGS,
				expected_flags(&d, names[i]));
		KTEST_EXPECT_EQ(t, own->flags & SLAB_DEBUG_FLAGS,
				expected_flags(&d, names[i]) | SLAB_STORE_USER);
		slab_debug_exit(t);
	}
}

/*
 * What a kmalloc object looks like around and after kfree, class by
 * class: red zones iff the class has Z, poisoned once freed iff it has P
 * (so with slab_debug=P,size-64 only size-64 is), usable size unchanged.
 * Runs in every boot: without slab_debug no class may be touched.
 */
static void kmalloc_objects_follow_their_class(struct ktest *t)
{
	static const size_t sizes[] = { 32, 64, 96, 128, 512, 4096, 32768 };

	for (unsigned int s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t size = sizes[s];
		struct kmem_cache *c = kmalloc_slab_for(size);
		u8 *p = kmalloc(size, GFP_KERNEL);

		KTEST_ASSERT_NOT_NULL(t, p);
		hold(t, NULL, p);
		KTEST_EXPECT_EQ(t, ksize(p), size);
		KTEST_EXPECT_PTR_EQ(t, page_get_cache(virt_to_page(p)), c);
		if (c->flags & SLAB_RED_ZONE)
			expect_red_zones(t, c, p, RED_ACTIVE);
		memset(p, 0x3c, size);
		release(p);
		kfree(p);
		if (c->flags & SLAB_POISON) {
			if (!poisoned(p, (unsigned int)size))
				KTEST_FAIL(t, "%s has P, but a freed object is not poisoned",
					   c->name);
		} else if (!all_bytes(p, 0x3c, size)) {
			KTEST_FAIL(t, "%s has no P, but a freed object was written", c->name);
		}
		if (c->flags & SLAB_RED_ZONE)
			expect_red_zones(t, c, p, RED_INACTIVE);
	}
}

static const struct ktest_case slab_debug_cases[] = {
	KTEST_CASE(debug_object_layout),
	KTEST_CASE(red_zones_follow_the_object_state),
	KTEST_CASE(free_objects_are_poisoned),
	KTEST_CASE(poison_and_red_zones_together),
	KTEST_CASE(constructor_turns_poison_off),
	KTEST_CASE(records_allocator_and_freer),
	KTEST_CASE(kmalloc_records_its_caller),
	KTEST_CASE(consistency_checks_accept_legal_frees),
	KTEST_CASE(random_traffic_with_all_checks),
	KTEST_CASE(big_objects_with_all_checks),
	KTEST_CASE(largest_cache_with_red_zones),
	KTEST_CASE(kmalloc_caches_follow_slab_debug),
	KTEST_CASE(new_caches_get_slab_debug_flags),
	KTEST_CASE(kmalloc_objects_follow_their_class),
	KTEST_END,
};

static const struct ktest_suite slab_debug_suite = {
	.name = "slab_debug",
	.exit = slab_debug_exit,
	.cases = slab_debug_cases,
};
KTEST_SUITE(slab_debug_suite);
