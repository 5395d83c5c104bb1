/*
 * asm/acpi.h - the ACPI tables the firmware leaves in memory, read into an
 * arch-neutral summary: CPUs and I/O APICs (MADT), NUMA affinity (SRAT),
 * NUMA distances (SLIT).
 *
 * acpi_parse() only reports.  What the kernel makes of a missing or broken
 * table is the caller's policy, and it is this: no usable MADT means one
 * CPU (the boot CPU, as on a machine without ACPI), no usable SRAT means
 * one node holding all memory, no usable SLIT means the default distances
 * (10 to itself, 20 to any other node), exactly as Linux falls back.
 *
 * struct acpi_info is about 7 KiB: keep it static, never on a stack.
 */
#ifndef ASM_ACPI_H
#define ASM_ACPI_H

#include "kernel/multiboot.h"
#include "kernel/nr_cpus.h"
#include "lib/compiler.h"
#include "lib/types.h"

#define ACPI_MAX_CPUS 64
#define ACPI_MAX_IOAPICS 8
#define ACPI_MAX_MEM_AFFINITY 32
#define ACPI_MAX_NODES 8
#define ACPI_MAX_OVERRIDES 16	/* MADT interrupt source overrides */
#define ACPI_MAX_LAPIC_NMIS 8
#define ACPI_MAX_TABLES 32	/* the root table and what it lists */

/* Largest table read: bigger ones are taken for corruption and rejected. */
#define ACPI_TABLE_MAX (64 * 1024)

/* struct acpi_info.rejected: which tables were found broken and ignored. */
#define ACPI_REJ_RSDP (1U << 0)	/* an RSDP candidate was invalid */
#define ACPI_REJ_RSDT (1U << 1)
#define ACPI_REJ_XSDT (1U << 2)
#define ACPI_REJ_MADT (1U << 3)
#define ACPI_REJ_SRAT (1U << 4)
#define ACPI_REJ_SLIT (1U << 5)
#define ACPI_REJ_OTHER (1U << 6)	/* any other table the root lists */

/* The SLIT's distance from a node to itself (ACPI's LOCAL_DISTANCE). */
#define ACPI_LOCAL_DISTANCE 10

/*
 * The firmware's layouts (ACPI 6.5, section 5.2): little-endian and packed.
 * acpi.c copies tables out of the mapping and reads these from the copy.
 */
struct acpi_rsdp {
	char signature[8];	/* "RSD PTR " */
	u8 checksum;		/* the first 20 bytes sum to 0 */
	char oem_id[6];
	u8 revision;		/* 0: ACPI 1.0; 2: 2.0 and later */
	u32 rsdt_address;
	/* revision >= 2 */
	u32 length;
	u64 xsdt_address;
	u8 extended_checksum;	/* length bytes sum to 0 */
	u8 reserved[3];
} __packed;

#define ACPI_RSDP_V1_SIZE 20
#define ACPI_RSDP_V2_SIZE 36
#define ACPI_RSDP_MAX_LENGTH 4096	/* a longer "length" is corruption */

struct acpi_table_header {
	char signature[4];
	u32 length;		/* of the whole table, header included */
	u8 revision;
	u8 checksum;		/* length bytes sum to 0 */
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	char asl_compiler_id[4];
	u32 asl_compiler_revision;
} __packed;

struct acpi_subtable_header {
	u8 type;
	u8 length;		/* of the whole subtable */
} __packed;

struct acpi_table_madt {
	struct acpi_table_header header;
	u32 address;		/* local APIC registers */
	u32 flags;
} __packed;

enum acpi_madt_type {
	ACPI_MADT_TYPE_LOCAL_APIC = 0,
	ACPI_MADT_TYPE_IO_APIC = 1,
	ACPI_MADT_TYPE_INTERRUPT_OVERRIDE = 2,
	ACPI_MADT_TYPE_NMI_SOURCE = 3,
	ACPI_MADT_TYPE_LOCAL_APIC_NMI = 4,
	ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE = 5,
};

#define ACPI_MADT_ENABLED 1	/* processor usable */

