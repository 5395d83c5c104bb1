/*
 * mm/kmalloc.c - kmalloc() and friends: general-purpose allocations from
 * a ladder of slab caches, "size-32" ... "size-131072" (and "size-N(DMA)"
 * twins for GFP_DMA), as in Linux 2.6 (2.6.11's malloc_sizes).  A request
 * takes the smallest class that fits (2.6.11), found without walking the
 * ladder: for sizes up to 192 bytes in a table indexed by (size - 1) / 8,
 * above that - where every class is a power of two - in one indexed by
 * fls(size - 1) (SLUB's size_index and kmalloc_index, 2.6.23), both
 * filled from the ladder (kmalloc_class) at boot; larger requests go straight
 * to the page allocator as a multi-page block whose order is kept in its
 * head page - a deviation: 2.6.11's __kmalloc returned NULL above the
 * largest class.
 *
 * kfree() needs no size: a slab page knows its cache, and a large block's
 * head page carries KMALLOC_LARGE and its order.  Anything else handed to
 * kfree() - an address inside no allocation, an object of a cache that is
 * not a kmalloc cache, a large block freed twice - is a "BUG:" report
 * (the checks of a slab object are MM_DEBUG's, mm/mm.h: a production
 * build trusts it, as 2.6 without DEBUG did).
 * ksize() is what the caller may use: the whole class, or the whole
 * block.  krealloc() (2.6.22's) keeps the object while the new size fits
 * in ksize(), and otherwise copies ksize() bytes - it cannot know how many
 * were asked for - to a new one and frees the old.
 *
 * The classes are not cache-line aligned (ARCH_KMALLOC_MINALIGN, 8 bytes;
 * 2.6.11 made them SLAB_HWCACHE_ALIGN),
 * so that size-96 and size-192 hold 96- and 192-byte objects and not 128
 * and 256: alignment beyond 8 bytes is what kmem_cache_create() is for.
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "lib/bitops.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/slab_internal.h"

#define KMALLOC_LARGE 0x4b4d4c47UL	/* "KMLG" in a large block's head page */

struct cache_sizes {
	size_t cs_size;
	const char *name, *dma_name;
	struct kmem_cache *cs_cachep;
	struct kmem_cache *cs_dmacachep;
};

#define CACHE(n) { n, "size-" #n, "size-" #n "(DMA)", NULL, NULL }
static struct cache_sizes malloc_sizes[] = {
	CACHE(32), CACHE(64), CACHE(96), CACHE(128), CACHE(192), CACHE(256),
	CACHE(512), CACHE(1024), CACHE(2048), CACHE(4096), CACHE(8192),
	CACHE(16384), CACHE(32768), CACHE(65536), CACHE(131072),
};
#undef CACHE

/*
 * The class of every size up to SIZE_INDEX_MAX, by (size - 1) / 8: one
 * load instead of the walk up the ladder (SLUB's size_index, 2.6.23),
 * filled from kmalloc_class() at boot.  Every class up to there is a
 * multiple of 8, so a step of 8 sizes never straddles two.
 */
#define SIZE_INDEX_MAX 192
static u8 size_index[SIZE_INDEX_MAX / 8];

/*
 * Above SIZE_INDEX_MAX, the class of every size by fls(size - 1): every
 * class from 256 up is a power of two, so all sizes of one fls k above
 * SIZE_INDEX_MAX - 2^(k-1) + 1 .. 2^k - share the class of 2^k.  Filled
 * at boot from kmalloc_class(), which is asked for both ends of each
 * range: should they differ (a ladder that is not one of powers of two),
 * the entry says FLS_WALK and those sizes walk the ladder.
 */
#define FLS_INDEX_MIN (ilog2(SIZE_INDEX_MAX) + 1)
#define FLS_INDEX_MAX ilog2(KMALLOC_MAX_CACHE_SIZE)
#define FLS_WALK 0xff
static u8 fls_index[FLS_INDEX_MAX + 1];

static struct cache_sizes *kmalloc_class(size_t size);

