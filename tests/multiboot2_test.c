/*
 * tests/multiboot2_test.c - suite "multiboot2": reading the Multiboot 2
 * information block.
 *
 * Each case builds a synthetic block tag by tag in a scratch buffer, then
 * copies it to the very end of a static arena that stands for physical
 * memory at FAKE_BASE, so that a read past the block's last byte runs off
 * the arena (the host build's AddressSanitizer catches it).  The test
 * translator maps [FAKE_BASE, map_end) onto the arena, with map_end the
 * end of the block, and counts every request it refuses: a case asserts
 * that the parser asked for nothing outside the block unless the case is
 * about exactly that.  The boot's own block is never touched.  Malformed
 * cases print the parse (multiboot_print()) into a capture, which checks
 * one line per memory map entry and per module (ktest.echo=1 shows the
 * lines, each warning among them).  Every expected number is written out by hand.  The
 * arena, scratch buffer and boot_info are static: together they are far
 * bigger than the 16 KiB kernel stack.
 */
#include "kernel/multiboot2.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define FAKE_BASE 0x00200000ULL
#define ARENA_SIZE 0x4000

static u8 arena[ARENA_SIZE];
static u8 scratch[ARENA_SIZE];
static u32 cur;			/* bytes of scratch written */
static phys_addr_t info_pa, map_end;
static unsigned int refused;	/* translator requests refused */
static phys_addr_t refused_pa;	/* the last one */
static size_t refused_len;
static struct boot_info bi;

static const void *test_xlate(phys_addr_t pa, size_t len)
{
	if (pa < FAKE_BASE || pa > map_end || len > map_end - pa) {
		refused++;
		refused_pa = pa;
		refused_len = len;
		return NULL;
	}
	return arena + (pa - FAKE_BASE);
}

static int multiboot2_test_init(struct ktest *t)
{
	memset(arena, 0, sizeof(arena));
	memset(scratch, 0, sizeof(scratch));
	cur = 8;		/* after total_size and reserved */
	refused = 0;
	refused_pa = 0;
	refused_len = 0;
	memset(&bi, 0x5a, sizeof(bi)); /* multiboot2_parse must clear it */
	return 0;
}

/*
 * Appends a tag whose size field is size and whose body is len bytes of
 * body (0xa5 bytes when body is NULL); the next tag goes at the next
 * 8-byte boundary after the bytes written.  Returns the tag's offset.
 */
static u32 put_tag(u32 type, u32 size, const void *body, u32 len)
{
	u32 off = cur;

	memcpy(scratch + off, &type, 4);
	memcpy(scratch + off + 4, &size, 4);
	if (body)
		memcpy(scratch + off + 8, body, len);
	else
		memset(scratch + off + 8, 0xa5, len);
	cur = ALIGN(off + 8 + len, 8);
	return off;
}

static u32 put_string(u32 type, const char *s)
{
	u32 len = strlen(s) + 1;

	return put_tag(type, 8 + len, s, len);
}

static void put_end(void)
{
	put_tag(MULTIBOOT2_TAG_END, 8, NULL, 0);
}

static void put_meminfo(u32 lower, u32 upper)
{
	u32 body[2] = { lower, upper };

	put_tag(MULTIBOOT2_TAG_BASIC_MEMINFO, 16, body, 8);
}

static void put_module(u32 start, u32 end, const char *name)
{
	u8 body[128];
	u32 len = strlen(name) + 1;

	memcpy(body, &start, 4);
	memcpy(body + 4, &end, 4);
	memcpy(body + 8, name, len);
	put_tag(MULTIBOOT2_TAG_MODULE, 16 + len, body, 8 + len);
}

struct entry {
	u64 addr, len;
	u32 type;
};

/* Tag 6 with entries at stride esize, bytes past 24 filled with 0xa5. */
static void put_mmap(u32 esize, u32 version, const struct entry *e, u32 n)
{
	u8 *body = scratch + cur + 8;
	u32 hdr[2] = { esize, version }, i;

	for (i = 0; i < n; i++) {
		struct multiboot2_mmap_entry me = {
			.addr = e[i].addr, .len = e[i].len, .type = e[i].type,
		};
		u8 *p = body + 8 + i * esize;

		memset(p, 0xa5, esize);
		memcpy(p, &me, min(esize, (u32)sizeof(me)));
	}
	memcpy(body, hdr, 8);
	put_tag(MULTIBOOT2_TAG_MMAP, 16 + n * esize, body, 8 + n * esize);
}

struct desc {
	u32 type;
	u64 addr, pages;
};

