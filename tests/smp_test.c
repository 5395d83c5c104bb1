/*
 * tests/smp_test.c - suite "smp": the CPUs are up, each knows who it is,
 * per-CPU variables are per CPU, and cross-calls (kernel/smp.c) reach the
 * CPUs they name, exactly once, and nowhere else.
 *
 * The oracles are independent of the code under test: how many CPUs QEMU
 * was given comes from fw_cfg (what -smp said), what the command line
 * allows is read back from boot_command_line here (nosmp, maxcpus=N; the
 * last one wins, maxcpus=0 means one CPU), and what a CPU is comes from
 * its own hardware (its local APIC's id register) as well as from the
 * kernel's tables.
 *
 * A function run by a cross-call runs on another CPU, with interrupts off
 * there: it only records what it saw (in arrays indexed by the CPU it ran
 * on, with atomic increments), and the case checks the records on the boot
 * CPU afterwards - never an EXPECT on another CPU.  The cases' own waits
 * for another CPU are bounded (WAIT_NS): a CPU that never gets there fails
 * the case instead of hanging the boot (a cross-call with wait that never
 * returns still hangs it: the runner's timeout is the judge of that).  The
 * cases that need a second CPU skip on a one-CPU boot and say so.
 */
#include "arch/x86/smp.h"
#include "asm/apic.h"
#include "asm/fw_cfg.h"
#include "asm/timex.h"
#include "kernel/arch.h"
#include "kernel/cmdline.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define WAIT_NS 5000000000ULL	/* the longest any wait for another CPU */
#define STORM_CALLS 240		/* cross-calls in many_calls_in_a_row */

/* ---- what the functions run elsewhere record --------------------------- */

struct cpu_rec {
	int runs;		/* times a function ran on this CPU (atomic) */
	int cpu_seen;		/* smp_processor_id() there */
	unsigned int apic;	/* lapic_id() there */
	unsigned long off;	/* this_cpu_offset() there */
	void *ptr;		/* this_cpu_ptr(&smp_test_var) there */
	unsigned long val;	/* this_cpu_read(smp_test_var) there */
	bool irqs_off;		/* irqs_disabled() there */
	int nested_ret[3];	/* what the nested calls returned */
} __aligned(64);

static struct cpu_rec rec[NR_CPUS];
static int inner_runs[NR_CPUS];	/* the nested calls' function */
static int total_runs;		/* every function run, any CPU */
static int arrived;		/* on_each_cpu's rendezvous */
static int rendezvous_late;	/* CPUs that gave up waiting for it */

static DEFINE_PER_CPU(unsigned long, smp_test_var);
static DEFINE_PER_CPU(unsigned long, smp_test_other);

static int smp_init(struct ktest *t)
{
	memset(rec, 0, sizeof(rec));
	memset(inner_runs, 0, sizeof(inner_runs));
	total_runs = 0;
	arrived = 0;
	rendezvous_late = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		rec[cpu].cpu_seen = -1;
	return 0;
}

static int atomic_read_int(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void atomic_inc_int(int *p)
{
	__atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL);
}

/* Spins until *p >= want or WAIT_NS pass; true when it got there. */
static bool wait_for_count(int *p, int want)
{
	u64 start = arch_clock_ns();

	while (atomic_read_int(p) < want) {
		if (arch_clock_ns() - start > WAIT_NS)
			return false;
		cpu_relax();
	}
	return true;
}

/* Everything a function can see about where it runs. */
static void record_here(void *info)
{
	int cpu = smp_processor_id();
	struct cpu_rec *r = &rec[cpu];

	r->cpu_seen = cpu;
	r->apic = lapic_id();
	r->off = this_cpu_offset();
	r->ptr = this_cpu_ptr(&smp_test_var);
	r->val = this_cpu_read(smp_test_var);
	r->irqs_off = irqs_disabled();
	atomic_inc_int(&r->runs);
	atomic_inc_int(&total_runs);
}

