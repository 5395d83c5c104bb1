/*
 * mm/fault_inject.h - making allocations fail on purpose, for tests.
 *
 * Linux's fault injection with its task filter (make-it-fail): while a
 * task is marked, every page and slab allocation it makes fails, except
 * __GFP_NOFAIL ones and those made in interrupt context (which are not
 * the task's).  Other tasks allocate as usual, so a test can make one
 * thread meet an "exhausted" allocator without exhausting the machine.
 * It is a test facility: a production build (MM_DEBUG=0) compiles it
 * out, as Linux without CONFIG_FAILSLAB and CONFIG_FAIL_PAGE_ALLOC has
 * none (and since 6.10 pays a static branch when it has), so that its
 * allocation paths do not look at all.
 */
#ifndef MM_FAULT_INJECT_H
#define MM_FAULT_INJECT_H

#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "mm/gfp.h"
#include "mm/mm.h"

/* Marked tasks (the allocation paths look no further while it is 0). */
extern unsigned int fail_alloc_tasks;

/* Marks or unmarks t; it must be the caller, or not yet running.  A
 * marked task must be unmarked before it exits (the count would stay). */
void fail_task_allocations(struct task_struct *t, bool fail);
/* Allocations failed on purpose so far. */
unsigned long nr_injected_failures(void);
void __count_injected_failure(void);

/* Whether any task is marked: one load, none in a production build. */
static __always_inline bool fail_alloc_armed(void)
{
	return MM_DEBUG && unlikely(READ_ONCE(fail_alloc_tasks));
}

static inline bool should_fail_alloc(gfp_t gfp_mask)
{
	if (likely(!fail_alloc_armed()))
		return false;
	if (!current->make_it_fail || in_interrupt() ||
	    (gfp_mask & __GFP_NOFAIL))
		return false;
	__count_injected_failure();
	return true;
}

#endif /* MM_FAULT_INJECT_H */
