/*
 * arch/x86/smpboot.c - starting the application processors.
 *
 * The boot CPU starts the others one at a time, in MADT order, with the
 * INIT-SIPI-SIPI sequence of Intel's MultiProcessor Specification: an
 * INIT IPI (assert, then de-assert), 10 ms, then two STARTUP IPIs whose
 * vector is the trampoline's page number, 200 us apart.  The AP runs the
 * trampoline (arch/x86/trampoline.S) into ap_start_kernel() below, which
 * loads this kernel's GDT (with the CPU's own per-CPU segment in %fs) and
 * IDT, enables its local APIC, marks itself online, and becomes the CPU's
 * idle task (cpu_idle).  The boot CPU waits up to a second for each;
 * a CPU that does not answer is reported and left out.
 *
 * Every AP gets a 16 KiB stack from the caller's allocator (the CPU's own
 * node).  While APs start, the
 * low 4 MiB are mapped 1:1 (the trampoline turns paging on from a low
 * address); the mapping is removed once all are up.
 */
#include "arch/x86/desc.h"
#include "arch/x86/irq.h"
#include "arch/x86/smp.h"
#include "asm/apic.h"
#include "asm/ioapic.h"
#include "asm/irqflags.h"
#include "asm/page.h"
#include "asm/pgtable.h"
#include "asm/processor.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "mm/topology.h"

#define AP_STACK_SIZE 16384
#define AP_WAIT_US 1000000

extern char trampoline_start[], trampoline_end[], tr_pm32[], tr_gdt[],
	tr_gdt_desc[], tr_far[], tr_cr3[], tr_stack[], tr_entry[], tr_cpu[];
extern u32 boot_page_dir[];

static phys_addr_t trampoline_pa;

void arch_set_trampoline_page(phys_addr_t pa)
{
	trampoline_pa = pa;
}

#define TR_OFF(sym) ((unsigned long)((sym) - trampoline_start))

static void tr_put(const char *sym, u32 v)
{
	*(u32 *)((char *)__va(trampoline_pa) + TR_OFF(sym)) = v;
}

int arch_send_call_function_ipi(int cpu)
{
	return lapic_send_ipi(cpu_apic_id[cpu], APIC_DM_FIXED | CALL_FUNCTION_VECTOR);
}

void arch_send_reschedule(int cpu)
{
	lapic_send_ipi(cpu_apic_id[cpu], APIC_DM_FIXED | RESCHEDULE_VECTOR);
}

static void call_function_interrupt(struct pt_regs *regs)
{
	smp_handle_call_function();
}

/* The waker set need_resched; do_irq's exit path does the rest. */
static void reschedule_interrupt(struct pt_regs *regs)
{
}

void __noreturn ap_start_kernel(int cpu);

void ap_start_kernel(int cpu)
{
	load_gdt_on_this_cpu(cpu);
	load_idt();
	lapic_setup_this_cpu();
	set_bit((unsigned long)cpu, cpu_online_bits);
	pr_info("smpboot: CPU %d is up (APIC id %u, node %d)\n",
		smp_processor_id(), lapic_id(), cpu_to_node(cpu));
	cpu_idle();
}

static void flush_tlb_this_cpu(void *unused)
{
	write_cr3(read_cr3());
}

static bool wakeup_secondary_cpu(int cpu, void *(*alloc_stack)(int cpu, size_t size))
{
	unsigned int apic = cpu_apic_id[cpu];
	u32 vector = (u32)(trampoline_pa >> PAGE_SHIFT);
	char *stack;
	u64 waited;

	stack = alloc_stack(cpu, AP_STACK_SIZE);
	if (!stack) {
		pr_err("smpboot: no stack for CPU %d\n", cpu);
		return false;
	}
	tr_put(tr_stack, (u32)(stack + AP_STACK_SIZE));
	tr_put(tr_cpu, (u32)cpu);

	lapic_send_ipi(apic, APIC_DM_INIT | APIC_INT_ASSERT | APIC_INT_LEVELTRIG);
	udelay(10000);
	lapic_send_ipi(apic, APIC_DM_INIT | APIC_INT_LEVELTRIG);
	for (int i = 0; i < 2; i++) {
		lapic_send_ipi(apic, APIC_DM_STARTUP | vector);
		udelay(200);
	}
	for (waited = 0; waited < AP_WAIT_US; waited += 10) {
		if (cpu_online(cpu))
			return true;
		udelay(10);
	}
	pr_err("smpboot: CPU %d (APIC id %u) did not start\n", cpu, apic);
	return false;
}

void arch_smp_boot_cpus(void *(*alloc_stack)(int cpu, size_t size))
{
	size_t len = (size_t)(trampoline_end - trampoline_start);
	char *tr = __va(trampoline_pa);
	unsigned int booted = 1;
	int cpu;

	lapic_map(lapic_phys_base);
	lapic_setup_this_cpu();
	set_vector_handler(CALL_FUNCTION_VECTOR, call_function_interrupt);
	set_vector_handler(RESCHEDULE_VECTOR, reschedule_interrupt);
	ioapic_init();
	if (lapic_id() != cpu_apic_id[0])
		pr_warn("smpboot: boot CPU's APIC id is %u, CPUID said %u\n",
			lapic_id(), cpu_apic_id[0]);
	if (nr_cpu_ids <= 1)
		return;
	if (!trampoline_pa) {
		pr_err("smpboot: no trampoline page below 1 MiB; staying on one CPU\n");
		return;
	}
	memcpy(tr, trampoline_start, len);
	tr_put(tr_gdt_desc + 2, (u32)trampoline_pa + (u32)TR_OFF(tr_gdt));
	tr_put(tr_far, (u32)trampoline_pa + (u32)TR_OFF(tr_pm32));
	tr_put(tr_cr3, (u32)__pa(boot_page_dir));
	tr_put(tr_entry, (u32)ap_start_kernel);

	pr_info("smp: Bringing up secondary CPUs ...\n");
	set_identity_low_mapping(true);
	for (cpu = 1; cpu < (int)nr_cpu_ids; cpu++)
		booted += wakeup_secondary_cpu(cpu, alloc_stack);
	set_identity_low_mapping(false);
	/* The others may hold the old low mapping in their TLBs. */
	smp_call_function(flush_tlb_this_cpu, NULL, true);
	pr_info("smp: Brought up %u CPUs\n", booted);
	pr_info("smpboot: Total of %u processors activated\n", booted);
}