static void need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2+ online CPUs (one-CPU boot: -smp 1, nosmp or maxcpus=1)");
}

/* ---- the CPUs that are up ------------------------------------------------ */

/*
 * What the command line allows, parsed here independently of the kernel:
 * nosmp is one CPU, maxcpus=N is N (0 is one), the last of them wins.
 */
static unsigned int cmdline_max_cpus(void)
{
	unsigned int max = NR_CPUS;
	const char *p = boot_command_line;

	while (*p) {
		char tok[64];
		size_t n = 0;

		while (*p == ' ')
			p++;
		while (*p && *p != ' ') {
			if (n + 1 < sizeof(tok))
				tok[n++] = *p;
			p++;
		}
		tok[n] = '\0';
		if (!strcmp(tok, "nosmp")) {
			max = 1;
		} else if (!strncmp(tok, "maxcpus=", 8)) {
			unsigned int v;

			if (!kstrtouint(tok + 8, 0, &v))
				max = v ? v : 1;
		}
	}
	return max;
}

static void every_cpu_qemu_was_given_is_up(struct ktest *t)
{
	unsigned int given = fw_cfg_nb_cpus(), allowed = cmdline_max_cpus();
	unsigned int want;

	ktest_printf(t, "QEMU -smp %u, command line allows %u, NR_CPUS %d: %u online, nr_cpu_ids %u",
		     given, allowed, NR_CPUS, num_online_cpus(), nr_cpu_ids);
	KTEST_EXPECT_EQ(t, setup_max_cpus, allowed);
	if (!fw_cfg_present())
		ktest_skip(t, "no fw_cfg: no independent count of the CPUs");
	KTEST_ASSERT_GE(t, given, 1U);
	want = min(given, min(setup_max_cpus, (unsigned int)NR_CPUS));
	KTEST_EXPECT_EQ(t, num_online_cpus(), want);
	KTEST_EXPECT_EQ(t, nr_cpu_ids, want);
	/* Dense: 0 .. nr_cpu_ids-1 online, nothing above. */
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu < (int)nr_cpu_ids)
			KTEST_EXPECT_TRUE(t, cpu_online(cpu));
		else
			KTEST_EXPECT_FALSE(t, cpu_online(cpu));
	}
	/* The boot CPU is CPU 0, and this is it. */
	KTEST_EXPECT_EQ(t, raw_smp_processor_id(), 0);
}

static void processor_id_is_the_cpu_asked_for(struct ktest *t)
{
	int cpu;

	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_here, NULL, true), 0);
		KTEST_EXPECT_EQ(t, rec[cpu].runs, 1);
		KTEST_EXPECT_EQ(t, rec[cpu].cpu_seen, cpu);
		/* Its %fs base is its own per-CPU offset. */
		KTEST_EXPECT_EQ(t, rec[cpu].off, __per_cpu_offset[cpu]);
	}
	KTEST_EXPECT_EQ(t, total_runs, (int)num_online_cpus());
}

static void apic_ids_match_and_are_distinct(struct ktest *t)
{
	int cpu, other;

	/* The boot CPU reads its own here, no cross-call involved. */
	KTEST_EXPECT_EQ(t, lapic_id(), cpu_apic_id[0]);
	for_each_online_cpu(cpu) {
		KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, record_here, NULL, true), 0);
		KTEST_EXPECT_EQ(t, rec[cpu].runs, 1);
		KTEST_EXPECT_EQ(t, rec[cpu].apic, cpu_apic_id[cpu]);
	}
	for_each_online_cpu(cpu)
		for (other = cpu + 1; other < (int)nr_cpu_ids; other++)
			if (cpu_online(other))
				KTEST_EXPECT_NE(t, rec[cpu].apic, rec[other].apic);
}

/* ---- per-CPU variables --------------------------------------------------- */