struct acpi_madt_local_apic {
	struct acpi_subtable_header header;
	u8 processor_id;	/* the ACPI UID */
	u8 id;			/* the local APIC id */
	u32 lapic_flags;
} __packed;

struct acpi_madt_io_apic {
	struct acpi_subtable_header header;
	u8 id;
	u8 reserved;
	u32 address;
	u32 global_irq_base;
} __packed;

struct acpi_madt_interrupt_override {
	struct acpi_subtable_header header;
	u8 bus;
	u8 source_irq;
	u32 global_irq;
	u16 inti_flags;
} __packed;

struct acpi_madt_local_apic_nmi {
	struct acpi_subtable_header header;
	u8 processor_id;
	u16 inti_flags;
	u8 lint;
} __packed;

struct acpi_madt_local_apic_override {
	struct acpi_subtable_header header;
	u16 reserved;
	u64 address;
} __packed;

struct acpi_table_srat {
	struct acpi_table_header header;
	u32 table_revision;	/* must be 1 */
	u64 reserved;
} __packed;

enum acpi_srat_type {
	ACPI_SRAT_TYPE_CPU_AFFINITY = 0,
	ACPI_SRAT_TYPE_MEMORY_AFFINITY = 1,
	ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY = 2,
};

#define ACPI_SRAT_CPU_ENABLED 1
#define ACPI_SRAT_MEM_ENABLED 1
#define ACPI_SRAT_MEM_HOT_PLUGGABLE 2
#define ACPI_SRAT_MEM_NON_VOLATILE 4

struct acpi_srat_cpu_affinity {
	struct acpi_subtable_header header;
	u8 proximity_domain_lo;
	u8 apic_id;
	u32 flags;
	u8 local_sapic_eid;
	u8 proximity_domain_hi[3];
	u32 clock_domain;
} __packed;

struct acpi_srat_mem_affinity {
	struct acpi_subtable_header header;
	u32 proximity_domain;
	u16 reserved;
	u64 base_address;
	u64 length;
	u32 reserved1;
	u32 flags;
	u64 reserved2;
} __packed;

struct acpi_table_slit {
	struct acpi_table_header header;
	u64 locality_count;	/* then a count x count byte matrix */
} __packed;

BUILD_BUG_ON(sizeof(struct acpi_rsdp) != ACPI_RSDP_V2_SIZE);
BUILD_BUG_ON(offsetof(struct acpi_rsdp, length) != ACPI_RSDP_V1_SIZE);
BUILD_BUG_ON(sizeof(struct acpi_table_header) != 36);
BUILD_BUG_ON(sizeof(struct acpi_table_madt) != 44);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_apic) != 8);
BUILD_BUG_ON(sizeof(struct acpi_madt_io_apic) != 12);
BUILD_BUG_ON(sizeof(struct acpi_madt_interrupt_override) != 10);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_apic_nmi) != 6);
BUILD_BUG_ON(sizeof(struct acpi_madt_local_apic_override) != 12);
BUILD_BUG_ON(sizeof(struct acpi_table_srat) != 48);
BUILD_BUG_ON(sizeof(struct acpi_srat_cpu_affinity) != 16);
BUILD_BUG_ON(sizeof(struct acpi_srat_mem_affinity) != 40);
BUILD_BUG_ON(sizeof(struct acpi_table_slit) != 44);

/* One table looked at: what its header says, and what was wrong, if any. */
struct acpi_table_desc {
	phys_addr_t pa;
	bool header_read;	/* false: nothing was read (the fields are 0) */
	char signature[5];
	u32 length;
	u8 revision;
	char oem_id[7];
	char oem_table_id[9];
	u32 oem_revision;
	char asl_compiler_id[5];
	u32 asl_compiler_revision;
	/*
	 * Empty when the table was accepted; else why it was not used.  With
	 * rejected set the table was broken (its ACPI_REJ_* bit is set in
	 * the summary); without, it was merely skipped (an XSDT entry above
	 * 4 GiB, a second MADT).
	 */
	char problem[80];
	bool rejected;
};

struct acpi_cpu {
	u8 apic_id;
	u8 acpi_id;		/* the processor's ACPI UID */
	bool enabled;		/* false: present in the table, not usable */
};

