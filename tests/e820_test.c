/*
 * tests/e820_test.c - suite "e820": the memory map sanitiser, its edits,
 * the mem=/memmap= parsers, the printed format and the queries.
 *
 * Every case works on private tables (static: a struct e820_table is
 * 2.5 KiB and the kernel stack only 16 KiB); the boot's e820_table is
 * never touched.  Every expected table is written out by hand, as
 * [start, end) ranges through R(), in the exact order the code must leave
 * them.  Cases that feed malformed input check the return value, an
 * unchanged table, and the error lines the code prints, caught by a
 * capture: one clear line per bad value, naming it and saying it was
 * ignored (ktest.echo=1 shows them in the log).
 */
#include "mm/e820.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "tests/ktest.h"

#define RAM E820_TYPE_RAM
#define RES E820_TYPE_RESERVED
#define ACPI E820_TYPE_ACPI
#define NVS E820_TYPE_NVS
#define UNUSABLE E820_TYPE_UNUSABLE
#define PMEM E820_TYPE_PMEM
#define PRAM E820_TYPE_PRAM

/* An entry covering [s, e). */
#define R(s, e, ty) { .addr = (s), .size = (u64)(e) - (u64)(s), .type = (ty) }

#define SZ_1M 0x100000ULL

static struct e820_table tbl, fw;
static struct e820_user_state st;

/* What the code printed between listen() and heard(). */
static struct {
	unsigned int lines, matching;
	const char *prefix;
	char first[KTEST_CAPTURE_LINE];
} said;

static void said_line(const char *line)
{
	if (!said.lines++)
		strscpy(said.first, line, sizeof(said.first));
	if (!strncmp(line, said.prefix, strlen(said.prefix)))
		said.matching++;
}

/* Catches the lines printed from now on; counts those starting prefix. */
static void listen(const char *prefix)
{
	memset(&said, 0, sizeof(said));
	said.prefix = prefix;
	ktest_capture_start(said_line);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

/*
 * After one bad value: exactly one line was printed, it starts "e820:
 * <param>=<value>" (or "e820: <param>= needs" for no value at all) and
 * it ends "ignored".
 */
static void heard_one_complaint(struct ktest *t, const char *param,
				const char *val)
{
	char want[64];

	ktest_capture_stop();
	snprintf(want, sizeof(want), "e820: %s=%s", param,
		 val && *val ? val : "");
	if (said.lines != 1 || strncmp(said.first, want, strlen(want)) ||
	    !ends_with(said.first, "ignored"))
		KTEST_FAIL(t, "%s=%s: %u lines, the first '%s'; want one line '%s...ignored'",
			   param, val ? val : "(null)", said.lines, said.first,
			   want);
}

/* After a sanitise: n lines in all, every one starting the prefix. */
static void heard_lines(struct ktest *t, unsigned int n)
{
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, said.lines, n);
	KTEST_EXPECT_EQ(t, said.matching, n);
}

/* QEMU's map for -m 128M (SeaBIOS), in the order SeaBIOS gives it. */
static const struct e820_entry qemu_map[] = {
	R(0x0, 0x9fc00, RAM),
	R(0x9fc00, 0xa0000, RES),
	R(0xf0000, 0x100000, RES),
	R(0x100000, 0x7fe0000, RAM),
	R(0x7fe0000, 0x8000000, RES),
	R(0xfffc0000, 0x100000000ULL, RES),
};

/* qemu_map after mem=64M (or memmap=64M): RAM at and above 64M gone. */
static const struct e820_entry qemu_map_64m[] = {
	R(0x0, 0x9fc00, RAM),
	R(0x9fc00, 0xa0000, RES),
	R(0xf0000, 0x100000, RES),
	R(0x100000, 0x4000000, RAM),
	R(0x7fe0000, 0x8000000, RES),
	R(0xfffc0000, 0x100000000ULL, RES),
};

static void load(struct e820_table *t, const struct e820_entry *e, u32 n)
{
	memset(t, 0, sizeof(*t));
	if (n)
		memcpy(t->entries, e, n * sizeof(*e));
	t->nr_entries = n;
}

