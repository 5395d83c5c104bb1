/*
 * mm/e820.h - the physical memory map, as Linux's arch/x86 e820 code
 * keeps it (today's, not a 2.6 release's: see mm/e820.c).
 *
 * The boot loader's raw map (kernel/multiboot.h: unsorted, possibly
 * overlapping, zero-length entries kept) becomes a sanitised table:
 * sorted by address, no overlaps (the higher type number wins), touching
 * entries of one type merged.  e820_table is the map the kernel uses
 * (mem=/memmap= edit it); e820_table_firmware keeps the map as the boot
 * loader gave it, sanitised.  Both are pointers to static storage, as in
 * Linux, so that code reads "e820_table->nr_entries" the same way.
 *
 * Every function that works on a table takes it explicitly, so that the
 * tests (and a user-space build of mm/e820.c) use private tables.
 *
 * Boot order (the lead wires it in start_kernel):
 *	e820__memory_setup(&boot_info);	raw map -> e820_table, printed
 *	parse_early_params();		mem=, memmap= edit e820_table
 *	e820__finish_early_params();	sanitise and print the user map
 *	e820__memblock_setup();		usable RAM -> memblock
 */
#ifndef MM_E820_H
#define MM_E820_H

#include "kernel/multiboot.h"
#include "lib/compiler.h"
#include "lib/types.h"

enum e820_type {
	E820_TYPE_RAM = 1,
	E820_TYPE_RESERVED = 2,
	E820_TYPE_ACPI = 3,
	E820_TYPE_NVS = 4,
	E820_TYPE_UNUSABLE = 5,
	E820_TYPE_PMEM = 7,
	E820_TYPE_PRAM = 12,	/* memmap=nn!ss: legacy persistent memory */
};

/* The firmware's layout (20 bytes); type may hold any 32-bit value. */
struct e820_entry {
	u64 addr;
	u64 size;
	enum e820_type type;
} __packed;

#define E820_MAX_ENTRIES 128

/* The raw map is sanitised in a scratch table this big (see .c). */
#define E820_RAW_MAX_ENTRIES (2 * E820_MAX_ENTRIES)

struct e820_table {
	u32 nr_entries;
	struct e820_entry entries[E820_MAX_ENTRIES];
};

extern struct e820_table *e820_table;
extern struct e820_table *e820_table_firmware;

/* ---- building and sanitising a table ---- */

/*
 * Appends [start, start + size) of type to t.  When t is full the range
 * is reported ("e820: too many entries; ignoring [mem ...]") and dropped.
 */
void e820__range_add(struct e820_table *t, u64 start, u64 size,
		     enum e820_type type);

/*
 * Sanitises t in place: zero-length entries and entries whose end wraps
 * past 2^64 (reported) are dropped, the rest are cut at every change
 * point, the highest type number wins where entries overlap, and
 * touching pieces of one type are merged.  Type 0 is not a type: such an
 * entry covers nothing (as in Linux).  Returns the new number of entries,
 * or -EINVAL when t is NULL or claims more than E820_MAX_ENTRIES.
 */
int e820__update_table(struct e820_table *t);

/*
 * Replaces t's contents with the raw map[0..nr): the entries are copied
 * into a scratch table of E820_RAW_MAX_ENTRIES, sanitised there (so that
 * merging happens before anything could overflow) and then copied into
 * t.  Every entry that still does not fit is reported, one line each.
 * Returns the number of sanitised entries that did not fit (0: no loss).
 */
int e820__load_raw_map(struct e820_table *t, const struct boot_mmap_entry *map,
		       unsigned int nr);

/*
 * Changes the parts of [start, start + size) that are old_type into
 * new_type, splitting entries as needed (the pieces are appended; the
 * table is left unsorted until the next e820__update_table()).  Returns
 * the number of bytes changed.  A size reaching past 2^64 - 1 is cut
 * there.  A split that does not fit in the table is reported and not
 * done.  old_type == new_type, or new_type 0, is a caller bug: it WARNs
 * and changes nothing.
 */
u64 e820__range_update(struct e820_table *t, u64 start, u64 size,
		       enum e820_type old_type, enum e820_type new_type);

/*
 * Removes [start, start + size) from t: only from entries of old_type when
 * check_type, else from every entry.  Returns the number of bytes removed.
 * An entry removed whole is taken out of the table at once (Linux zeroes
 * it and leaves it for the next sanitise); the rest is as range_update.
 */
u64 e820__range_remove(struct e820_table *t, u64 start, u64 size,
		       enum e820_type old_type, bool check_type);

/* ---- queries (on a sanitised table) ---- */

/*
 * Does any part of [start, end) lie in an entry of type (0: of any type)?
 */
