/*
 * kernel/percpu.h - per-CPU variables.
 *
 * DEFINE_PER_CPU(type, name) puts name in the per-CPU template section;
 * setup_per_cpu_areas() gives every possible CPU a copy (on its own NUMA
 * node) and records where in __per_cpu_offset[cpu]: the copy of var for
 * cpu is at &var + __per_cpu_offset[cpu].  Before that, every offset is 0
 * and the template itself serves CPU 0.
 *
 * per_cpu(var, cpu) reaches any CPU's copy; this_cpu_ptr(&var) and
 * this_cpu_read(var) reach the running CPU's, through the arch's segment
 * base (asm/percpu.h).  The caller must not migrate in between: with
 * interrupts or preemption off, or where there is nothing to migrate.
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
#define this_cpu_ptr(ptr)                                                   \
	((__typeof__(ptr))((unsigned long)(ptr) + this_cpu_offset()))
#define this_cpu_read(var) (*this_cpu_ptr(&(var)))

/* Copies the template for every possible CPU; needs the page allocator. */
void setup_per_cpu_areas(void);

/* A kernel stack of size bytes for cpu, on its node (mm/percpu.c). */
void *alloc_cpu_stack(int cpu, size_t size);
/* A kernel thread's stack for cpu, and back (mm/percpu.c). */
void *alloc_thread_stack(int cpu, size_t size);
void free_thread_stack(void *stack, size_t size);

#endif /* KERNEL_PERCPU_H */
