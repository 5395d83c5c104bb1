/*
 * tests/fuzz/fuzz_multiboot2.c - libFuzzer target: a Multiboot 2
 * information block (its tags: command line, loader name, modules, the
 * e820-style and EFI memory maps, basic memory, the RSDP copies, and any
 * other) in a fake physical memory, through multiboot2_parse() and
 * multiboot_print().
 *
 * Input: a byte (0xff: a wrong magic number; bit 0 set: the result is
 * also printed, which is slow), the block's physical address (u32,
 * little endian), then chunks of memory as tests/fuzz/fuzz_mem.h lays
 * them out.  Checked after each input:
 * check_boot_info() (tests/fuzz/fuzz_check.h), the Multiboot 2 fields
 * (the map's source and the RSDP tag agree with what was found), and
 * that the parser read nothing past what it asked for.
 */
#include <stdint.h>

#include "kernel/multiboot.h"
#include "kernel/multiboot2.h"
#include "kernel/printk.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_mem.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	console_loglevel = 0;	/* formatted, never written */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_info bi;
	u32 magic, addr;
	int ret;

	if (!fake_boot_load(data, size, MULTIBOOT2_BOOTLOADER_MAGIC, &magic, &addr))
		return 0;
	ret = multiboot2_parse(magic, addr, fake_map, &bi);
	check_boot_info(&bi, ret, 2);
	if (ret != -EINVAL) {
		if (bi.map_source > BOOT_MAP_EFI ||
		    (bi.map_source == BOOT_MAP_NONE) != !bi.nr_mmap ||
		    (bi.rsdp_len && bi.rsdp_tag != 14 && bi.rsdp_tag != 15) ||
		    (!bi.rsdp_len && bi.rsdp_tag))
			abort();
		if (data[0] & 1)	/* half the inputs: printing is slow */
			multiboot_print(&bi);
	}
	fake_reset();
	return 0;
}
