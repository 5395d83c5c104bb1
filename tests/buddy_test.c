/*
 * tests/buddy_test.c - suite "buddy": the buddy core of mm/page_alloc.c
 * (rmqueue_locked, rmqueue_bulk_locked, free_one_page_locked), zone_check()
 * and zone_watermark_ok(), on a private zone.
 *
 * The fixture takes one naturally aligned block of 2^10 pages (2^9 if no
 * order-10 block is left) from the real allocator, puts its struct pages
 * back in the state the buddy core expects of free memory (refcount 0,
 * private 0, no page flags) and lays a private struct zone over exactly
 * that block, with the whole block on its free_area[order] list.  The
 * real zones never see what the cases do; at exit the block must be back
 * in the private zone as one piece, and goes back to the real allocator
 * in the state prep_new_page() left it in (refcount 1, private = order,
 * PG_head for order > 0).  Should a case leave the private zone in pieces
 * (an ASSERT, a corruption that was not repaired) the exit reports it and
 * resets the pages itself, so that the real allocator is never handed a
 * damaged block.
 *
 * The cases must reach a verdict whatever the allocator does - they are
 * how a student finds out what is wrong with a buddy allocator.  So the
 * fixture trusts nothing it is handed.  The full check (fixture_sane())
 * walks the free lists of every zone the case uses and checks, before
 * reading a page, that it is one of the block's pages, that each list
 * links back and ends, that each block lies inside the block, and that
 * every page flagged PG_buddy sits on a list (a stale flag makes the next
 * merge list_del() a node that is on no list).  It costs a walk of the
 * whole block, so it runs after every sane_every-th call into the
 * allocator and before every check that reads the lists.  After every
 * call runs the quick check (fixture_sane_near()): the same rules for
 * both ends of each free list the call can have changed, where
 * list_add() puts what a call frees or splits off, and for every page
 * the call can have merged, split or taken (the heads of the ancestors
 * of the block it freed or handed out, and their buddies).  The fixture
 * also knows which pages the case holds (held[]: handed out and not
 * freed), so a free block over one of them, or a block handed out over
 * one, is seen at once.  The first breach fails the case with what was
 * found, and the case stops there: the allocator is never called on
 * lists that would take it outside the block.  A breach of memory safety
 * (lists, flags, memory in use handed out or listed as free) is also
 * reported after the case as a corruption of the kernel
 * (private_zone_breaches(), a KTEST_INVARIANT): an allocator that does
 * it to a private zone does it to the real ones.  A breach away from
 * where the call worked is named by the next full check, at most
 * sane_every calls later and before the case reads a page through the
 * lists.  Likewise a free list that differs from the
 * expected one is reported (the first few differences) and ends the case,
 * as everything after it was worked out from that state; no loop prints
 * more than a few failures.
 *
 * Offsets are page numbers inside the block: the block is aligned to its
 * own size, so an offset is aligned to 2^k exactly when its pfn is, and
 * the buddy of offset x at order k is x ^ (1 << k), as for pfns.  Every
 * expected free list is written out by hand as { offset, order } pairs,
 * or computed from a rule stated next to it (the binary representation of
 * a free range's length, the buddies of a block's ancestors).
 *
 * The watermark cases use a zone that is only a set of counters: the
 * function reads free_pages, lowmem_reserve[] and free_area[].nr_free and
 * nothing else.
 */
#include "kernel/spinlock.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/snapshot.h"
#include "tests/ktest.h"

#define ZONE_NAME "buddy_test"
#define MAX_BLOCK_PAGES (1UL << (MAX_ORDER - 1))

static struct zone pz;		/* the private zone */
static struct page *blk;	/* its first page */
static unsigned long blk_pfn;	/* page_to_pfn(blk) */
static unsigned int blk_order;	/* 10, or 9 when no order-10 block was left */
static unsigned long blk_pages;	/* 1 << blk_order */
static unsigned long blk_links;	/* the block's node and zone bits in flags */

/* The private zones the case has laid over the block (pz first). */
static struct zone *zones[3];
static unsigned int nr_zones;
/* The case found lists it cannot walk: the exit must not call the allocator. */
static bool fixture_broken;
/*
 * The first breach of memory safety a case found in the private zones:
 * a free list that leaves the block or does not link back (a page on two
 * lists), a PG_buddy page on no list, a free block over pages the case
 * holds, a block handed out while its pages were in use.  Each is memory
 * the allocator would hand out twice or lists it would write through
 * blindly; after the case, the kernel reports it as corrupted
 * (private_zone_breaches(), a KTEST_INVARIANT), and the grader gives
 * such a kernel no points.
 */
static char breach[KTEST_CAPTURE_LINE];
/* One bit per page of the block handed out by zalloc() and not freed. */
static u32 held[MAX_BLOCK_PAGES / 32];
/*
 * zalloc() and zfree() run the quick check after every call and the full
 * one after every sane_every-th.  The test itself touches only pages it
 * has checked are in the block, so a longer interval only delays the
 * report of a breach the quick check cannot see.
 */
#define SANE_EVERY 32
static unsigned int sane_every = SANE_EVERY, sane_calls;

/*
 * The checks after a call are told what = NULL and name the call from
 * here, formatted only when one fails (the checks run some 20,000 times
 * a suite).
 */
static struct {
	bool freed;		/* freed a block, or asked for one */
	unsigned long off;
	unsigned int order;
	char buf[64];
} last_call;

static const char *what_str(const char *what)
{
	if (what)
		return what;
	if (last_call.freed)
		snprintf(last_call.buf, sizeof(last_call.buf),
			 "after freeing offset %lu (order %u)", last_call.off,
			 last_call.order);
	else
		snprintf(last_call.buf, sizeof(last_call.buf),
			 "after taking an order-%u block", last_call.order);
	return last_call.buf;
}

/* A free block the test expects: offset in the block, order. */
struct fb {
	unsigned long off;
	unsigned int order;
};

/* ---- the fixture's pages, checked before they are touched ------------- */

/* A breach of memory safety: the case fails and the breach is kept. */
static void __printf(2, 3) fixture_breach(struct ktest *t, const char *fmt, ...)
{
	char msg[KTEST_CAPTURE_LINE];
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	KTEST_FAIL(t, "%s", msg);
	if (!breach[0])
		strscpy(breach, msg, sizeof(breach));
	fixture_broken = true;
}

/* Does [off, off + len) of the block hold a page handed out? */
static bool range_held(unsigned long off, unsigned long len)
{
	for (unsigned long i = off; i < off + len;) {
		if (i % 32 == 0 && off + len - i >= 32) {
			if (held[i / 32])
				return true;
			i += 32;
		} else {
			if (held[i / 32] & (1u << (i % 32)))
				return true;
			i++;
		}
	}
	return false;
}

/* [off, off + len) handed out (set) or given back. */
static void mark_held(unsigned long off, unsigned long len, bool set)
{
	for (unsigned long i = off; i < off + len;) {
		if (i % 32 == 0 && off + len - i >= 32) {
			held[i / 32] = set ? ~0u : 0;
			i += 32;
		} else {
			if (set)
				held[i / 32] |= 1u << (i % 32);
			else
				held[i / 32] &= ~(1u << (i % 32));
			i++;
		}
	}
}

/* Is p &blk[i].lru for some page i of the block?  (Computed, not read.) */
static bool block_lru(const struct list_head *p)
{
	unsigned long a = (unsigned long)p, first = (unsigned long)&blk[0].lru;

	return a >= first && (a - first) % sizeof(struct page) == 0 &&
	       (a - first) / sizeof(struct page) < blk_pages;
}

static unsigned long lru_off(const struct list_head *p)
{
	return ((unsigned long)p - (unsigned long)&blk[0].lru) /
	       sizeof(struct page);
}

/* Is p one of the free-list heads of the private zones in use? */
static bool zone_list_head(const struct list_head *p)
{
	for (unsigned int i = 0; i < nr_zones; i++) {
		unsigned long a = (unsigned long)p;
		unsigned long first =
			(unsigned long)&zones[i]->free_area[0].free_list;

		if (a >= first && (a - first) % sizeof(struct free_area) == 0 &&
		    (a - first) / sizeof(struct free_area) < MAX_ORDER)
			return true;
	}
	return false;
}

/*
 * Both neighbours of lru are pages of the block or list heads of the
 * private zones, and each links back to it.
 */
static bool lru_linked(const struct list_head *lru)
{
	return (block_lru(lru->next) || zone_list_head(lru->next)) &&
	       (block_lru(lru->prev) || zone_list_head(lru->prev)) &&
	       lru->next->prev == lru && lru->prev->next == lru;
}

/* A page flagged PG_buddy must be linked into a list. */
static bool buddy_flag_ok(struct ktest *t, int line, const char *what,
			  unsigned long i)
{
	struct list_head *lru = &blk[i].lru;

	if (!PageBuddy(&blk[i]) || lru_linked(lru))
		return true;
	fixture_breach(t, "line %d: %s: the page at offset %lu says PG_buddy (order %lu) but is on no free list (lru %p, %p)",
		       line, what_str(what), i, blk[i].private, (void *)lru->next,
		       (void *)lru->prev);
	return false;
}

/*
 * An entry of free list o of z is one of the block's pages, and its order-o
 * block fits in the block and holds no page in use; else the breach is
 * printed and kept (fixture_breach), and false returned.
 */
