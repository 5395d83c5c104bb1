/*
 * kernel/panic.c - how the kernel reports its own errors: panic(), BUG(),
 * WARN() and dump_stack(), in Linux's words so that the host runner (and
 * a reader who knows Linux) can recognise each one.
 *
 * A panic always ends the run with the failure status, so a boot that
 * panics can never be mistaken for a passing one.  The first CPU to panic
 * reports; another that panics meanwhile stops quietly; a panic inside a
 * panic on the reporting CPU (the reporting path itself broke) ends the
 * run at once.  A BUG() and an oops end in panic() too, so the panic
 * context (set_panic_context()) is told of every way the kernel stops
 * but a triple fault.
 */
#include "asm/irqflags.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/sprintf.h"

static int panic_cpu = -1;
static unsigned int warn_count;
static void (*panic_context)(void);

void set_panic_context(void (*fn)(void))
{
	__atomic_store_n(&panic_context, fn, __ATOMIC_RELEASE);
}

void dump_stack(void)
{
	pr_emerg("Call Trace:\n");
	arch_dump_stack((unsigned long)__builtin_frame_address(0));
}

void panic(const char *fmt, ...)
{
	static char buf[256];
	void (*context)(void);
	va_list args;

	int me, old = -1;

	arch_local_irq_disable();
	me = smp_processor_id();
	if (!__atomic_compare_exchange_n(&panic_cpu, &old, me, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		if (old == me)	/* the panic path itself broke: stop now */
			arch_exit(EXIT_FAILURE_STATUS);
		arch_stop_this_cpu(); /* another CPU is reporting; let it */
	}
	printk_bust_lock();

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	pr_emerg("Kernel panic - not syncing: %s\n", buf);
	context = __atomic_load_n(&panic_context, __ATOMIC_ACQUIRE);
	if (context)
		context();
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", buf);
	arch_exit(EXIT_FAILURE_STATUS);
}

void __bug(const char *file, int line)
{
	pr_emerg("------------[ cut here ]------------\n");
	pr_emerg("kernel BUG at %s:%d!\n", file, line);
	dump_stack();
	panic("Fatal exception");
}

void __warn(const char *file, int line, const char *cond)
{
	warn_count++;
	pr_warn("------------[ cut here ]------------\n");
	pr_warn("WARNING: at %s:%d %s\n", file, line, cond);
	dump_stack();
	pr_warn("---[ end trace %08x ]---\n", warn_count);
}

unsigned int nr_warnings(void)
{
	return warn_count;
}
