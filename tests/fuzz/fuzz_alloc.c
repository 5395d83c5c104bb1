/*
 * tests/fuzz/fuzz_alloc.c - libFuzzer target: arbitrary bytes as a
 * sequence of allocations and frees against the page allocator (every
 * order, hot and cold, DMA) and the slab layer (kmalloc of any size, a
 * cache with a constructor), on a user-space kernel set up once.
 *
 * Every block handed out is filled with a pattern naming it and checked
 * when it is freed: two blocks handed out over each other, or a block
 * written by the allocator while it was out, breaks a pattern.  The zone
 * checker runs every few steps and at the end; at the end everything is
 * freed and the free-page count must be what it was before the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/host/host.h"
#include "kernel/arch.h"
#include "kernel/printk.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/slab.h"

#define SLOTS 128
#define CHECK_EVERY 16
#define ARENA (32UL << 20)

enum kind { FREE_SLOT, PAGES, KMALLOC, CACHE };

struct slot {
	enum kind kind;
	unsigned int order;	/* PAGES */
	size_t size;		/* bytes patterned */
	void *addr;
	struct page *page;
	u8 tag;
};

static struct slot slots[SLOTS];
static struct kmem_cache *fuzz_cache;
static unsigned long baseline;

static void fuzz_ctor(void *obj)
{
	memset(obj, 0xc7, 200);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	host_nr_cpus = 1;
	host_memory_init(ARENA);
	arch_early_init();
	kernel_setup(host_boot_info(ARENA, "loglevel=1"));
	fuzz_cache = kmem_cache_create("fuzz-200", 200, 0, SLAB_HWCACHE_ALIGN,
				       fuzz_ctor);
	if (!fuzz_cache)
		abort();
	kmem_cache_reap_all();
	drain_all_pages();
	baseline = nr_free_pages();
	return 0;
}

static void fill(struct slot *s)
{
	if (s->kind == PAGES && !s->addr) {
		/* highmem: patterned through kmap_atomic is not needed on the
		 * host (no highmem); leave unpatterned */
		return;
	}
	memset(s->addr, s->tag, s->size);
}

static void verify(const struct slot *s)
{
	const u8 *p = s->addr;

	if (!p)
		return;
	for (size_t i = 0; i < s->size; i++)
		if (p[i] != s->tag)
			abort();
}

static void release(struct slot *s)
{
	verify(s);
	switch (s->kind) {
	case PAGES:
		if (s->order == 0 && (s->tag & 1))
			free_cold_page(s->page);
		else
			__free_pages(s->page, s->order);
		break;
	case KMALLOC:
		kfree(s->addr);
		break;
	case CACHE:
		kmem_cache_free(fuzz_cache, s->addr);
		break;
	case FREE_SLOT:
		break;
	}
	s->kind = FREE_SLOT;
}

static void step(uint8_t op, uint8_t a, uint8_t b, u8 tag)
{
	struct slot *s = &slots[a % SLOTS];

	if (s->kind != FREE_SLOT) {
		release(s);
		return;
	}
	s->tag = tag;
	switch (op % 3) {
	case 0: {
		gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;

		s->order = b % 11;
		if (b & 0x80)
			gfp |= __GFP_COLD;
		if ((b & 0x40) && s->order < 4)
			gfp |= __GFP_DMA;
		s->page = alloc_pages(gfp, s->order);
		if (!s->page)
			return;
		s->kind = PAGES;
		s->addr = page_address(s->page);
		s->size = PAGE_SIZE << s->order;
		break;
	}
	case 1:
		s->size = ((size_t)b << 4 | (a & 15)) * ((op >> 2) % 64 + 1) + 1;
		s->addr = kmalloc(s->size, (op & 0x80 ? GFP_DMA : GFP_KERNEL) | __GFP_NOWARN);
		if (!s->addr)
			return;
		if (ksize(s->addr) < s->size)
			abort();
		s->kind = KMALLOC;
		break;
	case 2:
		s->addr = kmem_cache_alloc(fuzz_cache, GFP_KERNEL);
		if (!s->addr)
			return;
		s->size = 200;
		s->kind = CACHE;
		break;
	}
	fill(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[160];

	for (size_t i = 0; i + 3 <= size; i += 3) {
		step(data[i], data[i + 1], data[i + 2], (u8)(i / 3 + 1));
		if ((i / 3) % CHECK_EVERY == CHECK_EVERY - 1 &&
		    check_all_zones(why, sizeof(why))) {
			fprintf(stderr, "zone check: %s\n", why);
			abort();
		}
	}
	for (unsigned int i = 0; i < SLOTS; i++)
		if (slots[i].kind != FREE_SLOT)
			release(&slots[i]);
	kmem_cache_reap_all();
	drain_all_pages();
	if (check_all_zones(why, sizeof(why))) {
		fprintf(stderr, "zone check: %s\n", why);
		abort();
	}
	if (nr_free_pages() != baseline) {
		fprintf(stderr, "pages lost: %lu free, %lu before\n",
			nr_free_pages(), baseline);
		abort();
	}
	return 0;
}
