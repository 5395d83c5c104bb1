/*
 * lib/bitops.h - bit operations on words and on bitmaps (arrays of
 * unsigned long), with Linux's names and semantics.
 *
 * Bit nr of a bitmap is bit (nr % BITS_PER_LONG) of word
 * (nr / BITS_PER_LONG), so bit 32 lives in the second word on i386 and
 * in the first on a 64-bit host; code must not assume either.
 *
 * set_bit(), clear_bit(), change_bit() are atomic but order nothing;
 * test_and_*() are atomic and fully ordered, as in Linux.  The __ variants
 * are plain read-modify-writes for bitmaps nobody else can see.
 *
 * __ffs(), __fls() and ffz() are undefined for the word value that has
 * no such bit (0, 0, ~0UL): callers check first, as Linux's do.
 *
 * ffs() is ISO/POSIX's too: a hosted (user-space test) build takes it
 * from libc's <strings.h>, whose declaration would clash with an inline
 * definition here; it means the same thing.
 */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

#include "lib/compiler.h"
#include "lib/types.h"

#if __SIZEOF_LONG__ == 8
#define BITS_PER_LONG 64
#else
#define BITS_PER_LONG 32
#endif
#define BITS_PER_LONG_LONG 64
#define BITS_PER_BYTE 8
#define BITS_PER_TYPE(type) (sizeof(type) * BITS_PER_BYTE)
#define BITS_TO_LONGS(nr) DIV_ROUND_UP(nr, BITS_PER_TYPE(long))

#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)

/* Bits l..h inclusive, h >= l: GENMASK(7, 4) == 0xf0. */
#define GENMASK(h, l) \
	(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)                                                   \
	(((~0ULL) - (1ULL << (l)) + 1) &                                     \
	 (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

/* The bits of a bitmap's first word at or above start ... */
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
/* ... and of its last word below nbits. */
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

/* Atomic, unordered. */
static inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline void change_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

/* Atomic, fully ordered; return the bit's old value. */
static inline bool test_and_set_bit(unsigned long nr,
				    volatile unsigned long *addr)
{
	unsigned long mask = BIT_MASK(nr);

	return __atomic_fetch_or(&addr[BIT_WORD(nr)], mask,
				 __ATOMIC_SEQ_CST) & mask;
}

static inline bool test_and_clear_bit(unsigned long nr,
				      volatile unsigned long *addr)
{
	unsigned long mask = BIT_MASK(nr);

	return __atomic_fetch_and(&addr[BIT_WORD(nr)], ~mask,
				  __ATOMIC_SEQ_CST) & mask;
}

static inline bool test_and_change_bit(unsigned long nr,
				       volatile unsigned long *addr)
{
	unsigned long mask = BIT_MASK(nr);

	return __atomic_fetch_xor(&addr[BIT_WORD(nr)], mask,
				  __ATOMIC_SEQ_CST) & mask;
}

/* Non-atomic. */
static inline void __set_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline void __change_bit(unsigned long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] ^= BIT_MASK(nr);
}

static inline bool __test_and_set_bit(unsigned long nr,
				      volatile unsigned long *addr)
{
	unsigned long mask = BIT_MASK(nr);
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old | mask;
	return old & mask;
}

static inline bool __test_and_clear_bit(unsigned long nr,
					volatile unsigned long *addr)
{
	unsigned long mask = BIT_MASK(nr);
	unsigned long old = addr[BIT_WORD(nr)];

	addr[BIT_WORD(nr)] = old & ~mask;
	return old & mask;
}

/* One marked read (Linux's test_bit is an atomic read too). */
static inline bool test_bit(unsigned long nr,
			    const volatile unsigned long *addr)
{
	return 1UL & (READ_ONCE(addr[BIT_WORD(nr)]) >>
		      (nr & (BITS_PER_LONG - 1)));
}

/* Index of the lowest set bit; word must not be 0. */
static inline unsigned long __ffs(unsigned long word)
{
	return (unsigned long)__builtin_ctzl(word);
}

/* Index of the highest set bit; word must not be 0. */
static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - (unsigned long)__builtin_clzl(word);
}

/* Index of the lowest clear bit; word must not be ~0UL. */
static inline unsigned long ffz(unsigned long word)
{
	return __ffs(~word);
}

