/*
 * mm/gfp.h - "get free pages" flags and the page allocation API.
 *
 * The bit values are Linux 2.6's (2.6.11's include/linux/gfp.h), so that
 * a mode printed in a failure report ("mode:0xd0") reads the same as in a
 * Linux log.  __GFP_REPEAT, __GFP_NOFAIL and __GFP_NORETRY are there from
 * 2.6.0 (2.6.11); __GFP_NO_GROW, __GFP_COMP, and the later
 * __GFP_NOMEMALLOC and __GFP_HARDWALL are not.  The low two bits
 * are the zone modifier, which selects the zonelist; the rest say what the
 * allocator may do to satisfy the request (sleep, start I/O, call into a
 * filesystem, dip into reserves, retry) and what the caller wants (a cold
 * page, a zeroed page, no warning on failure).
 */
#ifndef MM_GFP_H
#define MM_GFP_H

#include "lib/types.h"

#define __GFP_DMA 0x01u
#define __GFP_HIGHMEM 0x02u
#define __GFP_WAIT 0x10u    /* may sleep */
#define __GFP_HIGH 0x20u    /* may use emergency pools (min halved) */
#define __GFP_IO 0x40u      /* may start physical I/O */
#define __GFP_FS 0x80u      /* may call into a filesystem */
#define __GFP_COLD 0x100u   /* a cache-cold page is wanted */
#define __GFP_NOWARN 0x200u /* no failure report */
#define __GFP_REPEAT 0x400u /* retry; may still fail */
#define __GFP_NOFAIL 0x800u /* retry for ever; cannot fail */
#define __GFP_NORETRY 0x1000u /* do not retry; fail at once */
#define __GFP_ZERO 0x8000u  /* return zeroed memory */

#define GFP_ZONEMASK (__GFP_DMA | __GFP_HIGHMEM)
#define GFP_ZONETYPES 4 /* one zonelist per zone-modifier value */

/* The combinations are 2.6.11's (GFP_USER has no __GFP_HARDWALL). */
#define GFP_ATOMIC (__GFP_HIGH)
/* Cannot sleep, and no claim on the reserve __GFP_HIGH opens (2.6.18). */
#define GFP_NOWAIT (GFP_ATOMIC & ~__GFP_HIGH)
#define GFP_NOIO (__GFP_WAIT)
#define GFP_NOFS (__GFP_WAIT | __GFP_IO)
#define GFP_KERNEL (__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_USER (__GFP_WAIT | __GFP_IO | __GFP_FS)
#define GFP_HIGHUSER (__GFP_WAIT | __GFP_IO | __GFP_FS | __GFP_HIGHMEM)
#define GFP_DMA (__GFP_DMA)

/* Every bit this kernel knows; any other bit in a mask is a caller bug. */
#define __GFP_BITS_MASK                                                     \
	(__GFP_DMA | __GFP_HIGHMEM | __GFP_WAIT | __GFP_HIGH | __GFP_IO |   \
	 __GFP_FS | __GFP_COLD | __GFP_NOWARN | __GFP_REPEAT |              \
	 __GFP_NOFAIL | __GFP_NORETRY | __GFP_ZERO)

/*
 * Writes mask in words into buf, Linux's way ("GFP_NOFS|__GFP_NOWARN",
 * unknown bits in hex), cut to fit and NUL-terminated; returns the length
 * the whole text needs.  mm/gfp_names.c holds the names.
 */
#define GFP_DESCRIBE_LEN 128 /* enough for every known bit plus a hex rest */
int gfp_describe(char *buf, size_t size, gfp_t mask);

struct page;

struct page *alloc_pages(gfp_t gfp_mask, unsigned int order);
struct page *alloc_pages_node(int nid, gfp_t gfp_mask, unsigned int order);
#define alloc_page(gfp_mask) alloc_pages(gfp_mask, 0)

unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order);
#define __get_free_page(gfp_mask) __get_free_pages(gfp_mask, 0)
unsigned long get_zeroed_page(gfp_t gfp_mask);

void __free_pages(struct page *page, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
#define __free_page(page) __free_pages(page, 0)
#define free_page(addr) free_pages(addr, 0)
void free_hot_page(struct page *page);
void free_cold_page(struct page *page);

#endif /* MM_GFP_H */
