/*
 * boot/entry.S - from the boot loader to start_kernel().
 *
 * The loader leaves us in 32-bit protected mode, paging off, interrupts
 * off, EAX = the loader magic of Multiboot v1 (0x2BADB002) or Multiboot 2
 * (0x36D76289), EBX = physical address of that protocol's info block.
 * Both are passed on unchanged: start_kernel() tells the versions apart.
 * This code runs at its physical address (section .boot, linked at 1 MiB)
 * and may not touch the kernel's higher-half symbols except through their
 * physical alias (sym - PAGE_OFFSET).
 *
 * Steps:
 *  1. check the magic (either version's); a wrong one prints a line on COM1 and leaves QEMU
 *     through isa-debug-exit with the failure status (0x11), or halts;
 *  2. zero .bss (loaders are required to, but it is cheap to be sure);
 *  3. check that the CPU has PSE (4 MiB pages);
 *  4. build the early page directory: the first 896 MiB mapped with 4 MiB
 *     pages both at 0 (so that the instruction after the CR0 write still
 *     has a mapping) and at PAGE_OFFSET;
 *  5. enable paging, jump to the higher half, drop the identity mapping
 *     (so that a NULL pointer faults), switch to the boot stack and call
 *     start_kernel(magic, info_phys).
 *
 * mm/ later replaces this directory's kernel half with an exact map of RAM.
 */
#define PAGE_OFFSET	0xC0000000
#define MB_LOADER_MAGIC	0x2BADB002
#define MB2_LOADER_MAGIC 0x36D76289
#define EARLY_MAP_PDES	224		/* 224 x 4 MiB = 896 MiB */
#define PDE_P		0x001
#define PDE_RW		0x002
#define PDE_PS		0x080
#define CR0_PG		0x80000000
#define CR0_WP		0x00010000
#define CR4_PSE		0x00000010
#define COM1		0x3f8
#define DEBUG_EXIT	0xf4
#define PHYS(x)		((x) - PAGE_OFFSET)

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cli
	cld
	movl %eax, %esi			/* magic */
	movl %ebx, %edi			/* info; there is no stack yet */

	cmpl $MB_LOADER_MAGIC, %esi
	je magic_ok
	cmpl $MB2_LOADER_MAGIC, %esi
	jne bad_magic
magic_ok:

	/* 2. zero .bss through its physical alias */
	movl $PHYS(__kbss_start), %edx
	movl $PHYS(__kbss_end), %ecx
	subl %edx, %ecx
	shrl $2, %ecx
	xorl %eax, %eax
	movl %edx, %edi
	rep stosl
	movl %ebx, %edi			/* info again */

	/* 3. PSE: CPUID.1:EDX bit 3 */
	movl $1, %eax
	cpuid				/* clobbers EBX; EDI still holds info */
	testl $(1 << 3), %edx
	jz no_pse

	/* 4. the early page directory */
	movl $PHYS(boot_page_dir), %edx
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $22, %eax
	orl $(PDE_P | PDE_RW | PDE_PS), %eax
	movl %eax, (%edx, %ecx, 4)			/* identity */
	movl %eax, (768 * 4)(%edx, %ecx, 4)		/* PAGE_OFFSET */
	incl %ecx
	cmpl $EARLY_MAP_PDES, %ecx
	jne 1b

	/* 5. paging on */
	movl %cr4, %eax
	orl $CR4_PSE, %eax
	movl %eax, %cr4
	movl %edx, %cr3
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0
	movl $higher_half, %eax
	jmp *%eax

/* Print the NUL-terminated string at %esi on COM1 (polling), no stack. */
boot_puts:
	movw $(COM1 + 5), %dx
2:	inb %dx, %al
	testb $0x20, %al
	jz 2b
	movb (%esi), %al
	testb %al, %al
	jz 3f
	movw $COM1, %dx
	outb %al, %dx
	incl %esi
	jmp boot_puts
3:	jmp *%ebp

bad_magic:
	movl $msg_magic, %esi
	movl $boot_fail, %ebp
	jmp boot_puts
no_pse:
	movl $msg_pse, %esi
	movl $boot_fail, %ebp
	jmp boot_puts
boot_fail:
	movb $0x11, %al
	movw $DEBUG_EXIT, %dx
	outb %al, %dx
4:	hlt
	jmp 4b

	.section .boot.data, "a"
msg_magic:
	.asciz "mm86: not started by a Multiboot loader (bad magic in EAX), stopping\r\n"
msg_pse:
	.asciz "mm86: this CPU lacks PSE (4 MiB pages), stopping\r\n"

	.section .text.entry, "ax"
higher_half:
	/* Drop the identity half: from here on, a NULL pointer faults. */
	movl $boot_page_dir, %edx
	xorl %ecx, %ecx
5:	movl $0, (%edx, %ecx, 4)
	incl %ecx
	cmpl $EARLY_MAP_PDES, %ecx
	jne 5b
	movl %cr3, %eax
	movl %eax, %cr3

	movl $boot_stack_top, %esp
	xorl %ebp, %ebp			/* ends the frame-pointer chain */
	pushl %edi			/* info (physical) */
	pushl %esi			/* magic */
	call start_kernel
6:	cli
	hlt
	jmp 6b

	.section .bss.page_aligned, "aw", @nobits
	.align 4096
	.globl boot_page_dir
boot_page_dir:
	.skip 4096
	.globl boot_stack, boot_stack_top
boot_stack:
	.skip 16384
boot_stack_top:
