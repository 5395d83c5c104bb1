/*
 * tests/highmem_test.c - suite "highmem": kmap/kunmap, kmap_atomic and
 * clear_highpage.
 *
 * The lowmem cases run in every boot: kmap of a lowmem page is its linear
 * address and takes no slot.  The others need a HighMem zone (-m above
 * 896M) and skip without one.  Each highmem case takes its pages with
 * GFP_HIGHUSER and checks that they really are highmem (no address until
 * kmapped), so a mapping that worked by accident through the linear map
 * cannot pass.
 *
 * The allocators zero and poison pages through slots of their own
 * (KM_ALLOC, KM_ALLOC_IRQ): three cases allocate and free zeroed pages,
 * lowmem and highmem, while they hold each slot a caller can hold
 * (KM_USER0/1 in a task, KM_IRQ0/1 in a timer), which page_poison=1
 * boots repeat with every page poisoned and checked on the way.
 *
 * The stale-slot case makes kmap() flush while a test hook, run after the
 * flush and before kmap() retakes its lock, kunmaps a page, as a kunmap()
 * on another CPU would: that slot must stay stale.  The kmap_atomic cases
 * check preemption, the slots kmap_atomic_type() picks in a task and in a
 * handler, and debug_kmap, the validator's switch (its reports are the
 * misuse boots of tests/highmem_misuse.c).
 *
 * The race cases run for a second at most: threads bound to one CPU that
 * allocate zeroed highmem pages and check and dirty them through
 * kmap_atomic, preempted by the tick; and a timer that does the same in
 * the tick's interrupt on the CPU of such a thread.
 *
 * The window-full cases take every free slot of the pkmap window (those
 * someone else holds stay theirs: the counts are relative to the slots
 * in use when the case starts) and need LAST_PKMAP + 1 free HighMem
 * pages; they skip without them.  kmap() then sleeps for a page that is
 * not mapped - a thread does that one, and the case checks that it sleeps
 * until a slot is given back - but not for a page that already has a
 * slot.  Slots given back are stale until the window is flushed on every
 * CPU, so mapping the whole window again flushes it.
 */
#include "asm/pgtable.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/highmem.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "tests/ktest.h"

#define PKMAP_END (PKMAP_BASE + LAST_PKMAP * PAGE_SIZE)
#define NR_MANY 64
#define WAIT_JIFFIES (5 * HZ)	/* the longest wait for the kmap thread */

static bool have_highmem(void)
{
	int nid;

	for_each_online_node(nid)
		if (populated_zone(&NODE_DATA(nid)->node_zones[ZONE_HIGHMEM]))
			return true;
	return false;
}

/* A node with a HighMem zone: GFP_HIGHUSER on a node without one takes
 * that node's Normal zone before another node's HighMem. */
static int highmem_node(void)
{
	int nid;

	for_each_online_node(nid)
		if (populated_zone(&NODE_DATA(nid)->node_zones[ZONE_HIGHMEM]))
			return nid;
	return 0;
}

/* The last online CPU: not the case's CPU 0 when there are two. */
static int last_online_cpu(void)
{
	int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

static void need_highmem(struct ktest *t)
{
	if (!have_highmem())
		ktest_skip(t, "no HighMem zone (needs -m above 896M)");
}

static bool in_pkmap(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= PKMAP_BASE && a < PKMAP_END && !(a & ~PAGE_MASK);
}

static bool in_fixmap(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= FIXADDR_START && a <= FIXADDR_TOP && !(a & ~PAGE_MASK);
}

/* A highmem page, unmapped; the case aborts when there is none. */
static struct page *get_highpage(struct ktest *t)
{
	struct page *page = alloc_pages_node(highmem_node(), GFP_HIGHUSER, 0);

	KTEST_ASSERT_NOT_NULL(t, page);
	if (!PageHighMem(page) || page_address(page)) {
		KTEST_FAIL(t, "GFP_HIGHUSER gave pfn %#lx: highmem %d address %p",
			   page_to_pfn(page), PageHighMem(page),
			   page_address(page));
		__free_page(page);
		ktest_abort(t);
	}
	return page;
}

/* Writes seed's pattern into a mapped page. */
static void write_pattern(u32 *p, u32 seed)
{
	for (unsigned int i = 0; i < PAGE_SIZE / sizeof(u32); i++)
		p[i] = seed ^ (i * 2654435761u);
}

/* Fills a page through a kmap with a pattern derived from seed. */
static void fill_page(struct page *page, u32 seed)
{
	write_pattern(kmap(page), seed);
	kunmap(page);
}

/* Index of the first word of a mapped page that is not seed's pattern. */
static long check_pattern(const void *addr, u32 seed)
{
	const u32 *p = addr;

	for (unsigned int i = 0; i < PAGE_SIZE / sizeof(u32); i++)
		if (p[i] != (seed ^ (i * 2654435761u)))
			return (long)i;
	return -1;
}

/* ---- lowmem: always ------------------------------------------------- */

static void kmap_lowmem_is_page_address(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned int slots = kmap_slots_in_use();
	void *addr, *atomic;

	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_FALSE(t, PageHighMem(page));
	addr = kmap(page);
	KTEST_EXPECT_PTR_EQ(t, addr, page_address(page));
	KTEST_EXPECT_PTR_EQ(t, addr, __va(page_to_phys(page)));
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots);
	*(volatile u32 *)addr = 0x12345678;

	atomic = kmap_atomic(page, KM_USER0);
	KTEST_EXPECT_PTR_EQ(t, atomic, page_address(page));
	KTEST_EXPECT_EQ(t, *(volatile u32 *)atomic, 0x12345678u);
	kunmap_atomic(atomic, KM_USER0);

	kunmap(page);
	KTEST_EXPECT_PTR_EQ(t, page_address(page), __va(page_to_phys(page)));
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots);
	__free_page(page);
}

