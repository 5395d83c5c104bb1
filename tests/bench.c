/*
 * tests/bench.c - the benchmark suites' shared machinery (tests/bench.h).
 *
 * Cycles come from get_cycles() (lfence; rdtsc); under QEMU TCG they are
 * the emulated TSC's, which says how fast QEMU runs the code, so only
 * ratios measured in the same boot mean much across hosts.
 */
#include "asm/timex.h"
#include "lib/compiler.h"
#include "kernel/lockdep.h"
#include "tests/bench.h"

static void sort_u64(u64 *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		u64 x = v[i];
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

bool bench_measure(bench_fn fn, unsigned int arg, unsigned int ops,
		   struct bench_result *res)
{
	u64 cycles[BENCH_RUNS_MAX];
	const unsigned int runs = BENCH_RUNS;

	if (!fn(ops, arg))
		return false;
	for (unsigned int r = 0; r < runs; r++) {
		cycles_t start = get_cycles();

		if (!fn(ops, arg))
			return false;
		cycles[r] = get_cycles() - start;
	}
	sort_u64(cycles, runs);
	res->median = cycles[runs / 2];
	res->ops = ops;
	return true;
}

u64 bench_per_op(const struct bench_result *res)
{
	return (res->median + res->ops / 2) / res->ops;
}

u64 bench_tenths(u64 a, u64 b)
{
	return b ? (a * 10 + b / 2) / b : 0;
}

u64 bench_ratio(const struct bench_result *a, const struct bench_result *b)
{
	return bench_tenths(a->median * b->ops, b->median * a->ops);
}

void bench_print_lockdep(struct ktest *t)
{
	ktest_printf(t, "bench: lockdep: %s",
		     debug_locks ? "on (every lock below is validated; debug_locks=0 measures without)" :
		     lockdep_enabled_at_boot() ? "off (it turned itself off after a report)" :
						 "off (debug_locks=0)");
}

void bench_print(struct ktest *t, const char *what,
		 const struct bench_result *res, const char *unit)
{
	ktest_printf(t, "bench: %s: %llu cycles/%s (median of %u runs of %u %ss)",
		     what, (unsigned long long)bench_per_op(res), unit,
		     BENCH_RUNS, res->ops, unit);
}

void bench_print_ratio(struct ktest *t, const char *what, u64 r,
		       const char *note)
{
	ktest_printf(t, "bench: %s = %llu.%llux (%s)", what,
		     (unsigned long long)(r / 10), (unsigned long long)(r % 10),
		     note);
}

struct bare_node {
	struct bare_node *next;
};

static struct bare_node bare_nodes[BENCH_BARE_NODES];
static struct bare_node *bare_head;

void bench_bare_init(void)
{
	bare_head = NULL;
	for (unsigned int i = 0; i < BENCH_BARE_NODES; i++) {
		bare_nodes[i].next = bare_head;
		bare_head = &bare_nodes[i];
	}
}

bool bench_bare_pop_push(unsigned int ops, unsigned int unused)
{
	for (unsigned int i = 0; i < ops; i++) {
		struct bare_node *n = READ_ONCE(bare_head);

		if (!n)
			return false;
		WRITE_ONCE(bare_head, READ_ONCE(n->next));
		barrier();
		WRITE_ONCE(n->next, READ_ONCE(bare_head));
		WRITE_ONCE(bare_head, n);
		barrier();
	}
	return true;
}

unsigned int bench_bare_length(void)
{
	unsigned int n = 0;

	for (struct bare_node *p = bare_head; p && n <= BENCH_BARE_NODES;
	     p = p->next)
		n++;
	return n;
}
