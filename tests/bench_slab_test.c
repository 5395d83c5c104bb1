/*
 * tests/bench_slab_test.c - suite "bench_slab": what the slab allocator
 * costs and how well it packs, printed for people to compare, never
 * judged by time.
 *
 * The figures follow bench_page's conventions: one ktest_printf line each,
 *
 *   # CASE: bench: WHAT: N cycles/op (median of R runs of M ops)
 *
 * the median of RUNS timed runs after one untimed warm-up, TSC cycles
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
#include "tests/ktest.h"

#define RUNS 7		/* timed runs per figure; the median is printed */
#define OPS 2000	/* alloc+free pairs per run */
#define BARE_OPS 20000	/* pop+push pairs per run of the bare list */
#define BARE_NODES 256U
#define MIXED 256	/* sizes in the mixed list */

/* ---- measuring ------------------------------------------------------ */

typedef bool (*bench_fn)(unsigned int ops);

struct bench_result {
	u64 median;	  /* cycles of the median run */
	unsigned int ops; /* operations per run */
};

static void sort_u64(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		u64 x = v[i];
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static bool measure(bench_fn fn, unsigned int ops, struct bench_result *res)
{
	u64 cycles[RUNS];

	if (!fn(ops))
		return false;
	for (unsigned int r = 0; r < RUNS; r++) {
		cycles_t start = get_cycles();

		if (!fn(ops))
			return false;
		cycles[r] = get_cycles() - start;
	}
	sort_u64(cycles, RUNS);
	res->median = cycles[RUNS / 2];
	res->ops = ops;
	return true;
}

static u64 per_op(const struct bench_result *res)
{
	return (res->median + res->ops / 2) / res->ops;
}

static u64 tenths(u64 a, u64 b)
{
	return b ? (a * 10 + b / 2) / b : 0;
}

/* a / b per operation, in tenths. */
static u64 ratio_tenths(const struct bench_result *a, const struct bench_result *b)
{
	return tenths(a->median * b->ops, b->median * a->ops);
}

static void print_result(struct ktest *t, const char *what,
			 const struct bench_result *res)
{
	ktest_printf(t, "bench: %s: %llu cycles/op (median of %u runs of %u ops)",
		     what, (unsigned long long)per_op(res), RUNS, res->ops);
}

/* ---- the paths ------------------------------------------------------- */

static struct kmem_cache *bench_cache;

static bool cache_pairs(unsigned int ops)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = kmem_cache_alloc(bench_cache, GFP_KERNEL);

		if (!p)
			return false;
		kmem_cache_free(bench_cache, p);
	}
	return true;
}

static bool kmalloc64_pairs(unsigned int ops)
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

static bool kmalloc_mixed_pairs(unsigned int ops)
{
	for (unsigned int i = 0; i < ops; i++) {
		void *p = kmalloc(mixed_sizes[i % MIXED], GFP_KERNEL);

		if (!p)
			return false;
		kfree(p);
	}
	return true;
}

static bool page_pairs(unsigned int ops)
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
struct bare_node {
	struct bare_node *next;
};

static struct bare_node bare_nodes[BARE_NODES];
static struct bare_node *bare_head;

static void bare_list_init(void)
{
	bare_head = NULL;
	for (unsigned int i = 0; i < BARE_NODES; i++) {
		bare_nodes[i].next = bare_head;
		bare_head = &bare_nodes[i];
	}
}

static bool bare_pop_push(unsigned int ops)
{
	for (unsigned int i = 0; i < ops; i++) {
		struct bare_node *n = READ_ONCE(bare_head);

		if (!n)
			return false;
		WRITE_ONCE(bare_head, READ_ONCE(n->next));
		barrier();
		WRITE_ONCE(n->next, READ_ONCE(bare_head));
		WRITE_ONCE(bare_head, n);
		barrier();
	}
	return true;
}

static unsigned int bare_list_length(void)
{
	unsigned int n = 0;

	for (struct bare_node *p = bare_head; p && n <= BARE_NODES; p = p->next)
		n++;
	return n;
}

static void print_ratio(struct ktest *t, const char *what, u64 r,
			const char *target)
{
	ktest_printf(t, "bench: %s = %llu.%llux (%s)", what,
		     (unsigned long long)(r / 10), (unsigned long long)(r % 10),
		     target);
}

/* Against the slab's target, said plainly either way. */
static void print_target(struct ktest *t, const char *what, u64 r)
{
	print_ratio(t, what, r, r <= 20 ? "target <= 2x: met" :
		    "target <= 2x: not met");
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
	bench_cache = kmem_cache_create("bench-64", 64, 0, 0, NULL);
	KTEST_ASSERT_NOT_NULL(t, bench_cache);
	ok = measure(cache_pairs, OPS, &cache);
	kmem_cache_destroy(bench_cache);
	bench_cache = NULL;
	if (!ok)
		KTEST_FAIL(t, "kmem_cache_alloc(bench-64) returned NULL");
	mixed_init();
	if (!measure(kmalloc64_pairs, OPS, &km64))
		KTEST_FAIL(t, "kmalloc(64) returned NULL");
	if (!measure(kmalloc_mixed_pairs, OPS, &mixed))
		KTEST_FAIL(t, "kmalloc of a mixed size returned NULL");
	if (!measure(page_pairs, OPS, &page))
		KTEST_FAIL(t, "alloc_page(GFP_KERNEL) returned NULL");
	bare_list_init();
	KTEST_ASSERT_TRUE(t, measure(bare_pop_push, BARE_OPS, &bare));
	KTEST_EXPECT_EQ(t, bare_list_length(), BARE_NODES);
	if (t->failed)
		return;

	print_result(t, "kmem_cache_alloc+kmem_cache_free, 64 bytes", &cache);
	print_result(t, "kmalloc+kfree, 64 bytes", &km64);
	print_result(t, "kmalloc+kfree, mixed 8..2048 bytes", &mixed);
	print_result(t, "alloc_page+__free_page (order-0 hot list)", &page);
	print_result(t, "bare free list pop+push", &bare);
	if (!bare.median) {
		ktest_printf(t, "bench: ratios n/a (the bare list measured 0 cycles)");
		return;
	}
	print_target(t, "kmem_cache 64 / bare free list", ratio_tenths(&cache, &bare));
	print_target(t, "kmalloc 64 / bare free list", ratio_tenths(&km64, &bare));
	print_target(t, "kmalloc mixed / bare free list", ratio_tenths(&mixed, &bare));
	print_ratio(t, "order-0 page / bare free list", ratio_tenths(&page, &bare),
		    "for reference");
	print_ratio(t, "kmem_cache 64 / order-0 page", ratio_tenths(&cache, &page),
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
