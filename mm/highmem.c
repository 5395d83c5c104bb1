/*
 * mm/highmem.c - kmap, kmap_atomic, and the kmap slot validator.
 *
 * Why: a HighMem page (above the 896 MiB linear map) has no kernel
 * address, so the kernel maps it to touch it.  kmap() gives a counted
 * mapping in the pkmap window that may be held across sleeps; kmap_atomic()
 * a per-CPU fixmap slot for a short section that does not sleep.  For a
 * lowmem page both return its linear address.
 *
 * The pkmap window (2.6.12's kmap_high): LAST_PKMAP slots.  pkmap_count[i]
 * is 0 for a free slot and the number of kmap() users of the page mapped
 * there otherwise; the page remembers its slot's address in page->virtual,
 * so a second kmap() of it finds the mapping in O(1).  kunmap() of the last
 * user clears the PTE at once and flushes this CPU's TLB entry.  When
 * every slot is in use kmap() sleeps on pkmap_map_wait until a kunmap()
 * frees one: kmap() may sleep, so it is for task context only
 * (might_sleep); interrupt handlers use kmap_atomic().
 *
 * Stale slots: other CPUs may still hold a freed slot's old translation,
 * so it is stale until every CPU has flushed it.  kmap() takes clean slots
 * first; when only stale ones are left it flushes the whole window on
 * every CPU (one cross-call, as 2.6.12's flush_all_zero_pkmaps).  Unlike
 * Linux it flushes with kmap_lock dropped (kmap_lock is irqsave, and a
 * cross-call needs the other CPUs' interrupts), so a kunmap() elsewhere
 * may free a slot meanwhile, behind a CPU the flush has already passed:
 * that slot must stay stale.  Each freeing kunmap() stamps its slot with a
 * sequence number; a flush makes clean only the slots stamped before it
 * began.  (Clearing every mark after the flush forgot such a slot; even a
 * snapshot of the marks is not enough while two CPUs flush at once.)
 *
 * kmap_atomic (2.6.12): the fixmap slot (type, CPU), no lock, no count.  It
 * disables preemption until kunmap_atomic, for lowmem pages too, so no
 * other task on this CPU can take the slot.  Interrupts have their own
 * types: KM_USER0/1 are for tasks (interrupts on or off), KM_IRQ0/1 for
 * interrupt handlers and for tasks with interrupts off.  Handlers do not
 * nest (arch/x86/irq.c), so a handler never finds a KM_IRQ slot held, nor
 * a task a KM_USER slot.  Code that runs in either context picks with
 * kmap_atomic_type(n).  The allocators - __GFP_ZERO (clear_highpage),
 * page poisoning (mm/page_check.c), mempool's page poisoning - have
 * slots of their own, KM_ALLOC in a task and KM_ALLOC_IRQ in a handler
 * (kmap_alloc_type()), held only while they touch one page and never
 * across a call into other code: an allocation made inside its caller's
 * kmap_atomic section, in a task or in a handler, takes neither the
 * caller's slot nor one its own context may hold.  Deviation: 2.6
 * instead refused __GFP_HIGHMEM
 * without __GFP_WAIT in prep_zero_page (2.6.11; 2.6.24 only in interrupts)
 * and did not poison highmem pages; here both work in any context, as they
 * do since 2.6.37's stack of kmap_atomic slots.  Of the releases named in
 * this comment only prep_zero_page's were checked against the sources
 * (docs/linux-2.6.md).
 *
 * The validator (while kmap_debug_enabled(): unless debug_locks=0): a
 * KM_USER slot used in interrupt context, a KM_IRQ slot used in a task with
 * interrupts on (both as 2.6.27's CONFIG_DEBUG_HIGHMEM
 * debug_kmap_atomic_prot, but fatal), or a slot taken while it is held
 * (2.6.12's CONFIG_DEBUG_HIGHMEM BUG, now for lowmem pages too, and naming
 * the holder) prints "BUG: kmap_atomic: slot KM_x of CPU n used in
 * CONTEXT (previous user: FUNCTION+off/size in CONTEXT)", a stack, and
 * panics.  Each slot remembers who took it last, where and whether it is
 * still held; that bookkeeping runs whether or not the checks are on.
 *
 * Asserted: kmap_lock held in the _locked helpers; kmap() may sleep; a
 * type is below KM_TYPE_NR; kmap_atomic's slot is taken and given back
 * with preemption off; a highmem slot's PTE is free when it is taken;
 * kunmap() is of a kmapped page.  A kunmap_atomic() of a slot this CPU
 * does not hold, or of another address than the slot's, prints "BUG:
 * kunmap_atomic: slot KM_x of CPU n given back ..." and panics.
 *
 * Lock order: kmap_lock (irqsave) is a leaf: nothing is taken under it,
 * and the cross-call flush and the sleep happen with it dropped.
 * kmap_atomic takes no lock.
 */