static bool entry_in_block(struct ktest *t, int line, const char *what,
			   const struct zone *z, unsigned int o,
			   const struct list_head *pos)
{
	if (!block_lru(pos)) {
		fixture_breach(t, "line %d: %s: free list %u of %s leads to %p, which is not a page of the block",
			       line, what_str(what), o, z->name, (void *)pos);
		return false;
	}
	if (lru_off(pos) + (1UL << o) > blk_pages) {
		fixture_breach(t, "line %d: %s: free list %u of %s holds an order-%u block at offset %lu, which runs past the block's %lu pages",
			       line, what_str(what), o, z->name, o, lru_off(pos),
			       blk_pages);
		return false;
	}
	if (range_held(lru_off(pos), 1UL << o)) {
		fixture_breach(t, "line %d: %s: free list %u of %s holds an order-%u block at offset %lu, but pages of it are in use: they would be handed out twice",
			       line, what_str(what), o, z->name, o, lru_off(pos));
		return false;
	}
	return true;
}

/*
 * The quick check after one call for a block of order `order`: both ends
 * of every list the call can have changed (that order and up, in every
 * private zone: a wrong merge reaches into the next zone) are pages of
 * the block that link back and whose blocks fit in it, and no page the
 * call can have merged, split or taken says PG_buddy without being on a
 * list.  off: the block the call freed or handed out (off < 0: none).
 */
static bool fixture_sane_near(struct ktest *t, int line, const char *what,
			      long off, unsigned int order)
{
	for (unsigned int i = 0; i < nr_zones; i++) {
		struct zone *z = zones[i];

		for (unsigned int o = order; o < MAX_ORDER; o++) {
			struct list_head *head = &z->free_area[o].free_list;
			struct list_head *end[2] = { head->next, head->prev };

			if (end[0] == head && end[1] == head)
				continue;
			if (!entry_in_block(t, line, what, z, o, end[0]) ||
			    !entry_in_block(t, line, what, z, o, end[1]))
				return false;
			if (end[0]->prev != head || !lru_linked(end[0])) {
				fixture_breach(t, "line %d: %s: free list %u of %s: the entry at offset %lu does not link back to the one before it (a page on two lists?)",
					       line, what_str(what), o, z->name,
					       lru_off(end[0]));
				return false;
			}
			if (end[1]->next != head || !lru_linked(end[1])) {
				fixture_breach(t, "line %d: %s: free list %u of %s: the head's prev is not its last entry",
					       line, what_str(what), o, z->name);
				return false;
			}
		}
	}
	if (off < 0)
		return true;
	for (unsigned int k = order; k <= blk_order; k++) {
		unsigned long anc = (unsigned long)off & ~((1UL << k) - 1);

		if (!buddy_flag_ok(t, line, what, anc) ||
		    (k < blk_order &&
		     !buddy_flag_ok(t, line, what, anc ^ (1UL << k))))
			return false;
	}
	return true;
}

/*
 * The full check: every list of every private zone walks inside the
 * block, links back and ends, each block fits in the block, and every
 * page flagged PG_buddy is linked into a list.  Prints the first breach
 * ("line L: WHAT: ...") and returns false; the caller stops the case.
 */
static bool fixture_sane(struct ktest *t, int line, const char *what)
{
	for (unsigned int i = 0; i < nr_zones; i++) {
		struct zone *z = zones[i];

		for (unsigned int o = 0; o < MAX_ORDER; o++) {
			struct list_head *head = &z->free_area[o].free_list;
			struct list_head *prev = head, *pos = head->next;
			unsigned long n = 0;

			for (; pos != head; prev = pos, pos = pos->next) {
				if (!entry_in_block(t, line, what, z, o, pos))
					return false;
				if (pos->prev != prev) {
					fixture_breach(t, "line %d: %s: free list %u of %s: the entry at offset %lu does not link back to the one before it (a page on two lists?)",
						       line, what_str(what), o, z->name,
						       lru_off(pos));
					return false;
				}
				if (++n > blk_pages) {
					fixture_breach(t, "line %d: %s: free list %u of %s does not end (more than %lu entries)",
						       line, what_str(what), o, z->name,
						       blk_pages);
					return false;
				}
			}
			if (head->prev != prev) {
				fixture_breach(t, "line %d: %s: free list %u of %s: the head's prev is not its last entry",
					       line, what_str(what), o, z->name);
				return false;
			}
		}
	}
	for (unsigned long i = 0; i < blk_pages; i++)
		if (!buddy_flag_ok(t, line, what, i))
			return false;
	return true;
}

/* ---- the fixture ----------------------------------------------------- */

static void reset_pages(struct page *page, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++) {
		page[i].flags = blk_links;
		set_page_count(&page[i], 0);
		page[i].private = 0;
		INIT_LIST_HEAD(&page[i].lru);
	}
}

/* An empty private zone over [start_pfn, start_pfn + pages) of the block. */
static void private_zone_init(struct zone *z, const char *name,
			      unsigned long start_pfn, unsigned long pages)
{
	unsigned int i;

	memset(z, 0, sizeof(*z));
	spin_lock_init(&z->lock);
	zone_init_free_lists(z);
	z->name = name;
	z->zone_start_pfn = start_pfn;
	z->spanned_pages = pages;
	z->present_pages = pages;
	z->managed_pages = pages;
	for (i = 0; i < nr_zones && zones[i] != z; i++)
		;
	if (i == nr_zones && !WARN_ON(nr_zones == ARRAY_SIZE(zones)))
		zones[nr_zones++] = z;
}

/* Frees the block at off into z; stops the case if it broke the lists. */
static void zfree(struct ktest *t, int line, struct zone *z, unsigned long off,
		  unsigned int order)
{
	unsigned long flags;

	mark_held(off, 1UL << order, false);
	spin_lock_irqsave(&z->lock, flags);
	free_one_page_locked(blk + off, z, order);
	spin_unlock_irqrestore(&z->lock, flags);
	last_call.freed = true;
	last_call.off = off;
	last_call.order = order;
	if (!fixture_sane_near(t, line, NULL, (long)off, order) ||
	    (++sane_calls % sane_every == 0 && !fixture_sane(t, line, NULL)))
		ktest_abort(t);
}

/*
 * The offset of the block rmqueue_locked() hands out, or -1 for NULL; a
 * block that is not inside the fixture stops the case.
 */
static long zalloc(struct ktest *t, int line, struct zone *z,
		   unsigned int order)
{
	unsigned long flags;
	struct page *page;

	spin_lock_irqsave(&z->lock, flags);
	page = rmqueue_locked(z, order);
	spin_unlock_irqrestore(&z->lock, flags);
	if (page && (!block_lru(&page->lru) ||
		     lru_off(&page->lru) + (1UL << order) > blk_pages)) {
		fixture_breach(t, "line %d: rmqueue_locked(%s, %u) handed out %p, which is not an order-%u block inside the block",
			       line, z->name, order, (void *)page, order);
		ktest_abort(t);
	}
	if (page && range_held(lru_off(&page->lru), 1UL << order)) {
		fixture_breach(t, "line %d: rmqueue_locked(%s, %u) handed out offset %lu, but pages of it are in use: handed out twice",
			       line, z->name, order, lru_off(&page->lru));
		ktest_abort(t);
	}
	if (page)
		mark_held(lru_off(&page->lru), 1UL << order, true);
	last_call.freed = false;
	last_call.order = order;
	if (!fixture_sane_near(t, line, NULL, page ? page - blk : -1, order) ||
	    (++sane_calls % sane_every == 0 && !fixture_sane(t, line, NULL)))
		ktest_abort(t);
	return page ? (long)(page - blk) : -1;
}

#define ZFREE(t, z, off, order) zfree(t, __LINE__, z, off, order)
#define ZALLOC(t, z, order) zalloc(t, __LINE__, z, order)
#define PZ_FREE(t, off, order) zfree(t, __LINE__, &pz, off, order)
#define PZ_ALLOC(t, order) zalloc(t, __LINE__, &pz, order)

static int buddy_init(struct ktest *t)
{
	unsigned int order = MAX_ORDER - 1;
	struct page *page;

	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
	if (!page) {
		order--;
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, order);
	}
	if (!page) {
		ktest_printf(t, "no free block of order %u or %u", order + 1,
			     order);
		return -1;
	}
	blk = page;
	blk_order = order;
	blk_pages = 1UL << order;
	blk_pfn = page_to_pfn(page);
	blk_links = page->flags & ~PAGE_FLAGS_MASK;
	nr_zones = 0;
	fixture_broken = false;
	memset(held, 0, sizeof(held));
	sane_every = SANE_EVERY;

	/* What prep_new_page() promises of a fresh block. */
	KTEST_EXPECT_EQ(t, page_count(page), 1);
	KTEST_EXPECT_EQ(t, page->private, (unsigned long)order);
	KTEST_EXPECT_TRUE(t, PageHead(page));
	KTEST_EXPECT_EQ(t, blk_pfn & (blk_pages - 1), 0UL);

	reset_pages(blk, blk_pages);
	private_zone_init(&pz, ZONE_NAME, blk_pfn, blk_pages);
	/* Not zfree(): init may not stop a case; the case's first check will. */
	spin_lock_irq(&pz.lock);
	free_one_page_locked(blk, &pz, blk_order);
	spin_unlock_irq(&pz.lock);
	return 0;
}

