/*
 * lib/sprintf.h - formatted output into a buffer, with Linux's semantics.
 *
 * vsnprintf()/snprintf() return the length the whole output would have
 * had (so "ret >= size" means truncation); vscnprintf()/scnprintf()
 * return the number of characters actually stored.  All of them store a
 * terminating NUL whenever size > 0, and nothing at all when size == 0.
 * See lib/vsnprintf.c for the conversions understood.
 */
#ifndef LIB_SPRINTF_H
#define LIB_SPRINTF_H

#include "lib/compiler.h"
#include "lib/types.h"

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__printf(3, 0);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__printf(3, 0);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#endif /* LIB_SPRINTF_H */
