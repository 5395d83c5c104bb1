/*
 * tests/ktest_test.c - the "ktest" suite: the framework checks itself.
 *
 * A case that fails on every one of a thousand pages must not bury its
 * first, telling, message: ktest prints a case's first
 * KTEST_FAILURES_SHOWN failures and counts the rest into one closing
 * "... N more failures not shown" line.  These cases run a sub-case of
 * their own (a struct ktest that is not the runner's), make it fail a
 * known number of times under a capture, and count the lines it printed.
 * The sub-case's lines reach the serial log too, as diagnostics of the
 * passing case that provoked them.  A failure's message shows its
 * expressions as they were written, macros unexpanded: a case captures
 * the lines and reads them.
 */
#include "lib/string.h"
#include "tests/ktest.h"

static struct {
	unsigned int headers;	/* "# sub_case: EXPECTATION FAILED" lines */
	unsigned int more_lines;
	long more;		/* N of the last "... N more" line, -1: none */
} seen;

static void count_line(const char *line)
{
	static const char more[] = "    # sub_case: ... ";
	const char *p;
	long n = 0;

	if (strstr(line, "# sub_case: EXPECTATION FAILED at "))
		seen.headers++;
	if (strncmp(line, more, sizeof(more) - 1) != 0)
		return;
	p = line + sizeof(more) - 1;
	if (*p < '0' || *p > '9')
		return;
	while (*p >= '0' && *p <= '9')
		n = n * 10 + (*p++ - '0');
	if (!strcmp(p, " more failures not shown")) {
		seen.more_lines++;
		seen.more = n;
	}
}

/* Runs a sub-case that fails `failures` times, half EXPECT, half FAIL. */
static struct ktest run_failing_sub_case(struct ktest *t,
					 unsigned int failures)
{
	struct ktest sub = { .name = "sub_case", .suite = t->suite };

	memset(&seen, 0, sizeof(seen));
	seen.more = -1;
	ktest_capture_start(count_line);
	for (unsigned int i = 0; i < failures; i++) {
		if (i % 2)
			KTEST_EXPECT_EQ(&sub, i, i + 1);
		else
			KTEST_FAIL(&sub, "failure %u of %u", i + 1, failures);
	}
	ktest_report_hidden_failures(&sub);
	ktest_capture_stop();
	return sub;
}

static void failures_past_the_cap_are_counted(struct ktest *t)
{
	const unsigned int failures = 3 * KTEST_FAILURES_SHOWN + 7;
	struct ktest sub = run_failing_sub_case(t, failures);

	KTEST_EXPECT_TRUE(t, sub.failed);
	KTEST_EXPECT_EQ(t, sub.nr_failures, failures);
	KTEST_EXPECT_EQ(t, seen.headers, KTEST_FAILURES_SHOWN);
	KTEST_EXPECT_EQ(t, seen.more_lines, 1u);
	KTEST_EXPECT_EQ(t, seen.more, (long)(failures - KTEST_FAILURES_SHOWN));
}

static void failures_up_to_the_cap_are_all_shown(struct ktest *t)
{
	struct ktest sub = run_failing_sub_case(t, KTEST_FAILURES_SHOWN);

	KTEST_EXPECT_TRUE(t, sub.failed);
	KTEST_EXPECT_EQ(t, seen.headers, KTEST_FAILURES_SHOWN);
	KTEST_EXPECT_EQ(t, seen.more_lines, 0u);

	sub = run_failing_sub_case(t, KTEST_FAILURES_SHOWN + 1);
	KTEST_EXPECT_EQ(t, seen.headers, KTEST_FAILURES_SHOWN);
	KTEST_EXPECT_EQ(t, seen.more_lines, 1u);
	KTEST_EXPECT_EQ(t, seen.more, 1);
}

static void a_passing_sub_case_prints_nothing(struct ktest *t)
{
	struct ktest sub = run_failing_sub_case(t, 0);

	KTEST_EXPECT_FALSE(t, sub.failed);
	KTEST_EXPECT_EQ(t, seen.headers, 0u);
	KTEST_EXPECT_EQ(t, seen.more_lines, 0u);
}

