/*
 * mm/page_check.c - proof that the buddy allocator's state is consistent:
 * the zone checker, the page state checks, and page poisoning.
 *
 * zone_check() walks a zone's part of mem_map and then its free lists and
 * verifies every invariant that mm/page_alloc.c promises; tests run it
 * after stress, anyone changing the allocator can call it after each step
 * of a failing sequence, and ktest runs check_all_zones_quick() and
 * check_all_zones_merged() after every case (tests/resources.c): the
 * first finds what corrupts the lists, the second free buddies left
 * unmerged, a broken rule that corrupts nothing.  It reports what it
 * found instead of stopping, so that a test can also show that it
 * catches a corruption.
 *
 * The walk of mem_map comes first, so that the worst finding is the one
 * reported: a free block head whose order is MAX_ORDER or more (a merge
 * that went one order too far wrote that block's list head past
 * free_area[] and over the zone's own fields, and no list 0..MAX_ORDER-1
 * holds it).  It counts the PG_buddy heads of each order, for the lists
 * to be compared with; it steps over a free block's tail, which the list
 * walk checks.  The quick variant also steps over the tail of an
 * allocation of more than one page (PG_head, its order in private) and
 * leaves free blocks' tails and the merge rule unchecked: it visits each
 * free block and each allocated or reserved page once, instead of every
 * page twice, which after a case is a few thousand pages instead of the
 * whole zone (a stray PG_buddy inside an allocation, or a dirty free
 * tail, is found by free_pages_check() and check_new_pages() when the
 * block moves).
 *
 * Two free blocks can only overlap if a head lies inside another block's
 * tail, which the tail check catches, or if one page is on two lists,
 * which the list-length check catches: so no bitmap is needed.
 *
 * page_poison=1 fills every freed page with PAGE_POISON and checks the
 * pattern when the page is handed out again: a write to a page after it
 * was freed is reported with the offset and the bytes found (2.6.30's
 * generic page poisoning).  Unlike 2.6, highmem pages are poisoned too,
 * in any context: through the allocators' kmap_atomic slot of the
 * context, kmap_alloc_type() (mm/highmem.c).
 *
 * free_pages_check() and check_new_pages() look at one block as it
 * leaves or enters the allocator: a page in the wrong state there is a
 * caller's bug (double free, wrong order, freeing what was never
 * allocated) or a corruption, reported by bad_page() in Linux's words
 * ("BUG: Bad page state") before the kernel stops.
 *
 * Locking: zone_check takes zone->lock (irqsave) for the whole walk; the
 * per-page checks need none (the pages are the caller's).  Cost under
 * QEMU's TCG (the best of 20 walks early in a boot): check_all_zones()
 * 0.2 ms at -m 256M and 0.8 ms at -m 1G, check_all_zones_quick() 15 us
 * and 55 us; on a loaded host several times that.
 */
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/highmem.h"
#include "mm/internal.h"

#define PAGE_POISON 0xaa

struct check_state {
	char *why;
	size_t len;
	int errors;
};

static void __printf(2, 3) violation(struct check_state *st, const char *fmt, ...)
{
	va_list args;

	if (st->errors++ == 0 && st->why) {
		va_start(args, fmt);
		vsnprintf(st->why, st->len, fmt, args);
		va_end(args);
	}
}

/* Free buddies of this order left apart: the merge rule broken. */
static void check_merged(struct zone *zone, struct page *page, unsigned int o,
			 struct check_state *st)
{
	unsigned long pfn = page_to_pfn(page), bpfn = pfn ^ (1UL << o);

	if (o < MAX_ORDER - 1 && zone_spans_pfn(zone, bpfn) &&
	    pfn_valid(bpfn) && PageBuddy(pfn_to_page(bpfn)) &&
	    pfn_to_page(bpfn)->private == o)
		violation(st, "%s: free buddies %#lx and %#lx of order %u were not merged",
			  zone->name, pfn, bpfn, o);
}

static void check_block(struct zone *zone, struct page *page, unsigned int o,
			bool tails, struct check_state *st)
{
	unsigned long pfn = page_to_pfn(page);

	if (pfn & ((1UL << o) - 1))
		violation(st, "%s: order-%u block at pfn %#lx is misaligned",
			  zone->name, o, pfn);
	if (!zone_spans_pfn(zone, pfn) ||
	    !zone_spans_pfn(zone, pfn + (1UL << o) - 1))
		violation(st, "%s: order-%u block at pfn %#lx leaves the zone",
			  zone->name, o, pfn);
	if (!PageBuddy(page) || page->private != o)
		violation(st, "%s: head pfn %#lx on list %u has buddy=%d order=%lu",
			  zone->name, pfn, o, PageBuddy(page), page->private);
	if (page_count(page) != 0 || PageReserved(page) || PageSlab(page))
		violation(st, "%s: free head pfn %#lx has refcount %d flags %#lx",
			  zone->name, pfn, page_count(page), page->flags & PAGE_FLAGS_MASK);
	for (unsigned long i = 1; tails && i < (1UL << o); i++) {
		struct page *t = page + i;

		if (page_count(t) || (t->flags & PAGE_FLAGS_MASK)) {
			violation(st, "%s: tail pfn %#lx of free block %#lx/%u has refcount %d flags %#lx",
				  zone->name, pfn + i, pfn, o, page_count(t),
				  t->flags & PAGE_FLAGS_MASK);
			break;
		}
	}
}