/* Tag 17 with descriptors at stride dsize, bytes past 40 filled 0xa5. */
static void put_efi(u32 dsize, const struct desc *d, u32 n)
{
	u8 *body = scratch + cur + 8;
	u32 hdr[2] = { dsize, 1 }, i;

	for (i = 0; i < n; i++) {
		struct efi_memory_desc ed = {
			.type = d[i].type, .phys_addr = d[i].addr,
			.virt_addr = 0x5a5a5a5a5a5a5a5aULL,
			.num_pages = d[i].pages, .attribute = 0xf,
		};
		u8 *p = body + 8 + i * dsize;

		memset(p, 0xa5, dsize);
		memcpy(p, &ed, min(dsize, (u32)sizeof(ed)));
	}
	memcpy(body, hdr, 8);
	put_tag(MULTIBOOT2_TAG_EFI_MMAP, 16 + n * dsize, body, 8 + n * dsize);
}

/* A fake RSDP: signature, OEM "MM86T ", the revision, then 0x40 + i. */
static void make_rsdp(u8 *r, u32 len, u8 revision)
{
	u32 i;

	for (i = 0; i < len; i++)
		r[i] = 0x40 + i;
	memcpy(r, "RSD PTR ", 8);
	memcpy(r + 9, "MM86T ", 6);
	r[15] = revision;
}

static void put_rsdp(u32 type, u32 len, u8 revision)
{
	u8 r[64];

	make_rsdp(r, len, revision);
	put_tag(type, 8 + len, r, len);
}

/*
 * Writes total_size and places the block at the end of the arena, 8-byte
 * aligned, mapping exactly the bytes written.
 */
static void finish_total(u32 total)
{
	u32 place = ARENA_SIZE - ALIGN(cur, 8);

	memcpy(scratch, &total, 4);
	memcpy(arena + place, scratch, cur);
	info_pa = FAKE_BASE + place;
	map_end = info_pa + cur;
}

/* The same, total_size being the bytes written. */
static void finish(void)
{
	finish_total(cur);
}

static int parse(void)
{
	return multiboot2_parse(MULTIBOOT2_BOOTLOADER_MAGIC, info_pa,
				test_xlate, &bi);
}

/* Parses, prints (for the log), and checks nothing was asked outside. */
/* What print_parse() caught of multiboot_print()'s lines. */
static struct {
	unsigned int mmap, modules;
} printed;

static void count_print_line(const char *line)
{
	static const char mmap[] = "multiboot: mmap[", module[] = "multiboot: module[";

	if (!strncmp(line, mmap, sizeof(mmap) - 1))
		printed.mmap++;
	else if (!strncmp(line, module, sizeof(module) - 1))
		printed.modules++;
}

/* multiboot_print() of the parse: a line per map entry and per module. */
static void print_parse(struct ktest *t)
{
	memset(&printed, 0, sizeof(printed));
	ktest_capture_start(count_print_line);
	multiboot_print(&bi);
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, printed.mmap, bi.nr_mmap);
	KTEST_EXPECT_EQ(t, printed.modules, bi.nr_modules);
}

