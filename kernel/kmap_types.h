/*
 * kernel/kmap_types.h - the kmap_atomic slot types (Linux 2.6's km_type):
 * each CPU has one fixmap slot per type, so that an interrupt handler
 * (KM_IRQ*) never takes the slot of the code it interrupted (KM_USER*).
 * KM_USER* are for tasks, KM_IRQ* for handlers and for tasks with
 * interrupts off; kmap_atomic_type() (mm/highmem.h) picks for code that
 * runs in either, and mm/highmem.c checks the rule and names the types.
 * KM_ALLOC and KM_ALLOC_IRQ are the allocators' own (page zeroing and
 * poisoning, mempool poisoning; kmap_alloc_type() picks), as 2.6 gave
 * each subsystem that maps from any context types of its own
 * (KM_BOUNCE_READ, KM_PTE0, ...), so that an allocation made while its
 * caller holds a KM_USER or KM_IRQ slot never takes that slot.  The
 * arch sizes its fixmap from KM_TYPE_NR.
 */
#ifndef KERNEL_KMAP_TYPES_H
#define KERNEL_KMAP_TYPES_H

enum km_type {
	KM_USER0,
	KM_USER1,
	KM_IRQ0,
	KM_IRQ1,
	KM_ALLOC,
	KM_ALLOC_IRQ,
	KM_TYPE_NR,
};

#endif
