/*
 * tests/multiboot_test.c - suite "multiboot": reading the information block.
 *
 * Each case lays out a synthetic Multiboot block in a static arena that
 * stands for physical memory at FAKE_BASE, and parses it through a test
 * translator that maps [FAKE_BASE, map_end) onto the arena and refuses
 * everything else (and, when a case asks, one more range).  The boot's own
 * block is never touched.  Every expected number is written out by hand.
 * The arena and the boot_info are static: together they are far bigger
 * than the 16 KiB kernel stack.
 */
#include "kernel/multiboot.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define FAKE_BASE 0x00200000ULL
#define ARENA_SIZE 0x8000

/* Where each case puts things, as offsets into the arena. */
#define INFO_OFF 0x0000
#define MMAP_OFF 0x0200
#define CMD_OFF 0x2800
#define MODS_OFF 0x3800
#define MODSTR_OFF 0x3a00
#define PA(off) (FAKE_BASE + (off))

static u8 arena[ARENA_SIZE];
static phys_addr_t map_end;
static phys_addr_t refuse_start, refuse_end;
static struct boot_info bi;

static const void *test_xlate(phys_addr_t pa, size_t len)
{
	if (pa < FAKE_BASE || pa > map_end || len > map_end - pa)
		return NULL;
	if (pa < refuse_end && pa + len > refuse_start)
		return NULL;
	return arena + (pa - FAKE_BASE);
}

static int multiboot_test_init(struct ktest *t)
{
	memset(arena, 0, sizeof(arena));
	map_end = FAKE_BASE + ARENA_SIZE;
	refuse_start = refuse_end = 0;
	memset(&bi, 0x5a, sizeof(bi)); /* multiboot_parse must clear it */
	return 0;
}

static void put_info(const struct multiboot_info *mi)
{
	memcpy(arena + INFO_OFF, mi, sizeof(*mi));
}

/*
 * Writes an entry at off with the given size field (bytes after the
 * field), filling any bytes past the 20 it defines with 0xa5, and returns
 * where the next entry goes.
 */
static size_t put_entry(size_t off, u32 size, u64 addr, u64 len, u32 type)
{
	struct multiboot_mmap_entry e = {
		.size = size, .addr = addr, .len = len, .type = type,
	};

	memcpy(arena + off, &e, sizeof(e));
	if (size > 20)
		memset(arena + off + sizeof(e), 0xa5, size - 20);
	return off + 4 + size;
}

static void put_str(size_t off, const char *s)
{
	memcpy(arena + off, s, strlen(s) + 1);
}

static int parse(void)
{
	return multiboot_parse(MULTIBOOT_BOOTLOADER_MAGIC, PA(INFO_OFF),
			       test_xlate, &bi);
}

#define EXPECT_ENTRY(t, i, a, l, ty)                                         \
	do {                                                                 \
		KTEST_EXPECT_EQ(t, bi.mmap[i].addr, (u64)(a));              \
		KTEST_EXPECT_EQ(t, bi.mmap[i].len, (u64)(l));               \
		KTEST_EXPECT_EQ(t, bi.mmap[i].type, (u32)(ty));             \
	} while (0)

#define EXPECT_RANGE(t, i, s, e)                                             \
	do {                                                                 \
		KTEST_EXPECT_EQ(t, bi.reserved[i].start, (phys_addr_t)(s));  \
		KTEST_EXPECT_EQ(t, bi.reserved[i].end, (phys_addr_t)(e));    \
	} while (0)

