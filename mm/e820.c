/*
 * mm/e820.c - the physical memory map (Linux's arch/x86/kernel/e820.c).
 *
 * What it is for: the boot loader's raw map is a list of ranges in any
 * order, overlapping, some empty.  Everything after it (mem=, memmap=,
 * memblock, the page allocator) needs one clean answer per byte: is it
 * usable RAM or not.  This file turns the raw map into that answer and
 * hands it to memblock; mm/e820_user.c lets the command line edit it.
 *
 * Invariants:
 *  - After e820__update_table() a table is sorted by address, its entries
 *    are non-empty and do not overlap, and no two touching entries have
 *    the same type.  The queries (mapped_all, end_of_ram, ...) assume it;
 *    range_add/range_update/range_remove may leave a table unsorted, as
 *    in Linux, until the next sanitise.
 *  - Nothing is ever dropped silently: an entry that does not fit, a
 *    wrapping entry, a malformed parameter each get a pr_err() line.
 *  - No allocator exists yet: the sanitiser works in the table's own
 *    storage plus bounded static scratch (change points for the largest
 *    table, E820_RAW_MAX_ENTRIES).  It is therefore not reentrant, which
 *    early boot and the single-threaded tests never need.
 *
 * Release: today's Linux, not a 2.6 one - the file names, functions and
 * messages follow current arch/x86/kernel/e820.c (2.6.11 kept a simpler
 * copy in arch/i386/kernel/setup.c); no 2.6 allocation rule depends on it.
 *
 * Rules followed, and why:
 *  - Names, semantics and printed lines are Linux's, so that what a
 *    student reads here matches a real dmesg.  Addresses are printed with
 *    "0x%016llx", which is exactly what Linux's "%#018Lx" prints, but
 *    prints it the same under a libc printf too (ISO C's '#' drops the
 *    "0x" of a zero).
 *  - Every operation takes its table as an argument; only the boot
 *    functions and the early_param handlers touch the globals.  The tests
 *    and a user-space build (sanitizers, fuzzing) use private tables.
 *  - mm/ is pure C: no arch headers, no inline assembly, no 64-bit
 *    division (i386 would need libgcc for it).
 *
 * Where this differs from Linux, on purpose:
 *  - e820__update_table() also sanitises a single entry, drops wrapping
 *    entries instead of refusing the whole table, and returns the new
 *    count; its output may grow to twice the input (holes punched in an
 *    entry), and what does not fit is reported instead of being cut off.
 *  - All change points at one address are applied together before the
 *    type is decided, so the result does not depend on their order
 *    within that address (lib/sort.c is not stable).
 *  - PRAM ranges merge like any other type (newer Linux keeps touching
 *    PRAM ranges apart, for pmem devices mm86 does not have).
 *  - range_remove() takes a wholly removed entry out of the table instead
 *    of zeroing it, so a table never shows an empty "type 0" entry; a
 *    split that does not fit is reported and skipped, where Linux would
 *    lose the tail.
 *  - A memmap= value is checked whole before any of it is applied.
 */
#include "mm/e820.h"

#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/sort.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/memblock.h"

/* The end of what this 32-bit, non-PAE kernel can address. */
#define E820_ADDR_LIMIT (1ULL << 32)

#define TYPE_NAME_MAX 32	/* "persistent (type 4294967295)" fits */

static struct e820_table e820_table_init;
static struct e820_table e820_table_firmware_init;

struct e820_table *e820_table = &e820_table_init;
struct e820_table *e820_table_firmware = &e820_table_firmware_init;

/* Set once e820_table holds the firmware map (mem=/memmap= need it). */
bool e820_ready;

/* ---- printing ---- */

static const char *const e820_type_names[] = {
	[E820_TYPE_RAM] = "usable",
	[E820_TYPE_RESERVED] = "reserved",
	[E820_TYPE_ACPI] = "ACPI data",
	[E820_TYPE_NVS] = "ACPI NVS",
	[E820_TYPE_UNUSABLE] = "unusable",
};

/* Linux's e820_print_type() words, into buf. */
static void format_type(char *buf, size_t size, u32 type)
{
	if (type < ARRAY_SIZE(e820_type_names) && e820_type_names[type])
		snprintf(buf, size, "%s", e820_type_names[type]);
	else if (type == E820_TYPE_PMEM || type == E820_TYPE_PRAM)
		snprintf(buf, size, "persistent (type %u)", type);
	else
		snprintf(buf, size, "type %u", type);
}

int e820__format_entry(char *buf, size_t size, const char *who,
		       const struct e820_entry *e)
{
	char type[TYPE_NAME_MAX];

	format_type(type, sizeof(type), e->type);
	return snprintf(buf, size, "%s: [mem 0x%016llx-0x%016llx] %s", who,
			(unsigned long long)e->addr,
			(unsigned long long)(e->addr + e->size - 1), type);
}

