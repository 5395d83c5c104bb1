/*
 * kernel/main.c - start_kernel(), the order in which mm86 comes up.
 *
 * Console and trap handlers first, so that anything after can report a
 * failure; then what the boot loader handed over (Multiboot v1 or 2 info,
 * told apart by the loader's magic: memory map, command line, modules,
 * loader name, RSDP copy), copied into kernel memory before anything
 * could overwrite it; the firmware memory map, then the early command-line
 * parameters (mem=, memmap=, page_poison=: those that shape memory
 * set-up); the clock; memory management and the scheduler; the other
 * CPUs; the remaining parameters; the slab layer.  Then every CPU's tick
 * starts, the boot context becomes CPU 0's idle task, and the init thread
 * starts kswapd and runs the self-tests, whose verdict is the exit
 * status.
 */
#include "asm/irqflags.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/lockdep.h"
#include "kernel/multiboot.h"
#include "kernel/multiboot2.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/version.h"
#include "mm/e820.h"
#include "mm/init.h"
#include "mm/mempool.h"
#include "mm/slab.h"
#include "mm/snapshot.h"
#include "mm/vmscan.h"
#include "mm/vmstat.h"
#include "tests/ktest.h"

struct boot_info boot_info;

void start_kernel(u32 magic, u32 info_pa);

/*
 * The Multiboot entry: what the boot loader handed over, then the rest.
 * boot/entry.S let only the two loader magics through; any other still
 * reaches multiboot_parse(), which refuses it.
 */
void start_kernel(u32 magic, u32 info_pa)
{
	int err;

	arch_early_init();
	pr_notice("%s\n", mm86_banner);

	if (magic == MULTIBOOT2_BOOTLOADER_MAGIC)
		err = multiboot2_parse(magic, info_pa, arch_early_phys_to_virt,
				       &boot_info);
	else
		err = multiboot_parse(magic, info_pa, arch_early_phys_to_virt,
				      &boot_info);
	multiboot_print(&boot_info);
	if (err)
		panic("no usable Multiboot information (magic %08x, info at %08x): error %d",
		      magic, info_pa, err);
	kernel_init(&boot_info);
}

/*
 * Everything after the boot protocol, on any architecture: the memory map
 * and early parameters, the clock and platform, memory management, the
 * other CPUs, the late parameters and the slab layer.  (The user-space
 * fuzzers stop here; the kernel goes on to the tests.)
 */
void kernel_setup(const struct boot_info *bi)
{
	cmdline_init(bi->cmdline);
	e820__memory_setup(bi);
	parse_early_params();
	lockdep_info();
	e820__finish_early_params();

	arch_time_init();
	arch_platform_init(bi, setup_max_cpus);
	mm_core_init(bi);
	setup_per_cpu_areas();
	sched_init();
	sched_set_thread_memory(alloc_thread_stack, free_thread_stack);
	arch_smp_boot_cpus(alloc_cpu_stack);
	parse_late_params();
	kmem_cache_init();
}

static void start_tick(void *unused)
{
	arch_timer_start();
}

/*
 * The first kernel thread (Linux's init): the daemons, then the tests,
 * in a task that may sleep.
 */
static int init_thread(void *unused)
{
	int failed;

	kswapd_init();
	pcp_decay_init();
	ktest_run_misuse();
	mm_snapshot_point(MMSNAP_BOOT, "boot");
	failed = ktest_run_all();
	mm_snapshot_point(MMSNAP_END, "end");
	show_mem_dumps();
	show_slabinfo();
	show_mempools();
	show_reclaim_stats();
	show_tasks();
	lockdep_print_stats();
	arch_exit(failed ? EXIT_FAILURE_STATUS : EXIT_ALL_PASSED);
}

/*
 * Sets everything up, starts every CPU's tick and the init thread, and
 * becomes the boot CPU's idle task; init ends the run with the verdict.
 */
void kernel_init(const struct boot_info *bi)
{
	struct task_struct *init;

	kernel_setup(bi);
	arch_timer_start();
	smp_call_function(start_tick, NULL, true);
	system_state = SYSTEM_RUNNING;
	debug_preempt_init();
	local_irq_enable();
	init = kthread_create(init_thread, NULL, "init");
	if (IS_ERR(init))
		panic("cannot start the init thread: %ld", PTR_ERR(init));
	kthread_bind(init, 0);
	wake_up_process(init);
	cpu_idle();
}
