/*
 * tests/acpi_test.c - suite "acpi": the ACPI table parser.
 *
 * Two kinds of case.
 *
 * live_*: the tables QEMU built for this boot, parsed through live_map(),
 * and checked against what QEMU was told, read from fw_cfg (the oracle:
 * -smp's CPU count, -numa's nodes and their memory).  After paging_init()
 * only [0, max_low_pfn) is linearly mapped, and QEMU puts its tables in
 * the reserved range just past the end of RAM below 4 GiB: past
 * max_low_pfn at -m 128M, above 896 MiB at -m 1G.  So live_map() uses
 * __va() inside the linear map and, elsewhere below 4 GiB, a window of its
 * own: pages at the bottom of the fixmap's page table, below every fixmap
 * slot (BUILD_BUG_ON below), remapped at every call and cleared at the
 * end of every case.  Remapping at every call is what the kernel's early
 * window will do, so a parser that kept a pointer across map() calls
 * would fault here.  A range it cannot reach (above 4 GiB) is refused,
 * and a live case whose tables lie there skips, saying so.
 *
 * The rest: hand-made tables in static arrays that stand for physical
 * memory (the tables at FAKE_BASE, the BIOS data area, an EBDA, part of
 * the BIOS ROM area, and firmware memory that the cases' own memory maps
 * name), parsed through fake_map().  fake_map() refuses any
 * range not wholly inside one of them, counts refusals, and returns a
 * bounce buffer: each call fills a fresh one with the range and poisons
 * the one handed out before, so that reading through a stale pointer or
 * past the length asked for reads 0xa5, never the data.  A boot loader's
 * RSDP copy is a plain array, as in the boot information.  Every expected
 * number is written out by hand, and so are the lines acpi_print() says
 * about the RSDP, caught by a console of the suite's own.
 */
#include "asm/acpi.h"
#include "asm/fw_cfg.h"
#include "asm/pgtable.h"
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/multiboot.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm/mm.h"
#include "mm/topology.h"
#include "tests/ktest.h"

#define FOUR_GB 0x100000000ULL

/* ---- fake physical memory ------------------------------------------------ */

#define FAKE_BASE 0x00300000ULL
#define ARENA_SIZE 0x4000
#define PA(off) (FAKE_BASE + (off))

/* Where the cases put their tables, as offsets into the arena. */
#define RSDP_OFF 0x0000
#define RSDT_OFF 0x0040
#define XSDT_OFF 0x0100
#define MADT_OFF 0x0200		/* room for 70 processors */
#define SRAT_OFF 0x0a00
#define SLIT_OFF 0x0c00
#define OTHER_OFF 0x0d00

#define BDA_PA 0x400ULL
#define EBDA_PA 0x9fc00ULL
#define ROM_PA 0xf0000ULL
#define FW_PA 0x7fe00000ULL	/* where the memory-map cases put ranges */
#define FW_SIZE 0x2000

static u8 arena[ARENA_SIZE];
static u8 bda[0x100];
static u8 ebda[0x400];
static u8 rom[0x4000];		/* 0xf0000-0xf3fff; the rest of the ROM area is refused */
static u8 fw[FW_SIZE];		/* firmware memory named by a fake memory map */

static const struct region {
	phys_addr_t pa;
	size_t size;
	u8 *mem;
} regions[] = {
	{ FAKE_BASE, sizeof(arena), arena },
	{ BDA_PA, sizeof(bda), bda },
	{ EBDA_PA, sizeof(ebda), ebda },
	{ ROM_PA, sizeof(rom), rom },
	{ FW_PA, sizeof(fw), fw },
};

static u8 bounce[2][ARENA_SIZE];
static unsigned int bounce_cur;
static unsigned int nr_maps, nr_refused;
static bool asked_above_4g;
static unsigned int fw_maps;	/* map() calls that touched fw[] */
static struct acpi_info info;

static u8 *region_ptr(phys_addr_t pa, size_t len)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(regions); i++) {
		const struct region *r = &regions[i];

		if (pa >= r->pa && pa - r->pa <= r->size &&
		    len <= r->size - (pa - r->pa))
			return r->mem + (pa - r->pa);
	}
	return NULL;
}

static const void *fake_map(phys_addr_t pa, size_t len)
{
	const u8 *src = region_ptr(pa, len);
	u8 *b;

	nr_maps++;
	if (pa >= FOUR_GB)
		asked_above_4g = true;
	if (pa < FW_PA + FW_SIZE && pa + len > FW_PA)
		fw_maps++;
	if (!src || !len || len > ARENA_SIZE) {
		nr_refused++;
		return NULL;
	}
	memset(bounce[bounce_cur], 0xa5, ARENA_SIZE);	/* the old mapping dies */
	bounce_cur ^= 1;
	b = bounce[bounce_cur];
	memcpy(b, src, len);
	memset(b + len, 0xa5, ARENA_SIZE - len);
	return b;
}

/* The test's own writes to fake memory; a range outside it is a test bug. */
static u8 *fake(phys_addr_t pa, size_t len)
{
	u8 *p = region_ptr(pa, len);

	BUG_ON(!p);
	return p;
}

static void put8(phys_addr_t pa, u8 v)
{
	*fake(pa, 1) = v;
}

static void put16(phys_addr_t pa, u16 v)
{
	put8(pa, (u8)v);
	put8(pa + 1, (u8)(v >> 8));
}

static void put32(phys_addr_t pa, u32 v)
{
	put16(pa, (u16)v);
	put16(pa + 2, (u16)(v >> 16));
}

static void put64(phys_addr_t pa, u64 v)
{
	put32(pa, (u32)v);
	put32(pa + 4, (u32)(v >> 32));
}

static void put_chars(phys_addr_t pa, const char *s, size_t n)
{
	memcpy(fake(pa, n), s, n);
}

/* Sets the byte at pa + at so that the len bytes at pa sum to 0. */
static void set_checksum(phys_addr_t pa, u32 len, u32 at)
{
	const u8 *p = fake(pa, len);
	u8 sum = 0;

	put8(pa + at, 0);
	for (u32 i = 0; i < len; i++)
		sum += p[i];
	put8(pa + at, (u8)-sum);
}

/* An RSDP: revision 0 (20 bytes) or 2 (36 bytes, with an XSDT address). */
static void put_rsdp(phys_addr_t pa, u8 rev, u32 rsdt, u64 xsdt)
{
	memset(fake(pa, 36), 0, 36);
	put_chars(pa, "RSD PTR ", 8);
	put_chars(pa + 9, "MM86  ", 6);
	put8(pa + 15, rev);
	put32(pa + 16, rsdt);
	if (rev >= 2) {
		put32(pa + 20, 36);
		put64(pa + 24, xsdt);
	}
	set_checksum(pa, 20, 8);
	if (rev >= 2)
		set_checksum(pa, 36, 32);
}

/* A table under construction: the header, then bytes appended. */
struct table {
	phys_addr_t pa;
	u32 len;
};

static void table_begin(struct table *tb, phys_addr_t pa, const char *sig,
			u8 rev, u32 fixed_len)
{
	tb->pa = pa;
	tb->len = fixed_len;
	memset(fake(pa, fixed_len), 0, fixed_len);
	put_chars(pa, sig, 4);
	put8(pa + 8, rev);
	put_chars(pa + 10, "MM86  ", 6);
	put_chars(pa + 16, "MM86TEST", 8);
	put32(pa + 24, 1);
	put_chars(pa + 28, "MMTS", 4);
	put32(pa + 32, 0x20240101);
}

static void add8(struct table *tb, u8 v)
{
	put8(tb->pa + tb->len, v);
	tb->len += 1;
}

static void add16(struct table *tb, u16 v)
{
	put16(tb->pa + tb->len, v);
	tb->len += 2;
}

static void add32(struct table *tb, u32 v)
{
	put32(tb->pa + tb->len, v);
	tb->len += 4;
}

static void add64(struct table *tb, u64 v)
{
	put64(tb->pa + tb->len, v);
	tb->len += 8;
}

/* Writes the length field and the checksum: a well-formed table. */
static void table_end(struct table *tb)
{
	put32(tb->pa + 4, tb->len);
	set_checksum(tb->pa, tb->len, 9);
}

static void put_rsdt(phys_addr_t pa, const u32 *entry, unsigned int n)
{
	struct table tb;

	table_begin(&tb, pa, "RSDT", 1, 36);
	for (unsigned int i = 0; i < n; i++)
		add32(&tb, entry[i]);
	table_end(&tb);
}

static void put_xsdt(phys_addr_t pa, const u64 *entry, unsigned int n)
{
	struct table tb;

	table_begin(&tb, pa, "XSDT", 1, 36);
	for (unsigned int i = 0; i < n; i++)
		add64(&tb, entry[i]);
	table_end(&tb);
}

/* The MADT's fixed part: local APIC at 0xfee00000, PC/AT compatible. */
static void madt_begin(struct table *tb, phys_addr_t pa)
{
	table_begin(tb, pa, "APIC", 3, 44);
	put32(pa + 36, 0xfee00000);
	put32(pa + 40, 1);
}

static void madt_lapic(struct table *tb, u8 acpi_id, u8 apic_id, u32 flags)
{
	add8(tb, 0);
	add8(tb, 8);
	add8(tb, acpi_id);
	add8(tb, apic_id);
	add32(tb, flags);
}

