/*
 * arch/x86/pit.c - the 8254 PIT's channel 2, used to calibrate the TSC
 * and the local APIC timer against a clock of known rate (1193182 Hz).
 *
 * Channel 2 is gated by bit 0 of port 0x61 and its output can be read
 * back in bit 5 of the same port, so it can be polled with interrupts
 * off and without any interrupt routing (Linux's pit_calibrate_tsc).
 */
#include "arch/x86/pit.h"
#include "asm/io.h"
#include "kernel/bug.h"

void pit_oneshot_start(unsigned int ms)
{
	unsigned long latch = PIT_TICK_RATE * ms / 1000;

	BUG_ON(ms == 0 || latch > 0xffff);
	/* Gate high, speaker off; channel 2, lobyte/hibyte, mode 0. */
	outb((inb(0x61) & ~0x02) | 0x01, 0x61);
	outb(0xb0, 0x43);
	outb(latch & 0xff, 0x42);
	outb(latch >> 8, 0x42);
}

bool pit_oneshot_expired(void)
{
	return inb(0x61) & 0x20;
}
