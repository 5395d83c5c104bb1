/*
 * tests/slab_misuse.c - slab and kmalloc misuse that must stop the kernel.
 * Every scenario is one or more boots of tests/boots.txt
 * (ktest.misuse=NAME), judged on its exact "BUG:" line (or, for the owner
 * report, on a detail line) and exit status 35; if a scenario returns,
 * the misuse went unnoticed and ktest_run_misuse() fails the boot.
 *
 * Each scenario makes its own cache, named after it, so the line names
 * it; those about slab_debug= rely on the boot's command line instead
 * and say so when it is missing.
 *
 *   slab_overflow          a byte written just past a red-zoned object
 *   slab_underflow         a byte written just before one
 *   slab_overflow_kmalloc  the same past a kmalloc(64) object, red zones
 *                          from slab_debug=Z,size-64
 *   slab_use_after_free    a write into a freed, poisoned object, found
 *                          when the object is handed out again
 *   slab_double_free       a red-zoned object freed twice
 *   slab_double_free_f     F alone (slab_debug=F,misuse_double_free_f): the
 *                          second free finds the object in the CPU array
 *   slab_double_free_chain F alone (SLAB_CONSISTENCY): the object was
 *                          drained onto its slab's free chain in between
 *   slab_double_free_shared F alone: the object was flushed into its
 *                          node's shared array in between
 *   kfree_bad_pointer      kfree() of an address inside a kmalloc object
 *   kfree_not_kmalloc      kfree() of an object of a kmem_cache_create() cache
 *   kfree_stack            kfree() of a stack address
 *   kfree_static           kfree() of a .data address
 *   large_kfree_twice      a >128 KiB kmalloc block kfree()d twice
 *   cache_destroy_busy     kmem_cache_destroy() with 3 objects in use
 *   wrong_cache_free       kmem_cache_free() to a cache not the object's
 *   cache_free_not_slab    kmem_cache_free() of a stack address
 *   cache_free_mid_object  kmem_cache_free() of an address inside an object
 *   slab_user_report       a double free whose report names the allocator
 *                          and the first freer (owner tracking on)
 */
#include "kernel/printk.h"
#include "lib/compiler.h"
#include "mm/gfp.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "tests/ktest.h"

#define UAF_OFFSET 5
#define BAD_BYTE 0x42

static struct kmem_cache *misuse_cache(const char *name, size_t size,
				       unsigned long flags)
{
	return kmem_cache_create(name, size, 0, flags | SLAB_PANIC, NULL);
}

/* ---- red zones ------------------------------------------------------- */

static void misuse_slab_overflow(void)
{
	struct kmem_cache *c = misuse_cache("misuse_overflow", 40,
					    SLAB_RED_ZONE | SLAB_POISON);
	volatile u8 *p = kmem_cache_alloc(c, GFP_KERNEL);

	pr_info("ktest: misuse slab_overflow: writing 0x%02x at byte 40 of a 40-byte object %p\n",
		BAD_BYTE, (void *)p);
	p[40] = BAD_BYTE;
	kmem_cache_free(c, (void *)p);
	pr_err("ktest: misuse slab_overflow: the free went through\n");
}
KTEST_MISUSE(slab_overflow, misuse_slab_overflow);

static void misuse_slab_underflow(void)
{
	struct kmem_cache *c = misuse_cache("misuse_underflow", 40, SLAB_RED_ZONE);
	volatile u8 *p = kmem_cache_alloc(c, GFP_KERNEL);

	pr_info("ktest: misuse slab_underflow: writing 0x%02x at byte -1 of object %p\n",
		BAD_BYTE, (void *)p);
	p[-1] = BAD_BYTE;
	kmem_cache_free(c, (void *)p);
	pr_err("ktest: misuse slab_underflow: the free went through\n");
}
KTEST_MISUSE(slab_underflow, misuse_slab_underflow);

