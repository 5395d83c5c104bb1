/*
 * kernel/multiboot2.c - reads the Multiboot 2 information block.
 *
 * GRUB's "multiboot2" command (under a BIOS or, having exited boot
 * services, under UEFI) hands over a block of tags instead of Multiboot
 * v1's fixed structure.  It is read into the same struct boot_info, so
 * that the memory code never asks which protocol booted us.
 *
 * Everything in the block is untrusted input at a physical address.
 * Invariants:
 *  - The translator is asked for the 8-byte header, then for exactly
 *    [info, info + total_size), and for nothing else: every string, map
 *    and RSDP a tag holds lies inside its tag.  Every read is a memcpy
 *    out of that range after checking that it lies inside the tag, and
 *    every tag inside total_size.  A total_size below 16 (header and end
 *    tag), above MB2_INFO_MAX or refused by the translator means nothing
 *    is read (BOOT_WARN_MB2_TOTAL_SIZE).
 *  - Tags are walked at 8-byte alignment from offset 8 to the end tag.
 *    A tag whose size is below 8 or runs past total_size stops the walk
 *    (the tags before it are kept); running out of block without an end
 *    tag keeps everything read.  A known tag too short for its fixed
 *    fields is ignored and counted; a type the specification does not
 *    define is ignored and counted.  Of a repeated tag the first counts,
 *    except modules, which are all kept (BOOT_MODULES_MAX of them).
 *  - The memory map comes from one source: the EFI memory map (tag 17)
 *    translated into e820 types as Linux's EFI stub does, else the
 *    loader's e820-style map (tag 6) kept raw, else mem_lower/mem_upper
 *    (tag 4), as under v1.  GRUB derives tag 6 from the EFI map under
 *    UEFI, loosely (it reports type 20 for runtime services code), hence
 *    the preference.  A map whose stride is below its entry size is
 *    ignored, so the next source is used.
 *  - The RSDP copy prefers tag 15 (revision 2, 36 bytes) to tag 14
 *    (revision 0, 20 bytes); a tag shorter than its revision needs is
 *    ignored.  Its checksum is for arch code to judge.
 *  - bi->reserved[] lists the block, then the modules in tag order.
 *
 * Called once, single-threaded, before memory management: no locks.
 */
#define pr_fmt(fmt) "multiboot2: " fmt

#include "kernel/multiboot2.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm/e820.h"

BUILD_BUG_ON(sizeof(struct multiboot2_tag) != 8);
BUILD_BUG_ON(sizeof(struct multiboot2_tag_module) != 16);
BUILD_BUG_ON(sizeof(struct multiboot2_tag_basic_meminfo) != 16);
BUILD_BUG_ON(sizeof(struct multiboot2_tag_mmap) != 16);
BUILD_BUG_ON(sizeof(struct multiboot2_mmap_entry) != 24);
BUILD_BUG_ON(sizeof(struct multiboot2_tag_efi_mmap) != 16);
BUILD_BUG_ON(sizeof(struct efi_memory_desc) != 40);
BUILD_BUG_ON(MULTIBOOT2_RSDP_V2_LEN > BOOT_RSDP_MAX);

/* A larger block is taken for garbage (GRUB's are a few KiB). */
#define MB2_INFO_MAX (1U << 20)
#define MB2_INFO_MIN 16 /* the header and an end tag */

#define EFI_PAGE_SHIFT 12

/* The offsets of the tags read once the walk is over; 0: none seen. */
struct mb2_found {
	u32 meminfo, mmap, efi_mmap, rsdp_old, rsdp_new;
	bool cmdline, loader_name;
};

/*
 * Linux's setup_e820() (drivers/firmware/efi/libstub/x86-stub.c), with
 * two departures: a type it does not know, which Linux leaves out of the
 * map, is kept as reserved so that the map shows it; and unaccepted
 * memory, which Linux accepts and uses, is reserved, since this kernel
 * cannot accept it.  Specific-purpose memory (EFI_MEMORY_SP) is RAM here,
 * as in Linux booted with efi=nosoftreserve.
 */
u32 efi_type_to_e820(u32 efi_type)
{
	switch (efi_type) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL_MEMORY:
		return E820_TYPE_RAM;
	case EFI_ACPI_RECLAIM_MEMORY:
		return E820_TYPE_ACPI;
	case EFI_ACPI_MEMORY_NVS:
		return E820_TYPE_NVS;
	case EFI_UNUSABLE_MEMORY:
		return E820_TYPE_UNUSABLE;
	case EFI_PERSISTENT_MEMORY:
		return E820_TYPE_PMEM;
	default:
		/* Reserved, runtime services, MMIO, PAL code, unknown. */
		return E820_TYPE_RESERVED;
	}
}

