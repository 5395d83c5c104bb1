/*
 * tests/bench_slab_test.c - suite "bench_slab": what the slab allocator
 * costs and how well it packs, printed for people to compare, never
 * judged by time.
 *
 * The figures follow bench_page's conventions: one ktest_printf line each,
 *
 *   # CASE: bench: WHAT: N cycles/op (median of R runs of M ops)
 *
 * the median of BENCH_RUNS timed runs after one untimed warm-up, TSC cycles
 * (under QEMU TCG the emulated TSC's: only ratios within one boot mean
 * much).  The paths, all measured in the same boot on one CPU:
 *
 *   kmem_cache_alloc + kmem_cache_free of a 64-byte object;
 *   kmalloc + kfree of 64 bytes;
 *   kmalloc + kfree of mixed sizes 8..2048 (a fixed pseudo-random list);
 *   alloc_page + __free_page (the order-0 hot list);
 *   a bare LIFO free list, pop + push (the least a free list costs).
 *
 * and the ratio of each cache path to the bare list (the slab's target:
 * within 2x).  Then one line per kmalloc class: objects per slab, pages
 * per slab and the memory efficiency - bytes of objects over bytes of
 * slab pages, an off-slab descriptor (struct slab + a 2-byte bufctl per
 * object, as allocated from its kmalloc class) counted as overhead -
 * marking any class under 90% with the reason.
 *
 * A case fails only on a functional error: an allocation returning NULL,
 * an object or page not given back (the framework's counters catch that).
 */
#include "asm/timex.h"
#include "kernel/arch.h"
#include "kernel/smp.h"
#include "lib/compiler.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/bench.h"
#include "tests/ktest.h"

#define OPS 2000	/* alloc+free pairs per run */
#define BARE_OPS 20000	/* pop+push pairs per run of the bare list */
#define MIXED 256	/* sizes in the mixed list */

/* ---- measuring ------------------------------------------------------ */

/* ---- the paths ------------------------------------------------------- */

static struct kmem_cache *bench_cache;

static bool cache_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = kmem_cache_alloc(bench_cache, GFP_KERNEL);

		if (!p)
			return false;
		kmem_cache_free(bench_cache, p);
	}
	return true;
}

static bool kmalloc64_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = kmalloc(64, GFP_KERNEL);

		if (!p)
			return false;
		kfree(p);
	}
	return true;
}

static u16 mixed_sizes[MIXED];

/* 8..2048 bytes from a fixed LCG: the same list in every boot. */
static void mixed_init(void)
{
	u32 x = 20260101;

	for (unsigned int i = 0; i < MIXED; i++) {
		x = x * 1664525U + 1013904223U;
		mixed_sizes[i] = (u16)(8 + (x >> 8) % (2048 - 8 + 1));
	}
}

static bool kmalloc_mixed_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = kmalloc(mixed_sizes[i % MIXED], GFP_KERNEL);

		if (!p)
			return false;
		kfree(p);
	}
	return true;
}

static bool page_pairs(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page)
			return false;
		__free_page(page);
	}
	return true;
}

/* The bare list: volatile accesses, barriers between the halves. */
/* A figure, with the slab's goal beside it for reference: no verdict. */
static void print_target(struct ktest *t, const char *what, u64 r)
{
	bench_print_ratio(t, what, r, "a measurement; the goal on real hardware is <= 2x");
}

/*
 * All five in one case, so that the ratios compare figures of one boot
 * measured one after the other.
 */
static void alloc_free_paths(struct ktest *t)
{
	struct bench_result cache, km64, mixed, page, bare;
	bool ok;

	ktest_printf(t, "bench: cpu_khz: %lu (TSC cycles; under QEMU TCG the emulated TSC's)",
		     arch_cpu_khz());
	bench_print_lockdep(t);
	bench_cache = kmem_cache_create("bench-64", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, bench_cache);
	ok = bench_measure(cache_pairs, 0, OPS, &cache);
	kmem_cache_destroy(bench_cache);
	bench_cache = NULL;
	if (!ok)
		KTEST_FAIL(t, "kmem_cache_alloc(bench-64) returned NULL");
	mixed_init();
	if (!bench_measure(kmalloc64_pairs, 0, OPS, &km64))
		KTEST_FAIL(t, "kmalloc(64) returned NULL");
	if (!bench_measure(kmalloc_mixed_pairs, 0, OPS, &mixed))
		KTEST_FAIL(t, "kmalloc of a mixed size returned NULL");
	if (!bench_measure(page_pairs, 0, OPS, &page))
		KTEST_FAIL(t, "alloc_page(GFP_KERNEL) returned NULL");
	bench_bare_init();
	KTEST_ASSERT_TRUE(t, bench_measure(bench_bare_pop_push, 0, BARE_OPS, &bare));
	KTEST_EXPECT_EQ(t, bench_bare_length(), BENCH_BARE_NODES);
	if (t->failed)
		return;

	bench_print(t, "kmem_cache_alloc+kmem_cache_free, 64 bytes", &cache, "op");
	bench_print(t, "kmalloc+kfree, 64 bytes", &km64, "op");
	bench_print(t, "kmalloc+kfree, mixed 8..2048 bytes", &mixed, "op");
	bench_print(t, "alloc_page+__free_page (order-0 hot list)", &page, "op");
	bench_print(t, "bare free list pop+push", &bare, "op");
	if (!bare.median) {
		ktest_printf(t, "bench: ratios n/a (the bare list measured 0 cycles)");
		return;
	}
	print_target(t, "kmem_cache 64 / bare free list", bench_ratio(&cache, &bare));
	print_target(t, "kmalloc 64 / bare free list", bench_ratio(&km64, &bare));
	print_target(t, "kmalloc mixed / bare free list", bench_ratio(&mixed, &bare));
	bench_print_ratio(t, "order-0 page / bare free list", bench_ratio(&page, &bare),
		    "for reference");
	bench_print_ratio(t, "kmem_cache 64 / order-0 page", bench_ratio(&cache, &page),
		    "for reference");
}

