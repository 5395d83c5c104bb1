/*
 * mm/mm.h - struct page and the conversions around it.
 *
 * One struct page describes each physical page frame, in one array,
 * mem_map, indexed by page frame number: page_to_pfn and pfn_to_page are
 * pointer arithmetic.  It must stay small (32 bytes: one per 4 KiB page is
 * 0.8% of RAM), so its fields are shared by the owners a page can have:
 *
 *   state            flags             _count  private   lru
 *   reserved/hole    PG_reserved       1       -         -
 *   free, buddy head PG_buddy          0       order     zone free_area list
 *   free, buddy tail -                 0       -         -
 *   free, per-CPU    -                 0       -         pcp list
 *   allocated head   -                 >= 1    order     owner's
 *   slab page        PG_slab           >= 1    order     slab's
 *
 * The zone and node of a page live in the top bits of flags, so that
 * page_zone() needs no search.  virtual holds the kmap address of a
 * highmem page while it is mapped (lowmem pages compute theirs).
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "asm/page.h"
#include "lib/bitops.h"
#include "lib/compiler.h"
#include "lib/list.h"
#include "lib/types.h"
#include "mm/gfp.h"

/*
 * MM_DEBUG: the allocators' debugging checks, which a production Linux
 * compiles out (CONFIG_DEBUG_VM's page checks on the per-CPU fast paths,
 * DEBUG_SLAB's red zones and poison, the checks of what is freed, the
 * might_sleep() reports): 1, the default, in every build the tests run
 * (the boot matrix, the host suites); 0 only where the benchmark measures
 * a production build (make bench-host).  The slow paths keep their
 * checks either way.
 */
#ifndef MM_DEBUG
#define MM_DEBUG 1
#endif

/*
 * The address an allocator's entry point was called from, for slab owner
 * tracking (slab_debug=U), which only an MM_DEBUG build has: 0 in a
 * production build, whose entry points then need no frame to find it.
 */
#define MM_RET_IP (MM_DEBUG ? _RET_IP_ : 0UL)

struct page {
	unsigned long flags;
	int _count;
	unsigned long private;
	struct list_head lru;
	void *virtual;
	/* Owner-specific words (the slab layer keeps its cache and slab here). */
	unsigned long owner_data[2];
};

enum pageflags {
	PG_reserved,	/* never handed out: a hole, the kernel, firmware */
	PG_buddy,	/* head of a free block in a buddy free_area */
	PG_slab,	/* belongs to the slab allocator */
	PG_head,	/* head of a multi-page allocation (order in private) */
	PG_pcp,		/* free, on a per-CPU list */
	__NR_PAGEFLAGS,
};

/* flags: [zone:2][node:3] at the top, page flags at the bottom */
#define ZONES_SHIFT 2
#define NODES_SHIFT 3
#define MAX_NUMNODES (1 << NODES_SHIFT)
#define ZONES_PGSHIFT (BITS_PER_LONG - ZONES_SHIFT)
#define NODES_PGSHIFT (ZONES_PGSHIFT - NODES_SHIFT)
#define ZONES_MASK ((1UL << ZONES_SHIFT) - 1)
#define NODES_MASK ((1UL << NODES_SHIFT) - 1)

#define PAGEFLAG(name, bit)                                                    \
	static inline bool Page##name(const struct page *p)                 \
	{                                                                   \
		return test_bit(bit, &p->flags);                      \
	}                                                                   \
	__PAGEFLAG_SETCLEAR(name, bit)
#define __PAGEFLAG_SETCLEAR(name, bit)                                         \
	static inline void __SetPage##name(struct page *p)                  \
	{                                                                   \
		__set_bit(bit, &p->flags);                            \
	}                                                                   \
	static inline void __ClearPage##name(struct page *p)                \
	{                                                                   \
		__clear_bit(bit, &p->flags);                          \
	}
PAGEFLAG(Reserved, PG_reserved)
__PAGEFLAG_SETCLEAR(Buddy, PG_buddy)
PAGEFLAG(Slab, PG_slab)
PAGEFLAG(Head, PG_head)
PAGEFLAG(Pcp, PG_pcp)
#undef PAGEFLAG
#undef __PAGEFLAG_SETCLEAR

/*
 * page_is_buddy() tests PG_buddy of a page it may not own, under the
 * zone's lock, which is the bit's lock; the page's owner may be changing
 * its other bits meanwhile (__SetPageHead).  A data race on the word by
 * design, none on the bit (Linux's page_zonenum() asserts as much).
 */
static inline bool PageBuddy(const struct page *p)
{
	return data_race(test_bit(PG_buddy, &p->flags));
}

#define PAGE_FLAGS_MASK ((1UL << __NR_PAGEFLAGS) - 1)

/* The first frame that starts at or above an address; the frame that holds it. */
#define PFN_UP(x) ((unsigned long)(((x) + PAGE_SIZE - 1) >> PAGE_SHIFT))
#define PFN_DOWN(x) ((unsigned long)((x) >> PAGE_SHIFT))

extern struct page *mem_map;
extern unsigned long max_pfn;     /* one past the last page frame with a struct page */
extern unsigned long max_low_pfn; /* one past the last lowmem (linearly mapped) frame */

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn < max_pfn;
}

static inline int page_to_nid(const struct page *page)
{
	return (int)((page->flags >> NODES_PGSHIFT) & NODES_MASK);
}

static inline unsigned int page_zonenum(const struct page *page)
{
	return (unsigned int)((page->flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

static inline void set_page_links(struct page *page, unsigned int zone,
				  int nid)
{
	page->flags &= ~((ZONES_MASK << ZONES_PGSHIFT) |
			 (NODES_MASK << NODES_PGSHIFT));
	page->flags |= ((unsigned long)zone << ZONES_PGSHIFT) |
		       ((unsigned long)nid << NODES_PGSHIFT);
}

static inline int page_count(const struct page *page)
{
	return __atomic_load_n(&page->_count, __ATOMIC_RELAXED);
}

static inline void set_page_count(struct page *page, int v)
{
	__atomic_store_n(&page->_count, v, __ATOMIC_RELAXED);
}

static inline void get_page(struct page *page)
{
	__atomic_fetch_add(&page->_count, 1, __ATOMIC_RELAXED);
}

/* Drops a reference; frees the page(s) when it was the last. */
void put_page(struct page *page);

static inline bool PageHighMem(const struct page *page)
{
	return page_to_pfn(page) >= max_low_pfn;
}

/* The kernel virtual address of a page: NULL for an unmapped highmem page. */
static inline void *page_address(const struct page *page)
{
	if (!PageHighMem(page))
		return __va((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT);
	return page->virtual;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

/* A linear-map address to its page (lowmem only; see virt_addr_valid). */
static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page((unsigned long)(__pa(addr) >> PAGE_SHIFT));
}

static inline bool virt_addr_valid(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= PAGE_OFFSET &&
	       (a - PAGE_OFFSET) >> PAGE_SHIFT < max_low_pfn;
}

#endif /* MM_MM_H */
