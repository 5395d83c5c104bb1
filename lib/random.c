/*
 * lib/random.c - xoshiro128** (Blackman and Vigna, 2018), seeded by
 * splitmix64.
 *
 * xoshiro128** has 128 bits of state, passes the usual statistical
 * batteries and needs only 32-bit shifts, xors and multiplies, so it is
 * cheap on i386.  Its one forbidden state is all zeros; splitmix64 is a
 * bijection of its counter, so two consecutive outputs are never both
 * zero and any 64-bit seed (0 included) gives a valid state.
 *
 * Everything is defined on fixed-width unsigned integers and bytes are
 * produced in a fixed order, so sequences do not depend on the host's
 * word size or endianness.
 */
#include "lib/random.h"

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline u32 rotl32(u32 x, int k)
{
	return (x << k) | (x >> (32 - k));
}

void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	u64 a = splitmix64(&seed);
	u64 b = splitmix64(&seed);

	state->s[0] = (u32)a;
	state->s[1] = (u32)(a >> 32);
	state->s[2] = (u32)b;
	state->s[3] = (u32)(b >> 32);
}

u32 prandom_u32_state(struct rnd_state *state)
{
	u32 *s = state->s;
	u32 result = rotl32(s[1] * 5, 7) * 9;
	u32 t = s[1] << 9;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl32(s[3], 11);
	return result;
}

/*
 * Lemire's multiply-and-reject method: the high half of x * bound is
 * uniform in [0, bound) once the few low halves below 2^32 % bound are
 * rejected.  The division is only needed in the rare suspicious case.
 */
u32 prandom_u32_below(struct rnd_state *state, u32 bound)
{
	u64 m = (u64)prandom_u32_state(state) * bound;
	u32 low = (u32)m;

	if (low < bound) {
		u32 threshold = -bound % bound;	/* 2^32 mod bound */

		while (low < threshold) {
			m = (u64)prandom_u32_state(state) * bound;
			low = (u32)m;
		}
	}
	return (u32)(m >> 32);
}

void prandom_bytes_state(struct rnd_state *state, void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		u32 r = prandom_u32_state(state);
		size_t i;

		for (i = 0; i < 4 && len; i++, len--) {
			*p++ = (u8)r;
			r >>= 8;
		}
	}
}
