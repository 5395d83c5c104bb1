/*
 * kernel/multiboot.h - the Multiboot (v1) information block, and the
 * arch-neutral summary of it (and of Multiboot 2's, kernel/multiboot2.h)
 * that the memory code consumes.
 *
 * The boot loader leaves EAX = MULTIBOOT_BOOTLOADER_MAGIC and EBX = the
 * physical address of a struct multiboot_info.  multiboot_parse() reads it
 * (through a translator, never by dereferencing physical addresses) into a
 * struct boot_info: the raw memory map, the command line, the modules, and
 * the physical ranges the boot loader's data occupy.  The map is kept raw;
 * mm/e820.c sanitises it.
 */
#ifndef KERNEL_MULTIBOOT_H
#define KERNEL_MULTIBOOT_H

/* The magic numbers and flag bits, usable from assembly as well. */
#define MULTIBOOT_HEADER_MAGIC 0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002

/* struct multiboot_info.flags: which fields are valid. */
#define MULTIBOOT_INFO_MEMORY 0x00000001	   /* mem_lower, mem_upper */
#define MULTIBOOT_INFO_BOOTDEV 0x00000002	   /* boot_device */
#define MULTIBOOT_INFO_CMDLINE 0x00000004	   /* cmdline */
#define MULTIBOOT_INFO_MODS 0x00000008		   /* mods_count, mods_addr */
#define MULTIBOOT_INFO_AOUT_SYMS 0x00000010	   /* syms: a.out table */
#define MULTIBOOT_INFO_ELF_SHDR 0x00000020	   /* syms: ELF sections */
#define MULTIBOOT_INFO_MEM_MAP 0x00000040	   /* mmap_length, mmap_addr */
#define MULTIBOOT_INFO_DRIVE_INFO 0x00000080	   /* drives_* */
#define MULTIBOOT_INFO_CONFIG_TABLE 0x00000100	   /* config_table */
#define MULTIBOOT_INFO_BOOT_LOADER_NAME 0x00000200 /* boot_loader_name */
#define MULTIBOOT_INFO_APM_TABLE 0x00000400	   /* apm_table */
#define MULTIBOOT_INFO_VBE_INFO 0x00000800	   /* vbe_* */
#define MULTIBOOT_INFO_FRAMEBUFFER_INFO 0x00001000 /* framebuffer_* */

/* struct multiboot_mmap_entry.type */
#define MULTIBOOT_MEMORY_AVAILABLE 1
#define MULTIBOOT_MEMORY_RESERVED 2
#define MULTIBOOT_MEMORY_ACPI_RECLAIMABLE 3
#define MULTIBOOT_MEMORY_NVS 4
#define MULTIBOOT_MEMORY_BADRAM 5

#ifndef __ASSEMBLY__

#include "kernel/cmdline.h"
#include "lib/compiler.h"
#include "lib/types.h"

/*
 * The information block, laid out as the specification's offset table
 * (packed: color_info starts at offset 110, not where a naturally aligned
 * union would put it).
 */
struct multiboot_info {
	u32 flags;		/*   0 */
	u32 mem_lower;		/*   4: KiB from 0 */
	u32 mem_upper;		/*   8: KiB from 1 MiB */
	u32 boot_device;	/*  12 */
	u32 cmdline;		/*  16: physical address of a C string */
	u32 mods_count;		/*  20 */
	u32 mods_addr;		/*  24: struct multiboot_module[mods_count] */
	u32 syms[4];		/*  28 */
	u32 mmap_length;	/*  44: bytes */
	u32 mmap_addr;		/*  48 */
	u32 drives_length;	/*  52 */
	u32 drives_addr;	/*  56 */
	u32 config_table;	/*  60 */
	u32 boot_loader_name;	/*  64 */
	u32 apm_table;		/*  68 */
	u32 vbe_control_info;	/*  72 */
	u32 vbe_mode_info;	/*  76 */
	u16 vbe_mode;		/*  80 */
	u16 vbe_interface_seg;	/*  82 */
	u16 vbe_interface_off;	/*  84 */
	u16 vbe_interface_len;	/*  86 */
	u64 framebuffer_addr;	/*  88 */
	u32 framebuffer_pitch;	/*  96 */
	u32 framebuffer_width;	/* 100 */
	u32 framebuffer_height; /* 104 */
	u8 framebuffer_bpp;	/* 108 */
	u8 framebuffer_type;	/* 109 */
	u8 color_info[6];	/* 110 */
} __packed;			/* 116 bytes */

