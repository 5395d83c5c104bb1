/*
 * tests/ioapic_test.c - suite "ioapic": ISA interrupts routed through the
 * I/O APIC arrive, at the rate their source makes them, on the CPU they
 * were aimed at, and stop when their line is masked.
 *
 * The source is the PIT's channel 0 (ISA IRQ 0), which nothing else in
 * mm86 uses: programmed here as a rate generator (mode 2) at PIT_HZ, and
 * stopped afterwards (mode 0, Linux's pit_shutdown: at most one more edge,
 * on a line already masked).  Its handler only records what it saw, per
 * CPU and with atomic increments; the cases check the records from the
 * case's thread (CPU 0) - never an EXPECT in the handler.
 *
 * The oracles.  For the rate, the PIT's own clock: channel 0 interrupts
 * once every PIT_LATCH of its ticks, and channel 2, counting down a
 * one-shot while the case sleeps, says how many ticks went by - not the
 * kernel's clocks, which are calibrated from one short PIT window at
 * boot that a busy host can throw off by half or more.  The band is
 * wide, as TCG's timing is noisy.  For the destination, each CPU's local
 * APIC id register, read in the handler.  For the GSI, the MADT the
 * kernel parsed at boot, and what QEMU's pc and q35 machines always
 * build (IRQ 0 on GSI 2, every other ISA IRQ on its own number) when
 * fw_cfg says this is QEMU; and that a line routed to the GSI
 * ioapic_isa_irq_to_gsi() names delivers the PIT's interrupts at all.
 *
 * An emulated I/O APIC may deliver one edge it saw while masked as soon
 * as the line is unmasked, and a local APIC may have accepted one just
 * before the line was masked: so counts that must be exact are taken
 * only between two quiet points (masked, then settled: the CPU the line
 * was routed to has taken SETTLE_TICKS of its own ticks since, so it has
 * run with interrupts on, and anything its local APIC held has been
 * delivered), and rates allow for one extra.  Every wait is bounded.
 */
#include "arch/x86/irq.h"
#include "arch/x86/pit.h"
#include "arch/x86/smp.h"
#include "asm/acpi.h"
#include "asm/apic.h"
#include "asm/fw_cfg.h"
#include "asm/io.h"
#include "asm/ioapic.h"
#include "kernel/arch.h"
#include "kernel/preempt.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define PIT_IRQ 0
#define PIT_VECTOR ISA_IRQ_VECTOR(PIT_IRQ)
#define PIT_HZ 1000
#define PIT_LATCH ((PIT_TICK_RATE + PIT_HZ / 2) / PIT_HZ)
#define PIT_CH0 0x40
#define PIT_CH2 0x42
#define PIT_MODE 0x43

#define WINDOW_MS 54		/* channel 2's one-shot, as long as it goes */
#define WINDOW_LATCH (PIT_TICK_RATE * WINDOW_MS / 1000)	/* as pit.c */
#define WINDOW_END (PIT_TICK_RATE * 12 / 1000)	/* a window ends after 12 ms */
/* Windows in all: 12 ms (one window), 200 ms under ktest.soak=1. */
#define MEASURE_TICKS KTEST_SOAK(WINDOW_END, PIT_TICK_RATE / 5)
#define MAX_WINDOWS 40		/* including those a late wake-up spoiled */
#define SETTLE_TICKS 2		/* the target CPU's, for an accepted interrupt */
/* A masked line must stay silent this long: 4 ms (4 periods of the PIT;
 * msleep makes it 5 jiffies, up to 5 ms), 100 ms under ktest.soak=1. */
#define QUIET_MS KTEST_SOAK(4, 100)
/* Interrupts that show a line is live: 5, 20 under ktest.soak=1. */
#define BURST KTEST_SOAK(5, 20)
#define WAIT_MS 2000		/* the longest wait for BURST of them, or to settle */

static int hits[NR_CPUS];	/* handler runs, by the CPU they ran on */
static int outside_irq;		/* runs that did not see in_interrupt() */
static int wrong_apic;		/* runs on an APIC other than dest_apic */
static unsigned int dest_apic;	/* where the line is routed now */
static int dest_cpu;		/* ... that CPU */
static bool pit_used;		/* the case started the PIT */
static bool settled;		/* masked and settled since the last route */

static int atomic_read_int(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void atomic_inc_int(int *p)
{
	__atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL);
}