/* ---- expressions are shown as written -------------------------------- */

/* Macros whose expansion must not reach a failure's message. */
#define KTEST_TEST_BITS (1u << 2)
#define KTEST_TEST_NAME ("ex" "pand" "ed")
#define KTEST_TEST_NONE ((const void *)0)

#define SHOWN_LINES 16

static struct {
	char line[SHOWN_LINES][KTEST_CAPTURE_LINE];
	unsigned int n;
} shown;

static void keep_line(const char *line)
{
	if (shown.n < SHOWN_LINES)
		strscpy(shown.line[shown.n++], line, KTEST_CAPTURE_LINE);
}

/* Was this line printed, whole, after its "    # " indentation? */
static bool line_shown(const char *want)
{
	for (unsigned int i = 0; i < shown.n; i++)
		if (!strncmp(shown.line[i], "    # ", 6) &&
		    !strcmp(shown.line[i] + 6, want))
			return true;
	return false;
}

/* Did any line hold this text? */
static bool text_shown(const char *text)
{
	for (unsigned int i = 0; i < shown.n; i++)
		if (strstr(shown.line[i], text))
			return true;
	return false;
}

/*
 * A sub-case fails an expectation of each kind on expressions that use
 * macros: every message names the macros as written, and none holds
 * their expansions ("1u << 2", the pasted string, "(const void *)0").
 */
static void messages_show_expressions_as_written(struct ktest *t)
{
	struct ktest sub = { .name = "sub_case", .suite = t->suite };
	volatile unsigned int mask = KTEST_TEST_BITS | 1u;
	const char *name = "written";
	int x = 1;

	memset(&shown, 0, sizeof(shown));
	ktest_capture_start(keep_line);
	KTEST_EXPECT_EQ(&sub, mask & KTEST_TEST_BITS, 0u);
	KTEST_EXPECT_STREQ(&sub, name, KTEST_TEST_NAME);
	KTEST_EXPECT_PTR_EQ(&sub, &x, KTEST_TEST_NONE);
	KTEST_EXPECT_FALSE(&sub, mask & KTEST_TEST_BITS);
	ktest_capture_stop();

	KTEST_EXPECT_EQ(t, sub.nr_failures, 4u);
	KTEST_EXPECT_TRUE(t, line_shown("Expected mask & KTEST_TEST_BITS == 0u, but"));
	KTEST_EXPECT_TRUE(t, line_shown("    mask & KTEST_TEST_BITS == 4 (0x4)"));
	KTEST_EXPECT_TRUE(t, line_shown("Expected name == KTEST_TEST_NAME, but"));
	KTEST_EXPECT_TRUE(t, line_shown("    KTEST_TEST_NAME == \"expanded\""));
	KTEST_EXPECT_TRUE(t, line_shown("Expected &x == KTEST_TEST_NONE, but"));
	KTEST_EXPECT_TRUE(t, line_shown("Expected mask & KTEST_TEST_BITS to be false"));
	KTEST_EXPECT_FALSE(t, text_shown("1u << 2"));
	KTEST_EXPECT_FALSE(t, text_shown("\"ex\" \"pand\""));
	KTEST_EXPECT_FALSE(t, text_shown("const void *"));
	if (t->failed)
		for (unsigned int i = 0; i < shown.n; i++)
			ktest_printf(t, "captured: %s", shown.line[i]);
}

static const struct ktest_case ktest_cases[] = {
	KTEST_CASE(failures_past_the_cap_are_counted),
	KTEST_CASE(failures_up_to_the_cap_are_all_shown),
	KTEST_CASE(a_passing_sub_case_prints_nothing),
	KTEST_CASE(messages_show_expressions_as_written),
	KTEST_END,
};

static struct ktest_suite ktest_suite = {
	.name = "ktest",
	.cases = ktest_cases,
};
KTEST_SUITE(ktest_suite);