struct acpi_ioapic {
	u8 id;
	u32 addr;
	u32 gsi_base;		/* first global system interrupt it serves */
};

struct acpi_irq_override {
	u8 bus;			/* 0: ISA */
	u8 source;		/* bus-relative IRQ */
	u32 gsi;
	u16 flags;		/* MPS INTI flags: polarity bits 0-1, trigger 2-3 */
};

struct acpi_lapic_nmi {
	u8 acpi_id;		/* 0xff: every processor */
	u16 flags;		/* MPS INTI flags */
	u8 lint;		/* LINT0 or LINT1 */
};

struct acpi_mem_affinity {
	u64 base, len;
	u32 pxm;		/* proximity domain */
	bool enabled, hotplug, nonvolatile;
};

struct acpi_cpu_affinity {
	u8 apic_id;
	u32 pxm;
	bool enabled;
};

/* Where the RSDP used came from (struct acpi_info.rsdp_source). */
enum acpi_rsdp_source {
	ACPI_RSDP_NONE,		/* no valid RSDP anywhere */
	ACPI_RSDP_HINT,		/* the address the caller gave */
	ACPI_RSDP_LOADER,	/* the boot loader's copy (no address) */
	ACPI_RSDP_BIOS,		/* the EBDA's first KiB or 0xE0000-0xFFFFF */
	ACPI_RSDP_FW_RANGES,	/* a scan of the map's ACPI data and NVS */
};

/*
 * Where acpi_parse() may look for the RSDP.  A nonzero hint is the only
 * candidate.  Otherwise, in this order: the boot loader's copy (copy_len
 * bytes at copy, none when copy_len is 0), the BIOS area, and last the
 * ACPI data (type 3) and ACPI NVS (type 4) ranges of the raw memory map.
 */
struct acpi_rsdp_sources {
	phys_addr_t hint;
	const u8 *copy;
	unsigned int copy_len;
	const struct boot_mmap_entry *mmap;
	unsigned int nr_mmap;
};

struct acpi_info {
	/* The root pointer. */
	bool rsdp_found;
	enum acpi_rsdp_source rsdp_source;
	u8 revision;		/* 0: ACPI 1.0 (RSDT only), 2: ACPI 2.0+ */
	char oem_id[7];
	phys_addr_t rsdp_pa;	/* 0 for the loader's copy */
	u32 rsdp_length;	/* 20 for revision 0, else its length field */
	/*
	 * The last candidate in memory that had to be ignored, and why; the
	 * loader's copy has its own reason.  Either sets ACPI_REJ_RSDP.
	 */
	phys_addr_t rsdp_bad_pa;
	char rsdp_problem[80];
	char copy_problem[80];
	bool root_ok;		/* an RSDT or XSDT was read and walked */

	/* MADT */
	bool madt_ok;
	u32 lapic_addr;		/* the header's, or the override's if below 4 GiB */
	u32 madt_flags;		/* bit 0: PC/AT dual 8259s present */
	unsigned int nr_cpus;
	struct acpi_cpu cpus[ACPI_MAX_CPUS];
	unsigned int nr_ioapics;
	struct acpi_ioapic ioapics[ACPI_MAX_IOAPICS];
	unsigned int nr_overrides;
	struct acpi_irq_override overrides[ACPI_MAX_OVERRIDES];
	unsigned int nr_lapic_nmis;
	struct acpi_lapic_nmi lapic_nmis[ACPI_MAX_LAPIC_NMIS];

	/* SRAT: every memory entry, disabled and hot-pluggable ones too. */
	bool srat_ok;
	unsigned int nr_mem;
	struct acpi_mem_affinity mem[ACPI_MAX_MEM_AFFINITY];
	unsigned int nr_cpu_aff;
	struct acpi_cpu_affinity cpu_aff[ACPI_MAX_CPUS];