static void buddy_exit(struct ktest *t)
{
	struct page *page = NULL;

	if (spin_is_locked(&pz.lock)) {
		KTEST_FAIL(t, "the private zone's lock is still held at exit");
		spin_lock_init(&pz.lock);
	}
	/* The allocator gets the zone back only if its lists hold together. */
	if (!fixture_broken && fixture_sane(t, __LINE__, "at exit") &&
	    pz.free_pages == blk_pages &&
	    pz.free_area[blk_order].nr_free == 1) {
		spin_lock_irq(&pz.lock);
		page = rmqueue_locked(&pz, blk_order);
		spin_unlock_irq(&pz.lock);
	}
	if (fixture_broken || t->failed)
		; /* the case said what went wrong */
	else if (page != blk)
		KTEST_FAIL(t, "the private zone is not one order-%u block at exit (free_pages %lu, order-%u blocks %lu): pages reset by hand",
			   blk_order, pz.free_pages, blk_order,
			   pz.free_area[blk_order].nr_free);
	else if (pz.free_pages != 0)
		KTEST_FAIL(t, "the private zone still counts %lu free pages after its only block was taken",
			   pz.free_pages);
	/* Clean whatever a failed case left; a no-op after a good one. */
	reset_pages(blk, blk_pages);
	set_page_count(blk, 1);
	blk->private = blk_order;
	if (blk_order)
		__SetPageHead(blk);
	__free_pages(blk, blk_order);
	blk = NULL;
}

/* ---- checks ---------------------------------------------------------- */

/* "2 0 1 ...": a count per order, for messages. */
static const char *orders_str(const unsigned long *nr, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int o = 0; o < MAX_ORDER && n < len; o++)
		n += (size_t)snprintf(buf + n, len - n, "%s%lu", o ? " " : "",
				      nr[o]);
	return buf;
}

/* The nr_free of each order of z, as orders_str() writes them. */
static const char *nr_free_str(const struct zone *z, char *buf, size_t len)
{
	unsigned long nr[MAX_ORDER];

	for (unsigned int o = 0; o < MAX_ORDER; o++)
		nr[o] = z->free_area[o].nr_free;
	return orders_str(nr, buf, len);
}

/*
 * zone_check() must pass; it reads every page on the lists, so the lists
 * are walked safely first.  Either failure stops the case.
 */
static void assert_zone_ok(struct ktest *t, struct zone *z, int line)
{
	char why[160];
	int ret;

	if (!fixture_sane(t, line, "zone_check"))
		ktest_abort(t);
	ret = zone_check(z, why, sizeof(why));
	if (ret != 0) {
		KTEST_FAIL(t, "line %d: zone_check(%s) = %d: %s", line, z->name,
			   ret, why);
		ktest_abort(t);
	}
}
#define ASSERT_ZONE_OK(t, z) assert_zone_ok(t, z, __LINE__)

#define MAX_DIFFS 2	/* differences printed after the summary */

/*
 * Compares the free lists of z with want[] and returns the number of
 * differences, printing the first "print" of them.  The lists were
 * walked by fixture_sane(): every entry is a page of the block.
 */
static unsigned int free_blocks_diff(struct ktest *t, int line,
				     struct zone *z, const struct fb *want,
				     unsigned int n, unsigned int print)
{
	unsigned long pages = 0;
	unsigned int diffs = 0;

#define DIFF(fmt, ...)                                                      \
	do {                                                                 \
		if (diffs++ < print)                                         \
			KTEST_FAIL(t, "line %d: %s: " fmt, line, z->name,    \
				   ##__VA_ARGS__);                           \
	} while (0)

	for (unsigned int i = 0; i < n; i++)
		pages += 1UL << want[i].order;
	if (z->free_pages != pages)
		DIFF("free_pages is %lu, expected %lu", z->free_pages, pages);

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct list_head *head = &z->free_area[o].free_list, *pos;
		unsigned long expect = 0, seen = 0;

		for (unsigned int i = 0; i < n; i++)
			expect += want[i].order == o;
		if (z->free_area[o].nr_free != expect)
			DIFF("free_area[%u].nr_free is %lu, expected %lu", o,
			     z->free_area[o].nr_free, expect);

		for (pos = head->next; pos != head; pos = pos->next) {
			struct page *page = list_entry(pos, struct page, lru);
			unsigned long off = lru_off(pos);
			bool found = false;

			seen++;
			for (unsigned int i = 0; i < n; i++)
				found |= want[i].off == off && want[i].order == o;
			if (!found)
				DIFF("unexpected order-%u block at offset %lu",
				     o, off);
			if (!PageBuddy(page) || page->private != o)
				DIFF("head at offset %lu on list %u: buddy=%d order=%lu",
				     off, o, PageBuddy(page), page->private);
		}
		if (seen != expect)
			DIFF("free list %u holds %lu blocks, expected %lu", o,
			     seen, expect);
	}
	return diffs;
#undef DIFF
}

/*
 * The free lists of z hold exactly the blocks in want[] (any order within
 * a list), nr_free and free_pages agree, and each head says PG_buddy and
 * its order.  If not: one line with the counts found and expected, the
 * first MAX_DIFFS differences, and the case stops, as what it does next
 * was worked out from this state.
 */
static void assert_free_blocks(struct ktest *t, int line, struct zone *z,
			       const struct fb *want, unsigned int n)
{
	unsigned long expected[MAX_ORDER] = { 0 };
	char got_s[64], want_s[64];
	unsigned int diffs;

	if (!fixture_sane(t, line, "checking the free lists"))
		ktest_abort(t);
	diffs = free_blocks_diff(t, line, z, want, n, 0);
	if (!diffs)
		return;
	for (unsigned int i = 0; i < n; i++)
		expected[want[i].order]++;
	KTEST_FAIL(t, "line %d: %s: the free lists are not as expected (%u differences): nr_free by order %s, expected %s",
		   line, z->name, diffs, nr_free_str(z, got_s, sizeof(got_s)),
		   orders_str(expected, want_s, sizeof(want_s)));
	free_blocks_diff(t, line, z, want, n, MAX_DIFFS);
	ktest_abort(t);
}

#define FB(...) ((const struct fb[]){ __VA_ARGS__ })
#define ASSERT_FREE(t, z, ...)                                              \
	assert_free_blocks(t, __LINE__, z, FB(__VA_ARGS__),                 \
			   ARRAY_SIZE(FB(__VA_ARGS__)))
#define ASSERT_EMPTY(t, z) assert_free_blocks(t, __LINE__, z, NULL, 0)
#define ASSERT_WHOLE(t) ASSERT_FREE(t, &pz, { 0, blk_order })

/*
 * Free range [0, m) or [N - m, N) of a block of N = 2^n pages: one free
 * block per set bit of m, so nr_free[k] is bit k of m.
 */
static bool nr_free_is_bits_of(const struct zone *z, unsigned long m)
{
	for (unsigned int k = 0; k < MAX_ORDER; k++)
		if (z->free_area[k].nr_free != ((m >> k) & 1))
			return false;
	return z->free_pages == m;
}

/*
 * What prep_new_page() will demand of every page of a block handed out
 * (the block is inside the fixture: zalloc() checked).  One line at most.
 */
static bool expect_page_taken(struct ktest *t, unsigned long off,
			      unsigned int order)
{
	for (unsigned long i = 0; i < (1UL << order); i++) {
		struct page *p = blk + off + i;

		if (page_count(p) != 0 || (p->flags & PAGE_FLAGS_MASK)) {
			KTEST_FAIL(t, "page %lu of an order-%u block taken at offset %lu: refcount %d flags %#lx",
				   i, order, off, page_count(p),
				   p->flags & PAGE_FLAGS_MASK);
			return false;
		}
	}
	return true;
}

/* ---- freeing merges ---------------------------------------------------- */

static unsigned short perm[MAX_BLOCK_PAGES];

/*
 * Frees every page of the (empty) private zone in perm[] order; the first
 * wrong count stops the case.
 */
static void free_in_order(struct ktest *t, const char *what, bool bits_check)
{
	char nf[64];

	for (unsigned long i = 0; i < blk_pages; i++) {
		PZ_FREE(t, perm[i], 0);
		if (pz.free_pages != i + 1) {
			KTEST_FAIL(t, "%s: free_pages is %lu after %lu frees",
				   what, pz.free_pages, i + 1);
			ktest_abort(t);
		}
		/* Ascending: [0, i+1) free.  Descending: [N-i-1, N) free. */
		if (bits_check && !nr_free_is_bits_of(&pz, i + 1)) {
			KTEST_FAIL(t, "%s: after freeing page %u the free lists do not hold one block per bit of %lu: nr_free by order %s",
				   what, perm[i], i + 1,
				   nr_free_str(&pz, nf, sizeof(nf)));
			ktest_abort(t);
		}
		if (!bits_check && (i & 127) == 127)
			ASSERT_ZONE_OK(t, &pz);
	}
	ASSERT_WHOLE(t);
	ASSERT_ZONE_OK(t, &pz);
}

static void take_all(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, PZ_ALLOC(t, blk_order), 0L);
	ASSERT_EMPTY(t, &pz);
}

