/*
 * kernel/printk.c - the kernel log, written straight to the consoles.
 *
 * There is no ring buffer: the serial line is the log, and the host reads
 * it.  Each printk() is formatted into one buffer, its KERN_<LEVEL>
 * marker taken off, and every line of it prefixed with the time since
 * boot as Linux prints it ("[    0.001234] ").  A message that does not
 * end in '\n' leaves the line open for a KERN_CONT continuation; any other
 * message first closes it.  Every registered console gets every line,
 * except while an exclusive one is registered (a test's capture): then
 * only that one, until it goes or a panic busts the log's lock.
 * console_loglevel (loglevel=, quiet, debug) decides which levels are
 * written, except while a console that wants all_levels is registered
 * (a capture again): then every level is.
 *
 * Locking: logbuf_lock, with interrupts off, while a message is formatted
 * and written, so that a message is never interleaved with another CPU's
 * or an interrupt handler's.  It is a leaf lock; panic busts it.
 */
#include "asm/irqflags.h"
#include "kernel/spinlock.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/timer.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/sprintf.h"
#include "lib/string.h"

#define LOG_LINE_MAX 1024
#define MAX_CONSOLES 4

int console_loglevel = 7;

static const struct console *consoles[MAX_CONSOLES];
static unsigned int nr_consoles;
static const struct console *exclusive_console;
static unsigned int nr_all_levels;	/* registered consoles with all_levels */
static char printk_buf[LOG_LINE_MAX];
static bool line_open;
/* Serialises the buffer, the open line and the console among CPUs. */
static DEFINE_SPINLOCK(logbuf_lock);

static unsigned long printk_lock(void)
{
	unsigned long flags = arch_local_irq_save();

	spin_lock(&logbuf_lock);
	return flags;
}

static void printk_unlock(unsigned long flags)
{
	spin_unlock(&logbuf_lock);
	arch_local_irq_restore(flags);
}

/*
 * A CPU that panics may have died holding the lock: the report matters
 * more than the other CPUs' lines (Linux's bust_spinlocks).
 */
void printk_bust_lock(void)
{
	spin_lock_init(&logbuf_lock);
	exclusive_console = NULL;
}

/* Both under logbuf_lock: a console is never half added or removed. */
void register_console(const struct console *con)
{
	unsigned long flags = printk_lock();

	BUG_ON(con->exclusive && exclusive_console);
	if (nr_consoles < MAX_CONSOLES) {
		consoles[nr_consoles++] = con;
		if (con->exclusive)
			exclusive_console = con;
		if (con->all_levels)
			nr_all_levels++;
	}
	printk_unlock(flags);
}

void unregister_console(const struct console *con)
{
	unsigned long flags = printk_lock();

	if (exclusive_console == con)
		exclusive_console = NULL;
	for (unsigned int i = 0; i < nr_consoles; i++) {
		if (consoles[i] != con)
			continue;
		if (con->all_levels)
			nr_all_levels--;
		nr_consoles--;
		memmove(&consoles[i], &consoles[i + 1],
			(nr_consoles - i) * sizeof(consoles[0]));
		consoles[nr_consoles] = NULL;
		break;
	}
	printk_unlock(flags);
}

static void console_write(const char *s, size_t len)
{
	if (exclusive_console) {
		exclusive_console->write(s, len);
		return;
	}
	for (unsigned int i = 0; i < nr_consoles; i++)
		consoles[i]->write(s, len);
}

/* ---- rate limiting (printk.h) ------------------------------------------ */

struct ratelimit_state printk_ratelimit_state =
	RATELIMIT_STATE_INIT(PRINTK_RATELIMIT_INTERVAL, PRINTK_RATELIMIT_BURST);

void ratelimit_state_init(struct ratelimit_state *rs, unsigned long interval,
			  unsigned int burst)
{
	memset(rs, 0, sizeof(*rs));
	rs->interval = interval;
	rs->burst = burst;
}

