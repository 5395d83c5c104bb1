/*
 * asm/percpu.h - reaching this CPU's per-CPU data on x86: every CPU keeps
 * a segment in %fs whose base is its per-CPU offset, so "%fs:var" is its
 * own copy of var in one instruction, with no CPU number to look up (and
 * so no window in which the CPU could change under us).
 */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

/* Reads a 32-bit per-CPU variable of this CPU. */
#define arch_this_cpu_read_4(var)                                           \
	({                                                                   \
		__typeof__(var) __v;                                         \
		__asm__ __volatile__("movl %%fs:%1, %0"                      \
				     : "=r"(__v)                             \
				     : "m"(var));                            \
		__v;                                                         \
	})


/* Writes a 32-bit per-CPU variable of this CPU. */
#define arch_this_cpu_write_4(var, val)                                     \
	__asm__ __volatile__("movl %1, %%fs:%0"                              \
			     : "=m"(var)                                     \
			     : "ri"((__typeof__(var))(val)) : "memory")

/* Adds to a 32-bit per-CPU variable of this CPU: one instruction, so an
 * interrupt sees it either before or after, never half done. */
#define arch_this_cpu_add_4(var, val)                                       \
	__asm__ __volatile__("addl %1, %%fs:%0"                              \
			     : "+m"(var)                                     \
			     : "ri"((__typeof__(var))(val)) : "memory")

#endif /* ASM_PERCPU_H */
