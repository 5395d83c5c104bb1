/*
 * tests/lib_test.c - the "lib" suite: lib/'s string, format, parsing,
 * list, bit, sort, random, glob and arithmetic helpers.
 *
 * Every expected value is written out literally (worked out by hand or
 * from the C standard and Linux's documented behaviour), never produced
 * by the code under test.  The string functions are called as (name)(...)
 * so that the calls reach lib/string.c rather than being folded by GCC's
 * builtins at compile time.  Large arrays are static: the kernel stack is
 * small, and the runner executes one case at a time.
 */
#include "tests/ktest.h"

#include "lib/bitops.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/kstrtox.h"
#include "lib/list.h"
#include "lib/math.h"
#include "lib/random.h"
#include "lib/sort.h"
#include "lib/sprintf.h"
#include "lib/string.h"

#define T_INT_MIN (-__INT_MAX__ - 1)
#define T_LLONG_MIN (-__LONG_LONG_MAX__ - 1LL)

/* ---------------------------------------------------------------- */
/* vsnprintf */

/*
 * Formats with every buffer size from 0 to strlen(expect) + 1 (and a big
 * one) and checks, each time, the return value, the stored prefix, the
 * terminating NUL and that nothing past size was written.
 */
static void __printf(4, 5) expect_fmt(struct ktest *t, int line,
				      const char *expect, const char *fmt, ...)
{
	static char buf[256];
	size_t len = (strlen)(expect);
	size_t size;
	va_list args;

	va_start(args, fmt);
	for (size = 0; size <= len + 2; size++) {
		size_t bufsize = size == len + 2 ? sizeof(buf) - 1 : size;
		size_t stored = len < bufsize ? len : bufsize - 1;
		va_list ap;
		int ret;

		memset(buf, 0x5a, sizeof(buf));
		va_copy(ap, args);
		ret = vsnprintf(bufsize ? buf : NULL, bufsize, fmt, ap);
		va_end(ap);

		if (ret != (int)len ||
		    (bufsize && ((memcmp)(buf, expect, stored) != 0 ||
				 buf[stored] != '\0')) ||
		    (bufsize < sizeof(buf) && buf[bufsize] != 0x5a &&
		     bufsize != 0)) {
			ktest_fail_msg(t, __FILE__, line,
				       "vsnprintf(size %zu, \"%s\") returned %d \"%.*s\", expected %d \"%.*s\"",
				       bufsize, fmt, ret,
				       bufsize ? (int)stored : 0, buf, (int)len,
				       (int)stored, expect);
			break;
		}
	}
	va_end(args);
}

#define EXPECT_FMT(t, expect, ...) expect_fmt(t, __LINE__, expect, __VA_ARGS__)

static void vsnprintf_integers(struct ktest *t)
{
	char buf[64];

	KTEST_EXPECT_EQ(t, snprintf(buf, sizeof(buf), "%5d|%-5d|%05d", 42, 42,
				    -42), 17);
	KTEST_EXPECT_STREQ(t, buf, "   42|42   |-0042");

	EXPECT_FMT(t, "0", "%d", 0);
	EXPECT_FMT(t, "-1", "%d", -1);
	EXPECT_FMT(t, "-2147483648", "%d", T_INT_MIN);
	EXPECT_FMT(t, "2147483647", "%d", __INT_MAX__);
	EXPECT_FMT(t, "-12345", "%i", -12345);
	EXPECT_FMT(t, "0", "%u", 0u);
	EXPECT_FMT(t, "4294967295", "%u", ~0u);
	EXPECT_FMT(t, "3000000000", "%u", 3000000000u);
	EXPECT_FMT(t, "a5b|1|-2", "a%db|%d|%d", 5, 1, -2);
	EXPECT_FMT(t, "no conversions", "no conversions");
	EXPECT_FMT(t, "", "%s", "");
}

static void vsnprintf_width_and_precision(struct ktest *t)
{
	EXPECT_FMT(t, "+5|-5| 5|-5", "%+d|%+d|% d|% d", 5, -5, 5, -5);
	EXPECT_FMT(t, "   7|7   |7   ", "%*d|%-*d|%*d", 4, 7, 4, 7, -4, 7);
	EXPECT_FMT(t, "007|  007|007  |-007", "%.3d|%5.3d|%-5.3d|%.3d",
		   7, 7, 7, -7);
	EXPECT_FMT(t, "0005|5", "%.*d|%.*d", 4, 5, -1, 5);
	EXPECT_FMT(t, "100|-100", "%2d|%1d", 100, -100);
	EXPECT_FMT(t, "  +42|+0042|-0042", "%+5d|%+05d|%05d", 42, 42, -42);
	EXPECT_FMT(t, "    0|00000", "%5u|%05u", 0u, 0u);
	EXPECT_FMT(t, "0000000042", "%010d", 42);
}

/*
 * The next three cases pass what the format checkers reject on purpose:
 * flag combinations where Linux's number() differs from ISO C, unknown
 * conversions, and arguments wider than their hh/h modifier.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
static void vsnprintf_linux_quirks(struct ktest *t)
{
	EXPECT_FMT(t, "0x0", "%#x", 0);		/* ISO C: "0" */
	EXPECT_FMT(t, "0", "%.0d", 0);		/* ISO C: "" */
	EXPECT_FMT(t, "00007", "%05.3d", 7);	/* ISO C: "  007" */
	EXPECT_FMT(t, "3    |", "%-05d|", 3);	/* '-' beats '0' */
	EXPECT_FMT(t, "+5", "%+ d", 5);		/* '+' beats ' ' */
	EXPECT_FMT(t, "5|5", "%+u|% u", 5u, 5u); /* no sign for unsigned */
	EXPECT_FMT(t, "%", "%5%");
}

static void vsnprintf_unknown_conversion(struct ktest *t)
{
	EXPECT_FMT(t, "%y", "%y");
	EXPECT_FMT(t, "a%5.2yb7", "a%5.2yb%d", 7);
	EXPECT_FMT(t, "%f|3", "%f|%d", 3);
	EXPECT_FMT(t, "%n4", "%n%d", 4);	/* %n never writes */
	EXPECT_FMT(t, "abc%", "abc%");
	EXPECT_FMT(t, "abc%-", "abc%-");
	EXPECT_FMT(t, "%l", "%l");
}

static void vsnprintf_length_modifiers(struct ktest *t)
{
	EXPECT_FMT(t, "44|-128|255|ff", "%hhd|%hhd|%hhu|%hhx", 300, 128, -1,
		   0x1ff);
	EXPECT_FMT(t, "-1|65535|2345", "%hd|%hu|%hx", 65535, -1, 0x12345);
	EXPECT_FMT(t, "-1|4000000000|deadbeef", "%ld|%lu|%lx", -1L,
		   4000000000UL, 0xdeadbeefUL);
	EXPECT_FMT(t, "123456|-5|ff", "%zu|%zd|%zx", (size_t)123456,
		   (ptrdiff_t)-5, (size_t)255);
	EXPECT_FMT(t, "-7|7", "%td|%tu", (ptrdiff_t)-7, (ptrdiff_t)7);
	EXPECT_FMT(t, "-1|5", "%jd|%ju", (intmax_t)-1, (uintmax_t)5);
	EXPECT_FMT(t, "-5|5|1", "%lld|%llu|%d", -5LL, 5ULL, 1);
}
#pragma GCC diagnostic pop

static void vsnprintf_hex_and_octal(struct ktest *t)
{
	EXPECT_FMT(t, "ff|FF|0xff|0XFF", "%x|%X|%#x|%#X", 255, 255, 255, 255);
	EXPECT_FMT(t, "10|010|0|0777", "%o|%#o|%#o|%#o", 8, 8, 0, 0777);
	EXPECT_FMT(t, "0|deadbeef|0000BEEF", "%x|%x|%08X", 0, 0xdeadbeef,
		   0xbeef);
	EXPECT_FMT(t, "0x00001234", "%#010x", 0x1234);
	EXPECT_FMT(t, "0xab    |    0xab|", "%#-8x|%#8x|", 0xab, 0xab);
	EXPECT_FMT(t, "ffffffff|37777777777", "%x|%o", ~0u, ~0u);
	EXPECT_FMT(t, "0x00ff", "%#.4x", 0xff);
}