static void madt_ioapic(struct table *tb, u8 id, u32 addr, u32 gsi_base)
{
	add8(tb, 1);
	add8(tb, 12);
	add8(tb, id);
	add8(tb, 0);
	add32(tb, addr);
	add32(tb, gsi_base);
}

static void madt_override(struct table *tb, u8 irq, u32 gsi, u16 flags)
{
	add8(tb, 2);
	add8(tb, 10);
	add8(tb, 0);		/* ISA */
	add8(tb, irq);
	add32(tb, gsi);
	add16(tb, flags);
}

static void madt_lapic_nmi(struct table *tb, u8 acpi_id, u16 flags, u8 lint)
{
	add8(tb, 4);
	add8(tb, 6);
	add8(tb, acpi_id);
	add16(tb, flags);
	add8(tb, lint);
}

static void srat_begin(struct table *tb, phys_addr_t pa, u8 rev)
{
	table_begin(tb, pa, "SRAT", rev, 48);
	put32(pa + 36, 1);
}

static void srat_cpu(struct table *tb, u8 pxm_lo, u8 apic_id, u32 flags,
		     u8 pxm_hi0)
{
	add8(tb, 0);
	add8(tb, 16);
	add8(tb, pxm_lo);
	add8(tb, apic_id);
	add32(tb, flags);
	add8(tb, 0);		/* local SAPIC EID */
	add8(tb, pxm_hi0);
	add16(tb, 0);
	add32(tb, 0);		/* clock domain */
}

static void srat_mem(struct table *tb, u32 pxm, u64 base, u64 len, u32 flags)
{
	add8(tb, 1);
	add8(tb, 40);
	add32(tb, pxm);
	add16(tb, 0);
	add64(tb, base);
	add64(tb, len);
	add32(tb, 0);
	add32(tb, flags);
	add64(tb, 0);
}

static void put_slit(phys_addr_t pa, u64 count, const u8 *m, unsigned int bytes)
{
	struct table tb;

	table_begin(&tb, pa, "SLIT", 1, 44);
	put64(pa + 36, count);
	for (unsigned int i = 0; i < bytes; i++)
		add8(&tb, m[i]);
	table_end(&tb);
}

/* The 2-CPU, 1-I/O-APIC MADT of the exact case: 44 + 8 + 8 + 12 + 10 + 6. */
static void put_good_madt(phys_addr_t pa)
{
	struct table tb;

	madt_begin(&tb, pa);
	madt_lapic(&tb, 0, 0, 1);
	madt_lapic(&tb, 1, 2, 1);
	madt_ioapic(&tb, 1, 0xfec00000, 0);
	madt_override(&tb, 0, 2, 0);
	madt_lapic_nmi(&tb, 0xff, 5, 1);
	table_end(&tb);
}

/* A two-node SRAT of revision rev (see srat_two_nodes for its entries). */
static void put_good_srat(phys_addr_t pa, u8 rev)
{
	struct table tb;

	srat_begin(&tb, pa, rev);
	srat_cpu(&tb, 0, 0, 1, 0);
	srat_cpu(&tb, 1, 1, 1, 0);
	srat_cpu(&tb, 0, 2, 0, 0);	/* disabled */
	srat_cpu(&tb, 1, 3, 1, 1);	/* high PXM byte: ignored before revision 2 */
	srat_mem(&tb, 0, 0x0, 0xa0000, 1);
	srat_mem(&tb, 0, 0x100000, 0x7f00000, 1);
	srat_mem(&tb, 1, 0x8000000, 0x8000000, 1);
	srat_mem(&tb, 0, 0, 0, 0);	/* QEMU's disabled placeholder */
	srat_mem(&tb, 1, 0x100000000ULL, 0x40000000, 3);	/* hot-pluggable */
	srat_mem(&tb, 0x101, 0x20000000, 0x1000, 5);	/* non-volatile */
	table_end(&tb);
}

/* The RSDP at hint (0: the BIOS area only: no copy, no memory map). */
static int fake_parse(phys_addr_t hint)
{
	const struct acpi_rsdp_sources src = { .hint = hint };

	return acpi_parse(&info, fake_map, &src);
}

/* ---- the live tables ------------------------------------------------------ */

/* The window: the bottom of the page table that maps the fixmap. */
#define LIVE_WINDOW 0xffc00000UL
#define LIVE_WINDOW_PAGES (ACPI_TABLE_MAX / PAGE_SIZE + 1)

BUILD_BUG_ON(LIVE_WINDOW != PKMAP_BASE + LAST_PKMAP * PAGE_SIZE);
BUILD_BUG_ON(LIVE_WINDOW >> 22 != FIXADDR_START >> 22);
BUILD_BUG_ON(LIVE_WINDOW + LIVE_WINDOW_PAGES * PAGE_SIZE > FIXADDR_START);

static unsigned int live_pages;		/* mapped in the window now */
static unsigned int live_refused;

static void live_unmap(void)
{
	for (unsigned int i = 0; i < live_pages; i++)
		clear_kernel_pte(LIVE_WINDOW + i * PAGE_SIZE);
	live_pages = 0;
}

static const void *live_map(phys_addr_t pa, size_t len)
{
	phys_addr_t lowmem_end = (phys_addr_t)max_low_pfn << PAGE_SHIFT;
	unsigned long first, n;

	live_unmap();
	if (!len || pa >= FOUR_GB || len > FOUR_GB - pa)
		goto refuse;
	if (pa < lowmem_end && len <= lowmem_end - pa)
		return __va((unsigned long)pa);

	first = (unsigned long)(pa >> PAGE_SHIFT);
	n = (unsigned long)((pa + len - 1) >> PAGE_SHIFT) - first + 1;
	if (n > LIVE_WINDOW_PAGES)
		goto refuse;
	for (unsigned long i = 0; i < n; i++)
		if (kernel_pte_pfn(LIVE_WINDOW + i * PAGE_SIZE) != -1)
			goto refuse;	/* not ours: leave it alone */
	for (unsigned long i = 0; i < n; i++)
		set_kernel_pte(LIVE_WINDOW + i * PAGE_SIZE, first + i);
	live_pages = n;
	return (const void *)(LIVE_WINDOW + (unsigned long)(pa & ~PAGE_MASK));
refuse:
	live_refused++;
	return NULL;
}

/* Parses this boot's tables, or skips the case when that cannot be done. */
static void live_parse(struct ktest *t)
{
	int ret;

	if (!fw_cfg_present())
		ktest_skip(t, "no QEMU fw_cfg: nothing to check the tables against");
	live_refused = 0;
	ret = acpi_parse(&info, live_map, acpi_boot_sources());
	live_unmap();
	if (ret && live_refused)
		ktest_skip(t, "the ACPI tables lie where this test cannot map them (above 4 GiB, or its window is taken)");
	KTEST_ASSERT_EQ(t, ret, 0);
}

static unsigned int enabled_cpus(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < info.nr_cpus; i++)
		n += info.cpus[i].enabled;
	return n;
}

/* The MADT QEMU built: its enabled processors are exactly -smp's CPUs. */
static void live_madt_matches_qemu(struct ktest *t)
{
	live_parse(t);
	acpi_print(&info);
	KTEST_EXPECT_TRUE(t, info.rsdp_found);
	KTEST_EXPECT_TRUE(t, info.root_ok);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_EQ(t, info.dropped, 0U);
	KTEST_ASSERT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, enabled_cpus(), fw_cfg_nb_cpus());
	KTEST_EXPECT_LE(t, info.nr_cpus, fw_cfg_max_cpus());
	KTEST_EXPECT_EQ(t, info.lapic_addr, 0xfee00000U);
	KTEST_ASSERT_GE(t, info.nr_ioapics, 1U);
	KTEST_EXPECT_EQ(t, info.ioapics[0].addr, 0xfec00000U);
	KTEST_EXPECT_EQ(t, info.ioapics[0].gsi_base, 0U);
	for (unsigned int i = 0; i < info.nr_cpus; i++)
		for (unsigned int j = i + 1; j < info.nr_cpus; j++)
			KTEST_EXPECT_NE(t, info.cpus[i].apic_id,
					info.cpus[j].apic_id);
}

static unsigned int fw_nodes;
static u64 fw_node_mem[ACPI_MAX_NODES];

static void live_numa(struct ktest *t)
{
	int ret;

	live_parse(t);
	ret = fw_cfg_numa(&fw_nodes, fw_node_mem, ACPI_MAX_NODES);
	KTEST_ASSERT_EQ(t, ret, 0);
	if (!fw_nodes)
		ktest_skip(t, "QEMU was given no -numa nodes (fw_cfg)");
}

/*
 * The SRAT against -numa: as many proximity domains as nodes, each with
 * the memory QEMU gave its node, each CPU in its node.  Only enabled,
 * non-hot-pluggable memory entries count: QEMU pads the memory entries
 * with disabled zero-length placeholders (to nodes + 2 of them) and, with
 * -m ...,maxmem=, adds an enabled hot-pluggable entry for the whole
 * hotplug area.  QEMU lays the nodes out one after another from address
 * 0 in node order and cuts the legacy hole [640 KiB, 1 MiB) out of
 * whichever node covers it (the PCI hole below 4 GiB only moves memory
 * above 4 GiB, its length unchanged), so a node's SRAT total is its size
 * less its overlap with that hole.
 */