void e820__print_table(const struct e820_table *t, const char *who)
{
	char line[128];
	u32 i;

	for (i = 0; i < t->nr_entries; i++) {
		e820__format_entry(line, sizeof(line), who, &t->entries[i]);
		pr_info("%s\n", line);
	}
}

/* Reports a range that had to be left out; why says what happened. */
static void report_range(const char *why, u64 start, u64 size, u32 type)
{
	char name[TYPE_NAME_MAX];

	format_type(name, sizeof(name), type);
	pr_err("e820: %s [mem 0x%016llx-0x%016llx] %s\n", why,
	       (unsigned long long)start,
	       (unsigned long long)(start + size - 1), name);
}

/* ---- building and sanitising ---- */

void e820__range_add(struct e820_table *t, u64 start, u64 size,
		     enum e820_type type)
{
	if (t->nr_entries >= E820_MAX_ENTRIES) {
		pr_err("e820: too many entries; ignoring [mem 0x%016llx-0x%016llx]\n",
		       (unsigned long long)start,
		       (unsigned long long)(start + size - 1));
		return;
	}
	t->entries[t->nr_entries].addr = start;
	t->entries[t->nr_entries].size = size;
	t->entries[t->nr_entries].type = type;
	t->nr_entries++;
}

/*
 * Where an entry starts or ends.  The type travels with the point, so
 * once the points are taken the entries themselves are no longer read
 * and the result can be written over them.
 */
struct change_point {
	u64 addr;
	u32 type;
	u32 is_end;
};

static struct change_point change_points[2 * E820_RAW_MAX_ENTRIES];
/* The types of the entries covering the current address (a multiset). */
static u32 overlap_types[E820_RAW_MAX_ENTRIES];
/* Raw map scratch: merging happens here, before the 128-entry table. */
static struct e820_entry raw_entries[E820_RAW_MAX_ENTRIES];