	/*
	 * SLIT: slit[i][j] is the distance from locality i to locality j.
	 * One of more than ACPI_MAX_NODES localities, or failing Linux's
	 * slit_valid() (10 on the diagonal, more than 10 elsewhere), is
	 * rejected.
	 */
	bool slit_ok;
	unsigned int slit_localities;
	u8 slit[ACPI_MAX_NODES][ACPI_MAX_NODES];

	u32 rejected;		/* ACPI_REJ_* */
	unsigned int dropped;	/* valid entries that did not fit an array */
	bool srat_mem_dropped;	/* among them, SRAT memory affinities */

	/* Every table looked at, in the order read: the root first. */
	unsigned int nr_tables;
	struct acpi_table_desc tables[ACPI_MAX_TABLES];
};

/*
 * The caller's view of physical memory: a pointer through which
 * [pa, pa + len) can be read, or NULL when that cannot be mapped.  The
 * pointer is valid only until the next call (the early mapping window
 * may move), so acpi_parse() copies whatever it keeps before asking again.
 */
typedef const void *(*acpi_map_t)(phys_addr_t pa, size_t len);

/*
 * Fills *info (zeroing it first) from the tables found through map, the
 * RSDP taken from the first of src's places that holds a valid one (see
 * struct acpi_rsdp_sources).  The loader's copy is checked as an RSDP
 * found in memory is, and its length field may not exceed the copy; a
 * copy that fails is reported (copy_problem) and the search goes on.
 * The BIOS area is the specification's: the first KiB of the EBDA, then
 * 0xE0000-0xFFFFF.
 *
 * With revision >= 2 and an XSDT address the XSDT is walked (an entry
 * above 4 GiB is skipped, not mapped); a rejected XSDT falls back to the
 * RSDT.  A MADT without one processor (type 0) entry is rejected ("no
 * processors"): x2APIC entries are not read, this kernel has no x2APIC
 * mode.  The first valid MADT, SRAT and SLIT are used, later ones skipped.
 *
 * Returns 0 when an RSDP and a root table were read (single tables may
 * still have been rejected: see info->rejected), -ENOENT when no valid
 * RSDP was found, -EINVAL when the RSDP led to no usable root table.
 *
 * Not reentrant (it copies tables into one static buffer): call it from
 * one CPU at a time.
 */
int acpi_parse(struct acpi_info *info, acpi_map_t map,
	       const struct acpi_rsdp_sources *src);

/*
 * Prints what was found in Linux's words: one line per table, the MADT's
 * entries, the SRAT's affinities, the SLIT's matrix, and a warning for
 * every table rejected or skipped, saying which and why.
 */
void acpi_print(const struct acpi_info *info);

/*
 * What arch_platform_init() read at boot (all zero when no tables were
 * usable): the MADT's I/O APICs and interrupt source overrides for
 * arch/x86/ioapic.c.
 */
const struct acpi_info *acpi_boot_tables(void);

/* Where arch_platform_init() looked for the RSDP: the boot information's. */
const struct acpi_rsdp_sources *acpi_boot_sources(void);

/*
 * The CPUs this kernel numbers (arch/x86/acpi_layout.c): apic_id[0] is
 * bsp, then each enabled MADT processor in table order, each APIC ID
 * once, at most min(NR_CPUS, max_cpus) in all (max_cpus >= 1).  Returns
 * how many; 1 without a usable MADT.
 */
unsigned int acpi_number_cpus(const struct acpi_info *acpi, unsigned int bsp,
			      unsigned int max_cpus,
			      unsigned int apic_id[NR_CPUS]);

/*
 * The SRAT's enabled, present memory ranges and the domain of each of the
 * nr_cpus numbered CPUs (by their APIC IDs; -1 when the SRAT has none),
 * and the SLIT's distances, for mm/numa.c.  False when there is no usable
 * SRAT, it describes no memory, or it has more memory ranges than
 * ACPI_MAX_MEM_AFFINITY (the rest would be on no node: as Linux's "too
 * many memblk ranges", the SRAT is not used, with a line saying so).
 */
struct fw_numa;
bool acpi_fw_numa(const struct acpi_info *acpi, const unsigned int *apic_id,
		  unsigned int nr_cpus, struct fw_numa *fw);

#endif /* ASM_ACPI_H */
