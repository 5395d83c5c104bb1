/*
 * lib/vsnprintf.c - the kernel's printf engine.
 *
 * Understood: %d %i %u %x %X %o %p %s %c %%, length modifiers hh h l ll z t
 * (and their Linux spellings L q Z j), flags 0 - + space #, and field
 * width and precision, either of which may be '*'.  A conversion it does
 * not know (%f, %n, ...) is copied to the output literally, from the '%'
 * up to and including that character, and consumes no argument.
 *
 * Numbers follow Linux's number(), which differs from ISO C in three
 * corners: "%#x" of 0 prints "0x0", "%.0d" of 0 prints "0", and the '0'
 * flag still pads when a precision is given ("%05.3d" of 7 is "00007").
 * %p prints "0x" and the pointer's full width in hex digits (8 on i386):
 * a teaching kernel wants real addresses, not Linux's hashed ones.
 *
 * Invariants: output goes through emit(), which stores a character only
 * while it fits and counts every one, so the count is the untruncated
 * length; the NUL is placed last, over the final stored character when
 * the output was cut.  64-bit numbers are converted with at most two
 * 64-bit divisions (by 10^9), the rest in 32-bit arithmetic.
 */
#include "lib/sprintf.h"

#include "lib/compiler.h"
#include "lib/ctype.h"
#include "lib/string.h"

/* Linux's limits: a silly width must not overflow the int return value. */
#define FIELD_WIDTH_MAX ((1 << 23) - 1)
#define PRECISION_MAX ((1 << 15) - 1)

#define ZEROPAD 1	/* pad with zero, not space */
#define SIGN 2		/* signed conversion */
#define PLUS 4		/* show plus */
#define SPACE 8		/* space if plus */
#define LEFT 16		/* left justified */
#define SMALL 32	/* use lowercase in hex (must be 32 == 0x20) */
#define SPECIAL 64	/* prefix hex with "0x", octal with "0" */

struct printf_spec {
	unsigned int flags;
	int field_width;	/* -1: none */
	int precision;		/* -1: none */
	unsigned int base;
};

struct outbuf {
	char *buf;
	size_t size;
	size_t len;		/* characters produced so far, stored or not */
};