/* A map like QEMU's for 128 MiB, plus a high reserved hole. */
static void normal_map(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_MEM_MAP,
		.mem_lower = 639, .mem_upper = 130048,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 6 * 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	off = put_entry(off, 20, 0x9fc00, 0x400, 2);
	off = put_entry(off, 20, 0xf0000, 0x10000, 2);
	off = put_entry(off, 20, 0x100000, 0x7ee0000, 1);
	off = put_entry(off, 20, 0x7fe0000, 0x20000, 2);
	put_entry(off, 20, 0xfffc0000, 0x40000, 2);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.flags, 0x41U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 639U);
	KTEST_EXPECT_EQ(t, bi.mem_upper_kb, 130048U);
	KTEST_EXPECT_TRUE(t, bi.has_mmap);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 6U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 1, 0x9fc00, 0x400, 2);
	EXPECT_ENTRY(t, 2, 0xf0000, 0x10000, 2);
	EXPECT_ENTRY(t, 3, 0x100000, 0x7ee0000, 1);
	EXPECT_ENTRY(t, 4, 0x7fe0000, 0x20000, 2);
	EXPECT_ENTRY(t, 5, 0xfffc0000, 0x40000, 2);
	KTEST_EXPECT_EQ(t, bi.mmap_dropped, 0U);
	KTEST_EXPECT_EQ(t, bi.nr_modules, 0U);
	KTEST_EXPECT_STREQ(t, bi.cmdline, "");
}

/* Sizes 24, 20 and 32: strides 28, 24 and 36, padding skipped. */
static void entry_size_above_20(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 28 + 24 + 36,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 24, 0x0, 0x9f000, 1);
	off = put_entry(off, 20, 0x100000, 0x100000, 1);
	off = put_entry(off, 32, 0x200000, 0x300000, 3);
	KTEST_EXPECT_EQ(t, off, (size_t)(MMAP_OFF + 88));

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 3U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9f000, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0x100000, 1);
	EXPECT_ENTRY(t, 2, 0x200000, 0x300000, 3);
}

static void zero_length_kept(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 3 * 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	off = put_entry(off, 20, 0x100000, 0, 1);
	put_entry(off, 20, 0x200000, 0x100000, 1);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 3U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0, 1);
	EXPECT_ENTRY(t, 2, 0x200000, 0x100000, 1);
}

static void unsorted_kept(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 4 * 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x100000, 0x200000, 1);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	off = put_entry(off, 20, 0x200000, 0x100000, 2); /* overlaps [0] */
	put_entry(off, 20, 0xf0000, 0x10000, 2);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 4U);
	EXPECT_ENTRY(t, 0, 0x100000, 0x200000, 1);
	EXPECT_ENTRY(t, 1, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 2, 0x200000, 0x100000, 2);
	EXPECT_ENTRY(t, 3, 0xf0000, 0x10000, 2);
}

static void above_4g_kept(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 3 * 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x100000, 0x7f00000, 1);
	off = put_entry(off, 20, 0x100000000ULL, 0x40000000ULL, 1);
	put_entry(off, 20, 0xfd00000000ULL, 0x300000000ULL, 2);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 3U);
	EXPECT_ENTRY(t, 1, 0x100000000ULL, 0x40000000ULL, 1);
	EXPECT_ENTRY(t, 2, 0xfd00000000ULL, 0x300000000ULL, 2);
}

static void length_cuts_last_entry(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 3 * 24 - 4,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	off = put_entry(off, 20, 0x100000, 0x100000, 1);
	put_entry(off, 20, 0x200000, 0x100000, 1);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MMAP_CUT);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 2U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0x100000, 1);

	/* Two bytes past the second entry: not even a size field. */
	mi.mmap_length = 2 * 24 + 2;
	put_info(&mi);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MMAP_CUT);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 2U);
}

static void entry_size_below_20(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 24 + 20 + 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	off = put_entry(off, 16, 0x100000, 0x100000, 1);
	put_entry(off, 20, 0x200000, 0x100000, 1);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_ENTRY_SIZE);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 1U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);

	/* Size 0 must not loop forever. */
	put_entry(MMAP_OFF + 24, 0, 0x100000, 0x100000, 1);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_ENTRY_SIZE);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 1U);
}

static void no_mmap_uses_mem_fields(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY,
		.mem_lower = 639, .mem_upper = 130048,
	};

	put_info(&mi);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_FALSE(t, bi.has_mmap);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 2U);
	/* 639 KiB = 0x9fc00; 130048 KiB = 0x7f00000. */
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0x7f00000, 1);

	/* A map flag with an empty map falls back the same way. */
	mi.flags |= MULTIBOOT_INFO_MEM_MAP;
	mi.mmap_addr = (u32)PA(MMAP_OFF);
	mi.mmap_length = 0;
	put_info(&mi);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 2U);
}