static int parse_print(struct ktest *t)
{
	int ret = parse();

	print_parse(t);
	KTEST_EXPECT_EQ(t, refused, 0U);
	return ret;
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

/* QEMU's BIOS map for 512 MiB, as GRUB passes it. */
static const struct entry bios_map[] = {
	{ 0x0, 0x9fc00, 1 },
	{ 0x9fc00, 0x400, 2 },
	{ 0xf0000, 0x10000, 2 },
	{ 0x100000, 0x1fee0000, 1 },
	{ 0x1ffe0000, 0x20000, 2 },
	{ 0xfffc0000, 0x40000, 2 },
};

/* Tag order as GRUB writes it, with tags this kernel does not use. */
static void grub_like_block(struct ktest *t)
{
	u8 bootdev[12] = { 0xe0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
			   0xff, 0xff, 0xff, 0xff };
	u8 rsdp[20];

	put_string(MULTIBOOT2_TAG_CMDLINE, "quiet mem=256M");
	put_string(MULTIBOOT2_TAG_BOOT_LOADER_NAME, "GRUB 2.06-13+deb12u2");
	put_module(0x800000, 0x804000, "/boot/initrd arg=1");
	put_module(0x805000, 0x805800, "");
	put_meminfo(639, 523136);
	put_tag(MULTIBOOT2_TAG_BOOTDEV, 20, bootdev, 12);
	put_mmap(24, 0, bios_map, ARRAY_SIZE(bios_map));
	put_tag(8, 32, NULL, 24);	/* framebuffer */
	put_tag(9, 20, NULL, 12);	/* ELF sections */
	put_rsdp(MULTIBOOT2_TAG_ACPI_OLD, 20, 0);
	put_tag(MULTIBOOT2_TAG_LOAD_BASE_ADDR, 12, NULL, 4);
	put_end();
	finish();
	KTEST_EXPECT_EQ(t, cur, 440U);

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, refused, 0U);
	KTEST_EXPECT_EQ(t, bi.protocol, 2U);
	KTEST_EXPECT_EQ(t, bi.flags, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_EXPECT_EQ(t, bi.bad_fields, 0U);
	KTEST_EXPECT_EQ(t, bi.mb2_total_size, 440U);
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 639U);
	KTEST_EXPECT_EQ(t, bi.mem_upper_kb, 523136U);
	KTEST_EXPECT_TRUE(t, bi.has_mmap);
	KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_MMAP);
	KTEST_EXPECT_EQ(t, bi.map_entries, 6U);
	KTEST_EXPECT_EQ(t, bi.mmap_entry_size, 24U);
	KTEST_EXPECT_EQ(t, bi.mmap_entry_version, 0U);
	KTEST_EXPECT_EQ(t, bi.efi_descr_size, 0U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 6U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 1, 0x9fc00, 0x400, 2);
	EXPECT_ENTRY(t, 2, 0xf0000, 0x10000, 2);
	EXPECT_ENTRY(t, 3, 0x100000, 0x1fee0000, 1);
	EXPECT_ENTRY(t, 4, 0x1ffe0000, 0x20000, 2);
	EXPECT_ENTRY(t, 5, 0xfffc0000, 0x40000, 2);
	KTEST_EXPECT_EQ(t, bi.mmap_dropped, 0U);
	KTEST_EXPECT_STREQ(t, bi.cmdline, "quiet mem=256M");
	KTEST_EXPECT_FALSE(t, bi.cmdline_truncated);
	KTEST_EXPECT_STREQ(t, bi.loader_name, "GRUB 2.06-13+deb12u2");
	KTEST_ASSERT_EQ(t, bi.nr_modules, 2U);
	KTEST_EXPECT_EQ(t, bi.modules[0].start, 0x800000ULL);
	KTEST_EXPECT_EQ(t, bi.modules[0].end, 0x804000ULL);
	KTEST_EXPECT_STREQ(t, bi.modules[0].name, "/boot/initrd arg=1");
	KTEST_EXPECT_EQ(t, bi.modules[1].start, 0x805000ULL);
	KTEST_EXPECT_EQ(t, bi.modules[1].end, 0x805800ULL);
	KTEST_EXPECT_STREQ(t, bi.modules[1].name, "");
	KTEST_EXPECT_EQ(t, bi.modules_dropped, 0U);
	KTEST_EXPECT_EQ(t, bi.rsdp_tag, 14U);
	KTEST_ASSERT_EQ(t, bi.rsdp_len, 20U);
	make_rsdp(rsdp, 20, 0);
	KTEST_EXPECT_MEMEQ(t, bi.rsdp, rsdp, 20);
	KTEST_EXPECT_EQ(t, bi.unknown_tags, 0U);
	KTEST_EXPECT_EQ(t, bi.short_tags, 0U);
	/* The block, then the modules. */
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 3U);
	EXPECT_RANGE(t, 0, info_pa, info_pa + 440);
	EXPECT_RANGE(t, 1, 0x800000, 0x804000);
	EXPECT_RANGE(t, 2, 0x805000, 0x805800);
}

/*
 * Every EFI type, the runs Linux's setup_e820() merges, a gap that stops
 * a merge, and memory above 4 GiB; OVMF's 48-byte stride.
 */
static const struct desc efi_map[] = {
	{ EFI_CONVENTIONAL_MEMORY, 0x0, 0x30 },
	{ EFI_BOOT_SERVICES_CODE, 0x30000, 0x20 },
	{ EFI_RUNTIME_SERVICES_DATA, 0x50000, 0x10 },
	{ EFI_RESERVED_TYPE, 0x60000, 0x10 },
	{ EFI_LOADER_CODE, 0x70000, 0x10 },
	{ EFI_LOADER_DATA, 0x80000, 0x1f },
	{ EFI_CONVENTIONAL_MEMORY, 0x100000, 0x700 },
	{ EFI_ACPI_RECLAIM_MEMORY, 0x800000, 0x10 },
	{ EFI_ACPI_MEMORY_NVS, 0x810000, 0x10 },
	{ EFI_UNUSABLE_MEMORY, 0x820000, 0x10 },
	{ EFI_PERSISTENT_MEMORY, 0x830000, 0x10 },
	{ EFI_RUNTIME_SERVICES_CODE, 0x840000, 0x10 },
	{ EFI_MEMORY_MAPPED_IO, 0x850000, 0x10 },
	{ EFI_MEMORY_MAPPED_IO_PORT_SPACE, 0x860000, 0x10 },
	{ EFI_PAL_CODE, 0x870000, 0x10 },
	{ EFI_UNACCEPTED_MEMORY, 0x880000, 0x10 },
	{ 0x70000000, 0x890000, 0x10 },	/* an OEM type */
	{ EFI_BOOT_SERVICES_DATA, 0x8a0000, 0x10 },
	{ EFI_MEMORY_MAPPED_IO, 0xfee00000, 1 },
	{ EFI_CONVENTIONAL_MEMORY, 0x100000000ULL, 0x40000 },
};

