/*
 * tests/fuzz/fuzz_cmdline.c - libFuzzer target: arbitrary bytes as the
 * boot loader's command line, through kernel/cmdline.c (the image path
 * skipped, the copy cut at a token end, the early and late passes over
 * every registered parameter, the list of unknown names, the option
 * finders) and each registered handler: mem=, memmap= (in all its
 * forms, on a QEMU-like firmware map), slab_debug=, numa=, maxcpus=,
 * nosmp, loglevel=, quiet, debug, debug_locks=, page_poison=, mmsnap=,
 * ktest.*.
 *
 * Each token reaches the handlers twice: through the real passes, as at
 * boot (where mem= and memmap= only say they came too early: there is no
 * e820 table yet), and through a pass whose every token is "unknown"
 * (parse_args() with no table), which hands the name and value to a
 * dispatcher of ours.  It calls the registered handler (mem= and memmap=
 * on a private table, as fuzz_e820 does) and checks what it could:
 *  - an accepted value is within the parameter's documented range
 *    (loglevel 0..15, maxcpus >= 1, debug_locks 0 or 1, numa=off or
 *    fake=1..MAX_NUMNODES, mmsnap points among the known ones, slab_debug
 *    flags among SLAB_DEBUG_FLAGS, ktest.time_limit <= 86400, ktest.times
 *    and ktest.soak 0 or 1, each ktest.filter glob shorter than 128);
 *  - a refused value changes none of the globals we can see;
 *  - the user-defined e820 map is sorted and disjoint, and finishing it
 *    never fails (the kernel would panic);
 *  - the copy is a prefix of the line, cut at a token end, its drop
 *    counted; the option finders' values fit and are terminated;
 *  - the list of unknown names counts alike whether it searches its own
 *    output (the boot's, as long as the line) or walks the line (a short
 *    list, once full), and the short one is a prefix of the long one.
 * The globals are put back after each input.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

#include "kernel/cmdline.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "mm/internal.h"
#include "mm/mm.h"
#include "mm/slab.h"
#include "mm/slab_internal.h"
#include "mm/snapshot.h"
#include "tests/fuzz/fuzz_check.h"

static const struct e820_entry qemu_map[] = {
	{ 0x0, 0x9fc00, E820_TYPE_RAM },
	{ 0x9fc00, 0x400, E820_TYPE_RESERVED },
	{ 0xf0000, 0x10000, E820_TYPE_RESERVED },
	{ 0x100000, 0x7ee0000, E820_TYPE_RAM },
	{ 0x7fe0000, 0x20000, E820_TYPE_RESERVED },
	{ 0xfffc0000, 0x40000, E820_TYPE_RESERVED },
};

static struct e820_table fw, tbl;
static struct e820_user_state st;
static int saved_debug_locks;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	console_loglevel = 0;	/* formatted, never written */
	saved_debug_locks = debug_locks;
	fw.nr_entries = ARRAY_SIZE(qemu_map);
	memcpy(fw.entries, qemu_map, sizeof(qemu_map));
	return 0;
}

/* A decimal or 0x/0 number as kstrtouint(base 0) takes it, <= max. */
static int number_upto(const char *s, unsigned long long max, int base)
{
	unsigned long long v = 0;
	const char *digits = "0123456789abcdef";

	if (!s || !*s)
		return 0;
	if (*s == '+')		/* before the radix, as kstrtoull() takes it */
		s++;
	if (base == 0) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2])
			base = 16, s += 2;
		else if (s[0] == '0' && s[1])
			base = 8, s++;
		else
			base = 10;
	}
	for (; *s && !(*s == '\n' && !s[1]); s++) {
		const char *d = memchr(digits, *s | 0x20, (size_t)base);

		if (!d)
			return 0;
		v = v * base + (unsigned long long)(d - digits);
		if (v > max)
			return 0;
	}
	return 1;
}

struct globals {
	int loglevel, debug_locks;
	unsigned int max_cpus, mmsnap;
	bool poison;
};

static void snap(struct globals *g)
{
	*g = (struct globals){ console_loglevel, debug_locks, setup_max_cpus,
			       mmsnap_points, page_poisoning };
}

static int same(const struct globals *a, const struct globals *b)
{
	return a->loglevel == b->loglevel && a->debug_locks == b->debug_locks &&
	       a->max_cpus == b->max_cpus && a->mmsnap == b->mmsnap &&
	       a->poison == b->poison;
}

static void check_glob_list(const char *val)
{
	for (const char *p = val; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len >= 128)
			abort();
		p += len + (comma != NULL);
	}
}