static void vsnprintf_64bit_extremes(struct ktest *t)
{
	EXPECT_FMT(t, "0|-1", "%lld|%lld", 0LL, -1LL);
	EXPECT_FMT(t, "-9223372036854775808", "%lld", T_LLONG_MIN);
	EXPECT_FMT(t, "9223372036854775807", "%lld", __LONG_LONG_MAX__);
	EXPECT_FMT(t, "+9223372036854775807", "%+lld", __LONG_LONG_MAX__);
	EXPECT_FMT(t, "18446744073709551615", "%llu", ~0ULL);
	EXPECT_FMT(t, "ffffffffffffffff", "%llx", ~0ULL);
	EXPECT_FMT(t, "ABCDEF0123456789", "%llX", 0xABCDEF0123456789ULL);
	EXPECT_FMT(t, "1777777777777777777777", "%llo", ~0ULL);
	EXPECT_FMT(t, "4294967295|4294967296", "%llu|%llu", 4294967295ULL,
		   4294967296ULL);
	/* zero digits inside the 9-digit chunks must survive */
	EXPECT_FMT(t, "10000000000", "%llu", 10000000000ULL);
	EXPECT_FMT(t, "1000000000000000000", "%llu", 1000000000000000000ULL);
	EXPECT_FMT(t, "12345678901234567890", "%llu", 12345678901234567890ULL);
	EXPECT_FMT(t, "     -9223372036854775808|", "%25lld|", T_LLONG_MIN);
	EXPECT_FMT(t, "-000009223372036854775808", "%025lld", T_LLONG_MIN);
	EXPECT_FMT(t, "18446744073709551615  |", "%-22llu|", ~0ULL);
	EXPECT_FMT(t, "0x100000000", "%#llx", 0x100000000ULL);
}

static void vsnprintf_strings_and_chars(struct ktest *t)
{
	/* volatile: GCC would otherwise reject a literal NULL for %s */
	const char *volatile null_str = NULL;
	char buf[8];

	EXPECT_FMT(t, "abc|  abc|abc  |ab|    a|", "%s|%5s|%-5s|%.2s|%5.1s|",
		   "abc", "abc", "abc", "abc", "abc");
	EXPECT_FMT(t, "   |abc|abcdef", "%3s|%.10s|%2s", "", "abc", "abcdef");
	EXPECT_FMT(t, "  ab|ab  |abc|abcdef", "%*s|%-*s|%.*s|%.*s", 4, "ab",
		   4, "ab", 3, "abcdef", -1, "abcdef");
	EXPECT_FMT(t, "(null)", "%s", null_str);
	EXPECT_FMT(t, "(nu|  (null)|", "%.3s|%8s|", null_str, null_str);
	EXPECT_FMT(t, "abc|  x|y  |", "%c%c%c|%3c|%-3c|", 'a', 'b', 'c', 'x',
		   'y');
	EXPECT_FMT(t, "100%|%5%", "100%%|%%%d%%", 5);

	/* %c of NUL stores a NUL and counts it */
	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, snprintf(buf, sizeof(buf), "a%cb", '\0'), 3);
	KTEST_EXPECT_MEMEQ(t, buf, "a\0b\0XXXX", 8);
}

static void vsnprintf_pointer(struct ktest *t)
{
	if (sizeof(void *) == 4) {
		EXPECT_FMT(t, "0x00001234", "%p", (void *)0x1234);
		EXPECT_FMT(t, "0x00000000", "%p", NULL);
		EXPECT_FMT(t, "0xdeadbeef", "%p", (void *)0xdeadbeefUL);
		EXPECT_FMT(t, "    0x00001234|0x00001234  |", "%14p|%-12p|",
			   (void *)0x1234, (void *)0x1234);
	} else {
		EXPECT_FMT(t, "0x0000000000001234", "%p", (void *)0x1234);
		EXPECT_FMT(t, "0x0000000000000000", "%p", NULL);
		EXPECT_FMT(t, "0x00000000deadbeef", "%p", (void *)0xdeadbeefUL);
		EXPECT_FMT(t, "  0x0000000000001234|0x0000000000001234  |",
			   "%20p|%-20p|", (void *)0x1234, (void *)0x1234);
	}
}

static void vsnprintf_truncation(struct ktest *t)
{
	char buf[16];

	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, snprintf(buf, 6, "%s", "hello world"), 11);
	KTEST_EXPECT_MEMEQ(t, buf, "hello\0X", 7);

	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, snprintf(buf, 1, "%d", 12345), 5);
	KTEST_EXPECT_MEMEQ(t, buf, "\0X", 2);

	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, snprintf(buf, 0, "%d", 12345), 5);
	KTEST_EXPECT_EQ(t, buf[0], 'X');
	KTEST_EXPECT_EQ(t, snprintf(NULL, 0, "%s%d", "ab", 42), 4);

	KTEST_EXPECT_EQ(t, snprintf(buf, 12, "hello world"), 11);
	KTEST_EXPECT_STREQ(t, buf, "hello world");
	KTEST_EXPECT_EQ(t, snprintf(buf, 11, "hello world"), 11);
	KTEST_EXPECT_STREQ(t, buf, "hello worl");
	KTEST_EXPECT_EQ(t, snprintf(buf, 4, "%d", -123456), 7);
	KTEST_EXPECT_STREQ(t, buf, "-12");

	/* scnprintf counts what was stored, never the NUL */
	KTEST_EXPECT_EQ(t, scnprintf(buf, 6, "hello world"), 5);
	KTEST_EXPECT_STREQ(t, buf, "hello");
	KTEST_EXPECT_EQ(t, scnprintf(buf, 6, "hello"), 5);
	KTEST_EXPECT_EQ(t, scnprintf(buf, 5, "hello"), 4);
	KTEST_EXPECT_STREQ(t, buf, "hell");
	KTEST_EXPECT_EQ(t, scnprintf(buf, 16, "%d", 42), 2);
	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, scnprintf(buf, 1, "hello"), 0);
	KTEST_EXPECT_EQ(t, buf[0], '\0');
	memset(buf, 'X', sizeof(buf));
	KTEST_EXPECT_EQ(t, scnprintf(buf, 0, "hello"), 0);
	KTEST_EXPECT_EQ(t, buf[0], 'X');
}

/* ---------------------------------------------------------------- */
/* string and ctype */

static void string_memory_functions(struct ktest *t)
{
	static const u8 digits[16] = "0123456789abcdef";
	u8 a[40], b[16];
	int i;

	for (i = 0; i < 40; i++)
		a[i] = 'X';
	KTEST_EXPECT_PTR_EQ(t, (memset)(a + 3, 0, 29), a + 3);
	for (i = 0; i < 40; i++)
		KTEST_EXPECT_EQ(t, a[i], (i >= 3 && i < 32) ? 0 : 'X');
	KTEST_EXPECT_PTR_EQ(t, (memset)(a, 0x1ab, 2), a); /* c as u8 */
	KTEST_EXPECT_EQ(t, a[1], 0xab);

	KTEST_EXPECT_PTR_EQ(t, (memcpy)(b, digits, 16), b);
	KTEST_EXPECT_MEMEQ(t, b, "0123456789abcdef", 16);
	(memcpy)(a + 1, digits + 3, 13);	/* unaligned both sides */
	KTEST_EXPECT_MEMEQ(t, a + 1, "3456789abcdef", 13);
	KTEST_EXPECT_EQ(t, a[14], 0);

	KTEST_EXPECT_LT(t, (memcmp)("abc", "abd", 3), 0);
	KTEST_EXPECT_GT(t, (memcmp)("abd", "abc", 3), 0);
	KTEST_EXPECT_EQ(t, (memcmp)("abc", "abd", 2), 0);
	KTEST_EXPECT_EQ(t, (memcmp)("a", "b", 0), 0);
	KTEST_EXPECT_GT(t, (memcmp)("\x80", "\x01", 1), 0); /* unsigned */

	KTEST_EXPECT_PTR_EQ(t, (memchr)(digits, 'a', 16), digits + 10);
	KTEST_EXPECT_PTR_EQ(t, (memchr)(digits, '0' + 0x100, 16), digits);
	KTEST_EXPECT_NULL(t, (memchr)(digits, 'f', 15));
	KTEST_EXPECT_NULL(t, (memchr)(digits, 'z', 16));
}

static void string_memmove_overlap(struct ktest *t)
{
	static u8 big[64];
	char s[11];
	int i;

	(memcpy)(s, "0123456789", 11);
	(memmove)(s + 2, s, 6);		/* dest above src: copy backwards */
	KTEST_EXPECT_STREQ(t, s, "0101234589");
	(memcpy)(s, "0123456789", 11);
	(memmove)(s, s + 2, 6);		/* dest below src: copy forwards */
	KTEST_EXPECT_STREQ(t, s, "2345676789");
	KTEST_EXPECT_PTR_EQ(t, (memmove)(s, s, 10), s);
	KTEST_EXPECT_PTR_EQ(t, (memmove)(s + 1, s, 0), s + 1);
	KTEST_EXPECT_STREQ(t, s, "2345676789");

	/* long enough for the word loops, aligned and not */
	for (i = 0; i < 64; i++)
		big[i] = i;
	(memmove)(big + 8, big, 40);
	for (i = 0; i < 64; i++)
		KTEST_EXPECT_EQ(t, big[i], (i >= 8 && i < 48) ? i - 8 : i);

	for (i = 0; i < 64; i++)
		big[i] = i;
	(memmove)(big, big + 5, 50);
	for (i = 0; i < 64; i++)
		KTEST_EXPECT_EQ(t, big[i], i < 50 ? i + 5 : i);

	for (i = 0; i < 64; i++)
		big[i] = i;
	(memmove)(big + 1, big, 60);
	for (i = 0; i < 64; i++)
		KTEST_EXPECT_EQ(t, big[i], (i >= 1 && i <= 60) ? i - 1 : i);
}

