/*
 * kernel/percpu.h - per-CPU variables.
 *
 * DEFINE_PER_CPU(type, name) puts name in the per-CPU template section;
 * setup_per_cpu_areas() gives every possible CPU a copy (on its own NUMA
 * node) and records where in __per_cpu_offset[cpu]: the copy of var for
 * cpu is at &var + __per_cpu_offset[cpu].  Before that, every offset is 0
 * and the template itself serves CPU 0.
 *
 * per_cpu(var, cpu) reaches any CPU's copy; this_cpu_ptr(&var) reaches
 * the running CPU's, through the arch's segment base (asm/percpu.h).  A
 * pointer to this CPU's copy is only worth having where nothing else on
 * this CPU can run in between (preemption or interrupts off), so
 * this_cpu_ptr() is checked like smp_processor_id() (kernel/smp.h), and
 * raw_cpu_ptr() is the unchecked form for code that knows better.
 *
 * The this_cpu operations on a 32-bit variable are one instruction
 * through the segment base ("addl $1, %fs:var"): an interrupt or a
 * preemption lands before or after it, never inside, so they are safe in
 * preemptible code, as in Linux (2.6.33):
 *	this_cpu_read(var)	this_cpu_write(var, v)
 *	this_cpu_add(var, n)	this_cpu_sub(var, n)
 *	this_cpu_inc(var)	this_cpu_dec(var)
 * They stay on the CPU the task runs on (tasks never migrate here), but a
 * sequence of them is not atomic: a counter pair that must agree still
 * needs preemption or interrupts off around both.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "asm/percpu.h"
#include "kernel/nr_cpus.h"
#include "lib/compiler.h"

#define DEFINE_PER_CPU(type, name)                                          \
	__section("percpu_data") __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name

extern unsigned long __per_cpu_offset[NR_CPUS];
DECLARE_PER_CPU(unsigned long, this_cpu_off);

#define per_cpu_ptr(ptr, cpu)                                               \
	((__typeof__(ptr))((unsigned long)(ptr) + __per_cpu_offset[cpu]))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), (cpu)))

#define this_cpu_offset() arch_this_cpu_read_4(this_cpu_off)
#define raw_cpu_ptr(ptr)                                                    \
	((__typeof__(ptr))((unsigned long)(ptr) + this_cpu_offset()))
/* __check_preemptible() is kernel/smp.h's: its users include it. */
#define this_cpu_ptr(ptr)                                                   \
	({                                                                   \
		__check_preemptible("this_cpu_ptr");                         \
		raw_cpu_ptr(ptr);                                            \
	})

#define __this_cpu_size_ok(var)                                             \
	BUILD_BUG_ON(sizeof(var) != 4)
#define this_cpu_read(var)                                                  \
	({                                                                   \
		__this_cpu_size_ok(var);                                     \
		arch_this_cpu_read_4(var);                                   \
	})
#define this_cpu_write(var, val)                                            \
	do {                                                                 \
		__this_cpu_size_ok(var);                                     \
		arch_this_cpu_write_4(var, val);                             \
	} while (0)
#define this_cpu_add(var, n)                                                \
	do {                                                                 \
		__this_cpu_size_ok(var);                                     \
		arch_this_cpu_add_4(var, n);                                 \
	} while (0)
#define this_cpu_sub(var, n) this_cpu_add(var, -(__typeof__(var))(n))
#define this_cpu_inc(var) this_cpu_add(var, 1)
#define this_cpu_dec(var) this_cpu_add(var, -1)

/* Copies the template for every possible CPU; needs the page allocator. */
void setup_per_cpu_areas(void);

/* A kernel stack of size bytes for cpu, on its node (mm/percpu.c). */
void *alloc_cpu_stack(int cpu, size_t size);
/* A kernel thread's stack for cpu, and back (mm/percpu.c). */
void *alloc_thread_stack(int cpu, size_t size);
void free_thread_stack(void *stack, size_t size);

#endif /* KERNEL_PERCPU_H */
