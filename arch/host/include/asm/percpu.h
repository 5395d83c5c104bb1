/*
 * asm/percpu.h (host) - each thread knows its CPU number; its per-CPU
 * data is the template's address plus that CPU's offset.
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

extern __thread int host_cpu;
extern unsigned long __per_cpu_offset[];

#define arch_this_cpu_read_4(var)                                           \
	(*(__typeof__(&(var)))((unsigned long)&(var) +                      \
			       __per_cpu_offset[host_cpu]))

#define arch_this_cpu_write_4(var, val)                                     \
	(*(__typeof__(&(var)))((unsigned long)&(var) +                      \
			       __per_cpu_offset[host_cpu]) = (val))
#define arch_this_cpu_add_4(var, val)                                       \
	(*(__typeof__(&(var)))((unsigned long)&(var) +                      \
			       __per_cpu_offset[host_cpu]) += (val))

#endif /* ASM_PERCPU_H */