static void free_one_by_one_merges_back(struct ktest *t)
{
	unsigned long n = blk_pages, i;

	/* Ascending. */
	take_all(t);
	for (i = 0; i < n; i++)
		perm[i] = (unsigned short)i;
	free_in_order(t, "ascending", true);

	/* Descending. */
	take_all(t);
	for (i = 0; i < n; i++)
		perm[i] = (unsigned short)(n - 1 - i);
	free_in_order(t, "descending", true);

	/* Interleaved: every even page (no two are buddies), then the odd. */
	take_all(t);
	for (i = 0; i < n / 2; i++)
		PZ_FREE(t, 2 * i, 0);
	KTEST_ASSERT_EQ(t, pz.free_area[0].nr_free, n / 2);
	KTEST_ASSERT_EQ(t, pz.free_pages, n / 2);
	for (unsigned int o = 1; o < MAX_ORDER; o++)
		KTEST_ASSERT_EQ(t, pz.free_area[o].nr_free, 0UL);
	/* Page 1 joins page 0: [0,2) has no free buddy [2,4) yet. */
	PZ_FREE(t, 1, 0);
	KTEST_EXPECT_EQ(t, pz.free_area[0].nr_free, n / 2 - 1);
	KTEST_ASSERT_EQ(t, pz.free_area[1].nr_free, 1UL);
	/* Page 3 joins 2, [2,4) joins [0,2), [0,4) stops: 5 is not free. */
	PZ_FREE(t, 3, 0);
	KTEST_EXPECT_EQ(t, pz.free_area[0].nr_free, n / 2 - 2);
	KTEST_EXPECT_EQ(t, pz.free_area[1].nr_free, 0UL);
	KTEST_ASSERT_EQ(t, pz.free_area[2].nr_free, 1UL);
	ASSERT_ZONE_OK(t, &pz);
	for (i = 2; i < n / 2; i++)
		PZ_FREE(t, 2 * i + 1, 0);
	ASSERT_WHOLE(t);
	ASSERT_ZONE_OK(t, &pz);

	/* Bit-reversed: each free lands as far as possible from the last. */
	take_all(t);
	for (i = 0; i < n; i++) {
		unsigned long r = 0;

		for (unsigned int b = 0; b < blk_order; b++)
			if (i & (1UL << b))
				r |= 1UL << (blk_order - 1 - b);
		perm[i] = (unsigned short)r;
	}
	free_in_order(t, "bit-reversed", false);

	/* Random. */
	take_all(t);
	for (i = 0; i < n; i++)
		perm[i] = (unsigned short)i;
	for (i = n - 1; i > 0; i--) {
		unsigned long j = ktest_random_below(t, (u32)(i + 1));
		unsigned short tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	free_in_order(t, "random", false);
}

/* ---- allocation ---------------------------------------------------------- */

static void alloc_every_page_at_order_0(struct ktest *t)
{
	static u8 seen[MAX_BLOCK_PAGES];
	static unsigned short got[MAX_BLOCK_PAGES];
	unsigned long n = 0;
	long off;

	memset(seen, 0, sizeof(seen));
	while ((off = PZ_ALLOC(t, 0)) >= 0) {
		unsigned long pfn = blk_pfn + (unsigned long)off;

		if (n == blk_pages) {
			KTEST_FAIL(t, "more than %lu pages came out of a %lu-page zone",
				   blk_pages, blk_pages);
			break;
		}
		if (!zone_spans_pfn(&pz, pfn) || (unsigned long)off >= blk_pages) {
			KTEST_FAIL(t, "page %lu: pfn %#lx is outside the zone",
				   n, pfn);
			break;
		}
		if (seen[off]++) {
			KTEST_FAIL(t, "page %lu: offset %ld handed out twice", n,
				   off);
			break;
		}
		got[n++] = (unsigned short)off;
		if (!expect_page_taken(t, (unsigned long)off, 0))
			break;
		if (pz.free_pages != blk_pages - n) {
			KTEST_FAIL(t, "free_pages is %lu after %lu allocations",
				   pz.free_pages, n);
			break;
		}
	}
	KTEST_EXPECT_EQ(t, n, blk_pages);
	ASSERT_EMPTY(t, &pz);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, o), -1L);

	for (unsigned long i = 0; i < n; i++)
		PZ_FREE(t, got[i], 0);
	ASSERT_WHOLE(t);
	ASSERT_ZONE_OK(t, &pz);
}

/*
 * A request of order k from the whole block: the block is aligned to 2^k
 * and inside the zone, and what is left is, at every order j from k to
 * the block's order - 1, one free block: the buddy at order j of the
 * order-j block that contains the one handed out.
 */
static void every_order_aligned_and_split(struct ktest *t)
{
	for (unsigned int k = 0; k <= blk_order; k++) {
		struct fb want[MAX_ORDER];
		unsigned int n = 0;
		long off = PZ_ALLOC(t, k);
		unsigned long pfn;

		KTEST_ASSERT_GE(t, off, 0L);
		pfn = blk_pfn + (unsigned long)off;
		KTEST_ASSERT_EQ(t, pfn & ((1UL << k) - 1), 0UL);
		KTEST_ASSERT_TRUE(t, zone_spans_pfn(&pz, pfn));
		KTEST_ASSERT_TRUE(t, zone_spans_pfn(&pz, pfn + (1UL << k) - 1));
		if (!expect_page_taken(t, (unsigned long)off, k))
			ktest_abort(t);
		for (unsigned int j = k; j < blk_order; j++)
			want[n++] = (struct fb){
				(((unsigned long)off >> j) ^ 1) << j, j };
		assert_free_blocks(t, __LINE__, &pz, want, n);
		ASSERT_ZONE_OK(t, &pz);
		PZ_FREE(t, (unsigned long)off, k);
		ASSERT_WHOLE(t);
	}

	/* The order-0 case by its numbers: one block at each order 0..9. */
	{
		long off = PZ_ALLOC(t, 0);

		KTEST_ASSERT_GE(t, off, 0L);
		for (unsigned int j = 0; j < blk_order; j++)
			KTEST_ASSERT_EQ(t, pz.free_area[j].nr_free, 1UL);
		KTEST_ASSERT_EQ(t, pz.free_area[blk_order].nr_free, 0UL);
		KTEST_ASSERT_EQ(t, pz.free_pages, blk_pages - 1);
		PZ_FREE(t, (unsigned long)off, 0);
		ASSERT_WHOLE(t);
	}
}

static void exhaustion_returns_null(struct ktest *t)
{
	unsigned long nr_free[MAX_ORDER];
	long off;

	/* Empty: every order fails and nothing moves. */
	take_all(t);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, o), -1L);
	ASSERT_EMPTY(t, &pz);

	/* One order-10 request on an order-9 zone fails too. */
	if (blk_order < MAX_ORDER - 1) {
		PZ_FREE(t, 0, blk_order);
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, blk_order + 1), -1L);
		ASSERT_WHOLE(t);
		take_all(t);
	}

	/*
	 * 43 pages, no two of the blocks buddies: 0/0 (its buddy 1 is
	 * taken), 2/1 (buddy [0,2) is not a whole order-1 block), 8/3 and
	 * 32/5 (buddies at 0 are order 0).  Nothing of order 6 or more.
	 */
	PZ_FREE(t, 0, 0);
	PZ_FREE(t, 2, 1);
	PZ_FREE(t, 8, 3);
	PZ_FREE(t, 32, 5);
	ASSERT_FREE(t, &pz, { 0, 0 }, { 2, 1 }, { 8, 3 }, { 32, 5 });
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		nr_free[o] = pz.free_area[o].nr_free;
	for (unsigned int o = 6; o < MAX_ORDER; o++) {
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, o), -1L);
		KTEST_ASSERT_EQ(t, pz.free_pages, 43UL);
		for (unsigned int j = 0; j < MAX_ORDER; j++)
			KTEST_ASSERT_EQ(t, pz.free_area[j].nr_free, nr_free[j]);
	}
	ASSERT_ZONE_OK(t, &pz);

	/* Order 4 must split the order-5 block: the other half stays. */
	off = PZ_ALLOC(t, 4);
	KTEST_ASSERT_TRUE(t, off == 32 || off == 48);
	ASSERT_FREE(t, &pz, { 0, 0 }, { 2, 1 }, { 8, 3 },
		    { (unsigned long)(off ^ 16), 4 });
	PZ_FREE(t, (unsigned long)off, 4);
	ASSERT_FREE(t, &pz, { 0, 0 }, { 2, 1 }, { 8, 3 }, { 32, 5 });

	/* Fill the holes back: 1, [4,8), [16,32), [64, N). */
	PZ_FREE(t, 1, 0);
	PZ_FREE(t, 4, 2);
	PZ_FREE(t, 16, 4);
	for (unsigned int o = 6; o < blk_order; o++)
		PZ_FREE(t, 1UL << o, o);
	ASSERT_WHOLE(t);
	ASSERT_ZONE_OK(t, &pz);
}

/* ---- buddies ------------------------------------------------------------- */

