/*
 * mm/highmem.c - kmap and kmap_atomic.
 *
 * The pkmap window has LAST_PKMAP slots.  pkmap_count[i] is 0 for a free
 * slot and the number of kmap() users of the page mapped there otherwise;
 * the page remembers its slot's address in page->virtual, so a second
 * kmap() of it finds the mapping in O(1).  kunmap() of the last user
 * clears the PTE at once and flushes this CPU's TLB entry.
 *
 * Other CPUs may still hold the old translation (a thread on another CPU
 * used the mapping), so a slot freed by kunmap() is "stale" until every
 * CPU has flushed it: kmap() takes clean slots first, and when only stale
 * ones are left it flushes the whole window on every CPU (one cross-call
 * for up to LAST_PKMAP slots, Linux's flush_all_zero_pkmaps) and marks
 * them clean.  When every slot is in use kmap() sleeps on pkmap_map_wait
 * until a kunmap() frees one: kmap() may sleep, so it is for task context
 * only (might_sleep); interrupt handlers use kmap_atomic().
 *
 * kmap_atomic() uses the fixmap slot (type, CPU): no lock, no count, but
 * interrupts must not reuse the same type on this CPU while it is held,
 * which is why handlers have KM_IRQ0/KM_IRQ1.
 *
 * Lock order: kmap_lock (irqsave) is a leaf; the cross-call flush and the
 * sleep happen with it dropped.
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/wait.h"
#include "lib/string.h"
#include "mm/highmem.h"

static DEFINE_SPINLOCK(kmap_lock);
static unsigned int pkmap_count[LAST_PKMAP];
/*
 * Staleness by sequence number: pkmap_unmaps counts the kunmaps that
 * freed a slot, pkmap_freed_at[nr] is that count when slot nr was last
 * freed (0: never mapped), and pkmap_flushed the count at the start of
 * the newest completed window flush.  A free slot is stale while
 * pkmap_freed_at[nr] > pkmap_flushed.  64 bits: they never wrap.
 */
static u64 pkmap_unmaps, pkmap_flushed;
static u64 pkmap_freed_at[LAST_PKMAP];
static unsigned int pkmap_used;
static unsigned int last_pkmap_nr;
static unsigned long pkmap_waits, pkmap_flushes;
static DECLARE_WAIT_QUEUE_HEAD(pkmap_map_wait);

static bool pkmap_stale_locked(unsigned int nr)
{
	assert_spin_locked(&kmap_lock);
	return pkmap_count[nr] == 0 && pkmap_freed_at[nr] > pkmap_flushed;
}

/* A free, clean slot for page, or 0; *stale counts the free stale ones. */
static unsigned long map_new_virtual_locked(struct page *page,
					    unsigned int *stale)
{
	assert_spin_locked(&kmap_lock);
	*stale = 0;
	for (unsigned int n = 0; n < LAST_PKMAP; n++) {
		unsigned int nr = (last_pkmap_nr + n) % LAST_PKMAP;

		if (pkmap_count[nr])
			continue;
		if (pkmap_stale_locked(nr)) {
			(*stale)++;
			continue;
		}
		last_pkmap_nr = (nr + 1) % LAST_PKMAP;
		set_kernel_pte(PKMAP_ADDR(nr), page_to_pfn(page));
		page->virtual = (void *)PKMAP_ADDR(nr);
		return PKMAP_ADDR(nr);
	}
	return 0;
}

static void flush_pkmap_window(void *unused)
{
	for (unsigned int nr = 0; nr < LAST_PKMAP; nr++)
		flush_tlb_kernel_page(PKMAP_ADDR(nr));
}

void (*kmap_flush_test_hook)(void);

