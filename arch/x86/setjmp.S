/*
 * arch/x86/setjmp.S - arch_setjmp/arch_longjmp (see asm/setjmp.h).
 * The buffer holds ebx, esi, edi, ebp, esp and eip, in that order.
 */
	.text
	.globl arch_setjmp
arch_setjmp:
	movl 4(%esp), %eax
	movl %ebx, 0(%eax)
	movl %esi, 4(%eax)
	movl %edi, 8(%eax)
	movl %ebp, 12(%eax)
	leal 4(%esp), %ecx		/* esp as it will be after our ret */
	movl %ecx, 16(%eax)
	movl (%esp), %ecx		/* return address */
	movl %ecx, 20(%eax)
	xorl %eax, %eax
	ret

	.globl arch_longjmp
arch_longjmp:
	movl 4(%esp), %edx
	movl 8(%esp), %eax
	testl %eax, %eax
	jnz 1f
	incl %eax			/* longjmp(env, 0) returns 1 */
1:	movl 0(%edx), %ebx
	movl 4(%edx), %esi
	movl 8(%edx), %edi
	movl 12(%edx), %ebp
	movl 16(%edx), %esp
	jmp *20(%edx)
