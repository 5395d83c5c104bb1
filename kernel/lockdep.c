/*
 * kernel/lockdep.c - the lock validator: finds the deadlocks that could
 * happen, from the ones that did not, as Linux's lockdep does (2.6.18).
 *
 * Why.  A lock-order inversion or a lock an interrupt handler shares with
 * code that leaves interrupts on deadlocks only when two CPUs (or a CPU
 * and its own interrupt) meet at the wrong instant; a test run rarely
 * sees it.  The validator instead records, for every lock class, which
 * classes were ever taken while it was held, and complains the first
 * time an acquisition could close a cycle, whatever the timing.
 *
 * Classes.  A class is a lock_class_key address plus a subclass: the
 * static key at a spin_lock_init()/mutex_init() call site, or, for a
 * lock defined statically, the lock's own address (it must lie in the
 * kernel image's data or bss: a key elsewhere could be freed and reused,
 * so it turns the validator off, as Linux's "non-static key" does).
 * spin_lock_nested(l, n) takes l as subclass n: a different class, so
 * that code which orders two locks of one class itself (two zones by
 * address, say) is not reported as recursive.
 *
 * What it checks (each report once: the first turns the validator off,
 * debug_locks_off(), so that one bug cannot cascade into many):
 *  - a new "A held while taking B" edge that closes a cycle in the graph
 *    of classes: "WARNING: possible circular locking dependency
 *    detected", with the existing chain and the new edge (2.6.18);
 *  - taking a class the task already holds: "WARNING: possible recursive
 *    locking detected" (2.6.18);
 *  - a class taken in hardirq context and also taken, or held, with
 *    interrupts enabled: "WARNING: inconsistent lock state", with the
 *    two usages in the order they happened (2.6.18);
 *  - the same through the graph: a HARDIRQ-safe class (taken in a
 *    handler) held, directly or through other locks, while a
 *    HARDIRQ-unsafe one (taken with interrupts on) is taken: "WARNING:
 *    HARDIRQ-safe -> HARDIRQ-unsafe lock order detected" when the edge
 *    comes last, "WARNING: possible irq lock inversion dependency
 *    detected" when the usage does (2.6.18).  Softirqs and read locks,
 *    which mm86 does not have, are not tracked;
 *  - releasing a lock the task does not hold: "WARNING: bad unlock
 *    balance detected!" (2.6.18);
 *  - full tables: "BUG: MAX_LOCKDEP_KEYS too low!" and its kin, then off.
 * smp_processor_id() in preemptible code is kernel/smp.c's.
 *
 * Held locks live in the task (task_struct.held_locks): a task keeps its
 * mutexes across sleeps, and tasks never migrate.  An interrupt handler
 * pushes on the interrupted task's stack and pops before it returns, as
 * in Linux; each held lock records whether it was taken in hardirq
 * context, and edges join only locks of the same context.  The run
 * queue's lock, held across a context switch, is released from the
 * validator's view by the task that switches out (kernel/sched.c).
 *
 * Edges: a new lock gets an edge from the nearest held lock of its
 * context and from any trylocks above that one (which make no edges
 * themselves being unable to wait); the older held locks already reach it
 * through that lock (2.6.18).  A chain cache of hashes of the held
 * classes' sequence makes a sequence seen before cost one lookup.
 *
 * Each edge is on two lists, its from class's after list and its to
 * class's before list, so the usage checks can search both ways.
 *
 * Invariants: the class, edge and chain tables only grow (a test may
 * retire its private classes, lockdep_reset_keys); a class is in the
 * hash exactly while it is live; the graph has no cycle among live
 * classes while the validator is on.
 *
 * Locking: graph_lock, a bare ticket lock (arch_spin_lock) that the
 * validator does not track, taken with interrupts off, protects the
 * tables and every class's edges and usage; it is innermost of all.  The
 * chain cache and the class hash are read without it (entries are only
 * ever added, written before they are linked).  A task's held-lock stack
 * is its own, touched with interrupts off.  Reports print with the graph
 * lock held and current->lockdep_recursion raised, so printk's own lock
 * is not tracked meanwhile.
 */
#include "asm/irqflags.h"
#include "kernel/arch.h"
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "kernel/lockdep.h"
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/sections.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/sprintf.h"
#include "lib/string.h"

#define CHAIN_HASH_SIZE (2 * MAX_LOCKDEP_CHAINS)
#define CLASS_HASH_SIZE 1024

/* Usage bits of a class. */
#define LOCKF_USED_IN_HARDIRQ 0x1	/* taken in hardirq context */
#define LOCKF_ENABLED_HARDIRQ 0x2	/* taken or held with irqs on */

