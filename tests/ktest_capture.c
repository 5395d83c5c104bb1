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
 *
 * A capture is for reports a case provokes on purpose: start and stop
 * print the lines that tell tools/runner.py the "BUG:" and "WARNING:"
 * lines between them are expected (ktest_expected_reports(), which a case
 * that does not capture calls itself around its report).
 */
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "tests/ktest.h"

static struct {
	void (*fn)(const char *line);
	char cur[KTEST_CAPTURE_LINE];
	size_t len;
} cap;

static void capture_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		const char *line = cap.cur, *end;

		if (s[i] != '\n') {
			if (cap.len < sizeof(cap.cur) - 1)
				cap.cur[cap.len++] = s[i];
			continue;
		}
		cap.cur[cap.len] = '\0';
		cap.len = 0;
		end = strstr(line, "] ");
		if (line[0] == '[' && end)
			line = end + 2;
		cap.fn(line);
	}
}

static const struct console capture_console = {
	.name = "ktest_capture",
	.write = capture_write,
};

void ktest_expected_reports(bool begin)
{
	pr_info("%s\n", begin ? KTEST_EXPECTED_BEGIN : KTEST_EXPECTED_END);
}

void ktest_capture_start(void (*fn)(const char *line))
{
	BUG_ON(cap.fn);
	ktest_expected_reports(true);
	cap.fn = fn;
	cap.len = 0;
	register_console(&capture_console);
}

void ktest_capture_stop(void)
{
	unregister_console(&capture_console);
	cap.fn = NULL;
	ktest_expected_reports(false);
}
