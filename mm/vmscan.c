/*
 * mm/vmscan.c - giving memory back when the page allocator runs short.
 *
 * mm86 has no page cache and no swap, so what can be reclaimed is what
 * subsystems keep for speed: the slab layer's free slabs and per-CPU
 * arrays (kmem_cache_reap_all), and whatever a registered shrinker owns.
 * Reclaim runs in two places, as in Linux 2.6 (2.6.11's __alloc_pages and
 * kswapd):
 *
 *  - direct reclaim: an allocation that may sleep (__GFP_WAIT) and found
 *    nothing at the min watermark calls try_to_free_pages() itself, and
 *    the page allocator's retry policy then decides whether to try again
 *    (mm/page_alloc.c);
 *  - kswapd, one thread per node: woken by an allocation that found one
 *    of the node's zones below pages_low, it reclaims until every zone is
 *    back at pages_high, then sleeps (2.6.11).  So a steady allocator seldom has to
 *    reclaim directly: kswapd keeps ahead of it between low and high.
 *
 * Both scan with a falling priority, DEF_PRIORITY (12) to 0 (2.6.11): at priority
 * p a shrinker is asked to scan 1/2^p of what it holds (scaled by its
 * seeks), credit below a batch carried over to the next pass, so that
 * light pressure scans little and heavy pressure scans everything.  A
 * pass stops as soon as its target is met: SWAP_CLUSTER_MAX pages (or
 * the allocation's size) for direct reclaim, the pages that bring every
 * zone to pages_high for kswapd.  Pages count as reclaimed when they are
 * freed while the task has a reclaim_state (mm/page_alloc.c).
 *
 * A shrinker that needs __GFP_IO or __GFP_FS is skipped when the caller's
 * mask lacks that bit: GFP_NOIO callers (the block layer) must not start
 * I/O, GFP_NOFS callers (a filesystem) must not re-enter a filesystem.
 *
 * Reclaimers run with PF_MEMALLOC, which lets their own allocations take
 * the last pages below the watermarks and keeps them from recursing into
 * reclaim (2.6.11).  When reclaim frees nothing, the allocation fails:
 * there is no OOM killer (2.6.11 called out_of_memory() and retried).
 *
 * Locking: the list of shrinkers is read-locked by reclaim and
 * write-locked by register/unregister_shrinker, as 2.6.11's shrinker_rwsem:
 * reclaimers (kswapd, tasks) share it, so one never finds the list taken
 * by another, and a reclaimer only try-locks it (a shrinker being
 * registered by the allocating task must not deadlock reclaim);
 * cache_chain_mutex is try-locked likewise (slab).  shrinker_mutex orders
 * the writers, shrinker_lock (a leaf) guards the count of readers, and
 * the validator sees both sides as one lock, shrinker_rwsem.  No
 * spinlock is held while a shrinker runs: shrinkers may sleep if the mask
 * allows it, and two reclaimers may run one at once (its nr, calls and
 * skipped are as racy as 2.6's).
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/mutex.h"
#include "kernel/sched.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "mm/internal.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/topology.h"
#include "mm/vmscan.h"

#define DEF_PRIORITY 12
#define SWAP_CLUSTER_MAX 32
#define SHRINK_BATCH 128

/*
 * Test knob: when set, neither direct reclaim nor kswapd frees anything,
 * so suites that check the watermark arithmetic page by page see only
 * their own allocations.  Never set outside tests.
 */
bool reclaim_disabled;

/*
 * The list's reader-writer lock as the validator sees it: one class,
 * 2.6.18's shrinker_rwsem, taken by a reader's try and by the writer, so
 * that a shrinker taking a lock that a caller of register_shrinker()
 * holds (an ABBA deadlock: the writer waits for the reader, the reader
 * for the lock) is reported as a cycle.
 */
static struct lockdep_map shrinker_rwsem_map =
	STATIC_LOCKDEP_MAP_INIT("shrinker_rwsem");
static DEFINE_MUTEX(shrinker_mutex);	/* one writer at a time */
static DEFINE_SPINLOCK(shrinker_lock);	/* the two fields below */
static unsigned int shrinker_readers;
static bool shrinker_writing;
static DECLARE_WAIT_QUEUE_HEAD(shrinker_wait);	/* a writer, for readers to leave */
static LIST_HEAD(shrinker_list);
static struct reclaim_stats stats;