#include "kernel/bug.h"
#include "kernel/kallsyms.h"
#include "kernel/lockdep.h"
#include "kernel/nr_cpus.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/wait.h"
#include "lib/sprintf.h"
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
	lockdep_assert_held(&kmap_lock);
	return pkmap_count[nr] == 0 && pkmap_freed_at[nr] > pkmap_flushed;
}

/* A free, clean slot for page, or 0; *stale counts the free stale ones. */
static unsigned long map_new_virtual_locked(struct page *page,
					    unsigned int *stale)
{
	lockdep_assert_held(&kmap_lock);
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

/* ---- kmap_atomic and its slot validator ------------------------------ */

bool debug_kmap = true;

static const char *const km_type_names[] = {
	[KM_USER0] = "KM_USER0",
	[KM_USER1] = "KM_USER1",
	[KM_IRQ0] = "KM_IRQ0",
	[KM_IRQ1] = "KM_IRQ1",
	[KM_ALLOC] = "KM_ALLOC",
	[KM_ALLOC_IRQ] = "KM_ALLOC_IRQ",
};
BUILD_BUG_ON(ARRAY_SIZE(km_type_names) != KM_TYPE_NR);

enum kmap_context {
	KMAP_TASK_IRQS_ON,
	KMAP_TASK_IRQS_OFF,
	KMAP_SOFTIRQ,
	KMAP_HARDIRQ,
};

static const char *const kmap_context_names[] = {
	[KMAP_TASK_IRQS_ON] = "task context with interrupts on",
	[KMAP_TASK_IRQS_OFF] = "task context with interrupts off",
	[KMAP_SOFTIRQ] = "softirq context",
	[KMAP_HARDIRQ] = "hardirq context",
};

/*
 * Who took each CPU's slots last: the return address of the kmap_atomic
 * call (0: nobody yet), in what context, and whether it still holds the
 * slot.  Each entry is only touched on its own CPU with preemption off;
 * an interrupt handler only touches its own (KM_IRQ*) entries, unless it
 * is the bug being reported.
 */
struct kmap_slot_user {
	unsigned long ip;
	u8 context;
	bool held;
};
static struct kmap_slot_user kmap_slot_users[NR_CPUS][KM_TYPE_NR];

static enum kmap_context kmap_context(void)
{
	if (in_irq())
		return KMAP_HARDIRQ;
	if (in_interrupt())
		return KMAP_SOFTIRQ;
	return irqs_disabled() ? KMAP_TASK_IRQS_OFF : KMAP_TASK_IRQS_ON;
}

/* "FUNCTION+off/size in CONTEXT" of the slot's last user, or "none". */
static void slot_user_name(int cpu, enum km_type type, char *who, size_t len)
{
	const struct kmap_slot_user *prev = &kmap_slot_users[cpu][type];
	char sym[96];

	if (!prev->ip)
		snprintf(who, len, "none");
	else if (kallsyms_lookup(prev->ip, sym, sizeof(sym)))
		snprintf(who, len, "%s in %s", sym,
			 kmap_context_names[prev->context]);
	else
		snprintf(who, len, "[<%08lx>] in %s", prev->ip,
			 kmap_context_names[prev->context]);
}

static void __noreturn kmap_slot_bug(int cpu, enum km_type type,
				     enum kmap_context ctx, bool held)
{
	char who[128];

	slot_user_name(cpu, type, who, sizeof(who));
	pr_alert("BUG: kmap_atomic: slot %s of CPU %d %s %s%s (previous user: %s)\n",
		 km_type_names[type], cpu, held ? "taken in" : "used in",
		 kmap_context_names[ctx], held ? " while still held" : "", who);
	dump_stack();
	panic("kmap_atomic: slot misuse");
}

/*
 * A kunmap_atomic() that does not match a kmap_atomic(): of a slot this
 * CPU does not hold (given back twice, or never taken), or of an address
 * that is not the slot's.  Always fatal, validator or not: the slot's
 * preemption count and mapping would be undone a second time.
 */
static void __noreturn kunmap_slot_bug(int cpu, enum km_type type,
				       const void *kvaddr, const char *what)
{
	char who[128];

	slot_user_name(cpu, type, who, sizeof(who));
	pr_alert("BUG: kunmap_atomic: slot %s of CPU %d %s: %p (previous user: %s)\n",
		 km_type_names[type], cpu, what, kvaddr, who);
	dump_stack();
	panic("kunmap_atomic: slot misuse");
}

/*
 * The validator's rules, checked in this order when kmap_debug_enabled():
 * a task's slot (KM_USER*, KM_ALLOC) is never used in interrupt context,
 * a handler's (KM_IRQ*, KM_ALLOC_IRQ) only in interrupt context or with
 * interrupts off (2.6.27's
 * debug_kmap_atomic_prot, but a BUG here, not a warning), and no slot is
 * taken while its last user on this CPU still holds it (2.6's
 * CONFIG_DEBUG_HIGHMEM BUG on a mapped slot, which now also names the
 * holder, and also applies to lowmem pages that map nothing).
 */
static void kmap_slot_take(int cpu, enum km_type type, unsigned long ip)
{
	struct kmap_slot_user *u = &kmap_slot_users[cpu][type];
	enum kmap_context ctx = kmap_context();

	if (kmap_debug_enabled()) {
		bool user_slot = type == KM_USER0 || type == KM_USER1 ||
				 type == KM_ALLOC;

		if (user_slot && (ctx == KMAP_HARDIRQ || ctx == KMAP_SOFTIRQ))
			kmap_slot_bug(cpu, type, ctx, false);
		if (!user_slot && ctx == KMAP_TASK_IRQS_ON)
			kmap_slot_bug(cpu, type, ctx, false);
		if (u->held)
			kmap_slot_bug(cpu, type, ctx, true);
	}
	u->ip = ip;
	u->context = (u8)ctx;
	u->held = true;
}

/* This CPU's fixmap slot of type: preemption is off (kmap_atomic). */
static unsigned long kmap_atomic_vaddr(int cpu, enum km_type type)
{
	unsigned int idx = (unsigned int)type + KM_TYPE_NR * (unsigned int)cpu;

	return __fix_to_virt(FIX_KMAP_BEGIN + idx);
}

void *kmap_atomic(struct page *page, enum km_type type)
{
	unsigned long vaddr;
	int cpu;

	/*
	 * Even for a lowmem page, and even from a task that cannot be
	 * preempted otherwise: no other task may run on this CPU (and take
	 * this slot) until kunmap_atomic (2.6.12).
	 */
	preempt_disable();
	BUG_ON(type >= KM_TYPE_NR);
	cpu = smp_processor_id();
	kmap_slot_take(cpu, type, _RET_IP_);
	if (!PageHighMem(page))
		return page_address(page);
	vaddr = kmap_atomic_vaddr(cpu, type);
	/* The slot must be free: a nested user of one type is a bug. */
	BUG_ON(kernel_pte_pfn(vaddr) != -1);
	set_kernel_pte(vaddr, page_to_pfn(page));
	return (void *)vaddr;
}

void kunmap_atomic(void *kvaddr, enum km_type type)
{
	unsigned long vaddr = (unsigned long)kvaddr & PAGE_MASK;
	/* Raw: an unbalanced call may come with preemption on. */
	int cpu = raw_smp_processor_id();

	BUG_ON(type >= KM_TYPE_NR);
	if (!kmap_slot_users[cpu][type].held || !in_atomic())
		kunmap_slot_bug(cpu, type, kvaddr, "given back but not held");
	/* A lowmem page had nothing mapped. */
	if (vaddr >= FIXADDR_START) {
		if (vaddr != kmap_atomic_vaddr(cpu, type))
			kunmap_slot_bug(cpu, type, kvaddr,
					"given back with another address");
		clear_kernel_pte(vaddr);
	}
	kmap_slot_users[cpu][type].held = false;
	preempt_enable();
}

/* __GFP_ZERO, from any context: the allocators' slot of the context. */
void clear_highpage(struct page *page)
{
	enum km_type km = kmap_alloc_type();
	void *addr = kmap_atomic(page, km);

	memset(addr, 0, PAGE_SIZE);
	kunmap_atomic(addr, km);
}
