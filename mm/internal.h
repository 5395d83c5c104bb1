/*
 * mm/internal.h - what the files of mm/ share and nobody else should call.
 */
#ifndef MM_INTERNAL_H
#define MM_INTERNAL_H

#include "mm/mmzone.h"

/* Watermark selection and privileges for get_page_from_freelist(). */
#define ALLOC_WMARK_MIN 0x01
#define ALLOC_WMARK_LOW 0x02
#define ALLOC_WMARK_HIGH 0x04
#define ALLOC_HIGH 0x10 /* __GFP_HIGH: min halved */
#define ALLOC_NO_WATERMARKS 0x20
#define ALLOC_HARDER 0x40 /* cannot sleep (GFP_ATOMIC): a quarter more */

/* Buddy core; zone->lock must be held (asserted). */
void free_one_page_locked(struct page *page, struct zone *zone,
			  unsigned int order);
struct page *rmqueue_locked(struct zone *zone, unsigned int order);
/* count order-0 pages as count rmqueue_locked() calls, a block at a time. */
unsigned int rmqueue_bulk_locked(struct zone *zone, unsigned int count,
				 struct list_head *blocks);
void zone_init_free_lists(struct zone *zone);

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       enum zone_type classzone_idx, int alloc_flags);

/*
 * Walks a zone's free lists and the struct pages they describe, checking
 * every invariant of the buddy allocator.  Returns 0 when all hold, or a
 * negative count of violations, the first of which is described in why.
 */
int zone_check(struct zone *zone, char *why, size_t len);
int check_all_zones(char *why, size_t len);
/*
 * The same over every zone, but stepping over the tails of free blocks
 * and of allocations (their pages are checked as they move), and leaving
 * the merge rule to check_all_zones_merged(): each free block and each
 * other page visited once, for a check after every test.
 */
int check_all_zones_quick(char *why, size_t len);
/* Only the merge rule: no two free buddies left apart, in any zone. */
int check_all_zones_merged(char *why, size_t len);

/* Reports a page in a state it must not be in, then stops the kernel. */
void bad_page(const struct page *page, const char *reason) __noreturn;
/* Flags a page being freed, or handed out, must not have. */
#define PAGE_FLAGS_CHECK_AT_FREE                                            \
	((1UL << PG_reserved) | (1UL << PG_buddy) | (1UL << PG_slab) |      \
	 (1UL << PG_pcp))
#define PAGE_FLAGS_CHECK_AT_PREP                                            \
	(PAGE_FLAGS_CHECK_AT_FREE | (1UL << PG_head))

/* A block being freed: head order matches, nothing reserved/free/slab. */
void free_pages_check(struct page *page, unsigned int order);
/* A block leaving the free lists: every page unowned and unflagged. */
void check_new_pages(struct page *page, unsigned int order);

/*
 * The same checks, with the common case - a single page in the expected
 * state - answered inline on the fast path; anything else (a larger
 * block, or a page that is wrong) goes to the full check and its report.
 * A production build (MM_DEBUG=0, mm/mm.h) leaves single pages
 * unchecked here: Linux 4.7 took these checks off the order-0 fast path
 * unless CONFIG_DEBUG_VM (doing them a batch at a time on refill and
 * drain instead, which mm86 does not); larger blocks are checked always.
 */
static inline void free_page_check_fast(struct page *page, unsigned int order)
{
	if (unlikely(order || (MM_DEBUG && (page->private ||
					    (page->flags & PAGE_FLAGS_CHECK_AT_FREE)))))
		free_pages_check(page, order);
}

static inline void new_page_check_fast(struct page *page, unsigned int order)
{
	if (unlikely(order || (MM_DEBUG && (page_count(page) ||
					    (page->flags & PAGE_FLAGS_CHECK_AT_PREP)))))
		check_new_pages(page, order);
}

/* Order-0 pages bypass the per-CPU lists while set (tests, benchmarks). */
extern bool pcp_bypass;

/*
 * The per-CPU list operations on an explicit zone, so that tests can run
 * them on a private one: take a page from this CPU's hot (or cold) list,
 * refilling it from the buddy lists; put a free page on it, trimming it
 * at high; empty this CPU's lists of the zone.
 */
struct page *pcp_alloc(struct zone *zone, bool cold);
void pcp_free(struct zone *zone, struct page *page, bool cold);
void zone_drain_local(struct zone *zone);

/* Fills or checks the poison of a free page (page_poison=1). */
extern bool page_poisoning;
void poison_pages(struct page *page, unsigned int nr);
void check_poison_pages(struct page *page, unsigned int nr);

/* The failure report's memory summary (mm/vmstat.c). */
void show_free_areas(void);

#endif /* MM_INTERNAL_H */
