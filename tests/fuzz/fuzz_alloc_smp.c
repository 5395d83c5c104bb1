/*
 * tests/fuzz/fuzz_alloc_smp.c - fuzz_alloc with two CPUs (threads of the
 * host build): the steps are dealt to both, so blocks and objects one CPU
 * allocates the other frees, through the per-CPU page lists and slab
 * arrays (the rules: fuzz_alloc.c, run_steps).
 */
#define FUZZ_CPUS 2
#include "fuzz_alloc.c"
