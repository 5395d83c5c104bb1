/*
 * arch/x86/desc.c - the GDT and the IDT.
 *
 * The boot loader's GDT is not ours to keep (Multiboot promises nothing
 * about it), so the first thing the kernel does is load its own: a null
 * descriptor and flat ring-0 code and data segments.  The IDT gets an
 * interrupt gate for each of the 32 exception vectors, pointing at the
 * stubs of entry.S, laid out at a fixed stride; vectors 32-255 get gates
 * too, so an unexpected interrupt is reported, not a triple fault.
 * Each CPU also has a per-CPU data segment (asm/segment.h).
 */
#include "arch/x86/desc.h"
#include "asm/segment.h"
#include "kernel/arch.h"
#include "kernel/smp.h"
#include "lib/compiler.h"

struct desc_ptr {
	u16 limit;
	u32 base;
} __packed;

struct gate_desc {
	u16 offset_low;
	u16 selector;
	u8 zero;
	u8 type_attr;
	u16 offset_high;
} __packed;

#define GATE_INTERRUPT 0x8e /* present, DPL 0, 32-bit interrupt gate */

static u64 gdt[GDT_ENTRIES] __aligned(8);
static struct gate_desc idt[256] __aligned(8);

extern const char trap_stubs[], trap_stubs_end[];

static u64 gdt_entry(u32 base, u32 limit, u8 access, u8 flags)
{
	return ((u64)(limit & 0xffff)) | ((u64)(base & 0xffffff) << 16) |
	       ((u64)access << 40) | ((u64)((limit >> 16) & 0xf) << 48) |
	       ((u64)(flags & 0xf) << 52) | ((u64)(base >> 24) << 56);
}

void gdt_init(void)
{
	gdt[0] = 0;
	/* access: present, ring 0, code/data, exec-read or read-write */
	gdt[GDT_ENTRY_KERNEL_CS] = gdt_entry(0, 0xfffff, 0x9a, 0xc);
	gdt[GDT_ENTRY_KERNEL_DS] = gdt_entry(0, 0xfffff, 0x92, 0xc);
	/* Until per-CPU areas exist every CPU's segment has base 0, so %fs:var
	 * reads the template, which is CPU 0's data at boot. */
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		gdt[GDT_ENTRY_PERCPU + cpu] = gdt_entry(0, 0xfffff, 0x92, 0xc);
	load_gdt_on_this_cpu(0);
}

void load_gdt_on_this_cpu(int cpu)
{
	struct desc_ptr p = { sizeof(gdt) - 1, (u32)gdt };

	__asm__ __volatile__("lgdt %0\n\t"
			     "ljmp %1, $1f\n"
			     "1:\n\t"
			     "movl %2, %%eax\n\t"
			     "movl %%eax, %%ds\n\t"
			     "movl %%eax, %%es\n\t"
			     "movl %%eax, %%ss\n\t"
			     "movl %3, %%eax\n\t"
			     "movl %%eax, %%fs\n\t"
			     "xorl %%eax, %%eax\n\t"
			     "movl %%eax, %%gs"
			     :
			     : "m"(p), "i"(__KERNEL_CS), "i"(__KERNEL_DS),
			       "r"(__PERCPU_SEG(cpu))
			     : "eax", "memory");
}

void set_percpu_segment(int cpu, unsigned long base)
{
	gdt[GDT_ENTRY_PERCPU + cpu] = gdt_entry(base, 0xfffff, 0x92, 0xc);
}

/* Reloads %fs so that a changed per-CPU segment base takes effect here. */
void reload_percpu_segment(int cpu)
{
	__asm__ __volatile__("movl %0, %%fs" : : "r"(__PERCPU_SEG(cpu)) : "memory");
}

void set_intr_gate(unsigned int vector, const void *handler)
{
	u32 addr = (u32)handler;

	idt[vector].offset_low = addr & 0xffff;
	idt[vector].selector = __KERNEL_CS;
	idt[vector].zero = 0;
	idt[vector].type_attr = GATE_INTERRUPT;
	idt[vector].offset_high = addr >> 16;
}

void load_idt(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (u32)idt };

	__asm__ __volatile__("lidt %0" : : "m"(p));
}

void idt_init(void)
{
	BUILD_BUG_ON(sizeof(struct gate_desc) != 8);
	for (unsigned int v = 0; v < NR_VECTORS; v++)
		set_intr_gate(v, trap_stubs + v * TRAP_STUB_SIZE);
	load_idt();
}

void load_empty_idt(void)
{
	struct desc_ptr p = { 0, 0 };

	__asm__ __volatile__("lidt %0" : : "m"(p));
}

void arch_set_percpu_base(int cpu, unsigned long base)
{
	set_percpu_segment(cpu, base);
	if (cpu == smp_processor_id())
		reload_percpu_segment(cpu);
}
