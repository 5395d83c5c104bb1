/*
 * kernel/arch.h - what kernel/ asks of the architecture.
 *
 * arch/x86 implements it on the PC; arch/host implements the same calls in
 * Linux user space for the host unit tests.  Nothing here is x86-specific.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include "lib/compiler.h"
#include "lib/types.h"

/* Console, descriptor tables, trap handlers: the first thing start_kernel does. */
void arch_early_init(void);

/* Calibrates the clock; printk timestamps count from here. */
void arch_time_init(void);

/* Nanoseconds since arch_time_init() (0 before it). */
u64 arch_clock_ns(void);

/* Cycle-counter frequency in kHz (0 before arch_time_init()). */
unsigned long arch_cpu_khz(void);

/* Status values for arch_exit(); QEMU reports them as 33 and 35. */
#define EXIT_ALL_PASSED 0x10
#define EXIT_FAILURE_STATUS 0x11

/* Ends the run with a status: QEMU's isa-debug-exit, else halt for ever. */
void arch_exit(int status) __noreturn;

/* For the must-fail boot that proves a triple fault is judged a failure. */
void arch_triple_fault(void) __noreturn;

/* Prints a "Call Trace:" by walking frame pointers from frame. */
void arch_dump_stack(unsigned long frame);

/* Prints one call-trace line: " [<address>] function+offset/size". */
void print_address(unsigned long addr);

/*
 * Maps a boot loader pointer: the virtual address of [pa, pa + len), or
 * NULL when that range is outside the early linear map.
 */
const void *arch_early_phys_to_virt(phys_addr_t pa, size_t len);

#endif /* KERNEL_ARCH_H */