static void expect_efi_e820(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_EFI);
	KTEST_EXPECT_EQ(t, bi.map_entries, 20U);
	KTEST_EXPECT_EQ(t, bi.efi_descr_size, 48U);
	KTEST_EXPECT_EQ(t, bi.efi_descr_version, 1U);
	KTEST_EXPECT_TRUE(t, bi.has_mmap);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 12U);
	EXPECT_ENTRY(t, 0, 0x0, 0x50000, 1);
	EXPECT_ENTRY(t, 1, 0x50000, 0x20000, 2);
	EXPECT_ENTRY(t, 2, 0x70000, 0x2f000, 1);
	EXPECT_ENTRY(t, 3, 0x100000, 0x700000, 1);
	EXPECT_ENTRY(t, 4, 0x800000, 0x10000, 3);
	EXPECT_ENTRY(t, 5, 0x810000, 0x10000, 4);
	EXPECT_ENTRY(t, 6, 0x820000, 0x10000, 5);
	EXPECT_ENTRY(t, 7, 0x830000, 0x10000, 7);
	EXPECT_ENTRY(t, 8, 0x840000, 0x60000, 2);
	EXPECT_ENTRY(t, 9, 0x8a0000, 0x10000, 1);
	EXPECT_ENTRY(t, 10, 0xfee00000, 0x1000, 2);
	EXPECT_ENTRY(t, 11, 0x100000000ULL, 0x40000000ULL, 1);
}

static void efi_map_translated(struct ktest *t)
{
	put_efi(48, efi_map, ARRAY_SIZE(efi_map));
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, refused, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	expect_efi_e820(t);
	print_parse(t);
}

/* A stride of exactly the struct works as well as OVMF's 48. */
static void efi_map_stride_40(struct ktest *t)
{
	static const struct desc d[] = {
		{ EFI_CONVENTIONAL_MEMORY, 0x0, 0xa0 },
		{ EFI_LOADER_DATA, 0x100000, 0x100 },
		{ EFI_BOOT_SERVICES_DATA, 0x200000, 0x100 },
	};

	put_efi(40, d, ARRAY_SIZE(d));
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_EXPECT_EQ(t, bi.efi_descr_size, 40U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 2U);
	EXPECT_ENTRY(t, 0, 0x0, 0xa0000, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0x200000, 1);
}

/* Tag 6 first and claiming other memory: the EFI map still wins. */
static void efi_map_preferred(struct ktest *t)
{
	static const struct entry loose[] = {
		{ 0x0, 0x9f000, 1 },
		{ 0x50000, 0x10000, 20 },	/* GRUB's runtime code type */
	};

	put_meminfo(639, 130048);
	put_mmap(24, 0, loose, ARRAY_SIZE(loose));
	put_efi(48, efi_map, ARRAY_SIZE(efi_map));
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, refused, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	expect_efi_e820(t);
	/* Tag 6 was seen but not read. */
	KTEST_EXPECT_EQ(t, bi.mmap_entry_size, 0U);
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 639U);
}

/* entry_size 32, version 1: the stride is honoured, types kept raw. */
static void mmap_tag_alone(struct ktest *t)
{
	static const struct entry e[] = {
		{ 0x0, 0x9f000, 1 },
		{ 0x100000, 0x7f00000, 1 },
		{ 0x8000000, 0x10000, 20 },
		{ 0x100000000ULL, 0x10000000, 3 },
	};

	put_mmap(32, 1, e, ARRAY_SIZE(e));
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, refused, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_MMAP);
	KTEST_EXPECT_EQ(t, bi.map_entries, 4U);
	KTEST_EXPECT_EQ(t, bi.mmap_entry_size, 32U);
	KTEST_EXPECT_EQ(t, bi.mmap_entry_version, 1U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 4U);
	EXPECT_ENTRY(t, 0, 0x0, 0x9f000, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0x7f00000, 1);
	EXPECT_ENTRY(t, 2, 0x8000000, 0x10000, 20);
	EXPECT_ENTRY(t, 3, 0x100000000ULL, 0x10000000, 3);
	KTEST_EXPECT_EQ(t, bi.rsdp_len, 0U);
	KTEST_EXPECT_STREQ(t, bi.loader_name, "");
	print_parse(t);
}