static void live_srat_matches_qemu(struct ktest *t)
{
	u32 pxms[ACPI_MAX_MEM_AFFINITY];
	unsigned int nr_pxms = 0, nr_with_mem = 0;
	u64 start = 0;

	live_numa(t);
	KTEST_ASSERT_TRUE(t, info.srat_ok);
	for (unsigned int i = 0; i < info.nr_mem; i++) {
		const struct acpi_mem_affinity *m = &info.mem[i];
		unsigned int j;

		if (!m->enabled || m->hotplug || !m->len)
			continue;
		for (j = 0; j < nr_pxms && pxms[j] != m->pxm; j++)
			;
		if (j == nr_pxms)
			pxms[nr_pxms++] = m->pxm;
	}
	for (unsigned int n = 0; n < fw_nodes && n < ACPI_MAX_NODES; n++)
		nr_with_mem += fw_node_mem[n] != 0;
	KTEST_EXPECT_EQ(t, nr_pxms, nr_with_mem);

	for (unsigned int n = 0; n < fw_nodes && n < ACPI_MAX_NODES; n++) {
		u64 end = start + fw_node_mem[n], sum = 0;
		u64 lo = max(start, 0xa0000ULL), hi = min(end, 0x100000ULL);
		u64 hole = hi > lo ? hi - lo : 0;

		for (unsigned int i = 0; i < info.nr_mem; i++)
			if (info.mem[i].enabled && !info.mem[i].hotplug &&
			    info.mem[i].pxm == n)
				sum += info.mem[i].len;
		KTEST_EXPECT_EQ(t, sum, fw_node_mem[n] - hole);
		start = end;
	}

	KTEST_EXPECT_GE(t, info.nr_cpu_aff, enabled_cpus());
	for (unsigned int i = 0; i < info.nr_cpu_aff; i++) {
		const struct acpi_cpu_affinity *a = &info.cpu_aff[i];

		if (a->enabled)
			KTEST_EXPECT_EQ(t, (int)a->pxm,
					fw_cfg_numa_node_of_apic(a->apic_id));
	}
}

/* The SLIT: nodes x nodes, 10 on the diagonal, more than 10 elsewhere. */
static void live_slit_matches_qemu(struct ktest *t)
{
	bool listed = false;

	live_numa(t);
	for (unsigned int i = 0; i < info.nr_tables; i++)
		listed |= !strcmp(info.tables[i].signature, "SLIT");
	if (!listed)
		ktest_skip(t, "no SLIT: QEMU builds one only when given -numa dist");
	KTEST_ASSERT_TRUE(t, info.slit_ok);
	KTEST_ASSERT_EQ(t, info.slit_localities, fw_nodes);
	for (unsigned int i = 0; i < fw_nodes; i++)
		for (unsigned int j = 0; j < fw_nodes; j++)
			if (i == j)
				KTEST_EXPECT_EQ(t, info.slit[i][j], 10);
			else
				KTEST_EXPECT_GT(t, info.slit[i][j], 10);
}

/* ---- hand-made tables ------------------------------------------------------ */

static int acpi_test_init(struct ktest *t)
{
	memset(arena, 0, sizeof(arena));
	memset(bda, 0, sizeof(bda));
	memset(ebda, 0, sizeof(ebda));
	memset(rom, 0, sizeof(rom));
	memset(fw, 0, sizeof(fw));
	nr_maps = nr_refused = fw_maps = 0;
	asked_above_4g = false;
	memset(&info, 0x5a, sizeof(info));	/* acpi_parse must clear it */
	return 0;
}

static void acpi_test_exit(struct ktest *t)
{
	live_unmap();
}

/* RSDP v0 -> RSDT -> MADT with 2 CPUs and 1 I/O APIC: every field. */
static void rsdt_madt_exact(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));

	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, nr_refused, 0U);
	KTEST_EXPECT_TRUE(t, info.rsdp_found);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, PA(RSDP_OFF));
	KTEST_EXPECT_EQ(t, (int)info.rsdp_source, (int)ACPI_RSDP_HINT);
	KTEST_EXPECT_EQ(t, info.revision, 0);
	KTEST_EXPECT_EQ(t, info.rsdp_length, 20U);
	KTEST_EXPECT_STREQ(t, info.oem_id, "MM86  ");
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_EQ(t, info.dropped, 0U);
	KTEST_EXPECT_TRUE(t, info.root_ok);

	KTEST_ASSERT_EQ(t, info.nr_tables, 2U);
	KTEST_EXPECT_STREQ(t, info.tables[0].signature, "RSDT");
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(RSDT_OFF));
	KTEST_EXPECT_EQ(t, info.tables[0].length, 40U);
	KTEST_EXPECT_STREQ(t, info.tables[1].signature, "APIC");
	KTEST_EXPECT_EQ(t, info.tables[1].length, 88U);
	KTEST_EXPECT_EQ(t, info.tables[1].revision, 3);
	KTEST_EXPECT_STREQ(t, info.tables[1].oem_id, "MM86  ");
	KTEST_EXPECT_STREQ(t, info.tables[1].oem_table_id, "MM86TEST");
	KTEST_EXPECT_EQ(t, info.tables[1].oem_revision, 1U);
	KTEST_EXPECT_STREQ(t, info.tables[1].asl_compiler_id, "MMTS");
	KTEST_EXPECT_EQ(t, info.tables[1].asl_compiler_revision, 0x20240101U);
	KTEST_EXPECT_STREQ(t, info.tables[1].problem, "");

	KTEST_ASSERT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, info.lapic_addr, 0xfee00000U);
	KTEST_EXPECT_EQ(t, info.madt_flags, 1U);
	KTEST_ASSERT_EQ(t, info.nr_cpus, 2U);
	KTEST_EXPECT_EQ(t, info.cpus[0].acpi_id, 0);
	KTEST_EXPECT_EQ(t, info.cpus[0].apic_id, 0);
	KTEST_EXPECT_TRUE(t, info.cpus[0].enabled);
	KTEST_EXPECT_EQ(t, info.cpus[1].acpi_id, 1);
	KTEST_EXPECT_EQ(t, info.cpus[1].apic_id, 2);
	KTEST_EXPECT_TRUE(t, info.cpus[1].enabled);
	KTEST_ASSERT_EQ(t, info.nr_ioapics, 1U);
	KTEST_EXPECT_EQ(t, info.ioapics[0].id, 1);
	KTEST_EXPECT_EQ(t, info.ioapics[0].addr, 0xfec00000U);
	KTEST_EXPECT_EQ(t, info.ioapics[0].gsi_base, 0U);
	KTEST_ASSERT_EQ(t, info.nr_overrides, 1U);
	KTEST_EXPECT_EQ(t, info.overrides[0].bus, 0);
	KTEST_EXPECT_EQ(t, info.overrides[0].source, 0);
	KTEST_EXPECT_EQ(t, info.overrides[0].gsi, 2U);
	KTEST_EXPECT_EQ(t, info.overrides[0].flags, 0);
	KTEST_ASSERT_EQ(t, info.nr_lapic_nmis, 1U);
	KTEST_EXPECT_EQ(t, info.lapic_nmis[0].acpi_id, 0xff);
	KTEST_EXPECT_EQ(t, info.lapic_nmis[0].flags, 5);
	KTEST_EXPECT_EQ(t, info.lapic_nmis[0].lint, 1);
	KTEST_EXPECT_FALSE(t, info.srat_ok);
	KTEST_EXPECT_FALSE(t, info.slit_ok);

	ktest_printf(t, "acpi_print() of these hand-made tables:");
	acpi_print(&info);
}

/* No hint: the EBDA's first KiB is searched first, then 0xe0000-0xfffff. */
static void rsdp_search(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put16(0x40e, EBDA_PA >> 4);

	/* In the ROM area, after a decoy whose checksum is wrong. */
	put_rsdp(ROM_PA + 0xa10, 0, PA(RSDT_OFF), 0);
	put_rsdp(ROM_PA, 0, PA(RSDT_OFF), 0);
	put8(ROM_PA + 8, rom[8] + 1);
	KTEST_ASSERT_EQ(t, fake_parse(0), 0);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, ROM_PA + 0xa10);
	KTEST_EXPECT_EQ(t, (int)info.rsdp_source, (int)ACPI_RSDP_BIOS);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_EXPECT_EQ(t, info.rsdp_bad_pa, ROM_PA);
	KTEST_EXPECT_TRUE(t, info.madt_ok);

	/* One in the EBDA wins over the ROM area's. */
	put_rsdp(EBDA_PA + 0x30, 0, PA(RSDT_OFF), 0);
	KTEST_ASSERT_EQ(t, fake_parse(0), 0);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, EBDA_PA + 0x30);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);

	/* Not on a 16-byte boundary: not seen; the ROM area's is found. */
	memset(ebda, 0, sizeof(ebda));
	put_rsdp(EBDA_PA + 0x38, 0, PA(RSDT_OFF), 0);
	KTEST_ASSERT_EQ(t, fake_parse(0), 0);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, ROM_PA + 0xa10);
}

static void rsdp_bad_checksum(struct ktest *t)
{
	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put8(PA(RSDP_OFF) + 8, arena[RSDP_OFF + 8] ^ 0x01);

	KTEST_EXPECT_EQ(t, fake_parse(PA(RSDP_OFF)), -ENOENT);
	KTEST_EXPECT_FALSE(t, info.rsdp_found);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_EXPECT_EQ(t, info.rsdp_bad_pa, PA(RSDP_OFF));
	KTEST_EXPECT_EQ(t, info.nr_tables, 0U);
}