/*
 * One memory map entry.  size counts the bytes after itself (at least 20;
 * a boot loader may use more): the next entry is at &entry + size + 4.
 */
struct multiboot_mmap_entry {
	u32 size;
	u64 addr;
	u64 len;
	u32 type;
} __packed;

struct multiboot_module {
	u32 mod_start;		/* physical [mod_start, mod_end) */
	u32 mod_end;
	u32 cmdline;		/* physical address of a C string */
	u32 pad;
} __packed;

#define BOOT_MMAP_MAX 256
#define BOOT_LOADER_NAME_MAX 64
/* An ACPI RSDP as the loader copied it (Multiboot 2 tags 14 and 15): the
 * 20 bytes of revision 0 or the 36 of revision 2; longer copies are cut. */
#define BOOT_RSDP_MAX 36
#define BOOT_MODULES_MAX 16
#define BOOT_MODULE_NAME_MAX 64

/* struct boot_info.warnings: what was wrong with the block. */
#define BOOT_WARN_NO_MMAP (1U << 0)	/* map synthesised from mem_lower/upper */
#define BOOT_WARN_NO_MEMINFO (1U << 1)	/* no map, no mem_lower/upper: fatal */
#define BOOT_WARN_MMAP_CUT (1U << 2)	/* mmap_length ends inside an entry */
#define BOOT_WARN_ENTRY_SIZE (1U << 3)	/* an entry's size < 20: walk stopped */
#define BOOT_WARN_TOO_MANY (1U << 4)	/* more than BOOT_MMAP_MAX entries */
#define BOOT_WARN_BAD_POINTER (1U << 5) /* the translator refused a pointer */
#define BOOT_WARN_MODULES (1U << 6)	/* too many modules, or end < start */
/* Multiboot 2 only (kernel/multiboot2.c says what each leaves out). */
#define BOOT_WARN_MB2_TOTAL_SIZE (1U << 7) /* total_size < 16 or unmappable */
#define BOOT_WARN_MB2_TAG_SIZE (1U << 8)   /* a tag's size < 8: walk stopped */
#define BOOT_WARN_MB2_TAG_OVERRUN (1U << 9) /* a tag past total_size: stopped */
#define BOOT_WARN_MB2_NO_END (1U << 10)	   /* total_size reached, no end tag */
#define BOOT_WARN_MB2_TAG_SHORT (1U << 11) /* a tag lacks its fixed fields */
#define BOOT_WARN_MB2_MMAP_ENTRY (1U << 12) /* tag 6 entry_size < 24: ignored */
#define BOOT_WARN_MB2_EFI_DESC (1U << 13)  /* tag 17 descriptor_size < 40 */
#define BOOT_WARN_MB2_RSDP_SHORT (1U << 14) /* RSDP tag short of its revision */
#define BOOT_WARN_MB2_UNKNOWN_TAG (1U << 15) /* unknown tag types, ignored */

/* struct boot_info.map_source: where mmap[] came from (Multiboot 2). */
enum boot_map_source {
	BOOT_MAP_NONE,
	BOOT_MAP_MEMINFO,	/* synthesised from mem_lower/mem_upper */
	BOOT_MAP_MMAP,		/* the loader's e820-style map (tag 6) */
	BOOT_MAP_EFI,		/* the EFI memory map (tag 17), translated */
};

struct boot_mmap_entry {
	u64 addr;
	u64 len;
	u32 type;
};

struct boot_range {
	phys_addr_t start, end;	/* [start, end) */
};

struct boot_module {
	phys_addr_t start, end;	/* [start, end) */
	char name[BOOT_MODULE_NAME_MAX]; /* its string, cut to fit */
};

