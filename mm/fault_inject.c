/*
 * mm/fault_inject.c - the task filter of allocation fault injection
 * (see mm/fault_inject.h).  fail_alloc_tasks counts the marked tasks so
 * that the allocation paths pay one load while nobody is marked.
 */
#include "kernel/bug.h"
#include "mm/fault_inject.h"

unsigned int fail_alloc_tasks;
static unsigned long injected;

void fail_task_allocations(struct task_struct *t, bool fail)
{
	/* Compiled out of a production build: say so rather than not fail. */
	if (WARN_ON_ONCE(!MM_DEBUG))
		return;
	if (t->make_it_fail == fail)
		return;
	t->make_it_fail = fail;
	if (fail)
		__atomic_fetch_add(&fail_alloc_tasks, 1, __ATOMIC_RELEASE);
	else
		__atomic_fetch_sub(&fail_alloc_tasks, 1, __ATOMIC_RELEASE);
}

void __count_injected_failure(void)
{
	__atomic_fetch_add(&injected, 1, __ATOMIC_RELAXED);
}

unsigned long nr_injected_failures(void)
{
	return READ_ONCE(injected);
}
