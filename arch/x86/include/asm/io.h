/*
 * asm/io.h - x86 port I/O.
 */
#ifndef ASM_IO_H
#define ASM_IO_H

#include "lib/types.h"

static inline void outb(u8 v, u16 port)
{
	__asm__ __volatile__("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(u16 v, u16 port)
{
	__asm__ __volatile__("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(u32 v, u16 port)
{
	__asm__ __volatile__("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;

	__asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* About a microsecond on a PC: a write to the unused POST port. */
static inline void io_delay(void)
{
	outb(0, 0x80);
}

#endif /* ASM_IO_H */
