/*
 * kernel/sections.h - the kernel image's boundaries, from linker.ld.
 * Virtual addresses except where _phys says otherwise.
 */
#ifndef KERNEL_SECTIONS_H
#define KERNEL_SECTIONS_H

extern char __kernel_phys_start[], __kernel_phys_end[];
extern char __text_start[], __text_end[];
extern char __rodata_start[], __rodata_end[];
extern char __rwdata_start[], __rwdata_end[];
extern char __kbss_start[], __kbss_end[];

#endif /* KERNEL_SECTIONS_H */
