/*
 * mm/highmem.h - temporary kernel mappings of pages that have no
 * permanent address (highmem, above the linear map).
 *
 * kmap()/kunmap(): a counted mapping in the pkmap window; it may be held
 * for a while, and the same page kmapped twice shares one slot.
 * kmap_atomic(page, type)/kunmap_atomic(addr, type): a per-CPU slot for a
 * short section that must not sleep: preemption is off in between, and
 * KM_USER* are for tasks, KM_IRQ* for interrupt handlers and tasks with
 * interrupts off, so no other user of the slot can run on this CPU.
 * For a lowmem page all of them return its linear address.
 */
#ifndef MM_HIGHMEM_H
#define MM_HIGHMEM_H

#include "asm/pgtable.h"
#include "kernel/lockdep.h"
#include "kernel/preempt.h"
#include "mm/mm.h"

void *kmap(struct page *page);
void kunmap(struct page *page);
void *kmap_atomic(struct page *page, enum km_type type);
void kunmap_atomic(void *kvaddr, enum km_type type);

/*
 * The kmap slot validator: kmap_atomic() reports a KM_USER slot used in
 * interrupt context, a KM_IRQ slot used in a task with interrupts on, and
 * a slot taken while it is held, with a "BUG: kmap_atomic: " line that
 * names the slot, the context and the previous user, and stops the
 * kernel.  It is part of the validator: on unless the boot said
 * debug_locks=0, and debug_kmap turns it off at run time (the tests).
 */
extern bool debug_kmap;

static inline bool kmap_debug_enabled(void)
{
	return READ_ONCE(debug_kmap) && lockdep_enabled_at_boot();
}

/*
 * The kmap_atomic slot for code that runs in any context: its n-th (0 or
 * 1) slot of the context it is in - KM_IRQ0/KM_IRQ1 in an interrupt
 * handler, else
 * KM_USER0/KM_USER1, interrupts on or off.  Handlers do not nest and
 * never use KM_USER*; a task uses KM_IRQ* only with interrupts off, and
 * kmap_atomic keeps other tasks off the CPU: so neither side ever finds
 * its slot taken by the code it interrupted.
 */
static inline enum km_type kmap_atomic_type(unsigned int n)
{
	if (in_interrupt())
		return n ? KM_IRQ1 : KM_IRQ0;
	return n ? KM_USER1 : KM_USER0;
}

/*
 * The allocators' own slot (page zeroing and poisoning, mempool's
 * poison) in the context they run in: an allocation inside its caller's
 * kmap_atomic section never takes the caller's slot.
 */
static inline enum km_type kmap_alloc_type(void)
{
	return in_interrupt() ? KM_ALLOC_IRQ : KM_ALLOC;
}

/* Slots of the pkmap window in use (for tests and dumps). */
unsigned int kmap_slots_in_use(void);
/* Free slots that some CPU may still have in its TLB. */
unsigned int kmap_stale_slots(void);
/*
 * For tests: when set, kmap() calls it after flushing the window on every
 * CPU and before it takes kmap_lock again (the moment at which a kunmap()
 * on another CPU frees a slot the flush may have missed).
 */
extern void (*kmap_flush_test_hook)(void);
/* Times kmap() slept for a slot, and flushed the window on every CPU. */
unsigned long kmap_sleeps(void);
unsigned long kmap_window_flushes(void);

void clear_highpage(struct page *page);

#endif /* MM_HIGHMEM_H */