static void clear_highpage_lowmem(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *addr;

	KTEST_ASSERT_NOT_NULL(t, page);
	addr = page_address(page);
	memset(addr, 0xa5, PAGE_SIZE);
	clear_highpage(page);
	KTEST_EXPECT_NULL(t, memchr_inv(addr, 0, PAGE_SIZE));
	__free_page(page);
}

/* ---- highmem --------------------------------------------------------- */

/* A value written through one kmap is read through later ones. */
static void kmap_roundtrip(struct ktest *t)
{
	unsigned int slots = kmap_slots_in_use();
	struct page *page;
	u32 *p, *atomic;

	need_highmem(t);
	page = get_highpage(t);

	p = kmap(page);
	KTEST_EXPECT_TRUE(t, in_pkmap(p));
	KTEST_EXPECT_PTR_EQ(t, page_address(page), p);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots + 1);
	p[0] = 0xdeadbeef;
	p[PAGE_SIZE / sizeof(u32) - 1] = 0xcafef00d;
	kunmap(page);
	KTEST_EXPECT_NULL(t, page_address(page));
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots);

	p = kmap(page);
	KTEST_EXPECT_TRUE(t, in_pkmap(p));
	KTEST_EXPECT_EQ(t, p[0], 0xdeadbeefu);
	KTEST_EXPECT_EQ(t, p[PAGE_SIZE / sizeof(u32) - 1], 0xcafef00du);
	p[1] = 0x600dcafe;
	kunmap(page);

	atomic = kmap_atomic(page, KM_USER0);
	KTEST_EXPECT_TRUE(t, in_fixmap(atomic));
	KTEST_EXPECT_EQ(t, atomic[0], 0xdeadbeefu);
	KTEST_EXPECT_EQ(t, atomic[1], 0x600dcafeu);
	KTEST_EXPECT_EQ(t, atomic[PAGE_SIZE / sizeof(u32) - 1], 0xcafef00du);
	kunmap_atomic(atomic, KM_USER0);

	KTEST_EXPECT_NULL(t, page_address(page));
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots);
	__free_page(page);
}

/* Two kmaps of a page share one address and one slot. */
static void kmap_twice_shares_slot(struct ktest *t)
{
	unsigned int slots = kmap_slots_in_use();
	struct page *page;
	u32 *a, *b;

	need_highmem(t);
	page = get_highpage(t);

	a = kmap(page);
	b = kmap(page);
	KTEST_EXPECT_TRUE(t, in_pkmap(a));
	KTEST_EXPECT_PTR_EQ(t, a, b);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots + 1);
	a[7] = 0x77777777;
	KTEST_EXPECT_EQ(t, b[7], 0x77777777u);

	/* The first kunmap leaves the mapping to the other user. */
	kunmap(page);
	KTEST_EXPECT_PTR_EQ(t, page_address(page), a);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots + 1);
	KTEST_EXPECT_EQ(t, b[7], 0x77777777u);

	/* The last one frees the slot. */
	kunmap(page);
	KTEST_EXPECT_NULL(t, page_address(page));
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots);
	__free_page(page);
}

/*
 * KM_USER0 and KM_USER1 at once map two pages at two addresses, each
 * reading its own data; a slot given back maps the next page (and reads
 * that page, not a stale translation of the previous one).
 */
static void kmap_atomic_two_slots(struct ktest *t)
{
	struct page *pg[3];
	void *a, *b, *c;

	need_highmem(t);
	pg[0] = get_highpage(t);
	pg[1] = alloc_pages_node(highmem_node(), GFP_HIGHUSER, 0);
	pg[2] = alloc_pages_node(highmem_node(), GFP_HIGHUSER, 0);
	if (!pg[1] || !pg[2] || !PageHighMem(pg[1]) || !PageHighMem(pg[2])) {
		KTEST_FAIL(t, "GFP_HIGHUSER did not give three highmem pages");
		goto out;
	}
	for (int i = 0; i < 3; i++)
		fill_page(pg[i], 0x1000u * (u32)(i + 1));

	a = kmap_atomic(pg[0], KM_USER0);
	b = kmap_atomic(pg[1], KM_USER1);
	KTEST_EXPECT_TRUE(t, in_fixmap(a));
	KTEST_EXPECT_TRUE(t, in_fixmap(b));
	KTEST_EXPECT_PTR_NE(t, a, b);
	KTEST_EXPECT_EQ(t, check_pattern(a, 0x1000), -1L);
	KTEST_EXPECT_EQ(t, check_pattern(b, 0x2000), -1L);
	/* kmap_atomic does not touch the pkmap mapping of the page. */
	KTEST_EXPECT_NULL(t, page_address(pg[0]));
	((u32 *)b)[3] = 0xb0b0b0b0;
	kunmap_atomic(a, KM_USER0);

	/* KM_USER0 is free again: the next page gets it. */
	c = kmap_atomic(pg[2], KM_USER0);
	KTEST_EXPECT_PTR_EQ(t, c, a);
	KTEST_EXPECT_EQ(t, check_pattern(c, 0x3000), -1L);
	KTEST_EXPECT_EQ(t, ((u32 *)b)[3], 0xb0b0b0b0u);
	kunmap_atomic(c, KM_USER0);
	kunmap_atomic(b, KM_USER1);

	/* What was written through the atomic slot is in the page. */
	b = kmap(pg[1]);
	KTEST_EXPECT_EQ(t, ((u32 *)b)[3], 0xb0b0b0b0u);
	kunmap(pg[1]);
out:
	for (int i = 0; i < 3; i++)
		if (pg[i])
			__free_page(pg[i]);
}