void *kmap(struct page *page)
{
	unsigned long flags, vaddr;
	unsigned int stale;

	might_sleep();
	if (!PageHighMem(page))
		return page_address(page);
	spin_lock_irqsave(&kmap_lock, flags);
	for (;;) {
		vaddr = (unsigned long)page->virtual;
		if (vaddr)
			break;
		vaddr = map_new_virtual_locked(page, &stale);
		if (vaddr) {
			pkmap_used++;
			break;
		}
		if (stale) {
			/*
			 * Every CPU forgets the window: then the slots freed
			 * before the flush began are clean, and only those.
			 * One that a kunmap() elsewhere frees meanwhile may
			 * still be in the TLB of a CPU the flush has passed.
			 */
			u64 upto = pkmap_unmaps;
			void (*hook)(void) = READ_ONCE(kmap_flush_test_hook);

			spin_unlock_irqrestore(&kmap_lock, flags);
			on_each_cpu(flush_pkmap_window, NULL, true);
			if (hook)
				hook();
			spin_lock_irqsave(&kmap_lock, flags);
			if (upto > pkmap_flushed)
				pkmap_flushed = upto;
			pkmap_flushes++;
		} else {
			DEFINE_WAIT(wait);

			pkmap_waits++;
			prepare_to_wait(&pkmap_map_wait, &wait,
					TASK_UNINTERRUPTIBLE);
			spin_unlock_irqrestore(&kmap_lock, flags);
			schedule();
			finish_wait(&pkmap_map_wait, &wait);
			spin_lock_irqsave(&kmap_lock, flags);
		}
	}
	pkmap_count[PKMAP_NR(vaddr)]++;
	spin_unlock_irqrestore(&kmap_lock, flags);
	return (void *)vaddr;
}

void kunmap(struct page *page)
{
	unsigned long flags, vaddr;
	bool freed = false;
	unsigned int nr;

	if (!PageHighMem(page))
		return;
	spin_lock_irqsave(&kmap_lock, flags);
	vaddr = (unsigned long)page->virtual;
	BUG_ON(!vaddr);
	nr = PKMAP_NR(vaddr);
	BUG_ON(pkmap_count[nr] == 0);
	if (--pkmap_count[nr] == 0) {
		clear_kernel_pte(vaddr);
		pkmap_freed_at[nr] = ++pkmap_unmaps;
		page->virtual = NULL;
		pkmap_used--;
		freed = true;
	}
	spin_unlock_irqrestore(&kmap_lock, flags);
	if (freed && waitqueue_active(&pkmap_map_wait))
		wake_up(&pkmap_map_wait);
}

unsigned long kmap_sleeps(void)
{
	return READ_ONCE(pkmap_waits);
}

unsigned long kmap_window_flushes(void)
{
	return READ_ONCE(pkmap_flushes);
}

unsigned int kmap_slots_in_use(void)
{
	return READ_ONCE(pkmap_used);
}

unsigned int kmap_stale_slots(void)
{
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&kmap_lock, flags);
	for (unsigned int nr = 0; nr < LAST_PKMAP; nr++)
		n += pkmap_stale_locked(nr);
	spin_unlock_irqrestore(&kmap_lock, flags);
	return n;
}

/* This CPU's fixmap slot of type: preemption is off (kmap_atomic). */
static unsigned long kmap_atomic_vaddr(enum km_type type)
{
	unsigned int idx;

	BUG_ON(type >= KM_TYPE_NR);
	BUG_ON(!in_atomic());
	idx = (unsigned int)type + KM_TYPE_NR * (unsigned int)smp_processor_id();
	return __fix_to_virt(FIX_KMAP_BEGIN + idx);
}

void *kmap_atomic(struct page *page, enum km_type type)
{
	unsigned long vaddr;

	/*
	 * Even for a lowmem page, and even from a task that cannot be
	 * preempted otherwise: no other task may run on this CPU (and take
	 * this slot) until kunmap_atomic (2.6.12).
	 */
	preempt_disable();
	if (!PageHighMem(page))
		return page_address(page);
	vaddr = kmap_atomic_vaddr(type);
	/* The slot must be free: a nested user of one type is a bug. */
	BUG_ON(kernel_pte_pfn(vaddr) != -1);
	set_kernel_pte(vaddr, page_to_pfn(page));
	return (void *)vaddr;
}

void kunmap_atomic(void *kvaddr, enum km_type type)
{
	unsigned long vaddr = (unsigned long)kvaddr & PAGE_MASK;

	/* A lowmem page had nothing mapped. */
	if (vaddr >= FIXADDR_START) {
		BUG_ON(vaddr != kmap_atomic_vaddr(type));
		clear_kernel_pte(vaddr);
	}
	preempt_enable();
}

/* __GFP_ZERO, from any context: the context's first slot. */
void clear_highpage(struct page *page)
{
	enum km_type km = kmap_atomic_type(0);
	void *addr = kmap_atomic(page, km);

	memset(addr, 0, PAGE_SIZE);
	kunmap_atomic(addr, km);
}