/* 20 bytes past the last whole entry: it is kept, the rest flagged. */
static void mmap_tag_cut(struct ktest *t)
{
	u32 size = 16 + 3 * 24 + 20;

	put_mmap(24, 0, bios_map, 3);
	/* Stretch the tag (at offset 8) by 20 bytes of a fourth entry. */
	memcpy(scratch + 8 + 4, &size, 4);
	memset(scratch + cur, 0xa5, 20);
	cur = ALIGN(8 + size, 8);
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MMAP_CUT);
	KTEST_EXPECT_EQ(t, bi.map_entries, 3U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 3U);
	EXPECT_ENTRY(t, 2, 0xf0000, 0x10000, 2);
}

static void meminfo_only(struct ktest *t)
{
	put_meminfo(639, 130048);
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_FALSE(t, bi.has_mmap);
	KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_MEMINFO);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 2U);
	/* 639 KiB = 0x9fc00; 130048 KiB = 0x7f00000. */
	EXPECT_ENTRY(t, 0, 0x0, 0x9fc00, 1);
	EXPECT_ENTRY(t, 1, 0x100000, 0x7f00000, 1);
}

static void no_memory_info(struct ktest *t)
{
	put_string(MULTIBOOT2_TAG_CMDLINE, "quiet");
	put_end();
	finish();

	KTEST_EXPECT_EQ(t, parse_print(t), -ENOENT);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_NONE);
	KTEST_EXPECT_EQ(t, bi.nr_mmap, 0U);
	/* The rest is still read, for the messages. */
	KTEST_EXPECT_STREQ(t, bi.cmdline, "quiet");
}

static void wrong_magic(struct ktest *t)
{
	put_meminfo(639, 130048);
	put_end();
	finish();

	KTEST_EXPECT_EQ(t, multiboot2_parse(MULTIBOOT_BOOTLOADER_MAGIC, info_pa,
					    test_xlate, &bi), -EINVAL);
	KTEST_EXPECT_EQ(t, bi.protocol, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, 0U);
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 0U);
	KTEST_EXPECT_EQ(t, bi.nr_reserved, 0U);
	KTEST_EXPECT_EQ(t, refused, 0U);
}

/* A module tag claims 200 bytes where 40 are left: the walk stops there. */
static void tag_runs_past_total_size(struct ktest *t)
{
	u32 off;

	put_meminfo(639, 130048);
	off = put_tag(MULTIBOOT2_TAG_MODULE, 200, NULL, 32);
	finish();
	KTEST_EXPECT_EQ(t, cur, 64U);

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_TAG_OVERRUN | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.bad_tag_offset, off);
	KTEST_EXPECT_EQ(t, bi.bad_tag_offset, 24U);
	KTEST_EXPECT_EQ(t, bi.bad_tag_type, 3U);
	KTEST_EXPECT_EQ(t, bi.bad_tag_size, 200U);
	KTEST_EXPECT_EQ(t, bi.nr_modules, 0U);
	/* What came before is kept. */
	KTEST_EXPECT_EQ(t, bi.mem_upper_kb, 130048U);
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 1U);
	EXPECT_RANGE(t, 0, info_pa, info_pa + 64);
}

static void missing_end_tag(struct ktest *t)
{
	put_meminfo(639, 130048);
	put_string(MULTIBOOT2_TAG_BOOT_LOADER_NAME, "loader");
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_NO_END | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_STREQ(t, bi.loader_name, "loader");
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 639U);

	/* total_size ends inside the last tag's padding: still no end. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_tag(MULTIBOOT2_TAG_BOOTDEV, 12, NULL, 4);
	finish_total(36);
	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_NO_END | BOOT_WARN_NO_MMAP);
}

/* Size 0 must not loop forever; size 4 neither. */
static void tag_size_below_8(struct ktest *t)
{
	u32 sizes[] = { 0, 4, 7 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		multiboot2_test_init(t);
		put_meminfo(639, 130048);
		put_tag(MULTIBOOT2_TAG_CMDLINE, sizes[i], NULL, 8);
		put_string(MULTIBOOT2_TAG_BOOT_LOADER_NAME, "never read");
		put_end();
		finish();

		KTEST_ASSERT_EQ(t, parse_print(t), 0);
		KTEST_EXPECT_EQ(t, bi.warnings,
				BOOT_WARN_MB2_TAG_SIZE | BOOT_WARN_NO_MMAP);
		KTEST_EXPECT_EQ(t, bi.bad_tag_offset, 24U);
		KTEST_EXPECT_EQ(t, bi.bad_tag_type, 1U);
		KTEST_EXPECT_EQ(t, bi.bad_tag_size, sizes[i]);
		KTEST_EXPECT_STREQ(t, bi.loader_name, "");
		KTEST_EXPECT_STREQ(t, bi.cmdline, "");
	}
}

