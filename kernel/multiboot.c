/*
 * kernel/multiboot.c - reads the Multiboot v1 information block.
 *
 * It also holds what both protocols share (kernel/multiboot2.c reads
 * Multiboot 2 into the same struct boot_info): the bounded appends to
 * bi->mmap[] and bi->reserved[], the command-line cut, the map made of
 * mem_lower/mem_upper, and multiboot_print().  Called once, before
 * memory management, on the boot CPU: no locks.
 *
 * Everything the boot loader wrote is untrusted input at a physical
 * address.  Invariants:
 *  - Boot loader memory is only ever read through the caller's translator,
 *    and only for ranges it accepted; every read copies out with memcpy,
 *    so packed, unaligned entries are fine.  A refused range makes its
 *    field absent (BOOT_WARN_BAD_POINTER) instead of being guessed at.
 *  - The memory map is walked exactly as the specification says (entry at
 *    p, next at p + size + 4, end at mmap_addr + mmap_length) and stored
 *    raw: order, overlaps, zero lengths and addresses above 4 GiB are left
 *    for the e820 layer to judge and report.
 *  - The boot loader's name (flag 0x200) is copied, cut to fit; it is not
 *    reserved, being read only here.
 *  - bi->reserved[] lists only ranges that were read and accepted (plus
 *    the modules, which are never read), in the order info block, memory
 *    map, command line, module list, modules, so that memblock never hands
 *    out memory that still holds boot loader data.
 */
#define pr_fmt(fmt) "multiboot: " fmt

#include "kernel/multiboot.h"
#include "kernel/multiboot2.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"

BUILD_BUG_ON(offsetof(struct multiboot_info, mmap_addr) != 48);
BUILD_BUG_ON(offsetof(struct multiboot_info, framebuffer_addr) != 88);
BUILD_BUG_ON(sizeof(struct multiboot_info) != 116);
BUILD_BUG_ON(sizeof(struct multiboot_mmap_entry) != 24);
BUILD_BUG_ON(sizeof(struct multiboot_module) != 16);

/* An entry's size field counts at least addr, len and type. */
#define MMAP_ENTRY_MIN_SIZE 20

/* String reads ask for at most this much at a time (and never across it). */
#define STRING_CHUNK 4096

/* How far past the kept part of an over-long command line we count. */
#define CMDLINE_SCAN_MAX (64 * 1024)

/*
 * How many bytes of the block must be readable for the fields this file
 * uses: up to the end of the last such field whose flag is set.
 */
static size_t info_bytes_needed(u32 flags)
{
	if (flags & MULTIBOOT_INFO_BOOT_LOADER_NAME)
		return offsetof(struct multiboot_info, boot_loader_name) + 4;
	if (flags & MULTIBOOT_INFO_MEM_MAP)
		return offsetof(struct multiboot_info, mmap_addr) + 4;
	if (flags & MULTIBOOT_INFO_MODS)
		return offsetof(struct multiboot_info, mods_addr) + 4;
	if (flags & MULTIBOOT_INFO_CMDLINE)
		return offsetof(struct multiboot_info, cmdline) + 4;
	if (flags & MULTIBOOT_INFO_MEMORY)
		return offsetof(struct multiboot_info, mem_upper) + 4;
	return sizeof(u32);
}

void boot_info_add_reserved(struct boot_info *bi, phys_addr_t start,
			    phys_addr_t end)
{
	if (end <= start || bi->nr_reserved >= ARRAY_SIZE(bi->reserved))
		return;
	bi->reserved[bi->nr_reserved].start = start;
	bi->reserved[bi->nr_reserved].end = end;
	bi->nr_reserved++;
}

static void bad_pointer(struct boot_info *bi, u32 field)
{
	bi->warnings |= BOOT_WARN_BAD_POINTER;
	bi->bad_fields |= field;
}

enum string_end {
	STRING_DONE,	/* the NUL was found */
	STRING_FULL,	/* max bytes read, no NUL among them */
	STRING_FAULT,	/* the translator refused the next byte */
};

/*
 * Reads the string at pa, at most max bytes of it (without its NUL), into
 * dst (NULL: only count).  The translator is asked for one chunk at a
 * time, up to the next STRING_CHUNK boundary; a refused chunk is halved
 * down to a single byte, so that a string ending just before the end of
 * an accessible region is still read whole.  Returns the bytes read.
 */
