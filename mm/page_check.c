/*
 * mm/page_check.c - proof that the buddy allocator's state is consistent:
 * the zone checker, the page state checks, and page poisoning.
 *
 * zone_check() walks a zone's free lists and then its part of mem_map and
 * verifies every invariant that mm/page_alloc.c promises; tests run it
 * after stress, and anyone changing the allocator can call it after each
 * step of a failing sequence.  It reports what it found instead of
 * stopping, so that a test can also show that it catches a corruption.
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
 * per-page checks need none (the pages are the caller's).
 */
#include "kernel/bug.h"
#include "kernel/cmdline.h"
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

static void check_block(struct zone *zone, struct page *page, unsigned int o,
			struct check_state *st)
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
	for (unsigned long i = 1; i < (1UL << o); i++) {
		struct page *t = page + i;

		if (page_count(t) || (t->flags & PAGE_FLAGS_MASK)) {
			violation(st, "%s: tail pfn %#lx of free block %#lx/%u has refcount %d flags %#lx",
				  zone->name, pfn + i, pfn, o, page_count(t),
				  t->flags & PAGE_FLAGS_MASK);
			break;
		}
	}
	if (o < MAX_ORDER - 1) {
		unsigned long bpfn = pfn ^ (1UL << o);

		if (zone_spans_pfn(zone, bpfn) && pfn_valid(bpfn) &&
		    PageBuddy(pfn_to_page(bpfn)) &&
		    pfn_to_page(bpfn)->private == o)
			violation(st, "%s: free buddies %#lx and %#lx of order %u were not merged",
				  zone->name, pfn, bpfn, o);
	}
}

int zone_check(struct zone *zone, char *why, size_t len)
{
	struct check_state st = { why, len, 0 };
	unsigned long flags, pages = 0, heads = 0, buddy_flags = 0;

	if (why && len)
		why[0] = '\0';
	spin_lock_irqsave(&zone->lock, flags);
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct free_area *area = &zone->free_area[o];
		unsigned long n = 0;
		struct page *page;

		list_for_each_entry(page, &area->free_list, lru) {
			check_block(zone, page, o, &st);
			if (++n > zone->spanned_pages) {
				violation(&st,
					  "%s: free list %u loops", zone->name, o);
				break;
			}
		}
		if (n != area->nr_free)
			violation(&st, "%s: list %u holds %lu blocks, nr_free says %lu",
				  zone->name, o, n, area->nr_free);
		pages += n << o;
		heads += n;
	}
	if (pages != zone->free_pages)
		violation(&st, "%s: lists hold %lu pages, free_pages says %lu",
			  zone->name, pages, zone->free_pages);
	for (unsigned long pfn = zone->zone_start_pfn; pfn < zone_end_pfn(zone);
	     pfn++)
		if (pfn_valid(pfn) && PageBuddy(pfn_to_page(pfn)))
			buddy_flags++;
	if (buddy_flags != heads)
		violation(&st, "%s: %lu pages carry PG_buddy, the lists hold %lu blocks",
			  zone->name, buddy_flags, heads);
	spin_unlock_irqrestore(&zone->lock, flags);
	return -st.errors;
}

int check_all_zones(char *why, size_t len)
{
	int nid, errors = 0;
	struct zone *z;

	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			if (!populated_zone(z))
				continue;
			errors += zone_check(z, errors ? NULL : why,
					     errors ? 0 : len);
		}
	return errors;
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