void kmalloc_caches_init(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(size_index); i++) {
		struct cache_sizes *cs = kmalloc_class((i + 1) * 8);

		BUG_ON(!cs || cs->cs_size % 8);
		size_index[i] = (u8)(cs - malloc_sizes);
	}
	for (unsigned int k = FLS_INDEX_MIN; k <= FLS_INDEX_MAX; k++) {
		struct cache_sizes *cs = kmalloc_class(1UL << k);
		size_t lo = max((1UL << (k - 1)) + 1,
				(unsigned long)SIZE_INDEX_MAX + 1);

		fls_index[k] = cs && kmalloc_class(lo) == cs ?
				       (u8)(cs - malloc_sizes) : FLS_WALK;
	}
	/* Ascending: an off-slab class takes its descriptors from a smaller one. */
	for (unsigned int i = 0; i < ARRAY_SIZE(malloc_sizes); i++) {
		struct cache_sizes *cs = &malloc_sizes[i];

		cs->cs_cachep = kmem_cache_create(cs->name, cs->cs_size,
						  ARCH_KMALLOC_MINALIGN,
						  SLAB_PANIC, NULL);
		cs->cs_cachep->flags |= CFLGS_KMALLOC;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(malloc_sizes); i++) {
		struct cache_sizes *cs = &malloc_sizes[i];

		cs->cs_dmacachep = kmem_cache_create(cs->dma_name, cs->cs_size,
						     ARCH_KMALLOC_MINALIGN,
						     SLAB_CACHE_DMA | SLAB_PANIC,
						     NULL);
		cs->cs_dmacachep->flags |= CFLGS_KMALLOC;
	}
}

/* The smallest class of at least size bytes; NULL above the largest. */
static struct cache_sizes *kmalloc_class(size_t size)
{
	/* LAB kmalloc: BEGIN the smallest class of at least size bytes; NULL above the largest */
	for (unsigned int i = 0; i < ARRAY_SIZE(malloc_sizes); i++)
		if (malloc_sizes[i].cs_size >= size)
			return &malloc_sizes[i];
	return NULL;
	/* LAB kmalloc: END */
}

/* Not yet made (NULL) while kmalloc_caches_init() makes the smaller ones. */
struct kmem_cache *kmalloc_slab_for(size_t size)
{
	struct cache_sizes *cs = kmalloc_class(size);

	return cs ? cs->cs_cachep : NULL;
}

/* kmalloc_class(), through size_index and fls_index (no walk). */
static inline struct cache_sizes *kmalloc_size_class(size_t size)
{
	if (likely(size - 1 < SIZE_INDEX_MAX))
		return &malloc_sizes[size_index[(size - 1) / 8]];
	if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE)) {
		unsigned int i = fls_index[fls((unsigned int)(size - 1))];

		if (likely(i != FLS_WALK))
			return &malloc_sizes[i];
	}
	return kmalloc_class(size);	/* 0, above the largest class, or FLS_WALK */
}

/* The cache a request takes; NULL when no class serves it: pages do. */
static inline struct kmem_cache *kmalloc_cache(size_t size, gfp_t flags)
{
	struct cache_sizes *cs = kmalloc_size_class(size);

	if (!cs)
		return NULL;
	/* LAB kmalloc: BEGIN GFP_DMA takes the class's "(DMA)" twin, whose slabs lie in ZONE_DMA */
	return (flags & GFP_DMA) ? cs->cs_dmacachep : cs->cs_cachep;
	/* LAB kmalloc: END */
}

static void *kmalloc_large(size_t size, gfp_t flags)
{
	unsigned int order = 0;
	struct page *page;

	/* Checked first: PAGE_SIZE << order wraps for sizes near 4 GiB. */
	if (size > (PAGE_SIZE << (MAX_ORDER - 1))) {
		if (!(flags & __GFP_NOWARN))
			pr_warn("kmalloc: %zu bytes is more than the largest block (%lu)\n",
				size, PAGE_SIZE << (MAX_ORDER - 1));
		return NULL;
	}
	while ((PAGE_SIZE << order) < size)
		order++;
	page = alloc_pages(flags & ~__GFP_HIGHMEM, order);
	if (!page)
		return NULL;
	page->owner_data[0] = KMALLOC_LARGE;
	return page_address(page);
}

