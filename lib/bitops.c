/*
 * lib/bitops.c - searching bitmaps for set and clear bits.
 *
 * One walker serves both searches: a zero-bit search is a set-bit search
 * of the inverted words (invert == ~0UL), done on the fly so that the
 * bitmap is only read.  Bits beyond size in the last word may hold
 * anything; results are clamped to size so such bits are never reported.
 */
#include "lib/bitops.h"

#include "lib/compiler.h"

static unsigned long find_next(const unsigned long *addr, unsigned long size,
			       unsigned long start, unsigned long invert)
{
	unsigned long word;

	if (unlikely(start >= size))
		return size;

	word = (addr[BIT_WORD(start)] ^ invert) & BITMAP_FIRST_WORD_MASK(start);
	start = ALIGN_DOWN(start, BITS_PER_LONG);
	while (!word) {
		start += BITS_PER_LONG;
		if (start >= size)
			return size;
		word = addr[BIT_WORD(start)] ^ invert;
	}
	return min(start + __ffs(word), size);
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset)
{
	return find_next(addr, size, offset, 0UL);
}

unsigned long find_next_zero_bit(const unsigned long *addr,
				 unsigned long size, unsigned long offset)
{
	return find_next(addr, size, offset, ~0UL);
}

unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_next(addr, size, 0, 0UL);
}

unsigned long find_first_zero_bit(const unsigned long *addr,
				  unsigned long size)
{
	return find_next(addr, size, 0, ~0UL);
}

unsigned long find_last_bit(const unsigned long *addr, unsigned long size)
{
	unsigned long idx, mask = BITMAP_LAST_WORD_MASK(size);

	if (!size)
		return size;
	/* Only the last word can hold bits at or above size. */
	for (idx = (size - 1) / BITS_PER_LONG;; idx--) {
		unsigned long word = addr[idx] & mask;

		if (word)
			return idx * BITS_PER_LONG + __fls(word);
		if (!idx)
			return size;
		mask = ~0UL;
	}
}
