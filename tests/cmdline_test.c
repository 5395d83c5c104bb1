/*
 * tests/cmdline_test.c - suite "cmdline": the command line parser.
 *
 * Every case runs parse_args() and friends on its own string and a private
 * parameter table; the only look at the real boot_command_line is a
 * read-only check that the boot image path was stripped from it.  The
 * handlers append "name" (no value) or "name=value" and a ';' to a log,
 * so one string comparison shows which handlers ran, in which order, and
 * whether they got NULL or "".  Every expected string is written out by
 * hand.  One case, registered_refuse_out_of_range, runs the kernel's own
 * registered handlers, only with values each must refuse, and checks that
 * they changed nothing (what fuzz_cmdline checks on random lines).
 */
#include "kernel/cmdline.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/snapshot.h"
#include "tests/ktest.h"

static char calls[1024];
static size_t calls_len;
static char unknowns[512];
static size_t unknowns_len;

static void log_call(char *buf, size_t size, size_t *len, const char *name,
		     const char *val)
{
	*len += scnprintf(buf + *len, size - *len, "%s%s%s;", name,
			  val ? "=" : "", val ? val : "");
}

static int record(const char *name, const char *val)
{
	log_call(calls, sizeof(calls), &calls_len, name, val);
	return 0;
}

static int rec_foo(const char *val) { return record("foo", val); }
static int rec_bar(const char *val) { return record("bar", val); }
static int rec_mem(const char *val) { return record("mem", val); }
static int rec_nohz(const char *val) { return record("nohz", val); }

static int rec_fail(const char *val)
{
	record("fail", val);
	return -EINVAL;
}

static int rec_efail(const char *val)
{
	record("efail", val);
	return -EINVAL;
}

static const struct kernel_param p_foo = { "foo", rec_foo, false };
static const struct kernel_param p_bar = { "bar", rec_bar, false };
static const struct kernel_param p_mem = { "mem", rec_mem, true };
static const struct kernel_param p_nohz = { "no_hz_full", rec_nohz, false };
static const struct kernel_param p_fail = { "fail", rec_fail, false };
static const struct kernel_param p_efail = { "efail", rec_efail, true };

static const struct kernel_param *const params[] = {
	&p_foo, &p_bar, &p_mem, &p_nohz, &p_fail, &p_efail,
};

static void rec_unknown(const char *name, const char *val, void *arg)
{
	int *count = arg;

	log_call(unknowns, sizeof(unknowns), &unknowns_len, name, val);
	if (count)
		(*count)++;
}

static int parse(const char *line, int pass)
{
	return parse_args(line, params, ARRAY_SIZE(params), pass, rec_unknown,
			  NULL);
}

static int cmdline_test_init(struct ktest *t)
{
	calls[0] = '\0';
	calls_len = 0;
	unknowns[0] = '\0';
	unknowns_len = 0;
	return 0;
}

static void plain_name_value(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo=1 bar=hello", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;bar=hello;");
	KTEST_EXPECT_STREQ(t, unknowns, "");
}

/* Only the first '=' splits: the value may hold more of them. */
static void value_with_equals(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo=a=b=c", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=a=b=c;");
}

static void flag_vs_empty_value(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo foo= bar", CMDLINE_PASS_ALL), 0);
	/* "foo" gave NULL (logged bare), "foo=" gave "" (logged "foo="). */
	KTEST_EXPECT_STREQ(t, calls, "foo;foo=;bar;");
}

static void quoted_value(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo=\"a b c\" bar=x", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=a b c;bar=x;");
}