static int cmp_change_point(const void *a, const void *b)
{
	const struct change_point *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

/* Takes one instance of type out of overlap_types[0..*nr). */
static void overlap_remove(u32 *nr, u32 type)
{
	u32 i;

	for (i = 0; i < *nr; i++) {
		if (overlap_types[i] == type) {
			overlap_types[i] = overlap_types[--*nr];
			return;
		}
	}
}

/* Stores a finished piece, or reports it when entries[] is full. */
static void emit_piece(struct e820_entry *entries, u32 *out, u32 max,
		       u32 *lost, u64 start, u64 size, u32 type)
{
	if (*out >= max) {
		report_range("table full after sanitising; ignoring", start,
			     size, type);
		(*lost)++;
		return;
	}
	entries[*out].addr = start;
	entries[*out].size = size;
	entries[*out].type = type;
	(*out)++;
}

/*
 * The sanitiser, on entries[0..nr) with room for max results (nr <=
 * E820_RAW_MAX_ENTRIES).  Returns the new count; pieces beyond max are
 * reported and counted in *lost.
 *
 * Sweep the sorted change points; after all points at one address the
 * type there is the highest type among the covering entries (0: none).
 * A piece ends wherever that type changes, so same-type neighbours,
 * touching or overlapping, come out as one piece.
 */
static u32 sanitize_entries(struct e820_entry *entries, u32 nr, u32 max,
			    u32 *lost)
{
	u32 nr_points = 0, nr_overlap = 0, out = 0, cur_type = 0, i, j;
	u64 cur_start = 0;

	for (i = 0; i < nr; i++) {
		u64 start = entries[i].addr, end = start + entries[i].size;
		u32 type = entries[i].type;

		if (entries[i].size == 0 || type == 0)
			continue;
		if (end < start) {
			pr_err("e820: ignoring [mem 0x%016llx] size 0x%llx: its end wraps past 2^64\n",
			       (unsigned long long)start,
			       (unsigned long long)entries[i].size);
			continue;
		}
		change_points[nr_points++] = (struct change_point){ start, type, 0 };
		change_points[nr_points++] = (struct change_point){ end, type, 1 };
	}
	sort(change_points, nr_points, sizeof(change_points[0]),
	     cmp_change_point, NULL);

	for (i = 0; i < nr_points;) {
		u64 addr = change_points[i].addr;
		u32 type = 0;

		for (; i < nr_points && change_points[i].addr == addr; i++) {
			if (change_points[i].is_end)
				overlap_remove(&nr_overlap, change_points[i].type);
			else
				overlap_types[nr_overlap++] = change_points[i].type;
		}
		for (j = 0; j < nr_overlap; j++)
			type = max(type, overlap_types[j]);
		if (type == cur_type)
			continue;
		if (cur_type)
			emit_piece(entries, &out, max, lost, cur_start,
				   addr - cur_start, cur_type);
		cur_start = addr;
		cur_type = type;
	}
	return out;
}

int e820__update_table(struct e820_table *t)
{
	u32 lost = 0;

	if (!t || t->nr_entries > E820_MAX_ENTRIES)
		return -EINVAL;
	t->nr_entries = sanitize_entries(t->entries, t->nr_entries,
					 E820_MAX_ENTRIES, &lost);
	return (int)t->nr_entries;
}

int e820__load_raw_map(struct e820_table *t, const struct boot_mmap_entry *map,
		       unsigned int nr)
{
	u32 lost = 0, n = 0, i;

	for (i = 0; i < nr; i++) {
		if (n == E820_RAW_MAX_ENTRIES) {
			report_range("too many raw entries; ignoring",
				     map[i].addr, map[i].len, map[i].type);
			lost++;
			continue;
		}
		raw_entries[n].addr = map[i].addr;
		raw_entries[n].size = map[i].len;
		raw_entries[n].type = map[i].type;
		n++;
	}
	n = sanitize_entries(raw_entries, n, E820_RAW_MAX_ENTRIES, &lost);

	t->nr_entries = 0;
	for (i = 0; i < n; i++) {
		if (i < E820_MAX_ENTRIES) {
			t->entries[t->nr_entries++] = raw_entries[i];
			continue;
		}
		report_range("too many entries; ignoring", raw_entries[i].addr,
			     raw_entries[i].size, raw_entries[i].type);
		lost++;
	}
	return (int)lost;
}

/* Linux's clamp: a range never reaches past 2^64 - 1. */
static u64 clamp_size(u64 start, u64 size)
{
	return size > ~0ULL - start ? ~0ULL - start : size;
}

/*
 * Takes [s, f) out of entry i, which covers more than that: the head
 * stays in place, the tail (when a head remains too) is appended, and so
 * is [s, f) itself as new_type unless new_type is 0.  Appended pieces
 * can no longer overlap [s, f) where they are visited later.  A split
 * that does not fit is reported and not done (returns false).
 */
static bool carve(struct e820_table *t, u32 i, u64 s, u64 f, u32 new_type,
		  const char *what)
{
	struct e820_entry *e = &t->entries[i];
	u64 e_end = e->addr + e->size;
	bool split = e->addr < s && e_end > f;

	if (t->nr_entries + !!new_type + split > E820_MAX_ENTRIES) {
		report_range(what, s, f - s, e->type);
		return false;
	}
	if (new_type)
		e820__range_add(t, s, f - s, new_type);
	if (split)
		e820__range_add(t, f, e_end - f, e->type);
	if (e->addr < s) {
		e->size = s - e->addr;
	} else {
		e->addr = f;
		e->size = e_end - f;
	}
	return true;
}

u64 e820__range_update(struct e820_table *t, u64 start, u64 size,
		       enum e820_type old_type, enum e820_type new_type)
{
	char from[TYPE_NAME_MAX], to[TYPE_NAME_MAX];
	u64 end, updated = 0;
	u32 i;

	if (WARN_ON(old_type == new_type || new_type == 0))
		return 0;
	size = clamp_size(start, size);
	end = start + size;
	format_type(from, sizeof(from), old_type);
	format_type(to, sizeof(to), new_type);
	pr_debug("e820: update [mem 0x%08llx-0x%08llx] %s ==> %s\n",
		 (unsigned long long)start, (unsigned long long)(end - 1),
		 from, to);

	for (i = 0; i < t->nr_entries; i++) {
		struct e820_entry *e = &t->entries[i];
		u64 e_end = e->addr + e->size, s, f;

		if (e->type != old_type)
			continue;
		if (e->addr >= start && e_end <= end) {
			e->type = new_type;
			updated += e->size;
			continue;
		}
		s = max(start, e->addr);
		f = min(end, e_end);
		if (s < f && carve(t, i, s, f, new_type,
				   "too many entries; cannot update"))
			updated += f - s;
	}
	return updated;
}

u64 e820__range_remove(struct e820_table *t, u64 start, u64 size,
		       enum e820_type old_type, bool check_type)
{
	char name[TYPE_NAME_MAX] = "";
	u64 end, removed = 0;
	u32 i;

	size = clamp_size(start, size);
	end = start + size;
	if (check_type)
		format_type(name, sizeof(name), old_type);
	pr_debug("e820: remove [mem 0x%08llx-0x%08llx] %s\n",
		 (unsigned long long)start, (unsigned long long)(end - 1),
		 name);

	for (i = 0; i < t->nr_entries;) {
		struct e820_entry *e = &t->entries[i];
		u64 e_end = e->addr + e->size, s, f;

		if (check_type && e->type != old_type) {
			i++;
			continue;
		}
		if (e->addr >= start && e_end <= end) {
			/* The whole entry goes; the next one moves to i. */
			removed += e->size;
			memmove(e, e + 1, (t->nr_entries - i - 1) * sizeof(*e));
			t->nr_entries--;
			continue;
		}
		s = max(start, e->addr);
		f = min(end, e_end);
		if (s < f && carve(t, i, s, f, 0,
				   "too many entries; cannot remove"))
			removed += f - s;
		i++;
	}
	return removed;
}

/* ---- queries ---- */

bool e820__mapped_any(const struct e820_table *t, u64 start, u64 end,
		      enum e820_type type)
{
	u32 i;

	for (i = 0; i < t->nr_entries && start < end; i++) {
		const struct e820_entry *e = &t->entries[i];

		if ((type && e->type != type) || !e->size)
			continue;
		if (e->addr >= end || e->addr + e->size <= start)
			continue;
		return true;
	}
	return false;
}

/* Linux's walk: sorted entries push start forward until it reaches end. */
bool e820__mapped_all(const struct e820_table *t, u64 start, u64 end,
		      enum e820_type type)
{
	u32 i;

	if (start >= end)
		return false;
	for (i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];

		if ((type && e->type != type) || !e->size)
			continue;
		if (e->addr >= end || e->addr + e->size <= start)
			continue;
		if (e->addr <= start)
			start = e->addr + e->size;
		if (start >= end)
			return true;
	}
	return false;
}