static void emit(struct outbuf *o, char c)
{
	if (o->len < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void emit_repeat(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		emit(o, c);
}

static const char hex_digits[] = "0123456789ABCDEF";

/* Writes the digits of num in reverse into tmp; returns how many. */
static int put_digits(char *tmp, u64 num, unsigned int base, char locase)
{
	int i = 0;
	u32 n32;

	if (base == 10) {
		/* Peel off nine digits per 64-bit division. */
		while (num >> 32) {
			u64 q = num / 1000000000U;
			u32 chunk = (u32)(num - q * 1000000000U);
			int k;

			for (k = 0; k < 9; k++) {
				tmp[i++] = '0' + chunk % 10;
				chunk /= 10;
			}
			num = q;
		}
		n32 = (u32)num;
		do {
			tmp[i++] = '0' + n32 % 10;
			n32 /= 10;
		} while (n32);
	} else {
		unsigned int shift = base == 16 ? 4 : 3;
		unsigned int mask = base - 1;

		while (num >> 32) {
			tmp[i++] = hex_digits[num & mask] | locase;
			num >>= shift;
		}
		n32 = (u32)num;
		do {
			tmp[i++] = hex_digits[n32 & mask] | locase;
			n32 >>= shift;
		} while (n32);
	}
	return i;
}

static void number(struct outbuf *o, u64 num, struct printf_spec spec)
{
	char tmp[24];	/* 22 octal digits hold 2^64 - 1 */
	char locase = spec.flags & SMALL;
	char sign = 0;
	bool is_zero = num == 0;
	bool need_pfx = (spec.flags & SPECIAL) && spec.base != 10;
	int field_width = spec.field_width;
	int precision = spec.precision;
	int i;

	if (spec.flags & LEFT)
		spec.flags &= ~ZEROPAD;
	if (spec.flags & SIGN) {
		if ((s64)num < 0) {
			sign = '-';
			num = -num;	/* unsigned: well defined for S64_MIN */
			field_width--;
		} else if (spec.flags & PLUS) {
			sign = '+';
			field_width--;
		} else if (spec.flags & SPACE) {
			sign = ' ';
			field_width--;
		}
	}
	if (need_pfx) {
		if (spec.base == 16)
			field_width -= 2;
		else if (!is_zero)
			field_width--;
	}

	i = put_digits(tmp, num, spec.base, locase);

	/* Precision is the minimum number of digits: "%2d" of 100 is "100". */
	if (i > precision)
		precision = i;
	field_width -= precision;

	/* The field is padded in exactly one of three places. */
	if (!(spec.flags & (ZEROPAD | LEFT)))
		emit_repeat(o, ' ', field_width);
	if (sign)
		emit(o, sign);
	if (need_pfx) {
		if (spec.base == 16 || !is_zero)
			emit(o, '0');
		if (spec.base == 16)
			emit(o, 'X' | locase);
	}
	if (spec.flags & ZEROPAD)
		emit_repeat(o, '0', field_width);
	emit_repeat(o, '0', precision - i);
	while (--i >= 0)
		emit(o, tmp[i]);
	if (spec.flags & LEFT)
		emit_repeat(o, ' ', field_width);
}

/* A string padded to the field width; precision limits its length. */
static void string(struct outbuf *o, const char *s, struct printf_spec spec)
{
	size_t max = spec.precision < 0 ? (size_t)-1 : (size_t)spec.precision;
	size_t len;
	int pad = 0;

	if (!s)
		s = "(null)";
	len = strnlen(s, max);
	if (spec.field_width > 0 && (size_t)spec.field_width > len)
		pad = spec.field_width - (int)len;

	if (!(spec.flags & LEFT))
		emit_repeat(o, ' ', pad);
	while (len--)
		emit(o, *s++);
	if (spec.flags & LEFT)
		emit_repeat(o, ' ', pad);
}

static void pointer(struct outbuf *o, const void *ptr, struct printf_spec spec)
{
	struct printf_spec hex = {
		.flags = SPECIAL | SMALL | ZEROPAD,
		.field_width = 2 + 2 * (int)sizeof(void *),
		.precision = -1,
		.base = 16,
	};
	char tmp[2 + 2 * sizeof(void *) + 1];
	struct outbuf t = { .buf = tmp, .size = sizeof(tmp) };

	number(&t, (uintptr_t)ptr, hex);
	tmp[t.len] = '\0';
	spec.precision = -1;
	string(o, tmp, spec);
}

/* Parses a decimal width or precision, saturating at limit. */
static int skip_atoi(const char **s, int limit)
{
	int i = 0;

	while (isdigit(**s)) {
		int d = *((*s)++) - '0';

		i = i > (limit - d) / 10 ? limit : i * 10 + d;
	}
	return i;
}

enum qualifier { Q_NONE, Q_HH, Q_H, Q_L, Q_LL, Q_Z, Q_T, Q_J };

/* Fetches the integer argument and widens it to 64 bits as its type says. */
static u64 fetch_integer(va_list *args, enum qualifier q, bool is_signed)
{
	switch (q) {
	case Q_HH:
		if (is_signed)
			return (s64)(signed char)va_arg(*args, int);
		return (unsigned char)va_arg(*args, unsigned int);
	case Q_H:
		if (is_signed)
			return (s64)(short)va_arg(*args, int);
		return (unsigned short)va_arg(*args, unsigned int);
	case Q_L:
		if (is_signed)
			return (s64)va_arg(*args, long);
		return va_arg(*args, unsigned long);
	case Q_LL:
	case Q_J:
		/* long long and intmax_t are 64 bits on every target. */
		if (is_signed)
			return (s64)va_arg(*args, long long);
		return va_arg(*args, unsigned long long);
	case Q_Z:
	case Q_T:
		/* size_t and ptrdiff_t have the same width everywhere. */
		if (is_signed)
			return (s64)va_arg(*args, ptrdiff_t);
		return va_arg(*args, size_t);
	case Q_NONE:
	default:
		if (is_signed)
			return (s64)va_arg(*args, int);
		return va_arg(*args, unsigned int);
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct outbuf o = { .buf = buf, .size = size, .len = 0 };
	va_list ap;

	/* Linux refuses sizes that do not fit its int return value. */
	if (unlikely(size > (size_t)__INT_MAX__))
		return 0;

	/* Pass the list by pointer: a va_list parameter may be an array. */
	va_copy(ap, args);
	while (*fmt) {
		struct printf_spec spec = {
			.field_width = -1,
			.precision = -1,
			.base = 10,
		};
		enum qualifier qual = Q_NONE;
		const char *start = fmt;
		bool is_signed = false;

		if (*fmt != '%') {
			emit(&o, *fmt++);
			continue;
		}
		fmt++;

		/* flags */
		for (;; fmt++) {
			if (*fmt == '-')
				spec.flags |= LEFT;
			else if (*fmt == '+')
				spec.flags |= PLUS;
			else if (*fmt == ' ')
				spec.flags |= SPACE;
			else if (*fmt == '#')
				spec.flags |= SPECIAL;
			else if (*fmt == '0')
				spec.flags |= ZEROPAD;
			else
				break;
		}

		/* field width: a negative '*' argument means left-justify */
		if (isdigit(*fmt)) {
			spec.field_width = skip_atoi(&fmt, FIELD_WIDTH_MAX);
		} else if (*fmt == '*') {
			int w = va_arg(ap, int);

			fmt++;
			if (w < 0) {
				spec.flags |= LEFT;
				w = w < -FIELD_WIDTH_MAX ? FIELD_WIDTH_MAX : -w;
			}
			spec.field_width = min(w, FIELD_WIDTH_MAX);
		}

		/* precision: a negative '*' argument means none */
		if (*fmt == '.') {
			fmt++;
			if (isdigit(*fmt)) {
				spec.precision = skip_atoi(&fmt, PRECISION_MAX);
			} else if (*fmt == '*') {
				int p = va_arg(ap, int);

				fmt++;
				spec.precision = p < 0 ? -1 :
						 min(p, PRECISION_MAX);
			} else {
				spec.precision = 0;
			}
		}

		/* length modifier */
		switch (*fmt) {
		case 'h':
			qual = Q_H;
			if (*++fmt == 'h') {
				qual = Q_HH;
				fmt++;
			}
			break;
		case 'l':
			qual = Q_L;
			if (*++fmt == 'l') {
				qual = Q_LL;
				fmt++;
			}
			break;
		case 'L':
		case 'q':
			qual = Q_LL;
			fmt++;
			break;
		case 'z':
		case 'Z':
			qual = Q_Z;
			fmt++;
			break;
		case 't':
			qual = Q_T;
			fmt++;
			break;
		case 'j':
			qual = Q_J;
			fmt++;
			break;
		}

		switch (*fmt) {
		case 'c': {
			int pad = spec.field_width - 1;

			if (!(spec.flags & LEFT))
				emit_repeat(&o, ' ', pad);
			emit(&o, (char)va_arg(ap, int));
			if (spec.flags & LEFT)
				emit_repeat(&o, ' ', pad);
			fmt++;
			continue;
		}
		case 's':
			string(&o, va_arg(ap, const char *), spec);
			fmt++;
			continue;
		case 'p':
			pointer(&o, va_arg(ap, const void *), spec);
			fmt++;
			continue;
		case '%':
			emit(&o, '%');
			fmt++;
			continue;
		case 'd':
		case 'i':
			spec.flags |= SIGN;
			is_signed = true;
			break;
		case 'u':
			break;
		case 'o':
			spec.base = 8;
			break;
		case 'x':
			spec.flags |= SMALL;
			spec.base = 16;
			break;
		case 'X':
			spec.base = 16;
			break;
		case '\0':
			/* A lone '%' (with flags) at the very end. */
			while (start < fmt)
				emit(&o, *start++);
			continue;
		default:
			/* Unknown: copy the directive, use no argument. */
			fmt++;
			while (start < fmt)
				emit(&o, *start++);
			continue;
		}
		fmt++;
		number(&o, fetch_integer(&ap, qual, is_signed), spec);
	}
	va_end(ap);

	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)min(o.len, (size_t)__INT_MAX__);
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return ret;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int ret = vsnprintf(buf, size, fmt, args);

	if (likely((size_t)ret < size))
		return ret;
	return size ? (int)(size - 1) : 0;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return ret;
}
