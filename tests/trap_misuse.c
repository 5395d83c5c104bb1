/*
 * tests/trap_misuse.c - CPU exceptions in the kernel, each judged on the
 * first line of its oops (arch/x86/traps.c), which must say what happened
 * in Linux's words: a divide error inside a test case (the panic must
 * also name the case), a general protection fault, and a page fault at
 * an address that is not NULL ("paging request").  boot_misuse.c has the
 * NULL dereference and a divide error outside any case.
 */
#include "kernel/printk.h"
#include "tests/ktest.h"

/* ---- a divide error in a case ---- */

static void divides_by_zero(struct ktest *t)
{
	volatile unsigned int zero = 0;
	volatile unsigned int quotient;

	quotient = 100u / zero;
	(void)quotient;
}

static void misuse_case_divide_error(void)
{
	const struct ktest_case cases[] = {
		KTEST_CASE(divides_by_zero),
		KTEST_END,
	};
	const struct ktest_suite suite = { .name = "misuse_divide",
					   .cases = cases };

	ktest_run_suite(&suite);
}
KTEST_MISUSE(case_divide_error, misuse_case_divide_error);

/* ---- a general protection fault ---- */

/*
 * A null selector loaded into SS: #GP with error code 0 in 32-bit
 * protected mode, raised before SS changes.
 */
static void misuse_gp_fault(void)
{
	pr_info("ktest: misuse gp_fault: loading a null selector into SS\n");
	asm volatile("movw %w0, %%ss" : : "r"(0) : "memory");
}
KTEST_MISUSE(gp_fault, misuse_gp_fault);

/* ---- a page fault past the first page ---- */

/* Below PAGE_OFFSET nothing is mapped: mm86 has no user space. */
#define UNMAPPED_ADDRESS 0x12345678UL

static void misuse_paging_request(void)
{
	volatile int *p = (volatile int *)UNMAPPED_ADDRESS;

	pr_info("ktest: misuse paging_request: reading %#lx\n",
		UNMAPPED_ADDRESS);
	(void)*p;
}
KTEST_MISUSE(paging_request, misuse_paging_request);
