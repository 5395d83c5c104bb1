/*
 * arch/x86/switch.S - arch_switch_to(prev, next): the context switch.
 *
 * Pushes the registers the C calling convention says a callee must keep
 * (%ebp %ebx %esi %edi), saves %esp in prev, loads next's, pops next's
 * four and returns - into schedule() where next once called us, or, for a
 * thread that never ran, into the entry function arch_thread_init() left
 * on its new stack.  Interrupts are off (the run-queue lock is held); the
 * flags, segments and %fs (per CPU, not per task) need no saving.
 */
	.text
	.globl arch_switch_to
	.type arch_switch_to, @function
arch_switch_to:
	movl 4(%esp), %eax		/* prev */
	movl 8(%esp), %edx		/* next */
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)
	movl (%edx), %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size arch_switch_to, . - arch_switch_to
