/*
 * asm/setjmp.h (host) - the C library's setjmp/longjmp.
 */
#ifndef ASM_SETJMP_H
#define ASM_SETJMP_H

#include <setjmp.h>

struct arch_jmp_buf {
	jmp_buf buf;
};

#define arch_setjmp(env) setjmp((env)->buf)

static inline void __attribute__((noreturn))
arch_longjmp(struct arch_jmp_buf *env, int val)
{
	longjmp(env->buf, val);
}

#endif /* ASM_SETJMP_H */