/* Linux's merge: into the previous entry when of its type and abutting. */
static void add_merged(struct boot_info *bi, u64 addr, u64 len, u32 type)
{
	struct boot_mmap_entry *prev;

	if (bi->nr_mmap && !bi->mmap_dropped) {
		prev = &bi->mmap[bi->nr_mmap - 1];
		if (prev->type == type && prev->len <= ~0ULL - prev->addr &&
		    prev->addr + prev->len == addr &&
		    len <= ~0ULL - prev->len) {
			prev->len += len;
			return;
		}
	}
	boot_info_add_mmap(bi, addr, len, type);
}

/* Tag 17, size checked >= 16.  True when it gave the map. */
static bool parse_efi_mmap(struct boot_info *bi, const u8 *tag, u32 size)
{
	struct multiboot2_tag_efi_mmap h;
	u32 i, n;

	memcpy(&h, tag, sizeof(h));
	bi->efi_descr_size = h.descr_size;
	bi->efi_descr_version = h.descr_vers;
	if (h.descr_size < sizeof(struct efi_memory_desc)) {
		bi->warnings |= BOOT_WARN_MB2_EFI_DESC;
		return false;
	}
	n = (size - sizeof(h)) / h.descr_size;
	if ((size - sizeof(h)) % h.descr_size)
		bi->warnings |= BOOT_WARN_MMAP_CUT;
	if (!n)
		return false;

	for (i = 0; i < n; i++) {
		struct efi_memory_desc d;
		u64 len;

		memcpy(&d, tag + sizeof(h) + i * h.descr_size, sizeof(d));
		len = d.num_pages > (~0ULL >> EFI_PAGE_SHIFT) ?
			      ~0ULL :
			      d.num_pages << EFI_PAGE_SHIFT;
		add_merged(bi, d.phys_addr, len, efi_type_to_e820(d.type));
	}
	bi->map_source = BOOT_MAP_EFI;
	bi->map_entries = n;
	return true;
}

/* Tag 6, size checked >= 16.  True when it gave the map. */
static bool parse_mmap(struct boot_info *bi, const u8 *tag, u32 size)
{
	struct multiboot2_tag_mmap h;
	u32 i, n;

	memcpy(&h, tag, sizeof(h));
	bi->mmap_entry_size = h.entry_size;
	bi->mmap_entry_version = h.entry_version;
	if (h.entry_size < sizeof(struct multiboot2_mmap_entry)) {
		bi->warnings |= BOOT_WARN_MB2_MMAP_ENTRY;
		return false;
	}
	n = (size - sizeof(h)) / h.entry_size;
	if ((size - sizeof(h)) % h.entry_size)
		bi->warnings |= BOOT_WARN_MMAP_CUT;
	if (!n)
		return false;

	for (i = 0; i < n; i++) {
		struct multiboot2_mmap_entry e;

		memcpy(&e, tag + sizeof(h) + i * h.entry_size, sizeof(e));
		boot_info_add_mmap(bi, e.addr, e.len, e.type);
	}
	bi->map_source = BOOT_MAP_MMAP;
	bi->map_entries = n;
	return true;
}

/* Copies the string of the len bytes at s (NUL or not) into dst[size]. */
static size_t copy_string(char *dst, size_t size, const u8 *s, size_t len)
{
	size_t n = strnlen((const char *)s, len);

	if (n > size - 1)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return n;
}

/* One byte more than a command line may keep, to see where it was cut. */
static char cmdline_raw[COMMAND_LINE_SIZE + 1];

static void parse_cmdline(struct boot_info *bi, const u8 *s, u32 len)
{
	size_t all = strnlen((const char *)s, len);
	size_t kept = copy_string(cmdline_raw, sizeof(cmdline_raw), s, len);

	boot_info_set_cmdline(bi, cmdline_raw, all - kept);
}

static void parse_module(struct boot_info *bi, const u8 *tag, u32 size)
{
	struct multiboot2_tag_module m;
	struct boot_module *bm;

	memcpy(&m, tag, sizeof(m));
	if (m.mod_end < m.mod_start || bi->nr_modules >= BOOT_MODULES_MAX) {
		bi->warnings |= BOOT_WARN_MODULES;
		bi->modules_dropped++;
		return;
	}
	bm = &bi->modules[bi->nr_modules++];
	bm->start = m.mod_start;
	bm->end = m.mod_end;
	copy_string(bm->name, sizeof(bm->name), tag + sizeof(m),
		    size - sizeof(m));
}

