/*
 * boot/header.S - the Multiboot v1 and Multiboot 2 headers.
 *
 * One image, two protocols: QEMU's -kernel and GRUB's "multiboot" read the
 * v1 header, GRUB's "multiboot2" the v2 one.  The linker script puts
 * .multiboot first, so both lie well inside the limits: v1 within the
 * first 8 KiB of the file, 4-byte aligned; v2 within the first 32 KiB,
 * 8-byte aligned.
 *
 * v1: we ask for page-aligned modules (bit 0) and for the memory
 * information and map (bit 1).  Being an ELF image we need neither
 * header's load-address fields (v1 bit 16, v2 tag 2).
 *
 * v2: architecture 0 (i386 protected mode), an information request tag
 * (marked optional, so that a loader that lacks a tag still boots us;
 * GRUB gives all of these anyway) and the end tag.  There is
 * deliberately no "EFI boot services" tag (7): under UEFI the loader must
 * exit boot services and enter us in 32-bit protected mode, paging off,
 * exactly as under a BIOS, with EAX = 0x36D76289.
 */
#define MB_MAGIC	0x1BADB002
#define MB_FLAGS	0x00000003

#define MB2_MAGIC	0xE85250D6
#define MB2_ARCH_I386	0
#define MB2_TAG_END	0
#define MB2_TAG_INFO_REQ 1
#define MB2_TAG_OPTIONAL 1

	.section .multiboot, "a"
	.align 4
mb_header:
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.align 8
mb2_header:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	/* Information request: the tags kernel/multiboot2.c reads. */
	.align 8
mb2_info_req:
	.short MB2_TAG_INFO_REQ
	.short MB2_TAG_OPTIONAL
	.long mb2_info_req_end - mb2_info_req
	.long 1		/* command line */
	.long 2		/* boot loader name */
	.long 3		/* modules */
	.long 4		/* basic memory information */
	.long 6		/* memory map */
	.long 14	/* ACPI RSDP, revision 0 */
	.long 15	/* ACPI RSDP, revision 2 */
	.long 17	/* EFI memory map */
mb2_info_req_end:

	.align 8
	.short MB2_TAG_END
	.short 0
	.long 8
mb2_header_end:
