/*
 * mm/percpu.c - one copy of the per-CPU template for each CPU.
 *
 * The copies are made once the page allocator runs, each on the CPU's
 * own node (alloc_pages_node), from the template as it is at that moment:
 * whatever CPU 0 wrote to its per-CPU variables during early boot moves
 * with it.  Then every CPU's segment base is pointed at its copy; the boot
 * CPU switches at once, the others load theirs as they start.
 *
 * Release: 2.6.11's setup_per_cpu_areas copied the template from bootmem
 * memory before the page allocator ran; copying later, node-locally, is
 * newer Linux's choice (not checked against a release).
 */
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/topology.h"

extern char __start_percpu_data[], __stop_percpu_data[];

void setup_per_cpu_areas(void)
{
	size_t size = (size_t)(__stop_percpu_data - __start_percpu_data);
	unsigned int order = 0;
	int cpu;

	while ((PAGE_SIZE << order) < size)
		order++;
	for_each_possible_cpu(cpu) {
		struct page *page = alloc_pages_node(cpu_to_node(cpu),
						     GFP_KERNEL, order);
		char *area;

		if (!page)
			panic("no memory for CPU %d's per-CPU area", cpu);
		area = page_address(page);
		memcpy(area, __start_percpu_data, size);
		__per_cpu_offset[cpu] = (unsigned long)(area - __start_percpu_data);
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
		per_cpu(cpu_number, cpu) = cpu;
		arch_set_percpu_base(cpu, __per_cpu_offset[cpu]);
	}
	pr_info("percpu: %u CPUs, %zu bytes each (order-%u block on the CPU's node)\n",
		nr_cpu_ids, size, order);
}

static unsigned int stack_order(size_t size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* A CPU's kernel stack, from its own node (the arch starts CPUs with it). */
void *alloc_cpu_stack(int cpu, size_t size)
{
	struct page *page = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL,
					     stack_order(size));

	return page ? page_address(page) : NULL;
}

/*
 * A kernel thread's stack (with its task_struct), on the node of the CPU
 * it will run on.  May sleep: thread creation is task context.
 */
void *alloc_thread_stack(int cpu, size_t size)
{
	struct page *page = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL,
					     stack_order(size));

	return page ? page_address(page) : NULL;
}

void free_thread_stack(void *stack, size_t size)
{
	free_pages((unsigned long)stack, stack_order(size));
}
