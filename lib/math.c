/*
 * lib/math.c - integer square roots, gcd and 64-by-32 division.
 *
 * int_sqrt() is the classic digit-by-digit method (as in Linux): it finds
 * the root one bit at a time from the top, using only shifts, adds and
 * compares, so it is exact for every input and never divides.
 */
#include "lib/math.h"

#include "lib/bitops.h"
#include "lib/compiler.h"

unsigned long int_sqrt(unsigned long x)
{
	unsigned long b, m, y = 0;

	if (x <= 1)
		return x;

	/* m: the highest power of 4 <= x */
	m = 1UL << (__fls(x) & ~1UL);
	while (m != 0) {
		b = y + m;
		y >>= 1;
		if (x >= b) {
			x -= b;
			y += m;
		}
		m >>= 2;
	}
	return y;
}

u32 int_sqrt64(u64 x)
{
	u64 b, m, y = 0;

	if (x <= 0xffffffffULL)
		return (u32)int_sqrt((unsigned long)x);

	m = 1ULL << ((fls64(x) - 1) & ~1U);
	while (m != 0) {
		b = y + m;
		y >>= 1;
		if (x >= b) {
			x -= b;
			y += m;
		}
		m >>= 2;
	}
	return (u32)y;
}

/*
 * Binary (Stein's) gcd: common factors of two first, then subtract odd
 * from odd; shifts and subtractions only.
 */
unsigned long gcd(unsigned long a, unsigned long b)
{
	unsigned long r = a | b;	/* lowest set bit: common power of 2 */

	if (!a || !b)
		return r;

	b >>= __ffs(b);
	if (b == 1)
		return r & -r;

	for (;;) {
		a >>= __ffs(a);
		if (a == 1)
			return r & -r;
		if (a == b)
			return a << __ffs(r);
		if (a < b) {
			unsigned long t = a;

			a = b;
			b = t;
		}
		a -= b;
	}
}

u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	u64 quotient;

	if (likely(dividend >> 32 == 0)) {
		*remainder = (u32)dividend % divisor;
		return (u32)dividend / divisor;
	}
	quotient = dividend / divisor;
	*remainder = (u32)(dividend - quotient * divisor);
	return quotient;
}