/*
 * How far the walk of mem_map may step from a head of this order at pfn:
 * over the whole block when it is aligned and inside the zone, else to
 * the next page.
 */
static unsigned long block_step(const struct zone *zone, unsigned long pfn,
				unsigned long order)
{
	if (order >= MAX_ORDER || (pfn & ((1UL << order) - 1)) ||
	    pfn + (1UL << order) > zone_end_pfn(zone))
		return 1;
	return 1UL << order;
}

/*
 * The zone's part of mem_map: every PG_buddy page is the head of a free
 * block of an order below MAX_ORDER; heads[] counts them by order.
 * zone->lock held (asserted).
 */
static void walk_mem_map_locked(struct zone *zone, bool quick,
				unsigned long *heads, struct check_state *st)
{
	unsigned long pfn = zone->zone_start_pfn;

	lockdep_assert_held(&zone->lock);
	while (pfn < zone_end_pfn(zone)) {
		struct page *page;

		if (!pfn_valid(pfn)) {
			pfn++;
			continue;
		}
		page = pfn_to_page(pfn);
		if (PageBuddy(page)) {
			if (page->private >= MAX_ORDER)
				violation(st, "%s: pfn %#lx is the head of an order-%lu block (MAX_ORDER is %u)",
					  zone->name, pfn, page->private,
					  MAX_ORDER);
			else
				heads[page->private]++;
			pfn += block_step(zone, pfn, page->private);
		} else if (quick && data_race(PageHead(page))) {
			/*
			 * Its owner may be freeing it, clearing head and
			 * order without zone->lock: any order read here is
			 * this block's or 0, and none of its pages can turn
			 * buddy while we hold the lock.  A data race by design.
			 */
			pfn += block_step(zone, pfn, data_race(page->private));
		} else {
			pfn++;
		}
	}
}

static int __zone_check(struct zone *zone, bool quick, char *why, size_t len)
{
	struct check_state st = { why, len, 0 };
	unsigned long flags, pages = 0;
	unsigned long heads[MAX_ORDER] = { 0 }, listed[MAX_ORDER];

	if (why && len)
		why[0] = '\0';
	spin_lock_irqsave(&zone->lock, flags);
	walk_mem_map_locked(zone, quick, heads, &st);
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct free_area *area = &zone->free_area[o];
		unsigned long n = 0;
		struct page *page;

		list_for_each_entry(page, &area->free_list, lru) {
			check_block(zone, page, o, !quick, &st);
			if (!quick)
				check_merged(zone, page, o, &st);
			if (++n > zone->spanned_pages) {
				violation(&st,
					  "%s: free list %u loops", zone->name, o);
				break;
			}
		}
		if (n != area->nr_free)
			violation(&st, "%s: list %u holds %lu blocks, nr_free says %lu",
				  zone->name, o, n, area->nr_free);
		listed[o] = n;
		pages += n << o;
	}
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		if (heads[o] != listed[o])
			violation(&st, "%s: %lu pages carry PG_buddy with order %u, list %u holds %lu blocks",
				  zone->name, heads[o], o, o, listed[o]);
	if (pages != zone->free_pages)
		violation(&st, "%s: lists hold %lu pages, free_pages says %lu",
			  zone->name, pages, zone->free_pages);
	spin_unlock_irqrestore(&zone->lock, flags);
	return -st.errors;
}

int zone_check(struct zone *zone, char *why, size_t len)
{
	return __zone_check(zone, false, why, len);
}

static int __check_all_zones(bool quick, char *why, size_t len)
{
	int nid, errors = 0;
	struct zone *z;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			if (!populated_zone(z))
				continue;
			errors += __zone_check(z, quick, errors ? NULL : why,
					       errors ? 0 : len);
		}
	return errors;
}

int check_all_zones(char *why, size_t len)
{
	return __check_all_zones(false, why, len);
}

int check_all_zones_quick(char *why, size_t len)
{
	return __check_all_zones(true, why, len);
}

/*
 * Only the merge rule, over every zone's free lists (which the quick
 * check has found sound): no two free buddies left apart.  Broken, it
 * wastes memory to fragmentation but corrupts nothing.
 */