static void misuse_slab_overflow_kmalloc(void)
{
	volatile u8 *p;

	if (!(kmalloc_slab_for(64)->flags & SLAB_RED_ZONE)) {
		pr_err("ktest: misuse slab_overflow_kmalloc needs slab_debug=Z,size-64\n");
		return;
	}
	p = kmalloc(64, GFP_KERNEL);
	pr_info("ktest: misuse slab_overflow_kmalloc: writing 0x%02x at byte 64 of kmalloc(64) %p\n",
		BAD_BYTE, (void *)p);
	p[64] = BAD_BYTE;
	kfree((void *)p);
	pr_err("ktest: misuse slab_overflow_kmalloc: the free went through\n");
}
KTEST_MISUSE(slab_overflow_kmalloc, misuse_slab_overflow_kmalloc);

/* ---- poison ---------------------------------------------------------- */

#define UAF_MAX 1024

/*
 * Frees an object, writes into it, then allocates (keeping what it gets,
 * so each allocation is a different object) until the object comes back:
 * the CPU array is LIFO, so that is the first allocation.
 */
static void misuse_slab_use_after_free(void)
{
	struct kmem_cache *c = misuse_cache("misuse_uaf", 48, SLAB_POISON);
	static void *got[UAF_MAX];
	volatile u8 *p = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned int n;

	pr_info("ktest: misuse slab_use_after_free: writing 0x%02x at offset %d of %p after freeing it\n",
		BAD_BYTE, UAF_OFFSET, (void *)p);
	kmem_cache_free(c, (void *)p);
	p[UAF_OFFSET] = BAD_BYTE;
	for (n = 0; n < UAF_MAX; n++) {
		got[n] = kmem_cache_alloc(c, GFP_KERNEL);
		if (got[n] == (void *)p)
			break;
	}
	pr_err("ktest: misuse slab_use_after_free: %u allocations, %p %s without a report\n",
	       n, (void *)p, n < UAF_MAX ? "came back" : "never came back");
}
KTEST_MISUSE(slab_use_after_free, misuse_slab_use_after_free);

/* ---- double frees ---------------------------------------------------- */

static void misuse_slab_double_free(void)
{
	struct kmem_cache *c = misuse_cache("misuse_double_free", 64, SLAB_RED_ZONE);
	void *p = kmem_cache_alloc(c, GFP_KERNEL);

	pr_info("ktest: misuse slab_double_free: freeing %p twice\n", p);
	kmem_cache_free(c, p);
	kmem_cache_free(c, p);
	pr_err("ktest: misuse slab_double_free: the second free went through\n");
}
KTEST_MISUSE(slab_double_free, misuse_slab_double_free);

/* The flags must come from slab_debug=F,misuse_double_free_f alone. */
static void misuse_slab_double_free_f(void)
{
	struct kmem_cache *c = misuse_cache("misuse_double_free_f", 64, 0);
	void *p;

	if ((c->flags & SLAB_DEBUG_FLAGS) != SLAB_CONSISTENCY) {
		pr_err("ktest: misuse slab_double_free_f needs slab_debug=F,misuse_double_free_f (flags %#lx)\n",
		       c->flags & SLAB_DEBUG_FLAGS);
		return;
	}
	p = kmem_cache_alloc(c, GFP_KERNEL);
	pr_info("ktest: misuse slab_double_free_f: freeing %p twice (it sits in the CPU array)\n",
		p);
	kmem_cache_free(c, p);
	kmem_cache_free(c, p);
	pr_err("ktest: misuse slab_double_free_f: the second free went through\n");
}
KTEST_MISUSE(slab_double_free_f, misuse_slab_double_free_f);

/*
 * a and b share a slab; a is freed and drained onto the slab's free chain
 * (b keeps the slab alive), so the second free of a is found by walking
 * the chain, not the array.
 */
static void misuse_slab_double_free_chain(void)
{
	struct kmem_cache *c = misuse_cache("misuse_double_free_chain", 64,
					    SLAB_CONSISTENCY);
	void *a = kmem_cache_alloc(c, GFP_KERNEL);
	void *b = kmem_cache_alloc(c, GFP_KERNEL);
	struct slab_counts sc;

	if (page_get_slab(virt_to_page(a)) != page_get_slab(virt_to_page(b))) {
		pr_err("ktest: misuse slab_double_free_chain: %p and %p are in different slabs\n",
		       a, b);
		return;
	}
	kmem_cache_free(c, a);
	kmem_cache_shrink(c);
	slab_count(c, &sc);
	pr_info("ktest: misuse slab_double_free_chain: freeing %p again, now on its slab's free chain (%lu in CPU arrays, %lu slabs)\n",
		a, sc.in_arrays, sc.num_slabs);
	kmem_cache_free(c, a);
	pr_err("ktest: misuse slab_double_free_chain: the second free went through (%p still live)\n",
	       b);
}
KTEST_MISUSE(slab_double_free_chain, misuse_slab_double_free_chain);