static size_t read_string(multiboot_xlate_t xlate, phys_addr_t pa, char *dst,
			  size_t max, enum string_end *how)
{
	size_t n = 0;

	while (n < max) {
		phys_addr_t cur = pa + n;
		size_t want = STRING_CHUNK - (size_t)(cur & (STRING_CHUNK - 1));
		const char *s;
		size_t i;

		if (want > max - n)
			want = max - n;
		while (!(s = xlate(cur, want)) && want > 1)
			want /= 2;
		if (!s) {
			*how = STRING_FAULT;
			return n;
		}
		for (i = 0; i < want; i++, n++) {
			if (!s[i]) {
				*how = STRING_DONE;
				return n;
			}
			if (dst)
				dst[n] = s[i];
		}
	}
	*how = STRING_FULL;
	return n;
}

/* One byte more than a command line may keep, to see where it was cut. */
static char cmdline_raw[COMMAND_LINE_SIZE + 1];

static void parse_cmdline(struct boot_info *bi, multiboot_xlate_t xlate,
			  phys_addr_t pa)
{
	enum string_end how;
	size_t len, more = 0;

	len = read_string(xlate, pa, cmdline_raw, COMMAND_LINE_SIZE, &how);
	cmdline_raw[len] = '\0';
	if (how == STRING_FAULT)
		bad_pointer(bi, MULTIBOOT_INFO_CMDLINE);
	if (how == STRING_FULL) {
		/* Count what follows, for the report and the reservation. */
		more = read_string(xlate, pa + len, NULL, CMDLINE_SCAN_MAX,
				   &how);
		if (how == STRING_FAULT)
			bad_pointer(bi, MULTIBOOT_INFO_CMDLINE);
	}
	boot_info_set_cmdline(bi, cmdline_raw, more);
	/* The string and its NUL, as far as they could be read. */
	boot_info_add_reserved(bi, pa, pa + len + more + (how == STRING_DONE));
}

void boot_info_set_cmdline(struct boot_info *bi, const char *raw,
			   size_t more)
{
	size_t dropped;

	/* A line of COMMAND_LINE_SIZE bytes or more is cut at a token end. */
	cmdline_copy(bi->cmdline, sizeof(bi->cmdline), raw, &dropped);
	if (dropped + more) {
		bi->cmdline_truncated = true;
		bi->cmdline_dropped = dropped + more;
	}
}

void boot_info_add_mmap(struct boot_info *bi, u64 addr, u64 len, u32 type)
{
	struct boot_mmap_entry *e;

	if (bi->nr_mmap >= BOOT_MMAP_MAX) {
		bi->warnings |= BOOT_WARN_TOO_MANY;
		bi->mmap_dropped++;
		return;
	}
	e = &bi->mmap[bi->nr_mmap++];
	e->addr = addr;
	e->len = len;
	e->type = type;
}

void boot_info_mmap_from_meminfo(struct boot_info *bi)
{
	/* What the BIOS calls conventional and extended memory. */
	bi->warnings |= BOOT_WARN_NO_MMAP;
	boot_info_add_mmap(bi, 0, (u64)bi->mem_lower_kb << 10,
			   MULTIBOOT_MEMORY_AVAILABLE);
	boot_info_add_mmap(bi, 1ULL << 20, (u64)bi->mem_upper_kb << 10,
			   MULTIBOOT_MEMORY_AVAILABLE);
}

static void parse_mmap(struct boot_info *bi, multiboot_xlate_t xlate,
		       phys_addr_t pa, u32 length)
{
	const u8 *map;
	u32 off = 0;

	if (!length)
		return;
	map = xlate(pa, length);
	if (!map) {
		bad_pointer(bi, MULTIBOOT_INFO_MEM_MAP);
		return;
	}
	boot_info_add_reserved(bi, pa, pa + length);

	while (off < length) {
		struct multiboot_mmap_entry e;
		u32 size;

		if (length - off < sizeof(size)) {
			bi->warnings |= BOOT_WARN_MMAP_CUT;
			break;
		}
		memcpy(&size, map + off, sizeof(size));
		if (size < MMAP_ENTRY_MIN_SIZE) {
			bi->warnings |= BOOT_WARN_ENTRY_SIZE;
			break;
		}
		if ((u64)size + sizeof(size) > length - off) {
			bi->warnings |= BOOT_WARN_MMAP_CUT;
			break;
		}
		memcpy(&e, map + off, sizeof(e));
		boot_info_add_mmap(bi, e.addr, e.len, e.type);
		off += size + sizeof(size);
	}
}