static void quoted_token(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("\"foo=a b\" bar", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=a b;bar;");
}

static void quoted_empty_value(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo=\"\" bar=\"", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=;bar=;");
}

static void unterminated_quote(struct ktest *t)
{
	/* The quote swallows the rest of the line, bar=2 included. */
	KTEST_EXPECT_EQ(t, parse("bar=1 foo=\"a b bar=2", CMDLINE_PASS_ALL),
			0);
	KTEST_EXPECT_STREQ(t, calls, "bar=1;foo=a b bar=2;");

	cmdline_test_init(t);
	KTEST_EXPECT_EQ(t, parse("\"foo=x  y", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=x  y;");
}

static void blanks_and_tabs(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("  \tfoo=1 \t\t bar\t\n", CMDLINE_PASS_ALL),
			0);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;bar;");

	cmdline_test_init(t);
	KTEST_EXPECT_EQ(t, parse(" \t ", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_EQ(t, parse("", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_EQ(t, parse(NULL, CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "");
	KTEST_EXPECT_STREQ(t, unknowns, "");
}

static void repeats_in_order(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo=1 bar foo=2 mem=4M foo=3",
				 CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;bar;foo=2;mem=4M;foo=3;");
}

static void dash_underscore(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("no-hz-full=1 no_hz-full=2 no_hz_full",
				 CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "nohz=1;nohz=2;nohz;");
	KTEST_EXPECT_TRUE(t, parameq("a-b_c", "a_b-c"));
	KTEST_EXPECT_FALSE(t, parameq("a-b", "a_bc"));
	KTEST_EXPECT_FALSE(t, parameq("ab", "a_b"));
	KTEST_EXPECT_FALSE(t, parameq("a.b", "a_b"));
}

static void unknown_through_callback(struct ktest *t)
{
	int count = 0;

	KTEST_EXPECT_EQ(t, parse_args("foo=1 what=2 huh foo huh", params,
				      ARRAY_SIZE(params), CMDLINE_PASS_ALL,
				      rec_unknown, &count), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;foo;");
	/* Every occurrence: the callback does not de-duplicate. */
	KTEST_EXPECT_STREQ(t, unknowns, "what=2;huh;huh;");
	KTEST_EXPECT_EQ(t, count, 3);

	/* A NULL callback just ignores them. */
	KTEST_EXPECT_EQ(t, parse_args("what=2", params, ARRAY_SIZE(params),
				      CMDLINE_PASS_ALL, NULL, NULL), 0);
}

static void unknown_list_dedup(struct ktest *t)
{
	char buf[64];
	size_t n;

	n = cmdline_unknown_list("x=1 foo y mem=64M x=2 y-z y_z q fail", params,
				 ARRAY_SIZE(params), buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, n, (size_t)4);
	KTEST_EXPECT_STREQ(t, buf, "x y y-z q");
	/* The list report calls no handler. */
	KTEST_EXPECT_STREQ(t, calls, "");

	/* Room for "x y" only: the count still says 4. */
	n = cmdline_unknown_list("x=1 foo y mem=64M x=2 y-z y_z q", params,
				 ARRAY_SIZE(params), buf, 6);
	KTEST_EXPECT_EQ(t, n, (size_t)4);
	KTEST_EXPECT_STREQ(t, buf, "x y");

	n = cmdline_unknown_list("foo mem bar=1", params, ARRAY_SIZE(params),
				 buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, n, (size_t)0);
	KTEST_EXPECT_STREQ(t, buf, "");

	/* A quoted name with a space is one name, not the two it looks
	 * like in the list: "a" and "b" are new, the second "a b" is not. */
	n = cmdline_unknown_list("\"a b\" a b \"a b\" a", params,
				 ARRAY_SIZE(params), buf, sizeof(buf));
	KTEST_EXPECT_EQ(t, n, (size_t)3);
	KTEST_EXPECT_STREQ(t, buf, "a b a b");
}

/* 300 'a's, so that "bar=" + these is 304 bytes long. */
static char long_line[512];

static void fill(char *p, char c, size_t n)
{
	memset(p, c, n);
}

static void too_long_token(struct ktest *t)
{
	char names[16];

	/* "foo=1 bar=aaa...a(300) foo=2" */
	memcpy(long_line, "foo=1 bar=", 10);
	fill(long_line + 10, 'a', 300);
	memcpy(long_line + 310, " foo=2", 7);

	KTEST_EXPECT_EQ(t, parse(long_line, CMDLINE_PASS_ALL), 1);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;foo=2;");
	KTEST_EXPECT_STREQ(t, unknowns, "");

	/* The list report skips it too (it was reported as an error). */
	KTEST_EXPECT_EQ(t, cmdline_unknown_list(long_line, NULL, 0, names,
						sizeof(names)), (size_t)1);
	KTEST_EXPECT_STREQ(t, names, "foo");
}

static void token_length_limit(struct ktest *t)
{
	/* "bar=" + 251 'x' = 255 bytes: the longest accepted. */
	memcpy(long_line, "bar=", 4);
	fill(long_line + 4, 'x', 251);
	long_line[255] = '\0';
	KTEST_EXPECT_EQ(t, parse(long_line, CMDLINE_PASS_ALL), 0);
	/* "bar=" + 251 + ";" */
	KTEST_EXPECT_EQ(t, calls_len, (size_t)256);

	/* 256 bytes: rejected. */
	cmdline_test_init(t);
	fill(long_line + 4, 'x', 252);
	long_line[256] = '\0';
	KTEST_EXPECT_EQ(t, parse(long_line, CMDLINE_PASS_ALL), 1);
	KTEST_EXPECT_STREQ(t, calls, "");

	/* Quotes count: '"' + "bar=" + 250 'x' + '"' is 256 bytes. */
	long_line[0] = '"';
	memcpy(long_line + 1, "bar=", 4);
	fill(long_line + 5, 'x', 250);
	long_line[255] = '"';
	long_line[256] = '\0';
	KTEST_EXPECT_EQ(t, parse(long_line, CMDLINE_PASS_ALL), 1);
	KTEST_EXPECT_STREQ(t, calls, "");
}

static void handler_error_counted(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("fail=1 foo fail efail bar", CMDLINE_PASS_ALL),
			3);
	/* Failing handlers do not stop the walk. */
	KTEST_EXPECT_STREQ(t, calls, "fail=1;foo;fail;efail;bar;");
}

/*
 * The registered handlers, each given values out of its documented range:
 * every one is an error, and none changes what it sets.
 */
static void registered_refuse_out_of_range(struct ktest *t)
{
	int loglevel = console_loglevel, locks = debug_locks;
	unsigned int max_cpus = setup_max_cpus, points = mmsnap_points;
	bool poison = page_poisoning;
	char line[256];

	snprintf(line, sizeof(line),
		 "loglevel=16 loglevel maxcpus=x maxcpus numa=fake=0 numa=fake=%d "
		 "numa=on debug_locks=2 page_poison=maybe mmsnap=boot,bogus mmsnap= "
		 "ktest.time_limit=86401 ktest.times=2 ktest.soak=-1 ktest.seed=z",
		 MAX_NUMNODES + 1);
	KTEST_EXPECT_EQ(t, parse_args(line, __start_setup_params,
				      __stop_setup_params - __start_setup_params,
				      CMDLINE_PASS_ALL, NULL, NULL), 15);
	KTEST_EXPECT_EQ(t, console_loglevel, loglevel);
	KTEST_EXPECT_EQ(t, debug_locks, locks);
	KTEST_EXPECT_EQ(t, setup_max_cpus, max_cpus);
	KTEST_EXPECT_EQ(t, mmsnap_points, points);
	KTEST_EXPECT_EQ(t, page_poisoning, poison);
}

static void pass_selection(struct ktest *t)
{
	const char *line = "mem=64M foo=1 efail mem=1G zzz";

	KTEST_EXPECT_EQ(t, parse(line, CMDLINE_PASS_EARLY), 1);
	KTEST_EXPECT_STREQ(t, calls, "mem=64M;efail;mem=1G;");
	/* The other pass's names are known, not unknown. */
	KTEST_EXPECT_STREQ(t, unknowns, "zzz;");

	cmdline_test_init(t);
	KTEST_EXPECT_EQ(t, parse(line, CMDLINE_PASS_LATE), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;");
	KTEST_EXPECT_STREQ(t, unknowns, "zzz;");

	cmdline_test_init(t);
	KTEST_EXPECT_EQ(t, parse(line, CMDLINE_PASS_ALL), 1);
	KTEST_EXPECT_STREQ(t, calls, "mem=64M;foo=1;efail;mem=1G;");
}

static void double_dash_ends(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("foo=1 -- foo=2 zzz", CMDLINE_PASS_ALL), 0);
	KTEST_EXPECT_STREQ(t, calls, "foo=1;");
	KTEST_EXPECT_STREQ(t, unknowns, "");
}

static void skip_image(struct ktest *t)
{
	const char *raw;

	KTEST_EXPECT_STREQ(t, cmdline_skip_image("build/mm86.elf foo=bar"),
			   "foo=bar");
	KTEST_EXPECT_STREQ(t, cmdline_skip_image("/boot/mm86.elf  \tfoo=bar nosmp"),
			   "foo=bar nosmp");
	KTEST_EXPECT_STREQ(t, cmdline_skip_image("build/mm86.elf"), "");
	KTEST_EXPECT_STREQ(t, cmdline_skip_image("/boot/mm86.elf "), "");
	KTEST_EXPECT_STREQ(t, cmdline_skip_image(""), "");
	KTEST_EXPECT_STREQ(t, cmdline_skip_image(NULL), "");

	/* Not an image: an '=' in the first word, or no '/'. */
	raw = "root=/dev/sda foo";
	KTEST_EXPECT_PTR_EQ(t, cmdline_skip_image(raw), raw);
	raw = "mm86.elf foo";
	KTEST_EXPECT_PTR_EQ(t, cmdline_skip_image(raw), raw);
	raw = " foo=1 a/b";
	KTEST_EXPECT_PTR_EQ(t, cmdline_skip_image(raw), raw);
}

static void copy_truncates_at_token(struct ktest *t)
{
	char dst[16];
	size_t dropped = 99;

	/* 19 bytes into 15: "ccccccc" would end at 16. */
	KTEST_EXPECT_EQ(t, cmdline_copy(dst, 16, "aaa bbbb ccccccc dd", &dropped),
			(size_t)8);
	KTEST_EXPECT_STREQ(t, dst, "aaa bbbb");
	KTEST_EXPECT_EQ(t, dropped, (size_t)11);

	/* A token ending exactly at byte 15 is kept. */
	KTEST_EXPECT_EQ(t, cmdline_copy(dst, 16, "aaaa bbbb ccccc dd", &dropped),
			(size_t)15);
	KTEST_EXPECT_STREQ(t, dst, "aaaa bbbb ccccc");
	KTEST_EXPECT_EQ(t, dropped, (size_t)3);

	/* Fits: copied whole, blanks and all. */
	KTEST_EXPECT_EQ(t, cmdline_copy(dst, 8, " abc  d", &dropped), (size_t)7);
	KTEST_EXPECT_STREQ(t, dst, " abc  d");
	KTEST_EXPECT_EQ(t, dropped, (size_t)0);

	/* No whole token fits: cut at size - 1. */
	KTEST_EXPECT_EQ(t, cmdline_copy(dst, 5, "abcdefghij", &dropped),
			(size_t)4);
	KTEST_EXPECT_STREQ(t, dst, "abcd");
	KTEST_EXPECT_EQ(t, dropped, (size_t)6);

	/* A quoted token is one token: its blanks are no boundary. */
	KTEST_EXPECT_EQ(t, cmdline_copy(dst, 8, "a \"b c d\" e", &dropped),
			(size_t)1);
	KTEST_EXPECT_STREQ(t, dst, "a");
	KTEST_EXPECT_EQ(t, dropped, (size_t)10);

	KTEST_EXPECT_EQ(t, cmdline_copy(dst, 1, "abc", &dropped), (size_t)0);
	KTEST_EXPECT_STREQ(t, dst, "");
	KTEST_EXPECT_EQ(t, dropped, (size_t)3);
}

static void find_option_last(struct ktest *t)
{
	const char *line = "mem=1G foo mem=2G quiet= nosmp=1 bar-baz=x \"q=a b\"";
	char buf[16];

	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "mem", buf, sizeof(buf)), 2);
	KTEST_EXPECT_STREQ(t, buf, "2G");
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "foo", buf, sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "");
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "quiet", buf, sizeof(buf)),
			0);
	KTEST_EXPECT_STREQ(t, buf, "");
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "bar_baz", buf, sizeof(buf)),
			1);
	KTEST_EXPECT_STREQ(t, buf, "x");
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "q", buf, sizeof(buf)), 3);
	KTEST_EXPECT_STREQ(t, buf, "a b");
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "absent", buf, sizeof(buf)),
			-ENOENT);
	KTEST_EXPECT_STREQ(t, buf, "");
	/* "me" is a prefix of "mem", not a match. */
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "me", buf, sizeof(buf)),
			-ENOENT);

	/* The full length is returned even when buf is too small. */
	KTEST_EXPECT_EQ(t, cmdline_find_option(line, "mem", buf, 2), 2);
	KTEST_EXPECT_STREQ(t, buf, "2");

	/* The last occurrence wins even when it has no value. */
	KTEST_EXPECT_EQ(t, cmdline_find_option("mem=1G mem", "mem", buf,
					       sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "");

	KTEST_EXPECT_TRUE(t, cmdline_find_option_bool(line, "foo"));
	KTEST_EXPECT_FALSE(t, cmdline_find_option_bool(line, "nosmp"));
	KTEST_EXPECT_FALSE(t, cmdline_find_option_bool(line, "mem"));
	KTEST_EXPECT_FALSE(t, cmdline_find_option_bool(line, "fo"));
	KTEST_EXPECT_FALSE(t, cmdline_find_option_bool("", "foo"));
}

