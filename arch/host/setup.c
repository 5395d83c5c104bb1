/*
 * arch/host/setup.c - the user-space build's start-up, console, clock and
 * exit: mm86-host [--mem=MiB] [--cpus=N] [kernel command line ...].
 *
 * It lays out a PC-like firmware map over the arena (the first 639 KiB
 * usable, the BIOS hole up to 1 MiB, the rest usable), joins the remaining
 * arguments into the kernel command line, and runs the same kernel_init()
 * as the real kernel.  The exit status is 0 when every test passed.
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

static struct boot_info host_boot_info;
static struct timespec boot_time;
static unsigned long cpu_khz;

static void stdout_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

static const struct console stdout_console = { "stdout", stdout_write };

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

void arch_exit(int status)
{
	fflush(stdout);
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

int main(int argc, char **argv)
{
	struct boot_info *bi = &host_boot_info;
	unsigned long mem_mib = 128;
	size_t len = 0;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--mem=", 6)) {
			mem_mib = strtoul(argv[i] + 6, NULL, 0);
		} else if (!strncmp(argv[i], "--cpus=", 7)) {
			host_nr_cpus = (unsigned int)strtoul(argv[i] + 7, NULL, 0);
		} else {
			size_t n = strlen(argv[i]);

			if (len + n + 2 > sizeof(bi->cmdline)) {
				fprintf(stderr, "mm86-host: command line too long\n");
				return 2;
			}
			if (len)
				bi->cmdline[len++] = ' ';
			memcpy(bi->cmdline + len, argv[i], n + 1);
			len += n;
		}
	}
	if (mem_mib < 4 || mem_mib > 768 || !host_nr_cpus) {
		fprintf(stderr, "usage: mm86-host [--mem=MiB (4..768)] [--cpus=N] [command line]\n");
		return 2;
	}
	host_memory_init(mem_mib << 20);
	arch_early_init();
	pr_notice("%s (user-space build)\n", mm86_banner);
	bi->has_mmap = true;
	add_range(bi, 0, 0x9fc00, 1);
	add_range(bi, 0x9fc00, 0x100000 - 0x9fc00, 2);
	add_range(bi, 0x100000, (mem_mib << 20) - 0x100000, 1);
	kernel_init(bi);
}
