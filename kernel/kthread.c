/*
 * kernel/kthread.c - kernel threads: creation, exit, and the end of a
 * task's life.
 *
 * A thread's memory is one THREAD_SIZE block from mm (the allocator
 * sched_set_thread_memory() was given): its task_struct at the bottom, a
 * canary word above it that schedule() checks (a stack that grew into it
 * panics with "stack overflow"), and the stack above that, growing down
 * towards them.  Linux 2.6 on i386 laid out thread_info the same way.
 *
 * A task holds a reference on itself while it can run; it drops it when
 * it has died and the next task has switched away from it (task_dead(),
 * from the scheduler), and the memory goes back with the last reference.
 * kthread_stop() holds one of its own while it waits, so a stopped
 * thread's exit code is still there to read.  A thread that returns on
 * its own is freed with nobody waiting (Linux's contract: kthread_stop()
 * only for threads that wait for kthread_should_stop(), or that were
 * never woken: those never run their function, and give -EINTR).
 *
 * Locking: tasklist_lock (irqsave, a leaf) protects the list of tasks,
 * the counts and each task's exit hand-off (PF_EXITING and vfork_done),
 * so kthread_stop() and do_exit() cannot miss each other.
 */
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "lib/err.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"

static DEFINE_SPINLOCK(tasklist_lock);
static LIST_HEAD(all_tasks);
static unsigned int threads_alive;	/* kernel threads not yet freed */
static unsigned int threads_exiting;	/* in do_exit, not yet switched out */
static int last_pid;

static void *(*thread_mem_alloc)(int cpu, size_t size);
static void (*thread_mem_free)(void *mem, size_t size);

void sched_set_thread_memory(void *(*alloc)(int cpu, size_t size),
			     void (*free)(void *mem, size_t size))
{
	thread_mem_alloc = alloc;
	thread_mem_free = free;
}

static int pick_cpu(void)
{
	static unsigned int next_cpu;
	unsigned int start = __atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED);
	unsigned int best_load = ~0u;
	int best = 0;

	for (unsigned int i = 0; i < nr_cpu_ids; i++) {
		int cpu = (int)((start + i) % nr_cpu_ids);
		unsigned int load = nr_running_on(cpu);

		if (cpu_online(cpu) && load < best_load) {
			best_load = load;
			best = cpu;
		}
	}
	return best;
}

static struct task_struct *create_thread(int (*threadfn)(void *data),
					 void *data, int cpu,
					 const char *namefmt, va_list ap)
{
	struct task_struct *t;
	unsigned long flags;
	void *mem;

	might_sleep();
	BUG_ON(!thread_mem_alloc);
	mem = thread_mem_alloc(cpu, THREAD_SIZE);
	if (!mem)
		return ERR_PTR(-ENOMEM);
	/* The task at the bottom of its stack, the overflow canary above. */
	t = mem;
	memset(t, 0, sizeof(*t));
	t->stack = (char *)mem + sizeof(*t);
	*(unsigned long *)t->stack = STACK_END_MAGIC;
	t->state = TASK_UNINTERRUPTIBLE;
	t->cpu = cpu;
	t->usage = 1;
	t->threadfn = threadfn;
	t->data = data;
	INIT_LIST_HEAD(&t->run_list);
	vsnprintf(t->comm, sizeof(t->comm), namefmt, ap);
	sched_fork(t, (char *)t->stack + sizeof(unsigned long),
		   THREAD_SIZE - sizeof(*t) - sizeof(unsigned long));

	spin_lock_irqsave(&tasklist_lock, flags);
	t->pid = ++last_pid;
	list_add_tail(&t->tasks, &all_tasks);
	WRITE_ONCE(threads_alive, threads_alive + 1);	/* nr_threads() */
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return t;
}

struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...)
{
	struct task_struct *t;
	va_list ap;

	va_start(ap, namefmt);
	t = create_thread(threadfn, data, pick_cpu(), namefmt, ap);
	va_end(ap);
	return t;
}

struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data),
					  void *data, unsigned int cpu,
					  const char *namefmt, ...)
{
	struct task_struct *t;
	va_list ap;

	BUG_ON(cpu >= nr_cpu_ids || !cpu_online((int)cpu));
	va_start(ap, namefmt);
	t = create_thread(threadfn, data, (int)cpu, namefmt, ap);
	va_end(ap);
	if (!IS_ERR(t))
		t->flags |= PF_THREAD_BOUND;
	return t;
}