u64 e820__end_of_ram(const struct e820_table *t, u64 limit)
{
	u64 last = 0;
	u32 i;

	for (i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];

		if (e->type != E820_TYPE_RAM || !e->size || e->addr >= limit)
			continue;
		last = max(last, min(e->addr + e->size, limit));
	}
	return last;
}

u64 e820__ram_bytes(const struct e820_table *t, u64 start, u64 end)
{
	u64 total = 0;
	u32 i;

	for (i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];
		u64 s = max(start, e->addr), f = min(end, e->addr + e->size);

		if (e->type == E820_TYPE_RAM && s < f)
			total += f - s;
	}
	return total;
}

/* ---- boot ---- */

void e820__memory_setup(const struct boot_info *bi)
{
	BUILD_BUG_ON(sizeof(struct e820_entry) != 20);
	BUILD_BUG_ON(BOOT_MMAP_MAX > E820_RAW_MAX_ENTRIES);

	e820__load_raw_map(e820_table, bi->mmap, bi->nr_mmap);
	memcpy(e820_table_firmware, e820_table, sizeof(*e820_table_firmware));
	pr_info("BIOS-provided physical RAM map:\n");
	e820__print_table(e820_table, "BIOS-e820");
	if (!e820__ram_bytes(e820_table, 0, ~0ULL))
		pr_err("e820: the firmware map has no usable RAM\n");
	e820_ready = true;
}

u64 e820__memblock_ranges(const struct e820_table *t,
			  void (*add)(u64 base, u64 size, void *arg),
			  void (*reserve)(u64 base, u64 size, void *arg),
			  void *arg)
{
	u64 above = 0;
	u32 i;

	for (i = 0; i < t->nr_entries; i++) {
		const struct e820_entry *e = &t->entries[i];
		u64 end = e->addr + e->size;
		bool ram = e->type == E820_TYPE_RAM;

		if (!e->size || end < e->addr)
			continue;
		if (ram && end > E820_ADDR_LIMIT)
			above += end - max(e->addr, E820_ADDR_LIMIT);
		if (e->addr >= E820_ADDR_LIMIT)
			continue;
		end = min(end, E820_ADDR_LIMIT);
		(ram ? add : reserve)(e->addr, end - e->addr, arg);
	}
	return above;
}

/* memblock refuses only when its region array is full: say so. */
static void memblock_add_one(u64 base, u64 size, void *arg)
{
	int err = memblock_add(base, size);

	if (err)
		pr_err("e820: memblock_add [mem 0x%016llx-0x%016llx] failed: %d\n",
		       (unsigned long long)base,
		       (unsigned long long)(base + size - 1), err);
}

static void memblock_reserve_one(u64 base, u64 size, void *arg)
{
	int err = memblock_reserve(base, size);

	if (err)
		pr_err("e820: memblock_reserve [mem 0x%016llx-0x%016llx] failed: %d\n",
		       (unsigned long long)base,
		       (unsigned long long)(base + size - 1), err);
}

void e820__memblock_setup(void)
{
	u64 above = e820__memblock_ranges(e820_table, memblock_add_one,
					  memblock_reserve_one, NULL);

	/* MiB rounded up, without a 64-bit division. */
	if (above)
		pr_info("e820: %llu MiB of RAM above 4 GiB ignored (no PAE in this build)\n",
			(unsigned long long)((above >> 20) +
					     !!(above & ((1 << 20) - 1))));
}