/* The fixed part a known tag must hold; 0 for tags never read. */
static u32 tag_min_size(u32 type)
{
	switch (type) {
	case MULTIBOOT2_TAG_MODULE:
		return sizeof(struct multiboot2_tag_module);
	case MULTIBOOT2_TAG_BASIC_MEMINFO:
		return sizeof(struct multiboot2_tag_basic_meminfo);
	case MULTIBOOT2_TAG_MMAP:
		return sizeof(struct multiboot2_tag_mmap);
	case MULTIBOOT2_TAG_EFI_MMAP:
		return sizeof(struct multiboot2_tag_efi_mmap);
	default:
		return 0;
	}
}

static void note_first(u32 *where, u32 off)
{
	if (!*where)
		*where = off;
}

/* One tag inside the block, its size checked against the block. */
static void parse_tag(struct boot_info *bi, const u8 *tag,
		      const struct multiboot2_tag *t, u32 off,
		      struct mb2_found *f)
{
	const u8 *payload = tag + sizeof(*t);
	u32 plen = t->size - sizeof(*t);

	if (t->size < tag_min_size(t->type)) {
		bi->warnings |= BOOT_WARN_MB2_TAG_SHORT;
		bi->short_tags++;
		return;
	}
	switch (t->type) {
	case MULTIBOOT2_TAG_CMDLINE:
		if (!f->cmdline)
			parse_cmdline(bi, payload, plen);
		f->cmdline = true;
		break;
	case MULTIBOOT2_TAG_BOOT_LOADER_NAME:
		if (!f->loader_name)
			copy_string(bi->loader_name, sizeof(bi->loader_name),
				    payload, plen);
		f->loader_name = true;
		break;
	case MULTIBOOT2_TAG_MODULE:
		parse_module(bi, tag, t->size);
		break;
	case MULTIBOOT2_TAG_BASIC_MEMINFO:
		note_first(&f->meminfo, off);
		break;
	case MULTIBOOT2_TAG_MMAP:
		note_first(&f->mmap, off);
		break;
	case MULTIBOOT2_TAG_ACPI_OLD:
		note_first(&f->rsdp_old, off);
		break;
	case MULTIBOOT2_TAG_ACPI_NEW:
		note_first(&f->rsdp_new, off);
		break;
	case MULTIBOOT2_TAG_EFI_MMAP:
		note_first(&f->efi_mmap, off);
		break;
	default:
		if (t->type > MULTIBOOT2_TAG_LOAD_BASE_ADDR) {
			bi->warnings |= BOOT_WARN_MB2_UNKNOWN_TAG;
			bi->unknown_tags++;
		}
		break; /* framebuffer, ELF sections, EFI tables: unused */
	}
}

static void stop_walk(struct boot_info *bi, u32 warning, u32 off,
		      const struct multiboot2_tag *t)
{
	bi->warnings |= warning;
	bi->bad_tag_offset = off;
	bi->bad_tag_type = t->type;
	bi->bad_tag_size = t->size;
}

static void walk_tags(struct boot_info *bi, const u8 *blk, u32 total,
		      struct mb2_found *f)
{
	u32 off = sizeof(struct multiboot2_info_header);

	for (;;) {
		struct multiboot2_tag t;
		u32 step;

		if (total - off < sizeof(t)) {
			bi->warnings |= BOOT_WARN_MB2_NO_END;
			return;
		}
		memcpy(&t, blk + off, sizeof(t));
		if (t.size < sizeof(t)) {
			stop_walk(bi, BOOT_WARN_MB2_TAG_SIZE, off, &t);
			return;
		}
		if (t.size > total - off) {
			stop_walk(bi, BOOT_WARN_MB2_TAG_OVERRUN, off, &t);
			return;
		}
		if (t.type == MULTIBOOT2_TAG_END)
			return;
		parse_tag(bi, blk + off, &t, off, f);
		/* t.size <= total <= MB2_INFO_MAX: no overflow. */
		step = ALIGN(t.size, MULTIBOOT2_TAG_ALIGN);
		off = step > total - off ? total : off + step;
	}
}

