/*
 * arch/x86/pit.h - the 8254 PIT's channel 2 as a calibration stopwatch.
 */
#ifndef ARCH_X86_PIT_H
#define ARCH_X86_PIT_H

#include "lib/types.h"

#define PIT_TICK_RATE 1193182UL

/* Starts a one-shot count of ms milliseconds (at most 50) on channel 2. */
void pit_oneshot_start(unsigned int ms);
/* True once it has run out. */
bool pit_oneshot_expired(void);

#endif