static void expect_table(struct ktest *t, int line, const struct e820_table *got,
			 const struct e820_entry *exp, u32 n)
{
	u32 i;

	if (got->nr_entries != n)
		KTEST_FAIL(t, "line %d: %u entries, expected %u", line,
			   got->nr_entries, n);
	for (i = 0; i < n && i < got->nr_entries; i++) {
		const struct e820_entry *g = &got->entries[i], *x = &exp[i];

		if (g->addr == x->addr && g->size == x->size &&
		    g->type == x->type)
			continue;
		KTEST_FAIL(t, "line %d: entry %u is [%#llx-%#llx) type %u, expected [%#llx-%#llx) type %u",
			   line, i, (unsigned long long)g->addr,
			   (unsigned long long)(g->addr + g->size), g->type,
			   (unsigned long long)x->addr,
			   (unsigned long long)(x->addr + x->size), x->type);
	}
}

#define LOAD(t, arr) load(t, arr, ARRAY_SIZE(arr))
#define EXPECT_TABLE(t, got, arr) \
	expect_table(t, __LINE__, got, arr, ARRAY_SIZE(arr))

/* Sanitises in[] and expects exactly out[] (n_out may be 0). */
static void check_sanitize(struct ktest *t, int line,
			   const struct e820_entry *in, u32 n_in,
			   const struct e820_entry *out, u32 n_out)
{
	int ret;

	load(&tbl, in, n_in);
	ret = e820__update_table(&tbl);
	if (ret != (int)n_out)
		KTEST_FAIL(t, "line %d: e820__update_table() returned %d, expected %u",
			   line, ret, n_out);
	expect_table(t, line, &tbl, out, n_out);
}

#define CHECK_SANITIZE(t, in, out) \
	check_sanitize(t, __LINE__, in, ARRAY_SIZE(in), out, ARRAY_SIZE(out))

static int e820_test_init(struct ktest *t)
{
	memset(&tbl, 0, sizeof(tbl));
	memset(&st, 0, sizeof(st));
	return 0;
}

/* ---- the sanitiser ---- */

static void sanitize_sorts(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x100000, 0x200000, RAM),
		R(0xfffc0000, 0x100000000ULL, RES),
		R(0x0, 0x9fc00, RAM),
		R(0xf0000, 0x100000, RES),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x9fc00, RAM),
		R(0xf0000, 0x100000, RES),
		R(0x100000, 0x200000, RAM),
		R(0xfffc0000, 0x100000000ULL, RES),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_overlap_higher_type_wins(struct ktest *t)
{
	/* The later, higher type takes the overlap... */
	static const struct e820_entry in1[] = {
		R(0x0, 0x10000, RAM),
		R(0x8000, 0x18000, RES),
	};
	static const struct e820_entry out1[] = {
		R(0x0, 0x8000, RAM),
		R(0x8000, 0x18000, RES),
	};
	/* ...and so does the earlier one, whatever the order given. */
	static const struct e820_entry in2[] = {
		R(0x8000, 0x18000, ACPI),
		R(0x0, 0x10000, NVS),
	};
	static const struct e820_entry out2[] = {
		R(0x0, 0x10000, NVS),
		R(0x10000, 0x18000, ACPI),
	};

	CHECK_SANITIZE(t, in1, out1);
	CHECK_SANITIZE(t, in2, out2);
}

static void sanitize_nested_entry(struct ktest *t)
{
	/* A higher type inside RAM punches a hole in it... */
	static const struct e820_entry in1[] = {
		R(0x0, 0x100000, RAM),
		R(0x40000, 0x50000, RES),
	};
	static const struct e820_entry out1[] = {
		R(0x0, 0x40000, RAM),
		R(0x40000, 0x50000, RES),
		R(0x50000, 0x100000, RAM),
	};
	/* ...a lower type inside a higher one vanishes. */
	static const struct e820_entry in2[] = {
		R(0x0, 0x100000, UNUSABLE),
		R(0x40000, 0x50000, RAM),
	};
	static const struct e820_entry out2[] = {
		R(0x0, 0x100000, UNUSABLE),
	};

	CHECK_SANITIZE(t, in1, out1);
	CHECK_SANITIZE(t, in2, out2);
}

static void sanitize_three_way_overlap(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x20000, 0x50000, RES),
		R(0x0, 0x30000, RAM),
		R(0x10000, 0x40000, ACPI),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x10000, RAM),
		R(0x10000, 0x40000, ACPI),
		R(0x40000, 0x50000, RES),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_drops_zero_length(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x1000, RAM),
		{ .addr = 0x800, .size = 0, .type = RES },	/* inside RAM */
		{ .addr = 0x5000, .size = 0, .type = RES },	/* alone */
		R(0x1000, 0x2000, RAM),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x2000, RAM),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_drops_wrapping_entry(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x1000, RAM),
		{ .addr = 0xfffffffffffff000ULL, .size = 0x2000, .type = RES },
		/* Ends exactly at 2^64, which a u64 end cannot hold. */
		{ .addr = 0xffffffffffff0000ULL, .size = 0x10000, .type = RAM },
		/* Ends at 2^64 - 1: fine. */
		R(0xfffffffffff00000ULL, 0xffffffffffffffffULL, RES),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x1000, RAM),
		R(0xfffffffffff00000ULL, 0xffffffffffffffffULL, RES),
	};

	listen("e820: ignoring [mem 0xffffffffffff");
	CHECK_SANITIZE(t, in, out);
	heard_lines(t, 2);	/* one per wrapping entry */
}