/* One dependency: from was held while to was taken. */
struct lock_list {
	struct lock_class *from, *to;
	struct lock_list *next;		/* from's next edge (its after list) */
	struct lock_list *next_before;	/* to's next edge (its before list) */
	unsigned long from_ip;		/* where the held lock was taken */
	unsigned long to_ip;		/* where the new one was taken */
};

struct lock_class {
	const void *key;
	unsigned int subclass;
	const char *name;
	unsigned int id;
	bool dead;			/* retired by a test */
	unsigned int usage;		/* LOCKF_* */
	unsigned long usage_ip[2];	/* where each usage began */
	struct lock_class *hash_next;
	struct lock_list *after;	/* classes taken while this is held */
	struct lock_list *before;	/* classes held while this was taken */
	/* Breadth-first search state, under graph_lock. */
	unsigned int bfs_gen;
	struct lock_list *bfs_edge;	/* the edge it was reached by */
	struct lock_class *bfs_parent;
};

int debug_locks = 1;
static bool debug_locks_at_boot = true;

static spinlock_t graph_lock = __SPIN_LOCK_UNLOCKED(graph_lock);
static struct lock_class classes[MAX_LOCKDEP_KEYS];
static unsigned int nr_classes;
static struct lock_class *class_hash[CLASS_HASH_SIZE];
static struct lock_list edges[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_edges;
/* Halves written one at a time; a key has both non-zero (chain_mix). */
static struct chain_slot {
	u32 lo, hi;
} chain_hash[CHAIN_HASH_SIZE];
static unsigned int nr_chains;
static unsigned int bfs_gen;
static unsigned long nr_reports;
/* The task whose reports a test expects: printed, but not fatal. */
static struct task_struct *expect_task;

static int debug_locks_setup(const char *val)
{
	unsigned int v;

	if (!val || kstrtouint(val, 0, &v) || v > 1)
		return -EINVAL;
	debug_locks = (int)v;
	debug_locks_at_boot = v;
	return 0;
}
early_param("debug_locks", debug_locks_setup);

void lockdep_info(void)
{
	if (debug_locks_at_boot)
		pr_info("lockdep: the lock validator is on (debug_locks=0 turns it off): %u classes, %u dependencies, %u chains at most\n",
			MAX_LOCKDEP_KEYS, MAX_LOCKDEP_ENTRIES,
			MAX_LOCKDEP_CHAINS);
	else
		pr_info("lockdep: the lock validator is off (debug_locks=0)\n");
}

bool lockdep_enabled_at_boot(void)
{
	return debug_locks_at_boot;
}

int debug_locks_off(void)
{
	return __atomic_exchange_n(&debug_locks, 0, __ATOMIC_RELAXED);
}

unsigned long lockdep_nr_reports(void)
{
	return READ_ONCE(nr_reports);
}

void lockdep_print_stats(void)
{
	pr_info("lockdep: %s; %u classes, %u dependencies, %u chains, %lu reports (expected ones included)\n",
		debug_locks ? "on" : lockdep_enabled_at_boot() ?
		"turned off by a report" : "off",
		READ_ONCE(nr_classes), READ_ONCE(nr_edges),
		READ_ONCE(nr_chains), lockdep_nr_reports());
}

void lockdep_stats(unsigned int *nclasses, unsigned int *nedges,
		   unsigned int *nchains)
{
	*nclasses = READ_ONCE(nr_classes);
	*nedges = READ_ONCE(nr_edges);
	*nchains = READ_ONCE(nr_chains);
}

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      struct lock_class_key *key)
{
	map->key = key;
	map->name = name;
	map->class_cache = NULL;
}

/* ---- the graph lock ---- */

static unsigned long graph_lock_irqsave(void)
{
	unsigned long flags = arch_local_irq_save();

	arch_spin_lock(&graph_lock);
	return flags;
}

static void graph_unlock_irqrestore(unsigned long flags)
{
	arch_spin_unlock(&graph_lock);
	arch_local_irq_restore(flags);
}

/* ---- printing ---- */

static void print_ip_sym(const char *prefix, unsigned long ip)
{
	char sym[96];

	if (kallsyms_lookup(ip, sym, sizeof(sym)))
		pr_err("%s[<%08lx>] %s\n", prefix, ip, sym);
	else
		pr_err("%s[<%08lx>]\n", prefix, ip);
}

/* Linux's usage character: '.', '-' in hardirq, '+' irqs on, '?' both. */
static char usage_char(const struct lock_class *c)
{
	static const char chars[4] = { '.', '-', '+', '?' };

	return chars[c->usage & 3];
}

static void print_lock_name(const char *prefix, const struct lock_class *c,
			    const char *suffix)
{
	if (c->subclass)
		pr_err("%s(%s/%u){%c}%s", prefix, c->name, c->subclass,
		       usage_char(c), suffix);
	else
		pr_err("%s(%s){%c}%s", prefix, c->name, usage_char(c), suffix);
}

