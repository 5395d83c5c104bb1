/*
 * arch/x86/entry.S - the 256 interrupt entry stubs and their common path.
 *
 * Vectors 0-31 are the CPU's exceptions; 32-255 are interrupts (the local
 * APIC's timer, inter-processor interrupts, I/O APIC lines).  Each stub
 * makes the stack look the same whatever the CPU pushed: an error code (a
 * 0 for vectors without one), then the vector.  The common path saves
 * every register into a struct pt_regs (asm/ptrace.h), loads the kernel
 * data segments (and the CPU's per-CPU segment in %fs) and calls
 * do_trap(regs).  When do_trap returns, the registers are restored and the
 * trap returns with iret.
 */
#include "arch/x86/desc.h"
#include "asm/segment.h"

.macro TRAP_NOERR vec
	.align TRAP_STUB_SIZE
	pushl $0
	pushl $\vec
	jmp trap_common
.endm

.macro TRAP_ERR vec
	.align TRAP_STUB_SIZE
	pushl $\vec
	jmp trap_common
.endm

	.text
	.globl trap_stubs
	.align TRAP_STUB_SIZE
trap_stubs:
	TRAP_NOERR 0
	TRAP_NOERR 1
	TRAP_NOERR 2
	TRAP_NOERR 3
	TRAP_NOERR 4
	TRAP_NOERR 5
	TRAP_NOERR 6
	TRAP_NOERR 7
	TRAP_ERR 8
	TRAP_NOERR 9
	TRAP_ERR 10
	TRAP_ERR 11
	TRAP_ERR 12
	TRAP_ERR 13
	TRAP_ERR 14
	TRAP_NOERR 15
	TRAP_NOERR 16
	TRAP_ERR 17
	TRAP_NOERR 18
	TRAP_NOERR 19
	TRAP_NOERR 20
	TRAP_ERR 21
	TRAP_NOERR 22
	TRAP_NOERR 23
	TRAP_NOERR 24
	TRAP_NOERR 25
	TRAP_NOERR 26
	TRAP_NOERR 27
	TRAP_NOERR 28
	TRAP_ERR 29
	TRAP_ERR 30
	TRAP_NOERR 31
	.set vec, 32
	.rept 256 - 32
	TRAP_NOERR vec
	.set vec, vec + 1
	.endr
	/* Fails to assemble ("moving .org backwards") if a stub outgrew its slot. */
	.org trap_stubs + 256 * TRAP_STUB_SIZE
	.globl trap_stubs_end
trap_stubs_end:

trap_common:
	pushal
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	movl $__KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	cld
	/* %fs (this CPU's per-CPU segment) is never changed by the kernel,
	 * so the interrupted value is already right. */
	pushl %esp			/* struct pt_regs * */
	call do_trap
	addl $4, %esp
	popl %gs
	popl %fs
	popl %es
	popl %ds
	popal
	addl $8, %esp			/* vector, error code */
	iret
