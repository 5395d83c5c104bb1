/*
 * tests/page_misuse.c - page allocator misuse that must stop the kernel,
 * each with the report a Linux developer would recognise.  Every scenario
 * is one boot of tests/boots.txt (ktest.misuse=NAME), judged on its exact
 * report line; if a scenario returns, the misuse went unnoticed and
 * ktest_run_misuse() fails the boot.
 *
 *   double_free        __free_page twice: the second finds refcount 0
 *   wrong_order        alloc order 2, free order 1
 *   free_reserved      __free_page of pfn 0 (reserved: not an allocation)
 *   free_bad_address   free_pages() of a kernel .data address
 *   page_poison_uaf    (page_poison=1) a write to a freed page, caught
 *                      when the page is handed out again
 */
#include "kernel/printk.h"
#include "mm/gfp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "tests/ktest.h"

static void misuse_double_free(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return;
	pr_info("ktest: misuse double_free: freeing pfn:%05lx twice\n",
		page_to_pfn(page));
	__free_page(page);
	__free_page(page);
}
KTEST_MISUSE(double_free, misuse_double_free);

static void misuse_wrong_order(void)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	if (!page)
		return;
	pr_info("ktest: misuse wrong_order: pfn:%05lx allocated with order 2, freed with order 1\n",
		page_to_pfn(page));
	__free_pages(page, 1);
}
KTEST_MISUSE(wrong_order, misuse_wrong_order);

static void misuse_free_reserved(void)
{
	pr_info("ktest: misuse free_reserved: freeing pfn:00000 (reserved at boot)\n");
	__free_page(pfn_to_page(0));
}
KTEST_MISUSE(free_reserved, misuse_free_reserved);

/* 8-byte aligned, so &not_a_page[1] is never page aligned. */
static u32 not_a_page[2] __aligned(8) = { 0x6e6f7420, 0x61706167 };

static void misuse_free_bad_address(void)
{
	unsigned long addr = (unsigned long)&not_a_page[1];

	pr_info("ktest: misuse free_bad_address: free_pages(%#lx, 0), a .data address\n",
		addr);
	free_pages(addr, 0);
}
KTEST_MISUSE(free_bad_address, misuse_free_bad_address);

#define UAF_OFFSET 0x7b
#define UAF_BYTE 0x5a

/*
 * Frees a page, writes into it, then allocates order-0 pages (keeping
 * them, so each allocation is a different page) until the allocator hands
 * the poisoned page out again and finds the write.  Nothing else
 * allocates at this point of the boot, so this ends at the latest when
 * the zones run dry.
 */
static void misuse_page_poison_uaf(void)
{
	struct page *page, *got;
	unsigned long n = 0;
	u8 *addr;

	if (!page_poisoning) {
		pr_err("ktest: misuse page_poison_uaf needs page_poison=1\n");
		return;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return;
	addr = page_address(page);
	pr_info("ktest: misuse page_poison_uaf: writing 0x%02x at offset %#x of pfn:%05lx after freeing it\n",
		UAF_BYTE, UAF_OFFSET, page_to_pfn(page));
	__free_page(page);
	WRITE_ONCE(addr[UAF_OFFSET], UAF_BYTE);

	while ((got = alloc_page(GFP_KERNEL | __GFP_NOWARN)) != NULL) {
		n++;
		if (got == page)
			break;
	}
	pr_err("ktest: misuse page_poison_uaf: %lu allocations, pfn:%05lx %s without a report\n",
	       n, page_to_pfn(page), got ? "came back" : "never came back");
}
KTEST_MISUSE(page_poison_uaf, misuse_page_poison_uaf);

/* free_hot_page() is for single pages: an order-2 block is a BUG. */
static void misuse_free_hot_high_order(void)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);

	if (!page)
		return;
	free_hot_page(page);
}
KTEST_MISUSE(free_hot_high_order, misuse_free_hot_high_order);
