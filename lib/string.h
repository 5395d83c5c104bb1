/*
 * lib/string.h - memory and string functions with Linux's semantics.
 *
 * The names that libc also owns (mem*, str* below, strlcpy/strlcat) are
 * defined in lib/string.c, which a user-space test build leaves out so
 * that libc's (and the sanitizers' interceptors) are used instead; the
 * declarations here are compatible with libc's.  strscpy() and
 * memchr_inv() exist only in the kernel world, so they are static inline
 * here and work in both builds without lib/string.c.  (glibc gained
 * strlcpy/strlcat only in 2.38: a hosted build that needs them on an
 * older glibc links lib/string.c's.)
 *
 * The kernel is built -ffreestanding, which turns GCC's builtins off; the
 * macros below give them back for memcpy/memset/memcmp/strlen so that
 * small constant-size calls are inlined.  Calls GCC cannot inline still
 * reach the real functions in lib/string.c.
 */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include "lib/errno.h"
#include "lib/types.h"

#if __STDC_HOSTED__
#include <string.h>	/* first, so that its declarations are the ones seen */
#endif

void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *s1, const void *s2, size_t n);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *s1, const char *s2);
int strncmp(const char *s1, const char *s2, size_t n);
int strcasecmp(const char *s1, const char *s2);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);

/*
 * strlcpy() and strlcat() return the length they tried to create
 * (strlen(src), resp. the initial length of dest plus strlen(src)), so
 * truncation happened when the result is >= size.  Prefer strscpy().
 */
size_t strlcpy(char *dest, const char *src, size_t size);
size_t strlcat(char *dest, const char *src, size_t size);

#if !__STDC_HOSTED__
#define memcpy(d, s, n) __builtin_memcpy(d, s, n)
#define memset(s, c, n) __builtin_memset(s, c, n)
#define memcmp(a, b, n) __builtin_memcmp(a, b, n)
#define strlen(s) __builtin_strlen(s)
#endif

/*
 * strscpy - copy a C string into a sized buffer.
 *
 * Copies at most count - 1 characters and always NUL-terminates when
 * count > 0.  Returns the number of characters copied (not counting the
 * NUL), or -E2BIG when src did not fit (count == 0 included), in which
 * case dest holds the truncated string.
 *
 * (Linux returns ssize_t; lib/types.h has none, and long has the same
 * width on every target.)
 */
static inline long strscpy(char *dest, const char *src, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		char c = src[i];

		dest[i] = c;
		if (c == '\0')
			return (long)i;
	}
	/* No NUL within count bytes: cut the copy short by one. */
	if (count)
		dest[count - 1] = '\0';
	return -E2BIG;
}

/*
 * memchr_inv - find the first byte that is NOT c.
 *
 * Returns a pointer to the first byte in [start, start + bytes) that
 * differs from (u8)c, or NULL when all of them equal it.  The poison
 * checkers scan whole pages with it, so the aligned middle part is
 * compared a word at a time.
 */
static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	typedef unsigned long __attribute__((__may_alias__)) word_t;
	const u8 *p = start;
	u8 value = (u8)c;
	unsigned long pattern;

	while (bytes && ((uintptr_t)p & (sizeof(word_t) - 1))) {
		if (*p != value)
			return (void *)p;
		p++;
		bytes--;
	}

	pattern = value * (~0UL / 0xff);	/* the byte in every lane */
	while (bytes >= sizeof(word_t)) {
		if (*(const word_t *)p != pattern)
			break;		/* the byte loop below finds it */
		p += sizeof(word_t);
		bytes -= sizeof(word_t);
	}

	for (; bytes; p++, bytes--)
		if (*p != value)
			return (void *)p;
	return NULL;
}

#endif /* LIB_STRING_H */