static void parse_modules(struct boot_info *bi, multiboot_xlate_t xlate,
			  phys_addr_t pa, u32 count)
{
	const u8 *list;
	u32 n = min(count, (u32)BOOT_MODULES_MAX);
	u32 i;

	if (count > BOOT_MODULES_MAX) {
		bi->warnings |= BOOT_WARN_MODULES;
		bi->modules_dropped += count - BOOT_MODULES_MAX;
	}
	if (!n)
		return;
	list = xlate(pa, n * sizeof(struct multiboot_module));
	if (!list) {
		bad_pointer(bi, MULTIBOOT_INFO_MODS);
		return;
	}
	boot_info_add_reserved(bi, pa,
			       pa + n * sizeof(struct multiboot_module));

	for (i = 0; i < n; i++) {
		struct multiboot_module m;
		struct boot_module *bm;
		enum string_end how;
		size_t len = 0;

		memcpy(&m, list + i * sizeof(m), sizeof(m));
		if (m.mod_end < m.mod_start) {
			bi->warnings |= BOOT_WARN_MODULES;
			bi->modules_dropped++;
			continue;
		}
		bm = &bi->modules[bi->nr_modules++];
		bm->start = m.mod_start;
		bm->end = m.mod_end;
		/* A zero string pointer is taken as "no string". */
		if (m.cmdline) {
			len = read_string(xlate, m.cmdline, bm->name,
					  sizeof(bm->name) - 1, &how);
			if (how == STRING_FAULT)
				bad_pointer(bi, MULTIBOOT_INFO_MODS);
		}
		bm->name[len] = '\0';
	}
	/* After the list, in list order. */
	for (i = 0; i < bi->nr_modules; i++)
		boot_info_add_reserved(bi, bi->modules[i].start,
				       bi->modules[i].end);
}

static void parse_loader_name(struct boot_info *bi, multiboot_xlate_t xlate,
			      phys_addr_t pa)
{
	enum string_end how;
	size_t len;

	len = read_string(xlate, pa, bi->loader_name,
			  sizeof(bi->loader_name) - 1, &how);
	bi->loader_name[len] = '\0';
	if (how == STRING_FAULT)
		bad_pointer(bi, MULTIBOOT_INFO_BOOT_LOADER_NAME);
}

int multiboot_parse(u32 magic, phys_addr_t info_pa,
		    const void *(*phys_to_virt)(phys_addr_t pa, size_t len),
		    struct boot_info *bi)
{
	multiboot_xlate_t xlate = phys_to_virt;
	struct multiboot_info mbi;
	const void *p;
	u32 flags;

	memset(bi, 0, sizeof(*bi));
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		return -EINVAL;
	bi->protocol = 1;

	p = xlate(info_pa, sizeof(flags));
	if (p) {
		memcpy(&flags, p, sizeof(flags));
		bi->flags = flags;
		p = xlate(info_pa, info_bytes_needed(flags));
	}
	if (!p) {
		bi->warnings |= BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MEMINFO;
		return -ENOENT;
	}
	memset(&mbi, 0, sizeof(mbi));
	memcpy(&mbi, p, info_bytes_needed(flags));
	boot_info_add_reserved(bi, info_pa, info_pa + sizeof(mbi));

	if (flags & MULTIBOOT_INFO_MEMORY) {
		bi->mem_lower_kb = mbi.mem_lower;
		bi->mem_upper_kb = mbi.mem_upper;
	}
	if (flags & MULTIBOOT_INFO_MEM_MAP) {
		parse_mmap(bi, xlate, mbi.mmap_addr, mbi.mmap_length);
		bi->has_mmap = bi->nr_mmap > 0;
	}
	if (!bi->has_mmap) {
		if (flags & MULTIBOOT_INFO_MEMORY)
			boot_info_mmap_from_meminfo(bi);
		else
			bi->warnings |= BOOT_WARN_NO_MEMINFO;
	}
	if (flags & MULTIBOOT_INFO_CMDLINE)
		parse_cmdline(bi, xlate, mbi.cmdline);
	if (flags & MULTIBOOT_INFO_MODS)
		parse_modules(bi, xlate, mbi.mods_addr, mbi.mods_count);
	if (flags & MULTIBOOT_INFO_BOOT_LOADER_NAME)
		parse_loader_name(bi, xlate, mbi.boot_loader_name);

	return (bi->warnings & BOOT_WARN_NO_MEMINFO) ? -ENOENT : 0;
}

