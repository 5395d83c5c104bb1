/*
 * mm/e820_user.c - the user-defined memory map: Linux's mem= and memmap=.
 *
 * The parameters edit e820_table after the firmware map is loaded and
 * before memblock sees it (they are early_params).  Their semantics are
 * those of Linux's kernel-parameters documentation (today's, not a 2.6
 * release's): mem=nn[KMG] drops RAM
 * above nn; memmap=exactmap starts from an empty map; memmap=nn@ss adds
 * usable RAM, nn#ss ACPI data, nn$ss reserved, nn!ss persistent memory;
 * memmap=nn alone is mem=nn; several items may be given comma-separated.
 *
 * A value is checked whole before any of it is applied, so a malformed
 * parameter is reported (naming the bad text) and changes nothing.  The
 * parsers take their table and state as arguments so that tests and a
 * user-space build run them on private tables; only the early_param
 * handlers touch the globals.  After the early parameters,
 * e820__finish_early_params() sanitises the edited table and prints it as
 * Linux does ("user-defined physical RAM map:").
 */
#include "mm/e820.h"

#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

/* The global mem=/memmap= state. */
static struct e820_user_state e820_user;

/* ---- mem= and memmap= ---- */

static const char no_number[] = "no number";

/*
 * Reads a size at s: a number as memparse() takes it (0x hex, leading-0
 * octal) with an optional K/M/G/T/P/E suffix.  Returns NULL with *val
 * set and *endp after the size, or why s holds no size (*endp = s).
 * Unlike memparse(), it refuses a value that does not fit in 64 bits
 * instead of wrapping.
 */
static const char *parse_size(const char *s, u64 *val, const char **endp)
{
	char digits[24], *num_end, *end;
	unsigned long long n;
	size_t len;
	int err;

	simple_strtoull(s, &num_end, 0);
	len = num_end - s;
	*endp = s;
	if (len == 0)
		return no_number;
	if (len >= sizeof(digits))
		return "number too large";
	memcpy(digits, s, len);
	digits[len] = '\0';
	err = kstrtoull(digits, 0, &n);	/* catches what simple_ wraps */
	if (err)
		return err == -ERANGE ? "number too large" : no_number;

	*val = memparse(s, &end);
	if (end != num_end) {
		/* A suffix: its multiplier is what memparse makes of "1<s>". */
		char unit[3] = { '1', *num_end, '\0' };
		unsigned long long product;

		if (__builtin_mul_overflow(n, memparse(unit, NULL), &product))
			return "number too large";
	}
	*endp = end;
	return NULL;
}

struct memmap_item {
	bool exactmap;
	bool has_start;		/* nn<sep>ss; otherwise nn alone, as mem= */
	enum e820_type type;
	u64 size, start;
};

/*
 * Parses the item [s, e) of a memmap= value.  Returns NULL, or why it is
 * malformed with *where at the offending text.
 */
static const char *parse_memmap_item(const char *s, const char *e,
				     struct memmap_item *it,
				     const char **where)
{
	const char *p, *why;

	memset(it, 0, sizeof(*it));
	*where = s;
	if (s == e)
		return "empty item";
	if (e - s == 8 && !strncmp(s, "exactmap", 8)) {
		it->exactmap = true;
		return NULL;
	}
	why = parse_size(s, &it->size, &p);
	if (why)
		return why == no_number ? "neither a size nor exactmap" : why;
	if (it->size == 0)
		return "size is zero";
	if (p == e)
		return NULL;

	*where = p;
	switch (*p) {
	case '@':
		it->type = E820_TYPE_RAM;
		break;
	case '#':
		it->type = E820_TYPE_ACPI;
		break;
	case '$':
		it->type = E820_TYPE_RESERVED;
		break;
	case '!':
		it->type = E820_TYPE_PRAM;
		break;
	default:
		return "unknown separator (expected @, #, $ or !)";
	}
	*where = ++p;
	why = parse_size(p, &it->start, &p);
	if (why)
		return why == no_number && (*p == ',' || !*p) ?
			"no address after the separator" : why;
	if (p != e) {
		*where = p;
		return "trailing characters";
	}
	if (it->start + it->size < it->start) {
		*where = s;
		return "range wraps past 2^64";
	}
	it->has_start = true;
	return NULL;
}

static const char *item_end(const char *s)
{
	while (*s && *s != ',')
		s++;
	return s;
}

/* RAM at and above limit goes; the lowest limit is kept for fallback. */
static void apply_mem_limit(struct e820_table *t, u64 limit,
			    struct e820_user_state *st)
{
	e820__range_remove(t, limit, ~0ULL - limit, E820_TYPE_RAM, true);
	if (!st->mem_limit || limit < st->mem_limit)
		st->mem_limit = limit;
	st->userdef = true;
}

