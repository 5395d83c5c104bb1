/*
 * kernel/multiboot2.h - the Multiboot 2 information block.
 *
 * A Multiboot 2 loader leaves EAX = MULTIBOOT2_BOOTLOADER_MAGIC and EBX =
 * the physical address of an 8-byte aligned block: u32 total_size, u32
 * reserved, then tags (u32 type, u32 size), each starting on an 8-byte
 * boundary, up to an end tag (type 0, size 8).  multiboot2_parse() reads
 * it into the same struct boot_info as Multiboot v1 (kernel/multiboot.h),
 * so that nothing after start_kernel() knows which protocol booted us.
 * The structures below are the specification's layouts; they are only
 * ever memcpy'd out of the loader's block, never pointed into.
 */
#ifndef KERNEL_MULTIBOOT2_H
#define KERNEL_MULTIBOOT2_H

#include "kernel/multiboot.h"

#define MULTIBOOT2_HEADER_MAGIC 0xE85250D6
#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36D76289

/* Tag types of the information block (the specification's numbers). */
#define MULTIBOOT2_TAG_END 0
#define MULTIBOOT2_TAG_CMDLINE 1
#define MULTIBOOT2_TAG_BOOT_LOADER_NAME 2
#define MULTIBOOT2_TAG_MODULE 3
#define MULTIBOOT2_TAG_BASIC_MEMINFO 4
#define MULTIBOOT2_TAG_BOOTDEV 5
#define MULTIBOOT2_TAG_MMAP 6
#define MULTIBOOT2_TAG_ACPI_OLD 14
#define MULTIBOOT2_TAG_ACPI_NEW 15
#define MULTIBOOT2_TAG_EFI_MMAP 17
#define MULTIBOOT2_TAG_LOAD_BASE_ADDR 21 /* the highest type defined */

/* The block's header and every tag's: 8-byte aligned. */
#define MULTIBOOT2_TAG_ALIGN 8

struct multiboot2_info_header {
	u32 total_size;		/* bytes, the header and the end tag included */
	u32 reserved;
} __packed;

struct multiboot2_tag {
	u32 type;
	u32 size;		/* bytes, this header included, padding not */
} __packed;

/* Types 1 and 2: a NUL-terminated string follows. */

struct multiboot2_tag_module {	/* type 3, then the module's string */
	u32 type, size;
	u32 mod_start, mod_end;	/* physical [mod_start, mod_end) */
} __packed;

struct multiboot2_tag_basic_meminfo { /* type 4 */
	u32 type, size;
	u32 mem_lower, mem_upper; /* KiB from 0 and from 1 MiB */
} __packed;

struct multiboot2_tag_mmap {	/* type 6, then the entries */
	u32 type, size;
	u32 entry_size;		/* stride; at least sizeof(entry) */
	u32 entry_version;	/* 0; later versions only append fields */
} __packed;

struct multiboot2_mmap_entry {
	u64 addr, len;
	u32 type;		/* MULTIBOOT_MEMORY_* (loaders add others) */
	u32 zero;
} __packed;

struct multiboot2_tag_efi_mmap { /* type 17, then the descriptors */
	u32 type, size;
	u32 descr_size;		/* stride; OVMF's 48 exceeds the struct */
	u32 descr_vers;		/* EFI_MEMORY_DESCRIPTOR_VERSION, 1 */
} __packed;

/* UEFI's EFI_MEMORY_DESCRIPTOR (version 1), as laid out in memory. */
struct efi_memory_desc {
	u32 type;		/* EFI_* below */
	u32 pad;
	u64 phys_addr;
	u64 virt_addr;
	u64 num_pages;		/* 4 KiB pages */
	u64 attribute;
} __packed;

/* UEFI memory types. */
#define EFI_RESERVED_TYPE 0
#define EFI_LOADER_CODE 1
#define EFI_LOADER_DATA 2
#define EFI_BOOT_SERVICES_CODE 3
#define EFI_BOOT_SERVICES_DATA 4
#define EFI_RUNTIME_SERVICES_CODE 5
#define EFI_RUNTIME_SERVICES_DATA 6
#define EFI_CONVENTIONAL_MEMORY 7
#define EFI_UNUSABLE_MEMORY 8
#define EFI_ACPI_RECLAIM_MEMORY 9
#define EFI_ACPI_MEMORY_NVS 10
#define EFI_MEMORY_MAPPED_IO 11
#define EFI_MEMORY_MAPPED_IO_PORT_SPACE 12
#define EFI_PAL_CODE 13
#define EFI_PERSISTENT_MEMORY 14
#define EFI_UNACCEPTED_MEMORY 15

/* The RSDP bytes a tag 14 (revision 0) and a tag 15 (revision 2) hold. */
#define MULTIBOOT2_RSDP_V1_LEN 20
#define MULTIBOOT2_RSDP_V2_LEN 36

/*
 * The e820 type Linux's EFI stub gives an EFI memory type (see
 * kernel/multiboot2.c for the table and where it departs from Linux).
 */
u32 efi_type_to_e820(u32 efi_type);

/*
 * Fills *bi from the Multiboot 2 block at info_pa, every read through
 * phys_to_virt (which is asked for the header, then for the whole block
 * and nothing else).  Returns -EINVAL for a wrong magic (bi zeroed,
 * nothing read), -ENOENT when nothing usable about memory was found
 * (BOOT_WARN_NO_MEMINFO; the rest is still filled in), 0 otherwise
 * (bi->warnings says what was wrong).
 */
int multiboot2_parse(u32 magic, phys_addr_t info_pa,
		     const void *(*phys_to_virt)(phys_addr_t pa, size_t len),
		     struct boot_info *bi);

/*
 * The Multiboot 2 part of multiboot_print(): loader, block, map source,
 * RSDP, and the warnings only Multiboot 2 raises.
 */
void multiboot2_print_info(const struct boot_info *bi);

#endif /* KERNEL_MULTIBOOT2_H */