/* 64 pages kmapped at once: 64 distinct slots of the window. */
static void kmap_many(struct ktest *t)
{
	unsigned int slots = kmap_slots_in_use();
	struct page *pg[NR_MANY];
	u32 *addr[NR_MANY];
	int n;

	need_highmem(t);
	for (n = 0; n < NR_MANY; n++) {
		pg[n] = alloc_pages_node(highmem_node(), GFP_HIGHUSER, 0);
		if (!pg[n] || !PageHighMem(pg[n]))
			break;
	}
	if (n < NR_MANY) {
		KTEST_FAIL(t, "allocation %d of %d highmem pages failed", n + 1,
			   NR_MANY);
		if (pg[n])
			n++;
		goto free;
	}

	for (int i = 0; i < NR_MANY; i++) {
		addr[i] = kmap(pg[i]);
		if (!in_pkmap(addr[i]))
			KTEST_FAIL(t, "kmap %d: %p is outside the pkmap window",
				   i, (void *)addr[i]);
		addr[i][0] = (u32)i;
		addr[i][PAGE_SIZE / sizeof(u32) - 1] = ~(u32)i;
	}
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots + NR_MANY);
	for (int i = 0; i < NR_MANY; i++) {
		for (int j = 0; j < i; j++)
			if (addr[i] == addr[j])
				KTEST_FAIL(t, "kmaps %d and %d share %p", j, i,
					   (void *)addr[i]);
		if (addr[i][0] != (u32)i ||
		    addr[i][PAGE_SIZE / sizeof(u32) - 1] != ~(u32)i)
			KTEST_FAIL(t, "page %d reads %#x/%#x through its kmap", i,
				   addr[i][0], addr[i][PAGE_SIZE / sizeof(u32) - 1]);
		KTEST_EXPECT_PTR_EQ(t, page_address(pg[i]), addr[i]);
	}
	for (int i = 0; i < NR_MANY; i++)
		kunmap(pg[i]);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), slots);
	for (int i = 0; i < NR_MANY; i++)
		if (page_address(pg[i]))
			KTEST_FAIL(t, "page %d still mapped at %p", i,
				   page_address(pg[i]));
free:
	while (n-- > 0)
		__free_page(pg[n]);
}

static void clear_highpage_highmem(struct ktest *t)
{
	struct page *page;
	u8 *p;

	need_highmem(t);
	page = get_highpage(t);
	p = kmap(page);
	memset(p, 0xa5, PAGE_SIZE);
	kunmap(page);

	clear_highpage(page);

	p = kmap(page);
	if (memchr_inv(p, 0, PAGE_SIZE))
		KTEST_FAIL(t, "byte %ld is %#x after clear_highpage",
			   (long)((u8 *)memchr_inv(p, 0, PAGE_SIZE) - p),
			   *(u8 *)memchr_inv(p, 0, PAGE_SIZE));
	kunmap(page);
	KTEST_EXPECT_NULL(t, page_address(page));
	__free_page(page);
}

/* ---- the whole window ------------------------------------------------ */

/* The pages of a full window (and one more), and where they are mapped. */
static struct page *win_page[LAST_PKMAP + 1];
static u32 *win_addr[LAST_PKMAP + 1];

static void free_window_pages(unsigned int n)
{
	while (n-- > 0)
		__free_page(win_page[n]);
}

/*
 * n HighMem pages into win_page[], unmapped; skips the case when the
 * HighMem zone has not that many free (GFP_HIGHUSER falls back to Normal).
 */
static void get_window_pages(struct ktest *t, unsigned int n)
{
	need_highmem(t);
	for (unsigned int i = 0; i < n; i++) {
		struct page *page = alloc_pages_node(highmem_node(),
						     GFP_HIGHUSER, 0);

		if (!page || !PageHighMem(page)) {
			if (page)
				__free_page(page);
			free_window_pages(i);
			ktest_skip(t, "fewer than LAST_PKMAP + 1 free HighMem pages");
		}
		win_page[i] = page;
	}
}

/* kmaps win_page[first..first+n-1], each tagged with its index. */
static void map_window(unsigned int first, unsigned int n)
{
	for (unsigned int i = first; i < first + n; i++) {
		win_addr[i] = kmap(win_page[i]);
		win_addr[i][0] = i;
		win_addr[i][PAGE_SIZE / sizeof(u32) - 1] = ~i;
	}
}

static void unmap_window(unsigned int first, unsigned int n)
{
	for (unsigned int i = first; i < first + n; i++)
		kunmap(win_page[i]);
}