static void no_memory_info(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_CMDLINE,
		.cmdline = (u32)PA(CMD_OFF),
	};

	put_info(&mi);
	put_str(CMD_OFF, "quiet");
	KTEST_EXPECT_EQ(t, parse(), -ENOENT);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 0U);
	/* The rest is still read, for the messages. */
	KTEST_EXPECT_STREQ(t, bi.cmdline, "quiet");
}

static void wrong_magic(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY,
		.mem_lower = 639, .mem_upper = 130048,
	};

	put_info(&mi);
	KTEST_EXPECT_EQ(t, multiboot_parse(MULTIBOOT_HEADER_MAGIC, PA(INFO_OFF),
					   test_xlate, &bi), -EINVAL);
	KTEST_EXPECT_EQ(t, bi.flags, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 0U);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 0U);
	KTEST_EXPECT_EQ(t, bi.nr_reserved, 0U);
}

/* 300 entries of 4 KiB at i * 4 KiB: 256 kept, 44 counted. */
static void too_many_entries(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEM_MAP,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 300 * 24,
	};
	size_t off = MMAP_OFF;
	u32 i;

	put_info(&mi);
	for (i = 0; i < 300; i++)
		off = put_entry(off, 20, (u64)i * 0x1000, 0x1000, 1);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_TOO_MANY);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 256U);
	KTEST_EXPECT_EQ(t, bi.mmap_dropped, 44U);
	EXPECT_ENTRY(t, 0, 0x0, 0x1000, 1);
	EXPECT_ENTRY(t, 255, 0xff000, 0x1000, 1);
	/* The whole map is still reserved. */
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 2U);
	EXPECT_RANGE(t, 1, PA(MMAP_OFF), PA(MMAP_OFF) + 7200);
}

static void cmdline_copied_raw(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_CMDLINE,
		.mem_lower = 639, .mem_upper = 130048,
		.cmdline = (u32)PA(CMD_OFF),
	};

	put_info(&mi);
	put_str(CMD_OFF, "build/mm86.elf mem=64M nosmp");
	KTEST_ASSERT_EQ(t, parse(), 0);
	/* The image path is cmdline_init()'s business, not this layer's. */
	KTEST_EXPECT_STREQ(t, bi.cmdline, "build/mm86.elf mem=64M nosmp");
	KTEST_EXPECT_FALSE(t, bi.cmdline_truncated);
	KTEST_EXPECT_EQ(t, bi.cmdline_dropped, 0U);
}

/*
 * 300 tokens "abcdefghi" joined by blanks: 2999 bytes.  Token k ends at
 * 10k + 9; the last that ends by byte 2047 is k = 203 (ends at 2039), so
 * 2039 bytes are kept and 960 dropped.
 */
static void cmdline_truncated(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_CMDLINE,
		.mem_lower = 639, .mem_upper = 130048,
		.cmdline = (u32)PA(CMD_OFF),
	};
	int i;

	put_info(&mi);
	for (i = 0; i < 300; i++)
		memcpy(arena + CMD_OFF + i * 10, "abcdefghi ", 10);
	arena[CMD_OFF + 2999] = '\0';

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_TRUE(t, bi.cmdline_truncated);
	KTEST_EXPECT_EQ(t, bi.cmdline_dropped, 960U);
	KTEST_EXPECT_EQ(t, strlen(bi.cmdline), (size_t)2039);
	KTEST_EXPECT_STREQ(t, bi.cmdline + 2020, "abcdefghi abcdefghi");
	/* Reserved: the whole string and its NUL. */
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 2U);
	EXPECT_RANGE(t, 1, PA(CMD_OFF), PA(CMD_OFF) + 3000);
}

