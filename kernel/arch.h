/*
 * kernel/arch.h - what kernel/ asks of the architecture.
 *
 * arch/x86 implements it on the PC; arch/host implements the same calls in
 * Linux user space for the host unit tests.  Nothing here is x86-specific.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include "lib/compiler.h"
#include "kernel/nr_cpus.h"
#include "lib/types.h"

struct boot_info;

/* The architecture-independent start-up, after the boot protocol (main.c). */
void kernel_init(const struct boot_info *bi) __noreturn;
/* kernel_init() up to a working kernel, without the tests. */
void kernel_setup(const struct boot_info *bi);

/* Where the kernel image lies in physical memory, [*start, *end). */
void arch_kernel_image(phys_addr_t *start, phys_addr_t *end);

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

/* Stops this CPU for good: interrupts off, halted. */
void arch_stop_this_cpu(void) __noreturn;

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

/* Busy-waits (calibrated cycle counter). */
void udelay(unsigned long usecs);

/* ---- the platform: CPUs and NUMA, from the firmware ---- */

/*
 * Reads the firmware's tables (ACPI on the PC: from the RSDP copy in bi
 * when the loader gave one) and fixes the CPUs: sets nr_cpu_ids (at most
 * max_cpus, at least 1) and their order.
 */
void arch_platform_init(const struct boot_info *bi, unsigned int max_cpus);

#define FW_NUMA_MAX_BLKS 32
#define FW_NUMA_MAX_LOCALITIES 8

/* What the firmware says about NUMA, in proximity domains (PXMs). */
struct fw_numa {
	unsigned int nr_blks;
	struct {
		u64 start, end;		/* [start, end) */
		unsigned int pxm;
	} blk[FW_NUMA_MAX_BLKS];	/* enabled, present memory only */
	int cpu_pxm[NR_CPUS];		/* by CPU number; -1 when unknown */
	unsigned int nr_localities;	/* 0 without a distance table */
	u8 dist[FW_NUMA_MAX_LOCALITIES][FW_NUMA_MAX_LOCALITIES];
};

/* Fills fw; false when the firmware describes no NUMA memory. */
bool arch_firmware_numa(struct fw_numa *fw);

/* ---- CPUs ---- */

/* Points cpu's per-CPU segment at base (and reloads it when cpu is us). */
void arch_set_percpu_base(int cpu, unsigned long base);

/* A page below 1 MiB, reserved at boot, for the real-mode AP trampoline. */
void arch_set_trampoline_page(phys_addr_t pa);

/*
 * Starts CPUs 1 .. nr_cpu_ids-1; alloc_stack gives each its kernel stack.
 * Returns with every CPU that answered online and idle.
 */
void arch_smp_boot_cpus(void *(*alloc_stack)(int cpu, size_t size));

/* Interrupts cpu so that it runs smp_handle_call_function(); 0, or -1
 * when the interrupt could not be delivered. */
int arch_send_call_function_ipi(int cpu);

/* Interrupts cpu so that it looks at need_resched (the reschedule IPI). */
void arch_send_reschedule(int cpu);

/* ---- time and threads ---- */

/*
 * Starts this CPU's periodic tick at HZ: each tick calls timer_interrupt()
 * in interrupt context.  The first call (on the boot CPU) calibrates.
 */
void arch_timer_start(void);

/*
 * Called with interrupts off: enables them and waits for one, atomically
 * (no interrupt can slip in between and be slept through).  Returns with
 * interrupts on.
 */
void arch_idle(void);

/* asm/switch_to.h declares struct thread_context and THREAD_SIZE. */
struct thread_context;
/* Prepares ctx to start entry() on the stack [stack, stack + size). */
void arch_thread_init(struct thread_context *ctx, void *stack, size_t size,
		      void (*entry)(void));
/* The thread whose context this was is gone (its stack is freed next). */
void arch_thread_free(struct thread_context *ctx);
/* Saves this CPU's registers in prev and continues as next.  IRQs off. */
void arch_switch_to(struct thread_context *prev, struct thread_context *next);

#endif /* KERNEL_ARCH_H */