/* The first 20 bytes are right, the 36 of revision 2 are not. */
static void rsdp_v2_bad_extended_checksum(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put_rsdp(PA(RSDP_OFF), 2, PA(RSDT_OFF), PA(XSDT_OFF));
	put8(PA(RSDP_OFF) + 32, arena[RSDP_OFF + 32] + 1);

	KTEST_EXPECT_EQ(t, fake_parse(PA(RSDP_OFF)), -ENOENT);
	KTEST_EXPECT_FALSE(t, info.rsdp_found);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_EXPECT_FALSE(t, info.madt_ok);
}

/* A MADT with a bad checksum is dropped; the SRAT after it is still read. */
static void madt_bad_checksum(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF), PA(SRAT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 2);
	put_good_madt(PA(MADT_OFF));
	put8(PA(MADT_OFF) + 44 + 3, 7);		/* CPU 0's APIC id, after the sum */
	put_good_srat(PA(SRAT_OFF), 1);

	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_MADT);
	KTEST_EXPECT_FALSE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, info.nr_cpus, 0U);
	KTEST_EXPECT_EQ(t, info.nr_ioapics, 0U);
	KTEST_ASSERT_EQ(t, info.nr_tables, 3U);
	KTEST_EXPECT_TRUE(t, info.tables[1].rejected);
	KTEST_EXPECT_STREQ(t, info.tables[1].problem, "bad checksum");
	KTEST_EXPECT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_EQ(t, info.nr_mem, 6U);
	KTEST_EXPECT_STREQ(t, info.tables[2].problem, "");

	ktest_printf(t, "acpi_print() of these hand-made tables (a warning is expected):");
	acpi_print(&info);
}

static void expect_madt_rejected(struct ktest *t)
{
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_MADT);
	KTEST_EXPECT_FALSE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, info.nr_cpus, 0U);
	KTEST_EXPECT_EQ(t, info.nr_ioapics, 0U);
	KTEST_ASSERT_EQ(t, info.nr_tables, 2U);
	KTEST_EXPECT_TRUE(t, info.tables[1].rejected);
	KTEST_EXPECT_NE(t, info.tables[1].problem[0], '\0');
}

/* Truncated MADTs: whole-table length, then entries, each rejected. */
static void madt_truncated(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };
	struct table tb;

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);

	/* Length 30: shorter than an SDT header. */
	put_good_madt(PA(MADT_OFF));
	put32(PA(MADT_OFF) + 4, 30);
	set_checksum(PA(MADT_OFF), 30, 9);
	expect_madt_rejected(t);

	/* 40: a header, but not the MADT's 44-byte fixed part. */
	put_good_madt(PA(MADT_OFF));
	put32(PA(MADT_OFF) + 4, 40);
	set_checksum(PA(MADT_OFF), 40, 9);
	expect_madt_rejected(t);

	/* The table ends 4 bytes into the second 8-byte LAPIC entry. */
	madt_begin(&tb, PA(MADT_OFF));
	madt_lapic(&tb, 0, 0, 1);
	madt_lapic(&tb, 1, 1, 1);
	tb.len -= 4;
	table_end(&tb);
	expect_madt_rejected(t);

	/* One byte of a subtable header left at the end. */
	madt_begin(&tb, PA(MADT_OFF));
	madt_lapic(&tb, 0, 0, 1);
	add8(&tb, 0);
	table_end(&tb);
	expect_madt_rejected(t);

	/* An entry of length 0 (a parser trusting it would loop for ever). */
	madt_begin(&tb, PA(MADT_OFF));
	madt_lapic(&tb, 0, 0, 1);
	add8(&tb, 1);
	add8(&tb, 0);
	table_end(&tb);
	expect_madt_rejected(t);

	/* A LAPIC entry of 6 bytes: shorter than its type's 8. */
	madt_begin(&tb, PA(MADT_OFF));
	madt_lapic(&tb, 0, 0, 1);
	put8(tb.pa + tb.len - 7, 6);
	tb.len -= 2;
	table_end(&tb);
	expect_madt_rejected(t);
}

static void madt_no_processors(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };
	struct table tb;

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	madt_begin(&tb, PA(MADT_OFF));
	madt_ioapic(&tb, 0, 0xfec00000, 0);
	table_end(&tb);

	expect_madt_rejected(t);
	KTEST_EXPECT_STREQ(t, info.tables[1].problem, "no processors");
}

/* 70 processors: 64 kept, 6 counted as dropped, the table still used. */
static void madt_too_many_cpus(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };
	struct table tb;

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	madt_begin(&tb, PA(MADT_OFF));
	for (unsigned int i = 0; i < 70; i++)
		madt_lapic(&tb, (u8)i, (u8)(i + 1), 1);
	table_end(&tb);

	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.tables[1].length, 604U);
	KTEST_EXPECT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_EQ(t, info.nr_cpus, 64U);
	KTEST_EXPECT_EQ(t, info.dropped, 6U);
	KTEST_EXPECT_EQ(t, info.cpus[63].acpi_id, 63);
	KTEST_EXPECT_EQ(t, info.cpus[63].apic_id, 64);
}