#define stat_add(field, n) __atomic_fetch_add(&stats.field, (n), __ATOMIC_RELAXED)

/*
 * A reader's try (2.6's down_read_trylock): fails only while a writer is
 * in.  Reclaim runs in task context only, so the leaf lock needs no irqsave.
 */
static bool shrinker_read_trylock(void)
{
	bool ok;

	spin_lock(&shrinker_lock);
	ok = !shrinker_writing;
	if (ok)	/* WRITE_ONCE: the writer waits for 0 without the lock */
		WRITE_ONCE(shrinker_readers, shrinker_readers + 1);
	spin_unlock(&shrinker_lock);
	if (ok)
		lock_acquire_dep(&shrinker_rwsem_map, 0, 1);
	return ok;
}

static void shrinker_read_unlock(void)
{
	bool last;

	lock_release_dep(&shrinker_rwsem_map);
	spin_lock(&shrinker_lock);
	BUG_ON(!shrinker_readers);
	WRITE_ONCE(shrinker_readers, shrinker_readers - 1);
	last = shrinker_readers == 0;
	spin_unlock(&shrinker_lock);
	if (last)
		wake_up(&shrinker_wait);
}

/* The writer: no new reader gets in, and those inside finish first. */
static void shrinker_write_lock(void)
{
	mutex_lock(&shrinker_mutex);
	lock_acquire_dep(&shrinker_rwsem_map, 0, 0);
	spin_lock(&shrinker_lock);
	shrinker_writing = true;
	spin_unlock(&shrinker_lock);
	wait_event(shrinker_wait, READ_ONCE(shrinker_readers) == 0);
}

static void shrinker_write_unlock(void)
{
	spin_lock(&shrinker_lock);
	shrinker_writing = false;
	spin_unlock(&shrinker_lock);
	lock_release_dep(&shrinker_rwsem_map);
	mutex_unlock(&shrinker_mutex);
}

void register_shrinker(struct shrinker *s)
{
	s->nr = 0;
	s->calls = 0;
	s->skipped = 0;
	if (!s->seeks)
		s->seeks = DEFAULT_SEEKS;
	shrinker_write_lock();
	list_add_tail(&s->list, &shrinker_list);
	shrinker_write_unlock();
}

void unregister_shrinker(struct shrinker *s)
{
	shrinker_write_lock();
	list_del(&s->list);
	shrinker_write_unlock();
}

/* Reclaimed so far by the task running reclaim. */
static unsigned long reclaimed(void)
{
	return current->reclaim_state->reclaimed_pages;
}

/* One shrinker at one priority, until target pages are reclaimed. */
static void shrink_one(struct shrinker *s, gfp_t gfp_mask, int priority,
		       unsigned long target)
{
	/* LAB reclaim: BEGIN scan 1/2^priority of what s holds (scaled by its seeks), in batches, credit carried, until target */
	long max_pass = s->shrink(0, gfp_mask);
	unsigned long total_scan;

	if (max_pass <= 0)
		return;
	total_scan = s->nr + (((unsigned long)max_pass >> priority) *
			      DEFAULT_SEEKS / (unsigned long)s->seeks) + 1;
	if (total_scan > 2 * (unsigned long)max_pass)
		total_scan = 2 * (unsigned long)max_pass;
	while (total_scan >= SHRINK_BATCH ||
	       (total_scan && total_scan >= (unsigned long)max_pass)) {
		unsigned long this_scan = min(total_scan, (unsigned long)SHRINK_BATCH);
		int left = s->shrink((int)this_scan, gfp_mask);

		s->calls++;
		stat_add(slabs_scanned, this_scan);
		if (left < 0)
			break;
		total_scan -= this_scan;
		max_pass = left;
		if (!max_pass || reclaimed() >= target) {
			total_scan = 0;
			break;
		}
		cond_resched();
	}
	s->nr = total_scan;
	/* LAB reclaim: END */
}

/*
 * One pass over the shrinkers.  False when a shrinker is being registered
 * or unregistered meanwhile: the pass is worth trying again.
 */
