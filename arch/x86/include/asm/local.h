/*
 * asm/local.h - counters that only their own CPU updates (Linux's
 * local_t): an add that an interrupt on this CPU cannot split, without
 * the lock prefix a counter shared between CPUs would need.  One addl to
 * memory is one instruction, and interrupts come between instructions.
 */
#ifndef ASM_LOCAL_H
#define ASM_LOCAL_H

static inline void local_add(long i, long *l)
{
	__asm__ __volatile__("addl %1, %0" : "+m"(*l) : "ir"(i));
}

#endif /* ASM_LOCAL_H */