/* A thread that kmaps one page, writes a pattern through it and unmaps. */
struct kmap_waiter {
	struct page *page;
	u32 seed;
	u32 *addr;		/* where kmap() mapped it */
	bool returned;		/* kmap() has returned */
	struct completion done;	/* ... and the page is unmapped again */
};

static int kmap_waiter_fn(void *data)
{
	struct kmap_waiter *w = data;
	u32 *p = kmap(w->page);

	WRITE_ONCE(w->addr, p);
	WRITE_ONCE(w->returned, true);
	write_pattern(p, w->seed);
	kunmap(w->page);
	complete(&w->done);
	ktest_park_until_stopped();
	return 0;
}

/* Polls (bounded) until kmap() has slept more than before times. */
static bool wait_for_kmap_sleep(unsigned long before)
{
	unsigned long end = jiffies + WAIT_JIFFIES;

	while (kmap_sleeps() == before) {
		if (time_after(jiffies, end))
			return false;
		msleep(1);
	}
	return true;
}

/*
 * The window full, a thread's kmap() of one more page sleeps until the
 * case gives a slot back, then gets that slot (the only free one: it was
 * stale, so the window is flushed first) and maps the right page there.
 */
static void kmap_sleeps_when_window_full(struct ktest *t)
{
	static struct kmap_waiter w;
	unsigned int start = kmap_slots_in_use(), n = LAST_PKMAP - start;
	unsigned long sleeps = kmap_sleeps(), flushes;
	struct task_struct *k;
	bool mapped;
	void *freed;
	u32 *p;

	get_window_pages(t, n + 1);
	map_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);

	memset(&w, 0, sizeof(w));
	w.page = win_page[n];
	w.seed = 0x6b6d6170;	/* "kmap" */
	init_completion(&w.done);
	k = kthread_create(kmap_waiter_fn, &w, "kmap_waiter");
	if (IS_ERR(k)) {
		KTEST_FAIL(t, "kthread_create: %ld", PTR_ERR(k));
		unmap_window(0, n);
		free_window_pages(n + 1);
		return;
	}
	kthread_bind(k, (unsigned int)last_online_cpu());
	wake_up_process(k);

	if (!wait_for_kmap_sleep(sleeps))
		KTEST_FAIL(t, "kmap() did not sleep within %d s with the window full",
			   WAIT_JIFFIES / HZ);
	msleep(20);
	KTEST_EXPECT_FALSE(t, READ_ONCE(w.returned));
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);

	/* One slot back: the sleeper takes it. */
	flushes = kmap_window_flushes();
	freed = win_addr[0];
	kunmap(win_page[0]);
	mapped = wait_for_completion_timeout(&w.done, WAIT_JIFFIES) != 0;
	if (mapped) {
		KTEST_EXPECT_PTR_EQ(t, w.addr, freed);
		KTEST_EXPECT_GT(t, kmap_window_flushes(), flushes);
		KTEST_EXPECT_EQ(t, kmap_sleeps(), sleeps + 1);
		KTEST_EXPECT_NULL(t, page_address(w.page));
		KTEST_EXPECT_EQ(t, kmap_slots_in_use(),
				(unsigned int)LAST_PKMAP - 1);
		p = kmap(w.page);
		KTEST_EXPECT_EQ(t, check_pattern(p, w.seed), -1L);
		kunmap(w.page);
	} else {
		KTEST_FAIL(t, "the sleeping kmap() did not take the slot given back within %d s",
			   WAIT_JIFFIES / HZ);
	}
	unmap_window(1, n - 1);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), start);
	/* A thread still asleep has slots now: it must finish at the latest. */
	if (mapped || wait_for_completion_timeout(&w.done, WAIT_JIFFIES)) {
		kthread_stop(k);
		free_window_pages(n + 1);
	} else {
		/* Stuck in kmap(): it keeps its page (and w is static). */
		free_window_pages(n);
	}
}

/* A page that has a slot gets it again at once, even with no slot free. */
static void kmap_mapped_page_when_window_full(struct ktest *t)
{
	unsigned int start = kmap_slots_in_use(), n = LAST_PKMAP - start;
	unsigned long sleeps = kmap_sleeps();
	u32 *again;

	get_window_pages(t, n);
	map_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);

	again = kmap(win_page[n / 2]);
	KTEST_EXPECT_PTR_EQ(t, again, win_addr[n / 2]);
	KTEST_EXPECT_EQ(t, again[0], n / 2);
	KTEST_EXPECT_EQ(t, kmap_sleeps(), sleeps);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);
	kunmap(win_page[n / 2]);
	/* The first kmap still holds it. */
	KTEST_EXPECT_PTR_EQ(t, page_address(win_page[n / 2]), win_addr[n / 2]);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);

	unmap_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), start);
	free_window_pages(n);
}

/*
 * Every slot the first round used is stale once it is unmapped, and
 * there are no clean free ones left: the second round must flush the
 * window before it can map anything.  It maps the pages in another order,
 * and each reads its own tag through its new slot.
 */
static void kmap_flushes_stale_window(struct ktest *t)
{
	unsigned int start = kmap_slots_in_use(), n = LAST_PKMAP - start;
	unsigned long flushes;
	unsigned int wrong = 0;

	get_window_pages(t, n);
	map_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);
	unmap_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), start);

	flushes = kmap_window_flushes();
	for (unsigned int i = n; i-- > 0;)
		win_addr[i] = kmap(win_page[i]);
	KTEST_EXPECT_GT(t, kmap_window_flushes(), flushes);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);
	for (unsigned int i = 0; i < n; i++)
		if (win_addr[i][0] != i ||
		    win_addr[i][PAGE_SIZE / sizeof(u32) - 1] != ~i)
			wrong++;
	KTEST_EXPECT_EQ(t, wrong, 0u);

	unmap_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), start);
	free_window_pages(n);
}