static void write_this_cpu(void *info)
{
	unsigned long base = *(unsigned long *)info;

	*this_cpu_ptr(&smp_test_var) = base ^ (unsigned long)smp_processor_id();
	atomic_inc_int(&rec[smp_processor_id()].runs);
}

static void percpu_copies_are_distinct(struct ktest *t)
{
	unsigned long base = ktest_random(t) | 0x80000000UL, base2;
	int cpu, other;

	/* Every possible CPU has its own copy, and copies do not overlap. */
	for_each_possible_cpu(cpu)
		for (other = cpu + 1; other < (int)nr_cpu_ids; other++) {
			unsigned long a = (unsigned long)per_cpu_ptr(&smp_test_var, cpu);
			unsigned long b = (unsigned long)per_cpu_ptr(&smp_test_var, other);

			KTEST_EXPECT_NE(t, a, b);
			KTEST_EXPECT_GE(t, a > b ? a - b : b - a,
					(unsigned long)sizeof(smp_test_var));
		}
	/* Two variables of one CPU keep their distance in every copy. */
	for_each_possible_cpu(cpu)
		KTEST_EXPECT_EQ(t,
				(long)((char *)per_cpu_ptr(&smp_test_other, cpu) -
				       (char *)per_cpu_ptr(&smp_test_var, cpu)),
				(long)((char *)&smp_test_other - (char *)&smp_test_var));

	/* Each CPU writes its own through this_cpu_ptr, one IPI at a time. */
	for_each_online_cpu(cpu)
		per_cpu(smp_test_var, cpu) = 0;
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, write_this_cpu, &base, true), 0);
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, per_cpu(smp_test_var, cpu),
				base ^ (unsigned long)cpu);
		KTEST_EXPECT_EQ(t, rec[cpu].runs, 1);
	}

	/* All at once (on_each_cpu): still each its own copy. */
	base2 = base ^ 0x5a5a0000UL;
	on_each_cpu(write_this_cpu, &base2, true);
	for_each_online_cpu(cpu) {
		KTEST_EXPECT_EQ(t, per_cpu(smp_test_var, cpu),
				base2 ^ (unsigned long)cpu);
		KTEST_EXPECT_EQ(t, rec[cpu].runs, 2);
	}

	/* And a CPU's this_cpu_ptr/this_cpu_read are per_cpu(.., itself). */
	for_each_online_cpu(cpu) {
		KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, record_here, NULL, true), 0);
		KTEST_EXPECT_PTR_EQ(t, rec[cpu].ptr, per_cpu_ptr(&smp_test_var, cpu));
		KTEST_EXPECT_EQ(t, rec[cpu].val, base2 ^ (unsigned long)cpu);
	}
	for_each_online_cpu(cpu)
		per_cpu(smp_test_var, cpu) = 0;
}

/* ---- cross-calls ------------------------------------------------------- */

static void ipi_round_trip_to_each_cpu(struct ktest *t)
{
	const int rounds = 5;
	u64 cycles = 0;
	int cpu, calls = 0;

	need_two_cpus(t);
	for (int r = 1; r <= rounds; r++) {
		for_each_online_cpu(cpu) {
			cycles_t start;

			if (cpu == raw_smp_processor_id())
				continue;
			start = get_cycles();
			KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_here, NULL, true), 0);
			cycles += get_cycles() - start;
			calls++;
			/* With wait: done, there and only there, when it returns. */
			KTEST_EXPECT_EQ(t, rec[cpu].runs, r);
			KTEST_EXPECT_EQ(t, rec[cpu].cpu_seen, cpu);
			KTEST_EXPECT_TRUE(t, rec[cpu].irqs_off);
			KTEST_EXPECT_EQ(t, total_runs, calls);
		}
	}
	KTEST_EXPECT_EQ(t, rec[raw_smp_processor_id()].runs, 0);
	ktest_printf(t, "%d round trips to %u other CPU%s: %llu cycles each on average",
		     calls, num_online_cpus() - 1, num_online_cpus() > 2 ? "s" : "",
		     (unsigned long long)(cycles / (u64)calls));
}