static bool shrink_slab(gfp_t gfp_mask, int priority, unsigned long target)
{
	struct shrinker *s;

	if (priority == DEF_PRIORITY)
		kmem_cache_reap_all_trylock();
	if (!shrinker_read_trylock())
		return false;
	list_for_each_entry(s, &shrinker_list, list) {
		/* LAB reclaim: BEGIN skip (and count) a shrinker that needs __GFP_IO or __GFP_FS the mask lacks */
		if ((s->needs & gfp_mask) != s->needs) {
			s->skipped++;
			continue;
		}
		/* LAB reclaim: END */
		if (reclaimed() >= target)
			break;
		shrink_one(s, gfp_mask, priority, target);
	}
	shrinker_read_unlock();
	/* What was freed onto this CPU's lists counts for the watermarks. */
	drain_local_pages();
	return true;
}

unsigned long try_to_free_pages(struct zonelist *zl, gfp_t gfp_mask,
				unsigned int order)
{
	struct task_struct *p = current;
	struct reclaim_state rs = { 0 };
	unsigned long target = max((unsigned long)SWAP_CLUSTER_MAX, 1UL << order);
	unsigned int old_flags = p->flags;
	bool contended = false;

	might_sleep();
	if (reclaim_disabled)
		return 0;
	stat_add(direct_calls, 1);
	p->flags |= PF_MEMALLOC;
	p->reclaim_state = &rs;
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		contended |= !shrink_slab(gfp_mask, priority, target);
		if (rs.reclaimed_pages >= target)
			break;
	}
	p->reclaim_state = NULL;
	p->flags = old_flags;
	stat_add(direct_reclaimed, rs.reclaimed_pages);
	/*
	 * A shrinker was being registered or unregistered: the pass found
	 * the list taken, which is worth a retry, not a failure (2.6:
	 * "assume we'll be able to shrink next time").
	 */
	if (!rs.reclaimed_pages && contended)
		return 1;
	return rs.reclaimed_pages;
}

/* The longest a congestion_wait() sleeps, in jiffies; 0: as asked. */
static long congestion_wait_max;

long congestion_wait_limit(long jiffies)
{
	long old = READ_ONCE(congestion_wait_max);

	BUG_ON(jiffies < 0);
	WRITE_ONCE(congestion_wait_max, jiffies);
	return old;
}

void congestion_wait(long timeout)
{
	long max = READ_ONCE(congestion_wait_max);

	/* Before the scheduler runs, or in the idle task: nobody to wait for. */
	if (system_state != SYSTEM_RUNNING || (current->flags & PF_IDLE))
		return;
	stat_add(congestion_waits, 1);
	set_current_state(TASK_UNINTERRUPTIBLE);
	io_schedule_timeout(max && timeout > max ? max : timeout);
}

/* ---- kswapd ---------------------------------------------------------- */

static bool zone_balanced(struct zone *z, unsigned int order)
{
	return !z->present_pages ||
	       zone_watermark_ok(z, order, z->pages_high, 0, 0);
}

/* Pages the node needs freed to bring its neediest zone to pages_high. */
static unsigned long pgdat_shortfall(pg_data_t *pgdat, unsigned int order)
{
	unsigned long need = 0;
	struct zone *z;

	for_each_zone_in_node(z, pgdat) {
		unsigned long want = z->pages_high + (1UL << order);
		/* Without zone->lock, read once: it may move meanwhile. */
		unsigned long free = READ_ONCE(z->free_pages);

		if (!zone_balanced(z, order) && free < want &&
		    want - free > need)
			need = want - free;
	}
	return need;
}

static void balance_pgdat(pg_data_t *pgdat, struct reclaim_state *rs)
{
	unsigned int order = READ_ONCE(pgdat->kswapd_max_order);

	WRITE_ONCE(pgdat->kswapd_max_order, 0);
	WRITE_ONCE(pgdat->kswapd_active, true);
	pgdat->kswapd_runs++;
	for (int priority = DEF_PRIORITY; priority >= 0; priority--) {
		unsigned long need = pgdat_shortfall(pgdat, order);
		unsigned long before = rs->reclaimed_pages;

		if (!need || READ_ONCE(reclaim_disabled))
			break;
		if (!shrink_slab(GFP_KERNEL, priority, before + need)) {
			/*
			 * A shrinker is being registered or unregistered:
			 * not a pass that found nothing.  Let it finish,
			 * then try this priority again (as direct reclaim
			 * retries).
			 */
			schedule_timeout_uninterruptible(1);
			priority++;
			continue;
		}
		pgdat->kswapd_reclaimed += rs->reclaimed_pages - before;
		stat_add(kswapd_reclaimed, rs->reclaimed_pages - before);
		/* Nothing freed: give the tasks that free memory a moment
		 * (not counted in congestion_waits, which are allocators'). */
		if (rs->reclaimed_pages == before && priority < DEF_PRIORITY - 2)
			schedule_timeout_uninterruptible(HZ / 10);
	}
	WRITE_ONCE(pgdat->kswapd_active, false);
}

