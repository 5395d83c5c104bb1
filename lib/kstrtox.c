/*
 * lib/kstrtox.c - string to number conversion (Linux's lib/kstrtox.c,
 * the simple_strto*() of lib/vsprintf.c and memparse() of lib/cmdline.c).
 *
 * All of them share one digit loop, parse_integer(), which never stops on
 * overflow: it wraps and raises PARSE_OVERFLOW in its result, so that the
 * simple_* functions can wrap as Linux's do while the strict kstrto*
 * turn the flag into -ERANGE.  Digits above 'f' are never digits, so
 * bases above 16 behave like 16 with fewer digits accepted.
 */
#include "lib/kstrtox.h"

#include "lib/compiler.h"
#include "lib/ctype.h"
#include "lib/errno.h"

#define PARSE_OVERFLOW (1U << 31)

/* Resolves base 0 and skips a "0x" prefix where the base allows one. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0') {
			if (tolower((unsigned char)s[1]) == 'x' &&
			    isxdigit((unsigned char)s[2]))
				*base = 16;
			else
				*base = 8;
		} else {
			*base = 10;
		}
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

/*
 * Returns the number of digits consumed, with PARSE_OVERFLOW set if the
 * value wrapped; *res gets the (wrapped) value.
 */
static unsigned int parse_integer(const char *s, unsigned int base,
				  unsigned long long *res)
{
	unsigned long long value = 0;
	unsigned int rv = 0;

	for (;; s++) {
		unsigned int c = (unsigned char)*s;
		unsigned int lc = c | 0x20;	/* lowercase, if a letter */
		unsigned int digit;

		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			digit = lc - 'a' + 10;
		else
			break;
		if (digit >= base)
			break;
		/* Only a value with one of its top bits set can overflow. */
		if (unlikely(value & (~0ULL << 60))) {
			if (value > (~0ULL - digit) / base)
				rv |= PARSE_OVERFLOW;
		}
		value = value * base + digit;
		rv++;
	}
	*res = value;
	return rv;
}

unsigned long long simple_strtoull(const char *cp, char **endp,
				   unsigned int base)
{
	unsigned long long result;
	unsigned int rv;

	cp = fixup_radix(cp, &base);
	rv = parse_integer(cp, base, &result);
	cp += rv & ~PARSE_OVERFLOW;
	if (endp)
		*endp = (char *)cp;
	return result;
}

unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	return simple_strtoull(cp, endp, base);
}

long simple_strtol(const char *cp, char **endp, unsigned int base)
{
	if (*cp == '-')
		return -simple_strtoul(cp + 1, endp, base);
	return simple_strtoul(cp, endp, base);
}

/* The strict parser behind every kstrto*(): no sign handling here. */
static int kstrtoull_nosign(const char *s, unsigned int base,
			    unsigned long long *res)
{
	unsigned long long value;
	unsigned int rv;

	s = fixup_radix(s, &base);
	rv = parse_integer(s, base, &value);
	if (rv & PARSE_OVERFLOW)
		return -ERANGE;
	if (rv == 0)
		return -EINVAL;
	s += rv;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = value;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return kstrtoull_nosign(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long tmp;
	int rv;

	if (s[0] == '-') {
		rv = kstrtoull_nosign(s + 1, base, &tmp);
		if (rv < 0)
			return rv;
		/* -tmp must be <= 0; 2^63 still fits as LLONG_MIN */
		if (tmp > (unsigned long long)__LONG_LONG_MAX__ + 1)
			return -ERANGE;
		*res = (long long)-tmp;
	} else {
		rv = kstrtoull(s, base, &tmp);
		if (rv < 0)
			return rv;
		if (tmp > (unsigned long long)__LONG_LONG_MAX__)
			return -ERANGE;
		*res = (long long)tmp;
	}
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long tmp;
	int rv;

	rv = kstrtoull(s, base, &tmp);
	if (rv < 0)
		return rv;
	if (tmp != (unsigned int)tmp)
		return -ERANGE;
	*res = (unsigned int)tmp;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long tmp;
	int rv;

	rv = kstrtoll(s, base, &tmp);
	if (rv < 0)
		return rv;
	if (tmp != (int)tmp)
		return -ERANGE;
	*res = (int)tmp;
	return 0;
}

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;

	switch (s[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1':
		*res = true;
		return 0;
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0':
		*res = false;
		return 0;
	case 'o':
	case 'O':
		switch (s[1]) {
		case 'n':
		case 'N':
			*res = true;
			return 0;
		case 'f':
		case 'F':
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}

unsigned long long memparse(const char *ptr, char **retptr)
{
	char *endptr;
	unsigned long long ret = simple_strtoull(ptr, &endptr, 0);
	unsigned int shift = 0;

	switch (*endptr) {
	case 'E':
	case 'e':
		shift += 10;
		__attribute__((__fallthrough__));
	case 'P':
	case 'p':
		shift += 10;
		__attribute__((__fallthrough__));
	case 'T':
	case 't':
		shift += 10;
		__attribute__((__fallthrough__));
	case 'G':
	case 'g':
		shift += 10;
		__attribute__((__fallthrough__));
	case 'M':
	case 'm':
		shift += 10;
		__attribute__((__fallthrough__));
	case 'K':
	case 'k':
		shift += 10;
		endptr++;
		break;
	default:
		break;
	}
	if (retptr)
		*retptr = endptr;
	return ret << shift;
}