static void sanitize_type_zero_is_a_hole(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x2000, RAM),
		R(0x1000, 0x3000, 0),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x2000, RAM),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_merges_touching_same_type(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x2000, 0x3000, RAM),
		R(0x0, 0x1000, RAM),
		R(0x18000, 0x30000, RES),	/* overlapping, same type */
		R(0x1000, 0x2000, RAM),
		R(0x10000, 0x20000, RES),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x3000, RAM),
		R(0x10000, 0x30000, RES),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_keeps_touching_different_types(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x1000, 0x2000, RES),
		R(0x0, 0x1000, RAM),
		R(0x2000, 0x3000, RAM),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x1000, RAM),
		R(0x1000, 0x2000, RES),
		R(0x2000, 0x3000, RAM),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_identical_duplicates(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x1000, RAM),
		R(0x1000, 0x2000, RES),
		R(0x0, 0x1000, RAM),
		R(0x1000, 0x2000, RES),
		R(0x0, 0x1000, RAM),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x1000, RAM),
		R(0x1000, 0x2000, RES),
	};

	CHECK_SANITIZE(t, in, out);
}

static void sanitize_single_and_empty(struct ktest *t)
{
	static const struct e820_entry one[] = {
		R(0x100000, 0x200000, RAM),
	};
	static const struct e820_entry empty_one[] = {
		{ .addr = 0x100000, .size = 0, .type = RAM },
	};

	CHECK_SANITIZE(t, one, one);
	check_sanitize(t, __LINE__, empty_one, 1, NULL, 0);
	check_sanitize(t, __LINE__, NULL, 0, NULL, 0);
}

static void sanitize_qemu_map_unchanged(struct ktest *t)
{
	CHECK_SANITIZE(t, qemu_map, qemu_map);
}

static void sanitize_rejects_bad_table(struct ktest *t)
{
	tbl.nr_entries = E820_MAX_ENTRIES + 1;
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), -EINVAL);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, E820_MAX_ENTRIES + 1U);
	KTEST_EXPECT_EQ(t, e820__update_table(NULL), -EINVAL);
}

/* 1 RAM entry with 70 holes: 141 pieces, 128 kept, 13 reported. */
static void sanitize_overflow_reported(struct ktest *t)
{
	u32 i;

	e820__range_add(&tbl, 0, 0x10000000, RAM);
	for (i = 0; i < 70; i++)
		e820__range_add(&tbl, (i + 1) * SZ_1M, 0x1000, RES);
	listen("e820: table full after sanitising; ignoring [mem ");
	i = (u32)e820__update_table(&tbl);
	heard_lines(t, 2 * 70 + 1 - E820_MAX_ENTRIES);
	KTEST_ASSERT_EQ(t, i, (u32)E820_MAX_ENTRIES);
	for (i = 0; i < E820_MAX_ENTRIES; i++) {
		const struct e820_entry *e = &tbl.entries[i];
		u64 hole = (i / 2 + 1) * SZ_1M;	/* pieces alternate */

		if (i % 2 == 1 && (e->addr != hole || e->size != 0x1000 ||
				   e->type != RES))
			KTEST_FAIL(t, "entry %u is not the hole at %#llx", i,
				   (unsigned long long)hole);
		if (i % 2 == 0 && (e->addr != hole - SZ_1M + (i ? 0x1000 : 0) ||
				   e->type != RAM))
			KTEST_FAIL(t, "entry %u is not RAM after hole %u", i,
				   i / 2);
	}
}

/* ---- the raw map path (scratch table of E820_RAW_MAX_ENTRIES) ---- */

static struct boot_mmap_entry raw[E820_RAW_MAX_ENTRIES];