static void total_size_bad(struct ktest *t)
{
	u32 small[] = { 0, 8, 15 };
	unsigned int i;

	/* Below the header and an end tag: nothing read past the header. */
	for (i = 0; i < ARRAY_SIZE(small); i++) {
		multiboot2_test_init(t);
		put_meminfo(639, 130048);
		put_end();
		finish_total(small[i]);
		KTEST_EXPECT_EQ(t, parse_print(t), -ENOENT);
		KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MB2_TOTAL_SIZE |
						       BOOT_WARN_NO_MEMINFO);
		KTEST_EXPECT_EQ(t, bi.mb2_total_size, small[i]);
		KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 0U);
		KTEST_EXPECT_EQ(t, bi.nr_reserved, 0U);
	}

	/* Above the cap: not even asked for. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_end();
	finish_total(0x200000);
	KTEST_EXPECT_EQ(t, parse_print(t), -ENOENT);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_TOTAL_SIZE | BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.mb2_total_size, 0x200000U);

	/* Past readable memory: one request, refused, and nothing else. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_end();
	finish_total(0x1000);
	KTEST_EXPECT_EQ(t, parse(), -ENOENT);
	print_parse(t);
	KTEST_EXPECT_EQ(t, refused, 1U);
	KTEST_EXPECT_EQ(t, refused_pa, info_pa);
	KTEST_EXPECT_EQ(t, refused_len, (size_t)0x1000);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_TOTAL_SIZE | BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.nr_reserved, 0U);
}

static void header_unreadable(struct ktest *t)
{
	finish();
	map_end = FAKE_BASE;
	KTEST_EXPECT_EQ(t, parse(), -ENOENT);
	print_parse(t);
	KTEST_EXPECT_EQ(t, refused, 1U);
	KTEST_EXPECT_EQ(t, refused_len, (size_t)8);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MEMINFO);
	KTEST_EXPECT_EQ(t, bi.protocol, 2U);
}

/* entry_size 0 and 20: the map is ignored, meminfo used instead. */
static void mmap_entry_size_bad(struct ktest *t)
{
	u32 sizes[] = { 0, 20 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		multiboot2_test_init(t);
		put_meminfo(639, 130048);
		put_mmap(sizes[i], 0, bios_map, sizes[i] ? 3 : 0);
		put_end();
		finish();

		KTEST_ASSERT_EQ(t, parse_print(t), 0);
		KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MB2_MMAP_ENTRY |
							BOOT_WARN_NO_MMAP);
		KTEST_EXPECT_EQ(t, bi.mmap_entry_size, sizes[i]);
		KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_MEMINFO);
		KTEST_ASSERT_EQ(t, bi.nr_mmap, 2U);
		EXPECT_ENTRY(t, 1, 0x100000, 0x7f00000, 1);
	}
}

/* descriptor_size 0 and 32: the EFI map is ignored, tag 6 used. */
static void efi_descriptor_size_bad(struct ktest *t)
{
	u32 sizes[] = { 0, 32, 39 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		multiboot2_test_init(t);
		put_efi(sizes[i], efi_map, sizes[i] ? 4 : 0);
		put_mmap(24, 0, bios_map, ARRAY_SIZE(bios_map));
		put_end();
		finish();

		KTEST_ASSERT_EQ(t, parse_print(t), 0);
		KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MB2_EFI_DESC);
		KTEST_EXPECT_EQ(t, bi.efi_descr_size, sizes[i]);
		KTEST_EXPECT_EQ(t, bi.map_source, (unsigned int)BOOT_MAP_MMAP);
		KTEST_ASSERT_EQ(t, bi.nr_mmap, 6U);
		EXPECT_ENTRY(t, 3, 0x100000, 0x1fee0000, 1);
	}
}