/* ---- packing ----------------------------------------------------------- */

static const unsigned int classes[] = {
	32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192, 16384,
	32768, 65536, 131072,
};

static unsigned int class_for(unsigned int size)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++)
		if (classes[i] >= size)
			return classes[i];
	return 0;
}

/*
 * On-slab objects per page with bufctls of b bytes (2.6's estimate for
 * an order-0 slab, word alignment): what 16-bit bufctls buy size-32.
 */
static unsigned int on_slab_num(unsigned int size, unsigned int align,
				unsigned int b)
{
	unsigned int n = (unsigned int)(PAGE_SIZE - sizeof(struct slab)) / (size + b);

	while (n && ALIGN((unsigned int)sizeof(struct slab) + n * b, align) + n * size >
			    PAGE_SIZE)
		n--;
	return n;
}

/* Rounded thousandths of a / b. */
static unsigned int per_mille(unsigned long a, unsigned long b)
{
	return (unsigned int)(((u64)a * 1000 + b / 2) / b);
}

static void kmalloc_class_efficiency(struct ktest *t)
{
	unsigned int below = 0;

	ktest_printf(t, "bench: class    objs/slab pages/slab  efficiency (objects / slab pages + off-slab descriptor)");
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++) {
		struct kmem_cache *c = kmalloc_slab_for(classes[i]);
		unsigned long slab_bytes, obj_bytes, desc = 0, den;
		unsigned int permille;
		char why[120] = "";

		KTEST_ASSERT_NOT_NULL(t, c);
		KTEST_EXPECT_EQ(t, c->object_size, classes[i]);
		slab_bytes = PAGE_SIZE << c->gfporder;
		obj_bytes = (unsigned long)c->num * c->object_size;
		if (c->flags & CFLGS_OFF_SLAB)
			desc = class_for((unsigned int)sizeof(struct slab) +
					 c->num * (unsigned int)sizeof(kmem_bufctl_t));
		den = slab_bytes + desc;
		permille = per_mille(obj_bytes, den);
		if (permille < 900) {
			below++;
			if (c->buffer_size != c->object_size)
				snprintf(why, sizeof(why),
					 "  <- below 90%%: debugging makes each object %u bytes",
					 c->buffer_size);
			else
				snprintf(why, sizeof(why),
					 "  <- below 90%%: %lu bytes descriptor, %lu bytes left over",
					 (c->flags & CFLGS_OFF_SLAB) ? desc :
					 (unsigned long)c->slab_size,
					 slab_bytes - obj_bytes -
					 ((c->flags & CFLGS_OFF_SLAB) ? 0 : c->slab_size));
		}
		ktest_printf(t, "bench: size-%-6u %4u %9u %8u.%u%%%s%s",
			     classes[i], c->num, 1U << c->gfporder,
			     permille / 10, permille % 10,
			     (c->flags & CFLGS_OFF_SLAB) ? " (off-slab)" : "", why);
	}
	ktest_printf(t, "bench: kmalloc classes below 90%%: %u", below);
	/* size-32 with 16-bit bufctls, and what 32-bit ones would give. */
	{
		unsigned int n16 = on_slab_num(32, 8, 2), n32 = on_slab_num(32, 8, 4);
		unsigned int e16 = per_mille(n16 * 32UL, PAGE_SIZE),
			     e32 = per_mille(n32 * 32UL, PAGE_SIZE);

		ktest_printf(t, "bench: size-32 per page: %u objects with 16-bit bufctls (%u.%u%%), %u with 32-bit ones (%u.%u%%)",
			     n16, e16 / 10, e16 % 10, n32, e32 / 10, e32 % 10);
	}
}

static const struct ktest_case bench_slab_cases[] = {
	KTEST_CASE(alloc_free_paths),
	KTEST_CASE(kmalloc_class_efficiency),
	KTEST_END,
};

static struct ktest_suite bench_slab_suite = {
	.name = "bench_slab",
	.cases = bench_slab_cases,
};
KTEST_SUITE(bench_slab_suite);
