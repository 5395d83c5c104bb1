/*
 * arch/x86/stacktrace.c - call traces from frame pointers.
 *
 * The kernel is built with -fno-omit-frame-pointer, so every frame starts
 * with the caller's EBP followed by the return address.  The walk stops at
 * EBP 0 (boot/entry.S clears it before the first call), at a frame that is
 * not above the previous one, outside the kernel's half of the address
 * space, or after a fixed number of frames: a corrupt stack must not
 * turn a report into a second fault.  Each address is printed with its
 * function, from the kernel's symbol table (kernel/kallsyms.c).
 */
#include "asm/page.h"
#include "kernel/arch.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"

#define MAX_FRAMES 24
#define MAX_FRAME_SIZE 8192

void print_address(unsigned long addr)
{
	char sym[96];

	if (kallsyms_lookup(addr, sym, sizeof(sym)))
		pr_emerg(" [<%08lx>] %s\n", addr, sym);
	else
		pr_emerg(" [<%08lx>]\n", addr);
}

void arch_dump_stack(unsigned long ebp)
{
	unsigned long prev = 0;

	for (int i = 0; i < MAX_FRAMES; i++) {
		const unsigned long *frame = (const unsigned long *)ebp;

		if (ebp == 0 || ebp < PAGE_OFFSET || (ebp & 3) ||
		    (prev && (ebp <= prev || ebp - prev > MAX_FRAME_SIZE)))
			return;
		if (frame[1] < PAGE_OFFSET)
			return;
		print_address(frame[1]);
		prev = ebp;
		ebp = frame[0];
	}
	pr_emerg(" ... (more frames)\n");
}