static void rsdp_v0_and_v2(struct ktest *t)
{
	u8 want[36];

	/* Revision 0 alone. */
	put_meminfo(639, 130048);
	put_rsdp(MULTIBOOT2_TAG_ACPI_OLD, 20, 0);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.rsdp_tag, 14U);
	KTEST_ASSERT_EQ(t, bi.rsdp_len, 20U);
	make_rsdp(want, 20, 0);
	KTEST_EXPECT_MEMEQ(t, bi.rsdp, want, 20);
	print_parse(t);

	/* Revision 2 alone, and a longer tag cut to 36 bytes. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_rsdp(MULTIBOOT2_TAG_ACPI_NEW, 40, 2);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.rsdp_tag, 15U);
	KTEST_ASSERT_EQ(t, bi.rsdp_len, 36U);
	make_rsdp(want, 36, 2);
	KTEST_EXPECT_MEMEQ(t, bi.rsdp, want, 36);
	print_parse(t);

	/* Both, the old one first: the new one is taken. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_rsdp(MULTIBOOT2_TAG_ACPI_OLD, 20, 0);
	put_rsdp(MULTIBOOT2_TAG_ACPI_NEW, 36, 2);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, refused, 0U);
	KTEST_EXPECT_EQ(t, bi.rsdp_tag, 15U);
	KTEST_ASSERT_EQ(t, bi.rsdp_len, 36U);
	KTEST_EXPECT_MEMEQ(t, bi.rsdp, want, 36);
}

static void rsdp_too_short(struct ktest *t)
{
	u8 want[20];

	/* A 35-byte new one beside a whole old one: the old one is used. */
	put_meminfo(639, 130048);
	put_rsdp(MULTIBOOT2_TAG_ACPI_NEW, 35, 2);
	put_rsdp(MULTIBOOT2_TAG_ACPI_OLD, 20, 0);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_RSDP_SHORT | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.rsdp_tag, 14U);
	KTEST_ASSERT_EQ(t, bi.rsdp_len, 20U);
	make_rsdp(want, 20, 0);
	KTEST_EXPECT_MEMEQ(t, bi.rsdp, want, 20);

	/* A 19-byte old one alone, and an empty one: no copy. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_rsdp(MULTIBOOT2_TAG_ACPI_OLD, 19, 0);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_RSDP_SHORT | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.rsdp_len, 0U);
	KTEST_EXPECT_EQ(t, bi.rsdp_tag, 0U);

	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_tag(MULTIBOOT2_TAG_ACPI_NEW, 8, NULL, 0);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_RSDP_SHORT | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.rsdp_len, 0U);
}

/* Types past 21 are counted; defined ones this kernel ignores are not. */
static void unknown_tags_counted(struct ktest *t)
{
	put_tag(22, 16, NULL, 8);
	put_meminfo(639, 130048);
	put_tag(0x1000, 8, NULL, 0);
	put_tag(8, 32, NULL, 24);	/* framebuffer */
	put_tag(11, 12, NULL, 4);	/* EFI 32-bit system table */
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_UNKNOWN_TAG | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.unknown_tags, 2U);
	KTEST_EXPECT_EQ(t, bi.mem_upper_kb, 130048U);
}

/* Tags too short for their fixed fields are ignored, not read past. */
static void tags_too_short(struct ktest *t)
{
	put_tag(MULTIBOOT2_TAG_MODULE, 12, NULL, 4);
	put_tag(MULTIBOOT2_TAG_BASIC_MEMINFO, 12, NULL, 4);
	put_tag(MULTIBOOT2_TAG_MMAP, 15, NULL, 7);
	put_tag(MULTIBOOT2_TAG_EFI_MMAP, 8, NULL, 0);
	put_meminfo(639, 130048);
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings,
			BOOT_WARN_MB2_TAG_SHORT | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.short_tags, 4U);
	KTEST_EXPECT_EQ(t, bi.nr_modules, 0U);
	/* The first whole meminfo tag counts. */
	KTEST_EXPECT_EQ(t, bi.mem_lower_kb, 639U);
}

static void modules_and_reserved(struct ktest *t)
{
	char name[100], want[64];
	unsigned int i;

	memset(name, 'n', 99);
	name[99] = '\0';
	memset(want, 'n', 63);
	want[63] = '\0';
	put_meminfo(639, 130048);
	put_module(0x300000, 0x301000, "first");
	put_module(0x500000, 0x4ff000, "backwards");
	put_module(0x400000, 0x400000, name);
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MODULES | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.modules_dropped, 1U);
	KTEST_ASSERT_EQ(t, bi.nr_modules, 2U);
	KTEST_EXPECT_STREQ(t, bi.modules[0].name, "first");
	KTEST_EXPECT_EQ(t, bi.modules[1].start, 0x400000ULL);
	KTEST_EXPECT_STREQ(t, bi.modules[1].name, want);
	/* The block and the first module (the second is empty). */
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 2U);
	EXPECT_RANGE(t, 0, info_pa, info_pa + cur);
	EXPECT_RANGE(t, 1, 0x300000, 0x301000);

	/* 18 modules: 16 kept, each reserved after the block. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	for (i = 0; i < 18; i++)
		put_module(0x1000000 + i * 0x10000,
			   0x1000000 + i * 0x10000 + 0x1000, "m");
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_MODULES | BOOT_WARN_NO_MMAP);
	KTEST_EXPECT_EQ(t, bi.modules_dropped, 2U);
	KTEST_ASSERT_EQ(t, bi.nr_modules, 16U);
	KTEST_ASSERT_EQ(t, bi.nr_reserved, 17U);
	EXPECT_RANGE(t, 16, 0x10f0000, 0x10f1000);
}

/*
 * 300 tokens "abcdefghi" joined by blanks: 2999 bytes.  Token k ends at
 * 10k + 9; the last that ends by byte 2047 is k = 203 (ends at 2039), so
 * 2039 bytes are kept and 960 dropped.
 */
