/*
 * kernel/sched.h - tasks and the scheduler: who runs, who sleeps.
 *
 * Every CPU runs one task at a time: a kernel thread, or the CPU's idle
 * task when nothing else is runnable.  A task that must wait puts itself
 * in a sleeping state (set_current_state) and calls schedule(); whoever
 * makes its wait come true calls wake_up_process() on it (usually through
 * a wait queue, kernel/wait.h).  The timer tick takes the CPU from a task
 * that has used its time slice (preemption) unless preempt_count says the
 * task may not be switched out (kernel/preempt.h).
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "asm/irqflags.h"
#include "asm/switch_to.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "lib/err.h"
#include "lib/list.h"
#include "lib/types.h"

/* Task states, Linux's values. */
#define TASK_RUNNING 0
#define TASK_INTERRUPTIBLE 1
#define TASK_UNINTERRUPTIBLE 2
#define TASK_DEAD 64
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* Task flags. */
#define PF_IDLE 0x00000002	  /* the CPU's idle task */
#define PF_EXITING 0x00000004	  /* in do_exit() */
#define PF_MEMALLOC 0x00000800	  /* reclaiming: may use the reserves */
#define PF_KSWAPD 0x00040000	  /* the kswapd thread of a node */
#define PF_THREAD_BOUND 0x04000000 /* kthread_bind() fixed its CPU */

#define TASK_COMM_LEN 16

struct completion;
struct reclaim_state;

struct task_struct {
	struct thread_context ctx;	/* saved registers (arch) */
	volatile long state;		/* TASK_* */
	unsigned int flags;		/* PF_* */
	int cpu;			/* the CPU whose run queue holds it */
	int pid;
	bool on_rq;			/* runnable: running or queued */
	struct list_head run_list;	/* on its run queue's queue */
	unsigned int time_slice;	/* ticks left before preemption */
	int usage;			/* references; freed at 0 */
	int saved_preempt_count;	/* the CPU's count while switched out */
	void *stack;			/* THREAD_SIZE bytes, or NULL (idle) */
	int (*threadfn)(void *data);
	void *data;
	int exit_code;
	bool should_stop;		/* kthread_stop() asked */
	bool make_it_fail;		/* its allocations fail (tests) */
	struct completion *vfork_done;	/* kthread_stop() waits on it */
	unsigned long nvcsw, nivcsw;	/* voluntary / forced switches */
	unsigned long blkio_count;	/* io_schedule_timeout() waits */
	unsigned long wake_jiffies;	/* when it was last woken */
	struct reclaim_state *reclaim_state;
	struct list_head tasks;		/* on the list of all tasks */
	char comm[TASK_COMM_LEN];
	/*
	 * The locks it holds, for the validator (kernel/lockdep.c): its
	 * own, and those an interrupt handler takes while it runs.
	 */
	int lockdep_depth;
	int lockdep_recursion;		/* in the validator: ignore locks */
	struct held_lock held_locks[MAX_LOCK_DEPTH];
};

DECLARE_PER_CPU(struct task_struct *, current_task);

static inline struct task_struct *get_current(void)
{
	return arch_this_cpu_read_4(current_task);
}
#define current get_current()

/*
 * set_current_state() orders the state store before the test of the wait
 * condition that follows it, so that a waker who makes the condition true
 * and then wakes us cannot be missed.  A waker writes the state too (under
 * the run queue's lock, which the task does not hold): both write it
 * with WRITE_ONCE, as Linux does.
 */
#define __set_current_state(s) WRITE_ONCE(current->state, (s))
#define set_current_state(s)                                                \
	do {                                                                 \
		WRITE_ONCE(current->state, (s));                             \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);                     \
	} while (0)

/* Where the boot sequence is: sleeping is only checked once it runs. */
enum system_states { SYSTEM_BOOTING, SYSTEM_RUNNING, SYSTEM_HALTED };
extern enum system_states system_state;

