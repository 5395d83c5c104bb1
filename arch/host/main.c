/*
 * arch/host/main.c - mm86-host [--mem=MiB] [--cpus=N] [command line ...]:
 * the kernel's self-tests in user space.  The remaining arguments are the
 * kernel command line; the exit status is 0 when every test passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/host/host.h"
#include "kernel/arch.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "kernel/version.h"

int main(int argc, char **argv)
{
	static char cmdline[COMMAND_LINE_SIZE];
	unsigned long mem_mib = 128;
	size_t len = 0;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--mem=", 6)) {
			mem_mib = strtoul(argv[i] + 6, NULL, 0);
		} else if (!strncmp(argv[i], "--cpus=", 7)) {
			host_nr_cpus = (unsigned int)strtoul(argv[i] + 7, NULL, 0);
		} else {
			size_t n = strlen(argv[i]);

			if (len + n + 2 > sizeof(cmdline)) {
				fprintf(stderr, "mm86-host: command line too long\n");
				return 2;
			}
			if (len)
				cmdline[len++] = ' ';
			memcpy(cmdline + len, argv[i], n + 1);
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
	kernel_init(host_boot_info(mem_mib << 20, cmdline));
}