/* What the flush hook unmaps, and how often it ran. */
static struct page *hook_page;
static int hook_runs;

static void unmap_during_flush(void)
{
	hook_runs++;
	kunmap(hook_page);
}

/*
 * A slot that a kunmap() frees while kmap() flushes the window - here the
 * test hook, run once the flush has passed every CPU, stands for a
 * kunmap() on another CPU - may still be in the TLB of a CPU the flush
 * has passed: it must stay stale after that flush, and the next kmap()
 * that needs it must flush again.  (kmap() used to clear every stale mark
 * after its flush, and so forgot that one.)
 */
static void kmap_unmap_during_flush_stays_stale(struct ktest *t)
{
	unsigned int start = kmap_slots_in_use(), n = LAST_PKMAP - start;
	unsigned long flushes;
	u32 *freed_first, *freed_in_flush;

	get_window_pages(t, n + 2);
	map_window(0, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), (unsigned int)LAST_PKMAP);
	KTEST_EXPECT_EQ(t, kmap_stale_slots(), 0u);

	/* One stale slot: the next kmap() flushes, and the hook runs. */
	freed_first = win_addr[0];
	freed_in_flush = win_addr[1];
	kunmap(win_page[0]);
	KTEST_EXPECT_EQ(t, kmap_stale_slots(), 1u);
	hook_page = win_page[1];
	hook_runs = 0;
	flushes = kmap_window_flushes();
	kmap_flush_test_hook = unmap_during_flush;
	win_addr[n] = kmap(win_page[n]);
	kmap_flush_test_hook = NULL;
	KTEST_EXPECT_EQ(t, hook_runs, 1);
	KTEST_EXPECT_EQ(t, kmap_window_flushes(), flushes + 1);
	KTEST_EXPECT_PTR_EQ(t, win_addr[n], freed_first);
	/* The slot freed during the flush is not clean. */
	KTEST_EXPECT_EQ(t, kmap_stale_slots(), 1u);

	/* The only free slot is that one: kmap() must flush to take it. */
	win_addr[n + 1] = kmap(win_page[n + 1]);
	KTEST_EXPECT_EQ(t, kmap_window_flushes(), flushes + 2);
	KTEST_EXPECT_PTR_EQ(t, win_addr[n + 1], freed_in_flush);
	KTEST_EXPECT_EQ(t, kmap_stale_slots(), 0u);
	write_pattern(win_addr[n + 1], 0x51a1e);
	KTEST_EXPECT_EQ(t, check_pattern(win_addr[n + 1], 0x51a1e), -1L);

	unmap_window(2, n);
	KTEST_EXPECT_EQ(t, kmap_slots_in_use(), start);
	free_window_pages(n + 2);
}

/* ---- kmap_atomic: preemption, slots by context, the validator -------- */

/*
 * kmap_atomic raises preempt_count by one until kunmap_atomic, for a
 * lowmem page (which maps nothing) as for a highmem one.
 */
static void kmap_atomic_disables_preemption(struct ktest *t)
{
	struct page *low = alloc_page(GFP_KERNEL), *high = NULL;
	int before = preempt_count();
	void *a;

	KTEST_ASSERT_NOT_NULL(t, low);
	a = kmap_atomic(low, KM_USER0);
	KTEST_EXPECT_EQ(t, preempt_count(), before + 1);
	KTEST_EXPECT_TRUE(t, in_atomic());
	kunmap_atomic(a, KM_USER0);
	KTEST_EXPECT_EQ(t, preempt_count(), before);
	__free_page(low);

	if (!have_highmem())
		return;
	high = get_highpage(t);
	a = kmap_atomic(high, KM_USER1);
	KTEST_EXPECT_TRUE(t, in_fixmap(a));
	KTEST_EXPECT_EQ(t, preempt_count(), before + 1);
	kunmap_atomic(a, KM_USER1);
	KTEST_EXPECT_EQ(t, preempt_count(), before);
	__free_page(high);
}

static struct {
	struct timer_list timer;
	enum km_type type[2];
	bool ran;
} type_timer;

static void record_types(unsigned long unused)
{
	type_timer.type[0] = kmap_atomic_type(0);
	type_timer.type[1] = kmap_atomic_type(1);
	smp_store_release(&type_timer.ran, true);	/* type[] with it */
}

/*
 * The allocator's slots: KM_USER* in a task, interrupts on or off;
 * KM_IRQ* in a handler.
 */
