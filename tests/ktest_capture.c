/*
 * tests/ktest_capture.c - a console of a case's own, for cases that check
 * what the kernel printed (a BUG: report, acpi_print()'s lines).
 *
 * While a capture is on, every complete line that reaches the consoles is
 * handed to the case's function with its "[    1.234567] " timestamp
 * taken off.  The function runs where the printk did, on any CPU, under
 * the log's lock: it may only copy what it wants into its own buffers,
 * which the case reads after ktest_capture_stop() has returned.  A line
 * longer than KTEST_CAPTURE_LINE is cut, and one capture runs at a time.
 * A capture sees every level (the console's all_levels): loglevel= and
 * quiet hide messages from the serial line, not from a case's oracle.
 *
 * What a capture catches is held back from the serial line: the capture
 * is an exclusive console (kernel/printk.c), the lines are kept here (the
 * first KTEST_CAPTURE_HELD bytes of a case's), and the case ends on one
 * diagnostic line instead: how many lines its captures held back, and the
 * first report ("BUG:" or "WARNING:") among them.  A provoked lockdep report or a parser's complaints about a test's
 * bad input are the case's oracle, not its output, and under an emulator
 * every byte on the serial line costs microseconds.  The lines come out
 * after all when they matter: the runner prints them when the case fails
 * (ktest_capture_replay()), and so does the panic context when the kernel
 * stops in the case.  ktest.echo=1 lets every line through as it comes,
 * between the two lines that tell tools/runner.py the "BUG:" and
 * "WARNING:" lines between them are expected (ktest_expected_reports(),
 * which a case that does not capture calls itself around its report).
 */
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define KTEST_CAPTURE_HELD 8192

static bool echo;

static int ktest_echo_setup(const char *val)
{
	return val && !kstrtobool(val, &echo) ? 0 : -EINVAL;
}
__setup("ktest.echo", ktest_echo_setup);

static struct {
	void (*fn)(const char *line);
	char cur[KTEST_CAPTURE_LINE];
	size_t len;
	/* The case's held-back lines and first report; reset per case. */
	unsigned int lines;
	char report[KTEST_CAPTURE_LINE];
	char held[KTEST_CAPTURE_HELD];
	size_t held_len;
	unsigned int held_lines, dropped;
	bool replaying;			/* the replay's own lines are not held */
} cap;

static bool is_report(const char *line)
{
	return strstr(line, "BUG:") || strstr(line, "WARNING:");
}

/*
 * Keeps a line for the replay, if it fits: a 'k' for a printk line (its
 * timestamp was taken off) or an 'r' for a raw one, the text, a newline.
 */
static void hold(char kind, const char *line)
{
	size_t n = strlen(line);

	if (cap.held_len + n + 2 > sizeof(cap.held)) {
		cap.dropped++;
		return;
	}
	cap.held[cap.held_len++] = kind;
	memcpy(cap.held + cap.held_len, line, n);
	cap.held_len += n;
	cap.held[cap.held_len++] = '\n';
	cap.held_lines++;
}

static void capture_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		const char *line = cap.cur, *end;
		char kind = 'r';

		if (s[i] != '\n') {
			if (cap.len < sizeof(cap.cur) - 1)
				cap.cur[cap.len++] = s[i];
			continue;
		}
		cap.cur[cap.len] = '\0';
		cap.len = 0;
		end = strstr(line, "] ");
		if (line[0] == '[' && end) {
			line = end + 2;
			kind = 'k';
		}
		if (!echo && !cap.replaying) {
			hold(kind, line);
			if (!cap.report[0] && is_report(line))
				strscpy(cap.report, line, sizeof(cap.report));
			cap.lines++;
		}
		cap.fn(line);
	}
}

static const struct console capture_console = {
	.name = "ktest_capture",
	.write = capture_write,
	.all_levels = true,
};

static const struct console capture_console_exclusive = {
	.name = "ktest_capture",
	.write = capture_write,
	.exclusive = true,
	.all_levels = true,
};

/* At the top level, so that it shows whenever the reports it brackets do
 * (quiet hides an info line, not a BUG:). */
void ktest_expected_reports(bool begin)
{
	printk(KERN_EMERG "%s\n", begin ? KTEST_EXPECTED_BEGIN : KTEST_EXPECTED_END);
}

void ktest_capture_start(void (*fn)(const char *line))
{
	BUG_ON(cap.fn);
	if (echo)
		ktest_expected_reports(true);
	cap.fn = fn;
	cap.len = 0;
	register_console(echo ? &capture_console : &capture_console_exclusive);
}

void ktest_capture_stop(void)
{
	unregister_console(echo ? &capture_console :
			   &capture_console_exclusive);
	cap.fn = NULL;
	if (echo)
		ktest_expected_reports(false);
}

void ktest_capture_reset(void)
{
	cap.lines = 0;
	cap.report[0] = '\0';
	cap.held_len = 0;
	cap.held_lines = 0;
	cap.dropped = 0;
}

void ktest_capture_end_case(const char *case_name, bool failed)
{
	if (failed) {
		ktest_capture_replay(case_name);
	} else if (cap.lines) {
		printk_raw("    # %u line%s held back (ktest.echo=1 shows them)%s%s\n",
			   cap.lines, cap.lines == 1 ? "" : "s",
			   cap.report[0] ? "; the first report: " : "",
			   cap.report);
		ktest_capture_reset();
	}
}

void ktest_capture_replay(const char *case_name)
{
	if (!cap.lines)
		return;
	cap.replaying = true;
	printk_raw("    # %s: the %u line%s its captures held back:\n",
		   case_name, cap.held_lines, cap.held_lines == 1 ? "" : "s");
	for (size_t start = 0, i = 0; i < cap.held_len; i++) {
		const char *line = cap.held + start + 1;
		int n = (int)(i - start - 1);

		if (cap.held[i] != '\n')
			continue;
		if (cap.held[start] == 'k')
			printk("%.*s\n", n, line);
		else
			printk_raw("%.*s\n", n, line);
		start = i + 1;
	}
	if (cap.dropped)
		printk_raw("    # ... and %u more lines, not kept\n", cap.dropped);
	cap.replaying = false;
	ktest_capture_reset();
}