static void smp_call_function_reaches_the_others_once(struct ktest *t)
{
	int cpu, me = raw_smp_processor_id();

	/* On one CPU there are no others: it returns 0 and runs nothing. */
	KTEST_EXPECT_EQ(t, smp_call_function(record_here, NULL, true),
			(int)num_online_cpus() - 1);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		int want = cpu != me && cpu < (int)nr_cpu_ids && cpu_online(cpu);

		KTEST_EXPECT_EQ(t, rec[cpu].runs, want);
		if (want)
			KTEST_EXPECT_TRUE(t, rec[cpu].irqs_off);
	}
	KTEST_EXPECT_EQ(t, total_runs, (int)num_online_cpus() - 1);
}

/*
 * Every CPU counts itself in, then waits (bounded) for all of them: that
 * only completes if on_each_cpu really runs them at the same time.
 */
static void rendezvous(void *info)
{
	int n = *(int *)info;

	record_here(NULL);
	atomic_inc_int(&arrived);
	if (!wait_for_count(&arrived, n))
		atomic_inc_int(&rendezvous_late);
}

static void on_each_cpu_runs_everywhere_at_once(struct ktest *t)
{
	int n = (int)num_online_cpus(), cpu;
	bool irqs_were_off = irqs_disabled();

	on_each_cpu(rendezvous, &n, true);
	/* The caller's interrupt state is given back as it was. */
	KTEST_EXPECT_EQ(t, irqs_disabled(), irqs_were_off);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		KTEST_EXPECT_EQ(t, rec[cpu].runs, cpu_online(cpu) ? 1 : 0);
		if (cpu_online(cpu)) {
			KTEST_EXPECT_EQ(t, rec[cpu].cpu_seen, cpu);
			/* This CPU too: "with interrupts off". */
			KTEST_EXPECT_TRUE(t, rec[cpu].irqs_off);
		}
	}
	KTEST_EXPECT_EQ(t, total_runs, n);
	KTEST_EXPECT_EQ(t, arrived, n);
	KTEST_EXPECT_EQ(t, rendezvous_late, 0);
}

/* on_each_cpu_cond's condition: the CPUs whose bit is set in *info. */
static bool cpu_in_mask(int cpu, void *info)
{
	return (*(unsigned long *)info >> cpu) & 1;
}

/*
 * on_each_cpu_cond() runs the function on exactly the online CPUs its
 * condition picks, this one included or not, each once and with
 * interrupts off: every subset of the first (up to 6) online CPUs.
 */
static void on_each_cpu_cond_runs_where_picked(struct ktest *t)
{
	int n = min((int)num_online_cpus(), 6), cpu, me;
	unsigned long sets = 1UL << n;

	for (unsigned long mask = 0; mask < sets; mask++) {
		int want_total = 0;

		smp_init(t);
		on_each_cpu_cond(cpu_in_mask, record_here, &mask, true);
		me = raw_smp_processor_id();
		for (cpu = 0; cpu < NR_CPUS; cpu++) {
			int want = cpu < n && cpu_online(cpu) &&
				   ((mask >> cpu) & 1);

			want_total += want;
			if (rec[cpu].runs != want) {
				KTEST_FAIL(t, "mask %#lx (called on CPU %d): CPU %d ran the function %d times, expected %d",
					   mask, me, cpu, rec[cpu].runs, want);
				return;
			}
			if (want)
				KTEST_EXPECT_TRUE(t, rec[cpu].irqs_off);
		}
		KTEST_EXPECT_EQ(t, total_runs, want_total);
	}
	ktest_printf(t, "%lu subsets of %d CPUs", sets, n);
}

