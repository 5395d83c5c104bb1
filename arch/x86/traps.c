/*
 * arch/x86/traps.c - what happens when the CPU raises an exception.
 *
 * mm86 has no user space, so every exception is a kernel bug: do_trap()
 * prints an oops in Linux's shape (what happened, the registers, CR2 for a
 * page fault, a call trace from the frame pointers) and panics with
 * "Fatal exception".  An oops taken while printing an oops (a fault in the
 * oops path itself) goes straight to the failure exit instead of
 * recursing.
 */
#include "arch/x86/desc.h"
#include "arch/x86/irq.h"
#include "asm/processor.h"
#include "asm/ptrace.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/printk.h"

static const char *const trap_names[NR_EXCEPTIONS] = {
	[0] = "divide error",
	[1] = "debug",
	[2] = "NMI",
	[3] = "int3",
	[4] = "overflow",
	[5] = "bounds",
	[6] = "invalid opcode",
	[7] = "device not available",
	[8] = "double fault",
	[9] = "coprocessor segment overrun",
	[10] = "invalid TSS",
	[11] = "segment not present",
	[12] = "stack segment",
	[13] = "general protection fault",
	[14] = "page fault",
	[15] = "reserved (15)",
	[16] = "coprocessor error",
	[17] = "alignment check",
	[18] = "machine check",
	[19] = "SIMD exception",
	[20] = "virtualization exception",
	[21] = "control protection",
	[22] = "reserved (22)",
	[23] = "reserved (23)",
	[24] = "reserved (24)",
	[25] = "reserved (25)",
	[26] = "reserved (26)",
	[27] = "reserved (27)",
	[28] = "hypervisor injection",
	[29] = "VMM communication",
	[30] = "security exception",
	[31] = "reserved (31)",
};

#define PF_PROT 0x1
#define PF_WRITE 0x2
#define PF_USER 0x4
#define PF_RSVD 0x8
#define PF_INSTR 0x10

static int die_counter;

static void show_page_fault(const struct pt_regs *regs, u32 cr2)
{
	u32 err = regs->error_code;

	if (cr2 < 4096)
		pr_alert("BUG: kernel NULL pointer dereference, address: %08x\n",
			 cr2);
	else
		pr_alert("BUG: unable to handle page fault for address: %08x\n",
			 cr2);
	pr_alert("#PF: supervisor %s access in %s mode\n",
		 (err & PF_INSTR) ? "instruction fetch" :
		 (err & PF_WRITE) ? "write" : "read",
		 (err & PF_USER) ? "user" : "kernel");
	pr_alert("#PF: error_code(0x%04x) - %s%s\n", err,
		 (err & PF_PROT) ? "permissions violation" : "not-present page",
		 (err & PF_RSVD) ? ", reserved bit set" : "");
}

void show_regs(const struct pt_regs *regs)
{
	pr_emerg("EIP: %04x:%08x EFLAGS: %08x\n", regs->cs & 0xffff,
		 regs->eip, regs->eflags);
	pr_emerg("EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n", regs->eax,
		 regs->ebx, regs->ecx, regs->edx);
	pr_emerg("ESI: %08x EDI: %08x EBP: %08x ESP: %08lx\n", regs->esi,
		 regs->edi, regs->ebp, kernel_stack_pointer(regs));
	pr_emerg("DS: %04x ES: %04x FS: %04x GS: %04x\n", regs->ds & 0xffff,
		 regs->es & 0xffff, regs->fs & 0xffff, regs->gs & 0xffff);
	pr_emerg("CR0: %08x CR2: %08x CR3: %08x CR4: %08x\n", read_cr0(),
		 read_cr2(), read_cr3(), read_cr4());
	pr_emerg("Call Trace:\n");
	print_address(regs->eip);
	arch_dump_stack(regs->ebp);
}

void do_trap(struct pt_regs *regs)
{
	u32 cr2 = read_cr2();
	u32 v = regs->vector;

	if (v >= NR_EXCEPTIONS) {
		do_irq(regs);
		return;
	}
	if (die_counter++) {
		/* The oops path itself faulted: say so in one line and stop. */
		pr_emerg("oops while reporting an oops (vector %u at %08x)\n",
			 v, regs->eip);
		arch_exit(EXIT_FAILURE_STATUS);
	}
	if (v == 14)
		show_page_fault(regs, cr2);
	pr_emerg("%s: %04x [#1]\n", v < NR_EXCEPTIONS ? trap_names[v] : "trap",
		 regs->error_code & 0xffff);
	show_regs(regs);
	panic("Fatal exception");
}