static void pit_interrupt(struct pt_regs *regs)
{
	atomic_inc_int(&hits[smp_processor_id()]);
	if (!in_interrupt())
		atomic_inc_int(&outside_irq);
	if (lapic_id() != READ_ONCE(dest_apic))
		atomic_inc_int(&wrong_apic);
}

static int total_hits(void)
{
	int n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += atomic_read_int(&hits[cpu]);
	return n;
}

/* Only while the line is masked and settled. */
static void reset_records(void)
{
	memset(hits, 0, sizeof(hits));
	outside_irq = 0;
	wrong_apic = 0;
}

/* Channel 0, low then high byte, mode 2 (rate generator), binary. */
static void pit_ch0_start(void)
{
	pit_used = true;
	outb(0x34, PIT_MODE);
	outb(PIT_LATCH & 0xff, PIT_CH0);
	outb(PIT_LATCH >> 8, PIT_CH0);
}

/* Mode 0 with a count of 65536: one edge 55 ms on, then silence. */
static void pit_ch0_stop(void)
{
	outb(0x30, PIT_MODE);
	outb(0, PIT_CH0);
	outb(0, PIT_CH0);
}

/* Channel 2's count, latched: it counts down from WINDOW_LATCH. */
static u16 pit_ch2_count(void)
{
	u8 lo, hi;

	outb(0x80, PIT_MODE);	/* channel 2, counter latch */
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	return (u16)(lo | hi << 8);
}

/*
 * One window: channel 2 counts down a WINDOW_MS one-shot while this
 * thread sleeps a jiffy at a time, until WINDOW_END ticks went by;
 * adds them to *ticks and the interrupts that came meanwhile to *n.
 * Interrupts are off at both ends, so that none falls between the count
 * and its tick.  False when a sleep outlasted the one-shot (how long the
 * window was is then unknown): the tick's own calibration can be that
 * far off on a busy host.
 */
static bool measure_window(u64 *ticks, int *n)
{
	unsigned long flags;
	int before, after;
	u16 left;
	bool late;

	local_irq_save(flags);
	before = total_hits();
	pit_oneshot_start(WINDOW_MS);
	local_irq_restore(flags);
	do {
		schedule_timeout_uninterruptible(1);
		local_irq_save(flags);
		left = pit_ch2_count();
		late = pit_oneshot_expired();
		after = total_hits();
		local_irq_restore(flags);
	} while (!late && WINDOW_LATCH - left < WINDOW_END);
	if (late)
		return false;
	*ticks += WINDOW_LATCH - left;
	*n += after - before;
	return true;
}

static void route_to(struct ktest *t, int cpu)
{
	dest_cpu = cpu;
	settled = false;
	WRITE_ONCE(dest_apic, cpu_apic_id[cpu]);
	KTEST_ASSERT_EQ(t, ioapic_route_isa_irq(PIT_IRQ, PIT_VECTOR,
						cpu_apic_id[cpu]), 0);
}

/*
 * Once the line is masked: sleeps until the CPU it was routed to has
 * taken SETTLE_TICKS ticks (WAIT_MS at most).  The first tick's handler
 * returned before the second began, with interrupts back on: whatever
 * that CPU's local APIC had accepted from the line has run by then, on
 * a host that ran its vCPU late as well as on one that did not.
 */
static void settle(void)
{
	unsigned long ticks = timer_ticks_on(dest_cpu);
	u64 start = arch_clock_ns();

	while (timer_ticks_on(dest_cpu) - ticks < SETTLE_TICKS &&
	       arch_clock_ns() - start < WAIT_MS * 1000000ULL)
		schedule_timeout_uninterruptible(1);
}

static void mask_and_settle(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, ioapic_mask_isa_irq(PIT_IRQ), 0);
	settle();
	settled = true;
}

/* Sleeps until n interrupts have come, or WAIT_MS; returns how many came. */
static int wait_for_hits(int n)
{
	u64 start = arch_clock_ns();

	while (total_hits() < n &&
	       arch_clock_ns() - start < WAIT_MS * 1000000ULL)
		schedule_timeout_uninterruptible(1);
	return total_hits();
}

static const char *ioapic_skip_if(void)
{
	if (ioapic_isa_irq_to_gsi(PIT_IRQ) == -ENOENT)
		return "no I/O APIC at GSI 0 (see the boot's IOAPIC line)";
	return NULL;
}