static void buddies_merge_neighbours_do_not(struct ktest *t)
{
	take_all(t);

	/* Two buddies of order k, x and x ^ 2^k, make one block of k + 1. */
	for (unsigned int k = 0; k < blk_order; k++) {
		unsigned long b = 1UL << k;

		PZ_FREE(t, 0, k);
		ASSERT_FREE(t, &pz, { 0, k });
		PZ_FREE(t, b, k);
		ASSERT_FREE(t, &pz, { 0, k + 1 });
		KTEST_EXPECT_FALSE(t, PageBuddy(blk + b));
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, k + 1), 0L);

		/* The same from the upper one first. */
		PZ_FREE(t, b, k);
		PZ_FREE(t, 0, k);
		ASSERT_FREE(t, &pz, { 0, k + 1 });
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, k + 1), 0L);
		ASSERT_EMPTY(t, &pz);
	}

	/*
	 * Adjacent blocks that are not buddies stay apart: 2^k and 2^(k+1)
	 * touch, but the buddy of 2^(k+1) is 3 * 2^k (k = 0: pfns 1 and 2).
	 * Filling 0 and 3 * 2^k then merges everything into 4 * 2^k.
	 */
	for (unsigned int k = 0; k + 2 <= blk_order; k++) {
		unsigned long b = 1UL << k;

		PZ_FREE(t, b, k);
		PZ_FREE(t, 2 * b, k);
		ASSERT_FREE(t, &pz, { b, k }, { 2 * b, k });
		PZ_FREE(t, 0, k);
		ASSERT_FREE(t, &pz, { 0, k + 1 }, { 2 * b, k });
		PZ_FREE(t, 3 * b, k);
		ASSERT_FREE(t, &pz, { 0, k + 2 });
		ASSERT_ZONE_OK(t, &pz);
		KTEST_ASSERT_EQ(t, PZ_ALLOC(t, k + 2), 0L);
	}
	ASSERT_EMPTY(t, &pz);
	PZ_FREE(t, 0, blk_order);
	ASSERT_WHOLE(t);
}

/*
 * A buddy outside the zone is never merged with, even when it is a free
 * block of the right order in another zone, on either side of the edge:
 * two private zones over the block's halves, then over [0,5) and [5,N),
 * where pages 4 and 5 are buddies at order 0.  Each pair is freed in both
 * orders, so that each zone's free finds its buddy free across its lower
 * edge once and across its upper edge once.
 */
static void no_merge_across_zone_edge(struct ktest *t)
{
	static struct zone za, zb;
	unsigned int h = blk_order - 1;
	unsigned long half = 1UL << h;

	take_all(t);

	private_zone_init(&za, "buddy_test_lo", blk_pfn, half);
	private_zone_init(&zb, "buddy_test_hi", blk_pfn + half, half);
	for (int upper_first = 1; upper_first >= 0; upper_first--) {
		if (upper_first)
			ZFREE(t, &zb, half, h);
		ZFREE(t, &za, 0, h);
		if (!upper_first)
			ZFREE(t, &zb, half, h);
		ASSERT_FREE(t, &za, { 0, h });
		ASSERT_FREE(t, &zb, { half, h });
		ASSERT_ZONE_OK(t, &za);
		ASSERT_ZONE_OK(t, &zb);
		KTEST_ASSERT_EQ(t, ZALLOC(t, &za, h), 0L);
		KTEST_ASSERT_EQ(t, ZALLOC(t, &zb, h), (long)half);
	}

	private_zone_init(&za, "buddy_test_lo", blk_pfn, 5);
	private_zone_init(&zb, "buddy_test_hi", blk_pfn + 5, blk_pages - 5);
	for (int upper_first = 1; upper_first >= 0; upper_first--) {
		if (upper_first)
			ZFREE(t, &zb, 5, 0);
		ZFREE(t, &za, 4, 0);
		if (!upper_first)
			ZFREE(t, &zb, 5, 0);
		ASSERT_FREE(t, &za, { 4, 0 });
		ASSERT_FREE(t, &zb, { 5, 0 });
		/* Inside za, 0..3 still merge into [0,4), which stops at 4/0. */
		for (unsigned long i = 0; i < 4; i++)
			ZFREE(t, &za, i, 0);
		ASSERT_FREE(t, &za, { 0, 2 }, { 4, 0 });
		ASSERT_ZONE_OK(t, &za);
		ASSERT_ZONE_OK(t, &zb);
		KTEST_ASSERT_EQ(t, ZALLOC(t, &za, 2), 0L);
		KTEST_ASSERT_EQ(t, ZALLOC(t, &za, 0), 4L);
		KTEST_ASSERT_EQ(t, ZALLOC(t, &zb, 0), 5L);
		ASSERT_EMPTY(t, &za);
		ASSERT_EMPTY(t, &zb);
	}

	PZ_FREE(t, 0, blk_order);
	ASSERT_WHOLE(t);
}

/*
 * Page 1, made a page of (node, zone) by its flags' bits, is freed on the
 * lists of zb, a second private zone over the whole block; page 0 is
 * freed into the private zone and must not take page 1 as its buddy:
 * both stay single pages, each on its own zone's list.  Both are taken
 * back and page 1 goes home.
 */
static void apart_from_page_1(struct ktest *t, struct zone *zb, const char *name,
			      int nid, enum zone_type zone)
{
	unsigned long saved = blk[1].flags;

	set_page_links(blk + 1, zone, nid);
	private_zone_init(zb, name, blk_pfn, blk_pages);

	ZFREE(t, zb, 1, 0);
	PZ_FREE(t, 0, 0);
	ASSERT_FREE(t, &pz, { 0, 0 });
	ASSERT_FREE(t, zb, { 1, 0 });
	KTEST_EXPECT_EQ(t, pz.free_pages, 1UL);
	KTEST_EXPECT_EQ(t, zb->free_pages, 1UL);

	/* Take both back (each from its own zone), page 1 home again. */
	KTEST_ASSERT_EQ(t, ZALLOC(t, zb, 0), 1L);
	KTEST_ASSERT_EQ(t, PZ_ALLOC(t, 0), 0L);
	ASSERT_EMPTY(t, zb);
	ASSERT_EMPTY(t, &pz);
	blk[1].flags = saved;
}

/*
 * Firmware that interleaves nodes gives two zones overlapping spans: a
 * page of one node lies inside the other's.  Here the private zone and a
 * second one ("node B") both span the block, and page 1 is node B's: it
 * is not page 0's buddy.  Nor is it when it is of this node but another
 * zone (page_zone_id() is the node and the zone).  Then page 1 is home
 * and the same two frees into the private zone do merge: its node, then
 * its zone, alone kept them apart (a buddy test that never says yes does
 * not pass).
 */
static void no_merge_with_another_nodes_page(struct ktest *t)
{
	static struct zone zb;
	int nid = page_to_nid(blk + 1);
	enum zone_type zone = page_zonenum(blk + 1);

	take_all(t);
	apart_from_page_1(t, &zb, "buddy_test_nodeB",
			  (nid + 1) % MAX_NUMNODES, zone);
	apart_from_page_1(t, &zb, "buddy_test_zoneB", nid,
			  (enum zone_type)((zone + 1) % MAX_NR_ZONES));

	PZ_FREE(t, 1, 0);
	PZ_FREE(t, 0, 0);
	ASSERT_FREE(t, &pz, { 0, 1 });
	KTEST_ASSERT_EQ(t, PZ_ALLOC(t, 1), 0L);
	PZ_FREE(t, 0, blk_order);
	ASSERT_WHOLE(t);
}

/* ---- random stress ------------------------------------------------------- */

/* Operations: 4 phases (2 filling, 2 draining), 24 under ktest.soak=1. */
#define STRESS_OPS KTEST_SOAK(4UL * STRESS_PHASE, 100000UL)
#define STRESS_CHECK_EVERY 4096
#define STRESS_SANE_EVERY 256	/* allocator calls between full checks */
#define STRESS_PHASE 4096

static struct {
	unsigned short off;
	unsigned char order;
} live[MAX_BLOCK_PAGES];

/*
 * With every free buddy merged, a request of order k can be served
 * exactly when some aligned run of 2^k pages is entirely free: such a run
 * is either inside one free block of order >= k, or split into smaller
 * free blocks, the smallest of which would have a free buddy of its own
 * order inside the run.  held[] says which pages are handed out.
 */
static bool free_run_exists(unsigned int k)
{
	unsigned long words = blk_pages / 32;

	if (k >= 5) {
		unsigned long step = 1UL << (k - 5);

		for (unsigned long w = 0; w < words; w += step) {
			bool all_free = true;

			for (unsigned long i = w; i < w + step; i++)
				all_free &= held[i] == 0;
			if (all_free)
				return true;
		}
		return false;
	}
	for (unsigned long w = 0; w < words; w++) {
		u32 word = held[w], m = (u32)((1UL << (1U << k)) - 1);

		if (word == 0)
			return true;
		if (word == ~0u)
			continue;
		for (unsigned int s = 0; s < 32; s += 1U << k)
			if (!((word >> s) & m))
				return true;
	}
	return false;
}

