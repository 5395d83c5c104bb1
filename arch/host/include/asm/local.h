/*
 * asm/local.h (host) - counters that only their own CPU updates.  A host
 * CPU takes "interrupts" only where the code enables them or spins
 * (arch/host/irq.c), never in the middle of an add, so a plain add is
 * what local_add() promises: indivisible for this CPU.
 */
#ifndef ASM_LOCAL_H
#define ASM_LOCAL_H

static inline void local_add(long i, long *l)
{
#ifndef __SANITIZE_THREAD__
	*(volatile long *)l += i;
#else
	/* For ThreadSanitizer a relaxed atomic, as the this_cpu adds are. */
	__atomic_fetch_add(l, i, __ATOMIC_RELAXED);
#endif
}

#endif /* ASM_LOCAL_H */