static int ioapic_case_init(struct ktest *t)
{
	pit_used = false;
	settled = false;
	dest_cpu = 0;
	reset_records();
	set_vector_handler(PIT_VECTOR, pit_interrupt);
	return 0;
}

/*
 * Whatever a case left behind: the line masked, the PIT stopped, and
 * settled before the handler goes - unless the case never ran the PIT,
 * or masked and settled the line itself after its last route.
 */
static void ioapic_case_exit(struct ktest *t)
{
	ioapic_mask_isa_irq(PIT_IRQ);
	if (pit_used) {
		pit_ch0_stop();
		if (!settled)
			settle();
	}
	set_vector_handler(PIT_VECTOR, NULL);
}

/* The MADT's first bus-0 override for irq, or NULL. */
static const struct acpi_irq_override *madt_override(unsigned int irq)
{
	const struct acpi_info *acpi = acpi_boot_tables();

	for (unsigned int i = 0; i < acpi->nr_overrides; i++)
		if (acpi->overrides[i].bus == 0 &&
		    acpi->overrides[i].source == irq)
			return &acpi->overrides[i];
	return NULL;
}

/* Each ISA IRQ's GSI is its MADT override's, else its own number. */
static void isa_irq_gsi_from_madt(struct ktest *t)
{
	bool qemu = fw_cfg_present();

	for (unsigned int irq = 0; irq < NR_ISA_IRQS; irq++) {
		const struct acpi_irq_override *o = madt_override(irq);
		int gsi = ioapic_isa_irq_to_gsi(irq);

		KTEST_EXPECT_EQ(t, gsi, o ? (int)o->gsi : (int)irq);
		if (qemu)
			KTEST_EXPECT_EQ(t, gsi, irq == 0 ? 2 : (int)irq);
	}
	KTEST_EXPECT_EQ(t, ioapic_isa_irq_to_gsi(NR_ISA_IRQS), -EINVAL);
	ktest_printf(t, "ISA IRQ 0 -> GSI %d%s", ioapic_isa_irq_to_gsi(0),
		     qemu ? " (QEMU: 2)" : "");
}

/* Nothing out of range is programmed, and nothing is unmasked by it. */
static void bad_arguments_are_refused(struct ktest *t)
{
	unsigned int apic = cpu_apic_id[0];

	KTEST_EXPECT_EQ(t, ioapic_route_isa_irq(NR_ISA_IRQS, PIT_VECTOR, apic),
			-EINVAL);
	KTEST_EXPECT_EQ(t, ioapic_route_isa_irq(PIT_IRQ, 31, apic), -EINVAL);
	KTEST_EXPECT_EQ(t, ioapic_route_isa_irq(PIT_IRQ, 0xff, apic), -EINVAL);
	KTEST_EXPECT_EQ(t, ioapic_route_isa_irq(PIT_IRQ, PIT_VECTOR, 0x100),
			-EINVAL);
	KTEST_EXPECT_EQ(t, ioapic_mask_isa_irq(NR_ISA_IRQS), -EINVAL);
	pit_ch0_start();
	msleep(QUIET_MS);
	KTEST_EXPECT_EQ(t, total_hits(), 0);
}

/*
 * Routed to the boot CPU for MEASURE_TICKS of windows: the PIT's rate,
 * at most 150% of one interrupt per PIT_LATCH ticks of channel 2, all of
 * it on CPU 0 in interrupt context.  A level-triggered storm gives far
 * more than 150%.  The low bound is two interrupts a window (10% of the
 * rate): QEMU raises the PIT's edges from a timer that a busy host runs
 * late, and merges the periods it missed - 60% on a loaded host, 24%
 * with -smp 8 on two busy cores have been seen - while a line routed
 * wrong gives none and one that is never acknowledged stops after its
 * first edge.
 * While the interrupts counted are below that bound, more windows are
 * measured (MAX_WINDOWS in all), so one loaded moment does not fail it.
 * When late wake-ups spoiled so many of the MAX_WINDOWS that less than a
 * quarter of MEASURE_TICKS was measured, the rate is skipped with the
 * count (where the interrupts ran is still judged); masked_line_is_silent
 * catches a line that delivers nothing.
 */