static void string_str_functions(struct ktest *t)
{
	const char *s = "hello";

	KTEST_EXPECT_EQ(t, (strlen)(""), 0u);
	KTEST_EXPECT_EQ(t, (strlen)(s), 5u);
	KTEST_EXPECT_EQ(t, strnlen(s, 3), 3u);
	KTEST_EXPECT_EQ(t, strnlen(s, 10), 5u);
	KTEST_EXPECT_EQ(t, strnlen(s, 0), 0u);

	KTEST_EXPECT_EQ(t, strcmp("abc", "abc"), 0);
	KTEST_EXPECT_LT(t, strcmp("abc", "abd"), 0);
	KTEST_EXPECT_GT(t, strcmp("abd", "abc"), 0);
	KTEST_EXPECT_LT(t, strcmp("ab", "abc"), 0);
	KTEST_EXPECT_GT(t, strcmp("\x80", "a"), 0);	/* unsigned chars */
	KTEST_EXPECT_EQ(t, strncmp("abcdef", "abcxyz", 3), 0);
	KTEST_EXPECT_LT(t, strncmp("abcdef", "abcxyz", 4), 0);
	KTEST_EXPECT_EQ(t, strncmp("a", "b", 0), 0);
	KTEST_EXPECT_EQ(t, strncmp("ab", "ab", 10), 0);
	KTEST_EXPECT_EQ(t, strcasecmp("Hello", "hELLO"), 0);
	KTEST_EXPECT_LT(t, strcasecmp("abc", "ABD"), 0);
	KTEST_EXPECT_GT(t, strcasecmp("B", "a"), 0);
	KTEST_EXPECT_LT(t, strcasecmp("ab", "ABC"), 0);

	KTEST_EXPECT_PTR_EQ(t, strchr(s, 'l'), s + 2);
	KTEST_EXPECT_NULL(t, strchr(s, 'z'));
	KTEST_EXPECT_PTR_EQ(t, strchr(s, '\0'), s + 5);
	KTEST_EXPECT_PTR_EQ(t, strrchr(s, 'l'), s + 3);
	KTEST_EXPECT_PTR_EQ(t, strrchr(s, 'h'), s);
	KTEST_EXPECT_NULL(t, strrchr(s, 'z'));
	KTEST_EXPECT_PTR_EQ(t, strrchr(s, '\0'), s + 5);

	s = "hello world";
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "o w"), s + 4);
	KTEST_EXPECT_PTR_EQ(t, strstr(s, ""), s);
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "world"), s + 6);
	KTEST_EXPECT_NULL(t, strstr(s, "worlds"));
	s = "aaab";
	KTEST_EXPECT_PTR_EQ(t, strstr(s, "aab"), s + 1);

	KTEST_EXPECT_EQ(t, strspn("abcde", "cab"), 3u);
	KTEST_EXPECT_EQ(t, strspn("xyz", "abc"), 0u);
	KTEST_EXPECT_EQ(t, strcspn("abcde", "xd"), 3u);
	KTEST_EXPECT_EQ(t, strcspn("abc", ""), 3u);
}

static void string_bounded_copies(struct ktest *t)
{
	char d[8];

	KTEST_EXPECT_EQ(t, strscpy(d, "hello", sizeof(d)), 5L);
	KTEST_EXPECT_STREQ(t, d, "hello");
	KTEST_EXPECT_EQ(t, strscpy(d, "1234567", sizeof(d)), 7L);
	KTEST_EXPECT_STREQ(t, d, "1234567");
	KTEST_EXPECT_EQ(t, strscpy(d, "12345678", sizeof(d)), (long)-E2BIG);
	KTEST_EXPECT_STREQ(t, d, "1234567");
	KTEST_EXPECT_EQ(t, strscpy(d, "abc", 1), (long)-E2BIG);
	KTEST_EXPECT_STREQ(t, d, "");
	KTEST_EXPECT_EQ(t, strscpy(d, "", 1), 0L);
	memset(d, 'X', sizeof(d));
	KTEST_EXPECT_EQ(t, strscpy(d, "abc", 0), (long)-E2BIG);
	KTEST_EXPECT_EQ(t, d[0], 'X');

	KTEST_EXPECT_EQ(t, strlcpy(d, "hello world", sizeof(d)), 11u);
	KTEST_EXPECT_STREQ(t, d, "hello w");
	KTEST_EXPECT_EQ(t, strlcpy(d, "hi", sizeof(d)), 2u);
	KTEST_EXPECT_STREQ(t, d, "hi");
	KTEST_EXPECT_EQ(t, strlcpy(d, "abc", 0), 3u);
	KTEST_EXPECT_STREQ(t, d, "hi");

	KTEST_EXPECT_EQ(t, strlcat(d, "cd", sizeof(d)), 4u);
	KTEST_EXPECT_STREQ(t, d, "hicd");
	KTEST_EXPECT_EQ(t, strlcat(d, "efghij", sizeof(d)), 10u);
	KTEST_EXPECT_STREQ(t, d, "hicdefg");
	KTEST_EXPECT_EQ(t, strlcat(d, "x", sizeof(d)), 8u);
	KTEST_EXPECT_STREQ(t, d, "hicdefg");
	memset(d, 'X', sizeof(d));	/* unterminated: left alone */
	KTEST_EXPECT_EQ(t, strlcat(d, "abc", sizeof(d)), 11u);
	KTEST_EXPECT_MEMEQ(t, d, "XXXXXXXX", 8);
}

static void string_memchr_inv(struct ktest *t)
{
	static const size_t positions[] = { 0, 1, 3, 7, 8, 15, 31, 63, 98, 99 };
	static u8 buf[100];
	size_t i, start;

	memset(buf, 0xaa, sizeof(buf));
	KTEST_EXPECT_NULL(t, memchr_inv(buf, 0xaa, sizeof(buf)));
	KTEST_EXPECT_NULL(t, memchr_inv(buf, 0x1aa, sizeof(buf)));
	KTEST_EXPECT_NULL(t, memchr_inv(buf, 0x55, 0));
	KTEST_EXPECT_PTR_EQ(t, memchr_inv(buf, 0xab, sizeof(buf)), buf);

	for (i = 0; i < ARRAY_SIZE(positions); i++) {
		size_t pos = positions[i];

		buf[pos] = 0xa8;	/* differs in one bit only */
		for (start = 0; start <= 3 && start <= pos; start++)
			KTEST_EXPECT_PTR_EQ(t, memchr_inv(buf + start, 0xaa,
							  sizeof(buf) - start),
					    buf + pos);
		/* a difference just past the range is not seen */
		KTEST_EXPECT_NULL(t, memchr_inv(buf, 0xaa, pos));
		buf[pos] = 0xaa;
	}
}

static void ctype_classification(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, isdigit('0') && isdigit('9'));
	KTEST_EXPECT_FALSE(t, isdigit('/') || isdigit(':') || isdigit('a'));
	KTEST_EXPECT_TRUE(t, isxdigit('f') && isxdigit('F') && isxdigit('9'));
	KTEST_EXPECT_FALSE(t, isxdigit('g') || isxdigit('G'));
	KTEST_EXPECT_TRUE(t, isspace(' ') && isspace('\t') && isspace('\n') &&
			     isspace('\v') && isspace('\f') && isspace('\r'));
	KTEST_EXPECT_FALSE(t, isspace('\0') || isspace('a') || isspace('\b'));
	KTEST_EXPECT_TRUE(t, isalpha('a') && isalpha('Z') && !isalpha('@') &&
			     !isalpha('['));
	KTEST_EXPECT_TRUE(t, isalnum('z') && isalnum('5') && !isalnum('_'));
	KTEST_EXPECT_TRUE(t, isupper('A') && !isupper('a') && islower('z') &&
			     !islower('Z'));
	KTEST_EXPECT_TRUE(t, isprint(' ') && isprint('~'));
	KTEST_EXPECT_FALSE(t, isprint('\x7f') || isprint('\n'));
	/* ASCII only: no Latin-1 letters, EOF is nothing */
	KTEST_EXPECT_FALSE(t, isalpha(0xc0) || isdigit(-1) || isspace(-1));
	KTEST_EXPECT_EQ(t, tolower('A'), 'a');
	KTEST_EXPECT_EQ(t, tolower('a'), 'a');
	KTEST_EXPECT_EQ(t, tolower('@'), '@');
	KTEST_EXPECT_EQ(t, toupper('z'), 'Z');
	KTEST_EXPECT_EQ(t, toupper('['), '[');
	KTEST_EXPECT_EQ(t, toupper('1'), '1');
}

