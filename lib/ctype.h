/*
 * lib/ctype.h - character classification for the C (ASCII) locale.
 *
 * Every function accepts any int: values outside 0..127 (EOF, bytes of
 * a signed char >= 0x80) simply classify as nothing and are returned
 * unchanged by tolower()/toupper().  Unlike Linux's table-driven ctype,
 * bytes 0x80..0xff are not Latin-1 letters here: the kernel only ever
 * parses ASCII (command line, format strings).
 *
 * A hosted (user-space test) build takes these names from libc, whose
 * C-locale behaviour is the same: defining them again here would clash
 * with <ctype.h> in any test that includes both.
 */
#ifndef LIB_CTYPE_H
#define LIB_CTYPE_H

#if __STDC_HOSTED__

#include <ctype.h>

#else

static inline int isdigit(int c)
{
	return c >= '0' && c <= '9';
}

static inline int isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static inline int islower(int c)
{
	return c >= 'a' && c <= 'z';
}

static inline int isalpha(int c)
{
	return isupper(c) || islower(c);
}

static inline int isalnum(int c)
{
	return isalpha(c) || isdigit(c);
}

static inline int isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* ' ', '\t', '\n', '\v', '\f', '\r' */
static inline int isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline int isprint(int c)
{
	return c >= ' ' && c <= '~';
}

static inline int tolower(int c)
{
	return isupper(c) ? c - 'A' + 'a' : c;
}

static inline int toupper(int c)
{
	return islower(c) ? c - 'a' + 'A' : c;
}

#endif /* __STDC_HOSTED__ */

#endif /* LIB_CTYPE_H */