static void print_held_lock_prefix(const char *prefix,
				   const struct held_lock *h)
{
	char sym[96], sub[16] = "";
	const struct lock_class *c = h->class;

	if (!kallsyms_lookup(h->acquire_ip, sym, sizeof(sym)))
		snprintf(sym, sizeof(sym), "?");
	if (c->subclass)
		snprintf(sub, sizeof(sub), "/%u", c->subclass);
	pr_err("%s (%s%s){%c}, at: [<%08lx>] %s\n", prefix, c->name, sub,
	       usage_char(c), h->acquire_ip, sym);
}

static void print_held_lock(const struct held_lock *h)
{
	print_held_lock_prefix("", h);
}

static void print_held_locks(struct task_struct *t)
{
	if (!t->lockdep_depth) {
		pr_err("no locks held by %s/%d.\n", t->comm, t->pid);
		return;
	}
	pr_err("%d lock%s held by %s/%d:\n", t->lockdep_depth,
	       t->lockdep_depth > 1 ? "s" : "", t->comm, t->pid);
	for (int i = 0; i < t->lockdep_depth; i++) {
		char prefix[8];

		snprintf(prefix, sizeof(prefix), " #%d:", i);
		print_held_lock_prefix(prefix, &t->held_locks[i]);
	}
}

static void print_banner(const char *title)
{
	char line[64];
	size_t n = strlen(title);

	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memset(line, '=', n);
	line[n] = '\0';
	pr_err("\n");
	pr_err("%s\n", line);
	pr_err("%s\n", title);
	memset(line, '-', n);
	pr_err("%s\n", line);
}

/*
 * A report begins: counted; the first one outside a test turns the
 * validator off, and a report found after that is not printed.
 */
static bool report_begin(void)
{
	__atomic_fetch_add(&nr_reports, 1, __ATOMIC_RELAXED);
	if (current == READ_ONCE(expect_task))
		return true;
	return debug_locks_off();
}

static void report_end(void)
{
	pr_err("\nstack backtrace:\n");
	dump_stack();
}

/* A table is full: say which, once, and stop validating (Linux's words). */
static void table_full(const char *what)
{
	if (!debug_locks_off())
		return;
	pr_err("BUG: %s too low!\n", what);
	pr_err("turning off the locking correctness validator.\n");
	pr_err("%u classes, %u dependencies, %u chains in use\n", nr_classes,
	       nr_edges, nr_chains);
	print_held_locks(current);
	dump_stack();
}

/* ---- classes ---- */

static bool static_obj(const void *p)
{
	unsigned long a = (unsigned long)p;

	/* The host build has no image to look in: everything passes. */
	if ((unsigned long)__rwdata_start == (unsigned long)__rwdata_end &&
	    (unsigned long)__kbss_start == (unsigned long)__kbss_end)
		return true;
	return (a >= (unsigned long)__rwdata_start &&
		a < (unsigned long)__rwdata_end) ||
	       (a >= (unsigned long)__kbss_start &&
		a < (unsigned long)__kbss_end);
}

static unsigned int class_hash_of(const void *key, unsigned int subclass)
{
	u32 h = (u32)(unsigned long)key * 2654435761u;

	return ((h >> 16) ^ subclass) & (CLASS_HASH_SIZE - 1);
}

static struct lock_class *find_class(const void *key, unsigned int subclass)
{
	struct lock_class *c;

	c = __atomic_load_n(&class_hash[class_hash_of(key, subclass)],
			    __ATOMIC_ACQUIRE);
	for (; c; c = c->hash_next)
		if (c->key == key && c->subclass == subclass && !c->dead)
			return c;
	return NULL;
}

/* The class of map as subclass; NULL (and off) when none can be had. */
static struct lock_class *register_class(struct lockdep_map *map,
					 unsigned int subclass)
{
	const void *key = map->key ? (const void *)map->key : (const void *)map;
	struct lock_class *c;
	unsigned int h;

	if (subclass >= MAX_LOCKDEP_SUBCLASSES) {
		if (debug_locks_off()) {
			pr_err("BUG: looking up invalid subclass: %u\n",
			       subclass);
			pr_err("turning off the locking correctness validator.\n");
			dump_stack();
		}
		return NULL;
	}
	c = find_class(key, subclass);
	if (c)
		return c;
	if (!static_obj(key)) {
		if (debug_locks_off()) {
			pr_err("INFO: trying to register non-static key.\n");
			pr_err("the code is fine but needs lockdep annotation.\n");
			pr_err("turning off the locking correctness validator.\n");
			dump_stack();
		}
		return NULL;
	}
	c = find_class(key, subclass);	/* another CPU, meanwhile */
	if (c)
		return c;
	if (nr_classes >= MAX_LOCKDEP_KEYS) {
		table_full("MAX_LOCKDEP_KEYS");
		return NULL;
	}
	c = &classes[nr_classes];
	c->key = key;
	c->subclass = subclass;
	c->name = map->name ? map->name : "(unnamed)";
	c->id = nr_classes + 1;
	h = class_hash_of(key, subclass);
	c->hash_next = class_hash[h];
	__atomic_store_n(&class_hash[h], c, __ATOMIC_RELEASE);
	WRITE_ONCE(nr_classes, nr_classes + 1);
	return c;
}