static void random_stress(struct ktest *t)
{
	unsigned long nlive = 0, in_use = 0, allocs = 0, fails = 0, frees = 0;

	sane_every = STRESS_SANE_EVERY;
	for (unsigned long op = 1; op <= STRESS_OPS; op++) {
		/*
		 * Phases of 4096 operations alternate between filling (3 of
		 * 4 operations allocate) and draining (1 of 4), so that the
		 * zone goes through full, fragmented and empty states.
		 */
		bool filling = (op / STRESS_PHASE) % 2 == 0;
		bool do_alloc = nlive == 0 ||
				(in_use < blk_pages &&
				 (ktest_random(t) & 3) < (filling ? 3u : 1u));

		if (do_alloc) {
			/* P(order k) = 2^-(k+1), the rest at the top order. */
			unsigned int k = (unsigned int)__builtin_ctz(
				ktest_random(t) | (1U << blk_order));
			long off = PZ_ALLOC(t, k);

			if (off < 0) {
				fails++;
				if (free_run_exists(k)) {
					KTEST_FAIL(t, "op %lu: order-%u request failed with an aligned free run of %lu pages",
						   op, k, 1UL << k);
					ktest_abort(t);
				}
			} else {
				unsigned long o = (unsigned long)off;

				allocs++;
				/* zalloc() saw it inside and over no live block. */
				if (o & ((1UL << k) - 1)) {
					KTEST_FAIL(t, "op %lu: order-%u block at offset %lu is misaligned",
						   op, k, o);
					ktest_abort(t);
				}
				if (!expect_page_taken(t, o, k))
					ktest_abort(t);
				live[nlive].off = (unsigned short)o;
				live[nlive].order = (unsigned char)k;
				nlive++;
				in_use += 1UL << k;
			}
		} else {
			unsigned long i = ktest_random_below(t, (u32)nlive);
			unsigned long o = live[i].off;
			unsigned int k = live[i].order;

			live[i] = live[--nlive];
			in_use -= 1UL << k;
			PZ_FREE(t, o, k);
			frees++;
		}
		/*
		 * Half way through the first draining phase, random frees have
		 * left the full block fragmented: a picture for the report
		 * (the block's pages show the private zone's states).
		 */
		if (op == STRESS_PHASE + STRESS_PHASE / 8)
			mm_snapshot("fragmented");
		if (pz.free_pages != blk_pages - in_use) {
			KTEST_FAIL(t, "op %lu: free_pages is %lu, %lu pages are live",
				   op, pz.free_pages, in_use);
			ktest_abort(t);
		}
		if (op % STRESS_CHECK_EVERY == 0) {
			char why[160];
			int ret;

			if (!fixture_sane(t, __LINE__, "before zone_check"))
				ktest_abort(t);
			ret = zone_check(&pz, why, sizeof(why));

			if (ret) {
				KTEST_FAIL(t, "op %lu: zone_check = %d: %s", op,
					   ret, why);
				ktest_abort(t);
			}
		}
	}
	ASSERT_ZONE_OK(t, &pz);
	ktest_printf(t, "%lu allocations, %lu refused, %lu frees; %lu blocks live at the end",
		     allocs, fails, frees, nlive);
	KTEST_EXPECT_GT(t, fails, 0UL); /* the zone did fill up */

	while (nlive) {
		unsigned long i = ktest_random_below(t, (u32)nlive);

		PZ_FREE(t, live[i].off, live[i].order);
		live[i] = live[--nlive];
	}
	ASSERT_WHOLE(t);
	ASSERT_ZONE_OK(t, &pz);
}

/* ---- taking pages in bulk ------------------------------------------------ */

/*
 * z's list of order o and zr's are the same blocks in the same order,
 * offsets taken relative to each zone's start (delta apart); the first
 * difference is reported.
 */
static bool same_lists(struct ktest *t, const char *when, struct zone *z,
		       struct zone *zr, unsigned long delta)
{
	if (z->free_pages != zr->free_pages) {
		KTEST_FAIL(t, "%s: free_pages %lu one at a time, %lu in bulk",
			   when, z->free_pages, zr->free_pages);
		return false;
	}
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct list_head *ha = &z->free_area[o].free_list;
		struct list_head *hb = &zr->free_area[o].free_list;
		struct list_head *a = ha->next, *b = hb->next;
		unsigned long i = 0;

		if (z->free_area[o].nr_free != zr->free_area[o].nr_free) {
			KTEST_FAIL(t, "%s: free_area[%u].nr_free %lu one at a time, %lu in bulk",
				   when, o, z->free_area[o].nr_free,
				   zr->free_area[o].nr_free);
			return false;
		}
		for (; a != ha && b != hb; a = a->next, b = b->next, i++) {
			struct page *pb = list_entry(b, struct page, lru);

			if (lru_off(a) + delta != lru_off(b) || !PageBuddy(pb) ||
			    pb->private != o) {
				KTEST_FAIL(t, "%s: entry %lu of list %u: offset %lu one at a time, %lu in bulk (buddy=%d order=%lu)",
					   when, i, o, lru_off(a), lru_off(b) - delta,
					   PageBuddy(pb), pb->private);
				return false;
			}
		}
		if (a != ha || b != hb) {
			KTEST_FAIL(t, "%s: list %u is longer %s", when, o,
				   a != ha ? "one at a time" : "in bulk");
			return false;
		}
	}
	return true;
}

/*
 * rmqueue_bulk_locked(z, count) takes the pages that count calls of
 * rmqueue_locked(z, 0) take, in the same order, and leaves the same free
 * lists, list order included.  Two private zones over the block's halves
 * are fragmented alike (every page freed singly but those whose offset
 * in the half is 3 mod 7 or 17 mod 64, so the lists hold blocks of
 * orders 0 to 2 and 17 of the free pages are on no list at all); then
 * both serve the same counts, the low half a page at a time, the high
 * one in bulk: counts that take blocks whole, that split the last one
 * (the rest of it filed as the single takes leave it), and, last, more
 * than is left.  Then each half is one free block again and the same is
 * done from it, split down from order blk_order - 1.  Each bulk block's
 * head says in private how many of its pages were taken; every page
 * taken is unflagged, with refcount 0.
 */
static void bulk_take_is_single_takes(struct ktest *t)
{
	/* Fragmented, then each half one block: rounds 11.. split it. */
	static const unsigned int counts[] = { 1, 2, 3, 5, 31, 7, 64, 13, 100, 1000,
					       1, 31, 6, 100, 1000 };
	static struct zone za, zb;
	static unsigned short seq[MAX_BLOCK_PAGES / 2];
	unsigned int h = blk_order - 1;
	unsigned long half = 1UL << h, kept = 0, taken = 0, nfree;
	char when[48];

	take_all(t);
	private_zone_init(&za, "buddy_test_lo", blk_pfn, half);
	private_zone_init(&zb, "buddy_test_hi", blk_pfn + half, half);
	for (unsigned long i = 0; i < half; i++) {
		if (i % 7 == 3 || i % 64 == 17) {
			kept++;
			continue;
		}
		ZFREE(t, &za, i, 0);
		ZFREE(t, &zb, half + i, 0);
	}
	nfree = half - kept;
	KTEST_ASSERT_EQ(t, za.free_pages, nfree);
	KTEST_ASSERT_TRUE(t, same_lists(t, "fragmented", &za, &zb, half));
	KTEST_EXPECT_EQ(t, za.free_area[3].nr_free, 0UL);
	KTEST_EXPECT_GT(t, za.free_area[2].nr_free, 0UL);

	for (unsigned int c = 0; c < ARRAY_SIZE(counts); c++) {
		unsigned int want = counts[c], got = 0, n, k = 0;
		struct page *head;
		LIST_HEAD(blocks);
		long off;

		if (c == 10) {
			/* The first rounds ran both zones dry. */
			KTEST_EXPECT_EQ(t, taken, nfree);
			KTEST_EXPECT_EQ(t, zb.free_pages, 0UL);
			ZFREE(t, &za, 0, h);
			ZFREE(t, &zb, half, h);
			nfree = half;
			taken = 0;
		}

		while (got < want && (off = ZALLOC(t, &za, 0)) >= 0)
			seq[got++] = (unsigned short)off;
		spin_lock_irq(&zb.lock);
		n = rmqueue_bulk_locked(&zb, want, &blocks);
		spin_unlock_irq(&zb.lock);
		snprintf(when, sizeof(when), "count %u (take %u)", want, c + 1);
		if (!fixture_sane(t, __LINE__, when))
			ktest_abort(t);
		KTEST_EXPECT_EQ(t, n, got);
		KTEST_ASSERT_EQ(t, n, min(want, (unsigned int)(nfree - taken)));
		list_for_each_entry(head, &blocks, lru) {
			unsigned long nr = head->private;

			if (!block_lru(&head->lru) || nr == 0 || nr > n - k) {
				KTEST_FAIL(t, "%s: a bulk block's head %p says %lu pages, %u left to see",
					   when, (void *)head, nr, n - k);
				fixture_broken = true;
				ktest_abort(t);
			}
			for (unsigned long i = 0; i < nr; i++, k++) {
				struct page *p = head + i;

				if ((unsigned long)(p - blk) != seq[k] + half ||
				    page_count(p) || (p->flags & PAGE_FLAGS_MASK) ||
				    (i && p->private)) {
					KTEST_FAIL(t, "%s: page %u taken in bulk is offset %lu (flags %#lx, refcount %d), one at a time took %u",
						   when, k, (unsigned long)(p - blk) - half,
						   p->flags & PAGE_FLAGS_MASK,
						   page_count(p), seq[k]);
					ktest_abort(t);
				}
			}
			head->private = 0;
		}
		KTEST_ASSERT_EQ(t, k, n);
		KTEST_ASSERT_TRUE(t, same_lists(t, when, &za, &zb, half));
		ASSERT_ZONE_OK(t, &za);
		ASSERT_ZONE_OK(t, &zb);
		taken += n;
	}
	/* The last rounds ran both zones dry again. */
	KTEST_EXPECT_EQ(t, taken, nfree);
	KTEST_EXPECT_EQ(t, zb.free_pages, 0UL);

	/* Every page is taken: the block goes back whole. */
	private_zone_init(&za, "buddy_test_lo", blk_pfn, half);
	private_zone_init(&zb, "buddy_test_hi", blk_pfn + half, half);
	reset_pages(blk, blk_pages);
	PZ_FREE(t, 0, blk_order);
	ASSERT_WHOLE(t);
}

/* ---- zone_check catches corruption --------------------------------------- */

