/*
 * mm/highmem.c - kmap and kmap_atomic.
 *
 * The pkmap window has LAST_PKMAP slots.  pkmap_count[i] is 0 for a free
 * slot and the number of kmap() users of the page mapped there otherwise;
 * the page remembers its slot's address in page->virtual, so a second
 * kmap() of it finds the mapping in O(1).  kunmap() of the last user
 * clears the PTE at once (one CPU flushes its own TLB; the SMP issue adds
 * the shootdown), so a slot is never reused with a stale translation.
 * When every slot is taken kmap() fails with a warning; once threads can
 * sleep it waits for a slot instead.
 *
 * kmap_atomic() uses the fixmap slot (type, CPU): no lock, no count, but
 * interrupts must not reuse the same type on this CPU while it is held,
 * which is why handlers have KM_IRQ0/KM_IRQ1.
 *
 * Lock order: kmap_lock is a leaf.
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/string.h"
#include "mm/highmem.h"

static DEFINE_SPINLOCK(kmap_lock);
static unsigned int pkmap_count[LAST_PKMAP];
static unsigned int pkmap_used;
static unsigned int last_pkmap_nr;

static unsigned long map_new_virtual(struct page *page)
{
	for (unsigned int n = 0; n < LAST_PKMAP; n++) {
		unsigned int nr = (last_pkmap_nr + n) % LAST_PKMAP;

		if (pkmap_count[nr])
			continue;
		last_pkmap_nr = (nr + 1) % LAST_PKMAP;
		set_kernel_pte(PKMAP_ADDR(nr), page_to_pfn(page));
		page->virtual = (void *)PKMAP_ADDR(nr);
		return PKMAP_ADDR(nr);
	}
	return 0;
}

void *kmap(struct page *page)
{
	unsigned long flags, vaddr;

	if (!PageHighMem(page))
		return page_address(page);
	spin_lock_irqsave(&kmap_lock, flags);
	vaddr = (unsigned long)page->virtual;
	if (!vaddr) {
		vaddr = map_new_virtual(page);
		if (!vaddr) {
			spin_unlock_irqrestore(&kmap_lock, flags);
			WARN_ON_ONCE(1);
			pr_err("kmap: all %d pkmap slots are in use\n",
			       LAST_PKMAP);
			return NULL;
		}
		pkmap_used++;
	}
	pkmap_count[PKMAP_NR(vaddr)]++;
	spin_unlock_irqrestore(&kmap_lock, flags);
	return (void *)vaddr;
}

void kunmap(struct page *page)
{
	unsigned long flags, vaddr;
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
		page->virtual = NULL;
		pkmap_used--;
	}
	spin_unlock_irqrestore(&kmap_lock, flags);
}

unsigned int kmap_slots_in_use(void)
{
	return READ_ONCE(pkmap_used);
}

static unsigned long kmap_atomic_vaddr(enum km_type type)
{
	unsigned int idx = (unsigned int)type + KM_TYPE_NR * smp_processor_id();

	BUG_ON(type >= KM_TYPE_NR);
	return __fix_to_virt(FIX_KMAP_BEGIN + idx);
}

void *kmap_atomic(struct page *page, enum km_type type)
{
	unsigned long vaddr;

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

	if (vaddr < FIXADDR_START)
		return; /* a lowmem page: nothing was mapped */
	BUG_ON(vaddr != kmap_atomic_vaddr(type));
	clear_kernel_pte(vaddr);
}

void clear_highpage(struct page *page)
{
	void *addr = kmap_atomic(page, KM_USER0);

	memset(addr, 0, PAGE_SIZE);
	kunmap_atomic(addr, KM_USER0);
}