/* Tag 15 if whole, else tag 14 if whole; a short one is flagged. */
static void copy_rsdp(struct boot_info *bi, const u8 *blk,
		      const struct mb2_found *f)
{
	static const struct {
		u32 tag, len;
	} kinds[] = {
		{ MULTIBOOT2_TAG_ACPI_NEW, MULTIBOOT2_RSDP_V2_LEN },
		{ MULTIBOOT2_TAG_ACPI_OLD, MULTIBOOT2_RSDP_V1_LEN },
	};
	const u32 offs[] = { f->rsdp_new, f->rsdp_old };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		struct multiboot2_tag t;

		if (!offs[i])
			continue;
		memcpy(&t, blk + offs[i], sizeof(t));
		if (t.size - sizeof(t) < kinds[i].len) {
			bi->warnings |= BOOT_WARN_MB2_RSDP_SHORT;
			continue;
		}
		memcpy(bi->rsdp, blk + offs[i] + sizeof(t), kinds[i].len);
		bi->rsdp_len = kinds[i].len;
		bi->rsdp_tag = kinds[i].tag;
		return;
	}
}

static void choose_map(struct boot_info *bi, const u8 *blk,
		       const struct mb2_found *f)
{
	struct multiboot2_tag t;

	if (f->meminfo) {
		struct multiboot2_tag_basic_meminfo m;

		memcpy(&m, blk + f->meminfo, sizeof(m));
		bi->mem_lower_kb = m.mem_lower;
		bi->mem_upper_kb = m.mem_upper;
	}
	if (f->efi_mmap) {
		memcpy(&t, blk + f->efi_mmap, sizeof(t));
		bi->has_mmap = parse_efi_mmap(bi, blk + f->efi_mmap, t.size);
	}
	if (!bi->has_mmap && f->mmap) {
		memcpy(&t, blk + f->mmap, sizeof(t));
		bi->has_mmap = parse_mmap(bi, blk + f->mmap, t.size);
	}
	if (bi->has_mmap)
		return;
	if (f->meminfo) {
		boot_info_mmap_from_meminfo(bi);
		bi->map_source = BOOT_MAP_MEMINFO;
	} else {
		bi->warnings |= BOOT_WARN_NO_MEMINFO;
	}
}

int multiboot2_parse(u32 magic, phys_addr_t info_pa,
		     const void *(*phys_to_virt)(phys_addr_t pa, size_t len),
		     struct boot_info *bi)
{
	struct multiboot2_info_header h;
	struct mb2_found f = { 0 };
	const u8 *blk;
	unsigned int i;

	memset(bi, 0, sizeof(*bi));
	if (magic != MULTIBOOT2_BOOTLOADER_MAGIC)
		return -EINVAL;
	bi->protocol = 2;

	blk = phys_to_virt(info_pa, sizeof(h));
	if (!blk) {
		bi->warnings |= BOOT_WARN_BAD_POINTER | BOOT_WARN_NO_MEMINFO;
		return -ENOENT;
	}
	memcpy(&h, blk, sizeof(h));
	bi->mb2_total_size = h.total_size;
	blk = NULL;
	if (h.total_size >= MB2_INFO_MIN && h.total_size <= MB2_INFO_MAX)
		blk = phys_to_virt(info_pa, h.total_size);
	if (!blk) {
		bi->warnings |= BOOT_WARN_MB2_TOTAL_SIZE | BOOT_WARN_NO_MEMINFO;
		return -ENOENT;
	}
	boot_info_add_reserved(bi, info_pa, info_pa + h.total_size);

	walk_tags(bi, blk, h.total_size, &f);
	copy_rsdp(bi, blk, &f);
	choose_map(bi, blk, &f);
	for (i = 0; i < bi->nr_modules; i++)
		boot_info_add_reserved(bi, bi->modules[i].start,
				       bi->modules[i].end);

	return (bi->warnings & BOOT_WARN_NO_MEMINFO) ? -ENOENT : 0;
}

