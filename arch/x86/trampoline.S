/*
 * arch/x86/trampoline.S - where an application processor starts.
 *
 * A startup IPI starts a CPU in real mode at CS:IP = (vector << 8):0000,
 * so this code is copied to a page below 1 MiB (reserved by memblock) and
 * runs there, position-independent: it takes its own physical base from
 * CS.  It loads a flat GDT, enters protected mode, turns on PSE and paging
 * with the kernel's page directory (whose low 4 MiB are mapped 1:1 for the
 * moment, see set_identity_low_mapping), takes the stack the boot CPU
 * allocated for it and jumps to ap_start_kernel(cpu) in the higher half.
 *
 * The parameter block at the end is filled by arch/x86/smpboot.c before
 * each start; the GDT descriptor and the far pointer hold physical
 * addresses, patched there too.
 */
#define TR(x) ((x) - trampoline_start)

	.text
	.code16
	.globl trampoline_start
	.balign 16
trampoline_start:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	xorl %ebx, %ebx
	movw %ax, %bx
	shll $4, %ebx			/* ebx = this page's physical address */
	lgdtl TR(tr_gdt_desc)
	movl %cr0, %eax
	orl $1, %eax			/* PE */
	movl %eax, %cr0
	ljmpl *TR(tr_far)

	.code32
	.globl tr_pm32
tr_pm32:
	movl $0x10, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movl %cr4, %eax
	orl $0x10, %eax			/* PSE */
	movl %eax, %cr4
	movl TR(tr_cr3)(%ebx), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $0x80010000, %eax		/* PG | WP */
	movl %eax, %cr0
	movl TR(tr_stack)(%ebx), %esp
	xorl %ebp, %ebp
	pushl TR(tr_cpu)(%ebx)		/* ap_start_kernel(cpu) */
	pushl $0			/* no return address */
	movl TR(tr_entry)(%ebx), %eax
	jmp *%eax

	.balign 8
	.globl tr_gdt
tr_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08: flat 4 GiB code */
	.quad 0x00cf92000000ffff	/* 0x10: flat 4 GiB data */
	.globl tr_gdt_desc
tr_gdt_desc:
	.word 3 * 8 - 1
	.long 0				/* patched: physical address of tr_gdt */
	.globl tr_far
tr_far:
	.long 0				/* patched: physical address of tr_pm32 */
	.word 0x08
	.globl tr_cr3, tr_stack, tr_entry, tr_cpu
tr_cr3:
	.long 0
tr_stack:
	.long 0
tr_entry:
	.long 0
tr_cpu:
	.long 0
	.globl trampoline_end
trampoline_end:
