/*
 * tests/fuzz/fuzz_mem.h - a fake physical memory for the parser fuzzers
 * (fuzz_multiboot, fuzz_multiboot2, fuzz_acpi), built from the input.
 *
 * The input after a target's own header is a list of chunks, each
 *	u32 pa, u16 len, u8 flags, then len bytes (cut at the input's end)
 * written at physical address pa (little endian).  Memory exists only
 * where some chunk wrote, in 4 KiB pages (at most FAKE_PAGES); a chunk
 * that needs more pages, or wraps past 4 GiB, is dropped.  Later chunks
 * overwrite earlier ones where they overlap.
 *
 * fake_map() is the parsers' accessor (multiboot_xlate_t, acpi_map_t):
 * it refuses a range not wholly backed by pages, and otherwise returns
 * a fresh heap copy of exactly the bytes asked for.  Under
 * AddressSanitizer a read past the length asked for is then a
 * heap-buffer-overflow.  With fake_one_window set (the ACPI parser,
 * whose early window moves at every call) it frees the copy it returned
 * before, so a read through a pointer kept across calls is a
 * heap-use-after-free; otherwise (the Multiboot translators, a linear
 * map in the kernel, where pointers stay valid) the copies live until
 * fake_reset().
 *
 * The flags help the fuzzer build valid ACPI tables (fuzz_acpi): without
 * them a checksum is a 1-in-256 guess.  Bit 2 sets the table header's
 * length (offset 4) to len, then bit 0 makes a table's bytes sum to 0
 * (fixing byte 9), bit 1 an RSDP's first 20 bytes (byte 8) and, when
 * len >= 36, its first 36 (byte 32).  Bits 3 and 4 name the chunk's range
 * in the memory map given to the parser as ACPI data and ACPI NVS.
 */
#ifndef TESTS_FUZZ_FUZZ_MEM_H
#define TESTS_FUZZ_FUZZ_MEM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/multiboot.h"

#define FAKE_PAGE 4096u
#define FAKE_PAGES 48
#define FAKE_MMAP_MAX 16

#define CHUNK_FIX_TABLE 0x01
#define CHUNK_FIX_RSDP 0x02
#define CHUNK_SET_LENGTH 0x04
#define CHUNK_MMAP_ACPI 0x08
#define CHUNK_MMAP_NVS 0x10

struct fake_page {
	u64 pfn;
	u8 data[FAKE_PAGE];
};

#define FAKE_KEEP 512

static struct fake_page fake_pages[FAKE_PAGES];
static unsigned int fake_nr_pages;
static int fake_one_window;
static void *fake_bounce[FAKE_KEEP];
static unsigned int fake_nr_bounce;
static unsigned long fake_maps, fake_refusals;
/* The chunks' ACPI ranges, as a raw memory map for the RSDP scan. */
static struct boot_mmap_entry fake_mmap[FAKE_MMAP_MAX];
static unsigned int fake_nr_mmap;

static u32 fake_rd32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static struct fake_page *fake_page(u64 pfn, int create)
{
	for (unsigned int i = 0; i < fake_nr_pages; i++)
		if (fake_pages[i].pfn == pfn)
			return &fake_pages[i];
	if (!create || fake_nr_pages == FAKE_PAGES)
		return NULL;
	fake_pages[fake_nr_pages].pfn = pfn;
	memset(fake_pages[fake_nr_pages].data, 0, FAKE_PAGE);
	return &fake_pages[fake_nr_pages++];
}

static void fake_reset(void)
{
	fake_nr_pages = 0;
	fake_nr_mmap = 0;
	fake_maps = fake_refusals = 0;
	while (fake_nr_bounce)
		free(fake_bounce[--fake_nr_bounce]);
}

/* Copies [pa, pa + len) out of the fake memory into dst; false when some
 * byte of it does not exist. */
static int fake_read(u64 pa, void *dst, size_t len)
{
	u8 *d = dst;

	if (pa + len < pa)
		return 0;
	while (len) {
		struct fake_page *pg = fake_page(pa / FAKE_PAGE, 0);
		size_t off = pa % FAKE_PAGE, n = FAKE_PAGE - off;

		if (!pg)
			return 0;
		if (n > len)
			n = len;
		if (d) {
			memcpy(d, pg->data + off, n);
			d += n;
		}
		pa += n;
		len -= n;
	}
	return 1;
}