/* The RSDP's OEM ID (bytes 9-14), printable characters only. */
static void rsdp_oem(const struct boot_info *bi, char oem[7])
{
	int i;

	for (i = 0; i < 6; i++) {
		u8 c = bi->rsdp[9 + i];

		oem[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	oem[6] = '\0';
}

static void print_source(const struct boot_info *bi)
{
	switch (bi->map_source) {
	case BOOT_MAP_EFI:
		pr_info("memory map from the EFI memory map (%u descriptors of %u bytes, version %u)\n",
			bi->map_entries, bi->efi_descr_size,
			bi->efi_descr_version);
		break;
	case BOOT_MAP_MMAP:
		pr_info("memory map from the memory map tag (%u entries of %u bytes, version %u)\n",
			bi->map_entries, bi->mmap_entry_size,
			bi->mmap_entry_version);
		break;
	case BOOT_MAP_MEMINFO:
		pr_info("memory map from the basic memory information (no map tag usable)\n");
		break;
	case BOOT_MAP_NONE:
		break;
	}
}

void multiboot2_print_info(const struct boot_info *bi)
{
	u32 w = bi->warnings;
	char oem[7];

	/* reserved[0] is the block once it could be read. */
	if (bi->nr_reserved)
		pr_info("information block of %u bytes at [mem 0x%08llx-0x%08llx]\n",
			bi->mb2_total_size,
			(unsigned long long)bi->reserved[0].start,
			(unsigned long long)bi->reserved[0].end - 1);
	else if (!(w & BOOT_WARN_BAD_POINTER))
		pr_info("information block of %u bytes\n", bi->mb2_total_size);
	if (bi->loader_name[0])
		pr_info("loader '%s'\n", bi->loader_name);
	if (bi->mem_lower_kb || bi->mem_upper_kb)
		pr_info("mem_lower=%uK mem_upper=%uK\n", bi->mem_lower_kb,
			bi->mem_upper_kb);
	print_source(bi);
	if (bi->rsdp_len) {
		rsdp_oem(bi, oem);
		pr_info("ACPI RSDP copy from tag %u (%s): %u bytes, revision %u, OEM '%s'\n",
			bi->rsdp_tag,
			bi->rsdp_tag == MULTIBOOT2_TAG_ACPI_NEW ? "new" : "old",
			bi->rsdp_len, bi->rsdp[15], oem);
	} else if (!(w & (BOOT_WARN_MB2_TOTAL_SIZE | BOOT_WARN_BAD_POINTER))) {
		pr_info("no ACPI RSDP tag\n");
	}

	if ((w & BOOT_WARN_MB2_TOTAL_SIZE) && bi->mb2_total_size < MB2_INFO_MIN)
		pr_err("the information block's total_size %u is below %u; nothing read\n",
		       bi->mb2_total_size, MB2_INFO_MIN);
	else if (w & BOOT_WARN_MB2_TOTAL_SIZE)
		pr_err("the information block's total_size %u cannot be mapped (above %u or outside readable memory); nothing read\n",
		       bi->mb2_total_size, MB2_INFO_MAX);
	if (w & BOOT_WARN_MB2_TAG_SIZE)
		pr_warn("the tag at offset %u (type %u) has size %u, below 8; it and the tags after it were ignored\n",
			bi->bad_tag_offset, bi->bad_tag_type, bi->bad_tag_size);
	if (w & BOOT_WARN_MB2_TAG_OVERRUN)
		pr_warn("the tag at offset %u (type %u, size %u) runs past total_size %u; it and the tags after it were ignored\n",
			bi->bad_tag_offset, bi->bad_tag_type, bi->bad_tag_size,
			bi->mb2_total_size);
	if (w & BOOT_WARN_MB2_NO_END)
		pr_warn("no end tag within total_size %u; the tags before it were kept\n",
			bi->mb2_total_size);
	if (w & BOOT_WARN_MB2_TAG_SHORT)
		pr_warn("%u tags too short for their fixed fields were ignored\n",
			bi->short_tags);
	if (w & BOOT_WARN_MB2_MMAP_ENTRY)
		pr_warn("the memory map tag's entry_size %u is below %zu; that map was ignored\n",
			bi->mmap_entry_size,
			sizeof(struct multiboot2_mmap_entry));
	if (w & BOOT_WARN_MB2_EFI_DESC)
		pr_warn("the EFI memory map's descriptor_size %u is below %zu; that map was ignored\n",
			bi->efi_descr_size, sizeof(struct efi_memory_desc));
	if (w & BOOT_WARN_MB2_RSDP_SHORT)
		pr_warn("an ACPI RSDP tag holds fewer bytes than its revision needs (%u in tag 14, %u in tag 15); it was ignored\n",
			MULTIBOOT2_RSDP_V1_LEN, MULTIBOOT2_RSDP_V2_LEN);
	if (w & BOOT_WARN_MB2_UNKNOWN_TAG)
		pr_warn("%u tags of unknown type were ignored\n",
			bi->unknown_tags);
}