/* One token, given to its handlers and judged. */
static void dispatch(const char *name, const char *val, void *arg)
{
	const struct kernel_param *const *p;
	struct globals before, after;

	if (parameq(name, "mem") || parameq(name, "memmap")) {
		struct e820_table copy = tbl;
		int ret = parameq(name, "mem") ? e820__parse_mem(&tbl, val, &st)
					       : e820__parse_memmap(&tbl, val, &st);

		if (ret && memcmp(&copy, &tbl, sizeof(tbl)))
			abort();	/* a refused value changed the map */
		return;
	}
	for (p = __start_setup_params; p < __stop_setup_params; p++) {
		const char *n = (*p)->name;
		int ret;

		if (!parameq(name, n))
			continue;
		snap(&before);
		console_loglevel = 0;
		before.loglevel = 0;
		ret = (*p)->setup(val);
		snap(&after);
		if (ret) {
			if (!same(&before, &after))
				abort();	/* a refused value changed something */
			continue;
		}
		if (!val)
			val = "";
		if (!strcmp(n, "loglevel") &&
		    (after.loglevel < 0 || after.loglevel > 15 ||
		     !number_upto(val, 15, 10)))
			abort();
		if ((!strcmp(n, "maxcpus") || !strcmp(n, "nosmp")) &&
		    after.max_cpus < 1)
			abort();
		if (!strcmp(n, "nosmp") && after.max_cpus != 1)
			abort();
		if (!strcmp(n, "debug_locks") &&
		    (!number_upto(val, 1, 0) || (unsigned)after.debug_locks > 1))
			abort();
		if (!strcmp(n, "mmsnap") && (after.mmsnap & ~MMSNAP_ALL))
			abort();
		if (!strcmp(n, "slab_debug") &&
		    (slab_debug_flags("kmalloc-64") & ~SLAB_DEBUG_FLAGS))
			abort();
		if (!strcmp(n, "numa") && strcmp(val, "off") &&
		    (strncmp(val, "fake=", 5) ||
		     !number_upto(val + 5, MAX_NUMNODES, 10) ||
		     number_upto(val + 5, 0, 10)))
			abort();	/* not off, nor fake=1..MAX_NUMNODES */
		if (!strcmp(n, "ktest.time_limit") && !number_upto(val, 86400, 0))
			abort();
		if ((!strcmp(n, "ktest.times") || !strcmp(n, "ktest.soak")) &&
		    !number_upto(val, 1, 0))
			abort();
		if (!strcmp(n, "ktest.filter"))
			check_glob_list(val);
		if (!strcmp(n, "page_poison") && strcmp(val, "1") &&
		    strcmp(val, "on") && strcmp(val, "0") && strcmp(val, "off"))
			abort();
	}
}

static void check_copy(const char *raw)
{
	const char *src = cmdline_skip_image(raw);
	size_t len = strlen(boot_command_line), srclen = strlen(src);

	if (len >= COMMAND_LINE_SIZE || memcmp(boot_command_line, src, len))
		abort();
	/* Cut at a token end (or inside a first token too long for it). */
	if (len < srclen && len != COMMAND_LINE_SIZE - 1 &&
	    !isspace((unsigned char)src[len]))
		abort();
}

static void check_find(const char *name)
{
	char buf[16];
	int n = cmdline_find_option(boot_command_line, name, buf, sizeof(buf));

	if (!memchr(buf, '\0', sizeof(buf)) ||
	    (n >= 0 && strlen(buf) != (size_t)min(n, (int)sizeof(buf) - 1)) ||
	    (n == -ENOENT && buf[0]))
		abort();
	cmdline_find_option_bool(boot_command_line, name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char raw[2 * COMMAND_LINE_SIZE + 1];
	static char unknown[128], unknown_all[COMMAND_LINE_SIZE];
	size_t n, len, count;

	len = size < sizeof(raw) - 1 ? size : sizeof(raw) - 1;
	memcpy(raw, data, len);
	raw[len] = '\0';

	cmdline_init(raw);
	check_copy(raw);

	/* Every handler, judged; mem= and memmap= on a private map. */
	memcpy(&tbl, &fw, sizeof(fw));
	memset(&st, 0, sizeof(st));
	parse_args(boot_command_line, NULL, 0, CMDLINE_PASS_ALL, dispatch, NULL);
	if (e820__finish_user_map(&tbl, &fw, &st) < 0)
		abort();	/* the kernel panics here */
	check_e820_sorted(&tbl);

	/* The boot's passes over the registered table. */
	n = (size_t)(__stop_setup_params - __start_setup_params);
	parse_args(boot_command_line, __start_setup_params, n,
		   CMDLINE_PASS_EARLY, NULL, NULL);
	parse_args(boot_command_line, __start_setup_params, n,
		   CMDLINE_PASS_LATE, NULL, NULL);
	/* The boot's list (as long as the line) and a short one, whose
	 * de-duplication walks the line once it is full, count alike.  (The
	 * walk is quadratic: lines of many names skip it, to keep the rate.) */
	count = cmdline_unknown_list(boot_command_line, __start_setup_params,
				     n, unknown_all, sizeof(unknown_all));
	if (count <= 64 &&
	    (cmdline_unknown_list(boot_command_line, __start_setup_params, n,
				  unknown, sizeof(unknown)) != count ||
	     !memchr(unknown, '\0', sizeof(unknown)) ||
	     strncmp(unknown, unknown_all, strlen(unknown))))
		abort();	/* or not a terminated prefix of the whole list */
	check_find("mem");
	check_find("ktest.filter");
	check_find("numa");

	console_loglevel = 0;
	debug_locks = saved_debug_locks;
	setup_max_cpus = NR_CPUS;
	mmsnap_points = MMSNAP_DEFAULT;
	page_poisoning = false;
	return 0;
}