static void kmap_atomic_type_by_context(struct ktest *t)
{
	unsigned long flags;
	enum km_type off0, off1;

	KTEST_EXPECT_EQ(t, (int)kmap_atomic_type(0), (int)KM_USER0);
	KTEST_EXPECT_EQ(t, (int)kmap_atomic_type(1), (int)KM_USER1);
	local_irq_save(flags);
	off0 = kmap_atomic_type(0);
	off1 = kmap_atomic_type(1);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, (int)off0, (int)KM_USER0);
	KTEST_EXPECT_EQ(t, (int)off1, (int)KM_USER1);

	memset(&type_timer, 0, sizeof(type_timer));
	setup_timer(&type_timer.timer, record_types, 0);
	mod_timer(&type_timer.timer, jiffies + 1);
	if (!ktest_wait_until(smp_load_acquire(&type_timer.ran), WAIT_JIFFIES)) {
		del_timer_sync(&type_timer.timer);
		KTEST_FAIL(t, "the timer did not run within %d s", WAIT_JIFFIES / HZ);
		return;
	}
	KTEST_EXPECT_EQ(t, (int)type_timer.type[0], (int)KM_IRQ0);
	KTEST_EXPECT_EQ(t, (int)type_timer.type[1], (int)KM_IRQ1);
}

/*
 * Zeroed pages allocated and freed while the caller holds slot type:
 * lowmem always, highmem when the machine has it.  Each must come back
 * zero; the allocator must take neither the caller's slot nor one its
 * context may hold (before KM_ALLOC it took KM_USER0 and KM_USER1, and
 * KM_IRQ0/1 in a handler: "BUG: kmap_atomic: slot ... while still held").
 */
static int zeroed_allocs_under(enum km_type type, gfp_t gfp)
{
	struct page *holder = alloc_page(gfp), *lo, *hi = NULL;
	int bad = 0;
	void *a, *z;

	if (!holder)
		return -1;
	a = kmap_atomic(holder, type);
	lo = alloc_page(gfp | __GFP_ZERO);
	if (have_highmem())
		hi = alloc_page(gfp | __GFP_HIGHMEM | __GFP_ZERO);
	for (int i = 0; i < 2; i++) {
		struct page *p = i ? hi : lo;

		if (!p)
			continue;
		z = kmap_atomic(p, type == KM_USER0 || type == KM_IRQ0 ?
				   type + 1 : type - 1);
		bad += memchr_inv(z, 0, PAGE_SIZE) != NULL;
		kunmap_atomic(z, type == KM_USER0 || type == KM_IRQ0 ?
				 type + 1 : type - 1);
		__free_page(p);
	}
	kunmap_atomic(a, type);
	__free_page(holder);
	return lo ? bad : -1;
}

static void zeroing_inside_a_tasks_kmap_atomic(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, zeroed_allocs_under(KM_USER0, GFP_ATOMIC), 0);
	KTEST_EXPECT_EQ(t, zeroed_allocs_under(KM_USER1, GFP_ATOMIC), 0);
	KTEST_EXPECT_EQ(t, zeroed_allocs_under(KM_USER0, GFP_KERNEL & ~__GFP_WAIT), 0);
}

static void zeroing_inside_an_irqs_kmap_atomic_with_irqs_off(struct ktest *t)
{
	unsigned long flags;
	int r0, r1;

	/* A task with interrupts off may use the KM_IRQ slots too. */
	local_irq_save(flags);
	r0 = zeroed_allocs_under(KM_IRQ0, GFP_ATOMIC);
	r1 = zeroed_allocs_under(KM_IRQ1, GFP_ATOMIC);
	local_irq_restore(flags);
	KTEST_EXPECT_EQ(t, r0, 0);
	KTEST_EXPECT_EQ(t, r1, 0);
}

static struct {
	struct timer_list timer;
	int result[2];
	bool ran;
} zero_timer;

static void zero_in_a_timer(unsigned long unused)
{
	zero_timer.result[0] = zeroed_allocs_under(KM_IRQ0, GFP_ATOMIC);
	zero_timer.result[1] = zeroed_allocs_under(KM_IRQ1, GFP_ATOMIC);
	smp_store_release(&zero_timer.ran, true);	/* result[] with it */
}

static void zeroing_inside_a_timers_kmap_atomic(struct ktest *t)
{
	memset(&zero_timer, 0, sizeof(zero_timer));
	setup_timer(&zero_timer.timer, zero_in_a_timer, 0);
	mod_timer(&zero_timer.timer, jiffies + 1);
	if (!ktest_wait_until(smp_load_acquire(&zero_timer.ran), WAIT_JIFFIES)) {
		del_timer_sync(&zero_timer.timer);
		KTEST_FAIL(t, "the timer did not run within %d s", WAIT_JIFFIES / HZ);
		return;
	}
	KTEST_EXPECT_EQ(t, zero_timer.result[0], 0);
	KTEST_EXPECT_EQ(t, zero_timer.result[1], 0);
}

/*
 * debug_kmap switches the slot validator: off, KM_IRQ0 with interrupts
 * on (a misuse it reports, see tests/highmem_misuse.c) passes unreported.
 * The validator is on exactly when the boot did not say debug_locks=0
 * (the boot kmap_check_off shows the misuse passing then).
 */
static void kmap_validator_switch(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *a;

	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, kmap_debug_enabled(), lockdep_enabled_at_boot());
	WRITE_ONCE(debug_kmap, false);
	KTEST_EXPECT_FALSE(t, kmap_debug_enabled());
	a = kmap_atomic(page, KM_IRQ0);
	KTEST_EXPECT_PTR_EQ(t, a, page_address(page));
	kunmap_atomic(a, KM_IRQ0);
	WRITE_ONCE(debug_kmap, true);
	KTEST_EXPECT_EQ(t, kmap_debug_enabled(), lockdep_enabled_at_boot());
	__free_page(page);
}

