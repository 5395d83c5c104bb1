/*
 * boot/header.S - the Multiboot v1 header.
 *
 * It must lie within the first 8 KiB of the image, 4-byte aligned; the
 * linker script puts .multiboot first.  We ask for page-aligned modules
 * (bit 0) and for the memory information and map (bit 1).  Being an ELF
 * image we do not need the a.out address fields (bit 16).
 */
#define MB_MAGIC	0x1BADB002
#define MB_FLAGS	0x00000003

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)