int e820__parse_mem(struct e820_table *t, const char *val,
		    struct e820_user_state *st)
{
	const char *why, *where = val, *end;
	u64 size;

	if (!val || !*val) {
		pr_err("e820: mem= needs a size (mem=nn[KMG]); ignored\n");
		return -EINVAL;
	}
	why = parse_size(val, &size, &end);
	if (!why && *end) {
		why = "trailing characters";
		where = end;
	} else if (!why && size == 0) {
		why = "size is zero";
	}
	if (why && where == val) {
		pr_err("e820: mem=%s: %s; ignored\n", val, why);
		return -EINVAL;
	}
	if (why) {
		pr_err("e820: mem=%s: %s at '%s'; ignored\n", val, why, where);
		return -EINVAL;
	}
	apply_mem_limit(t, size, st);
	return 0;
}

/*
 * Pass 1 of memmap=: every item must parse, exactmap may only come
 * first (after a range it would throw that range away), and the ranges
 * must fit in the table.  Nothing is changed.
 */
static int check_memmap(const struct e820_table *t, const char *val)
{
	u32 nr = t->nr_entries;
	const char *s = val;

	for (;;) {
		const char *e = item_end(s), *where, *why;
		struct memmap_item it;

		why = parse_memmap_item(s, e, &it, &where);
		if (!why && it.exactmap && s != val)
			why = "exactmap must be the first item";
		if (!why && it.has_start && ++nr > E820_MAX_ENTRIES)
			why = "too many ranges for the table";
		if (why) {
			/* Point into the item only when the fault is inside it. */
			if (where == s || where == e)
				pr_err("e820: memmap=%s: item '%.*s': %s; value ignored\n",
				       val, (int)(e - s), s, why);
			else
				pr_err("e820: memmap=%s: item '%.*s': %s at '%.*s'; value ignored\n",
				       val, (int)(e - s), s, why,
				       (int)(e - where), where);
			return -EINVAL;
		}
		if (it.exactmap)
			nr = 0;
		if (!*e)
			return 0;
		s = e + 1;
	}
}

int e820__parse_memmap(struct e820_table *t, const char *val,
		       struct e820_user_state *st)
{
	const char *s = val;

	if (!val || !*val) {
		pr_err("e820: memmap= needs a value (exactmap, nn[KMG], or nn[KMG] followed by @ # $ or ! and ss[KMG]); ignored\n");
		return -EINVAL;
	}
	if (check_memmap(t, val))
		return -EINVAL;

	/* Pass 2: the same items, now known to be good, applied in order. */
	for (;;) {
		const char *e = item_end(s), *where;
		struct memmap_item it;

		parse_memmap_item(s, e, &it, &where);
		if (it.exactmap) {
			t->nr_entries = 0;
			st->exactmap_pending = true;
		} else if (it.has_start) {
			e820__range_add(t, it.start, it.size, it.type);
			st->exactmap_pending = false;
		} else {
			apply_mem_limit(t, it.size, st);
		}
		st->userdef = true;
		if (!*e)
			return 0;
		s = e + 1;
	}
}

int e820__finish_user_map(struct e820_table *t,
			  const struct e820_table *firmware,
			  struct e820_user_state *st)
{
	int ret;

	if (st->exactmap_pending) {
		pr_err("e820: memmap=exactmap was not followed by any memmap=nn[KMG]@ss[KMG] range; using the firmware map\n");
		memcpy(t, firmware, sizeof(*t));
		st->exactmap_pending = false;
		st->userdef = false;
		if (st->mem_limit)
			apply_mem_limit(t, st->mem_limit, st);
	}
	if (!st->userdef)
		return 0;
	ret = e820__update_table(t);
	if (ret < 0)
		return ret;
	if (!e820__ram_bytes(t, 0, ~0ULL))
		pr_err("e820: the user-defined map has no usable RAM\n");
	return 1;
}

static int parse_memopt(const char *val)
{
	if (!e820_ready) {
		pr_err("e820: mem= parsed before e820__memory_setup(); ignored\n");
		return -EINVAL;
	}
	return e820__parse_mem(e820_table, val, &e820_user);
}
early_param("mem", parse_memopt);

static int parse_memmap_opt(const char *val)
{
	if (!e820_ready) {
		pr_err("e820: memmap= parsed before e820__memory_setup(); ignored\n");
		return -EINVAL;
	}
	return e820__parse_memmap(e820_table, val, &e820_user);
}
early_param("memmap", parse_memmap_opt);

void e820__finish_early_params(void)
{
	int ret = e820__finish_user_map(e820_table, e820_table_firmware,
					&e820_user);

	if (ret < 0)
		panic("Invalid user supplied memory map");
	if (ret > 0) {
		pr_info("user-defined physical RAM map:\n");
		e820__print_table(e820_table, "user");
	}
}