/* ---- kmap_atomic under preemption and interrupts ----------------------- */

#define RACE_JIFFIES HZ		/* the most a race case runs */
#define RACE_ITERS 20000	/* ... and the most a thread loops */
/* Enough forced switches to have seen it: 10, 40 under ktest.soak=1. */
#define RACE_PREEMPTS KTEST_SOAK(10ul, 40ul)
#define RACE_THREADS 2

/* A thread that allocates zeroed highmem pages and dirties them. */
struct zero_racer {
	struct task_struct *task;
	int node;
	gfp_t gfp;
	unsigned long end;	/* jiffies: stop then */
	unsigned long max_iters;
	/* Written by the thread. */
	bool running;		/* in its loop */
	unsigned long iters, highmem, not_zero, no_page;
	unsigned long nivcsw;	/* times it was preempted while looping */
	struct completion done;
};

static struct zero_racer racers[RACE_THREADS];
static bool racers_stop;	/* the case says: enough */

/*
 * Checks that the page is zero and dirties it through the other KM_USER
 * slot, so that a task preempted in either slot is found by the other.
 */
static bool dirty_if_zero(struct page *page)
{
	u8 *p = kmap_atomic(page, KM_USER1);
	bool zero = !memchr_inv(p, 0, PAGE_SIZE);

	memset(p, 0x5a, PAGE_SIZE);
	kunmap_atomic(p, KM_USER1);
	return zero;
}

static int zero_racer_fn(void *data)
{
	struct zero_racer *r = data;
	unsigned long nivcsw = current->nivcsw;

	WRITE_ONCE(r->running, true);
	while (r->iters < r->max_iters && time_before(jiffies, r->end) &&
	       current->nivcsw - nivcsw < RACE_PREEMPTS &&
	       !READ_ONCE(racers_stop)) {
		struct page *page = alloc_pages_node(r->node, r->gfp, 0);

		r->iters++;
		if (!page) {
			r->no_page++;
			continue;
		}
		if (PageHighMem(page))
			r->highmem++;
		if (!dirty_if_zero(page))
			r->not_zero++;
		__free_page(page);
	}
	WRITE_ONCE(r->running, false);
	r->nivcsw = current->nivcsw - nivcsw;
	complete(&r->done);
	ktest_park_until_stopped();
	return 0;
}

/*
 * Starts nr racers, all bound to cpu, allocating with gfp: for a second,
 * RACE_PREEMPTS forced switches or max_iters pages each at most.
 */
static int start_racers(struct ktest *t, int nr, int cpu, gfp_t gfp,
			unsigned long max_iters)
{
	unsigned long end = jiffies + RACE_JIFFIES;
	int n;

	WRITE_ONCE(racers_stop, false);
	for (n = 0; n < nr; n++) {
		struct zero_racer *r = &racers[n];

		memset(r, 0, sizeof(*r));
		r->node = highmem_node();
		r->gfp = gfp;
		r->end = end;
		r->max_iters = max_iters;
		init_completion(&r->done);
		r->task = kthread_create(zero_racer_fn, r, "kmap_racer/%d", n);
		if (IS_ERR(r->task)) {
			KTEST_FAIL(t, "kthread_create: %ld", PTR_ERR(r->task));
			r->task = NULL;
			break;
		}
		kthread_bind(r->task, (unsigned int)cpu);
	}
	/* All woken before one on this CPU takes it (wake-up preemption). */
	preempt_disable();
	for (int i = 0; i < n; i++)
		wake_up_process(racers[i].task);
	preempt_enable();
	return n;
}

/* Waits for n racers (bounded), stops them and checks what they saw. */
static void finish_racers(struct ktest *t, int n)
{
	unsigned long iters = 0, preempted = 0;

	for (int i = 0; i < n; i++) {
		struct zero_racer *r = &racers[i];

		if (!wait_for_completion_timeout(&r->done,
						 RACE_JIFFIES + WAIT_JIFFIES)) {
			KTEST_FAIL(t, "racer %d did not finish within %d s", i,
				   (RACE_JIFFIES + WAIT_JIFFIES) / HZ);
			continue;	/* still running: left as it is */
		}
		kthread_stop(r->task);
		KTEST_EXPECT_GT(t, r->iters, 0ul);
		KTEST_EXPECT_EQ(t, r->not_zero, 0ul);
		KTEST_EXPECT_EQ(t, r->highmem + r->no_page, r->iters);
		iters += r->iters;
		preempted += r->nivcsw;
	}
	ktest_printf(t, "%d thread(s): %lu pages, preempted %lu times", n, iters,
		     preempted);
}

/*
 * Two threads on one CPU allocate GFP_HIGHUSER | __GFP_ZERO pages and
 * check and dirty each through kmap_atomic: the tick preempts them in
 * and out of the KM_USER slots, and a slot taken by a preempted task
 * must not be taken again by the other (kmap_atomic disables preemption:
 * without that, kernel BUG at mm/highmem.c within a second or so).
 */
static void kmap_atomic_two_threads_one_cpu(struct ktest *t)
{
	int n;

	need_highmem(t);
	n = start_racers(t, RACE_THREADS, last_online_cpu(),
			 GFP_HIGHUSER | __GFP_ZERO, RACE_ITERS);
	finish_racers(t, n);
}

/* The timer's runs that are enough: 12, 50 under ktest.soak=1. */
#define IRQ_TICKS KTEST_SOAK(12ul, 50ul)