static void expect_caught(struct ktest *t, int line, const char *what,
			  const char *word1, const char *word2)
{
	char why[160];
	int ret = zone_check(&pz, why, sizeof(why));

	if (ret >= 0) {
		KTEST_FAIL(t, "line %d: %s: zone_check = %d", line, what, ret);
		return;
	}
	if (!strstr(why, ZONE_NAME) || !strstr(why, word1) ||
	    (word2 && !strstr(why, word2)))
		KTEST_FAIL(t, "line %d: %s: zone_check = %d says \"%s\", expected the zone, \"%s\"%s%s%s",
			   line, what, ret, why, word1, word2 ? " and \"" : "",
			   word2 ? word2 : "", word2 ? "\"" : "");
}
#define EXPECT_CAUGHT(t, what, w1, w2) expect_caught(t, __LINE__, what, w1, w2)

static void zone_check_catches_corruption(struct ktest *t)
{
	char pfn_s[24];
	struct page *head = blk, *tail = blk + 5;
	unsigned long flags;

	ASSERT_ZONE_OK(t, &pz);

	/* PG_buddy on a tail page of the free block. */
	snprintf(pfn_s, sizeof(pfn_s), "%#lx", blk_pfn + 5);
	__SetPageBuddy(tail);
	EXPECT_CAUGHT(t, "PG_buddy on a tail", "tail", pfn_s);
	__ClearPageBuddy(tail);
	ASSERT_ZONE_OK(t, &pz);

	/* A refcount on a tail page. */
	set_page_count(tail, 1);
	EXPECT_CAUGHT(t, "tail refcount", "tail", "refcount 1");
	set_page_count(tail, 0);
	ASSERT_ZONE_OK(t, &pz);

	/* The head's order says 9 on list 10 (8 on list 9). */
	snprintf(pfn_s, sizeof(pfn_s), "%#lx", blk_pfn);
	head->private = blk_order - 1;
	EXPECT_CAUGHT(t, "wrong order in the head", pfn_s, "on list");
	head->private = blk_order;
	ASSERT_ZONE_OK(t, &pz);

	/* A free head with a refcount. */
	set_page_count(head, 1);
	EXPECT_CAUGHT(t, "free head with a refcount", pfn_s, "refcount");
	set_page_count(head, 0);
	ASSERT_ZONE_OK(t, &pz);

	/* nr_free off by one, then free_pages off by one. */
	pz.free_area[3].nr_free++;
	EXPECT_CAUGHT(t, "nr_free bumped", "nr_free", "list 3");
	pz.free_area[3].nr_free--;
	pz.free_pages++;
	EXPECT_CAUGHT(t, "free_pages bumped", "free_pages", NULL);
	pz.free_pages--;
	ASSERT_ZONE_OK(t, &pz);

	/* A stray PG_buddy on a page no list knows. */
	take_all(t);
	__SetPageBuddy(blk + 7);
	EXPECT_CAUGHT(t, "stray PG_buddy", "PG_buddy", NULL);
	__ClearPageBuddy(blk + 7);
	ASSERT_ZONE_OK(t, &pz);

	/*
	 * Two free buddies that were not merged: page 0 freed properly,
	 * page 1 put on list 0 by hand behind the allocator's back.
	 */
	PZ_FREE(t, 0, 0);
	spin_lock_irqsave(&pz.lock, flags);
	blk[1].private = 0;
	__SetPageBuddy(blk + 1);
	list_add(&blk[1].lru, &pz.free_area[0].free_list);
	pz.free_area[0].nr_free++;
	pz.free_pages++;
	spin_unlock_irqrestore(&pz.lock, flags);
	EXPECT_CAUGHT(t, "unmerged buddies", "not merged", NULL);
	spin_lock_irqsave(&pz.lock, flags);
	list_del(&blk[1].lru);
	__ClearPageBuddy(blk + 1);
	pz.free_area[0].nr_free--;
	pz.free_pages--;
	spin_unlock_irqrestore(&pz.lock, flags);
	ASSERT_FREE(t, &pz, { 0, 0 });
	ASSERT_ZONE_OK(t, &pz);

	/* A misaligned block: order 1 at offset 3. */
	snprintf(pfn_s, sizeof(pfn_s), "%#lx", blk_pfn + 3);
	spin_lock_irqsave(&pz.lock, flags);
	blk[3].private = 1;
	__SetPageBuddy(blk + 3);
	list_add(&blk[3].lru, &pz.free_area[1].free_list);
	pz.free_area[1].nr_free++;
	pz.free_pages += 2;
	spin_unlock_irqrestore(&pz.lock, flags);
	EXPECT_CAUGHT(t, "misaligned block", "misaligned", pfn_s);
	spin_lock_irqsave(&pz.lock, flags);
	list_del(&blk[3].lru);
	__ClearPageBuddy(blk + 3);
	blk[3].private = 0;
	pz.free_area[1].nr_free--;
	pz.free_pages -= 2;
	spin_unlock_irqrestore(&pz.lock, flags);
	ASSERT_ZONE_OK(t, &pz);

	/* Back to one block: 0 is free, the rest goes back in pieces. */
	PZ_FREE(t, 1, 0);
	for (unsigned int o = 1; o < blk_order; o++)
		PZ_FREE(t, 1UL << o, o);
	ASSERT_WHOLE(t);
	ASSERT_ZONE_OK(t, &pz);
}

/* ---- zone_watermark_ok ----------------------------------------------------- */

static struct zone wz;

/* Sets nr_free[] and free_pages to match: the function reads only these. */
static void wz_set(const unsigned long *nr_free, unsigned int n)
{
	memset(&wz, 0, sizeof(wz));
	wz.name = "watermark_test";
	for (unsigned int o = 0; o < n; o++) {
		wz.free_area[o].nr_free = nr_free[o];
		wz.free_pages += nr_free[o] << o;
	}
}

struct wm_case {
	int line;
	unsigned long nr_free[4];	/* orders 0..3; higher orders empty */
	unsigned int order;
	unsigned long mark;
	unsigned long reserve;		/* lowmem_reserve[classzone] */
	enum zone_type classzone;
	int alloc_flags;
	bool ok;
};

#define WM(nf0, nf1, nf2, nf3, ord, mk, res, cz, fl, expect)                \
	{ __LINE__, { nf0, nf1, nf2, nf3 }, ord, mk, res, cz, fl, expect }

/*
 * Linux 2.6: free = free_pages - 2^order + 1, min = mark (halved, rounding
 * the half down, for ALLOC_HIGH); fail if free <= min + reserve; then for
 * each order o below the request: free -= pages in order-o blocks,
 * min >>= 1, fail if free <= min.  Every row worked out by hand.
 */