static const char *const flag_names[] = {
	"mem", "boot_device", "cmdline", "mods", "aout_syms", "elf_shdr",
	"mmap", "drives", "config_table", "loader_name", "apm", "vbe",
	"framebuffer",
};

/* "mem cmdline mmap" for the bits set in flags. */
static void flags_to_names(u32 flags, char *buf, size_t size)
{
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(flag_names); i++)
		if (flags & (1U << i))
			len += scnprintf(buf + len, size - len, "%s%s",
					 len ? " " : "", flag_names[i]);
	if (flags >> ARRAY_SIZE(flag_names))
		len += scnprintf(buf + len, size - len, "%sunknown",
				 len ? " " : "");
	if (!len)
		scnprintf(buf, size, "none");
}

static void print_range(const char *what, unsigned int i, u64 start, u64 len,
			const char *tail)
{
	if (!len)
		pr_info("%s[%2u] [mem 0x%016llx len 0]%s\n", what, i,
			(unsigned long long)start, tail);
	else if (start + len - 1 < start)
		pr_info("%s[%2u] [mem 0x%016llx len 0x%016llx, past 2^64]%s\n",
			what, i, (unsigned long long)start,
			(unsigned long long)len, tail);
	else
		pr_info("%s[%2u] [mem 0x%016llx-0x%016llx]%s\n", what, i,
			(unsigned long long)start,
			(unsigned long long)(start + len - 1), tail);
}

void multiboot_print(const struct boot_info *bi)
{
	unsigned int i;
	u32 w = bi->warnings;
	char names[128];

	if (bi->protocol == 2) {
		multiboot2_print_info(bi);
	} else {
		flags_to_names(bi->flags, names, sizeof(names));
		pr_info("flags 0x%08x (%s)\n", bi->flags, names);
		if (bi->flags & MULTIBOOT_INFO_MEMORY)
			pr_info("mem_lower=%uK mem_upper=%uK\n",
				bi->mem_lower_kb, bi->mem_upper_kb);
		if (bi->loader_name[0])
			pr_info("loader '%s'\n", bi->loader_name);
	}

	for (i = 0; i < bi->nr_mmap; i++) {
		const struct boot_mmap_entry *e = &bi->mmap[i];
		char tail[16];

		scnprintf(tail, sizeof(tail), " type %u", e->type);
		print_range("mmap", i, e->addr, e->len, tail);
	}

	for (i = 0; i < bi->nr_modules; i++) {
		const struct boot_module *m = &bi->modules[i];
		char tail[BOOT_MODULE_NAME_MAX + 4];

		scnprintf(tail, sizeof(tail), " '%s'", m->name);
		print_range("module", i, m->start, m->end - m->start, tail);
	}

	if (w & BOOT_WARN_NO_MMAP)
		pr_warn("no memory map from the boot loader; using mem_lower=%uK mem_upper=%uK\n",
			bi->mem_lower_kb, bi->mem_upper_kb);
	if (w & BOOT_WARN_NO_MEMINFO)
		pr_err("no memory information at all: neither a memory map nor mem_lower/mem_upper\n");
	if (w & BOOT_WARN_MMAP_CUT)
		pr_warn("the memory map's length ends inside an entry; that entry was dropped\n");
	if (w & BOOT_WARN_ENTRY_SIZE)
		pr_warn("a memory map entry's size field is below %d; the rest of the map was ignored\n",
			MMAP_ENTRY_MIN_SIZE);
	if (w & BOOT_WARN_TOO_MANY)
		pr_warn("the memory map has more than %d entries; %u dropped\n",
			BOOT_MMAP_MAX, bi->mmap_dropped);
	if ((w & BOOT_WARN_BAD_POINTER) && !bi->bad_fields) {
		pr_err("the information block itself cannot be read\n");
	} else if (w & BOOT_WARN_BAD_POINTER) {
		flags_to_names(bi->bad_fields, names, sizeof(names));
		pr_warn("boot loader data outside readable memory for: %s; ignored or cut short\n",
			names);
	}
	if (w & BOOT_WARN_MODULES)
		pr_warn("%u modules ignored: more than %d, or ending before they start\n",
			bi->modules_dropped, BOOT_MODULES_MAX);
	if (bi->cmdline_truncated)
		pr_warn("the command line is longer than %d bytes; %u bytes dropped\n",
			COMMAND_LINE_SIZE - 1, bi->cmdline_dropped);
}
