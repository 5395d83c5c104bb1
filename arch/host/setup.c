/*
 * arch/host/setup.c - the user-space build's console, clock, exit and
 * stack traces, and host_boot_info(): a PC-like firmware map over the
 * arena (the first 639 KiB usable, the BIOS hole up to 1 MiB, the rest
 * usable) with a command line, as a boot loader would hand it over.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch/host/host.h"
#include "kernel/arch.h"
#include "kernel/kallsyms.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/version.h"

/*
 * The kernel image's boundaries (kernel/sections.h): the host build has no
 * image to measure, so every boundary is one and the same byte.
 */
char host_no_image[1];
#define NO_IMAGE(sym) extern char sym[1] __attribute__((alias("host_no_image")))
NO_IMAGE(__text_start);
NO_IMAGE(__text_end);
NO_IMAGE(__rodata_start);
NO_IMAGE(__rodata_end);
NO_IMAGE(__rwdata_start);
NO_IMAGE(__rwdata_end);
NO_IMAGE(__kbss_start);
NO_IMAGE(__kbss_end);
NO_IMAGE(__kernel_phys_start);
NO_IMAGE(__kernel_phys_end);

static struct boot_info boot_info_storage;
static struct timespec boot_time;
static unsigned long cpu_khz;

static void stdout_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

static const struct console stdout_console = {
	.name = "stdout",
	.write = stdout_write,
};

void arch_early_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	register_console(&stdout_console);
}

void arch_time_init(void)
{
	struct timespec a, b;
	u64 t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &boot_time);
	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __builtin_ia32_rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
	       10000000L);
	t1 = __builtin_ia32_rdtsc();
	cpu_khz = (unsigned long)((t1 - t0) / 10);
}

u64 arch_clock_ns(void)
{
	struct timespec now;

	if (!boot_time.tv_sec && !boot_time.tv_nsec)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (u64)(now.tv_sec - boot_time.tv_sec) * 1000000000ULL +
	       (u64)(now.tv_nsec - boot_time.tv_nsec);
}

unsigned long arch_cpu_khz(void)
{
	return cpu_khz;
}

void udelay(unsigned long usecs)
{
	usleep((useconds_t)usecs);
}

bool host_exit_aborts;

void arch_exit(int status)
{
	fflush(stdout);
	if (host_exit_aborts && status != EXIT_ALL_PASSED)
		abort();
	_exit(status == EXIT_ALL_PASSED ? 0 : 1);
}

void arch_triple_fault(void)
{
	fflush(stdout);
	abort();
}

void print_address(unsigned long addr)
{
	pr_emerg(" [<%016lx>]\n", addr);
}

void arch_dump_stack(unsigned long frame)
{
	void *pcs[24];
	int n = backtrace(pcs, 24);

	fflush(stdout);
	backtrace_symbols_fd(pcs, n, STDOUT_FILENO);
}

const void *arch_early_phys_to_virt(phys_addr_t pa, size_t len)
{
	return NULL;
}

void arch_kernel_image(phys_addr_t *start, phys_addr_t *end)
{
	*start = *end = 0;
}

static void add_range(struct boot_info *bi, u64 addr, u64 len, u32 type)
{
	bi->mmap[bi->nr_mmap].addr = addr;
	bi->mmap[bi->nr_mmap].len = len;
	bi->mmap[bi->nr_mmap].type = type;
	bi->nr_mmap++;
}

struct boot_info *host_boot_info(unsigned long mem_bytes, const char *cmdline)
{
	struct boot_info *bi = &boot_info_storage;

	memset(bi, 0, sizeof(*bi));
	bi->has_mmap = true;
	add_range(bi, 0, 0x9fc00, 1);
	add_range(bi, 0x9fc00, 0x100000 - 0x9fc00, 2);
	add_range(bi, 0x100000, mem_bytes - 0x100000, 1);
	snprintf(bi->cmdline, sizeof(bi->cmdline), "%s", cmdline);
	return bi;
}