static void srat_two_nodes(struct ktest *t)
{
	u32 rsdt[] = { PA(SRAT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_srat(PA(SRAT_OFF), 1);

	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_EQ(t, info.tables[1].length, 48U + 4 * 16 + 6 * 40);
	KTEST_ASSERT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_FALSE(t, info.madt_ok);

	KTEST_ASSERT_EQ(t, info.nr_cpu_aff, 4U);
	KTEST_EXPECT_EQ(t, info.cpu_aff[0].apic_id, 0);
	KTEST_EXPECT_EQ(t, info.cpu_aff[0].pxm, 0U);
	KTEST_EXPECT_TRUE(t, info.cpu_aff[0].enabled);
	KTEST_EXPECT_EQ(t, info.cpu_aff[1].apic_id, 1);
	KTEST_EXPECT_EQ(t, info.cpu_aff[1].pxm, 1U);
	KTEST_EXPECT_TRUE(t, info.cpu_aff[1].enabled);
	KTEST_EXPECT_EQ(t, info.cpu_aff[2].apic_id, 2);
	KTEST_EXPECT_FALSE(t, info.cpu_aff[2].enabled);
	KTEST_EXPECT_EQ(t, info.cpu_aff[3].apic_id, 3);
	KTEST_EXPECT_EQ(t, info.cpu_aff[3].pxm, 1U);	/* revision 1: low byte */

	KTEST_ASSERT_EQ(t, info.nr_mem, 6U);
	KTEST_EXPECT_EQ(t, info.mem[0].base, 0x0ULL);
	KTEST_EXPECT_EQ(t, info.mem[0].len, 0xa0000ULL);
	KTEST_EXPECT_EQ(t, info.mem[0].pxm, 0U);
	KTEST_EXPECT_TRUE(t, info.mem[0].enabled);
	KTEST_EXPECT_FALSE(t, info.mem[0].hotplug);
	KTEST_EXPECT_EQ(t, info.mem[1].base, 0x100000ULL);
	KTEST_EXPECT_EQ(t, info.mem[1].len, 0x7f00000ULL);
	KTEST_EXPECT_EQ(t, info.mem[1].pxm, 0U);
	KTEST_EXPECT_EQ(t, info.mem[2].base, 0x8000000ULL);
	KTEST_EXPECT_EQ(t, info.mem[2].len, 0x8000000ULL);
	KTEST_EXPECT_EQ(t, info.mem[2].pxm, 1U);
	KTEST_EXPECT_TRUE(t, info.mem[2].enabled);
	KTEST_EXPECT_FALSE(t, info.mem[3].enabled);
	KTEST_EXPECT_EQ(t, info.mem[3].len, 0ULL);
	KTEST_EXPECT_EQ(t, info.mem[4].base, 0x100000000ULL);
	KTEST_EXPECT_EQ(t, info.mem[4].len, 0x40000000ULL);
	KTEST_EXPECT_TRUE(t, info.mem[4].enabled);
	KTEST_EXPECT_TRUE(t, info.mem[4].hotplug);
	KTEST_EXPECT_FALSE(t, info.mem[4].nonvolatile);
	KTEST_EXPECT_EQ(t, info.mem[5].pxm, 0x01U);	/* 0x101, revision 1 */
	KTEST_EXPECT_TRUE(t, info.mem[5].nonvolatile);
	KTEST_EXPECT_FALSE(t, info.mem[5].hotplug);

	/* Revision 3: all 32 bits of both kinds of proximity domain. */
	put_good_srat(PA(SRAT_OFF), 3);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_ASSERT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_EQ(t, info.cpu_aff[3].pxm, 0x101U);
	KTEST_EXPECT_EQ(t, info.mem[5].pxm, 0x101U);
}

/*
 * Printed lines starting with a prefix, caught by a console of the case's
 * own, timestamps off (only those lines count, so that another CPU's line
 * cannot take their place): the first CAP_LINES kept, all counted.
 */
#define CAP_LINES 3
static struct {
	const char *prefix;
	unsigned int nr, seen;
	char line[CAP_LINES][KTEST_CAPTURE_LINE];
} cap;

static void cap_line(const char *line)
{
	if (strncmp(line, cap.prefix, strlen(cap.prefix)))
		return;
	cap.seen++;
	if (cap.nr < CAP_LINES)
		strscpy(cap.line[cap.nr++], line, KTEST_CAPTURE_LINE);
}

static void listen(const char *prefix)
{
	memset(&cap, 0, sizeof(cap));
	cap.prefix = prefix;
	ktest_capture_start(cap_line);
}

/* Exactly n lines with listen()'s prefix since, the first starting first. */
static void heard(struct ktest *t, unsigned int n, const char *first)
{
	ktest_capture_stop();
	KTEST_EXPECT_EQ(t, cap.seen, n);
	if (n && strncmp(cap.line[0], first, strlen(first)))
		KTEST_FAIL(t, "the first line is '%s', not '%s...'", cap.line[0],
			   first);
}

/*
 * What the kernel makes of the tables (arch/x86/acpi_layout.c): the CPUs
 * it numbers.  An APIC ID listed twice is numbered once (an INIT to a CPU
 * already running would reset it); maxcpus= and the boot CPU's place.
 */
static void madt_numbering(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };
	unsigned int id[NR_CPUS];
	struct table tb;

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	madt_begin(&tb, PA(MADT_OFF));
	madt_lapic(&tb, 0, 0, 1);
	madt_lapic(&tb, 1, 4, 1);
	madt_lapic(&tb, 2, 4, 1);	/* the same APIC ID again */
	madt_lapic(&tb, 3, 6, 0);	/* disabled */
	madt_lapic(&tb, 4, 2, 1);
	table_end(&tb);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_ASSERT_TRUE(t, info.madt_ok);
	KTEST_ASSERT_EQ(t, info.nr_cpus, 5U);

	listen("smpboot: ");
	KTEST_EXPECT_EQ(t, acpi_number_cpus(&info, 0, NR_CPUS, id), 3U);
	heard(t, 1, "smpboot: APIC id 4 listed twice in the MADT");
	KTEST_EXPECT_EQ(t, id[0], 0U);
	KTEST_EXPECT_EQ(t, id[1], 4U);
	KTEST_EXPECT_EQ(t, id[2], 2U);
	/* The boot CPU first wherever the table lists it. */
	KTEST_EXPECT_EQ(t, acpi_number_cpus(&info, 2, NR_CPUS, id), 3U);
	KTEST_EXPECT_EQ(t, id[0], 2U);
	KTEST_EXPECT_EQ(t, id[1], 0U);
	KTEST_EXPECT_EQ(t, id[2], 4U);
	/* maxcpus=2: the duplicate, then APIC ID 2 left out. */
	listen("smpboot: ");
	KTEST_EXPECT_EQ(t, acpi_number_cpus(&info, 0, 2, id), 2U);
	heard(t, 2, "smpboot: APIC id 4 listed twice");
	KTEST_EXPECT_EQ(t, id[1], 4U);

	info.madt_ok = false;
	KTEST_EXPECT_EQ(t, acpi_number_cpus(&info, 7, NR_CPUS, id), 1U);
	KTEST_EXPECT_EQ(t, id[0], 7U);
}

/*
 * The SRAT (and SLIT) as mm/numa.c sees them: the present memory ranges,
 * each numbered CPU's domain, then the nodes numa_layout() makes.
 */
static void srat_layout(struct ktest *t)
{
	static struct fw_numa fw;
	static struct numa_layout l;
	const unsigned int id[] = { 0, 1, 3 };
	u32 rsdt[] = { PA(SRAT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_srat(PA(SRAT_OFF), 1);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_ASSERT_TRUE(t, acpi_fw_numa(&info, id, ARRAY_SIZE(id), &fw));
	/* Enabled, present, not hot-pluggable, not empty: 0, 1, 2 and 5. */
	KTEST_ASSERT_EQ(t, fw.nr_blks, 4U);
	KTEST_EXPECT_EQ(t, fw.blk[2].start, 0x8000000ULL);
	KTEST_EXPECT_EQ(t, fw.blk[2].end, 0x10000000ULL);
	KTEST_EXPECT_EQ(t, fw.blk[3].start, 0x20000000ULL);
	KTEST_EXPECT_EQ(t, fw.blk[3].pxm, 1U);
	KTEST_EXPECT_EQ(t, fw.cpu_pxm[0], 0);
	KTEST_EXPECT_EQ(t, fw.cpu_pxm[1], 1);
	KTEST_EXPECT_EQ(t, fw.cpu_pxm[2], 1);	/* APIC ID 3, revision 1 */
	KTEST_EXPECT_EQ(t, fw.cpu_pxm[3], -1);	/* not numbered */
	KTEST_EXPECT_EQ(t, fw.nr_localities, 0U);

	KTEST_ASSERT_TRUE(t, numa_layout(&fw, &l));
	KTEST_EXPECT_EQ(t, l.nodes, 2);
	KTEST_EXPECT_EQ(t, numa_layout_node(&l, 0), 0);
	KTEST_EXPECT_EQ(t, numa_layout_node(&l, 1), 1);
	KTEST_EXPECT_EQ(t, numa_layout_node(&l, 2), -1);
	KTEST_EXPECT_EQ(t, l.cpu_node[1], 1);
	KTEST_EXPECT_EQ(t, l.cpu_node[2], 1);
	KTEST_EXPECT_EQ(t, l.cpu_node[3], 0);
	KTEST_EXPECT_FALSE(t, l.have_dist);

	/* Revision 3: range 5 is in domain 0x101, beyond 255, below 4 GiB:
	 * the layout is not used (one node), not left partly on no node. */
	put_good_srat(PA(SRAT_OFF), 3);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_ASSERT_TRUE(t, acpi_fw_numa(&info, id, ARRAY_SIZE(id), &fw));
	KTEST_EXPECT_EQ(t, fw.blk[3].pxm, 0x101U);
	KTEST_EXPECT_EQ(t, fw.cpu_pxm[2], 0x101);
	listen("NUMA: ");
	KTEST_EXPECT_FALSE(t, numa_layout(&fw, &l));
	heard(t, 1, "NUMA: proximity domain 257 is beyond 255");
}

/* More memory ranges than fit: the SRAT's layout is not used at all. */
static void srat_too_many_ranges(struct ktest *t)
{
	static struct fw_numa fw;
	const unsigned int id[] = { 0 };
	u32 rsdt[] = { PA(OTHER_OFF) };
	struct table tb;

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	srat_begin(&tb, PA(OTHER_OFF), 1);
	for (unsigned int i = 0; i < ACPI_MAX_MEM_AFFINITY + 1; i++)
		srat_mem(&tb, i & 1, (u64)i << 24, 1 << 24, 1);
	table_end(&tb);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_ASSERT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_EQ(t, info.nr_mem, (unsigned int)ACPI_MAX_MEM_AFFINITY);
	KTEST_EXPECT_EQ(t, info.dropped, 1U);
	KTEST_EXPECT_TRUE(t, info.srat_mem_dropped);
	listen("SRAT: ");
	KTEST_EXPECT_FALSE(t, acpi_fw_numa(&info, id, 1, &fw));
	heard(t, 1, "SRAT: more than 32 memory ranges");
	KTEST_EXPECT_EQ(t, fw.nr_blks, 0U);

	/* One fewer fits, and is used. */
	srat_begin(&tb, PA(OTHER_OFF), 1);
	for (unsigned int i = 0; i < ACPI_MAX_MEM_AFFINITY; i++)
		srat_mem(&tb, i & 1, (u64)i << 24, 1 << 24, 1);
	table_end(&tb);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_FALSE(t, info.srat_mem_dropped);
	KTEST_EXPECT_TRUE(t, acpi_fw_numa(&info, id, 1, &fw));
	KTEST_EXPECT_EQ(t, fw.nr_blks, (unsigned int)ACPI_MAX_MEM_AFFINITY);
}

/*
 * A CPU in a domain without memory goes to the nearest node, by the SLIT
 * where it covers both domains and 20 where it does not: here the SLIT
 * has 4 localities, the nodes are domains 0 and 9, the CPU is in domain 3
 * at distance 15 from domain 0.
 */
static void slit_short_of_a_node(struct ktest *t)
{
	static const u8 m[16] = { 10, 20, 20, 15, 20, 10, 20, 20,
				  20, 20, 10, 20, 15, 20, 20, 10 };
	static struct fw_numa fw;
	static struct numa_layout l;
	const unsigned int id[] = { 0, 1 };
	u32 rsdt[] = { PA(SRAT_OFF), PA(SLIT_OFF) };
	struct table tb;

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 2);
	srat_begin(&tb, PA(SRAT_OFF), 1);
	srat_cpu(&tb, 0, 0, 1, 0);
	srat_cpu(&tb, 3, 1, 1, 0);
	srat_mem(&tb, 0, 0, 0x8000000, 1);
	srat_mem(&tb, 9, 0x8000000, 0x8000000, 1);
	table_end(&tb);
	put_slit(PA(SLIT_OFF), 4, m, sizeof(m));
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_ASSERT_TRUE(t, info.srat_ok && info.slit_ok);
	KTEST_ASSERT_TRUE(t, acpi_fw_numa(&info, id, ARRAY_SIZE(id), &fw));
	KTEST_ASSERT_TRUE(t, numa_layout(&fw, &l));
	KTEST_EXPECT_EQ(t, l.nodes, 2);
	KTEST_EXPECT_EQ(t, l.node_pxm[1], 9);
	KTEST_EXPECT_EQ(t, l.cpu_node[0], 0);
	KTEST_EXPECT_EQ(t, l.cpu_node[1], 0);	/* 15 < 20 */
	KTEST_EXPECT_TRUE(t, l.have_dist);
	KTEST_EXPECT_EQ(t, l.dist[0][0], 10);
	KTEST_EXPECT_EQ(t, l.dist[0][1], 20);	/* domain 9: outside the SLIT */
	KTEST_EXPECT_EQ(t, l.dist[1][1], 10);
}

static void slit_2x2(struct ktest *t)
{
	static const u8 good[] = { 10, 20, 20, 10 };
	static const u8 bad_diagonal[] = { 10, 20, 20, 11 };
	u32 rsdt[] = { PA(SLIT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_slit(PA(SLIT_OFF), 2, good, 4);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_EQ(t, info.tables[1].length, 48U);
	KTEST_ASSERT_TRUE(t, info.slit_ok);
	KTEST_EXPECT_EQ(t, info.slit_localities, 2U);
	KTEST_EXPECT_EQ(t, info.slit[0][0], 10);
	KTEST_EXPECT_EQ(t, info.slit[0][1], 20);
	KTEST_EXPECT_EQ(t, info.slit[1][0], 20);
	KTEST_EXPECT_EQ(t, info.slit[1][1], 10);

	put_slit(PA(SLIT_OFF), 2, bad_diagonal, 4);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_SLIT);
	KTEST_EXPECT_FALSE(t, info.slit_ok);

	/* Three localities claimed, four bytes of matrix present. */
	put_slit(PA(SLIT_OFF), 3, good, 4);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_SLIT);
	KTEST_EXPECT_FALSE(t, info.slit_ok);
	KTEST_EXPECT_EQ(t, info.slit_localities, 0U);
}

/*
 * A header claiming 1 MiB is rejected before anything past the header is
 * asked for; one claiming 60 KiB (within the limit) runs past fake
 * memory, so the map is refused, and the table rejected.
 */
static void length_beyond_mapping(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put32(PA(MADT_OFF) + 4, 0x100000);
	expect_madt_rejected(t);
	KTEST_EXPECT_EQ(t, nr_refused, 0U);

	rsdt[0] = PA(ARENA_SIZE - 0x100);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(ARENA_SIZE - 0x100));
	put32(PA(ARENA_SIZE - 0x100) + 4, 0xf000);
	nr_refused = 0;
	expect_madt_rejected(t);
	KTEST_EXPECT_EQ(t, nr_refused, 1U);
}

/* ACPI 2.0: the XSDT's 64-bit entries; one above 4 GiB is skipped. */
static void xsdt_entries(struct ktest *t)
{
	u64 xsdt[] = { PA(MADT_OFF), 0x100000000ULL + PA(OTHER_OFF),
		       PA(SRAT_OFF) };
	u32 rsdt[] = { PA(SLIT_OFF) };	/* must not be used */
	static const u8 m[] = { 10 };

	put_rsdp(PA(RSDP_OFF), 2, PA(RSDT_OFF), PA(XSDT_OFF));
	put_xsdt(PA(XSDT_OFF), xsdt, 3);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put_good_srat(PA(SRAT_OFF), 1);
	put_slit(PA(SLIT_OFF), 1, m, 1);

	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.revision, 2);
	KTEST_EXPECT_EQ(t, info.rsdp_length, 36U);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_FALSE(t, asked_above_4g);
	KTEST_ASSERT_EQ(t, info.nr_tables, 4U);
	KTEST_EXPECT_STREQ(t, info.tables[0].signature, "XSDT");
	KTEST_EXPECT_EQ(t, info.tables[0].length, 36U + 3 * 8);
	KTEST_EXPECT_STREQ(t, info.tables[1].signature, "APIC");
	KTEST_EXPECT_EQ(t, info.tables[2].pa, 0x100000000ULL + PA(OTHER_OFF));
	KTEST_EXPECT_FALSE(t, info.tables[2].header_read);
	KTEST_EXPECT_FALSE(t, info.tables[2].rejected);
	KTEST_EXPECT_NE(t, info.tables[2].problem[0], '\0');
	KTEST_EXPECT_STREQ(t, info.tables[3].signature, "SRAT");
	KTEST_EXPECT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, info.nr_cpus, 2U);
	KTEST_EXPECT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_FALSE(t, info.slit_ok);
	ktest_printf(t, "acpi_print() of these hand-made tables (a warning is expected):");
	acpi_print(&info);

	/* A broken XSDT: the RSDT is the fallback. */
	put8(PA(XSDT_OFF) + 36, arena[XSDT_OFF + 36] + 1);
	KTEST_ASSERT_EQ(t, fake_parse(PA(RSDP_OFF)), 0);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_XSDT);
	KTEST_ASSERT_EQ(t, info.nr_tables, 3U);
	KTEST_EXPECT_STREQ(t, info.tables[1].signature, "RSDT");
	KTEST_EXPECT_TRUE(t, info.slit_ok);
	KTEST_EXPECT_FALSE(t, info.madt_ok);
}