void kthread_bind(struct task_struct *k, unsigned int cpu)
{
	BUG_ON(k->on_rq || k->state != TASK_UNINTERRUPTIBLE);
	BUG_ON(cpu >= nr_cpu_ids || !cpu_online((int)cpu));
	k->cpu = (int)cpu;
	k->flags |= PF_THREAD_BOUND;
}

bool kthread_should_stop(void)
{
	return READ_ONCE(current->should_stop);
}

int kthread_stop(struct task_struct *k)
{
	struct completion done;
	unsigned long flags;
	bool exiting;
	int ret;

	init_completion(&done);
	get_task_struct(k);
	spin_lock_irqsave(&tasklist_lock, flags);
	/*
	 * PF_EXITING changes under tasklist_lock; k changes its other flags
	 * (PF_MEMALLOC) without it: a data race on the word, none on the bit.
	 */
	exiting = data_race(k->flags) & PF_EXITING;
	if (!exiting) {
		k->vfork_done = &done;
		WRITE_ONCE(k->should_stop, true);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!exiting) {
		wake_up_process(k);
		wait_for_completion(&done);
	}
	ret = k->exit_code;
	put_task_struct(k);
	return ret;
}

/*
 * The end of a thread: its exit code for kthread_stop(), then - with
 * interrupts off, so that no tick can preempt a task already marked dead
 * (it would stay queued, and the next task would free it while queued) -
 * the last schedule().  done, when given, is completed only once the
 * thread counts as exiting, so whoever waits on it and then counts
 * threads (the tests' leak check waits for exiting ones) cannot see it
 * alive.
 */
static void __noreturn exit_thread(struct completion *done, int code)
{
	struct task_struct *t = current;
	struct completion *vfork_done;
	unsigned long flags;

	BUG_ON(t->flags & PF_IDLE);
	t->exit_code = code;
	spin_lock_irqsave(&tasklist_lock, flags);
	t->flags |= PF_EXITING;
	vfork_done = t->vfork_done;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	__atomic_fetch_add(&threads_exiting, 1, __ATOMIC_RELAXED);
	if (done)
		complete(done);
	if (vfork_done)
		complete(vfork_done);
	arch_local_irq_disable();
	__set_current_state(TASK_DEAD);
	schedule();
	BUG();
}

void do_exit(int code)
{
	exit_thread(NULL, code);
}

void kthread_complete_and_exit(struct completion *done, int code)
{
	exit_thread(done, code);
}

void get_task_struct(struct task_struct *t)
{
	__atomic_fetch_add(&t->usage, 1, __ATOMIC_RELAXED);
}

void put_task_struct(struct task_struct *t)
{
	unsigned long flags;

	if (__atomic_sub_fetch(&t->usage, 1, __ATOMIC_ACQ_REL))
		return;
	BUG_ON(t->flags & PF_IDLE);
	BUG_ON(t->state != TASK_DEAD);
	spin_lock_irqsave(&tasklist_lock, flags);
	list_del(&t->tasks);
	WRITE_ONCE(threads_alive, threads_alive - 1);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	arch_thread_free(&t->ctx);
	thread_mem_free(t, THREAD_SIZE);
}


/* The scheduler: t died and its CPU has left it for good. */
void task_dead(struct task_struct *t)
{
	/* Freed (or left to kthread_stop()'s reference) before it stops
	 * counting as exiting: a waiter for exited threads then sees it
	 * gone.  t is not touched after the put. */
	put_task_struct(t);
	__atomic_fetch_sub(&threads_exiting, 1, __ATOMIC_RELEASE);
}

unsigned int nr_threads(void)
{
	return READ_ONCE(threads_alive);
}

bool sched_wait_for_exited(unsigned long timeout)
{
	unsigned long end = jiffies + timeout;

	while (__atomic_load_n(&threads_exiting, __ATOMIC_ACQUIRE)) {
		if (time_after(jiffies, end))
			return false;
		schedule_timeout_uninterruptible(1);
	}
	return true;
}

void show_tasks(void)
{
	struct task_struct *t;
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	pr_info("  PID CPU S   nvcsw  nivcsw COMMAND\n");
	list_for_each_entry(t, &all_tasks, tasks)
		pr_info("%5d %3d %c %7lu %7lu %s\n", t->pid, t->cpu,
			t->state == TASK_RUNNING ? 'R' :
			t->state == TASK_DEAD ? 'X' : 'D',
			t->nvcsw, t->nivcsw, t->comm);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