static void raw_map_merges_below_max(struct ktest *t)
{
	static const struct e820_entry out[] = {
		R(0x0, 0x64000, RAM),
		R(0x100000, 0x164000, RES),
	};
	u32 i;

	/* 200 touching 4 KiB pieces, given highest first. */
	for (i = 0; i < 200; i++) {
		u32 k = 199 - i;

		raw[i].addr = k < 100 ? k * 0x1000ULL :
					0x100000 + (k - 100) * 0x1000ULL;
		raw[i].len = 0x1000;
		raw[i].type = k < 100 ? RAM : RES;
	}
	KTEST_EXPECT_EQ(t, e820__load_raw_map(&tbl, raw, 200), 0);
	EXPECT_TABLE(t, &tbl, out);
}

static void raw_map_reports_excess(struct ktest *t)
{
	u32 i;

	for (i = 0; i < 130; i++) {
		raw[i].addr = i * 0x2000ULL;
		raw[i].len = 0x1000;
		raw[i].type = RAM;
	}
	KTEST_EXPECT_EQ(t, e820__load_raw_map(&tbl, raw, 130), 2);
	KTEST_ASSERT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	KTEST_EXPECT_EQ(t, tbl.entries[127].addr, 127 * 0x2000ULL);
	KTEST_EXPECT_EQ(t, tbl.entries[127].size, 0x1000ULL);
}

static void range_add_full_table(struct ktest *t)
{
	u32 i;

	for (i = 0; i < E820_MAX_ENTRIES; i++)
		e820__range_add(&tbl, i * 0x2000ULL, 0x1000, RAM);
	e820__range_add(&tbl, 0x10000000, 0x1000, RES);	/* reported */
	KTEST_EXPECT_EQ(t, tbl.nr_entries, (u32)E820_MAX_ENTRIES);
	KTEST_EXPECT_EQ(t, tbl.entries[127].addr, 127 * 0x2000ULL);
}

/* ---- range_update / range_remove ---- */

static void range_update_splits(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x100000, RAM),
		R(0x100000, 0x200000, RES),
		R(0x200000, 0x1000000, RAM),
	};
	static const struct e820_entry after[] = {
		R(0x0, 0x1000, RAM),
		R(0x100000, 0x200000, ACPI),	/* covered whole */
		R(0x200000, 0xff0000, RAM),	/* tail cut */
		R(0x1000, 0x2000, RES),		/* middle of entry 0 */
		R(0x2000, 0x100000, RAM),
		R(0xff0000, 0x1000000, UNUSABLE),
	};
	static const struct e820_entry sanitized[] = {
		R(0x0, 0x1000, RAM),
		R(0x1000, 0x2000, RES),
		R(0x2000, 0x100000, RAM),
		R(0x100000, 0x200000, ACPI),
		R(0x200000, 0xff0000, RAM),
		R(0xff0000, 0x1000000, UNUSABLE),
	};

	LOAD(&tbl, in);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x1000, 0x1000, RAM, RES),
			0x1000ULL);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0xff0000, 0x20000, RAM,
					      UNUSABLE), 0x10000ULL);
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x100000, SZ_1M, RES,
					      ACPI), SZ_1M);
	/* Nothing of the old type there: nothing changes. */
	KTEST_EXPECT_EQ(t, e820__range_update(&tbl, 0x100000, SZ_1M, RES,
					      NVS), 0ULL);
	EXPECT_TABLE(t, &tbl, after);
	KTEST_EXPECT_EQ(t, e820__update_table(&tbl), 6);
	EXPECT_TABLE(t, &tbl, sanitized);
}

static void range_remove_splits(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0xa0000, RAM),
		R(0x100000, 0x8000000, RAM),
		R(0xf0000, 0x100000, RES),
	};
	static const struct e820_entry after[] = {
		R(0x200000, 0x1000000, RAM),
		R(0x2000000, 0x8000000, RAM),
	};

	LOAD(&tbl, in);
	/* Type checked: the reserved entry is not RAM. */
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0xf0000, 0x10000, RAM,
					      true), 0ULL);
	/* A hole in the middle splits entry 1. */
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0x1000000, 0x1000000, RAM,
					      true), 0x1000000ULL);
	/* Its head. */
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0x100000, SZ_1M, RAM,
					      true), SZ_1M);
	/* Any type: entries 0 and 2 go whole, and leave the table. */
	KTEST_EXPECT_EQ(t, e820__range_remove(&tbl, 0, 0x100000, 0, false),
			0xb0000ULL);
	EXPECT_TABLE(t, &tbl, after);
}

/* ---- mem= and memmap= ---- */