/* A line of exactly 2047 bytes fits; 2048 does not. */
static void cmdline_length_limit(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_CMDLINE,
		.cmdline = (u32)PA(CMD_OFF),
	};

	put_info(&mi);
	/* "x " * 1023 + "y" = 2047 bytes */
	memset(arena + CMD_OFF, ' ', 2047);
	for (int i = 0; i < 2047; i += 2)
		arena[CMD_OFF + i] = 'x';
	arena[CMD_OFF + 2046] = 'y';
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_FALSE(t, bi.cmdline_truncated);
	KTEST_EXPECT_EQ(t, strlen(bi.cmdline), (size_t)2047);

	/* One more byte: "...x yz" is cut before "yz". */
	arena[CMD_OFF + 2047] = 'z';
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_TRUE(t, bi.cmdline_truncated);
	KTEST_EXPECT_EQ(t, bi.cmdline_dropped, 3U);
	KTEST_EXPECT_EQ(t, strlen(bi.cmdline), (size_t)2045);
}

/* A string that ends 13 bytes before the end of what is mapped. */
static void cmdline_at_end_of_mapping(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_CMDLINE,
		.cmdline = (u32)PA(0x6000 + 100 - 13),
	};

	map_end = PA(0x6000 + 100);
	put_info(&mi);
	put_str(0x6000 + 100 - 13, "quiet mem=1G");
	KTEST_ASSERT_EQ(t, parse(), 0);
	/* (No map flag: the map comes from mem_lower/mem_upper.) */
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_STREQ(t, bi.cmdline, "quiet mem=1G");
	EXPECT_RANGE(t, 1, PA(0x6000 + 87), PA(0x6000 + 100));

	/* Without its NUL it runs off the mapping: kept, but flagged. */
	arena[0x6000 + 99] = 'X';
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.bad_fields, (u32)MULTIBOOT_INFO_CMDLINE);
	KTEST_EXPECT_STREQ(t, bi.cmdline, "quiet mem=1GX");
	EXPECT_RANGE(t, 1, PA(0x6000 + 87), PA(0x6000 + 100));
}

static void put_module(size_t off, u32 start, u32 end, u32 str)
{
	struct multiboot_module m = {
		.mod_start = start, .mod_end = end, .cmdline = str,
	};

	memcpy(arena + off, &m, sizeof(m));
}

static void modules_and_strings(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_MODS,
		.mem_lower = 639, .mem_upper = 130048,
		.mods_addr = (u32)PA(MODS_OFF), .mods_count = 4,
	};

	put_info(&mi);
	put_module(MODS_OFF + 0, 0x300000, 0x301000, (u32)PA(MODSTR_OFF));
	put_module(MODS_OFF + 16, 0x400000, 0x400000, (u32)PA(MODSTR_OFF + 32));
	put_module(MODS_OFF + 32, 0x500000, 0x4ff000, (u32)PA(MODSTR_OFF + 64));
	put_module(MODS_OFF + 48, 0x600000, 0x600800, 0);
	put_str(MODSTR_OFF, "/boot/initrd.img arg=1");
	put_str(MODSTR_OFF + 32, "empty");
	put_str(MODSTR_OFF + 64, "backwards");

	KTEST_ASSERT_EQ(t, parse(), 0);
	/* The third ends before it starts: dropped.  (No map flag.) */
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MODULES | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.modules_dropped, 1U);
	KTEST_ASSERT_EQ(t, bi.nr_modules, 3U);
	KTEST_EXPECT_EQ(t, bi.modules[0].start, 0x300000ULL);
	KTEST_EXPECT_EQ(t, bi.modules[0].end, 0x301000ULL);
	KTEST_EXPECT_STREQ(t, bi.modules[0].name, "/boot/initrd.img arg=1");
	KTEST_EXPECT_EQ(t, bi.modules[1].start, 0x400000ULL);
	KTEST_EXPECT_EQ(t, bi.modules[1].end, 0x400000ULL);
	KTEST_EXPECT_STREQ(t, bi.modules[1].name, "empty");
	KTEST_EXPECT_EQ(t, bi.modules[2].start, 0x600000ULL);
	KTEST_EXPECT_STREQ(t, bi.modules[2].name, "");
	/* Info block, the list, module 0, module 3 (module 1 is empty). */
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 4U);
	EXPECT_RANGE(t, 1, PA(MODS_OFF), PA(MODS_OFF) + 64);
	EXPECT_RANGE(t, 2, 0x300000, 0x301000);
	EXPECT_RANGE(t, 3, 0x600000, 0x600800);
}

