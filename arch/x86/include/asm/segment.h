/*
 * asm/segment.h - the GDT layout.  Flat 4 GiB code and data segments for
 * the kernel; selectors are index * 8.
 */
#ifndef ASM_SEGMENT_H
#define ASM_SEGMENT_H

#define GDT_ENTRY_KERNEL_CS 1
#define GDT_ENTRY_KERNEL_DS 2
#define GDT_ENTRIES 3

#define __KERNEL_CS (GDT_ENTRY_KERNEL_CS * 8)
#define __KERNEL_DS (GDT_ENTRY_KERNEL_DS * 8)

#endif /* ASM_SEGMENT_H */