static void fake_write(u64 pa, const u8 *src, size_t len)
{
	u64 first = pa / FAKE_PAGE, last = (pa + len - 1) / FAKE_PAGE;
	unsigned int need = 0;

	if (!len || pa + len > (1ULL << 32))
		return;
	for (u64 pfn = first; pfn <= last; pfn++)
		need += !fake_page(pfn, 0);
	if (need > FAKE_PAGES - fake_nr_pages)
		return;
	while (len) {
		struct fake_page *pg = fake_page(pa / FAKE_PAGE, 1);
		size_t off = pa % FAKE_PAGE, n = FAKE_PAGE - off;

		if (n > len)
			n = len;
		memcpy(pg->data + off, src, n);
		src += n;
		pa += n;
		len -= n;
	}
}

static u8 fake_sum(const u8 *p, size_t len)
{
	u8 s = 0;

	while (len--)
		s += *p++;
	return s;
}

/* Lays out the chunks of data[0..size). */
static void fake_load(const u8 *data, size_t size)
{
	static u8 buf[65536 + 8];

	while (size >= 7) {
		u32 pa = fake_rd32(data);
		size_t len = (size_t)data[4] | (size_t)data[5] << 8;
		u8 flags = data[6];

		data += 7;
		size -= 7;
		if (len > size)
			len = size;
		memcpy(buf, data, len);
		data += len;
		size -= len;
		if ((flags & CHUNK_SET_LENGTH) && len >= 8) {
			buf[4] = (u8)len;
			buf[5] = (u8)(len >> 8);
			buf[6] = buf[7] = 0;
		}
		if ((flags & CHUNK_FIX_TABLE) && len >= 10) {
			buf[9] = 0;
			buf[9] = (u8)-fake_sum(buf, len);
		}
		if ((flags & CHUNK_FIX_RSDP) && len >= 20) {
			buf[8] = 0;
			buf[8] = (u8)-fake_sum(buf, 20);
			if (len >= 36) {
				buf[32] = 0;
				buf[32] = (u8)-fake_sum(buf, 36);
			}
		}
		fake_write(pa, buf, len);
		if ((flags & (CHUNK_MMAP_ACPI | CHUNK_MMAP_NVS)) &&
		    fake_nr_mmap < FAKE_MMAP_MAX)
			fake_mmap[fake_nr_mmap++] = (struct boot_mmap_entry){
				.addr = pa, .len = len,
				.type = (flags & CHUNK_MMAP_ACPI) ?
						MULTIBOOT_MEMORY_ACPI_RECLAIMABLE :
						MULTIBOOT_MEMORY_NVS,
			};
	}
}

/*
 * A boot loader's hand-over as the Multiboot targets take it: a byte
 * (0xff: the wrong magic number, anything else good), the information
 * block's address (u32, little endian), then the chunks, laid out anew.
 * False when the input is too short to say.
 */
static inline int fake_boot_load(const u8 *data, size_t size, u32 good,
				 u32 *magic, u32 *addr)
{
	if (size < 5)
		return 0;
	*magic = data[0] == 0xff ? good + 1 : good;
	*addr = fake_rd32(data + 1);
	fake_reset();
	fake_load(data + 5, size - 5);
	return 1;
}

/* The accessor handed to the parser. */
static const void *fake_map(phys_addr_t pa, size_t len)
{
	void *p;

	fake_maps++;
	if (fake_one_window || fake_nr_bounce == FAKE_KEEP)
		while (fake_nr_bounce)
			free(fake_bounce[--fake_nr_bounce]);
	if (!fake_read(pa, NULL, len)) {
		fake_refusals++;
		return NULL;
	}
	p = malloc(len ? len : 1);
	if (!p)
		abort();
	fake_read(pa, p, len);
	fake_bounce[fake_nr_bounce++] = p;
	return p;
}

#endif /* TESTS_FUZZ_FUZZ_MEM_H */