static void pit_rate_on_boot_cpu(struct ktest *t)
{
	int n = 0, windows = 0, spoiled = 0;
	u64 ticks = 0, expected;

	pit_ch0_start();
	route_to(t, 0);
	/*
	 * A window in which the host merged the PIT's periods down to less
	 * than the low bound does not end the measure: more windows are
	 * taken, within MAX_WINDOWS, so that a loaded moment is outweighed
	 * (a line that delivers nothing, or one edge only, stays below it).
	 */
	while ((ticks < MEASURE_TICKS || n < 2 * windows) &&
	       windows + spoiled < MAX_WINDOWS) {
		if (measure_window(&ticks, &n))
			windows++;
		else
			spoiled++;
	}
	mask_and_settle(t);
	/* Where and how the interrupts came holds whatever the host did. */
	KTEST_EXPECT_EQ(t, atomic_read_int(&hits[0]), total_hits());
	KTEST_EXPECT_EQ(t, outside_irq, 0);
	KTEST_EXPECT_EQ(t, wrong_apic, 0);
	/*
	 * The rate needs measured time: a host that descheduled this CPU
	 * past the one-shot in every window left none, and no figure is
	 * better than a wrong one.
	 */
	if (ticks < MEASURE_TICKS / 4) {
		ktest_printf(t, "%d of %d PIT windows spoiled by late wake-ups: %llu us measured",
			     spoiled, windows + spoiled,
			     ticks * 1000000 / PIT_TICK_RATE);
		ktest_skip(t, "the host left too few unspoiled PIT windows to judge the rate");
	}
	expected = ticks / PIT_LATCH;
	ktest_printf(t, "%d interrupts in %llu us by channel 2 (%d windows, %d spoiled), %llu expected",
		     n, ticks * 1000000 / PIT_TICK_RATE, windows, spoiled,
		     expected);
	KTEST_EXPECT_GE(t, n, 2 * windows);
	KTEST_EXPECT_LE(t, (u64)n * 2, expected * 3 + 2);
}

/*
 * Masked, the line stays silent while the PIT still runs; unmasked, it
 * comes back (so the silence was the mask's); masked with the PIT
 * stopped, silent again, through the stop's last edge.
 */
static void masked_line_is_silent(struct ktest *t)
{
	int quiet;

	pit_ch0_start();
	route_to(t, 0);
	KTEST_ASSERT_GE(t, wait_for_hits(BURST), BURST);
	mask_and_settle(t);
	quiet = total_hits();
	msleep(QUIET_MS);
	KTEST_EXPECT_EQ(t, total_hits(), quiet);

	route_to(t, 0);
	KTEST_EXPECT_GE(t, wait_for_hits(quiet + BURST), quiet + BURST);
	mask_and_settle(t);
	pit_ch0_stop();
	quiet = total_hits();
	msleep(QUIET_MS);
	KTEST_EXPECT_EQ(t, total_hits(), quiet);
	ktest_printf(t, "%d interrupts while the line was open", quiet);
}

/* Routed to each other CPU in turn: there, and only there. */
static void pit_on_each_other_cpu(struct ktest *t)
{
	int cpu;

	if (num_online_cpus() < 2)
		ktest_skip(t, "one CPU online");
	pit_ch0_start();
	for_each_online_cpu(cpu) {
		if (cpu == 0)
			continue;
		reset_records();
		route_to(t, cpu);
		KTEST_EXPECT_GE(t, wait_for_hits(BURST), BURST);
		mask_and_settle(t);
		KTEST_EXPECT_EQ(t, atomic_read_int(&hits[cpu]), total_hits());
		KTEST_EXPECT_EQ(t, outside_irq, 0);
		KTEST_EXPECT_EQ(t, wrong_apic, 0);
		ktest_printf(t, "CPU %d (APIC id %u): %d interrupts", cpu,
			     cpu_apic_id[cpu], total_hits());
	}
}

static const struct ktest_case ioapic_cases[] = {
	KTEST_CASE(isa_irq_gsi_from_madt),
	KTEST_CASE(bad_arguments_are_refused),
	KTEST_CASE(pit_rate_on_boot_cpu),
	KTEST_CASE(masked_line_is_silent),
	KTEST_CASE(pit_on_each_other_cpu),
	KTEST_END,
};

static const struct ktest_suite ioapic_suite = {
	.name = "ioapic",
	.skip_if = ioapic_skip_if,
	.init = ioapic_case_init,
	.exit = ioapic_case_exit,
	.cases = ioapic_cases,
};
KTEST_SUITE(ioapic_suite);