static void mem_on_qemu_map(struct ktest *t)
{
	LOAD(&tbl, qemu_map);
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "64M", &st), 0);
	EXPECT_TABLE(t, &tbl, qemu_map_64m);
	KTEST_EXPECT_TRUE(t, st.userdef);
	KTEST_EXPECT_EQ(t, st.mem_limit, 64 * SZ_1M);

	/* The same limit in hex, then a higher one: no further change. */
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "0x4000000", &st), 0);
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "1G", &st), 0);
	EXPECT_TABLE(t, &tbl, qemu_map_64m);
	KTEST_EXPECT_EQ(t, st.mem_limit, 64 * SZ_1M);
}

static void memmap_without_address_is_mem(struct ktest *t)
{
	LOAD(&tbl, qemu_map);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "64M", &st), 0);
	EXPECT_TABLE(t, &tbl, qemu_map_64m);
	KTEST_EXPECT_EQ(t, st.mem_limit, 64 * SZ_1M);
	KTEST_EXPECT_FALSE(t, st.exactmap_pending);
}

static void memmap_each_form(struct ktest *t)
{
	static const struct {
		const char *val;
		struct e820_entry added;
	} forms[] = {
		{ "16M@256M", R(0x10000000, 0x11000000, RAM) },
		{ "64K#0x7fd0000", R(0x7fd0000, 0x7fe0000, ACPI) },
		{ "4K$0x9f000", R(0x9f000, 0xa0000, RES) },
		{ "1G!4G", R(0x100000000ULL, 0x140000000ULL, PRAM) },
		{ "0x1000@0", R(0x0, 0x1000, RAM) },
	};
	static struct e820_table exp;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		/* The range is appended; sanitising comes at the end. */
		LOAD(&exp, qemu_map);
		exp.entries[exp.nr_entries++] = forms[i].added;
		LOAD(&tbl, qemu_map);
		memset(&st, 0, sizeof(st));
		if (e820__parse_memmap(&tbl, forms[i].val, &st) != 0)
			KTEST_FAIL(t, "memmap=%s was refused", forms[i].val);
		expect_table(t, __LINE__, &tbl, exp.entries, exp.nr_entries);
		KTEST_EXPECT_TRUE(t, st.userdef);
	}
}

static void memmap_reserved_then_sanitized(struct ktest *t)
{
	static const struct e820_entry out[] = {
		R(0x0, 0x9f000, RAM),
		R(0x9f000, 0xa0000, RES),
		R(0xf0000, 0x100000, RES),
		R(0x100000, 0x7fe0000, RAM),
		R(0x7fe0000, 0x8000000, RES),
		R(0xfffc0000, 0x100000000ULL, RES),
	};

	LOAD(&tbl, qemu_map);
	LOAD(&fw, qemu_map);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "4K$0x9f000", &st), 0);
	KTEST_EXPECT_EQ(t, e820__finish_user_map(&tbl, &fw, &st), 1);
	EXPECT_TABLE(t, &tbl, out);
}

static void memmap_exactmap_comma_list(struct ktest *t)
{
	static const struct e820_entry out[] = {
		R(0x0, 0xa0000, RAM),
		R(0x100000, 0x8000000, RAM),
		R(0xfffe0000, 0x100000000ULL, RES),
	};

	LOAD(&tbl, qemu_map);
	LOAD(&fw, qemu_map);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl,
		"exactmap,640K@0,127M@1M,128K$0xfffe0000", &st), 0);
	EXPECT_TABLE(t, &tbl, out);
	KTEST_EXPECT_FALSE(t, st.exactmap_pending);
	KTEST_EXPECT_EQ(t, e820__finish_user_map(&tbl, &fw, &st), 1);
	EXPECT_TABLE(t, &tbl, out);
}

/* The usual form: one parameter each, as on a real command line. */
static void memmap_exactmap_then_ranges(struct ktest *t)
{
	static const struct e820_entry out[] = {
		R(0x0, 0x9f000, RAM),
		R(0x100000, 0x4000000, RAM),
	};

	LOAD(&tbl, qemu_map);
	LOAD(&fw, qemu_map);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "exactmap", &st), 0);
	KTEST_EXPECT_EQ(t, tbl.nr_entries, 0U);
	KTEST_EXPECT_TRUE(t, st.exactmap_pending);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "0x3f00000@1M", &st), 0);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "636K@0", &st), 0);
	KTEST_EXPECT_FALSE(t, st.exactmap_pending);
	KTEST_EXPECT_EQ(t, e820__finish_user_map(&tbl, &fw, &st), 1);
	EXPECT_TABLE(t, &tbl, out);
}