static void module_name_cut(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_MODS,
		.mods_addr = (u32)PA(MODS_OFF), .mods_count = 1,
	};
	char expect[64];

	put_info(&mi);
	put_module(MODS_OFF, 0x300000, 0x301000, (u32)PA(MODSTR_OFF));
	memset(arena + MODSTR_OFF, 'n', 100);
	memset(expect, 'n', 63);
	expect[63] = '\0';
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_STREQ(t, bi.modules[0].name, expect);
}

/* 18 modules: the first 16 kept, and only their part of the list read. */
static void too_many_modules(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_MODS,
		.mods_addr = (u32)PA(MODS_OFF), .mods_count = 18,
	};
	u32 i;

	put_info(&mi);
	for (i = 0; i < 18; i++)
		put_module(MODS_OFF + i * 16, 0x1000000 + i * 0x10000,
			   0x1000000 + i * 0x10000 + 0x1000, 0);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MODULES | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.modules_dropped, 2U);
	KTEST_ASSERT_EQ(t, bi.nr_modules, 16U);
	KTEST_EXPECT_EQ(t, bi.modules[15].start, 0x10f0000ULL);
	KTEST_EXPECT_EQ(t, bi.modules[15].end, 0x10f1000ULL);
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 18U);
	EXPECT_RANGE(t, 1, PA(MODS_OFF), PA(MODS_OFF) + 256);
	EXPECT_RANGE(t, 17, 0x10f0000, 0x10f1000);
}

static void reserved_ranges_exact(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_CMDLINE |
			 MULTIBOOT_INFO_MODS | MULTIBOOT_INFO_MEM_MAP,
		.mem_lower = 639, .mem_upper = 130048,
		.cmdline = (u32)PA(CMD_OFF),
		.mods_addr = (u32)PA(MODS_OFF), .mods_count = 1,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 3 * 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	off = put_entry(off, 20, 0xf0000, 0x10000, 2);
	put_entry(off, 20, 0x100000, 0x7f00000, 1);
	put_str(CMD_OFF, "a=b");
	put_module(MODS_OFF, 0x500000, 0x510000, (u32)PA(MODSTR_OFF));
	put_str(MODSTR_OFF, "mod");

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 5U);
	EXPECT_RANGE(t, 0, PA(INFO_OFF), PA(INFO_OFF) + 116);
	EXPECT_RANGE(t, 1, PA(MMAP_OFF), PA(MMAP_OFF) + 72);
	EXPECT_RANGE(t, 2, PA(CMD_OFF), PA(CMD_OFF) + 4);
	EXPECT_RANGE(t, 3, PA(MODS_OFF), PA(MODS_OFF) + 16);
	EXPECT_RANGE(t, 4, 0x500000, 0x510000);
}

static void refused_mmap_pointer(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_MEM_MAP,
		.mem_lower = 639, .mem_upper = 130048,
		.mmap_addr = (u32)PA(MMAP_OFF), .mmap_length = 2 * 24,
	};
	size_t off = MMAP_OFF;

	put_info(&mi);
	off = put_entry(off, 20, 0x0, 0x9fc00, 1);
	put_entry(off, 20, 0x100000, 0x7f00000, 1);
	refuse_start = PA(MMAP_OFF);
	refuse_end = PA(MMAP_OFF) + 1;

	/* Falls back to mem_lower/mem_upper. */
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.bad_fields, (u32)MULTIBOOT_INFO_MEM_MAP);
	KTEST_EXPECT_FALSE(t, bi.has_mmap);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 2U);
	/* Nothing reserved for a map that could not be read. */
	KTEST_EXPECT_EQ(t, bi.nr_reserved, 1U);

	/* A wild address, and no mem fields to fall back on. */
	mi.flags = MULTIBOOT_INFO_MEM_MAP;
	mi.mmap_addr = 0xfffffff0;
	put_info(&mi);
	KTEST_EXPECT_EQ(t, parse(), -ENOENT);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 0U);
}

