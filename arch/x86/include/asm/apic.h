/*
 * asm/apic.h - the local APIC: this CPU's interrupt controller, through
 * which CPUs interrupt each other (IPIs) and start each other
 * (INIT-SIPI-SIPI).
 */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include "lib/types.h"

#define APIC_DEFAULT_PHYS_BASE 0xFEE00000UL

#define APIC_ID 0x20
#define APIC_LVR 0x30
#define APIC_TASKPRI 0x80
#define APIC_EOI 0xB0
#define APIC_SPIV 0xF0
#define APIC_ESR 0x280
#define APIC_ICR 0x300
#define APIC_ICR2 0x310
#define APIC_LVTT 0x320
#define APIC_LVT0 0x350
#define APIC_LVT1 0x360
#define APIC_LVTERR 0x370
#define APIC_TMICT 0x380
#define APIC_TMCCT 0x390
#define APIC_TDCR 0x3E0

#define APIC_SPIV_ENABLE (1u << 8)
#define APIC_ICR_BUSY (1u << 12)
#define APIC_DM_FIXED 0x000u
#define APIC_DM_INIT 0x500u
#define APIC_DM_STARTUP 0x600u
#define APIC_INT_ASSERT 0x4000u
#define APIC_INT_LEVELTRIG 0x8000u
#define APIC_LVT_MASKED (1u << 16)
#define APIC_LVT_TIMER_PERIODIC (1u << 17)
#define APIC_TDR_DIV_16 0x3u

/* Interrupt vectors the kernel uses (32..255 are free for interrupts). */
#define ISA_IRQ_VECTOR(n) (0x30 + (n))	/* I/O APIC; the 8259s have 0x20-0x2F */
#define LOCAL_TIMER_VECTOR 0xEF
#define CALL_FUNCTION_VECTOR 0xFB
#define RESCHEDULE_VECTOR 0xFC
#define ERROR_APIC_VECTOR 0xFE
#define SPURIOUS_APIC_VECTOR 0xFF

void lapic_map(phys_addr_t base);
void lapic_setup_this_cpu(void);
unsigned int lapic_id(void);
void lapic_eoi(void);
/* Sends icr_low to the CPU with this APIC id; waits until it is accepted. */
int lapic_send_ipi(unsigned int apic_id, u32 icr_low);

/* Counts the timer makes in ms milliseconds (divide by 16), by the PIT. */
u32 lapic_timer_calibrate(unsigned int ms);
/* Interrupts on vector every count timer counts (divide by 16). */
void lapic_timer_periodic(u32 count, unsigned int vector);

#endif /* ASM_APIC_H */