/* A root whose length is not the header plus whole entries. */
static void rsdt_bad_length(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF), PA(SRAT_OFF) };

	put_rsdp(PA(RSDP_OFF), 0, PA(RSDT_OFF), 0);
	put_rsdt(PA(RSDT_OFF), rsdt, 2);
	put32(PA(RSDT_OFF) + 4, 36 + 6);
	set_checksum(PA(RSDT_OFF), 36 + 6, 9);
	put_good_madt(PA(MADT_OFF));

	KTEST_EXPECT_EQ(t, fake_parse(PA(RSDP_OFF)), -EINVAL);
	KTEST_EXPECT_TRUE(t, info.rsdp_found);
	KTEST_EXPECT_FALSE(t, info.root_ok);
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDT);
	KTEST_EXPECT_FALSE(t, info.madt_ok);
}

/* ---- where the RSDP comes from ---------------------------------------------- */

/*
 * The loader's copy, as a Multiboot 2 loader leaves it in the boot
 * information: built by put_rsdp() at a scratch place of the arena that
 * nothing points to and no search covers, taken, and wiped there.
 */
#define SCRATCH_OFF 0x3800
static u8 copy[BOOT_RSDP_MAX];

static void make_copy(u8 rev, u32 rsdt, u64 xsdt)
{
	put_rsdp(PA(SCRATCH_OFF), rev, rsdt, xsdt);
	memcpy(copy, fake(PA(SCRATCH_OFF), sizeof(copy)), sizeof(copy));
	memset(fake(PA(SCRATCH_OFF), sizeof(copy)), 0, sizeof(copy));
}

/* Sets copy[at] so that copy[0, len) sums to 0. */
static void copy_checksum(unsigned int len, unsigned int at)
{
	u8 sum = 0;

	copy[at] = 0;
	for (unsigned int i = 0; i < len; i++)
		sum += copy[i];
	copy[at] = (u8)-sum;
}

/* No hint: copy_len bytes of copy (0: none), the BIOS area, then mmap. */
static int parse_sources(unsigned int copy_len,
			 const struct boot_mmap_entry *mmap, unsigned int nr)
{
	const struct acpi_rsdp_sources src = {
		.copy = copy,
		.copy_len = copy_len,
		.mmap = mmap,
		.nr_mmap = nr,
	};

	return acpi_parse(&info, fake_map, &src);
}

static int source(void)
{
	return (int)info.rsdp_source;
}

static void print_captured(void)
{
	listen("ACPI: RSDP");
	acpi_print(&info);
	ktest_capture_stop();
}

/* A good revision-0 copy: its RSDT is used, the BIOS area never read. */
static void copy_v0_used(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put_rsdp(ROM_PA + 0x20, 0, PA(OTHER_OFF), 0);	/* must not be used */
	make_copy(0, PA(RSDT_OFF), 0);

	KTEST_ASSERT_EQ(t, parse_sources(20, NULL, 0), 0);
	KTEST_EXPECT_TRUE(t, info.rsdp_found);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_LOADER);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, 0ULL);
	KTEST_EXPECT_EQ(t, info.revision, 0);
	KTEST_EXPECT_EQ(t, info.rsdp_length, 20U);
	KTEST_EXPECT_STREQ(t, info.oem_id, "MM86  ");
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_STREQ(t, info.copy_problem, "");
	KTEST_EXPECT_TRUE(t, info.root_ok);
	KTEST_ASSERT_EQ(t, info.nr_tables, 2U);
	KTEST_EXPECT_STREQ(t, info.tables[0].signature, "RSDT");
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(RSDT_OFF));
	KTEST_EXPECT_STREQ(t, info.tables[1].signature, "APIC");
	KTEST_EXPECT_EQ(t, info.tables[1].pa, PA(MADT_OFF));
	KTEST_EXPECT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_EQ(t, info.nr_cpus, 2U);
	/* The RSDT's header and whole, the MADT's: nothing of the BIOS area. */
	KTEST_EXPECT_EQ(t, nr_maps, 4U);

	print_captured();
	KTEST_EXPECT_EQ(t, cap.nr, 1U);
	KTEST_EXPECT_STREQ(t, cap.line[0],
			   "ACPI: RSDP (boot loader's copy) 000014 (v00 MM86  )");
}

