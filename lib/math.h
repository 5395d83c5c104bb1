/*
 * lib/math.h - integer arithmetic helpers from Linux (no floating point).
 *
 * On i386 a u64 division is a libgcc call; div_u64_rem() and div_u64()
 * take the one-instruction path whenever the dividend fits in 32 bits.
 */
#ifndef LIB_MATH_H
#define LIB_MATH_H

#include "lib/types.h"

/* floor(sqrt(x)) */
unsigned long int_sqrt(unsigned long x);
u32 int_sqrt64(u64 x);

/* Greatest common divisor; gcd(0, b) == b, gcd(0, 0) == 0. */
unsigned long gcd(unsigned long a, unsigned long b);

/* dividend / divisor, with dividend % divisor stored in *remainder. */
u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder);

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	u32 remainder;

	return div_u64_rem(dividend, divisor, &remainder);
}

#define DIV_ROUND_DOWN_ULL(ll, d) div_u64((unsigned long long)(ll), (d))
#define DIV_ROUND_UP_ULL(ll, d) \
	div_u64((unsigned long long)(ll) + (d) - 1, (d))

#endif /* LIB_MATH_H */