static void refused_info_pointer(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, multiboot_parse(MULTIBOOT_BOOTLOADER_MAGIC, 0x1000,
					   test_xlate, &bi), -ENOENT);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.nr_reserved, 0U);

	/* Flags readable, but the block is cut before mmap_addr. */
	{
		struct multiboot_info mi = {
			.flags = MULTIBOOT_INFO_MEM_MAP,
		};

		put_info(&mi);
		map_end = PA(INFO_OFF + 40);
		KTEST_EXPECT_EQ(t, parse(), -ENOENT);
		KTEST_EXPECT_EQ(t, bi.warnings,
				BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MEMINFO);
	}
}

static void refused_module_string(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_MODS,
		.mods_addr = (u32)PA(MODS_OFF), .mods_count = 1,
	};

	put_info(&mi);
	put_module(MODS_OFF, 0x300000, 0x301000, 0x10000000);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.bad_fields, (u32)MULTIBOOT_INFO_MODS);
	KTEST_ASSERT_EQ(t, bi.nr_modules, 1U);
	KTEST_EXPECT_STREQ(t, bi.modules[0].name, "");
}

/* Flag 0x200: the name is copied, cut to 63 bytes; a wild one is flagged. */
static void loader_name(struct ktest *t)
{
	struct multiboot_info mi = {
		.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_BOOT_LOADER_NAME,
		.mem_lower = 639, .mem_upper = 130048,
		.boot_loader_name = (u32)PA(CMD_OFF),
	};
	char want[64];

	put_info(&mi);
	put_str(CMD_OFF, "GRUB 2.06-13+deb12u2");
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_STREQ(t, bi.loader_name, "GRUB 2.06-13+deb12u2");
	/* Read only, never reserved: the info block alone. */
	KTEST_EXPECT_EQ(t, bi.nr_reserved, 1U);

	memset(arena + CMD_OFF, 'g', 100);
	memset(want, 'g', 63);
	want[63] = '\0';
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_STREQ(t, bi.loader_name, want);

	/* Without the flag the field is not read. */
	mi.flags = MULTIBOOT_INFO_MEMORY;
	put_info(&mi);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_STREQ(t, bi.loader_name, "");

	mi.flags = MULTIBOOT_INFO_MEMORY | MULTIBOOT_INFO_BOOT_LOADER_NAME;
	mi.boot_loader_name = 0x10000000;
	put_info(&mi);
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.bad_fields,
			(u32)MULTIBOOT_INFO_BOOT_LOADER_NAME);
	KTEST_EXPECT_STREQ(t, bi.loader_name, "");
}

static const struct ktest_case multiboot_cases[] = {
	KTEST_CASE(normal_map),
	KTEST_CASE(entry_size_above_20),
	KTEST_CASE(zero_length_kept),
	KTEST_CASE(unsorted_kept),
	KTEST_CASE(above_4g_kept),
	KTEST_CASE(length_cuts_last_entry),
	KTEST_CASE(entry_size_below_20),
	KTEST_CASE(no_mmap_uses_mem_fields),
	KTEST_CASE(no_memory_info),
	KTEST_CASE(wrong_magic),
	KTEST_CASE(too_many_entries),
	KTEST_CASE(cmdline_copied_raw),
	KTEST_CASE(cmdline_truncated),
	KTEST_CASE(cmdline_length_limit),
	KTEST_CASE(cmdline_at_end_of_mapping),
	KTEST_CASE(modules_and_strings),
	KTEST_CASE(module_name_cut),
	KTEST_CASE(too_many_modules),
	KTEST_CASE(reserved_ranges_exact),
	KTEST_CASE(refused_mmap_pointer),
	KTEST_CASE(refused_info_pointer),
	KTEST_CASE(refused_module_string),
	KTEST_CASE(loader_name),
	KTEST_END,
};

static const struct ktest_suite multiboot_suite = {
	.name = "multiboot",
	.init = multiboot_test_init,
	.cases = multiboot_cases,
};
KTEST_SUITE(multiboot_suite);