/* A timer that allocates and frees a highmem page at every tick. */
static struct {
	struct timer_list timer;
	int node;
	bool stop;
	unsigned long ticks, highmem, not_zero, no_page, not_in_irq;
	unsigned long ticks_in_thread;	/* ... that interrupted the racer */
} irq_alloc;

static void irq_alloc_fn(unsigned long unused)
{
	gfp_t gfp = GFP_ATOMIC | __GFP_HIGHMEM;
	struct page *page;

	if (!in_irq())
		irq_alloc.not_in_irq++;
	if (READ_ONCE(racers[0].running) && current == racers[0].task)
		irq_alloc.ticks_in_thread++;
	/* Every other tick zeroed: clear_highpage in the interrupt too. */
	if (irq_alloc.ticks++ & 1)
		gfp |= __GFP_ZERO;
	page = alloc_pages_node(irq_alloc.node, gfp, 0);
	if (!page) {
		irq_alloc.no_page++;
	} else {
		u8 *p = kmap_atomic(page, KM_IRQ0);

		if ((gfp & __GFP_ZERO) && memchr_inv(p, 0, PAGE_SIZE))
			irq_alloc.not_zero++;
		memset(p, 0xa5, PAGE_SIZE);
		kunmap_atomic(p, KM_IRQ0);
		if (PageHighMem(page))
			irq_alloc.highmem++;
		__free_page(page);
	}
	if (!READ_ONCE(irq_alloc.stop))
		mod_timer(&irq_alloc.timer, jiffies + 1);
}

/*
 * A timer allocates and frees a GFP_ATOMIC | __GFP_HIGHMEM page (every
 * other one zeroed) at each tick, on the CPU where a thread does the same
 * with GFP_HIGHUSER | __GFP_ZERO: the allocator maps the pages to zero
 * and (page_poison=1) to poison and check them, in the interrupt and in
 * the task it interrupted, so the two must use different kmap_atomic
 * slots.  (Both used KM_USER0 and KM_USER1: kernel BUG at mm/highmem.c.)
 */
static void kmap_atomic_timer_and_thread(struct ktest *t)
{
	int cpu = last_online_cpu(), n;
	unsigned long end;

	need_highmem(t);
	memset(&irq_alloc, 0, sizeof(irq_alloc));
	irq_alloc.node = highmem_node();
	setup_timer(&irq_alloc.timer, irq_alloc_fn, 0);
	irq_alloc.timer.expires = jiffies + 1;
	n = start_racers(t, 1, cpu, GFP_HIGHUSER | __GFP_ZERO, 10 * RACE_ITERS);
	add_timer_on(&irq_alloc.timer, cpu);
	end = jiffies + RACE_JIFFIES;
	while (READ_ONCE(irq_alloc.ticks_in_thread) < IRQ_TICKS &&
	       time_before(jiffies, end))
		msleep(10);
	WRITE_ONCE(irq_alloc.stop, true);
	WRITE_ONCE(racers_stop, true);
	del_timer_sync(&irq_alloc.timer);
	finish_racers(t, n);
	if (irq_alloc.ticks_in_thread < IRQ_TICKS)
		ktest_printf(t, "only %lu of the timer's runs interrupted the thread",
			     irq_alloc.ticks_in_thread);
	KTEST_EXPECT_GT(t, irq_alloc.ticks_in_thread, 0ul);
	KTEST_EXPECT_EQ(t, irq_alloc.not_in_irq, 0ul);
	KTEST_EXPECT_EQ(t, irq_alloc.not_zero, 0ul);
	KTEST_EXPECT_GT(t, irq_alloc.highmem, 0ul);
	ktest_printf(t, "timer: %lu ticks (%lu in the thread), %lu highmem pages, %lu failures",
		     irq_alloc.ticks, irq_alloc.ticks_in_thread,
		     irq_alloc.highmem, irq_alloc.no_page);
}

static const struct ktest_case highmem_cases[] = {
	KTEST_CASE(kmap_lowmem_is_page_address),
	KTEST_CASE(clear_highpage_lowmem),
	KTEST_CASE(kmap_roundtrip),
	KTEST_CASE(kmap_twice_shares_slot),
	KTEST_CASE(kmap_atomic_two_slots),
	KTEST_CASE(kmap_many),
	KTEST_CASE(clear_highpage_highmem),
	KTEST_CASE(kmap_sleeps_when_window_full),
	KTEST_CASE(kmap_mapped_page_when_window_full),
	KTEST_CASE(kmap_flushes_stale_window),
	KTEST_CASE(kmap_unmap_during_flush_stays_stale),
	KTEST_CASE(kmap_atomic_disables_preemption),
	KTEST_CASE(kmap_atomic_type_by_context),
	KTEST_CASE(zeroing_inside_a_tasks_kmap_atomic),
	KTEST_CASE(zeroing_inside_an_irqs_kmap_atomic_with_irqs_off),
	KTEST_CASE(zeroing_inside_a_timers_kmap_atomic),
	KTEST_CASE(kmap_validator_switch),
	KTEST_CASE(kmap_atomic_two_threads_one_cpu),
	KTEST_CASE(kmap_atomic_timer_and_thread),
	KTEST_END,
};

static const struct ktest_suite highmem_suite = {
	.name = "highmem",
	.cases = highmem_cases,
};
KTEST_SUITE(highmem_suite);