#if __STDC_HOSTED__
#include <strings.h>
#else
/* One-based index of the lowest set bit, 0 when x == 0. */
static inline int ffs(int x)
{
	return __builtin_ffs(x);
}
#endif

/* One-based index of the highest set bit, 0 when x == 0: fls(1) == 1. */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* As fls(), for 64 bits; two 32-bit halves keep it off libgcc on i386. */
static inline int fls64(u64 x)
{
	u32 hi = (u32)(x >> 32);

	return hi ? fls(hi) + 32 : fls((u32)x);
}

static inline int fls_long(unsigned long x)
{
	return BITS_PER_LONG == 32 ? fls((unsigned int)x) : fls64(x);
}

static inline int __ilog2_u32(u32 n)
{
	return fls(n) - 1;
}

static inline int __ilog2_u64(u64 n)
{
	return fls64(n) - 1;
}

/*
 * ilog2 - floor of the base-2 logarithm.
 *
 * A constant argument folds to a constant, so ilog2() may size arrays
 * and appear in static initialisers and BUILD_BUG_ON().  ilog2(0) is -1
 * at run time and 0 for a constant; it is meaningless either way.
 */
#define ilog2(n)                                                            \
	(__builtin_constant_p(n) ?                                           \
		((n) < 2 ? 0 : 63 - __builtin_clzll(n)) :                    \
	 (sizeof(n) <= 4) ? __ilog2_u32(n) : __ilog2_u64(n))

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

/*
 * The smallest power of two >= n.  n must not exceed
 * 1UL << (BITS_PER_LONG - 1); 0 rounds up to 1 (Linux leaves it
 * undefined).
 */
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << fls_long(n - 1);
}

/* The largest power of two <= n; 0 for 0 (undefined in Linux). */
static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return n ? 1UL << (fls_long(n) - 1) : 0;
}

/* Population counts, by the usual SWAR reduction (no libgcc call). */
static inline unsigned int hweight32(u32 w)
{
	w -= (w >> 1) & 0x55555555;
	w = (w & 0x33333333) + ((w >> 2) & 0x33333333);
	w = (w + (w >> 4)) & 0x0f0f0f0f;
	return (w * 0x01010101) >> 24;
}

static inline unsigned int hweight16(u16 w)
{
	return hweight32(w);
}

static inline unsigned int hweight8(u8 w)
{
	return hweight32(w);
}

static inline unsigned int hweight64(u64 w)
{
	return hweight32((u32)w) + hweight32((u32)(w >> 32));
}

static inline unsigned int hweight_long(unsigned long w)
{
	return BITS_PER_LONG == 32 ? hweight32((u32)w) : hweight64(w);
}

/*
 * Bitmap searches.  Each returns the index of the bit found, or size when
 * there is none; bits at and above size are never looked at as results,
 * though the words holding them are read.
 */
unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr,
				 unsigned long size, unsigned long offset);
unsigned long find_first_bit(const unsigned long *addr, unsigned long size);
unsigned long find_first_zero_bit(const unsigned long *addr,
				  unsigned long size);
unsigned long find_last_bit(const unsigned long *addr, unsigned long size);

#define for_each_set_bit(bit, addr, size)                                   \
	for ((bit) = 0; (bit) = find_next_bit((addr), (size), (bit)),        \
	     (bit) < (size); (bit)++)

#define for_each_clear_bit(bit, addr, size)                                 \
	for ((bit) = 0; (bit) = find_next_zero_bit((addr), (size), (bit)),   \
	     (bit) < (size); (bit)++)

static inline void bitmap_zero(unsigned long *dst, unsigned long nbits)
{
	unsigned long i;

	for (i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = 0;
}

/* Sets bits 0..nbits-1 and clears the unused tail of the last word. */
static inline void bitmap_fill(unsigned long *dst, unsigned long nbits)
{
	unsigned long i, n = BITS_TO_LONGS(nbits);

	for (i = 0; i < n; i++)
		dst[i] = ~0UL;
	if (n)
		dst[n - 1] = BITMAP_LAST_WORD_MASK(nbits);
}

#endif /* LIB_BITOPS_H */