/* Read-only look at the real line: the image path must be gone. */
static void boot_line_has_no_image(struct ktest *t)
{
	const char *p = boot_command_line;
	bool slash = false, equals = false;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p && *p != ' ' && *p != '\t'; p++) {
		if (*p == '/')
			slash = true;
		if (*p == '=')
			equals = true;
	}
	if (slash && !equals)
		KTEST_FAIL(t, "boot_command_line starts with an image path: '%s'",
			   boot_command_line);
}

static const struct ktest_case cmdline_cases[] = {
	KTEST_CASE(plain_name_value),
	KTEST_CASE(value_with_equals),
	KTEST_CASE(flag_vs_empty_value),
	KTEST_CASE(quoted_value),
	KTEST_CASE(quoted_token),
	KTEST_CASE(quoted_empty_value),
	KTEST_CASE(unterminated_quote),
	KTEST_CASE(blanks_and_tabs),
	KTEST_CASE(repeats_in_order),
	KTEST_CASE(dash_underscore),
	KTEST_CASE(unknown_through_callback),
	KTEST_CASE(unknown_list_dedup),
	KTEST_CASE(too_long_token),
	KTEST_CASE(token_length_limit),
	KTEST_CASE(handler_error_counted),
	KTEST_CASE(registered_refuse_out_of_range),
	KTEST_CASE(pass_selection),
	KTEST_CASE(double_dash_ends),
	KTEST_CASE(skip_image),
	KTEST_CASE(copy_truncates_at_token),
	KTEST_CASE(find_option_last),
	KTEST_CASE(boot_line_has_no_image),
	KTEST_END,
};

static const struct ktest_suite cmdline_suite = {
	.name = "cmdline",
	.init = cmdline_test_init,
	.cases = cmdline_cases,
};
KTEST_SUITE(cmdline_suite);