static void cmdline_truncated(struct ktest *t)
{
	static char line[3000];
	int i;

	for (i = 0; i < 300; i++)
		memcpy(line + i * 10, "abcdefghi ", 10);
	line[2999] = '\0';
	put_meminfo(639, 130048);
	put_string(MULTIBOOT2_TAG_CMDLINE, line);
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_TRUE(t, bi.cmdline_truncated);
	KTEST_EXPECT_EQ(t, bi.cmdline_dropped, 960U);
	KTEST_EXPECT_EQ(t, strlen(bi.cmdline), (size_t)2039);
	KTEST_EXPECT_STREQ(t, bi.cmdline + 2020, "abcdefghi abcdefghi");

	/* No NUL inside its tag: the string ends with the tag. */
	multiboot2_test_init(t);
	put_meminfo(639, 130048);
	put_tag(MULTIBOOT2_TAG_CMDLINE, 8 + 5, "quietXYZ", 8);
	put_end();
	finish();
	KTEST_ASSERT_EQ(t, parse_print(t), 0);
	KTEST_EXPECT_STREQ(t, bi.cmdline, "quiet");
	KTEST_EXPECT_FALSE(t, bi.cmdline_truncated);
}

/* 300 descriptors of alternating types: 256 kept, 44 counted. */
static void efi_map_too_many(struct ktest *t)
{
	static struct desc d[300];
	unsigned int i;

	for (i = 0; i < 300; i++) {
		d[i].type = i % 2 ? EFI_RESERVED_TYPE : EFI_CONVENTIONAL_MEMORY;
		d[i].addr = (u64)i << 12;
		d[i].pages = 1;
	}
	put_efi(40, d, 300);
	put_end();
	finish();

	KTEST_ASSERT_EQ(t, parse(), 0);
	KTEST_EXPECT_EQ(t, refused, 0U);
	KTEST_EXPECT_EQ(t, bi.warnings, BOOT_WARN_TOO_MANY);
	KTEST_EXPECT_EQ(t, bi.map_entries, 300U);
	KTEST_ASSERT_EQ(t, bi.nr_mmap, 256U);
	KTEST_EXPECT_EQ(t, bi.mmap_dropped, 44U);
	EXPECT_ENTRY(t, 255, 0xff000, 0x1000, 2);
}

static const struct ktest_case multiboot2_cases[] = {
	KTEST_CASE(grub_like_block),
	KTEST_CASE(efi_map_translated),
	KTEST_CASE(efi_map_stride_40),
	KTEST_CASE(efi_map_preferred),
	KTEST_CASE(mmap_tag_alone),
	KTEST_CASE(mmap_tag_cut),
	KTEST_CASE(meminfo_only),
	KTEST_CASE(no_memory_info),
	KTEST_CASE(wrong_magic),
	KTEST_CASE(tag_runs_past_total_size),
	KTEST_CASE(missing_end_tag),
	KTEST_CASE(tag_size_below_8),
	KTEST_CASE(total_size_bad),
	KTEST_CASE(header_unreadable),
	KTEST_CASE(mmap_entry_size_bad),
	KTEST_CASE(efi_descriptor_size_bad),
	KTEST_CASE(rsdp_v0_and_v2),
	KTEST_CASE(rsdp_too_short),
	KTEST_CASE(unknown_tags_counted),
	KTEST_CASE(tags_too_short),
	KTEST_CASE(modules_and_reserved),
	KTEST_CASE(cmdline_truncated),
	KTEST_CASE(efi_map_too_many),
	KTEST_END,
};

static const struct ktest_suite multiboot2_suite = {
	.name = "multiboot2",
	.init = multiboot2_test_init,
	.cases = multiboot2_cases,
};
KTEST_SUITE(multiboot2_suite);