/* Is objp in its node's shared array of c? */
static bool in_shared_array(struct kmem_cache *c, void *objp)
{
	struct kmem_list3 *l3 = &c->nodelists[page_get_slab(virt_to_page(objp))->nodeid];
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&l3->list_lock, flags);
	for (unsigned int i = 0; l3->shared && i < l3->shared->avail; i++)
		found |= l3->shared->entry[i] == objp;
	spin_unlock_irqrestore(&l3->list_lock, flags);
	return found;
}

#define SHARED_MAX 1024

/*
 * a is freed first, then as many others as it takes for a full CPU array
 * to flush its oldest batch, a among them, into the node's shared array;
 * then a again.
 */
static void misuse_slab_double_free_shared(void)
{
	struct kmem_cache *c = misuse_cache("misuse_double_free_shared", 64,
					    SLAB_CONSISTENCY);
	static void *objs[SHARED_MAX];
	unsigned int n = 0, freed = 0;

	if (!c->shared) {
		pr_err("ktest: misuse slab_double_free_shared: the cache has no shared array\n");
		return;
	}
	while (n < SHARED_MAX)
		objs[n++] = kmem_cache_alloc(c, GFP_KERNEL);
	while (freed < n && !in_shared_array(c, objs[0]))
		kmem_cache_free(c, objs[freed++]);
	if (!in_shared_array(c, objs[0])) {
		pr_err("ktest: misuse slab_double_free_shared: %u frees never flushed %p into the shared array\n",
		       freed, objs[0]);
		return;
	}
	pr_info("ktest: misuse slab_double_free_shared: freeing %p again, now in its node's shared array (after %u frees)\n",
		objs[0], freed);
	kmem_cache_free(c, objs[0]);
	pr_err("ktest: misuse slab_double_free_shared: the second free went through\n");
}
KTEST_MISUSE(slab_double_free_shared, misuse_slab_double_free_shared);

/* ---- kfree() of what kmalloc did not hand out ------------------------ */

static void misuse_kfree_bad_pointer(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	pr_info("ktest: misuse kfree_bad_pointer: kfree(%p), 8 bytes into kmalloc(64) %p\n",
		p + 8, p);
	kfree(p + 8);
	pr_err("ktest: misuse kfree_bad_pointer: kfree went through\n");
}
KTEST_MISUSE(kfree_bad_pointer, misuse_kfree_bad_pointer);

static void misuse_kfree_not_kmalloc(void)
{
	struct kmem_cache *c = misuse_cache("misuse_not_kmalloc", 64, 0);
	void *p = kmem_cache_alloc(c, GFP_KERNEL);

	pr_info("ktest: misuse kfree_not_kmalloc: kfree(%p) of a misuse_not_kmalloc object\n",
		p);
	kfree(p);
	pr_err("ktest: misuse kfree_not_kmalloc: kfree went through\n");
}
KTEST_MISUSE(kfree_not_kmalloc, misuse_kfree_not_kmalloc);

static void misuse_kfree_stack(void)
{
	volatile u32 on_stack[4] = { 1, 2, 3, 4 };

	pr_info("ktest: misuse kfree_stack: kfree(%p), a stack address\n",
		(void *)&on_stack[1]);
	kfree((void *)&on_stack[1]);
	pr_err("ktest: misuse kfree_stack: kfree went through (%u)\n", on_stack[0]);
}
KTEST_MISUSE(kfree_stack, misuse_kfree_stack);

static u32 in_data[4] __aligned(8) = { 0x6b667265, 0x65206d65 };

static void misuse_kfree_static(void)
{
	pr_info("ktest: misuse kfree_static: kfree(%p), a .data address\n",
		(void *)in_data);
	kfree(in_data);
	pr_err("ktest: misuse kfree_static: kfree went through\n");
}
KTEST_MISUSE(kfree_static, misuse_kfree_static);