/* A good revision-2 copy: the XSDT it names is walked, not the RSDT. */
static void copy_v2_used(struct ktest *t)
{
	u64 xsdt[] = { PA(MADT_OFF), PA(SRAT_OFF) };
	u32 rsdt[] = { PA(SLIT_OFF) };
	static const u8 m[] = { 10 };

	put_xsdt(PA(XSDT_OFF), xsdt, 2);
	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put_good_srat(PA(SRAT_OFF), 1);
	put_slit(PA(SLIT_OFF), 1, m, 1);
	make_copy(2, PA(RSDT_OFF), PA(XSDT_OFF));

	KTEST_ASSERT_EQ(t, parse_sources(36, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_LOADER);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, 0ULL);
	KTEST_EXPECT_EQ(t, info.revision, 2);
	KTEST_EXPECT_EQ(t, info.rsdp_length, 36U);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_ASSERT_EQ(t, info.nr_tables, 3U);
	KTEST_EXPECT_STREQ(t, info.tables[0].signature, "XSDT");
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(XSDT_OFF));
	KTEST_EXPECT_EQ(t, info.tables[1].pa, PA(MADT_OFF));
	KTEST_EXPECT_EQ(t, info.tables[2].pa, PA(SRAT_OFF));
	KTEST_EXPECT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_EQ(t, info.nr_mem, 6U);
	KTEST_EXPECT_FALSE(t, info.slit_ok);

	print_captured();
	KTEST_EXPECT_EQ(t, cap.nr, 1U);
	KTEST_EXPECT_STREQ(t, cap.line[0],
			   "ACPI: RSDP (boot loader's copy) 000024 (v02 MM86  )");
}

/* A copy whose checksum is wrong: said so, and the BIOS area's used. */
static void copy_bad_checksum(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put_rsdp(ROM_PA + 0x20, 0, PA(RSDT_OFF), 0);
	make_copy(0, PA(RSDT_OFF), 0);
	copy[8] ^= 0x01;

	KTEST_ASSERT_EQ(t, parse_sources(20, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_BIOS);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, ROM_PA + 0x20);
	KTEST_EXPECT_STREQ(t, info.copy_problem, "bad checksum");
	KTEST_EXPECT_STREQ(t, info.rsdp_problem, "");
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_ASSERT_EQ(t, info.nr_tables, 2U);
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(RSDT_OFF));
	KTEST_EXPECT_TRUE(t, info.madt_ok);

	print_captured();
	KTEST_ASSERT_EQ(t, cap.nr, 2U);
	KTEST_EXPECT_STREQ(t, cap.line[0],
			   "ACPI: RSDP copy from the boot loader: bad checksum, ignored");
	KTEST_EXPECT_STREQ(t, cap.line[1],
			   "ACPI: RSDP 0x00000000000F0020 000014 (v00 MM86  )");
}

/* The first 20 bytes of a revision-2 copy are right, its 36 are not. */
static void copy_v2_bad_extended_checksum(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	make_copy(2, PA(RSDT_OFF), PA(XSDT_OFF));
	copy[32]++;

	KTEST_EXPECT_EQ(t, parse_sources(36, NULL, 0), -ENOENT);
	KTEST_EXPECT_FALSE(t, info.rsdp_found);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_NONE);
	KTEST_EXPECT_STREQ(t, info.copy_problem, "v2: bad extended checksum");
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_EXPECT_EQ(t, info.nr_tables, 0U);
	KTEST_EXPECT_FALSE(t, info.madt_ok);

	/* With an RSDP in the EBDA, that one is used. */
	put16(0x40e, EBDA_PA >> 4);
	put_rsdp(EBDA_PA + 0x10, 0, PA(RSDT_OFF), 0);
	KTEST_ASSERT_EQ(t, parse_sources(36, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_BIOS);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, EBDA_PA + 0x10);
	KTEST_EXPECT_STREQ(t, info.copy_problem, "v2: bad extended checksum");
	KTEST_EXPECT_TRUE(t, info.madt_ok);
}

/* A length field past the copy's end, or below revision 2's 36 bytes. */
static void copy_v2_length_past_copy(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	make_copy(2, PA(RSDT_OFF), 0);
	copy[20] = 40;
	copy_checksum(36, 32);

	KTEST_EXPECT_EQ(t, parse_sources(36, NULL, 0), -ENOENT);
	KTEST_EXPECT_STREQ(t, info.copy_problem,
			   "v2: length 40 is longer than the 36-byte copy");
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_EXPECT_EQ(t, info.nr_tables, 0U);

	copy[20] = 35;
	copy_checksum(36, 32);
	KTEST_EXPECT_EQ(t, parse_sources(36, NULL, 0), -ENOENT);
	KTEST_EXPECT_STREQ(t, info.copy_problem, "v2: bad length 35");

	/* Put right, the same copy is used. */
	copy[20] = 36;
	copy_checksum(36, 32);
	KTEST_ASSERT_EQ(t, parse_sources(36, NULL, 0), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_LOADER);
	KTEST_EXPECT_STREQ(t, info.copy_problem, "");
	KTEST_EXPECT_TRUE(t, info.madt_ok);
}

/* A copy too short for what it claims to be. */
static void copy_too_short(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	make_copy(2, PA(RSDT_OFF), PA(XSDT_OFF));

	/* 20 bytes, good as revision 0's, claiming revision 2. */
	KTEST_EXPECT_EQ(t, parse_sources(20, NULL, 0), -ENOENT);
	KTEST_EXPECT_FALSE(t, info.rsdp_found);
	KTEST_EXPECT_STREQ(t, info.copy_problem,
			   "v2: a 20-byte copy, shorter than the 36 bytes of revision 2");
	KTEST_EXPECT_EQ(t, info.rejected, ACPI_REJ_RSDP);
	KTEST_EXPECT_EQ(t, info.nr_tables, 0U);

	KTEST_EXPECT_EQ(t, parse_sources(12, NULL, 0), -ENOENT);
	KTEST_EXPECT_STREQ(t, info.copy_problem,
			   "a 12-byte copy, shorter than the 20 bytes of any RSDP");
}

/*
 * The last resort: the memory map's ACPI data ranges, then its ACPI NVS
 * ranges, never RAM or reserved, nothing at or above 4 GiB; on 16-byte
 * boundaries, 1 KiB mapped at a time.
 */
static void fw_ranges_scan(struct ktest *t)
{
	u32 rsdt[] = { PA(MADT_OFF) };
	const struct boot_mmap_entry map[] = {
		{ FW_PA, 0x400, 1 },		/* RAM */
		{ FW_PA + 0x400, 0x400, 2 },	/* reserved */
		{ FW_PA + 0x800, 0x800, 4 },	/* ACPI NVS, listed first */
		{ 0x180000000ULL, 0x1000, 3 },	/* ACPI data above 4 GiB */
		{ FW_PA + 0x1008, 0xff8, 3 },	/* ACPI data, from 0x1010 */
	};

	put_rsdt(PA(RSDT_OFF), rsdt, 1);
	put_good_madt(PA(MADT_OFF));
	put_rsdp(FW_PA + 0x100, 0, PA(RSDT_OFF), 0);
	put_rsdp(FW_PA + 0x500, 0, PA(RSDT_OFF), 0);
	put_rsdp(FW_PA + 0x900, 0, PA(RSDT_OFF), 0);
	put_rsdp(FW_PA + 0x1010 + 0x4a0, 0, PA(RSDT_OFF), 0);

	KTEST_ASSERT_EQ(t, parse_sources(0, map, ARRAY_SIZE(map)), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_FW_RANGES);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, FW_PA + 0x14b0);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_FALSE(t, asked_above_4g);
	KTEST_EXPECT_TRUE(t, info.madt_ok);
	print_captured();
	KTEST_ASSERT_EQ(t, cap.nr, 2U);
	KTEST_EXPECT_STREQ(t, cap.line[0],
			   "ACPI: RSDP 0x000000007FE014B0 000014 (v00 MM86  )");
	KTEST_EXPECT_STREQ(t, cap.line[1],
			   "ACPI: RSDP found by scanning the memory map's ACPI ranges: none from the boot loader, none in the BIOS area");

	/* Without it, the ACPI NVS range's. */
	memset(fw + 0x14b0, 0, 20);
	KTEST_ASSERT_EQ(t, parse_sources(0, map, ARRAY_SIZE(map)), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_FW_RANGES);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, FW_PA + 0x900);

	/*
	 * Without that one too, none: the RAM's and the reserved range's are
	 * not looked at.  fw[] was mapped for the ACPI ranges only, 1 KiB at
	 * a time: 2 chunks of NVS, then 4 of ACPI data (the last 0x3f0).
	 */
	memset(fw + 0x900, 0, 20);
	fw_maps = 0;
	KTEST_EXPECT_EQ(t, parse_sources(0, map, ARRAY_SIZE(map)), -ENOENT);
	KTEST_EXPECT_FALSE(t, info.rsdp_found);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_NONE);
	KTEST_EXPECT_EQ(t, info.rejected, 0U);
	KTEST_EXPECT_EQ(t, fw_maps, 6U);
	KTEST_EXPECT_FALSE(t, asked_above_4g);
}

/*
 * The order of preference: a hint alone; else the copy, the BIOS area,
 * the memory map's ACPI ranges.  Each RSDP names its own RSDT: the copy's
 * lists the MADT, the BIOS area's the SRAT, the range's the SLIT.
 */
