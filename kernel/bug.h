/*
 * kernel/bug.h - panic, BUG and WARN.
 *
 * BUG_ON(cond) is for states the code has proven impossible: it prints
 * "kernel BUG at file:line!" with an oops and stops the kernel with the
 * failure status.  WARN_ON(cond) reports and carries on; it returns cond so
 * that callers can write "if (WARN_ON(x)) return".  panic() prints Linux's
 * "Kernel panic - not syncing: ..." and stops the kernel with the failure
 * status (QEMU's isa-debug-exit, then halt).
 */
#ifndef KERNEL_BUG_H
#define KERNEL_BUG_H

#include "lib/compiler.h"

void panic(const char *fmt, ...) __printf(1, 2) __noreturn;
void __bug(const char *file, int line) __noreturn;
void __warn(const char *file, int line, const char *cond);
void dump_stack(void);
/*
 * The panic context: one function that panic() calls after its "Kernel
 * panic" line, to say what the kernel was doing (the self-test framework
 * names the case that was running).  It runs on the panicking CPU with
 * interrupts off and may only printk.  NULL removes it.
 */
void set_panic_context(void (*fn)(void));
/* WARN()s so far: a test can check that an action warned, or did not. */
unsigned int nr_warnings(void);

#define BUG() __bug(__FILE__, __LINE__)
#define BUG_ON(cond)                                                        \
	do {                                                                 \
		if (unlikely(cond))                                          \
			BUG();                                               \
	} while (0)

#define WARN_ON(cond)                                                       \
	({                                                                   \
		bool __w = !!(cond);                                         \
		if (unlikely(__w))                                           \
			__warn(__FILE__, __LINE__, #cond);                   \
		unlikely(__w);                                               \
	})

#define WARN_ON_ONCE(cond)                                                  \
	({                                                                   \
		static bool __warned;                                        \
		bool __w = !!(cond);                                         \
		if (unlikely(__w) && !__warned) {                            \
			__warned = true;                                     \
			__warn(__FILE__, __LINE__, #cond);                   \
		}                                                            \
		unlikely(__w);                                               \
	})

#endif /* KERNEL_BUG_H */