static struct lock_class *get_class(struct lockdep_map *map,
				    unsigned int subclass, bool *locked,
				    unsigned long *flags)
{
	const void *key;
	struct lock_class *c = NULL;

	if (!subclass) {
		/* Acquired: the class's fields are seen as its cacher saw them. */
		c = __atomic_load_n(&map->class_cache, __ATOMIC_ACQUIRE);
		if (c && !c->dead)
			return c;
	}
	key = map->key ? (const void *)map->key : (const void *)map;
	if (subclass < MAX_LOCKDEP_SUBCLASSES)
		c = find_class(key, subclass);
	if (!c) {
		*flags = graph_lock_irqsave();
		*locked = true;
		c = register_class(map, subclass);
	}
	if (c && !subclass)
		__atomic_store_n(&map->class_cache, c, __ATOMIC_RELEASE);
	return c;
}

/* ---- chains ---- */

static u64 chain_mix(u64 prev, const struct lock_class *c, int irq)
{
	u64 h = (prev ^ ((u64)c->id << 1 | (u64)irq)) * 0x9E3779B97F4A7C15ull;

	/* Both halves non-zero: a torn read of an entry never matches. */
	return h | 1 | (1ull << 63);
}

static bool chain_cached(u64 key)
{
	unsigned int i = (unsigned int)(key >> 32) & (CHAIN_HASH_SIZE - 1);

	for (unsigned int n = 0; n < CHAIN_HASH_SIZE; n++) {
		u32 hi = READ_ONCE(chain_hash[i].hi);
		u32 lo = READ_ONCE(chain_hash[i].lo);

		if (hi == (u32)(key >> 32) && lo == (u32)key)
			return true;
		if (!hi)
			return false;
		i = (i + 1) & (CHAIN_HASH_SIZE - 1);
	}
	return false;
}

/* Under graph_lock. */
static void chain_add(u64 key)
{
	unsigned int i = (unsigned int)(key >> 32) & (CHAIN_HASH_SIZE - 1);

	if (nr_chains >= MAX_LOCKDEP_CHAINS) {
		table_full("MAX_LOCKDEP_CHAINS");
		return;
	}
	while (chain_hash[i].hi) {
		if (chain_hash[i].hi == (u32)(key >> 32) &&
		    chain_hash[i].lo == (u32)key)
			return;
		i = (i + 1) & (CHAIN_HASH_SIZE - 1);
	}
	/* The low half first: a reader seeing the high one sees both. */
	WRITE_ONCE(chain_hash[i].lo, (u32)key);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WRITE_ONCE(chain_hash[i].hi, (u32)(key >> 32));
	nr_chains++;
}

/* ---- reports ---- */

static void print_scenario_header(void)
{
	pr_err("\nother info that might help us debug this:\n\n");
	pr_err(" Possible unsafe locking scenario:\n\n");
}

static void print_deadlock_tail(struct task_struct *t)
{
	pr_err("\n *** DEADLOCK ***\n\n");
	print_held_locks(t);
}

static void report_recursive(struct task_struct *t,
			     const struct held_lock *prev,
			     const struct held_lock *next)
{
	if (!report_begin())
		return;
	print_banner("WARNING: possible recursive locking detected");
	pr_err("%s/%d is trying to acquire lock:\n", t->comm, t->pid);
	print_held_lock(next);
	pr_err("\nbut task is already holding lock:\n");
	print_held_lock(prev);
	print_scenario_header();
	pr_err("       CPU0\n");
	pr_err("       ----\n");
	pr_err("  lock(%s);\n", prev->class->name);
	pr_err("  lock(%s);\n", next->class->name);
	pr_err("\n *** DEADLOCK ***\n\n");
	pr_err(" May be due to missing lock nesting notation\n\n");
	print_held_locks(t);
	report_end();
}

/*
 * The search found next ->* prev: prev is reached by the edge in its
 * bfs_edge from bfs_parent, and so on back to next.
 */