static void rsdp_order(struct ktest *t)
{
	u32 r_copy[] = { PA(MADT_OFF) }, r_bios[] = { PA(SRAT_OFF) },
	    r_range[] = { PA(SLIT_OFF) };
	static const u8 m[] = { 10, 20, 20, 10 };
	const struct boot_mmap_entry map[] = { { FW_PA, FW_SIZE, 3 } };
	const struct acpi_rsdp_sources hinted = {
		.hint = PA(RSDP_OFF),
		.copy = copy,
		.copy_len = 20,
		.mmap = map,
		.nr_mmap = 1,
	};

	put_rsdt(PA(RSDT_OFF), r_copy, 1);
	put_rsdt(PA(OTHER_OFF), r_bios, 1);
	put_rsdt(PA(OTHER_OFF + 0x80), r_range, 1);
	put_good_madt(PA(MADT_OFF));
	put_good_srat(PA(SRAT_OFF), 1);
	put_slit(PA(SLIT_OFF), 2, m, 4);
	make_copy(0, PA(RSDT_OFF), 0);
	put_rsdp(ROM_PA + 0x40, 0, PA(OTHER_OFF), 0);
	put_rsdp(FW_PA + 0x200, 0, PA(OTHER_OFF + 0x80), 0);

	KTEST_ASSERT_EQ(t, parse_sources(20, map, 1), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_LOADER);
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(RSDT_OFF));
	KTEST_EXPECT_TRUE(t, info.madt_ok);
	KTEST_EXPECT_FALSE(t, info.srat_ok);
	KTEST_EXPECT_FALSE(t, info.slit_ok);

	KTEST_ASSERT_EQ(t, parse_sources(0, map, 1), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_BIOS);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, ROM_PA + 0x40);
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(OTHER_OFF));
	KTEST_EXPECT_FALSE(t, info.madt_ok);
	KTEST_EXPECT_TRUE(t, info.srat_ok);
	KTEST_EXPECT_FALSE(t, info.slit_ok);

	memset(rom, 0, sizeof(rom));
	KTEST_ASSERT_EQ(t, parse_sources(0, map, 1), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_FW_RANGES);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, FW_PA + 0x200);
	KTEST_EXPECT_EQ(t, info.tables[0].pa, PA(OTHER_OFF + 0x80));
	KTEST_EXPECT_FALSE(t, info.madt_ok);
	KTEST_EXPECT_FALSE(t, info.srat_ok);
	KTEST_EXPECT_TRUE(t, info.slit_ok);

	/* A hint is the only candidate: the copy is not even checked. */
	put_rsdp(PA(RSDP_OFF), 0, PA(OTHER_OFF), 0);
	copy[8] ^= 0x01;
	KTEST_ASSERT_EQ(t, acpi_parse(&info, fake_map, &hinted), 0);
	KTEST_EXPECT_EQ(t, source(), (int)ACPI_RSDP_HINT);
	KTEST_EXPECT_EQ(t, info.rsdp_pa, PA(RSDP_OFF));
	KTEST_EXPECT_STREQ(t, info.copy_problem, "");
	KTEST_EXPECT_TRUE(t, info.srat_ok);
}

/* ---- fuzz seeds: this boot's firmware input, for tools/fuzz-seeds.py ---- */

/*
 * fuzz_seeds=1 makes dump_fuzz_seeds print, as diagnostic lines, the bytes
 * the boot loader and the firmware handed this boot: the Multiboot
 * information (every range multiboot_parse() read and reserved, and the
 * loader's name), the RSDP and every table the root lists, each line
 *	fuzzseed mem PA HEX		(at most 32 bytes at physical PA)
 * after one "fuzzseed boot PROTOCOL INFO_PA", one "fuzzseed rsdp SOURCE
 * PA" and, for the loader's copy, "fuzzseed copy HEX".  Without it the
 * case skips: the dump is a few hundred lines.
 */
static bool fuzz_seeds;

static int fuzz_seeds_setup(const char *val)
{
	if (!val || (strcmp(val, "0") && strcmp(val, "1")))
		return -EINVAL;
	fuzz_seeds = val[0] == '1';
	return 0;
}
__setup("fuzz_seeds", fuzz_seeds_setup);

static void seed_hex(char *dst, const u8 *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		dst[2 * i] = digits[p[i] >> 4];
		dst[2 * i + 1] = digits[p[i] & 15];
	}
	dst[2 * n] = '\0';
}

/* Prints [pa, pa + len) 32 bytes a line; false when it cannot be mapped. */
static bool seed_dump(struct ktest *t, phys_addr_t pa, u32 len)
{
	u8 line[32];
	char hex[2 * sizeof(line) + 1];

	for (u32 off = 0; off < len; off += sizeof(line)) {
		u32 n = min(len - off, (u32)sizeof(line));
		const void *p = live_map(pa + off, n);

		if (!p)
			return false;
		memcpy(line, p, n);
		live_unmap();
		seed_hex(hex, line, n);
		ktest_printf(t, "fuzzseed mem %llx %s",
			     (unsigned long long)(pa + off), hex);
	}
	return true;
}

static void dump_fuzz_seeds(struct ktest *t)
{
	const struct boot_info *bi = &boot_info;
	const struct acpi_info *a = acpi_boot_tables();
	char hex[2 * BOOT_RSDP_MAX + 1];

	if (!fuzz_seeds)
		ktest_skip(t, "fuzz_seeds=1 not given");
	KTEST_ASSERT_TRUE(t, bi->nr_reserved > 0);
	/* reserved[0] is the information block; then what it points to. */
	ktest_printf(t, "fuzzseed boot %u %llx", bi->protocol,
		     (unsigned long long)bi->reserved[0].start);
	for (unsigned int i = 0; i < bi->nr_reserved; i++) {
		const struct boot_range *r = &bi->reserved[i];
		bool module = false;

		for (unsigned int m = 0; m < bi->nr_modules; m++)
			module |= r->start == bi->modules[m].start &&
				  r->end == bi->modules[m].end;
		if (!module && r->end - r->start <= 64 * 1024)
			KTEST_EXPECT_TRUE(t, seed_dump(t, r->start,
						       (u32)(r->end - r->start)));
	}
	if (bi->protocol == 1 && (bi->flags & MULTIBOOT_INFO_BOOT_LOADER_NAME)) {
		const void *p = live_map(bi->reserved[0].start +
					 offsetof(struct multiboot_info, boot_loader_name), 4);
		u32 name_pa;

		KTEST_ASSERT_NOT_NULL(t, p);
		memcpy(&name_pa, p, 4);
		live_unmap();
		KTEST_EXPECT_TRUE(t, seed_dump(t, name_pa,
					       strlen(bi->loader_name) + 1));
	}

	if (!a->rsdp_found)
		return;
	ktest_printf(t, "fuzzseed rsdp %u %llx", (unsigned int)a->rsdp_source,
		     (unsigned long long)a->rsdp_pa);
	if (a->rsdp_source == ACPI_RSDP_LOADER) {
		seed_hex(hex, bi->rsdp, min(bi->rsdp_len, (unsigned int)BOOT_RSDP_MAX));
		ktest_printf(t, "fuzzseed copy %s", hex);
	} else {
		KTEST_EXPECT_TRUE(t, seed_dump(t, a->rsdp_pa, a->rsdp_length));
	}
	/* The BIOS data area's EBDA pointer, which the search reads. */
	KTEST_EXPECT_TRUE(t, seed_dump(t, 0x40E, 2));
	for (unsigned int i = 0; i < a->nr_tables; i++)
		if (a->tables[i].header_read && a->tables[i].length <= 64 * 1024)
			seed_dump(t, a->tables[i].pa, a->tables[i].length);
}

static const struct ktest_case acpi_cases[] = {
	KTEST_CASE(live_madt_matches_qemu),
	KTEST_CASE(live_srat_matches_qemu),
	KTEST_CASE(live_slit_matches_qemu),
	KTEST_CASE(rsdt_madt_exact),
	KTEST_CASE(rsdp_search),
	KTEST_CASE(rsdp_bad_checksum),
	KTEST_CASE(rsdp_v2_bad_extended_checksum),
	KTEST_CASE(madt_bad_checksum),
	KTEST_CASE(madt_truncated),
	KTEST_CASE(madt_no_processors),
	KTEST_CASE(madt_too_many_cpus),
	KTEST_CASE(srat_two_nodes),
	KTEST_CASE(madt_numbering),
	KTEST_CASE(srat_layout),
	KTEST_CASE(srat_too_many_ranges),
	KTEST_CASE(slit_short_of_a_node),
	KTEST_CASE(slit_2x2),
	KTEST_CASE(length_beyond_mapping),
	KTEST_CASE(xsdt_entries),
	KTEST_CASE(rsdt_bad_length),
	KTEST_CASE(copy_v0_used),
	KTEST_CASE(copy_v2_used),
	KTEST_CASE(copy_bad_checksum),
	KTEST_CASE(copy_v2_bad_extended_checksum),
	KTEST_CASE(copy_v2_length_past_copy),
	KTEST_CASE(copy_too_short),
	KTEST_CASE(fw_ranges_scan),
	KTEST_CASE(rsdp_order),
	KTEST_CASE(dump_fuzz_seeds),
	KTEST_END,
};

static const struct ktest_suite acpi_suite = {
	.name = "acpi",
	.init = acpi_test_init,
	.exit = acpi_test_exit,
	.cases = acpi_cases,
};
KTEST_SUITE(acpi_suite);
