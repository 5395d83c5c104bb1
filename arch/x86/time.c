/*
 * arch/x86/time.c - the tick: each CPU's local APIC timer, periodic at HZ.
 *
 * The boot CPU measures how many timer counts (bus clock / 16) the PIT
 * says make 10 ms (the least of three tries); every CPU then programs its own timer with the
 * same period when it starts its tick.  The interrupt calls the kernel's
 * timer_interrupt() (jiffies, timers, time slices).
 *
 * The legacy 8259 PICs are remapped away from the exception vectors and
 * masked (arch/x86/i8259.c): nothing here uses them, and an unmasked
 * line would otherwise land on a CPU exception.
 */
#include "arch/x86/irq.h"
#include "asm/apic.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/timer.h"

#define CAL_MS 10
#define CAL_TRIES 3

static u32 counts_per_tick;

static void local_timer_interrupt(struct pt_regs *regs)
{
	timer_interrupt();
}

void arch_timer_start(void)
{
	if (!counts_per_tick) {
		u32 per_cal = ~0u;

		/*
		 * The smallest of a few windows: see arch/x86/tsc.c.  One call
		 * a window: min() is a macro that evaluates its arguments
		 * again, so a call inside it would run a window twice and
		 * keep the second one's count, not the smaller.
		 */
		for (int i = 0; i < CAL_TRIES; i++) {
			u32 cal = lapic_timer_calibrate(CAL_MS);

			per_cal = min(per_cal, cal);
		}
		u64 per_sec = (u64)per_cal * (1000 / CAL_MS);

		counts_per_tick = (u32)(per_sec / HZ);
		BUG_ON(counts_per_tick == 0);
		set_vector_handler(LOCAL_TIMER_VECTOR, local_timer_interrupt);
		pr_info("apic: timer %llu.%03llu MHz (bus / 16), %u counts per tick at HZ=%d\n",
			per_sec / 1000000, per_sec / 1000 % 1000,
			counts_per_tick, HZ);
	}
	lapic_timer_periodic(counts_per_tick, LOCAL_TIMER_VECTOR);
}

void arch_idle(void)
{
	lockdep_assert_irqs_disabled();
	/* sti holds interrupts off for one more instruction: no wake-up
	 * can come between it and the hlt. */
	__asm__ __volatile__("sti; hlt" ::: "memory");
}