static void memmap_exactmap_alone_falls_back(struct ktest *t)
{
	LOAD(&tbl, qemu_map);
	LOAD(&fw, qemu_map);
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "exactmap", &st), 0);
	KTEST_EXPECT_EQ(t, e820__finish_user_map(&tbl, &fw, &st), 0);
	EXPECT_TABLE(t, &tbl, qemu_map);

	/* A mem= given meanwhile still applies to the fallback. */
	memset(&st, 0, sizeof(st));
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, "exactmap", &st), 0);
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, "64M", &st), 0);
	KTEST_EXPECT_EQ(t, e820__finish_user_map(&tbl, &fw, &st), 1);
	EXPECT_TABLE(t, &tbl, qemu_map_64m);
}

static void memmap_malformed_changes_nothing(struct ktest *t)
{
	static const char *const bad[] = {
		"",			/* memmap= */
		"M@1M",			/* no number */
		"-1M",
		"64M@",			/* no address */
		"64M@K",
		"64M&1M",		/* unknown separator */
		"64M%1M",
		"64M@1Mx",		/* trailing junk */
		"64M@1M 1M@2M",
		"64M@1M,",		/* empty items */
		",64M@1M",
		"64M@1M,,1M@2M",
		"1M@2M,bogus",		/* a good item before a bad one */
		"exactmapx",
		"64M@1M,exactmap",	/* would discard the range before */
		"exactmap,exactmap",
		"0",			/* zero sizes */
		"0@1M",
		"16E@0",		/* too large */
		"99999999999999999999999@0",
		"1E@0xf000000000000000", /* wraps past 2^64 */
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		LOAD(&tbl, qemu_map);
		memset(&st, 0, sizeof(st));
		listen("");
		if (e820__parse_memmap(&tbl, bad[i], &st) != -EINVAL)
			KTEST_FAIL(t, "memmap=%s was accepted", bad[i]);
		heard_one_complaint(t, "memmap", bad[i]);
		EXPECT_TABLE(t, &tbl, qemu_map);
		if (st.userdef || st.exactmap_pending || st.mem_limit)
			KTEST_FAIL(t, "memmap=%s changed the state", bad[i]);
	}
	listen("");
	KTEST_EXPECT_EQ(t, e820__parse_memmap(&tbl, NULL, &st), -EINVAL);
	heard_one_complaint(t, "memmap", NULL);
	EXPECT_TABLE(t, &tbl, qemu_map);
}

static void mem_malformed_changes_nothing(struct ktest *t)
{
	static const char *const bad[] = {
		"", "0", "0M", "abc", "64Mx", "64M@1M",
		"99999999999999999999999", "32E",
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		LOAD(&tbl, qemu_map);
		listen("");
		if (e820__parse_mem(&tbl, bad[i], &st) != -EINVAL)
			KTEST_FAIL(t, "mem=%s was accepted", bad[i]);
		heard_one_complaint(t, "mem", bad[i]);
		EXPECT_TABLE(t, &tbl, qemu_map);
	}
	listen("");
	KTEST_EXPECT_EQ(t, e820__parse_mem(&tbl, NULL, &st), -EINVAL);
	heard_one_complaint(t, "mem", NULL);
	EXPECT_TABLE(t, &tbl, qemu_map);
	KTEST_EXPECT_FALSE(t, st.userdef);
	KTEST_EXPECT_EQ(t, st.mem_limit, 0ULL);
}

/* ---- output ---- */

