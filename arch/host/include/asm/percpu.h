/*
 * asm/percpu.h (host) - each thread knows its CPU number; its per-CPU
 * data is the template's address plus that CPU's offset.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

/*
 * The thread variables that stand for a CPU's registers (its number, its
 * interrupt flag, its pending interrupts): defined in the program itself,
 * so each is one %fs access (local-exec), as x86 reads a per-CPU
 * variable with one %fs or %gs access - not two (initial-exec: the
 * variable's offset loaded first).
 */
#define __host_cpu_reg __attribute__((tls_model("local-exec")))

extern __thread int host_cpu __host_cpu_reg;
extern unsigned long __per_cpu_offset[];

#define __host_this_cpu(var)                                                \
	(*(__typeof__(&(var)))((unsigned long)&(var) +                      \
			       __per_cpu_offset[host_cpu]))

#ifndef __SANITIZE_THREAD__
#define arch_this_cpu_read_4(var) __host_this_cpu(var)
#define arch_this_cpu_write_4(var, val) (__host_this_cpu(var) = (val))
#define arch_this_cpu_add_4(var, val) (__host_this_cpu(var) += (val))
#else
/*
 * For ThreadSanitizer, relaxed atomics: x86's one instruction, which an
 * interrupt on this CPU lands before or after (arch/host/tsan.c).
 */
#define arch_this_cpu_read_4(var)                                           \
	__atomic_load_n(&__host_this_cpu(var), __ATOMIC_RELAXED)
#define arch_this_cpu_write_4(var, val)                                     \
	__atomic_store_n(&__host_this_cpu(var), (val), __ATOMIC_RELAXED)
#define arch_this_cpu_add_4(var, val)                                       \
	__atomic_fetch_add(&__host_this_cpu(var), (val), __ATOMIC_RELAXED)
#endif

/*
 * The CPU number without the per-CPU area: the thread's own, one load, as
 * x86 reads cpu_number with one %fs access.  They are equal in every
 * thread: a CPU's thread has its number, any other thread 0, and CPU 0's
 * cpu_number (and the template's, before the areas exist) is 0.
 */
#define arch_raw_smp_processor_id() host_cpu

#endif /* ASM_PERCPU_H */
