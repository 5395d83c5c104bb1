/*
 * tests/bench.h - what the benchmark suites share: timing a loop as the
 * median of several runs, ratios in integer tenths (no floating point in
 * the kernel), the "bench:" line shapes, and the bare free list that is
 * the floor every allocation path is compared with.
 */
#ifndef TESTS_BENCH_H
#define TESTS_BENCH_H

#include "lib/types.h"
#include "tests/ktest.h"

/*
 * Timed runs per figure (the median is printed): 3 by default, so that a
 * make run stays quick, 7 under ktest.soak=1.
 */
#define BENCH_RUNS_MAX 7
#define BENCH_RUNS KTEST_SOAK(3U, BENCH_RUNS_MAX)

/* Runs ops operations of one kind; false on a functional failure. */
typedef bool (*bench_fn)(unsigned int ops, unsigned int arg);

struct bench_result {
	u64 median;	  /* cycles of the median run */
	unsigned int ops; /* operations per run */
};

/* One warm-up run, then BENCH_RUNS timed runs; false if any run failed. */
bool bench_measure(bench_fn fn, unsigned int arg, unsigned int ops,
		   struct bench_result *res);
/* Rounded cycles per operation. */
u64 bench_per_op(const struct bench_result *res);
/* Rounded tenths of a / b; 0 when b is 0. */
u64 bench_tenths(u64 a, u64 b);
/* a / b per operation, in tenths. */
u64 bench_ratio(const struct bench_result *a, const struct bench_result *b);

/* "bench: lockdep: on|off (...)": whether the figures include the validator. */
void bench_print_lockdep(struct ktest *t);
/* "bench: WHAT: N cycles/UNIT (median of R runs of M UNITs)" */
void bench_print(struct ktest *t, const char *what,
		 const struct bench_result *res, const char *unit);
/* "bench: WHAT = X.Yx (NOTE)" */
void bench_print_ratio(struct ktest *t, const char *what, u64 tenths,
		       const char *note);

/*
 * The least a free list can cost: a LIFO singly linked list; an
 * operation pops one node and pushes it back.  Every access is volatile
 * and barriers separate the halves, so the compiler keeps each one.
 */
void bench_bare_init(void);
bool bench_bare_pop_push(unsigned int ops, unsigned int unused);
/* Nodes on the list (all of them, unless the list was broken). */
unsigned int bench_bare_length(void);
#define BENCH_BARE_NODES 256U

#endif /* TESTS_BENCH_H */