/* The scheduler proper. */
void sched_init(void);
/* This CPU's boot context becomes its idle task and idles for ever. */
void cpu_idle(void) __noreturn;
/*
 * Where thread stacks come from (mm gives them; kernel/ allocates no
 * memory of its own): THREAD_SIZE bytes on cpu's node, and back.
 */
void sched_set_thread_memory(void *(*alloc)(int cpu, size_t size),
			     void (*free)(void *mem, size_t size));
void schedule(void);
/* From the interrupt return path: preempt the interrupted task. */
void preempt_schedule_irq(void);
/* Called by the timer tick on every CPU, in hardirq context. */
void scheduler_tick(void);
int wake_up_process(struct task_struct *p);
int try_to_wake_up(struct task_struct *p, unsigned int state);
/* Gives the CPU to another runnable task, if any. */
void yield(void);
/* Reschedules if the tick asked to: a safe point in a long loop. */
int cond_resched(void);

/* Statistics. */
unsigned long nr_context_switches(void);
/* Nanoseconds cpu has spent halted in its idle loop since boot. */
u64 cpu_idle_ns(int cpu);
unsigned int nr_running_on(int cpu);
/* Kernel threads that exist (idle tasks excluded), and the exiting ones. */
unsigned int nr_threads(void);
/* Waits (sleeping) up to timeout jiffies for exited threads to be freed. */
bool sched_wait_for_exited(unsigned long timeout);
/* Prints every kernel thread: pid, CPU, state, switches. */
void show_tasks(void);

/* Between kernel/sched.c and kernel/kthread.c. */
#define STACK_END_MAGIC 0x57AC6E9DUL
/* Readies a new task to start in its thread function on this stack. */
void sched_fork(struct task_struct *p, void *stack, size_t size);
/* The scheduler is done with a dead task: drop its own reference. */
void task_dead(struct task_struct *t);

/* Task lifetime (the struct and stack are freed with the last reference). */
void get_task_struct(struct task_struct *t);
void put_task_struct(struct task_struct *t);
void do_exit(int code) __noreturn;
/*
 * Completes done and exits, in that order but as one step for whoever
 * waits for done: the thread already counts as exiting (Linux's
 * kthread_complete_and_exit).  For threads a waiter reaps by completion.
 */
void kthread_complete_and_exit(struct completion *done, int code) __noreturn;

/* Kernel threads (kernel/kthread.c). */
struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, bound to cpu, its stack and task on cpu's node. */
struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data),
					  void *data, unsigned int cpu,
					  const char *namefmt, ...)
	__attribute__((format(printf, 4, 5)));
#define kthread_run(threadfn, data, ...)                                    \
	({                                                                   \
		struct task_struct *__k =                                    \
			kthread_create(threadfn, data, __VA_ARGS__);         \
		if (!IS_ERR(__k))                                            \
			wake_up_process(__k);                                \
		__k;                                                         \
	})
void kthread_bind(struct task_struct *k, unsigned int cpu);
bool kthread_should_stop(void);
int kthread_stop(struct task_struct *k);

/*
 * might_sleep(): this code may sleep, so its caller must not be atomic.
 * Reports Linux's "BUG: sleeping function called from invalid context"
 * once per call site (and counts every time), then goes on.
 */
void __might_sleep(const char *file, int line, bool *reported);
/* The inline test; the report is out of line. */
static inline bool might_sleep_invalid(void)
{
	return system_state == SYSTEM_RUNNING &&
	       (in_atomic() ||
		arch_irqs_disabled_flags(arch_local_save_flags()));
}
#define might_sleep()                                                       \
	do {                                                                 \
		static bool __reported;                                      \
		if (unlikely(might_sleep_invalid()))                         \
			__might_sleep(__FILE__, __LINE__, &__reported);      \
	} while (0)
#define might_sleep_if(cond)                                                \
	do {                                                                 \
		if (cond)                                                    \
			might_sleep();                                       \
	} while (0)
/* Invalid-context reports so far (for the tests). */
unsigned long nr_might_sleep_reports(void);

#endif /* KERNEL_SCHED_H */
