/*
 * arch/x86/setup.c - the PC's part of start-up and shut-down.
 *
 * arch_early_init() brings up the console before anything can print, then
 * our own GDT and the exception IDT.  arch_exit() leaves QEMU through the
 * isa-debug-exit device (QEMU exits with (status << 1) | 1: 0x10 gives 33,
 * 0x11 gives 35); on a machine without that device the write does nothing
 * and the CPU halts with interrupts off.
 */
#include "arch/x86/desc.h"
#include "arch/x86/serial.h"
#include "asm/io.h"
#include "asm/page.h"
#include "asm/processor.h"
#include "arch/x86/irq.h"
#include "kernel/arch.h"
#include "kernel/sections.h"

#define DEBUG_EXIT_PORT 0xf4

/* boot/entry.S maps this much at PAGE_OFFSET before start_kernel. */
#define EARLY_MAP_END MAXMEM

void arch_early_init(void)
{
	serial_init();
	gdt_init();
	idt_init();
	i8259_mask_all();
}

void arch_exit(int status)
{
	__asm__ __volatile__("cli");
	outb((u8)status, DEBUG_EXIT_PORT);
	for (;;)
		halt();
}

const void *arch_early_phys_to_virt(phys_addr_t pa, size_t len)
{
	if (pa >= EARLY_MAP_END || len > EARLY_MAP_END - pa)
		return NULL;
	return __va((unsigned long)pa);
}

void arch_triple_fault(void)
{
	load_empty_idt();
	__asm__ __volatile__("int3");
	for (;;)
		halt();
}

void arch_stop_this_cpu(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt" ::: "memory");
}

void arch_kernel_image(phys_addr_t *start, phys_addr_t *end)
{
	*start = (phys_addr_t)(unsigned long)__kernel_phys_start;
	*end = (phys_addr_t)(unsigned long)__kernel_phys_end;
}
