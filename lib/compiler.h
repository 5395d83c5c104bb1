/*
 * lib/compiler.h - compiler attributes and the small macros that every
 * C file of mm86 may use (container_of, ARRAY_SIZE, BUILD_BUG_ON, ...).
 */
#ifndef LIB_COMPILER_H
#define LIB_COMPILER_H

#include "lib/types.h"

#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __section(s) __attribute__((section(s)))
#define __used __attribute__((used))
#define __unused __attribute__((unused))
#define __noreturn __attribute__((noreturn))
#define __noinline __attribute__((noinline))
/* The address the current function returns to (Linux's _RET_IP_). */
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __weak __attribute__((weak))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define barrier() __asm__ __volatile__("" ::: "memory")

/*
 * READ_ONCE/WRITE_ONCE: one load or store of a word that another CPU (or
 * an interrupt) may change or read meanwhile, neither torn nor merged
 * nor repeated by the compiler.  They mark an access that races by
 * design, so ThreadSanitizer (the host-tsan build, arch/host/tsan.c)
 * must see them as the atomic accesses they are: relaxed __atomic ones
 * there (its volatile accesses are plain ones).
 *
 * data_race(expr) (Linux 5.8): accesses whose race is deliberate and
 * harmless - a statistic, a hint checked again under the lock - and that
 * need not even be single ones.  The race detector does not look at them.
 */
#ifndef __SANITIZE_THREAD__
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define data_race(expr) (expr)
#else
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#define data_race(expr)                                                     \
	({                                                                   \
		__tsan_ignore_thread_begin();                                \
		__auto_type __v = (expr);                                    \
		__tsan_ignore_thread_end();                                  \
		__v;                                                         \
	})
#endif

/*
 * Linux's one-way barriers for message passing: what was written before
 * a store-release is seen by whoever sees the store with a load-acquire.
 * (x86 orders plain loads and stores so already; the compiler and the
 * race detector must be told.)
 */
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Fails the build when cond is true (a compile-time BUG_ON). */
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define clamp(v, lo, hi) min(max(v, lo), hi)

/* Power-of-two alignment helpers; a must be a power of two. */
#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)

#endif /* LIB_COMPILER_H */
