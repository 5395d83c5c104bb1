/*
 * arch/x86/tsc.c - the time-stamp counter, calibrated against the PIT.
 *
 * The PIT runs at a known 1193182 Hz.  Channel 2 is gated by port 0x61 and
 * its output can be read back there, so we program it for a one-shot count
 * of CAL_MS milliseconds and count TSC cycles until its output goes high
 * (Linux's pit_calibrate_tsc).  The result converts cycles to nanoseconds
 * with a multiply and a shift, so that printk's clock costs no division:
 * ns = (cycles * mult) >> CYC2NS_SHIFT.
 */
#include "arch/x86/pit.h"
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/printk.h"

#define CAL_MS 10
#define CAL_TRIES 3
#define CYC2NS_SHIFT 22

static unsigned long cpu_khz;
static u64 tsc_base;
static u64 cyc2ns_mult;

/*
 * The smallest of CAL_TRIES windows: a window can only read long (the
 * CPU, or an emulator's thread, was away when the PIT ran out and saw it
 * late), never short, so the minimum is the best estimate (Linux repeats
 * its PIT calibration for the same reason).
 */
static u64 pit_calibrate_tsc(void)
{
	u64 best = ~0ULL;

	for (int i = 0; i < CAL_TRIES; i++) {
		u64 t1, t2;

		pit_oneshot_start(CAL_MS);
		t1 = rdtsc();
		while (!pit_oneshot_expired())
			;
		t2 = rdtsc();
		if (t2 - t1 < best)
			best = t2 - t1;
	}
	return best / CAL_MS;
}

void arch_time_init(void)
{
	u64 khz = pit_calibrate_tsc();

	if (khz == 0)
		khz = 1;
	cpu_khz = (unsigned long)khz;
	cyc2ns_mult = (1000000ULL << CYC2NS_SHIFT) / khz;
	tsc_base = rdtsc();
	pr_info("tsc: Detected %lu.%03lu MHz processor\n", cpu_khz / 1000,
		cpu_khz % 1000);
}

u64 arch_clock_ns(void)
{
	if (!cyc2ns_mult)
		return 0;
	return ((rdtsc() - tsc_base) * cyc2ns_mult) >> CYC2NS_SHIFT;
}

unsigned long arch_cpu_khz(void)
{
	return cpu_khz;
}

void udelay(unsigned long usecs)
{
	u64 start = rdtsc();
	u64 cycles = (u64)usecs * (cpu_khz ? cpu_khz : 1000000) / 1000;

	while (rdtsc() - start < cycles)
		cpu_relax();
}
