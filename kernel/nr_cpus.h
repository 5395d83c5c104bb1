/*
 * kernel/nr_cpus.h - the most CPUs this build supports (a build setting:
 * make NR_CPUS=N; default 16).  Usable from assembly.
 */
#ifndef KERNEL_NR_CPUS_H
#define KERNEL_NR_CPUS_H

#ifndef NR_CPUS
#define NR_CPUS 16
#endif

#endif