static void format_each_type(struct ktest *t)
{
	static const struct {
		struct e820_entry e;
		const char *who, *line;
	} cases[] = {
		{ R(0x0, 0x9fc00, RAM), "BIOS-e820",
		  "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable" },
		{ R(0x9fc00, 0xa0000, RES), "BIOS-e820",
		  "BIOS-e820: [mem 0x000000000009fc00-0x000000000009ffff] reserved" },
		{ R(0x7ffe0000, 0x7fff0000, ACPI), "BIOS-e820",
		  "BIOS-e820: [mem 0x000000007ffe0000-0x000000007ffeffff] ACPI data" },
		{ R(0x7fff0000, 0x80000000, NVS), "BIOS-e820",
		  "BIOS-e820: [mem 0x000000007fff0000-0x000000007fffffff] ACPI NVS" },
		{ R(0x80000000, 0x80001000, UNUSABLE), "BIOS-e820",
		  "BIOS-e820: [mem 0x0000000080000000-0x0000000080000fff] unusable" },
		{ R(0x100000000ULL, 0x140000000ULL, PMEM), "BIOS-e820",
		  "BIOS-e820: [mem 0x0000000100000000-0x000000013fffffff] persistent (type 7)" },
		{ R(0x140000000ULL, 0x180000000ULL, PRAM), "user",
		  "user: [mem 0x0000000140000000-0x000000017fffffff] persistent (type 12)" },
		{ R(0xfed00000, 0xfed01000, 6), "user",
		  "user: [mem 0x00000000fed00000-0x00000000fed00fff] type 6" },
		{ R(0xfffffffffffff000ULL, 0xffffffffffffffffULL, 0xffffffff), "user",
		  "user: [mem 0xfffffffffffff000-0xfffffffffffffffe] type 4294967295" },
	};
	char buf[128];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = e820__format_entry(buf, sizeof(buf), cases[i].who,
					   &cases[i].e);

		KTEST_EXPECT_STREQ(t, buf, cases[i].line);
		KTEST_EXPECT_EQ(t, n, (int)strlen(cases[i].line));
	}
	/* Cut short: snprintf's rules, the full length still returned. */
	KTEST_EXPECT_EQ(t, e820__format_entry(buf, 12, "BIOS-e820",
					      &cases[0].e), 61);
	KTEST_EXPECT_STREQ(t, buf, "BIOS-e820: ");
}

/* ---- queries ---- */

static void mapped_any_and_all(struct ktest *t)
{
	LOAD(&tbl, qemu_map);
	KTEST_EXPECT_TRUE(t, e820__mapped_any(&tbl, 0x9fc00, 0xa0000, RES));
	KTEST_EXPECT_TRUE(t, e820__mapped_any(&tbl, 0x9f000, 0xa0000, RAM));
	KTEST_EXPECT_FALSE(t, e820__mapped_any(&tbl, 0xa0000, 0xf0000, 0));
	KTEST_EXPECT_FALSE(t, e820__mapped_any(&tbl, 0x9fc00, 0xa0000, RAM));
	KTEST_EXPECT_FALSE(t, e820__mapped_any(&tbl, 0x1000, 0x1000, 0));

	KTEST_EXPECT_TRUE(t, e820__mapped_all(&tbl, 0, 0x9fc00, RAM));
	KTEST_EXPECT_FALSE(t, e820__mapped_all(&tbl, 0, 0xa0000, RAM));
	KTEST_EXPECT_TRUE(t, e820__mapped_all(&tbl, 0, 0xa0000, 0));
	KTEST_EXPECT_FALSE(t, e820__mapped_all(&tbl, 0x9f000, 0x100000, 0));
	KTEST_EXPECT_TRUE(t, e820__mapped_all(&tbl, 0xf0000, 0x8000000, 0));
	KTEST_EXPECT_FALSE(t, e820__mapped_all(&tbl, 0xf0000, 0x8000001, 0));
	KTEST_EXPECT_FALSE(t, e820__mapped_all(&tbl, 0x1000, 0x1000, 0));
}

static void end_of_ram_and_ram_bytes(struct ktest *t)
{
	LOAD(&tbl, qemu_map);
	KTEST_EXPECT_EQ(t, e820__end_of_ram(&tbl, ~0ULL), 0x7fe0000ULL);
	KTEST_EXPECT_EQ(t, e820__end_of_ram(&tbl, 0x1000000), 0x1000000ULL);
	KTEST_EXPECT_EQ(t, e820__end_of_ram(&tbl, 0x100000), 0x9fc00ULL);
	KTEST_EXPECT_EQ(t, e820__end_of_ram(&tbl, 0x50000), 0x50000ULL);
	KTEST_EXPECT_EQ(t, e820__end_of_ram(&tbl, 0), 0ULL);

	KTEST_EXPECT_EQ(t, e820__ram_bytes(&tbl, 0, ~0ULL), 0x7f7fc00ULL);
	KTEST_EXPECT_EQ(t, e820__ram_bytes(&tbl, 0x9f000, 0x101000), 0x1c00ULL);
	KTEST_EXPECT_EQ(t, e820__ram_bytes(&tbl, 0xa0000, 0x100000), 0ULL);
	KTEST_EXPECT_EQ(t, e820__ram_bytes(&tbl, 0x200000, 0x100000), 0ULL);
}

static struct e820_entry seen[8];
static u32 nr_seen;

