/*
 * kernel/percpu.c - the per-CPU bookkeeping every CPU reads: where each
 * CPU's copy of the template is (__per_cpu_offset), and, in the template
 * itself, a CPU's own offset and number.  All zero until mm/percpu.c makes
 * the copies, so that before then every CPU's accesses land in the
 * template, which is CPU 0's.
 */
#include "kernel/percpu.h"
#include "kernel/smp.h"

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);
