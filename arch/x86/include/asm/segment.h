/*
 * asm/segment.h - the GDT layout.  Flat 4 GiB code and data segments for
 * the kernel, then one data segment per CPU whose base is that CPU's
 * per-CPU offset: each CPU keeps its own selector in %fs, so %fs:var is
 * its copy of a per-CPU variable.  Selectors are index * 8.
 */
#ifndef ASM_SEGMENT_H
#define ASM_SEGMENT_H

#include "kernel/nr_cpus.h"

#define GDT_ENTRY_KERNEL_CS 1
#define GDT_ENTRY_KERNEL_DS 2
#define GDT_ENTRY_PERCPU 3 /* + cpu */
#define GDT_ENTRIES (GDT_ENTRY_PERCPU + NR_CPUS)

#define __KERNEL_CS (GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS (GDT_ENTRY_KERNEL_DS * 8)
#define __PERCPU_SEG(cpu) ((GDT_ENTRY_PERCPU + (cpu)) * 8)

#endif /* ASM_SEGMENT_H */