/* Larger than the largest class: a block from the page allocator. */
#define LARGE_SIZE (200 * 1024)

static void misuse_large_kfree_twice(void)
{
	void *p = kmalloc(LARGE_SIZE, GFP_KERNEL);

	if (!p)
		return;
	pr_info("ktest: misuse large_kfree_twice: kfree(%p), a %d-byte block, twice\n",
		p, LARGE_SIZE);
	kfree(p);
	kfree(p);
	pr_err("ktest: misuse large_kfree_twice: the second kfree went through\n");
}
KTEST_MISUSE(large_kfree_twice, misuse_large_kfree_twice);

/* ---- caches ---------------------------------------------------------- */

/* Five allocated, two freed (they sit in the CPU array): three in use. */
static void misuse_cache_destroy_busy(void)
{
	struct kmem_cache *c = misuse_cache("misuse_busy", 64, 0);
	void *p[5];

	for (int i = 0; i < 5; i++)
		p[i] = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p[1]);
	kmem_cache_free(c, p[3]);
	pr_info("ktest: misuse cache_destroy_busy: destroying misuse_busy with %p %p %p in use\n",
		p[0], p[2], p[4]);
	kmem_cache_destroy(c);
	pr_err("ktest: misuse cache_destroy_busy: the cache was destroyed\n");
}
KTEST_MISUSE(cache_destroy_busy, misuse_cache_destroy_busy);

static void misuse_wrong_cache_free(void)
{
	struct kmem_cache *a = misuse_cache("misuse_cache_a", 64, 0);
	struct kmem_cache *b = misuse_cache("misuse_cache_b", 64, 0);
	void *p = kmem_cache_alloc(a, GFP_KERNEL);

	pr_info("ktest: misuse wrong_cache_free: %p from misuse_cache_a freed to misuse_cache_b\n",
		p);
	kmem_cache_free(b, p);
	pr_err("ktest: misuse wrong_cache_free: the free went through\n");
}
KTEST_MISUSE(wrong_cache_free, misuse_wrong_cache_free);

static void misuse_cache_free_not_slab(void)
{
	struct kmem_cache *c = misuse_cache("misuse_not_slab", 64, 0);
	volatile u32 on_stack[16] = { 0 };

	pr_info("ktest: misuse cache_free_not_slab: kmem_cache_free(misuse_not_slab, %p), a stack address\n",
		(void *)on_stack);
	kmem_cache_free(c, (void *)on_stack);
	pr_err("ktest: misuse cache_free_not_slab: the free went through (%u)\n",
	       on_stack[0]);
}
KTEST_MISUSE(cache_free_not_slab, misuse_cache_free_not_slab);

static void misuse_cache_free_mid_object(void)
{
	struct kmem_cache *c = misuse_cache("misuse_mid_object", 64, 0);
	char *p = kmem_cache_alloc(c, GFP_KERNEL);

	pr_info("ktest: misuse cache_free_mid_object: kmem_cache_free(misuse_mid_object, %p), 4 bytes into %p\n",
		p + 4, p);
	kmem_cache_free(c, p + 4);
	pr_err("ktest: misuse cache_free_mid_object: the free went through\n");
}
KTEST_MISUSE(cache_free_mid_object, misuse_cache_free_mid_object);

/* ---- the owner report ------------------------------------------------ */

/* The first free, from a function of its own so the report can name it. */
static __attribute__((noinline, noclone)) void
slab_user_report_free(struct kmem_cache *c, void *p)
{
	kmem_cache_free(c, p);
	barrier(); /* no tail call: the caller recorded must be this function */
}

static void misuse_slab_user_report(void)
{
	struct kmem_cache *c = misuse_cache("misuse_user", 64,
					    SLAB_RED_ZONE | SLAB_STORE_USER);
	void *p = kmem_cache_alloc(c, GFP_KERNEL);

	pr_info("ktest: misuse slab_user_report: %p allocated here, freed in slab_user_report_free, then freed again\n",
		p);
	slab_user_report_free(c, p);
	kmem_cache_free(c, p);
	pr_err("ktest: misuse slab_user_report: the second free went through\n");
}
KTEST_MISUSE(slab_user_report, misuse_slab_user_report);
