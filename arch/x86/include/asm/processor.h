/*
 * asm/processor.h - CPU registers and instructions the kernel needs.
 */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include "lib/types.h"

#define X86_CR0_WP 0x00010000
#define X86_CR0_PG 0x80000000
#define X86_CR4_PSE 0x00000010
#define X86_CR4_PGE 0x00000080
#define X86_EFLAGS_IF 0x00000200

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

static inline void halt(void)
{
	__asm__ __volatile__("hlt" ::: "memory");
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/* rdtsc that does not run ahead of earlier instructions: for benchmarks. */
static inline u64 rdtsc_ordered(void)
{
	u32 lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(0));
}

#define DEFINE_READ_CR(n)                                                   \
	static inline u32 read_cr##n(void)                                  \
	{                                                                   \
		u32 v;                                                      \
		__asm__ __volatile__("mov %%cr" #n ", %0" : "=r"(v));      \
		return v;                                                   \
	}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline void write_cr3(u32 v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void write_cr4(u32 v)
{
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline void invlpg(unsigned long addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

static inline u32 read_eflags(void)
{
	u32 f;

	__asm__ __volatile__("pushfl; popl %0" : "=r"(f));
	return f;
}

#endif /* ASM_PROCESSOR_H */