static void report_circular(struct task_struct *t,
			    const struct held_lock *prev,
			    const struct held_lock *next)
{
	struct lock_class *path[MAX_LOCK_DEPTH];
	struct lock_list *via[MAX_LOCK_DEPTH];
	struct lock_class *c;
	unsigned int n = 0;

	if (!report_begin())
		return;
	/* path[0] = prev ... path[n-1] = the class next reached first. */
	for (c = prev->class; c && c != next->class && n < MAX_LOCK_DEPTH;
	     c = c->bfs_parent) {
		path[n] = c;
		via[n] = c->bfs_edge;
		n++;
	}
	print_banner("WARNING: possible circular locking dependency detected");
	pr_err("%s/%d is trying to acquire lock:\n", t->comm, t->pid);
	print_held_lock(next);
	pr_err("\nbut task is already holding lock:\n");
	print_held_lock(prev);
	pr_err("\nwhich lock already depends on the new lock.\n\n");
	pr_err("\nthe existing dependency chain (in reverse order) is:\n");
	for (unsigned int i = 0; i < n; i++) {
		const struct lock_class *from =
			i + 1 < n ? path[i + 1] : next->class;
		char prefix[16], sym[96];

		snprintf(prefix, sizeof(prefix), "\n-> #%u ", n - i);
		print_lock_name(prefix, path[i], ":\n");
		print_ip_sym("       ", via[i]->to_ip);
		if (!kallsyms_lookup(via[i]->from_ip, sym, sizeof(sym)))
			snprintf(sym, sizeof(sym), "?");
		pr_err("       (with %s held, taken at [<%08lx>] %s)\n",
		       from->name, via[i]->from_ip, sym);
	}
	print_lock_name("\n-> #0 ", next->class, ":\n");
	print_ip_sym("       ", next->acquire_ip);
	print_scenario_header();
	pr_err("       CPU0                    CPU1\n");
	pr_err("       ----                    ----\n");
	pr_err("  lock(%s);\n", prev->class->name);
	pr_err("                               lock(%s);\n",
	       (n > 1 ? path[1] : next->class)->name);
	pr_err("                               lock(%s);\n", prev->class->name);
	pr_err("  lock(%s);\n", next->class->name);
	print_deadlock_tail(t);
	report_end();
}

static const char *const usage_names[2] = { "IN-HARDIRQ-W", "HARDIRQ-ON-W" };

/* c had usage bit prev_bit; now new_bit (the other one) at ip. */
static void report_inconsistent(struct task_struct *t, struct lock_class *c,
				int prev_bit, int new_bit, unsigned long ip)
{
	int pc = preempt_count();
	bool irqs_on = !arch_irqs_disabled_flags(arch_local_save_flags());
	char sym[96];

	if (!report_begin())
		return;
	print_banner("WARNING: inconsistent lock state");
	pr_err("inconsistent {%s} -> {%s} usage.\n", usage_names[prev_bit],
	       usage_names[new_bit]);
	if (!kallsyms_lookup(ip, sym, sizeof(sym)))
		snprintf(sym, sizeof(sym), "?");
	/* In the hardirq case interrupts are off here; say what the
	 * interrupted state was, as the usage found it. */
	pr_err("%s/%d [HC%u[%u]:SC%u[%u]:HE%u:SE%u] takes:\n", t->comm, t->pid,
	       (pc & HARDIRQ_MASK) ? 1 : 0, (pc & HARDIRQ_MASK) >> HARDIRQ_SHIFT,
	       (pc & SOFTIRQ_MASK) ? 1 : 0, (pc & SOFTIRQ_MASK) >> SOFTIRQ_SHIFT,
	       new_bit == 1 || irqs_on ? 1 : 0, 1);
	pr_err(" (%s){%c}, at: [<%08lx>] %s\n", c->name, usage_char(c), ip,
	       sym);
	pr_err("{%s} state was registered at:\n", usage_names[prev_bit]);
	print_ip_sym("  ", c->usage_ip[prev_bit]);
	print_scenario_header();
	pr_err("       CPU0\n");
	pr_err("       ----\n");
	pr_err("  lock(%s);\n", c->name);
	pr_err("  <Interrupt>\n");
	pr_err("    lock(%s);\n", c->name);
	print_deadlock_tail(t);
	report_end();
}

static void report_bad_unlock(struct task_struct *t, struct lockdep_map *map,
			      unsigned long ip)
{
	if (!report_begin())
		return;
	print_banner("WARNING: bad unlock balance detected!");
	pr_err("%s/%d is trying to release lock (%s) at:\n", t->comm, t->pid,
	       map->name ? map->name : "(unnamed)");
	print_ip_sym("", ip);
	pr_err("but there are no more locks to release!\n");
	pr_err("\nother info that might help us debug this:\n");
	print_held_locks(t);
	report_end();
}

/* ---- checks (graph_lock held) ---- */