bool e820__mapped_any(const struct e820_table *t, u64 start, u64 end,
		      enum e820_type type);

/*
 * Is all of [start, end) covered, without holes, by entries of type (0:
 * of any type)?  The table must be sorted.  False for an empty range.
 */
bool e820__mapped_all(const struct e820_table *t, u64 start, u64 end,
		      enum e820_type type);

/*
 * The end (exclusive) of the highest usable RAM below limit, clipped to
 * limit; 0 when there is no usable RAM below limit.
 */
u64 e820__end_of_ram(const struct e820_table *t, u64 limit);

/* Usable RAM bytes within [start, end). */
u64 e820__ram_bytes(const struct e820_table *t, u64 start, u64 end);

/* ---- printing ---- */

/*
 * Formats one entry as Linux prints it, without a newline:
 *	"BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable"
 * (inclusive end).  Returns what snprintf() returns: the length of the
 * whole line, even when it did not fit in size.
 */
int e820__format_entry(char *buf, size_t size, const char *who,
		       const struct e820_entry *e);

/* One pr_info() line per entry, prefixed with who. */
void e820__print_table(const struct e820_table *t, const char *who);

/* ---- mem= and memmap= ---- */

/*
 * What the mem=/memmap= parameters did so far.  The parsers act on the
 * table at once, as Linux's do; the state lets the finish step tell
 * whether the map is user-defined and whether memmap=exactmap was left
 * without a range.
 */
struct e820_user_state {
	bool userdef;		/* a parameter changed the table */
	bool exactmap_pending;	/* exactmap emptied it; no range added since */
	u64 mem_limit;		/* lowest mem= (or memmap=nn) given; 0: none */
};

/*
 * mem=nn[KMGTPE]: removes the usable RAM at and above nn.  A missing,
 * zero or malformed value is reported and changes nothing.  Returns 0 or
 * -EINVAL.
 */
int e820__parse_mem(struct e820_table *t, const char *val,
		    struct e820_user_state *st);

/*
 * memmap=ITEM[,ITEM...], each ITEM one of
 *	exactmap	empty the table; the following ranges define it
 *	nn@ss		usable RAM	(E820_TYPE_RAM)
 *	nn#ss		ACPI data	(E820_TYPE_ACPI)
 *	nn$ss		reserved	(E820_TYPE_RESERVED)
 *	nn!ss		persistent	(E820_TYPE_PRAM)
 *	nn		as mem=nn
 * (nn and ss with an optional K/M/G/T/P/E suffix).  The whole value is
 * checked before anything is applied: a malformed item is reported,
 * naming it, and the table is left unchanged.  Returns 0 or -EINVAL.
 */
int e820__parse_memmap(struct e820_table *t, const char *val,
		       struct e820_user_state *st);

/*
 * The end of the early parameters for table t: when memmap=exactmap was
 * left without a range, reports it and falls back to firmware (then
 * re-applies the lowest mem= limit, if any); when the map is user-defined,
 * sanitises it.  Returns 1 when t is user-defined (to be printed), 0 when
 * it is not, or a negative errno from e820__update_table().
 */
int e820__finish_user_map(struct e820_table *t,
			  const struct e820_table *firmware,
			  struct e820_user_state *st);

/* ---- boot ---- */

/*
 * Builds e820_table from the raw Multiboot map, copies it to
 * e820_table_firmware and prints "BIOS-provided physical RAM map:" and
 * the table ("BIOS-e820: ...").  Call before parse_early_params().
 */
void e820__memory_setup(const struct boot_info *bi);

/* True once e820__memory_setup() has loaded the firmware map. */
extern bool e820_ready;

/*
 * After parse_early_params(): if mem=/memmap= changed e820_table,
 * sanitises it and prints "user-defined physical RAM map:" and the table
 * ("user: ...").
 */
void e820__finish_early_params(void);

/*
 * Walks a sanitised table as e820__memblock_setup() does: add(base, size)
 * for each usable range below 4 GiB, reserve(base, size) for each other
 * range below 4 GiB (an entry straddling 4 GiB is clipped there).
 * Returns the bytes of usable RAM at or above 4 GiB, which it skips.
 */
u64 e820__memblock_ranges(const struct e820_table *t,
			  void (*add)(u64 base, u64 size, void *arg),
			  void (*reserve)(u64 base, u64 size, void *arg),
			  void *arg);

/*
 * Hands e820_table to memblock: memblock_add() for usable RAM,
 * memblock_reserve() for the rest, both below 4 GiB; RAM above 4 GiB is
 * reported once and left out (no PAE in this build).
 */
void e820__memblock_setup(void);

#endif /* MM_E820_H */
