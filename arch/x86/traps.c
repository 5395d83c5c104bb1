/*
 * arch/x86/traps.c - what happens when the CPU raises an exception.
 *
 * mm86 has no user space, so every exception is a kernel bug: do_trap()
 * prints an oops in Linux's shape and panics with "Fatal exception".  Its
 * first line says what happened, in Linux's words (die()'s): the
 * exception's name, the error code, the oops count and the kernel's
 * configuration - "divide error: 0000 [#1] PREEMPT SMP", "general
 * protection fault: 0000 [#1] PREEMPT SMP" (mm86 is always built for SMP,
 * and its kernel code is preemptible, as with CONFIG_PREEMPT).  A page
 * fault is first explained as Linux 2.6.28 to 4.x explained it
 * (show_fault_oops, dump_pagetable), and its oops line is "Oops:":
 *
 *   BUG: unable to handle kernel NULL pointer dereference at 00000000
 *   IP: [<c0123456>] function+0x12/0x40
 *   *pde = 00000000
 *   Oops: 0000 [#1] PREEMPT SMP
 *
 * ("paging request" instead of "NULL pointer dereference" for an address
 * past the first page).  Then the registers, CR2 and a call trace from
 * the frame pointers.  An oops taken while printing an oops (a fault in
 * the oops path itself) goes straight to the failure exit instead of
 * recursing.
 */
#include "arch/x86/desc.h"
#include "arch/x86/irq.h"
#include "asm/page.h"
#include "asm/processor.h"
#include "asm/ptrace.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/kallsyms.h"
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

/* The entries' bits dump_pagetable reads (as arch/x86/pgtable.c names them). */
#define PTE_P 0x001	/* present */
#define PDE_PS 0x080	/* a 4 MiB page, not a page table */

static int die_counter;

/*
 * The page directory entry of address, and its page table entry when the
 * entry maps a page table (2.6's dump_pagetable, 32-bit without PAE).
 */
static void dump_pagetable(u32 address)
{
	const u32 *pgd = __va(read_cr3() & PAGE_MASK);
	u32 pde = pgd[address >> 22], pte;

	if (!(pde & PTE_P) || (pde & PDE_PS)) {
		pr_alert("*pde = %08x\n", pde);
		return;
	}
	pte = ((const u32 *)__va(pde & PAGE_MASK))[(address >> PAGE_SHIFT) & 1023];
	pr_alert("*pde = %08x *pte = %08x\n", pde, pte);
}

/* What a page fault was, before the oops line (2.6.28's show_fault_oops). */
static void show_fault_oops(const struct pt_regs *regs, u32 cr2)
{
	char sym[96];

	pr_alert("BUG: unable to handle kernel %s at %08x\n",
		 cr2 < PAGE_SIZE ? "NULL pointer dereference" : "paging request",
		 cr2);
	if (kallsyms_lookup(regs->eip, sym, sizeof(sym)))
		pr_alert("IP: [<%08x>] %s\n", regs->eip, sym);
	else
		pr_alert("IP: [<%08x>]\n", regs->eip);
	dump_pagetable(cr2);
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
		show_fault_oops(regs, cr2);
	/* Linux's die(): a page fault's oops is "Oops", the rest by name. */
	pr_emerg("%s: %04x [#%d] PREEMPT SMP\n",
		 v == 14 ? "Oops" : trap_names[v], regs->error_code & 0xffff,
		 die_counter);
	show_regs(regs);
	panic("Fatal exception");
}