/*
 * Every entry point passes its own caller down, so that owner tracking
 * (slab_debug=U) names the code that called kmalloc/kzalloc/krealloc, not
 * one of them.
 */
static __always_inline void *__kmalloc(size_t size, gfp_t flags,
				       unsigned long caller)
{
	struct kmem_cache *cachep = kmalloc_cache(size, flags);

	if (unlikely(!cachep))
		return kmalloc_large(size, flags);
	if (MM_DEBUG)
		might_sleep_if(flags & __GFP_WAIT);
	return __cache_alloc(cachep, flags, caller);
}

void *kmalloc(size_t size, gfp_t flags)
{
	return __kmalloc(size, flags, MM_RET_IP);
}

void *kzalloc(size_t size, gfp_t flags)
{
	return __kmalloc(size, flags | __GFP_ZERO, MM_RET_IP);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return __kmalloc(n * size, flags, MM_RET_IP);
}

/*
 * What kfree/ksize are given: a kmalloc cache's object, or a large head.
 * A production build (MM_DEBUG=0) trusts a slab object, as 2.6's kfree
 * did without DEBUG; a large block is checked always (it is rare).
 */
static __always_inline struct kmem_cache *kmalloc_owner(const void *objp,
							const char *fn,
							struct page **pagep)
{
	struct page *page;

	if (MM_DEBUG && unlikely(!virt_addr_valid(objp)))
		slab_bug(NULL, objp, "%s: %p is not a live kmalloc object", fn,
			 objp);
	page = *pagep = virt_to_page(objp);
	if (likely(PageSlab(page))) {
		struct kmem_cache *cachep = page_get_cache(page);

		if (!MM_DEBUG)
			return cachep;
		if (!(cachep->flags & CFLGS_KMALLOC))
			slab_bug(cachep, objp,
				 "%s: %p belongs to cache %s, not to kmalloc",
				 fn, objp, cachep->name);
		if (obj_to_index(cachep, page_get_slab(page), objp) < 0)
			slab_bug(cachep, objp,
				 "%s: %p is not a live kmalloc object (inside %s, not an object's start)",
				 fn, objp, cachep->name);
		return cachep;
	}
	/*
	 * A block of pages of any order (one page too: a request no class
	 * serves may be small); only its first page carries the mark, and
	 * kfree() clears it.
	 */
	if (page->owner_data[0] == KMALLOC_LARGE &&
	    objp == page_address(page) && page_count(page) > 0)
		return NULL;
	slab_bug(NULL, objp, "%s: %p is not a live kmalloc object", fn, objp);
}

static __always_inline void __kfree(const void *objp, unsigned long caller)
{
	struct kmem_cache *cachep;
	struct page *page;

	if (unlikely(!objp))
		return;
	cachep = kmalloc_owner(objp, "kfree", &page);
	if (likely(cachep)) {
		__cache_free(cachep, (void *)objp, caller);
		return;
	}
	page->owner_data[0] = 0;
	__free_pages(page, (unsigned int)page->private);
}

void kfree(const void *objp)
{
	__kfree(objp, MM_RET_IP);
}

size_t ksize(const void *objp)
{
	struct kmem_cache *cachep;
	struct page *page;

	if (!objp)
		return 0;
	cachep = kmalloc_owner(objp, "ksize", &page);
	/* LAB kmalloc: BEGIN the usable size: the class's, or the whole block of pages */
	return cachep ? cachep->object_size : PAGE_SIZE << page->private;
	/* LAB kmalloc: END */
}

void *krealloc(const void *p, size_t new_size, gfp_t flags)
{
	/* LAB kmalloc: BEGIN resize in place while the new size fits, else move the contents */
	size_t old;
	void *ret;

	if (!p)
		return __kmalloc(new_size, flags, MM_RET_IP);
	if (!new_size) {
		__kfree(p, MM_RET_IP);
		return NULL;
	}
	old = ksize(p);
	if (old >= new_size)
		return (void *)p;
	ret = __kmalloc(new_size, flags, MM_RET_IP);
	if (ret) {
		memcpy(ret, p, old);
		__kfree(p, MM_RET_IP);
	}
	return ret;
	/* LAB kmalloc: END */
}
