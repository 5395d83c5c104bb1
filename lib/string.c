/*
 * lib/string.c - the kernel's memcpy, memset, strcmp and friends.
 *
 * Every function here carries a name that libc owns as well, which is why
 * they live in this one file: a user-space test build leaves it out and
 * gets libc's instead.  GCC emits calls to memcpy, memmove, memset and
 * memcmp on its own (structure copies, zeroing), so these must exist even
 * though lib/string.h maps the common ones to builtins.
 *
 * The bulk functions move a machine word at a time through may_alias
 * pointers (the kernel is not built with -fno-strict-aliasing), with
 * byte loops for the unaligned head and tail.  They are built without
 * loop-pattern distribution, which could otherwise turn those byte loops
 * back into calls to the very function being defined.
 */
#include "lib/string.h"

#include "lib/compiler.h"
#include "lib/ctype.h"

#undef memcpy
#undef memset
#undef memcmp
#undef strlen

typedef unsigned long __attribute__((__may_alias__)) word_t;
#define WORD_SIZE sizeof(word_t)

#if defined(__GNUC__) && !defined(__clang__)
#define __no_libcall \
	__attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define __no_libcall	/* clang never calls a mem* function from itself */
#endif

static inline bool word_aligned(const void *p)
{
	return ((uintptr_t)p & (WORD_SIZE - 1)) == 0;
}

__no_libcall void *memcpy(void *dest, const void *src, size_t n)
{
	u8 *d = dest;
	const u8 *s = src;

	if (word_aligned(d) && word_aligned(s)) {
		for (; n >= WORD_SIZE; n -= WORD_SIZE) {
			*(word_t *)d = *(const word_t *)s;
			d += WORD_SIZE;
			s += WORD_SIZE;
		}
	}
	while (n--)
		*d++ = *s++;
	return dest;
}

/* Copies forwards when dest is below src, backwards otherwise. */
__no_libcall void *memmove(void *dest, const void *src, size_t n)
{
	u8 *d = dest;
	const u8 *s = src;

	if (d == s || n == 0)
		return dest;
	if ((uintptr_t)d < (uintptr_t)s)
		return memcpy(dest, src, n);	/* forward copy is safe */

	d += n;
	s += n;
	if (word_aligned(d) && word_aligned(s)) {
		for (; n >= WORD_SIZE; n -= WORD_SIZE) {
			d -= WORD_SIZE;
			s -= WORD_SIZE;
			*(word_t *)d = *(const word_t *)s;
		}
	}
	while (n--)
		*--d = *--s;
	return dest;
}

__no_libcall void *memset(void *s, int c, size_t n)
{
	u8 *p = s;
	word_t pattern;

	while (n && !word_aligned(p)) {
		*p++ = (u8)c;
		n--;
	}
	pattern = (u8)c * (~0UL / 0xff);
	for (; n >= WORD_SIZE; n -= WORD_SIZE) {
		*(word_t *)p = pattern;
		p += WORD_SIZE;
	}
	while (n--)
		*p++ = (u8)c;
	return s;
}

__no_libcall int memcmp(const void *s1, const void *s2, size_t n)
{
	const u8 *a = s1, *b = s2;

	for (; n; a++, b++, n--)
		if (*a != *b)
			return *a - *b;
	return 0;
}

__no_libcall void *memchr(const void *s, int c, size_t n)
{
	const u8 *p = s;

	for (; n; p++, n--)
		if (*p == (u8)c)
			return (void *)p;
	return NULL;
}

__no_libcall size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t maxlen)
{
	size_t n = 0;

	while (n < maxlen && s[n])
		n++;
	return n;
}

/* Characters compare as unsigned char, as in Linux and ISO C. */
int strcmp(const char *s1, const char *s2)
{
	unsigned char c1, c2;

	do {
		c1 = *s1++;
		c2 = *s2++;
		if (c1 != c2)
			return c1 < c2 ? -1 : 1;
	} while (c1);
	return 0;
}

int strncmp(const char *s1, const char *s2, size_t n)
{
	unsigned char c1, c2;

	while (n--) {
		c1 = *s1++;
		c2 = *s2++;
		if (c1 != c2)
			return c1 < c2 ? -1 : 1;
		if (!c1)
			break;
	}
	return 0;
}

int strcasecmp(const char *s1, const char *s2)
{
	int c1, c2;

	do {
		c1 = tolower((unsigned char)*s1++);
		c2 = tolower((unsigned char)*s2++);
	} while (c1 == c2 && c1 != 0);
	return c1 - c2;
}

/* Searching for '\0' finds the terminator, as ISO C requires. */
char *strchr(const char *s, int c)
{
	for (; *s != (char)c; s++)
		if (*s == '\0')
			return NULL;
	return (char *)s;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do {
		if (*s == (char)c)
			last = s;
	} while (*s++);
	return (char *)last;
}

/* An empty needle matches at the start of the haystack. */
char *strstr(const char *haystack, const char *needle)
{
	size_t hlen, nlen = strlen(needle);

	if (!nlen)
		return (char *)haystack;
	hlen = strlen(haystack);
	while (hlen >= nlen) {
		if (!memcmp(haystack, needle, nlen))
			return (char *)haystack;
		haystack++;
		hlen--;
	}
	return NULL;
}

size_t strspn(const char *s, const char *accept)
{
	const char *p = s;

	while (*p && strchr(accept, *p))
		p++;
	return p - s;
}

size_t strcspn(const char *s, const char *reject)
{
	const char *p = s;

	while (*p && !strchr(reject, *p))
		p++;
	return p - s;
}