static void check_usage_inversion(struct task_struct *t, struct lock_class *c,
				  int bit, unsigned long ip);

/* bit 0: USED_IN_HARDIRQ, bit 1: ENABLED_HARDIRQ. */
static void mark_usage(struct task_struct *t, struct lock_class *c, int bit,
		       unsigned long ip)
{
	int other = !bit;

	if (c->usage & (1u << bit))
		return;
	c->usage |= 1u << bit;
	c->usage_ip[bit] = ip;
	if (c->usage & (1u << other))
		report_inconsistent(t, c, other, bit, ip);
	else
		check_usage_inversion(t, c, bit, ip);
}

/* Whether next ->* target in the graph; leaves the path in bfs_parent. */
static struct lock_class *bfs_queue[MAX_LOCKDEP_KEYS];	/* graph_lock */

static bool reaches(struct lock_class *from, struct lock_class *target)
{
	struct lock_class **queue = bfs_queue;
	unsigned int head = 0, tail = 0;

	bfs_gen++;
	from->bfs_gen = bfs_gen;
	from->bfs_parent = NULL;
	queue[tail++] = from;
	while (head < tail) {
		struct lock_class *c = queue[head++];

		for (struct lock_list *e = c->after; e; e = e->next) {
			struct lock_class *to = e->to;

			if (to->dead || to->bfs_gen == bfs_gen)
				continue;
			to->bfs_gen = bfs_gen;
			to->bfs_parent = c;
			to->bfs_edge = e;
			if (to == target)
				return true;
			if (tail < MAX_LOCKDEP_KEYS)
				queue[tail++] = to;
		}
	}
	return false;
}

/*
 * A class with usage bit, reachable from start (start included) along
 * the edges (forwards: classes taken after it; backwards: classes held
 * when it was taken); NULL if none.
 */
static struct lock_class *find_usage(struct lock_class *start, bool forwards,
				     unsigned int bit)
{
	struct lock_class **queue = bfs_queue;
	unsigned int head = 0, tail = 0;

	bfs_gen++;
	start->bfs_gen = bfs_gen;
	queue[tail++] = start;
	while (head < tail) {
		struct lock_class *c = queue[head++];
		struct lock_list *e;

		if (c->usage & bit)
			return c;
		for (e = forwards ? c->after : c->before; e;
		     e = forwards ? e->next : e->next_before) {
			struct lock_class *o = forwards ? e->to : e->from;

			if (o->dead || o->bfs_gen == bfs_gen)
				continue;
			o->bfs_gen = bfs_gen;
			if (tail < MAX_LOCKDEP_KEYS)
				queue[tail++] = o;
		}
	}
	return NULL;
}

static void print_usage_site(const struct lock_class *c, int bit)
{
	print_lock_name("", c, "");
	pr_err(" ... which became %s at:\n", usage_names[bit]);
	print_ip_sym("   ", c->usage_ip[bit]);
}

/*
 * A HARDIRQ-safe class (taken in an interrupt handler) must never be held
 * while a HARDIRQ-unsafe one (taken with interrupts on) is taken, even
 * through other locks: the unsafe one's holder can be interrupted by a
 * handler that waits for the safe one, whose holder waits for the unsafe
 * one (2.6.18's check_prev_add_irq).
 */
static bool check_irq_order(struct task_struct *t, struct held_lock *prev,
			    struct held_lock *next)
{
	struct lock_class *safe, *unsafe;

	safe = find_usage(prev->class, false, LOCKF_USED_IN_HARDIRQ);
	if (!safe)
		return true;
	unsafe = find_usage(next->class, true, LOCKF_ENABLED_HARDIRQ);
	if (!unsafe)
		return true;
	if (!report_begin())
		return false;
	print_banner("WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected");
	pr_err("%s/%d is trying to acquire:\n", t->comm, t->pid);
	print_held_lock(next);
	pr_err("\nand this task is already holding:\n");
	print_held_lock(prev);
	pr_err("which would create a new lock dependency:\n");
	pr_err(" (%s) -> (%s)\n", prev->class->name, next->class->name);
	pr_err("\nbut this new dependency connects a HARDIRQ-irq-safe lock:\n");
	print_usage_site(safe, 0);
	pr_err("\nto a HARDIRQ-irq-unsafe lock:\n");
	print_usage_site(unsafe, 1);
	print_scenario_header();
	pr_err("       CPU0                    CPU1\n");
	pr_err("       ----                    ----\n");
	pr_err("  lock(%s);\n", unsafe->name);
	pr_err("                               local_irq_disable();\n");
	pr_err("                               lock(%s);\n", safe->name);
	pr_err("                               lock(%s);\n", unsafe->name);
	pr_err("  <Interrupt>\n");
	pr_err("    lock(%s);\n", safe->name);
	print_deadlock_tail(t);
	report_end();
	return false;
}

