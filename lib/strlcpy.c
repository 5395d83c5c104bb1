/*
 * lib/strlcpy.c - strlcpy() and strlcat(), the BSD bounded string copies.
 *
 * Kept apart from lib/string.c because the user-space build needs them
 * too: glibc before 2.38 has neither, while it has everything else that
 * lib/string.c defines.
 */
#include "lib/string.h"

size_t strlcpy(char *dest, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len >= size ? size - 1 : len;

		memcpy(dest, src, n);
		dest[n] = '\0';
	}
	return len;
}

/*
 * Linux BUG()s when dest is not terminated within size; this returns
 * size + strlen(src) without touching dest instead, as the BSDs do, so
 * that lib/ stays free of kernel dependencies.
 */
size_t strlcat(char *dest, const char *src, size_t size)
{
	size_t dlen = strnlen(dest, size);

	if (dlen == size)
		return size + strlen(src);
	return dlen + strlcpy(dest + dlen, src, size - dlen);
}