static int kswapd(void *arg)
{
	pg_data_t *pgdat = arg;
	struct reclaim_state rs = { 0 };

	current->flags |= PF_MEMALLOC | PF_KSWAPD;
	current->reclaim_state = &rs;
	for (;;) {
		wait_event(pgdat->kswapd_wait,
			   READ_ONCE(pgdat->kswapd_wanted) ||
				   kthread_should_stop());
		if (kthread_should_stop())
			break;
		WRITE_ONCE(pgdat->kswapd_wanted, false);
		balance_pgdat(pgdat, &rs);
	}
	current->reclaim_state = NULL;
	return 0;
}

void wakeup_kswapd(struct zone *zone, unsigned int order)
{
	pg_data_t *pgdat = zone->zone_pgdat;

	if (!zone->present_pages || !pgdat->kswapd || reclaim_disabled)
		return;
	if (zone_watermark_ok(zone, order, zone->pages_low, 0, 0))
		return;
	if (READ_ONCE(pgdat->kswapd_max_order) < order)
		WRITE_ONCE(pgdat->kswapd_max_order, order);
	if (!__atomic_exchange_n(&pgdat->kswapd_wanted, true, __ATOMIC_ACQ_REL)) {
		__atomic_fetch_add(&pgdat->kswapd_wakeups, 1, __ATOMIC_RELAXED);
		stat_add(kswapd_wakeups, 1);
	}
	if (waitqueue_active(&pgdat->kswapd_wait))
		wake_up(&pgdat->kswapd_wait);
}

/* The first online CPU of node nid, or -1 when it has none. */
static int node_first_cpu(int nid)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu_to_node(cpu) == nid)
			return cpu;
	return -1;
}

/*
 * Each node's kswapd runs on one of the node's own CPUs (and its stack
 * is node-local), as Linux binds it; a node without CPUs gets one
 * anywhere.
 */
void kswapd_init(void)
{
	int nid;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);
		int cpu = node_first_cpu(nid);
		struct task_struct *k;

		init_waitqueue_head(&pgdat->kswapd_wait);
		if (cpu >= 0)
			k = kthread_create_on_cpu(kswapd, pgdat, (unsigned int)cpu,
						  "kswapd%d", nid);
		else
			k = kthread_create(kswapd, pgdat, "kswapd%d", nid);
		if (IS_ERR(k))
			panic("cannot start kswapd%d: %ld", nid, PTR_ERR(k));
		pgdat->kswapd = k;
		wake_up_process(k);
	}
}

/* ---- statistics ------------------------------------------------------ */

void get_reclaim_stats(struct reclaim_stats *st)
{
	st->direct_calls = READ_ONCE(stats.direct_calls);
	st->direct_reclaimed = READ_ONCE(stats.direct_reclaimed);
	st->congestion_waits = READ_ONCE(stats.congestion_waits);
	st->slabs_scanned = READ_ONCE(stats.slabs_scanned);
	st->kswapd_wakeups = READ_ONCE(stats.kswapd_wakeups);
	st->kswapd_reclaimed = READ_ONCE(stats.kswapd_reclaimed);
}

void show_reclaim_stats(void)
{
	struct reclaim_stats st;

	get_reclaim_stats(&st);
	pr_info("/proc/vmstat (reclaim):\n");
	pr_info("allocstall %lu\n", st.direct_calls);
	pr_info("pgsteal_direct %lu\n", st.direct_reclaimed);
	pr_info("pgsteal_kswapd %lu\n", st.kswapd_reclaimed);
	pr_info("kswapd_wakeups %lu\n", st.kswapd_wakeups);
	pr_info("slabs_scanned %lu\n", st.slabs_scanned);
	pr_info("congestion_waits %lu\n", st.congestion_waits);
}
