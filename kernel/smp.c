/*
 * kernel/smp.c - running a function on other CPUs (smp_call_function).
 *
 * One request at a time, under call_lock: the caller publishes call_data,
 * marks each target in call_pending and sends it an IPI; a target takes
 * its mark, reads the request, says it started, runs it and, when the
 * caller waits, says it finished.  The caller waits for every "started"
 * before it returns (call_data lives on its stack).
 *
 * A CPU that spins for call_lock, or for its own request to be picked up,
 * keeps serving requests addressed to it while it spins.  That is what
 * makes this safe with interrupts off: two CPUs calling each other at the
 * same time cannot deadlock, because each, while waiting, runs the other's
 * function.  The IPI is then only a wake-up for a CPU that is halted or
 * busy elsewhere.
 *
 * A function run by a cross-call may itself ask for one (the page
 * allocator drains every CPU's lists before it gives up): the lock's
 * holder is then waiting for it, so the nested call only runs its own
 * share, on its own CPU, and says so by returning -1.
 *
 * Lock order: call_lock is taken before anything the called functions
 * take; it is never taken inside them.
 */
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/sprintf.h"

struct call_data {
	smp_call_func_t func;
	void *info;
	bool wait;
	int started;
	int finished;
};

static DEFINE_SPINLOCK(call_lock);
/* Set while this CPU runs a function someone else asked for. */
static DEFINE_PER_CPU(int, in_call_function);
static struct call_data *volatile call_data;
static unsigned long call_pending[BITS_TO_LONGS(NR_CPUS)];

unsigned int nr_cpu_ids = 1;
unsigned long cpu_online_bits[BITS_TO_LONGS(NR_CPUS)] = { 1 };

unsigned int num_online_cpus(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		n += hweight32((u32)READ_ONCE(cpu_online_bits[i]));
	return n;
}

/* Runs the request addressed to this CPU, if there is one.  IRQs off. */
void smp_handle_call_function(void)
{
	int cpu = smp_processor_id();
	struct call_data *d;
	smp_call_func_t func;
	void *info;
	bool wait;

	lockdep_assert_irqs_disabled();
	if (!test_and_clear_bit((unsigned long)cpu, call_pending))
		return;
	d = __atomic_load_n(&call_data, __ATOMIC_ACQUIRE);
	func = d->func;
	info = d->info;
	wait = d->wait;
	/* After this, without wait, d may be gone. */
	__atomic_fetch_add(&d->started, 1, __ATOMIC_RELEASE);
	this_cpu_write(in_call_function, 1);
	func(info);
	this_cpu_write(in_call_function, 0);
	if (wait)
		__atomic_fetch_add(&d->finished, 1, __ATOMIC_RELEASE);
}

/*
 * The request goes to the online CPUs in mask other than this one; with
 * run_local this CPU runs func too, at the same time as the others (after
 * they have started), before waiting for them.
 */
static int call_function_many(const unsigned long *mask, smp_call_func_t func,
			      void *info, bool wait, bool run_local)
{
	struct call_data d = { func, info, wait, 0, 0 };
	unsigned long flags;
	int n = 0, cpu;

	local_irq_save(flags);
	/*
	 * Called from a function that a cross-call (ours or another CPU's)
	 * is running: the lock's holder is waiting for us, so asking the
	 * others would deadlock.  Do our own share only.
	 */
	if (spin_is_held(&call_lock) || this_cpu_read(in_call_function)) {
		if (run_local)
			func(info);
		local_irq_restore(flags);
		return -1;
	}
	while (!spin_trylock(&call_lock)) {
		smp_handle_call_function();
		cpu_relax();
	}
	/* Released, and acquired by the targets: they read d whole. */
	__atomic_store_n(&call_data, &d, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id() || !test_bit((unsigned long)cpu, mask))
			continue;
		set_bit((unsigned long)cpu, call_pending);
		if (arch_send_call_function_ipi(cpu)) {
			/* Never delivered: do not wait for it. */
			clear_bit((unsigned long)cpu, call_pending);
			pr_warn("smp: CPU %d did not take the call-function IPI\n",
				cpu);
			continue;
		}
		n++;
	}
	while (__atomic_load_n(&d.started, __ATOMIC_ACQUIRE) < n)
		cpu_relax();
	if (run_local)
		func(info);
	if (wait)
		while (__atomic_load_n(&d.finished, __ATOMIC_ACQUIRE) < n)
			cpu_relax();
	call_data = NULL;
	spin_unlock(&call_lock);
	local_irq_restore(flags);
	return n;
}

