/*
 * tests/highmem_misuse.c - kmap_atomic slot misuse that the validator
 * (mm/highmem.c) must stop, one boot each (ktest.misuse=NAME in
 * tests/boots.txt), judged on its "BUG: kmap_atomic: " line.
 *
 *   kmap_user_slot_in_irq   a timer function takes KM_USER0: it would
 *                           clobber the slot of the task it interrupted
 *   kmap_irq_slot_in_task   a task takes KM_IRQ0 with interrupts on: a
 *                           handler could interrupt it and take it too
 *   kmap_slot_taken_twice   a task takes KM_USER1 while it holds it
 *   kunmap_atomic_twice     a task gives KM_USER0 back twice
 *
 * Each first takes and gives back the slot legitimately, so that the
 * report names it as the previous user.  The pages are lowmem (the boots
 * have no HighMem): the validator judges the slot, not the page.
 */
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "mm/gfp.h"
#include "mm/highmem.h"
#include "mm/mm.h"
#include "tests/ktest.h"

#define MISUSE_WAIT (HZ / 2)	/* the longest wait for the timer */

static struct page *misuse_page(void)
{
	return alloc_page(GFP_KERNEL);
}

static struct page *timer_page;
static bool timer_ran;

static void take_user_slot_in_irq(unsigned long unused)
{
	void *addr = kmap_atomic(timer_page, KM_USER0);

	kunmap_atomic(addr, KM_USER0);
	WRITE_ONCE(timer_ran, true);
}

static void misuse_kmap_user_slot_in_irq(void)
{
	static struct timer_list timer;
	unsigned long end;
	void *addr;

	timer_page = misuse_page();
	if (!timer_page)
		return;
	addr = kmap_atomic(timer_page, KM_USER0);
	kunmap_atomic(addr, KM_USER0);
	setup_timer(&timer, take_user_slot_in_irq, 0);
	pr_info("ktest: misuse kmap_user_slot_in_irq: a timer takes KM_USER0\n");
	mod_timer(&timer, jiffies + 1);
	/* Spin on this CPU, where the timer runs: nothing else takes it. */
	end = jiffies + MISUSE_WAIT;
	while (!READ_ONCE(timer_ran) && time_before(jiffies, end))
		cpu_relax();
}
KTEST_MISUSE(kmap_user_slot_in_irq, misuse_kmap_user_slot_in_irq);

static void misuse_kmap_irq_slot_in_task(void)
{
	struct page *page = misuse_page();
	unsigned long flags;
	void *addr;

	if (!page)
		return;
	local_irq_save(flags);
	addr = kmap_atomic(page, KM_IRQ0);	/* fine: interrupts off */
	kunmap_atomic(addr, KM_IRQ0);
	local_irq_restore(flags);
	pr_info("ktest: misuse kmap_irq_slot_in_task: KM_IRQ0 with interrupts on\n");
	addr = kmap_atomic(page, KM_IRQ0);
	kunmap_atomic(addr, KM_IRQ0);
}
KTEST_MISUSE(kmap_irq_slot_in_task, misuse_kmap_irq_slot_in_task);

static void misuse_kmap_slot_taken_twice(void)
{
	struct page *a = misuse_page(), *b = misuse_page();
	void *pa, *pb;

	if (!a || !b)
		return;
	pr_info("ktest: misuse kmap_slot_taken_twice: KM_USER1 twice\n");
	pa = kmap_atomic(a, KM_USER1);
	pb = kmap_atomic(b, KM_USER1);
	kunmap_atomic(pb, KM_USER1);
	kunmap_atomic(pa, KM_USER1);
}
KTEST_MISUSE(kmap_slot_taken_twice, misuse_kmap_slot_taken_twice);

static void misuse_kunmap_atomic_twice(void)
{
	struct page *page = misuse_page();
	void *addr = kmap_atomic(page, KM_USER0);

	pr_info("ktest: misuse kunmap_atomic_twice: KM_USER0 given back twice\n");
	kunmap_atomic(addr, KM_USER0);
	kunmap_atomic(addr, KM_USER0);
	__free_page(page);
}
KTEST_MISUSE(kunmap_atomic_twice, misuse_kunmap_atomic_twice);