static const struct wm_case wm_cases[] = {
	/* order 0: free_pages must stay above the mark. */
	WM(11, 0, 0, 0, 0, 10, 0, ZONE_NORMAL, 0, true),	/* 11 > 10 */
	WM(10, 0, 0, 0, 0, 10, 0, ZONE_NORMAL, 0, false),	/* 10 > 10 no */
	WM(0, 0, 0, 0, 0, 0, 0, ZONE_NORMAL, 0, false),		/* 0 > 0 no */
	WM(1, 0, 0, 0, 0, 0, 0, ZONE_NORMAL, 0, true),		/* 1 > 0 */
	/* ...plus the reserve against the preferred zone. */
	WM(16, 0, 0, 0, 0, 10, 5, ZONE_NORMAL, 0, true),	/* 16 > 15 */
	WM(15, 0, 0, 0, 0, 10, 5, ZONE_NORMAL, 0, false),	/* 15 > 15 no */
	/* ALLOC_HIGH: min -= min / 2. */
	WM(6, 0, 0, 0, 0, 10, 0, ZONE_NORMAL, ALLOC_HIGH, true),	/* 6 > 5 */
	WM(5, 0, 0, 0, 0, 10, 0, ZONE_NORMAL, ALLOC_HIGH, false),	/* 5 > 5 no */
	WM(7, 0, 0, 0, 0, 11, 0, ZONE_NORMAL, ALLOC_HIGH, true),	/* min 11-5=6 */
	WM(6, 0, 0, 0, 0, 11, 0, ZONE_NORMAL, ALLOC_HIGH, false),
	WM(2, 0, 0, 0, 0, 1, 0, ZONE_NORMAL, ALLOC_HIGH, true),		/* min 1-0=1 */
	WM(1, 0, 0, 0, 0, 1, 0, ZONE_NORMAL, ALLOC_HIGH, false),
	/* The reserve is not halved: 6 > 5 + 3 no, 9 > 8 yes. */
	WM(6, 0, 0, 0, 0, 10, 3, ZONE_DMA, ALLOC_HIGH, false),
	WM(9, 0, 0, 0, 0, 10, 3, ZONE_DMA, ALLOC_HIGH, true),
	/*
	 * order 1, mark 4.  {2,2}: free 6-1 = 5 > 4; 5-2 = 3 > 2 yes.
	 * {4,1}: also 6 pages, free 5 > 4, but 5-4 = 1 > 2 no.
	 */
	WM(2, 2, 0, 0, 1, 4, 0, ZONE_NORMAL, 0, true),
	WM(4, 1, 0, 0, 1, 4, 0, ZONE_NORMAL, 0, false),
	/* order 1, mark 10: {10,3} free 15 > 10, 15-10 = 5 > 5 no. */
	WM(10, 3, 0, 0, 1, 10, 0, ZONE_NORMAL, 0, false),
	WM(10, 4, 0, 0, 1, 10, 0, ZONE_NORMAL, 0, true),	/* 17; 7 > 5 */
	/*
	 * order 3, mark 16 (then 8, 4, 2 at orders 0, 1, 2).
	 * {20,6,2,0}: 40 pages, 33 > 16, 13 > 8, 1 > 4 no (order 1).
	 * {8,2,1,1}: 24 pages, 17 > 16, 9 > 8, 5 > 4, 1 > 2 no (order 2).
	 * {8,2,1,2}: 32 pages, 25, 17, 13, 9: yes.
	 * {0,0,0,3}: 24 pages, 17 > 16 and nothing below: yes.
	 * {0,0,0,2}: 16 pages, 9 > 16 no.
	 */
	WM(20, 6, 2, 0, 3, 16, 0, ZONE_NORMAL, 0, false),
	WM(8, 2, 1, 1, 3, 16, 0, ZONE_NORMAL, 0, false),
	WM(8, 2, 1, 2, 3, 16, 0, ZONE_NORMAL, 0, true),
	WM(0, 0, 0, 3, 3, 16, 0, ZONE_NORMAL, 0, true),
	WM(0, 0, 0, 2, 3, 16, 0, ZONE_NORMAL, 0, false),
	/*
	 * order 2, ALLOC_HIGH, mark 16: min 8, then 4, 2.
	 * {4,1,1}: 10 pages, 7 > 8 no.  {4,1,2}: 14, 11 > 8, 7 > 4, 5 > 2.
	 * The same without ALLOC_HIGH: 11 > 16 no.
	 */
	WM(4, 1, 1, 0, 2, 16, 0, ZONE_NORMAL, ALLOC_HIGH, false),
	WM(4, 1, 2, 0, 2, 16, 0, ZONE_NORMAL, ALLOC_HIGH, true),
	WM(4, 1, 2, 0, 2, 16, 0, ZONE_NORMAL, 0, false),
	/* ALLOC_HIGH with an odd mark: 7 -> 4, then 2: {2,2}: 5 > 4, 3 > 2. */
	WM(2, 2, 0, 0, 1, 7, 0, ZONE_NORMAL, ALLOC_HIGH, true),
	WM(3, 1, 0, 0, 1, 7, 0, ZONE_NORMAL, ALLOC_HIGH, false), /* 4 > 4 no */
	/*
	 * The reserve counts once, at the top, not per order: order 1,
	 * mark 4, reserve 100.  {0,52}: 104-1 = 103 > 104 no; {0,53}: 105
	 * > 104, then 105 > 2 yes.
	 */
	WM(0, 52, 0, 0, 1, 4, 100, ZONE_HIGHMEM, 0, false),
	WM(0, 53, 0, 0, 1, 4, 100, ZONE_HIGHMEM, 0, true),
	/*
	 * ...and is not halved with min below it: {70,25}: 120-1 = 119 >
	 * 104, then 119-70 = 49 > 4/2 yes (49 > (4+100)/2 would say no).
	 */
	WM(70, 25, 0, 0, 1, 4, 100, ZONE_HIGHMEM, 0, true),
	/* Far too little for the order: free goes negative, not huge. */
	WM(5, 0, 0, 0, 3, 0, 0, ZONE_NORMAL, 0, false),		/* 5-7 = -2 */
	WM(0, 0, 0, 1, 3, 0, 0, ZONE_NORMAL, 0, true),		/* 8-7 = 1 > 0 */
	WM(0, 0, 0, 1, 3, 1, 0, ZONE_NORMAL, 0, false),		/* 1 > 1 no */
};

/* The formula again, for the random comparison: Linux 2.6.18's text. */
static bool ref_watermark_ok(const struct zone *z, unsigned int order,
			     unsigned long mark, enum zone_type classzone_idx,
			     int alloc_flags)
{
	long min = (long)mark;
	long free_pages = (long)z->free_pages - (1L << order) + 1;

	if (alloc_flags & ALLOC_HIGH)
		min -= min / 2;
	if (free_pages <= min + (long)z->lowmem_reserve[classzone_idx])
		return false;
	for (unsigned int o = 0; o < order; o++) {
		free_pages -= (long)(z->free_area[o].nr_free << o);
		min >>= 1;
		if (free_pages <= min)
			return false;
	}
	return true;
}

static void watermark_boundaries(struct ktest *t)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(wm_cases); i++) {
		const struct wm_case *c = &wm_cases[i];
		bool ok;

		wz_set(c->nr_free, 4);
		wz.lowmem_reserve[c->classzone] = c->reserve;
		ok = zone_watermark_ok(&wz, c->order, c->mark, c->classzone,
				       c->alloc_flags);
		if (ok != c->ok)
			KTEST_FAIL(t, "line %d: nr_free {%lu,%lu,%lu,%lu} order %u mark %lu reserve %lu flags %#x: %s, expected %s",
				   c->line, c->nr_free[0], c->nr_free[1],
				   c->nr_free[2], c->nr_free[3], c->order,
				   c->mark, c->reserve, c->alloc_flags,
				   ok ? "ok" : "refused",
				   c->ok ? "ok" : "refused");
	}

	/* The reserve of another classzone does not count. */
	{
		static const unsigned long nf[1] = { 11 };

		wz_set(nf, 1);
		wz.lowmem_reserve[ZONE_HIGHMEM] = 1000;
		KTEST_EXPECT_TRUE(t, zone_watermark_ok(&wz, 0, 10, ZONE_NORMAL, 0));
		KTEST_EXPECT_FALSE(t, zone_watermark_ok(&wz, 0, 10, ZONE_HIGHMEM, 0));
	}

	/* A whole order-10 block, nothing else: 1024-1023 = 1 > mark 0. */
	{
		unsigned long nf[MAX_ORDER] = { 0 };

		nf[MAX_ORDER - 1] = 1;
		wz_set(nf, MAX_ORDER);
		KTEST_EXPECT_TRUE(t, zone_watermark_ok(&wz, MAX_ORDER - 1, 0,
						       ZONE_NORMAL, 0));
		KTEST_EXPECT_FALSE(t, zone_watermark_ok(&wz, MAX_ORDER - 1, 1,
							ZONE_NORMAL, 0));
		/* 1023 single pages: 1023-1023 = 0 > 0 no. */
		memset(nf, 0, sizeof(nf));
		nf[0] = 1023;
		wz_set(nf, MAX_ORDER);
		KTEST_EXPECT_FALSE(t, zone_watermark_ok(&wz, MAX_ORDER - 1, 0,
							ZONE_NORMAL, 0));
	}
}

static void watermark_random_states(struct ktest *t)
{
	unsigned long nf[MAX_ORDER];
	unsigned int bad = 0;

	for (unsigned int i = 0; i < 5000; i++) {
		unsigned int order = ktest_random_below(t, MAX_ORDER);
		unsigned long mark = ktest_random_below(t, 512);
		enum zone_type cz = (enum zone_type)ktest_random_below(t, MAX_NR_ZONES);
		int flags = (ktest_random(t) & 1) ? ALLOC_HIGH : 0;
		bool got, want;

		for (unsigned int o = 0; o < MAX_ORDER; o++)
			nf[o] = ktest_random_below(t, 1U << (ktest_random_below(t, 7)));
		wz_set(nf, MAX_ORDER);
		wz.lowmem_reserve[cz] = ktest_random_below(t, 4) ?
						0 : ktest_random_below(t, 300);
		got = zone_watermark_ok(&wz, order, mark, cz, flags);
		want = ref_watermark_ok(&wz, order, mark, cz, flags);
		if (got != want && bad++ < 5)
			KTEST_FAIL(t, "free_pages %lu order %u mark %lu reserve %lu flags %#x: %d, expected %d",
				   wz.free_pages, order, mark,
				   wz.lowmem_reserve[cz], flags, got, want);
	}
	KTEST_EXPECT_EQ(t, bad, 0U);
}

/*
 * After every case, of any suite: the first breach of memory safety the
 * buddy cases found in their private zones (fixture_breach), reported as
 * a corruption of the kernel.  The fixture's exit has put the block's
 * pages back, but an allocator that did this to a private zone does it
 * to the real ones.
 */
static int private_zone_breaches(char *why, size_t len)
{
	return ktest_take_breach(breach, why, len);
}
KTEST_INVARIANT(buddy_private_zones, "the buddy suite's private zones",
		private_zone_breaches);

static const struct ktest_case buddy_cases[] = {
	KTEST_CASE(free_one_by_one_merges_back),
	KTEST_CASE(alloc_every_page_at_order_0),
	KTEST_CASE(every_order_aligned_and_split),
	KTEST_CASE(exhaustion_returns_null),
	KTEST_CASE(buddies_merge_neighbours_do_not),
	KTEST_CASE(no_merge_across_zone_edge),
	KTEST_CASE(no_merge_with_another_nodes_page),
	KTEST_CASE(random_stress),
	KTEST_CASE(bulk_take_is_single_takes),
	KTEST_CASE(zone_check_catches_corruption),
	KTEST_CASE(watermark_boundaries),
	KTEST_CASE(watermark_random_states),
	KTEST_END,
};

static const struct ktest_suite buddy_suite = {
	.name = "buddy",
	.init = buddy_init,
	.exit = buddy_exit,
	.cases = buddy_cases,
};
KTEST_SUITE(buddy_suite);
