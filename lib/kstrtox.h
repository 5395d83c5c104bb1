/*
 * lib/kstrtox.h - string to number conversion, with Linux's semantics.
 *
 * kstrto*() are the strict ones: the whole string must be a number (one
 * trailing newline allowed), a leading '+' is accepted (and '-' by the
 * signed ones), no leading whitespace; they return 0, -EINVAL for a
 * malformed string or -ERANGE when the value does not fit, and leave *res
 * untouched on error.  simple_strto*() parse as far as they can, report
 * where they stopped through endp and silently wrap on overflow.
 *
 * Base 0 picks 16 for "0x"/"0X" followed by a hex digit, 8 for a leading
 * "0" and 10 otherwise; base 16 skips an optional "0x" prefix.
 */
#ifndef LIB_KSTRTOX_H
#define LIB_KSTRTOX_H

#include "lib/types.h"

unsigned long long simple_strtoull(const char *cp, char **endp,
				   unsigned int base);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);
long simple_strtol(const char *cp, char **endp, unsigned int base);

int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtoll(const char *s, unsigned int base, long long *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtoint(const char *s, unsigned int base, int *res);

/*
 * Looks only at the first character(s): y Y t T 1 and "on" are true,
 * n N f F 0 and "off" (any case) false; anything else is -EINVAL.
 */
int kstrtobool(const char *s, bool *res);

/*
 * memparse - parse a size with an optional binary suffix.
 *
 * A number as simple_strtoull(.., 0) reads it ("0x" hex, leading 0
 * octal), times 2^10/2^20/2^30/2^40/2^50/2^60 for a K/M/G/T/P/E suffix
 * in either case.  *retptr (if not NULL) points after the suffix.
 */
unsigned long long memparse(const char *ptr, char **retptr);

#endif /* LIB_KSTRTOX_H */