static void record(u64 base, u64 size, void *arg)
{
	if (nr_seen < ARRAY_SIZE(seen)) {
		seen[nr_seen].addr = base;
		seen[nr_seen].size = size;
		seen[nr_seen].type = (enum e820_type)(uintptr_t)arg;
	}
	nr_seen++;
}

static void record_add(u64 base, u64 size, void *arg)
{
	record(base, size, (void *)(uintptr_t)RAM);
}

static void record_reserve(u64 base, u64 size, void *arg)
{
	record(base, size, (void *)(uintptr_t)RES);
}

static void memblock_ranges_clip_at_4g(struct ktest *t)
{
	static const struct e820_entry in[] = {
		R(0x0, 0x9fc00, RAM),
		R(0xf0000, 0x100000, ACPI),
		R(0x100000, 0xc0000000, RAM),
		R(0xfff00000, 0x110000000ULL, RES),	/* straddles */
		R(0x110000000ULL, 0x120000000ULL, RAM),
		R(0x140000000ULL, 0x180000000ULL, RAM),
		R(0xfd00000000ULL, 0xfd00001000ULL, RES),
	};
	static const struct e820_entry out[] = {
		R(0x0, 0x9fc00, RAM),
		R(0xf0000, 0x100000, RES),
		R(0x100000, 0xc0000000, RAM),
		R(0xfff00000, 0x100000000ULL, RES),
	};
	/* A RAM entry straddling 4 GiB: only the part above is counted. */
	static const struct e820_entry straddle[] = {
		R(0xc0000000, 0x100100000ULL, RAM),
	};
	static const struct e820_entry straddle_out[] = {
		R(0xc0000000, 0x100000000ULL, RAM),
	};
	static struct e820_table got;

	LOAD(&tbl, in);
	nr_seen = 0;
	KTEST_EXPECT_EQ(t, e820__memblock_ranges(&tbl, record_add,
						 record_reserve, NULL),
			0x50000000ULL);
	got.nr_entries = nr_seen;
	memcpy(got.entries, seen, sizeof(seen));
	EXPECT_TABLE(t, &got, out);

	LOAD(&tbl, straddle);
	nr_seen = 0;
	KTEST_EXPECT_EQ(t, e820__memblock_ranges(&tbl, record_add,
						 record_reserve, NULL),
			SZ_1M);
	got.nr_entries = nr_seen;
	memcpy(got.entries, seen, sizeof(seen));
	EXPECT_TABLE(t, &got, straddle_out);
}

static const struct ktest_case e820_cases[] = {
	KTEST_CASE(sanitize_sorts),
	KTEST_CASE(sanitize_overlap_higher_type_wins),
	KTEST_CASE(sanitize_nested_entry),
	KTEST_CASE(sanitize_three_way_overlap),
	KTEST_CASE(sanitize_drops_zero_length),
	KTEST_CASE(sanitize_drops_wrapping_entry),
	KTEST_CASE(sanitize_type_zero_is_a_hole),
	KTEST_CASE(sanitize_merges_touching_same_type),
	KTEST_CASE(sanitize_keeps_touching_different_types),
	KTEST_CASE(sanitize_identical_duplicates),
	KTEST_CASE(sanitize_single_and_empty),
	KTEST_CASE(sanitize_qemu_map_unchanged),
	KTEST_CASE(sanitize_rejects_bad_table),
	KTEST_CASE(sanitize_overflow_reported),
	KTEST_CASE(raw_map_merges_below_max),
	KTEST_CASE(raw_map_reports_excess),
	KTEST_CASE(range_add_full_table),
	KTEST_CASE(range_update_splits),
	KTEST_CASE(range_remove_splits),
	KTEST_CASE(mem_on_qemu_map),
	KTEST_CASE(memmap_without_address_is_mem),
	KTEST_CASE(memmap_each_form),
	KTEST_CASE(memmap_reserved_then_sanitized),
	KTEST_CASE(memmap_exactmap_comma_list),
	KTEST_CASE(memmap_exactmap_then_ranges),
	KTEST_CASE(memmap_exactmap_alone_falls_back),
	KTEST_CASE(memmap_malformed_changes_nothing),
	KTEST_CASE(mem_malformed_changes_nothing),
	KTEST_CASE(format_each_type),
	KTEST_CASE(mapped_any_and_all),
	KTEST_CASE(end_of_ram_and_ram_bytes),
	KTEST_CASE(memblock_ranges_clip_at_4g),
	KTEST_END
};

static const struct ktest_suite e820_suite = {
	.name = "e820",
	.init = e820_test_init,
	.cases = e820_cases,
};
KTEST_SUITE(e820_suite);
