/*
 * tests/boot_misuse.c - boots that must fail, proving that the host runner
 * tells a stopped kernel from a passing one: a deliberate panic (judged on
 * its "Kernel panic - not syncing:" line and exit status 35) and a
 * deliberate triple fault (QEMU exits 0 under -no-reboot); and cases
 * that hang, which the framework's watchdog must name within their time
 * limit (sleeping, and spinning on the case's CPU with preemption off);
 * and a case that oopses.  Whatever stops the kernel inside a case, the
 * log must name the case ("ktest: the kernel stopped in case S.C").
 */
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/timer.h"
#include "lib/string.h"
#include "tests/ktest.h"

static void misuse_panic(void)
{
	panic("ktest: deliberate panic (ktest.misuse=panic)");
}
KTEST_MISUSE(panic, misuse_panic);

static void misuse_triple_fault(void)
{
	pr_emerg("ktest: misuse triple_fault: loading an empty IDT and raising #BP\n");
	arch_triple_fault();
}
KTEST_MISUSE(triple_fault, misuse_triple_fault);

/* The oops path: a NULL dereference must print Linux's page-fault report. */
static void misuse_null_deref(void)
{
	volatile int *p = NULL;

	pr_info("ktest: misuse null_deref: reading through a NULL pointer\n");
	(void)*p;
}
KTEST_MISUSE(null_deref, misuse_null_deref);

static void misuse_divide_error(void)
{
	volatile unsigned int zero = 0;
	volatile unsigned int quotient;

	pr_info("ktest: misuse divide_error: dividing by zero\n");
	quotient = 100u / zero;
	(void)quotient;
}
KTEST_MISUSE(divide_error, misuse_divide_error);

static void misuse_bug_on(void)
{
	volatile bool impossible = true;

	BUG_ON(impossible);
}
KTEST_MISUSE(bug_on, misuse_bug_on);

/* ---- the case watchdog ---- */

static void sleeps_forever(struct ktest *t)
{
	for (;;)
		msleep(100);
}

static void spins_forever(struct ktest *t)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

static const struct ktest_case hang_cases[] = {
	KTEST_CASE_SLOW(sleeps_forever, 1),
	KTEST_CASE_SLOW(spins_forever, 1),
	KTEST_END,
};

static void run_hang(const char *which)
{
	struct ktest_case cases[2] = { KTEST_END, KTEST_END };
	const struct ktest_suite suite = { .name = "misuse_hang",
					   .cases = cases };

	for (const struct ktest_case *c = hang_cases; c->name; c++)
		if (!strcmp(c->name, which))
			cases[0] = *c;
	ktest_run_suite(&suite);
}

static void misuse_case_hang_sleep(void)
{
	run_hang("sleeps_forever");
}
KTEST_MISUSE(case_hang_sleep, misuse_case_hang_sleep);

static void misuse_case_hang_spin(void)
{
	run_hang("spins_forever");
}
KTEST_MISUSE(case_hang_spin, misuse_case_hang_spin);

/* ---- a case that oopses: the panic names it ---- */

static void dereferences_null(struct ktest *t)
{
	volatile int *p = NULL;

	(void)*p;
}

static void misuse_case_oops(void)
{
	const struct ktest_case cases[] = {
		KTEST_CASE(dereferences_null),
		KTEST_END,
	};
	const struct ktest_suite suite = { .name = "misuse_oops",
					   .cases = cases };

	ktest_run_suite(&suite);
}
KTEST_MISUSE(case_oops, misuse_case_oops);