static void call_without_wait_runs_all_the_same(struct ktest *t)
{
	int n, cpu;

	need_two_cpus(t);
	n = (int)num_online_cpus() - 1;
	KTEST_EXPECT_EQ(t, smp_call_function(record_here, NULL, false), n);
	/* Returns once they have started; they finish on their own. */
	KTEST_EXPECT_TRUE(t, wait_for_count(&total_runs, n));
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, rec[cpu].runs, cpu == raw_smp_processor_id() ? 0 : 1);
	for_each_online_cpu(cpu) {
		if (cpu == raw_smp_processor_id())
			continue;
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_here, NULL, false), 0);
		KTEST_EXPECT_TRUE(t, wait_for_count(&rec[cpu].runs, 2));
		KTEST_EXPECT_EQ(t, rec[cpu].cpu_seen, cpu);
	}
	KTEST_EXPECT_TRUE(t, wait_for_count(&total_runs, 2 * n));
	KTEST_EXPECT_EQ(t, total_runs, 2 * n);
}

/* A long run of calls, with and without wait, round-robin over the CPUs. */
static void many_calls_in_a_row(struct ktest *t)
{
	int want[NR_CPUS] = { 0 }, others = 0, n = (int)num_online_cpus();
	int cpu;

	need_two_cpus(t);
	for (int i = 0; i < STORM_CALLS; i++) {
		bool wait = ktest_random_below(t, 2);

		cpu = 1 + (int)ktest_random_below(t, nr_cpu_ids - 1);
		if (!cpu_online(cpu))
			continue;
		switch (ktest_random_below(t, 3)) {
		case 0:
			KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_here, NULL, wait), 0);
			want[cpu]++;
			others++;
			break;
		case 1:
			KTEST_EXPECT_EQ(t, smp_call_function(record_here, NULL, wait), n - 1);
			for (int c = 1; c < (int)nr_cpu_ids; c++)
				want[c] += cpu_online(c);
			others += n - 1;
			break;
		default:
			on_each_cpu(record_here, NULL, wait);
			for (int c = 0; c < (int)nr_cpu_ids; c++)
				want[c] += cpu_online(c);
			others += n - 1;
			break;
		}
	}
	KTEST_EXPECT_TRUE(t, wait_for_count(&total_runs,
					    others + want[raw_smp_processor_id()]));
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		KTEST_EXPECT_EQ(t, atomic_read_int(&rec[cpu].runs), want[cpu]);
	ktest_printf(t, "%d functions run on other CPUs by %d calls", others,
		     STORM_CALLS);
}

static void offline_cpus_are_refused(struct ktest *t)
{
	int tried = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu_online(cpu))
			continue;
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_here, NULL, true), -1);
		tried++;
	}
	if (!tried)
		ktest_skip(t, "every CPU the build supports (NR_CPUS) is online");
	KTEST_EXPECT_EQ(t, total_runs, 0);
}

/* ---- nested cross-calls ---------------------------------------------------- */

static void inner(void *info)
{
	atomic_inc_int(&inner_runs[smp_processor_id()]);
}

/*
 * From inside a called function: each kind of cross-call.  smp.c's rule:
 * the nested call runs only this CPU's share and returns -1 - so
 * smp_call_function (no local share) runs nothing, a single call to
 * another CPU runs nothing, on_each_cpu runs here only, and a single call
 * to this CPU runs here (that one needs no IPI at all: 0).
 */
static void nest(void *info)
{
	int cpu = smp_processor_id(), other = *(int *)info;
	struct cpu_rec *r = &rec[cpu];

	r->nested_ret[0] = smp_call_function(inner, NULL, true);
	r->nested_ret[1] = smp_call_function_single(other, inner, NULL, true);
	on_each_cpu(inner, NULL, true);
	r->nested_ret[2] = smp_call_function_single(cpu, inner, NULL, true);
	record_here(NULL);
}