bool ratelimit_at(struct ratelimit_state *rs, unsigned long now)
{
	unsigned int suppressed = 0;
	unsigned long flags;
	bool ok;

	if (!rs->interval)
		return true;
	flags = arch_local_irq_save();
	if (__atomic_exchange_n(&rs->busy, 1, __ATOMIC_ACQUIRE)) {
		arch_local_irq_restore(flags);
		return false;
	}
	if (!rs->begun || time_after_eq(now, rs->begin + rs->interval)) {
		suppressed = rs->missed;
		rs->begun = true;
		rs->begin = now;
		rs->printed = 0;
		rs->missed = 0;
	}
	ok = rs->printed < rs->burst;
	if (ok)
		rs->printed++;
	else
		rs->missed++;
	__atomic_store_n(&rs->busy, 0, __ATOMIC_RELEASE);
	arch_local_irq_restore(flags);
	/* Printed outside the state: the log's lock is never taken under it. */
	if (suppressed)
		printk(KERN_WARNING "printk: %u messages suppressed.\n", suppressed);
	return ok;
}

bool ratelimit(struct ratelimit_state *rs)
{
	return ratelimit_at(rs, jiffies);
}

bool printk_ratelimit(void)
{
	return ratelimit(&printk_ratelimit_state);
}

u64 printk_clock_ns(void)
{
	return arch_clock_ns();
}

static void print_time(void)
{
	char ts[32];
	u64 ns = printk_clock_ns();
	unsigned long long sec = ns / 1000000000ULL;
	unsigned long usec = (unsigned long)(ns % 1000000000ULL) / 1000;
	int n = snprintf(ts, sizeof(ts), "[%5llu.%06lu] ", sec, usec);

	console_write(ts, (size_t)n);
}

/* Strips a KERN_SOH marker; returns the level, 'c' for KERN_CONT, or -1. */
static int take_level(const char **text)
{
	const char *s = *text;

	if (s[0] != KERN_SOH[0] || s[1] == '\0')
		return -1;
	*text = s + 2;
	if (s[1] == 'c')
		return 'c';
	if (s[1] >= '0' && s[1] <= '7')
		return s[1] - '0';
	return -1;
}

static void emit(const char *text, size_t len, bool cont)
{
	size_t start = 0;

	if (line_open && !cont) {
		console_write("\n", 1);
		line_open = false;
	}
	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;

		if (!line_open)
			print_time();
		console_write(text + start, end - start);
		line_open = !nl;
		start = end;
	}
}

int vprintk(const char *fmt, va_list args)
{
	unsigned long flags = printk_lock();
	const char *text = printk_buf;
	int level, len;

	len = vscnprintf(printk_buf, sizeof(printk_buf), fmt, args);
	level = take_level(&text);
	len -= (int)(text - printk_buf);
	if (level == 'c') {
		if (line_open || nr_all_levels ||
		    console_loglevel > LOGLEVEL_DEFAULT)
			emit(text, (size_t)len, true);
	} else {
		if (level < 0)
			level = LOGLEVEL_DEFAULT;
		if (nr_all_levels || level < console_loglevel)
			emit(text, (size_t)len, false);
	}
	printk_unlock(flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vprintk(fmt, args);
	va_end(args);
	return n;
}

int printk_raw(const char *fmt, ...)
{
	unsigned long flags = printk_lock();
	va_list args;
	int n;

	if (line_open) {
		console_write("\n", 1);
		line_open = false;
	}
	va_start(args, fmt);
	n = vscnprintf(printk_buf, sizeof(printk_buf), fmt, args);
	va_end(args);
	console_write(printk_buf, (size_t)n);
	printk_unlock(flags);
	return n;
}

static int loglevel_setup(const char *val)
{
	unsigned int level;

	if (!val || kstrtouint(val, 10, &level) || level > 15)
		return -EINVAL;
	console_loglevel = (int)level;
	return 0;
}
early_param("loglevel", loglevel_setup);

static int quiet_setup(const char *val)
{
	console_loglevel = LOGLEVEL_DEFAULT;
	return 0;
}
early_param("quiet", quiet_setup);

static int debug_setup(const char *val)
{
	console_loglevel = 10;
	return 0;
}
early_param("debug", debug_setup);