int smp_call_function(smp_call_func_t func, void *info, bool wait)
{
	unsigned long all[BITS_TO_LONGS(NR_CPUS)];

	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		all[i] = ~0UL;
	return call_function_many(all, func, info, wait, false);
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     bool wait)
{
	unsigned long one[BITS_TO_LONGS(NR_CPUS)] = { 0 };
	unsigned long flags;

	local_irq_save(flags);
	if (cpu == smp_processor_id()) {
		func(info);
		local_irq_restore(flags);
		return 0;
	}
	local_irq_restore(flags);
	if (cpu < 0 || cpu >= (int)nr_cpu_ids || !cpu_online(cpu))
		return -1;
	__set_bit((unsigned long)cpu, one);
	return call_function_many(one, func, info, wait, false) == 1 ? 0 : -1;
}

void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	unsigned long all[BITS_TO_LONGS(NR_CPUS)];

	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		all[i] = ~0UL;
	call_function_many(all, func, info, wait, true);
}

void on_each_cpu_cond(bool (*cond)(int cpu, void *info), smp_call_func_t func,
		      void *info, bool wait)
{
	unsigned long mask[BITS_TO_LONGS(NR_CPUS)] = { 0 };
	int cpu, me = get_cpu();

	for_each_online_cpu(cpu)
		if (cond(cpu, info))
			__set_bit((unsigned long)cpu, mask);
	call_function_many(mask, func, info, wait,
			   test_bit((unsigned long)me, mask));
	put_cpu();
}

/* ---- nosmp and maxcpus= ---- */

unsigned int setup_max_cpus = NR_CPUS;

static int nosmp_setup(const char *val)
{
	setup_max_cpus = 1;
	return 0;
}
early_param("nosmp", nosmp_setup);

static int maxcpus_setup(const char *val)
{
	unsigned int n;

	if (!val || kstrtouint(val, 0, &n))
		return -EINVAL;
	setup_max_cpus = n ? n : 1;	/* maxcpus=0 is nosmp */
	return 0;
}
early_param("maxcpus", maxcpus_setup);

/* ---- smp_processor_id() in preemptible code ---- */

/* Set by debug_preempt_init() once the scheduler runs. */
bool debug_preempt_checks;
static unsigned long preemptible_reports;

void debug_preempt_init(void)
{
	WRITE_ONCE(debug_preempt_checks, lockdep_enabled_at_boot());
}

unsigned long nr_preemptible_reports(void)
{
	return READ_ONCE(preemptible_reports);
}

/*
 * The out-of-line half of __check_preemptible(): preempt_count() was 0;
 * with interrupts on too, nothing stops another task from running here
 * between the read of the CPU number and its use.
 */
void debug_smp_processor_id(const char *what, bool *reported)
{
	char sym[96];

	if (preempt_count() != 0 ||
	    arch_irqs_disabled_flags(arch_local_save_flags()))
		return;
	__atomic_fetch_add(&preemptible_reports, 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(reported, true, __ATOMIC_RELAXED))
		return;
	/* The report's own printing must not report again. */
	preempt_disable();
	pr_err("BUG: using %s() in preemptible [%08x] code: %s/%d\n", what,
	       0, current->comm, current->pid);
	if (!kallsyms_lookup(_RET_IP_, sym, sizeof(sym)))
		snprintf(sym, sizeof(sym), "%08lx", _RET_IP_);
	pr_err("caller is %s\n", sym);
	dump_stack();
	preempt_enable_no_resched();
}
