/*
 * arch/x86/desc.h - descriptor tables.  Also included by entry.S.
 */
#ifndef ARCH_X86_DESC_H
#define ARCH_X86_DESC_H

#define NR_EXCEPTIONS 32
#define NR_VECTORS 256
#define TRAP_STUB_SIZE 16 /* bytes between the entry stubs of entry.S */

#ifndef __ASSEMBLER__
void gdt_init(void);
void load_gdt_on_this_cpu(int cpu);
void set_percpu_segment(int cpu, unsigned long base);
void reload_percpu_segment(int cpu);
void idt_init(void);
void load_idt(void);
void set_intr_gate(unsigned int vector, const void *handler);
/* Loads a zero-limit IDT: the next exception triple-faults the CPU. */
void load_empty_idt(void);
#endif

#endif
