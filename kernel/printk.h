/*
 * kernel/printk.h - the kernel log.
 *
 * printk() formats into a line, prefixes it with Linux's timestamp
 * "[    1.234567] " and writes it to every registered console (COM1).
 * A message may start with a KERN_<LEVEL> marker; messages whose level is
 * above console_loglevel (loglevel=N, default 7) are not printed.
 * printk_raw() writes without timestamp or level: the KTAP report uses it
 * so that its lines are exactly KTAP.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include "lib/compiler.h"
#include "lib/types.h"

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"

#define LOGLEVEL_DEFAULT 4 /* a message without a level is a warning */

extern int console_loglevel;

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args);
/* No timestamp, no level: for KTAP and other machine-read output. */
int printk_raw(const char *fmt, ...) __printf(1, 2);

/*
 * A console receives every byte printed (bytes, not lines), under the
 * log's lock with interrupts off: its write() must not printk.  Once
 * unregister_console() has returned, write() is not running and will not
 * be called again, so what it recorded may be read without a lock.
 */
/*
 * A console.  An exclusive one, while registered, is the only console
 * written to (one at a time; a test's capture that keeps what it catches
 * off the serial line); a panic ends the exclusivity, so that the end of
 * the story reaches every console.  While one that wants all_levels is
 * registered, every message is written, whatever console_loglevel says
 * (a test's capture again: Linux's log buffer keeps every level, and a
 * case that checks a message must pass under quiet).
 */
struct console {
	const char *name;
	void (*write)(const char *s, size_t len);
	bool exclusive;
	bool all_levels;
};
void register_console(const struct console *con);
void unregister_console(const struct console *con);

/* Re-initialises the console lock: for panic, which cannot wait. */
void printk_bust_lock(void);

/* Nanoseconds since boot as printk shows them; 0 until the clock is set. */
u64 printk_clock_ns(void);

/*
 * Rate limiting (2.6's printk_ratelimit): a caller that may print often
 * asks first.  Within each interval (jiffies) the first burst callers are
 * told yes, the rest no and counted; the first call of the next interval
 * is preceded by "printk: N messages suppressed." when any were.  The
 * burst-per-interval state is 2.6.28's ratelimit_state; the defaults and
 * the message are 2.6.18's (which spent them as a token bucket).  A caller that finds the state busy on another CPU (or under
 * itself, from an interrupt) is told no without being counted, so it is
 * safe from any context with interrupts on or off.  interval 0: always
 * yes.  printk_ratelimit() uses the one shared state, 10 messages every
 * 5 s (2.6.18: printk_ratelimit_burst, printk_ratelimit_jiffies); tests
 * run ratelimit() on a state of their own.
 */
struct ratelimit_state {
	unsigned int busy;	/* taken by try-lock, interrupts off */
	bool begun;		/* begin is set */
	unsigned int burst;
	unsigned long interval;
	unsigned long begin;	/* jiffies at the start of this interval */
	unsigned int printed;	/* yeses in this interval */
	unsigned int missed;	/* noes counted in this interval */
};

#define RATELIMIT_STATE_INIT(i, b) { .interval = (i), .burst = (b) }
#define PRINTK_RATELIMIT_INTERVAL (5 * HZ)
#define PRINTK_RATELIMIT_BURST 10

extern struct ratelimit_state printk_ratelimit_state;

void ratelimit_state_init(struct ratelimit_state *rs, unsigned long interval,
			  unsigned int burst);
/* The decision at time now (jiffies): true to print. */
bool ratelimit_at(struct ratelimit_state *rs, unsigned long now);
/* ratelimit_at(rs, jiffies). */
bool ratelimit(struct ratelimit_state *rs);
bool printk_ratelimit(void);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

#endif /* KERNEL_PRINTK_H */
