/*
 * lib/random.h - a small seeded pseudo-random generator for tests and
 * stress loops.  Not for anything that needs unpredictability.
 *
 * The same seed yields the same sequence on every host and build, so a
 * failing run can be replayed from its printed seed.
 */
#ifndef LIB_RANDOM_H
#define LIB_RANDOM_H

#include "lib/types.h"

struct rnd_state {
	u32 s[4];	/* xoshiro128** state, never all zero */
};

void prandom_seed_state(struct rnd_state *state, u64 seed);
u32 prandom_u32_state(struct rnd_state *state);
/* Uniform in [0, bound); 0 when bound is 0. */
u32 prandom_u32_below(struct rnd_state *state, u32 bound);
/* Fills buf with len bytes, four per generator step, low byte first. */
void prandom_bytes_state(struct rnd_state *state, void *buf, size_t len);

#endif /* LIB_RANDOM_H */
