/*
 * kernel/kallsyms.h - addresses to function names, for call traces.
 */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include "lib/types.h"

/*
 * Writes "name+0xoff/0xsize" for addr into buf; returns false (and
 * writes nothing) when addr is in no known function.
 */
bool kallsyms_lookup(unsigned long addr, char *buf, size_t len);

#endif