/*
 * c just gained usage bit: a HARDIRQ-safe class must not reach an unsafe
 * one, nor an unsafe one be reached from a safe one (2.6.18's
 * check_usage_forwards/backwards).
 */
static void check_usage_inversion(struct task_struct *t, struct lock_class *c,
				  int bit, unsigned long ip)
{
	struct lock_class *other;

	if (bit == 0)
		other = find_usage(c, true, LOCKF_ENABLED_HARDIRQ);
	else
		other = find_usage(c, false, LOCKF_USED_IN_HARDIRQ);
	if (!other || other == c || !report_begin())
		return;
	print_banner("WARNING: possible irq lock inversion dependency detected");
	pr_err("%s/%d just changed the state of lock:\n", t->comm, t->pid);
	print_ip_sym(" at: ", ip);
	print_usage_site(c, bit);
	if (bit == 0)
		pr_err("but this lock took another, HARDIRQ-unsafe lock in the past:\n");
	else
		pr_err("but this lock was taken by another, HARDIRQ-safe lock in the past:\n");
	print_usage_site(other, !bit);
	pr_err("\nand interrupts could create inverse lock ordering between them.\n");
	print_deadlock_tail(t);
	report_end();
}

/* prev held while next is taken: the edge, unless it closes a cycle. */
static bool add_edge(struct task_struct *t, struct held_lock *prev,
		     struct held_lock *next)
{
	struct lock_list *e;

	for (e = prev->class->after; e; e = e->next)
		if (e->to == next->class)
			return true;
	if (reaches(next->class, prev->class)) {
		report_circular(t, prev, next);
		return false;
	}
	if (nr_edges >= MAX_LOCKDEP_ENTRIES) {
		table_full("MAX_LOCKDEP_ENTRIES");
		return false;
	}
	if (!check_irq_order(t, prev, next))
		return false;
	e = &edges[nr_edges++];
	e->from = prev->class;
	e->to = next->class;
	e->from_ip = prev->acquire_ip;
	e->to_ip = next->acquire_ip;
	e->next = prev->class->after;
	prev->class->after = e;
	e->next_before = next->class->before;
	next->class->before = e;
	return true;
}

static bool check_acquire(struct task_struct *t, struct held_lock *next)
{
	int depth = t->lockdep_depth;

	for (int i = 0; i < depth; i++) {
		if (t->held_locks[i].class == next->class) {
			report_recursive(t, &t->held_locks[i], next);
			return false;
		}
	}
	for (int i = depth - 1; i >= 0; i--) {
		struct held_lock *h = &t->held_locks[i];

		if (h->irq_context != next->irq_context)
			continue;
		if (!add_edge(t, h, next))
			return false;
		if (!h->trylock)
			break;
	}
	return true;
}

/* ---- the entry points ---- */

void lock_acquire(struct lockdep_map *map, unsigned int subclass, int trylock,
		  unsigned long ip)
{
	struct task_struct *t = current;
	unsigned long flags, gflags = 0;
	bool locked = false;
	struct lock_class *c;
	struct held_lock *h;
	int irq, depth;
	u64 prev_key = 0;

	/*
	 * Read with interrupts on: a handler may raise t's count meanwhile,
	 * but it puts it back before it returns.
	 */
	if (unlikely(!debug_locks) || data_race(t->lockdep_recursion))
		return;
	if (!ip)
		ip = _RET_IP_;
	flags = arch_local_irq_save();
	t->lockdep_recursion++;
	c = get_class(map, subclass, &locked, &gflags);
	if (!c)
		goto out;
	irq = in_irq() ? 1 : 0;
	/* A glance without graph_lock: mark_usage() looks again under it. */
	if (!(data_race(c->usage) &
	      (irq ? LOCKF_USED_IN_HARDIRQ : LOCKF_ENABLED_HARDIRQ)) &&
	    (irq || !arch_irqs_disabled_flags(flags))) {
		if (!locked) {
			gflags = graph_lock_irqsave();
			locked = true;
		}
		mark_usage(t, c, irq ? 0 : 1, ip);
	}
	depth = t->lockdep_depth;
	if (depth >= MAX_LOCK_DEPTH) {
		if (locked) {
			graph_unlock_irqrestore(gflags);
			locked = false;
		}
		table_full("MAX_LOCK_DEPTH");
		goto out;
	}
	for (int i = depth - 1; i >= 0; i--) {
		if (t->held_locks[i].irq_context == irq) {
			prev_key = t->held_locks[i].chain_key;
			break;
		}
	}
	h = &t->held_locks[depth];
	h->instance = map;
	h->class = c;
	h->acquire_ip = ip;
	h->irq_context = (u8)irq;
	h->trylock = (u8)trylock;
	h->chain_key = chain_mix(prev_key, c, irq);
	if (!trylock && !chain_cached(h->chain_key)) {
		if (!locked) {
			gflags = graph_lock_irqsave();
			locked = true;
		}
		if (!chain_cached(h->chain_key) && check_acquire(t, h))
			chain_add(h->chain_key);
	}
	t->lockdep_depth = depth + 1;
out:
	if (locked)
		graph_unlock_irqrestore(gflags);
	t->lockdep_recursion--;
	arch_local_irq_restore(flags);
}

