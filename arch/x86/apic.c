/*
 * arch/x86/apic.c - the local APIC.
 *
 * Each CPU has one at the same physical address (0xFEE00000 unless the
 * MADT says otherwise); the registers are memory-mapped, uncached, in a
 * fixmap slot.  mm86 uses it for three things: software-enabling it with
 * a spurious vector, sending inter-processor interrupts through the ICR
 * (the high word selects the target APIC id, writing the low word sends),
 * and acknowledging interrupts (EOI).  Timers and I/O APIC routing come
 * with the interrupt work.
 *
 * Sending is not reentrant (two ICR writes): callers disable interrupts
 * around lapic_send_ipi.
 */
#include "arch/x86/pit.h"
#include "asm/apic.h"
#include "asm/irqflags.h"
#include "asm/pgtable.h"
#include "asm/processor.h"
#include "kernel/printk.h"

#define ICR_TIMEOUT_LOOPS 1000000

static volatile u32 *lapic_regs;

static inline u32 apic_read(u32 reg)
{
	return lapic_regs[reg / 4];
}

static inline void apic_write(u32 reg, u32 v)
{
	lapic_regs[reg / 4] = v;
}

void lapic_map(phys_addr_t base)
{
	unsigned long va = __fix_to_virt(FIX_APIC_BASE);

	set_kernel_pte_uncached(va, (unsigned long)(base >> PAGE_SHIFT));
	lapic_regs = (volatile u32 *)(va + (unsigned long)(base & ~PAGE_MASK));
}

unsigned int lapic_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

void lapic_setup_this_cpu(void)
{
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, ERROR_APIC_VECTOR);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_SPIV, APIC_SPIV_ENABLE | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_EOI, 0);
}

void lapic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

int lapic_send_ipi(unsigned int apic_id, u32 icr_low)
{
	unsigned long flags = arch_local_irq_save();
	int loops = 0;

	apic_write(APIC_ICR2, apic_id << 24);
	apic_write(APIC_ICR, icr_low);
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY) {
		if (++loops > ICR_TIMEOUT_LOOPS) {
			arch_local_irq_restore(flags);
			pr_err("apic: IPI %#x to APIC %u was never accepted\n",
			       icr_low, apic_id);
			return -1;
		}
		cpu_relax();
	}
	arch_local_irq_restore(flags);
	return 0;
}

u32 lapic_timer_calibrate(unsigned int ms)
{
	u32 start = 0xffffffffu;

	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	pit_oneshot_start(ms);
	apic_write(APIC_TMICT, start);
	while (!pit_oneshot_expired())
		cpu_relax();
	return start - apic_read(APIC_TMCCT);
}

void lapic_timer_periodic(u32 count, unsigned int vector)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | vector);
	apic_write(APIC_TMICT, count);
}
