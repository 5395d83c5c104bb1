/*
 * mm/slab.h - the slab allocator and kmalloc (Linux 2.6's <linux/slab.h>:
 * 2.6 moved everything here; there is no malloc.h).
 *
 * A cache hands out objects of one size.  It carves slabs - blocks of
 * 2^order pages from the page allocator - into objects, keeps a per-CPU
 * array of free objects in front of them (Bonwick's magazines), and
 * colours its slabs so that objects of different slabs fall on different
 * cache lines.  kmalloc() is a set of caches of fixed sizes, size-32 to
 * size-131072 (2.6.11); larger requests are served from pages here, where
 * 2.6.11 returned NULL (docs/linux-2.6.md).
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include "lib/compiler.h"
#include "lib/types.h"
#include "mm/gfp.h"

/* kmem_cache_create() flags (Linux 2.6's values). */
#define SLAB_RED_ZONE 0x00000400UL	/* guard words around each object */
#define SLAB_POISON 0x00000800UL	/* fill free objects with 0x6b..0xa5 */
#define SLAB_HWCACHE_ALIGN 0x00002000UL	/* align objects to a cache line */
#define SLAB_CACHE_DMA 0x00004000UL	/* slab pages from ZONE_DMA */
#define SLAB_STORE_USER 0x00010000UL	/* remember who allocated and freed */
#define SLAB_PANIC 0x00040000UL		/* panic if the cache cannot be made */
#define SLAB_CONSISTENCY 0x00000100UL	/* sanity checks (slab_debug=F) */

#define SLAB_DEBUG_FLAGS                                                    \
	(SLAB_RED_ZONE | SLAB_POISON | SLAB_STORE_USER | SLAB_CONSISTENCY)

struct kmem_cache;
typedef struct kmem_cache kmem_cache_t;

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned long flags,
				     void (*ctor)(void *obj));
void *kmem_cache_alloc(struct kmem_cache *cachep, gfp_t flags);
void kmem_cache_free(struct kmem_cache *cachep, void *objp);
/* Gives every free slab back; returns the number of pages freed. */
int kmem_cache_shrink(struct kmem_cache *cachep);
void kmem_cache_destroy(struct kmem_cache *cachep);
const char *kmem_cache_name(const struct kmem_cache *cachep);
/* The object size the cache was created with. */
unsigned int kmem_cache_size(const struct kmem_cache *cachep);

/* kmalloc: sizes up to KMALLOC_MAX_CACHE_SIZE from caches, larger from pages. */
#define KMALLOC_MIN_SIZE 32
#define KMALLOC_MAX_CACHE_SIZE 131072
#define ARCH_KMALLOC_MINALIGN 8

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
/*
 * n objects of size bytes, or NULL when n * size does not fit a size_t
 * (Linux 3.4's kmalloc_array: a product that wraps would hand out a
 * small block for a big request); kcalloc zeroes them.
 */
void *kmalloc_array(size_t n, size_t size, gfp_t flags);

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}
void *krealloc(const void *p, size_t new_size, gfp_t flags);
void kfree(const void *objp);
/* The usable size of a kmalloc object (its class size). */
size_t ksize(const void *objp);

/* Pages in every cache's slabs (/proc/meminfo's Slab:).  May sleep. */
unsigned long slab_total_pages(void);

/* Prints /proc/slabinfo (version 2.1). */
void show_slabinfo(void);

/* Gives every cache's free slabs back; returns the pages freed.  May
 * sleep (the list of caches is a mutex). */
unsigned long kmem_cache_reap_all(void);
/* The same for reclaim: 0 at once when the list is busy. */
unsigned long kmem_cache_reap_all_trylock(void);

/* Boot: the cache of caches, then the kmalloc caches. */
void kmem_cache_init(void);

#endif /* MM_SLAB_H */