static void expect_calls_still_work(struct ktest *t)
{
	int cpu, before = total_runs;

	/* call_lock was released and nobody is left "in a call". */
	on_each_cpu(record_here, NULL, true);
	KTEST_EXPECT_EQ(t, total_runs - before, (int)num_online_cpus());
	for_each_online_cpu(cpu)
		KTEST_EXPECT_EQ(t, smp_call_function_single(cpu, record_here, NULL, true), 0);
	KTEST_EXPECT_EQ(t, total_runs - before, 2 * (int)num_online_cpus());
}

static void nested_call_on_another_cpu_runs_locally(struct ktest *t)
{
	int me = raw_smp_processor_id(), cpu;

	need_two_cpus(t);
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		memset(inner_runs, 0, sizeof(inner_runs));
		/* There, it targets us: the CPU that is waiting for it. */
		KTEST_ASSERT_EQ(t, smp_call_function_single(cpu, nest, &me, true), 0);
		KTEST_EXPECT_EQ(t, rec[cpu].runs, 1);
		KTEST_EXPECT_EQ(t, rec[cpu].nested_ret[0], -1);
		KTEST_EXPECT_EQ(t, rec[cpu].nested_ret[1], -1);
		KTEST_EXPECT_EQ(t, rec[cpu].nested_ret[2], 0);
		for (int c = 0; c < NR_CPUS; c++)
			KTEST_EXPECT_EQ(t, inner_runs[c], c == cpu ? 2 : 0);
	}
	expect_calls_still_work(t);
}

static void nested_call_in_on_each_cpu_runs_locally(struct ktest *t)
{
	int n = (int)num_online_cpus(), cpu;
	int other = n > 1 ? 1 : 0;

	/*
	 * Every CPU nests at once: the boot CPU holding call_lock, the others
	 * inside the IPI.  Each one's nested calls stay on it.  (CPU 1, or 0
	 * on one CPU, is the single call's target.)
	 */
	on_each_cpu(nest, &other, true);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		KTEST_EXPECT_EQ(t, rec[cpu].runs, cpu_online(cpu) ? 1 : 0);
		if (!cpu_online(cpu))
			continue;
		KTEST_EXPECT_EQ(t, rec[cpu].nested_ret[0], -1);
		/* The single call to CPU 1: 0 on CPU 1 (itself), -1 elsewhere. */
		KTEST_EXPECT_EQ(t, rec[cpu].nested_ret[1], cpu == other ? 0 : -1);
		KTEST_EXPECT_EQ(t, rec[cpu].nested_ret[2], 0);
		/* on_each_cpu and the call to itself; + the one to CPU 1 there. */
		KTEST_EXPECT_EQ(t, inner_runs[cpu], 2 + (cpu == other));
	}
	KTEST_EXPECT_EQ(t, total_runs, n);
	expect_calls_still_work(t);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(every_cpu_qemu_was_given_is_up),
	KTEST_CASE(processor_id_is_the_cpu_asked_for),
	KTEST_CASE(apic_ids_match_and_are_distinct),
	KTEST_CASE(percpu_copies_are_distinct),
	KTEST_CASE(ipi_round_trip_to_each_cpu),
	KTEST_CASE(smp_call_function_reaches_the_others_once),
	KTEST_CASE(on_each_cpu_runs_everywhere_at_once),
	KTEST_CASE(on_each_cpu_cond_runs_where_picked),
	KTEST_CASE(call_without_wait_runs_all_the_same),
	KTEST_CASE(many_calls_in_a_row),
	KTEST_CASE(offline_cpus_are_refused),
	KTEST_CASE(nested_call_on_another_cpu_runs_locally),
	KTEST_CASE(nested_call_in_on_each_cpu_runs_locally),
	KTEST_END,
};

static const struct ktest_suite smp_suite = {
	.name = "smp",
	.init = smp_init,
	.cases = smp_cases,
};
KTEST_SUITE(smp_suite);