void lock_release(struct lockdep_map *map, unsigned long ip)
{
	struct task_struct *t = current;
	unsigned long flags;
	int i, depth;

	/* As in lock_acquire(): a handler puts the count back. */
	if (unlikely(!debug_locks) || data_race(t->lockdep_recursion))
		return;
	if (!ip)
		ip = _RET_IP_;
	flags = arch_local_irq_save();
	t->lockdep_recursion++;
	depth = t->lockdep_depth;
	for (i = depth - 1; i >= 0; i--)
		if (t->held_locks[i].instance == map)
			break;
	if (i < 0) {
		report_bad_unlock(t, map, ip);
		goto out;
	}
	/* Out of order: the ones above move down, their chains redone. */
	for (int j = i; j + 1 < depth; j++) {
		struct held_lock *h = &t->held_locks[j];
		u64 prev_key = 0;

		*h = t->held_locks[j + 1];
		for (int k = j - 1; k >= 0; k--) {
			if (t->held_locks[k].irq_context == h->irq_context) {
				prev_key = t->held_locks[k].chain_key;
				break;
			}
		}
		h->chain_key = chain_mix(prev_key, h->class, h->irq_context);
	}
	t->lockdep_depth = depth - 1;
out:
	t->lockdep_recursion--;
	arch_local_irq_restore(flags);
}

void lockdep_hardirqs_on(unsigned long ip)
{
	struct task_struct *t = current;
	unsigned long flags, gflags = 0;
	bool locked = false;

	if (!t->lockdep_depth || !debug_locks || t->lockdep_recursion ||
	    in_irq())
		return;
	if (!ip)
		ip = _RET_IP_;
	flags = arch_local_irq_save();
	t->lockdep_recursion++;
	for (int i = 0; i < t->lockdep_depth; i++) {
		struct lock_class *c = t->held_locks[i].class;

		/* A glance: mark_usage() looks again under graph_lock. */
		if (data_race(c->usage) & LOCKF_ENABLED_HARDIRQ)
			continue;
		if (!locked) {
			gflags = graph_lock_irqsave();
			locked = true;
		}
		mark_usage(t, c, 1, ip);
	}
	if (locked)
		graph_unlock_irqrestore(gflags);
	t->lockdep_recursion--;
	arch_local_irq_restore(flags);
}

/* ---- assertions ---- */

bool lockdep_spin_is_held(const struct spinlock *lock)
{
	return spin_is_held(lock);
}

bool lockdep_mutex_is_held(const struct mutex *lock)
{
	return READ_ONCE(lock->owner) == current;
}

bool lockdep_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}

/* ---- for the tests ---- */

void lockdep_expect_reports(bool on)
{
	WRITE_ONCE(expect_task, on ? current : NULL);
}

void lockdep_reset_keys(const void *start, size_t size)
{
	unsigned long lo = (unsigned long)start, hi = lo + size;
	unsigned long flags = graph_lock_irqsave();

	for (unsigned int i = 0; i < nr_classes; i++) {
		struct lock_class *c = &classes[i];
		unsigned long k = (unsigned long)c->key;

		if (k >= lo && k < hi)
			c->dead = true;
	}
	/* Unlink dead classes from the hash and every edge into them. */
	for (unsigned int h = 0; h < CLASS_HASH_SIZE; h++) {
		struct lock_class **pp = &class_hash[h];

		while (*pp) {
			if ((*pp)->dead)
				*pp = (*pp)->hash_next;
			else
				pp = &(*pp)->hash_next;
		}
	}
	for (unsigned int i = 0; i < nr_classes; i++) {
		struct lock_list **pp = &classes[i].after;

		if (classes[i].dead) {
			classes[i].after = classes[i].before = NULL;
			continue;
		}
		while (*pp) {
			if ((*pp)->to->dead)
				*pp = (*pp)->next;
			else
				pp = &(*pp)->next;
		}
		pp = &classes[i].before;
		while (*pp) {
			if ((*pp)->from->dead)
				*pp = (*pp)->next_before;
			else
				pp = &(*pp)->next_before;
		}
	}
	graph_unlock_irqrestore(flags);
}