int check_all_zones_merged(char *why, size_t len)
{
	struct check_state st = { why, len, 0 };
	unsigned long flags;
	int nid;
	struct zone *z;

	if (why && len)
		why[0] = '\0';
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			if (!populated_zone(z))
				continue;
			spin_lock_irqsave(&z->lock, flags);
			for (unsigned int o = 0; o < MAX_ORDER - 1; o++) {
				struct page *page;
				unsigned long n = 0;

				list_for_each_entry(page, &z->free_area[o].free_list, lru) {
					check_merged(z, page, o, &st);
					if (++n > z->free_area[o].nr_free)
						break;
				}
			}
			spin_unlock_irqrestore(&z->lock, flags);
		}
	return -st.errors;
}

/* ---- the state of one page, on free and on allocation ----------------- */

static const char *const pageflag_names[__NR_PAGEFLAGS] = {
	[PG_reserved] = "reserved",
	[PG_buddy] = "buddy",
	[PG_slab] = "slab",
	[PG_head] = "head",
	[PG_pcp] = "pcp",
};

void bad_page(const struct page *page, const char *reason)
{
	char names[64] = "";
	size_t len = 0;

	for (unsigned int i = 0; i < __NR_PAGEFLAGS; i++) {
		if (!(page->flags & (1UL << i)))
			continue;
		len += (size_t)snprintf(names + len, sizeof(names) - len,
					"%s%s", len ? "|" : "",
					pageflag_names[i]);
		if (len >= sizeof(names))
			break;
	}
	pr_alert("BUG: Bad page state in process swapper  pfn:%05lx\n",
		 page_to_pfn(page));
	pr_alert("page:%p refcount:%d order:%lu zone:%s node:%d flags:%#lx(%s)\n",
		 (const void *)page, page_count(page), page->private,
		 zone_names[page_zonenum(page)], page_to_nid(page),
		 page->flags & PAGE_FLAGS_MASK, names);
	pr_alert("page dumped because: %s\n", reason);
	dump_stack();
	panic("Bad page state");
}

/*
 * The head keeps its allocation order in private: a free of another order
 * is caught here instead of corrupting the free lists.  Tail pages must be
 * untouched (refcount 0, no flags).
 */
void free_pages_check(struct page *page, unsigned int order)
{
	if (page->flags & PAGE_FLAGS_CHECK_AT_FREE)
		bad_page(page, PageReserved(page) ?
				       "freeing a reserved page: not an allocation" :
				       "freeing a page that is free or owned by the slab");
	if (page->private != order) {
		static char why[80];

		snprintf(why, sizeof(why),
			 "freed with order %u, allocated with order %lu", order,
			 page->private);
		bad_page(page, why);
	}
	for (unsigned long i = 1; i < (1UL << order); i++) {
		struct page *p = page + i;

		if (page_count(p) != 0 || (p->flags & PAGE_FLAGS_CHECK_AT_PREP))
			bad_page(p, "tail page of a freed block in use");
	}
}

void check_new_pages(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		struct page *p = page + i;

		if (page_count(p) != 0 || (p->flags & PAGE_FLAGS_CHECK_AT_PREP))
			bad_page(p, "a page taken from the free lists is in use");
	}
}

/* ---- page poisoning -------------------------------------------------- */

bool page_poisoning;

static int page_poison_setup(const char *val)
{
	if (!val)
		return -EINVAL;
	if (!strcmp(val, "1") || !strcmp(val, "on"))
		page_poisoning = true;
	else if (!strcmp(val, "0") || !strcmp(val, "off"))
		page_poisoning = false;
	else
		return -EINVAL;
	return 0;
}
early_param("page_poison", page_poison_setup);

/*
 * Pages are freed and allocated in interrupt handlers too (GFP_ATOMIC),
 * and inside their callers' kmap_atomic sections: the poison is written
 * and checked through the allocators' slot of the context (KM_ALLOC, or
 * KM_ALLOC_IRQ in a handler), one page at a time, so that it never takes
 * a caller's slot nor one of a task it interrupted.
 */
void poison_pages(struct page *page, unsigned int nr)
{
	enum km_type km = kmap_alloc_type();

	for (unsigned int i = 0; i < nr; i++) {
		void *addr = kmap_atomic(page + i, km);

		memset(addr, PAGE_POISON, PAGE_SIZE);
		kunmap_atomic(addr, km);
	}
}

void check_poison_pages(struct page *page, unsigned int nr)
{
	enum km_type km = kmap_alloc_type();

	for (unsigned int i = 0; i < nr; i++) {
		u8 *addr = kmap_atomic(page + i, km);
		u8 *bad = memchr_inv(addr, PAGE_POISON, PAGE_SIZE);

		if (bad) {
			unsigned int off = (unsigned int)(bad - addr);
			u8 found = *bad;

			kunmap_atomic(addr, km);
			pr_alert("BUG: page poison overwritten: pfn:%05lx offset %#x holds 0x%02x, expected 0x%02x (written after it was freed)\n",
				 page_to_pfn(page + i), off, found, PAGE_POISON);
			dump_stack();
			panic("page poison overwritten");
		}
		kunmap_atomic(addr, km);
	}
}