/* About 9 KiB: keep it static, never on the boot stack. */
struct boot_info {
	unsigned int protocol;	/* 1 or 2: the Multiboot version that booted us */
	u32 flags;		/* the Multiboot flags as given */
	u32 warnings;		/* BOOT_WARN_* bits */
	u32 bad_fields;		/* MULTIBOOT_INFO_* bits whose pointer was refused */
	u32 mem_lower_kb, mem_upper_kb;
	bool has_mmap;		/* false: the map was synthesised from mem_lower/upper */
	unsigned int nr_mmap;
	struct boot_mmap_entry mmap[BOOT_MMAP_MAX];
	unsigned int mmap_dropped; /* entries beyond BOOT_MMAP_MAX */
	char cmdline[COMMAND_LINE_SIZE];
	bool cmdline_truncated;
	unsigned int cmdline_dropped; /* bytes cut off the end (truncated) */
	unsigned int nr_modules;
	struct boot_module modules[BOOT_MODULES_MAX];
	unsigned int modules_dropped; /* beyond BOOT_MODULES_MAX, or end < start */
	char loader_name[BOOT_LOADER_NAME_MAX]; /* empty when not given */
	/*
	 * The RSDP copy the loader passed (Multiboot 2 only): rsdp_len bytes
	 * of rsdp[], 0 when none.  Not checked here: arch code validates it
	 * as it would the firmware's own before trusting any of it.
	 */
	unsigned int rsdp_len;
	u8 rsdp[BOOT_RSDP_MAX];
	/* Multiboot 2 only; zero under v1. */
	u32 mb2_total_size;	/* the info block's size */
	unsigned int rsdp_tag;	/* 14 or 15: the tag rsdp[] came from */
	unsigned int map_source; /* an enum boot_map_source */
	unsigned int map_entries; /* entries or descriptors the source held */
	u32 mmap_entry_size, mmap_entry_version; /* tag 6's, as given */
	u32 efi_descr_size, efi_descr_version;	  /* tag 17's, as given */
	unsigned int unknown_tags; /* tags of types not in the specification */
	unsigned int short_tags;   /* tags too short for their fixed fields */
	/* The tag at which the walk stopped (TAG_SIZE, TAG_OVERRUN). */
	u32 bad_tag_offset, bad_tag_type, bad_tag_size;
	/* Physical ranges of the boot loader's data, for memblock to reserve. */
	unsigned int nr_reserved;
	struct boot_range reserved[4 + BOOT_MODULES_MAX];
};

/* What this boot's loader passed (kernel/main.c fills it at entry). */
extern struct boot_info boot_info;

/*
 * Returns a pointer through which [pa, pa + len) can be read, or NULL when
 * that range is not accessible.
 */
typedef const void *(*multiboot_xlate_t)(phys_addr_t pa, size_t len);

/*
 * Fills *bi from the block at info_pa.  Every read of boot loader memory
 * goes through phys_to_virt; a refused pointer makes its field absent and
 * sets BOOT_WARN_BAD_POINTER.
 *
 * Returns -EINVAL for a wrong magic (bi is then zeroed and nothing else is
 * read), -ENOENT when nothing usable about memory was found
 * (BOOT_WARN_NO_MEMINFO; the rest of bi is still filled in), 0 otherwise
 * (bi->warnings says what was wrong).
 */
int multiboot_parse(u32 magic, phys_addr_t info_pa,
		    const void *(*phys_to_virt)(phys_addr_t pa, size_t len),
		    struct boot_info *bi);

/*
 * Prints bi: flags (v1) or the Multiboot 2 summary, memory sizes, the raw
 * map, modules and warnings.
 */
void multiboot_print(const struct boot_info *bi);

/* Helpers shared with kernel/multiboot2.c. */

/* Appends an entry to bi->mmap[], or counts it dropped when full. */
void boot_info_add_mmap(struct boot_info *bi, u64 addr, u64 len, u32 type);

/* Appends [start, end) to bi->reserved[] unless empty or full. */
void boot_info_add_reserved(struct boot_info *bi, phys_addr_t start,
			    phys_addr_t end);

/*
 * No memory map: the two ranges mem_lower_kb and mem_upper_kb describe
 * (BOOT_WARN_NO_MMAP).
 */
void boot_info_mmap_from_meminfo(struct boot_info *bi);

/*
 * Keeps the command line whose first bytes are the NUL-terminated raw (at
 * most COMMAND_LINE_SIZE of them) and of which more bytes followed unread:
 * cut at a token end when it does not fit, the cut counted.
 */
void boot_info_set_cmdline(struct boot_info *bi, const char *raw,
			   size_t more);

#endif /* __ASSEMBLY__ */

#endif /* KERNEL_MULTIBOOT_H */
