/*
 * tests/sched_misuse.c - misuse of threads and sleeping locks that must
 * stop the kernel, each with Linux's report.  One boot each
 * (ktest.misuse=NAME in tests/boots.txt), judged on its exact line.
 *
 *   schedule_atomic        msleep() with a spinlock held: might_sleep()
 *                          reports, then schedule() finds preempt_count 1
 *                          and stops ("BUG: scheduling while atomic")
 *   mutex_unlock_not_owner a thread takes a mutex, init unlocks it
 *   mutex_lock_recursive   a task takes a mutex it already holds
 */
#include "kernel/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "tests/ktest.h"

static void misuse_schedule_atomic(void)
{
	static DEFINE_SPINLOCK(lock);

	pr_info("ktest: misuse schedule_atomic: msleep(1) under a spinlock\n");
	spin_lock(&lock);
	msleep(1);
	spin_unlock(&lock);
}
KTEST_MISUSE(schedule_atomic, misuse_schedule_atomic);

static DEFINE_MUTEX(misuse_mutex);
static DECLARE_COMPLETION(misuse_locked);

static int hold_mutex(void *unused)
{
	mutex_lock(&misuse_mutex);
	complete(&misuse_locked);
	while (!kthread_should_stop())
		msleep(10);
	mutex_unlock(&misuse_mutex);
	return 0;
}

static void misuse_mutex_unlock_not_owner(void)
{
	struct task_struct *k = kthread_run(hold_mutex, NULL, "mutex_holder");

	if (IS_ERR(k))
		return;
	wait_for_completion(&misuse_locked);
	pr_info("ktest: misuse mutex_unlock_not_owner: %s unlocks %s's mutex\n",
		current->comm, k->comm);
	mutex_unlock(&misuse_mutex);
	kthread_stop(k);
}
KTEST_MISUSE(mutex_unlock_not_owner, misuse_mutex_unlock_not_owner);

static void misuse_mutex_lock_recursive(void)
{
	pr_info("ktest: misuse mutex_lock_recursive: taking a mutex twice\n");
	mutex_lock(&misuse_mutex);
	mutex_lock(&misuse_mutex);
	mutex_unlock(&misuse_mutex);
}
KTEST_MISUSE(mutex_lock_recursive, misuse_mutex_lock_recursive);
