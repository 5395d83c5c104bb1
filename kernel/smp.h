/*
 * kernel/smp.h - CPU identity.  Until the SMP start-up exists, the boot CPU
 * is the only one and is CPU 0.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#ifndef NR_CPUS
#define NR_CPUS 16
#endif

static inline int smp_processor_id(void)
{
	return 0;
}

#endif /* KERNEL_SMP_H */