/* ---------------------------------------------------------------- */
/* kstrtox and memparse */

static void kstrtox_valid_input(struct ktest *t)
{
	unsigned long long ull = 0;
	long long ll = 0;
	unsigned int u = 0;
	int i = 0;

	KTEST_EXPECT_EQ(t, kstrtoull("123", 10, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 123ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("0x1f", 0, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 31ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("0X1F", 16, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 31ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("1f", 16, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 31ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("017", 0, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 15ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("017", 10, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 17ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("0", 0, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 0ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("101", 2, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 5ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("+5", 10, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 5ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("42\n", 10, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, 42ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("18446744073709551615", 10, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, ~0ULL);
	KTEST_EXPECT_EQ(t, kstrtoull("0xffffffffffffffff", 0, &ull), 0);
	KTEST_EXPECT_EQ(t, ull, ~0ULL);

	KTEST_EXPECT_EQ(t, kstrtoll("-9223372036854775808", 10, &ll), 0);
	KTEST_EXPECT_EQ(t, ll, T_LLONG_MIN);
	KTEST_EXPECT_EQ(t, kstrtoll("9223372036854775807", 10, &ll), 0);
	KTEST_EXPECT_EQ(t, ll, __LONG_LONG_MAX__);
	KTEST_EXPECT_EQ(t, kstrtoll("-0x10", 0, &ll), 0);
	KTEST_EXPECT_EQ(t, ll, -16LL);

	KTEST_EXPECT_EQ(t, kstrtouint("4294967295", 10, &u), 0);
	KTEST_EXPECT_EQ(t, u, 4294967295u);
	KTEST_EXPECT_EQ(t, kstrtoint("-2147483648", 10, &i), 0);
	KTEST_EXPECT_EQ(t, i, T_INT_MIN);
	KTEST_EXPECT_EQ(t, kstrtoint("2147483647", 0, &i), 0);
	KTEST_EXPECT_EQ(t, i, __INT_MAX__);
	KTEST_EXPECT_EQ(t, kstrtoint("-0", 10, &i), 0);
	KTEST_EXPECT_EQ(t, i, 0);
}

static void kstrtox_rejects_bad_input(struct ktest *t)
{
	unsigned long long ull = 77;
	long long ll = 77;
	unsigned int u = 77;
	int i = 77;

	/* malformed: -EINVAL */
	KTEST_EXPECT_EQ(t, kstrtoull("", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("\n", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("abc", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("12a", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("1f", 0, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("08", 0, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("8", 8, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("42\n\n", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull(" 42", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("42 ", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("0x", 16, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("0x", 0, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("-1", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoull("++1", 10, &ull), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtouint("-1", 10, &u), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoint("--1", 10, &i), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoint("-", 10, &i), -EINVAL);

	/* out of range: -ERANGE */
	KTEST_EXPECT_EQ(t, kstrtoull("18446744073709551616", 10, &ull),
			-ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoull("0x10000000000000000", 16, &ull),
			-ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoull("99999999999999999999999", 10, &ull),
			-ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoll("9223372036854775808", 10, &ll), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoll("-9223372036854775809", 10, &ll),
			-ERANGE);
	KTEST_EXPECT_EQ(t, kstrtouint("4294967296", 10, &u), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoint("2147483648", 10, &i), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoint("-2147483649", 10, &i), -ERANGE);

	/* nothing was stored by any failing call */
	KTEST_EXPECT_EQ(t, ull, 77ULL);
	KTEST_EXPECT_EQ(t, ll, 77LL);
	KTEST_EXPECT_EQ(t, u, 77u);
	KTEST_EXPECT_EQ(t, i, 77);
}

static void kstrtobool_words(struct ktest *t)
{
	static const char *const yes[] = { "y", "Y", "1", "t", "T", "on",
					   "ON", "oN", "yes", "true" };
	static const char *const no[] = { "n", "N", "0", "f", "F", "off",
					  "OFF", "oF", "no", "false" };
	static const char *const bad[] = { "", "o", "x", "2", "-1", " y" };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(yes); k++) {
		bool b = false;

		KTEST_EXPECT_EQ(t, kstrtobool(yes[k], &b), 0);
		if (!b)
			KTEST_FAIL(t, "kstrtobool(\"%s\") gave false", yes[k]);
	}
	for (k = 0; k < ARRAY_SIZE(no); k++) {
		bool b = true;

		KTEST_EXPECT_EQ(t, kstrtobool(no[k], &b), 0);
		if (b)
			KTEST_FAIL(t, "kstrtobool(\"%s\") gave true", no[k]);
	}
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		bool b = true;

		if (kstrtobool(bad[k], &b) != -EINVAL || !b)
			KTEST_FAIL(t, "kstrtobool(\"%s\") accepted", bad[k]);
	}
}

static void simple_strtox_stops_at_garbage(struct ktest *t)
{
	const char *s;
	char *end;

	s = "123abc";
	KTEST_EXPECT_EQ(t, simple_strtoull(s, &end, 10), 123ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 3);
	s = "0x1fz";
	KTEST_EXPECT_EQ(t, simple_strtoull(s, &end, 0), 31ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 4);
	s = "0xz";		/* no hex digit: octal "0", stops at 'x' */
	KTEST_EXPECT_EQ(t, simple_strtoull(s, &end, 0), 0ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 1);
	s = "zzz";
	KTEST_EXPECT_EQ(t, simple_strtoull(s, &end, 10), 0ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s);
	s = "777";
	KTEST_EXPECT_EQ(t, simple_strtoul(s, &end, 8), 511UL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 3);
	s = "-42,";
	KTEST_EXPECT_EQ(t, simple_strtol(s, &end, 10), -42L);
	KTEST_EXPECT_PTR_EQ(t, end, s + 3);
	KTEST_EXPECT_EQ(t, simple_strtol("0x7f", NULL, 16), 127L);
	/* no overflow detection: wraps modulo 2^64 */
	KTEST_EXPECT_EQ(t, simple_strtoull("18446744073709551617", NULL, 10),
			1ULL);
}

static void memparse_suffixes(struct ktest *t)
{
	const char *s;
	char *end;

	KTEST_EXPECT_EQ(t, memparse("4096", NULL), 4096ULL);
	KTEST_EXPECT_EQ(t, memparse("4k", NULL), 4096ULL);
	KTEST_EXPECT_EQ(t, memparse("4K", NULL), 4096ULL);
	KTEST_EXPECT_EQ(t, memparse("16M", NULL), 16777216ULL);
	KTEST_EXPECT_EQ(t, memparse("16m", NULL), 16777216ULL);
	KTEST_EXPECT_EQ(t, memparse("1G", NULL), 1073741824ULL);
	KTEST_EXPECT_EQ(t, memparse("2T", NULL), 2199023255552ULL);
	KTEST_EXPECT_EQ(t, memparse("1p", NULL), 1125899906842624ULL);
	KTEST_EXPECT_EQ(t, memparse("1E", NULL), 1152921504606846976ULL);
	KTEST_EXPECT_EQ(t, memparse("0x10M", NULL), 16777216ULL);
	KTEST_EXPECT_EQ(t, memparse("010k", NULL), 8192ULL);	/* octal */
	KTEST_EXPECT_EQ(t, memparse("0x1E", NULL), 30ULL);	/* hex digit */

	s = "64Mrest";
	KTEST_EXPECT_EQ(t, memparse(s, &end), 67108864ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 3);
	s = "12x";
	KTEST_EXPECT_EQ(t, memparse(s, &end), 12ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 2);
	s = "k";
	KTEST_EXPECT_EQ(t, memparse(s, &end), 0ULL);
	KTEST_EXPECT_PTR_EQ(t, end, s + 1);
}

/* ---------------------------------------------------------------- */
/* list */

struct item {
	int val;
	struct list_head node;
};

/* Checks both link directions against the expected values, in order. */
static void expect_list(struct ktest *t, int line, struct list_head *head,
			const int *vals, size_t n)
{
	struct list_head *pos = head;
	size_t i;

	for (i = 0; i <= n; i++) {
		struct list_head *next = pos->next;

		if (next->prev != pos) {
			ktest_fail_msg(t, __FILE__, line,
				       "broken back link at position %zu", i);
			return;
		}
		if (i == n) {
			if (next != head)
				ktest_fail_msg(t, __FILE__, line,
					       "list longer than %zu", n);
			return;
		}
		if (next == head) {
			ktest_fail_msg(t, __FILE__, line,
				       "list has %zu entries, expected %zu",
				       i, n);
			return;
		}
		if (list_entry(next, struct item, node)->val != vals[i]) {
			ktest_fail_msg(t, __FILE__, line,
				       "entry %zu is %d, expected %d", i,
				       list_entry(next, struct item, node)->val,
				       vals[i]);
			return;
		}
		pos = next;
	}
}

#define EXPECT_LIST(t, head, ...)                                          \
	expect_list(t, __LINE__, head, (const int[]){ __VA_ARGS__ },         \
		    sizeof((const int[]){ __VA_ARGS__ }) / sizeof(int))

static void init_items(struct item *items, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		items[i].val = i;
		INIT_LIST_HEAD(&items[i].node);
	}
}

static void list_add_and_delete(struct ktest *t)
{
	struct item it[5];
	LIST_HEAD(head);

	init_items(it, 5);
	KTEST_EXPECT_TRUE(t, list_empty(&head));
	KTEST_EXPECT_EQ(t, list_count_nodes(&head), 0u);

	list_add(&it[1].node, &head);
	KTEST_EXPECT_TRUE(t, list_is_singular(&head));
	list_add(&it[0].node, &head);		/* push front */
	list_add_tail(&it[2].node, &head);	/* append */
	list_add_tail(&it[3].node, &head);
	EXPECT_LIST(t, &head, 0, 1, 2, 3);
	KTEST_EXPECT_EQ(t, list_count_nodes(&head), 4u);
	KTEST_EXPECT_FALSE(t, list_empty(&head));
	KTEST_EXPECT_FALSE(t, list_is_singular(&head));
	KTEST_EXPECT_TRUE(t, list_is_first(&it[0].node, &head));
	KTEST_EXPECT_FALSE(t, list_is_first(&it[1].node, &head));
	KTEST_EXPECT_TRUE(t, list_is_last(&it[3].node, &head));
	KTEST_EXPECT_FALSE(t, list_is_last(&it[2].node, &head));

	list_del(&it[1].node);
	EXPECT_LIST(t, &head, 0, 2, 3);
	KTEST_EXPECT_PTR_EQ(t, it[1].node.next, LIST_POISON1);
	KTEST_EXPECT_PTR_EQ(t, it[1].node.prev, LIST_POISON2);
	KTEST_EXPECT_PTR_EQ(t, LIST_POISON1, (void *)0x00100100);
	KTEST_EXPECT_PTR_EQ(t, LIST_POISON2, (void *)0x00200200);

	list_del_init(&it[3].node);
	EXPECT_LIST(t, &head, 0, 2);
	KTEST_EXPECT_TRUE(t, list_empty(&it[3].node));

	list_del(&it[0].node);
	list_del(&it[2].node);
	KTEST_EXPECT_TRUE(t, list_empty(&head));
	KTEST_EXPECT_PTR_EQ(t, head.next, &head);
	KTEST_EXPECT_PTR_EQ(t, head.prev, &head);
}

static void list_replace_and_move(struct ktest *t)
{
	struct item it[6];
	LIST_HEAD(a);
	LIST_HEAD(b);
	int i;

	init_items(it, 6);
	for (i = 0; i < 4; i++)
		list_add_tail(&it[i].node, &a);

	list_replace(&it[1].node, &it[4].node);
	EXPECT_LIST(t, &a, 0, 4, 2, 3);
	list_replace_init(&it[3].node, &it[5].node);
	EXPECT_LIST(t, &a, 0, 4, 2, 5);
	KTEST_EXPECT_TRUE(t, list_empty(&it[3].node));

	list_move(&it[2].node, &a);		/* to the front */
	EXPECT_LIST(t, &a, 2, 0, 4, 5);
	list_move_tail(&it[2].node, &a);	/* and to the back */
	EXPECT_LIST(t, &a, 0, 4, 5, 2);
	list_move(&it[4].node, &b);		/* across lists */
	list_move_tail(&it[0].node, &b);
	EXPECT_LIST(t, &a, 5, 2);
	EXPECT_LIST(t, &b, 4, 0);
	list_rotate_left(&a);
	EXPECT_LIST(t, &a, 2, 5);
}

static void list_splice_variants(struct ktest *t)
{
	struct item it[8];
	LIST_HEAD(a);
	LIST_HEAD(b);
	LIST_HEAD(c);
	int i;

	init_items(it, 8);
	for (i = 0; i < 2; i++)
		list_add_tail(&it[i].node, &a);		/* a: 0 1 */
	for (i = 2; i < 4; i++)
		list_add_tail(&it[i].node, &b);		/* b: 2 3 */

	list_splice(&b, &a);			/* front of a; b now stale */
	EXPECT_LIST(t, &a, 2, 3, 0, 1);
	INIT_LIST_HEAD(&b);
	list_splice(&b, &a);			/* empty: no change */
	EXPECT_LIST(t, &a, 2, 3, 0, 1);

	list_add_tail(&it[4].node, &b);
	list_add_tail(&it[5].node, &b);
	list_splice_tail(&b, &a);		/* end of a */
	EXPECT_LIST(t, &a, 2, 3, 0, 1, 4, 5);

	INIT_LIST_HEAD(&b);
	list_add_tail(&it[6].node, &b);
	list_splice_init(&b, &a);
	EXPECT_LIST(t, &a, 6, 2, 3, 0, 1, 4, 5);
	KTEST_EXPECT_TRUE(t, list_empty(&b));
	list_add_tail(&it[7].node, &b);
	list_splice_tail_init(&b, &a);
	EXPECT_LIST(t, &a, 6, 2, 3, 0, 1, 4, 5, 7);
	KTEST_EXPECT_TRUE(t, list_empty(&b));

	/* cut everything up to and including entry 0 into c */
	list_cut_position(&c, &a, &it[0].node);
	EXPECT_LIST(t, &c, 6, 2, 3, 0);
	EXPECT_LIST(t, &a, 1, 4, 5, 7);
	/* cutting at the head itself moves nothing */
	list_cut_position(&b, &a, &a);
	KTEST_EXPECT_TRUE(t, list_empty(&b));
	EXPECT_LIST(t, &a, 1, 4, 5, 7);
	/* cutting at the last entry moves all */
	list_cut_position(&b, &a, &it[7].node);
	KTEST_EXPECT_TRUE(t, list_empty(&a));
	EXPECT_LIST(t, &b, 1, 4, 5, 7);
}

static void list_iteration(struct ktest *t)
{
	struct item it[6], *pos, *n;
	struct list_head *p, *q;
	LIST_HEAD(head);
	int seen[6], count, i;

	init_items(it, 6);
	KTEST_EXPECT_NULL(t, list_first_entry_or_null(&head, struct item,
						      node));
	count = 0;
	list_for_each_entry(pos, &head, node)
		count++;
	KTEST_EXPECT_EQ(t, count, 0);

	for (i = 0; i < 6; i++)
		list_add_tail(&it[i].node, &head);
	KTEST_EXPECT_PTR_EQ(t, list_first_entry_or_null(&head, struct item,
							node), &it[0]);
	KTEST_EXPECT_PTR_EQ(t, list_first_entry(&head, struct item, node),
			    &it[0]);
	KTEST_EXPECT_PTR_EQ(t, list_last_entry(&head, struct item, node),
			    &it[5]);
	KTEST_EXPECT_PTR_EQ(t, list_next_entry(&it[2], node), &it[3]);
	KTEST_EXPECT_PTR_EQ(t, list_prev_entry(&it[2], node), &it[1]);

	count = 0;
	list_for_each(p, &head)
		seen[count++] = list_entry(p, struct item, node)->val;
	KTEST_EXPECT_EQ(t, count, 6);
	KTEST_EXPECT_MEMEQ(t, seen, ((int[]){ 0, 1, 2, 3, 4, 5 }),
			   sizeof(seen));

	count = 0;
	list_for_each_prev(p, &head)
		seen[count++] = list_entry(p, struct item, node)->val;
	KTEST_EXPECT_MEMEQ(t, seen, ((int[]){ 5, 4, 3, 2, 1, 0 }),
			   sizeof(seen));

	count = 0;
	list_for_each_entry_reverse(pos, &head, node)
		seen[count++] = pos->val;
	KTEST_EXPECT_MEMEQ(t, seen, ((int[]){ 5, 4, 3, 2, 1, 0 }),
			   sizeof(seen));

	count = 0;
	pos = &it[3];
	list_for_each_entry_continue(pos, &head, node)
		seen[count++] = pos->val;
	KTEST_EXPECT_EQ(t, count, 2);
	KTEST_EXPECT_MEMEQ(t, seen, ((int[]){ 4, 5 }), 2 * sizeof(int));

	/* delete the odd entries while walking */
	list_for_each_entry_safe(pos, n, &head, node)
		if (pos->val & 1)
			list_del(&pos->node);
	EXPECT_LIST(t, &head, 0, 2, 4);

	list_for_each_safe(p, q, &head)
		if (list_entry(p, struct item, node)->val == 2)
			list_del_init(p);
	EXPECT_LIST(t, &head, 0, 4);

	count = 0;
	list_for_each_entry(pos, &head, node)
		seen[count++] = pos->val;
	KTEST_EXPECT_EQ(t, count, 2);
	KTEST_EXPECT_MEMEQ(t, seen, ((int[]){ 0, 4 }), 2 * sizeof(int));
}

/* ---------------------------------------------------------------- */
/* bitops */

static void bitops_word_boundaries(struct ktest *t)
{
	static const unsigned long bits[] = { 0, 31, 32, 63, 64, 129 };
	DECLARE_BITMAP(map, 130);
	size_t k;
	unsigned long nr;

	KTEST_EXPECT_EQ(t, ARRAY_SIZE(map), (size_t)BITS_TO_LONGS(130));
	bitmap_zero(map, 130);
	for (k = 0; k < ARRAY_SIZE(bits); k++) {
		nr = bits[k];
		KTEST_EXPECT_FALSE(t, test_and_set_bit(nr, map));
		KTEST_EXPECT_TRUE(t, test_bit(nr, map));
		KTEST_EXPECT_TRUE(t, test_and_set_bit(nr, map));
		KTEST_EXPECT_TRUE(t, map[BIT_WORD(nr)] & BIT_MASK(nr));
	}
	for (nr = 0; nr < 130; nr++) {
		bool expected = nr == 0 || nr == 31 || nr == 32 || nr == 63 ||
				nr == 64 || nr == 129;

		if (test_bit(nr, map) != expected)
			KTEST_FAIL(t, "bit %lu is %d", nr, !expected);
	}

	clear_bit(32, map);
	KTEST_EXPECT_FALSE(t, test_bit(32, map));
	KTEST_EXPECT_TRUE(t, test_bit(31, map));
	KTEST_EXPECT_TRUE(t, test_and_clear_bit(63, map));
	KTEST_EXPECT_FALSE(t, test_and_clear_bit(63, map));
	KTEST_EXPECT_TRUE(t, test_bit(64, map));
	change_bit(64, map);
	KTEST_EXPECT_FALSE(t, test_bit(64, map));
	change_bit(64, map);
	KTEST_EXPECT_TRUE(t, test_bit(64, map));

	bitmap_zero(map, 130);
	__set_bit(33, map);
	KTEST_EXPECT_TRUE(t, test_bit(33, map));
	KTEST_EXPECT_TRUE(t, __test_and_set_bit(33, map));
	KTEST_EXPECT_FALSE(t, __test_and_set_bit(96, map));
	__clear_bit(33, map);
	KTEST_EXPECT_FALSE(t, test_bit(33, map));
	KTEST_EXPECT_EQ(t, find_first_bit(map, 130), 96UL);

	KTEST_EXPECT_EQ(t, BIT(5), 32UL);
	KTEST_EXPECT_EQ(t, BIT_ULL(40), 0x10000000000ULL);
	KTEST_EXPECT_EQ(t, GENMASK(7, 4), 0xf0UL);
	KTEST_EXPECT_EQ(t, GENMASK(31, 0), 0xffffffffUL);
	KTEST_EXPECT_EQ(t, GENMASK(BITS_PER_LONG - 1, 0), ~0UL);
	KTEST_EXPECT_EQ(t, GENMASK_ULL(39, 32), 0xff00000000ULL);
	KTEST_EXPECT_EQ(t, BITS_TO_LONGS(0), 0u);
	KTEST_EXPECT_EQ(t, BITS_TO_LONGS(1), 1u);
	KTEST_EXPECT_EQ(t, BITS_TO_LONGS(BITS_PER_LONG), 1u);
	KTEST_EXPECT_EQ(t, BITS_TO_LONGS(BITS_PER_LONG + 1), 2u);
	KTEST_EXPECT_EQ(t, (unsigned long)BITS_PER_LONG,
			sizeof(long) * 8);
}

static void bitops_find(struct ktest *t)
{
	static const unsigned long sparse[] = { 1, 31, 32, 63, 64, 127, 129 };
	DECLARE_BITMAP(map, 130);
	unsigned long bit, found[8];
	size_t k, n;

	/* empty */
	bitmap_zero(map, 130);
	KTEST_EXPECT_EQ(t, find_first_bit(map, 130), 130UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 5), 130UL);
	KTEST_EXPECT_EQ(t, find_last_bit(map, 130), 130UL);
	KTEST_EXPECT_EQ(t, find_first_zero_bit(map, 130), 0UL);
	KTEST_EXPECT_EQ(t, find_next_zero_bit(map, 130, 77), 77UL);
	KTEST_EXPECT_EQ(t, find_first_bit(map, 0), 0UL);

	/* full */
	bitmap_fill(map, 130);
	KTEST_EXPECT_EQ(t, find_first_bit(map, 130), 0UL);
	KTEST_EXPECT_EQ(t, find_first_zero_bit(map, 130), 130UL);
	KTEST_EXPECT_EQ(t, find_next_zero_bit(map, 130, 64), 130UL);
	KTEST_EXPECT_EQ(t, find_last_bit(map, 130), 129UL);
	__clear_bit(100, map);
	KTEST_EXPECT_EQ(t, find_first_zero_bit(map, 130), 100UL);
	KTEST_EXPECT_EQ(t, find_next_zero_bit(map, 130, 101), 130UL);

	/* sparse */
	bitmap_zero(map, 130);
	for (k = 0; k < ARRAY_SIZE(sparse); k++)
		set_bit(sparse[k], map);
	n = 0;
	for_each_set_bit(bit, map, 130)
		if (n < ARRAY_SIZE(found))
			found[n++] = bit;
	KTEST_EXPECT_EQ(t, n, ARRAY_SIZE(sparse));
	KTEST_EXPECT_MEMEQ(t, found, sparse, sizeof(sparse));

	KTEST_EXPECT_EQ(t, find_first_bit(map, 130), 1UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 1), 1UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 2), 31UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 33), 63UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 65), 127UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 128), 129UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 130), 130UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 1000), 130UL);
	KTEST_EXPECT_EQ(t, find_next_zero_bit(map, 130, 31), 33UL);
	KTEST_EXPECT_EQ(t, find_next_zero_bit(map, 130, 63), 65UL);
	KTEST_EXPECT_EQ(t, find_last_bit(map, 130), 129UL);
	KTEST_EXPECT_EQ(t, find_last_bit(map, 129), 127UL);
	KTEST_EXPECT_EQ(t, find_last_bit(map, 64), 63UL);
	/* set bits at or beyond size are never reported */
	KTEST_EXPECT_EQ(t, find_first_bit(map, 1), 1UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 100, 65), 100UL);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 31, 2), 31UL);

	n = 0;
	for_each_clear_bit(bit, map, 34)
		n++;
	KTEST_EXPECT_EQ(t, n, (size_t)31);	/* 34 minus bits 1, 31, 32 */
}

/* File-scope initialiser: ilog2() of a constant must be a constant. */
static const int ilog2_of_page_size = ilog2(4096);
/* An array bound must be an integer constant expression: checked at build. */
_Static_assert(sizeof(char[ilog2(256)]) == 8, "ilog2 of a constant is a constant");

static void bitops_word_functions(struct ktest *t)
{
	volatile u32 v32;
	volatile u64 v64;

	KTEST_EXPECT_EQ(t, ffs(0), 0);
	KTEST_EXPECT_EQ(t, ffs(1), 1);
	KTEST_EXPECT_EQ(t, ffs(0x18), 4);
	KTEST_EXPECT_EQ(t, ffs(T_INT_MIN), 32);
	KTEST_EXPECT_EQ(t, fls(0), 0);
	KTEST_EXPECT_EQ(t, fls(1), 1);
	KTEST_EXPECT_EQ(t, fls(0x7fffffffu), 31);
	KTEST_EXPECT_EQ(t, fls(0x80000000u), 32);
	KTEST_EXPECT_EQ(t, fls64(0), 0);
	KTEST_EXPECT_EQ(t, fls64(0xffffffffULL), 32);
	KTEST_EXPECT_EQ(t, fls64(0x100000000ULL), 33);
	KTEST_EXPECT_EQ(t, fls64(~0ULL), 64);
	KTEST_EXPECT_EQ(t, __ffs(1UL), 0UL);
	KTEST_EXPECT_EQ(t, __ffs(0x80UL), 7UL);
	KTEST_EXPECT_EQ(t, __ffs(0x80000000UL), 31UL);
	KTEST_EXPECT_EQ(t, __fls(1UL), 0UL);
	KTEST_EXPECT_EQ(t, __fls(0x80000001UL), 31UL);
	KTEST_EXPECT_EQ(t, __fls(~0UL), (unsigned long)BITS_PER_LONG - 1);
	KTEST_EXPECT_EQ(t, ffz(0UL), 0UL);
	KTEST_EXPECT_EQ(t, ffz(0x7fffffffUL), 31UL);

	BUILD_BUG_ON(ilog2(4096) != 12);
	BUILD_BUG_ON(ilog2(1ULL << 40) != 40);
	KTEST_EXPECT_EQ(t, ilog2_of_page_size, 12);
	v32 = 1;
	KTEST_EXPECT_EQ(t, ilog2(v32), 0);
	v32 = 2;
	KTEST_EXPECT_EQ(t, ilog2(v32), 1);
	v32 = 3;
	KTEST_EXPECT_EQ(t, ilog2(v32), 1);
	v32 = 4;
	KTEST_EXPECT_EQ(t, ilog2(v32), 2);
	v32 = 0xffffffff;
	KTEST_EXPECT_EQ(t, ilog2(v32), 31);
	v64 = 1ULL << 40;
	KTEST_EXPECT_EQ(t, ilog2(v64), 40);
	v64 = ~0ULL;
	KTEST_EXPECT_EQ(t, ilog2(v64), 63);

	KTEST_EXPECT_FALSE(t, is_power_of_2(0));
	KTEST_EXPECT_TRUE(t, is_power_of_2(1));
	KTEST_EXPECT_TRUE(t, is_power_of_2(0x80000000UL));
	KTEST_EXPECT_FALSE(t, is_power_of_2(6));
	KTEST_EXPECT_EQ(t, roundup_pow_of_two(1), 1UL);
	KTEST_EXPECT_EQ(t, roundup_pow_of_two(5), 8UL);
	KTEST_EXPECT_EQ(t, roundup_pow_of_two(8), 8UL);
	KTEST_EXPECT_EQ(t, roundup_pow_of_two(0x40000001UL), 0x80000000UL);
	KTEST_EXPECT_EQ(t, rounddown_pow_of_two(1), 1UL);
	KTEST_EXPECT_EQ(t, rounddown_pow_of_two(5), 4UL);
	KTEST_EXPECT_EQ(t, rounddown_pow_of_two(8), 8UL);
	KTEST_EXPECT_EQ(t, rounddown_pow_of_two(0xffffffffUL), 0x80000000UL);

	KTEST_EXPECT_EQ(t, hweight32(0), 0u);
	KTEST_EXPECT_EQ(t, hweight32(0xffffffff), 32u);
	KTEST_EXPECT_EQ(t, hweight32(0x12345678), 13u);
	KTEST_EXPECT_EQ(t, hweight64(~0ULL), 64u);
	KTEST_EXPECT_EQ(t, hweight64(0x8000000000000001ULL), 2u);
	KTEST_EXPECT_EQ(t, hweight8(0xa5), 4u);
}

/* ---------------------------------------------------------------- */
/* sort */

static u32 sort_data[1000], sort_ref[1000];

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The obviously correct reference. */
static void insertion_sort_u32(u32 *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		u32 v = a[i];

		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void sort_random_arrays(struct ktest *t)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 7, 64, 1000 };
	size_t k, i;

	sort(NULL, 0, sizeof(u32), cmp_u32, NULL);	/* must not touch */

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		size_t n = sizes[k];

		for (i = 0; i < ARRAY_SIZE(sort_data); i++)
			sort_data[i] = sort_ref[i] = ktest_random(t);
		insertion_sort_u32(sort_ref, n);
		sort(sort_data, n, sizeof(u32), cmp_u32, NULL);

		for (i = 1; i < n; i++)
			if (sort_data[i - 1] > sort_data[i]) {
				KTEST_FAIL(t, "n=%zu: not sorted at %zu", n, i);
				break;
			}
		/* equal to the reference: sorted and a permutation */
		KTEST_EXPECT_MEMEQ(t, sort_data, sort_ref, n * sizeof(u32));
		/* and nothing past n moved */
		KTEST_EXPECT_MEMEQ(t, sort_data + n, sort_ref + n,
				   (ARRAY_SIZE(sort_data) - n) * sizeof(u32));
	}
}

struct rec3 {
	u8 key, id_lo, id_hi;
};

static int cmp_rec3(const void *a, const void *b)
{
	return ((const struct rec3 *)a)->key - ((const struct rec3 *)b)->key;
}

static unsigned int swap_calls;

static void counting_swap(void *a, void *b, int size)
{
	u32 tmp = *(u32 *)a;

	*(u32 *)a = *(u32 *)b;
	*(u32 *)b = tmp;
	swap_calls++;
}

static void sort_duplicates_and_element_sizes(struct ktest *t)
{
	static struct rec3 recs[300];
	static u64 wide[257], wide_ref[257];
	static bool seen[300];
	unsigned int before[8] = { 0 }, after[8] = { 0 };
	size_t i, j;

	/* 500 values from 0..7: sorted, and every value's count kept */
	for (i = 0; i < 500; i++) {
		sort_data[i] = ktest_random_below(t, 8);
		before[sort_data[i]]++;
	}
	swap_calls = 0;
	sort(sort_data, 500, sizeof(u32), cmp_u32, counting_swap);
	KTEST_EXPECT_GT(t, swap_calls, 0u);
	for (i = 0; i < 500; i++) {
		if (i && sort_data[i - 1] > sort_data[i])
			KTEST_FAIL(t, "duplicates not sorted at %zu", i);
		if (sort_data[i] < 8)
			after[sort_data[i]]++;
	}
	KTEST_EXPECT_MEMEQ(t, before, after, sizeof(before));

	/* 3-byte records (byte swaps), each with a unique id */
	BUILD_BUG_ON(sizeof(struct rec3) != 3);
	for (i = 0; i < ARRAY_SIZE(recs); i++) {
		recs[i].key = (u8)ktest_random_below(t, 50);
		recs[i].id_lo = (u8)i;
		recs[i].id_hi = (u8)(i >> 8);
		seen[i] = false;
	}
	sort(recs, ARRAY_SIZE(recs), sizeof(recs[0]), cmp_rec3, NULL);
	for (i = 0; i < ARRAY_SIZE(recs); i++) {
		size_t id = recs[i].id_lo | (size_t)recs[i].id_hi << 8;

		if (i && recs[i - 1].key > recs[i].key)
			KTEST_FAIL(t, "records not sorted at %zu", i);
		if (id >= ARRAY_SIZE(recs) || seen[id])
			KTEST_FAIL(t, "record id %zu lost or duplicated", id);
		else
			seen[id] = true;
	}

	/* 64-bit elements differing only in their high halves */
	for (i = 0; i < ARRAY_SIZE(wide); i++)
		wide[i] = wide_ref[i] = (u64)ktest_random(t) << 32 | 7;
	sort(wide, ARRAY_SIZE(wide), sizeof(u64), cmp_u64, NULL);
	for (i = 1; i < ARRAY_SIZE(wide_ref); i++) {
		u64 v = wide_ref[i];

		for (j = i; j > 0 && wide_ref[j - 1] > v; j--)
			wide_ref[j] = wide_ref[j - 1];
		wide_ref[j] = v;
	}
	KTEST_EXPECT_MEMEQ(t, wide, wide_ref, sizeof(wide));
}

/* ---------------------------------------------------------------- */
/* random */

static void random_reproducible(struct ktest *t)
{
	/* xoshiro128** seeded by splitmix64, computed independently */
	static const u32 seed0[] = { 0xdec9045d, 0x9a089d75, 0xab77d362,
				     0xc3e16405 };
	static const u32 seed42[] = { 0x69e85a2a, 0xf843fad0, 0x0105185f,
				      0x8a1f1ea6 };
	struct rnd_state a, b;
	u8 bytes[8];
	int i, same;

	prandom_seed_state(&a, 0);
	for (i = 0; i < 4; i++)
		KTEST_EXPECT_EQ(t, prandom_u32_state(&a), seed0[i]);
	prandom_seed_state(&a, 42);
	for (i = 0; i < 4; i++)
		KTEST_EXPECT_EQ(t, prandom_u32_state(&a), seed42[i]);

	/* bytes come low byte first, four per step */
	prandom_seed_state(&a, 42);
	memset(bytes, 0, sizeof(bytes));
	prandom_bytes_state(&a, bytes, 7);
	KTEST_EXPECT_MEMEQ(t, bytes, "\x2a\x5a\xe8\x69\xd0\xfa\x43\x00", 8);

	prandom_seed_state(&a, 0x123456789abcdefULL);
	prandom_seed_state(&b, 0x123456789abcdefULL);
	for (i = 0; i < 100; i++)
		KTEST_EXPECT_EQ(t, prandom_u32_state(&a),
				prandom_u32_state(&b));

	prandom_seed_state(&a, 1);
	prandom_seed_state(&b, 2);
	same = 0;
	for (i = 0; i < 16; i++)
		same += prandom_u32_state(&a) == prandom_u32_state(&b);
	KTEST_EXPECT_LT(t, same, 2);
}

static void random_below_bound(struct ktest *t)
{
	unsigned int hits[7] = { 0 }, thirds[3] = { 0 };
	struct rnd_state s;
	int i;

	prandom_seed_state(&s, ((u64)ktest_random(t) << 32) | ktest_random(t));
	for (i = 0; i < 100; i++) {
		KTEST_EXPECT_EQ(t, prandom_u32_below(&s, 1), 0u);
		KTEST_EXPECT_EQ(t, prandom_u32_below(&s, 0), 0u);
		KTEST_EXPECT_LT(t, prandom_u32_below(&s, 0x80000001u),
				0x80000001u);
	}
	for (i = 0; i < 1000; i++) {
		u32 v = prandom_u32_below(&s, 7);

		if (v >= 7) {
			KTEST_FAIL(t, "prandom_u32_below(7) gave %u", v);
			return;
		}
		hits[v]++;
	}
	for (i = 0; i < 7; i++)
		KTEST_EXPECT_GT(t, hits[i], 0u);

	/* 7.7 standard deviations of slack: a rough uniformity check */
	for (i = 0; i < 3000; i++) {
		u32 v = prandom_u32_below(&s, 3);

		if (v >= 3) {
			KTEST_FAIL(t, "prandom_u32_below(3) gave %u", v);
			return;
		}
		thirds[v]++;
	}
	for (i = 0; i < 3; i++) {
		KTEST_EXPECT_GT(t, thirds[i], 800u);
		KTEST_EXPECT_LT(t, thirds[i], 1200u);
	}
}

/* ---------------------------------------------------------------- */
/* glob, math */

static void glob_match_table(struct ktest *t)
{
	static const struct {
		const char *pat, *str;
		bool match;
	} cases[] = {
		{ "buddy.*", "buddy.alloc_free", true },
		{ "buddy.*", "buddy.", true },
		{ "buddy.*", "buddy", false },
		{ "buddy.*", "slab.buddy.x", false },
		{ "slab.*_test", "slab.kmalloc_test", true },
		{ "slab.*_test", "slab.kmalloc_test2", false },
		{ "", "", true },
		{ "", "a", false },
		{ "a", "", false },
		{ "*", "", true },
		{ "*", "anything/at.all", true },
		{ "?", "", false },
		{ "?", "a", true },
		{ "??", "a", false },
		{ "*?", "", false },
		{ "*?", "x", true },
		{ "a*", "a", true },
		{ "*a", "ba", true },
		{ "*a", "ab", false },
		{ "a*b*c", "abc", true },
		{ "a*b*c", "axxbyyc", true },
		{ "a*b*c", "axxbyycz", false },
		{ "*abc", "abababc", true },
		{ "a*a*a*b", "aaaaaaaaaaaaaaaaaaaa", false },
		{ "*.c", "lib/glob.c", true },
		{ "[abc]", "b", true },
		{ "[abc]", "d", false },
		{ "[a-c]x", "bx", true },
		{ "[!a-c]x", "bx", false },
		{ "[!a-c]x", "dx", true },
		{ "[0-9][0-9]", "42", true },
		{ "[0-9][0-9]", "4x", false },
		{ "[]]", "]", true },
		{ "[!]]", "]", false },
		{ "[!]]", "a", true },
		{ "[a-]", "-", true },
		{ "[-a]", "-", true },
		{ "[!a]", "", false },
		{ "[", "[", true },
		{ "[a", "[a", true },
		{ "\\*", "*", true },
		{ "\\*", "a", false },
		{ "\\?x", "?x", true },
		{ "a\\[b]", "a[b]", true },
		{ "a\\", "a\\", true },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (glob_match(cases[i].pat, cases[i].str) != cases[i].match)
			KTEST_FAIL(t, "glob_match(\"%s\", \"%s\") != %s",
				   cases[i].pat, cases[i].str,
				   cases[i].match ? "true" : "false");
}

static void math_int_sqrt(struct ktest *t)
{
	static const struct {
		unsigned long x, root;
	} cases[] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 8, 2 },
		{ 9, 3 }, { 15, 3 }, { 16, 4 }, { 17, 4 }, { 99, 9 },
		{ 100, 10 }, { 0xfffe0000UL, 65534 }, { 0xfffe0001UL, 65535 },
		{ 0xffffffffUL, 65535 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (int_sqrt(cases[i].x) != cases[i].root)
			KTEST_FAIL(t, "int_sqrt(%lu) = %lu, expected %lu",
				   cases[i].x, int_sqrt(cases[i].x),
				   cases[i].root);

	KTEST_EXPECT_EQ(t, int_sqrt64(0), 0u);
	KTEST_EXPECT_EQ(t, int_sqrt64(17), 4u);
	KTEST_EXPECT_EQ(t, int_sqrt64(0x100000000ULL), 0x10000u);
	KTEST_EXPECT_EQ(t, int_sqrt64(1ULL << 62), 0x80000000u);
	KTEST_EXPECT_EQ(t, int_sqrt64(0xfffffffe00000001ULL), 0xffffffffu);
	KTEST_EXPECT_EQ(t, int_sqrt64(0xfffffffe00000000ULL), 0xfffffffeu);
	KTEST_EXPECT_EQ(t, int_sqrt64(~0ULL), 0xffffffffu);
}

static void math_gcd_and_division(struct ktest *t)
{
	u32 rem = 99;

	KTEST_EXPECT_EQ(t, gcd(0, 0), 0UL);
	KTEST_EXPECT_EQ(t, gcd(0, 5), 5UL);
	KTEST_EXPECT_EQ(t, gcd(5, 0), 5UL);
	KTEST_EXPECT_EQ(t, gcd(12, 18), 6UL);
	KTEST_EXPECT_EQ(t, gcd(17, 5), 1UL);
	KTEST_EXPECT_EQ(t, gcd(1UL << 20, 1UL << 12), 4096UL);
	KTEST_EXPECT_EQ(t, gcd(3UL << 10, 9UL << 4), 48UL);
	KTEST_EXPECT_EQ(t, gcd(7, 7), 7UL);

	KTEST_EXPECT_EQ(t, div_u64_rem(100, 7, &rem), 14ULL);
	KTEST_EXPECT_EQ(t, rem, 2u);
	KTEST_EXPECT_EQ(t, div_u64_rem(10000000000ULL, 7, &rem), 1428571428ULL);
	KTEST_EXPECT_EQ(t, rem, 4u);
	KTEST_EXPECT_EQ(t, div_u64_rem(~0ULL, 0xffffffffu, &rem),
			0x100000001ULL);
	KTEST_EXPECT_EQ(t, rem, 0u);
	KTEST_EXPECT_EQ(t, div_u64(~0ULL, 16), 0x0fffffffffffffffULL);
	KTEST_EXPECT_EQ(t, DIV_ROUND_UP_ULL(10, 10), 1ULL);
	KTEST_EXPECT_EQ(t, DIV_ROUND_UP_ULL(11, 10), 2ULL);
	KTEST_EXPECT_EQ(t, DIV_ROUND_UP_ULL(10000000001ULL, 10), 1000000001ULL);
	KTEST_EXPECT_EQ(t, DIV_ROUND_UP_ULL(0, 4096), 0ULL);
}

static const struct ktest_case lib_cases[] = {
	KTEST_CASE(vsnprintf_integers),
	KTEST_CASE(vsnprintf_width_and_precision),
	KTEST_CASE(vsnprintf_linux_quirks),
	KTEST_CASE(vsnprintf_unknown_conversion),
	KTEST_CASE(vsnprintf_hex_and_octal),
	KTEST_CASE(vsnprintf_length_modifiers),
	KTEST_CASE(vsnprintf_64bit_extremes),
	KTEST_CASE(vsnprintf_strings_and_chars),
	KTEST_CASE(vsnprintf_pointer),
	KTEST_CASE(vsnprintf_truncation),
	KTEST_CASE(string_memory_functions),
	KTEST_CASE(string_memmove_overlap),
	KTEST_CASE(string_str_functions),
	KTEST_CASE(string_bounded_copies),
	KTEST_CASE(string_memchr_inv),
	KTEST_CASE(ctype_classification),
	KTEST_CASE(kstrtox_valid_input),
	KTEST_CASE(kstrtox_rejects_bad_input),
	KTEST_CASE(kstrtobool_words),
	KTEST_CASE(simple_strtox_stops_at_garbage),
	KTEST_CASE(memparse_suffixes),
	KTEST_CASE(list_add_and_delete),
	KTEST_CASE(list_replace_and_move),
	KTEST_CASE(list_splice_variants),
	KTEST_CASE(list_iteration),
	KTEST_CASE(bitops_word_boundaries),
	KTEST_CASE(bitops_find),
	KTEST_CASE(bitops_word_functions),
	KTEST_CASE(sort_random_arrays),
	KTEST_CASE(sort_duplicates_and_element_sizes),
	KTEST_CASE(random_reproducible),
	KTEST_CASE(random_below_bound),
	KTEST_CASE(glob_match_table),
	KTEST_CASE(math_int_sqrt),
	KTEST_CASE(math_gcd_and_division),
	KTEST_END,
};

static const struct ktest_suite lib_suite = {
	.name = "lib",
	.cases = lib_cases,
};
KTEST_SUITE(lib_suite);
