/*
 * tests/fuzz/fuzz_multiboot.c - libFuzzer target: a Multiboot 1
 * information block, its memory map, command line, modules and boot
 * loader name anywhere in a fake physical memory, through
 * multiboot_parse() and multiboot_print().
 *
 * Input: a byte (0xff: a wrong magic number, anything else the right
 * one; bit 0 set: the result is also printed, which is slow), the
 * block's physical address (u32, little endian), then chunks of memory
 * as tests/fuzz/fuzz_mem.h lays them out.  Pointers the block
 * holds that lead nowhere are refused by the translator, as the kernel's
 * does outside its linear map.  Checked after each input:
 * check_boot_info() (tests/fuzz/fuzz_check.h), and that the parser read
 * nothing it was refused (AddressSanitizer: the translator's copies are
 * exactly as long as asked).
 */
#include <stdint.h>

#include "kernel/multiboot.h"
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

	if (!fake_boot_load(data, size, MULTIBOOT_BOOTLOADER_MAGIC, &magic, &addr))
		return 0;
	ret = multiboot_parse(magic, addr, fake_map, &bi);
	check_boot_info(&bi, ret, 1);
	if (ret != -EINVAL) {
		/* No map: two ranges from mem_lower/mem_upper, or none. */
		if ((bi.warnings & BOOT_WARN_NO_MMAP) && bi.nr_mmap != 2)
			abort();
		if (data[0] & 1)	/* half the inputs: printing is slow */
			multiboot_print(&bi);
	}
	fake_reset();
	return 0;
}
