/*
 * tests/boot_misuse.c - boots that must fail, proving that the host runner
 * tells a stopped kernel from a passing one: a deliberate panic (judged on
 * its "Kernel panic - not syncing:" line and exit status 35) and a
 * deliberate triple fault (QEMU exits 0 under -no-reboot).
 */
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
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
