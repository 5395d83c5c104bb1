/*
 * arch/x86/acpi.c - reads the firmware's ACPI tables (RSDP, RSDT/XSDT,
 * MADT, SRAT, SLIT) into the arch-neutral struct acpi_info.
 *
 * The tables are firmware input at physical addresses: nothing in them is
 * trusted until checked.  Invariants:
 *  - Memory is only read through the caller's map(), and only a range it
 *    accepted.  Its pointer dies at the next map() call, so the RSDP is
 *    copied into a local, and every table into table_buf (one table at a
 *    time; the root's entry list is copied out of it first) before map()
 *    is called again.  Everything past that is parsed from the copies.
 *  - A table is used only after its header was read (36 bytes), its length
 *    found to lie in [36, ACPI_TABLE_MAX], the whole of it mapped and
 *    copied, and its bytes found to sum to 0 mod 256; its subtables are
 *    walked only after a first pass proved that each is at least 2 bytes
 *    long, at least as long as its type's layout, and inside the table.
 *    So no read ever leaves the copy, and a bad table is dropped whole:
 *    nothing of it reaches struct acpi_info except the reason, recorded
 *    in its descriptor together with its ACPI_REJ_* bit.
 *  - Fields are copied out with memcpy: subtables are packed and
 *    unaligned (an XSDT's 64-bit entries start at offset 36).
 *  - Arrays that fill up drop further entries and count them (dropped);
 *    a table is never rejected for being bigger than our summary.
 *
 * Where the RSDP comes from, in this order (struct acpi_rsdp_sources):
 *  1. the copy a Multiboot 2 loader passes (it read the firmware's
 *     pointer): checked as one found in memory is, and its length may
 *     not exceed the copy; a copy that fails is reported and the search
 *     goes on, so nothing is lost;
 *  2. the BIOS area, as the specification says;
 *  3. mm86's own last resort, for UEFI firmware booted through Multiboot 1
 *     (no RSDP in the BIOS area, no copy): the memory map's ACPI data and
 *     ACPI NVS ranges, scanned on 16-byte boundaries.  Linux on EFI reads
 *     the RSDP's address from the EFI system table's configuration table
 *     instead, which a Multiboot 1 kernel is never given.  On OVMF it
 *     finds the ACPI 1.0 RSDP (RSDT only): the 2.0 one lies 20 bytes
 *     after it, off the 16-byte grid, and its XSDT lists the same tables.
 * However long a range, a scan asks map() for 1 KiB at a time, and a
 * candidate for no more than its length field (36 bytes in practice).
 *
 * What it trusts: the specification's layouts, and that map() returns
 * memory holding what is at that physical address at the time.  Policy is
 * not here: a missing MADT or SRAT is reported, and the caller decides
 * (one CPU, one node).  Nothing is printed while parsing; acpi_print()
 * says what was found and what was ignored, in Linux's words.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include "asm/acpi.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"

/*
 * The smallest length each known subtable type may have (0: any); a
 * longer one is a later revision's, read as far as we know it.
 */
static const u8 madt_min_len[] = {
	[ACPI_MADT_TYPE_LOCAL_APIC] = sizeof(struct acpi_madt_local_apic),
	[ACPI_MADT_TYPE_IO_APIC] = sizeof(struct acpi_madt_io_apic),
	[ACPI_MADT_TYPE_INTERRUPT_OVERRIDE] =
		sizeof(struct acpi_madt_interrupt_override),
	[ACPI_MADT_TYPE_NMI_SOURCE] = 8,
	[ACPI_MADT_TYPE_LOCAL_APIC_NMI] =
		sizeof(struct acpi_madt_local_apic_nmi),
	[ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE] =
		sizeof(struct acpi_madt_local_apic_override),
};

static const u8 srat_min_len[] = {
	[ACPI_SRAT_TYPE_CPU_AFFINITY] = sizeof(struct acpi_srat_cpu_affinity),
	[ACPI_SRAT_TYPE_MEMORY_AFFINITY] = sizeof(struct acpi_srat_mem_affinity),
	[ACPI_SRAT_TYPE_X2APIC_CPU_AFFINITY] = 24,
};

/* Where the BIOS data area keeps the EBDA's segment, and the ROM area. */
#define ACPI_EBDA_PTR_LOCATION 0x40E
#define ACPI_EBDA_WINDOW_SIZE 1024
#define ACPI_HI_RSDP_WINDOW_BASE 0xE0000
#define ACPI_HI_RSDP_WINDOW_SIZE 0x20000
/* The search maps this much at a time (a divisor of both windows). */
#define ACPI_SCAN_CHUNK 1024

#define FOUR_GB 0x100000000ULL

/* The one table being looked at, copied out of the mapping. */
static u8 table_buf[ACPI_TABLE_MAX] __aligned(8);

static u8 checksum(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

/* Copies a fixed-width firmware string, non-printables shown as '?'. */
static void copy_id(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? src[i] : '?';
	dst[n] = '\0';
}

/* ---- the RSDP ---------------------------------------------------------- */

/* A candidate: at pa in memory, read through map, or the loader's copy. */
struct rsdp_cand {
	acpi_map_t map;
	phys_addr_t pa;
	const u8 *copy;		/* non-NULL: copy_len bytes, no address */
	unsigned int copy_len;
};

/* The candidate's first len bytes, or NULL when they cannot be read. */
static const void *cand_bytes(const struct rsdp_cand *c, size_t len)
{
	if (c->copy)
		return len <= c->copy_len ? c->copy : NULL;
	return c->map(c->pa, len);
}

/* Records why the candidate is no RSDP.  Returns false. */
static bool __printf(3, 4) rsdp_bad(struct acpi_info *info,
				     const struct rsdp_cand *c,
				     const char *fmt, ...)
{
	char *why = c->copy ? info->copy_problem : info->rsdp_problem;
	va_list args;

	BUILD_BUG_ON(sizeof(info->copy_problem) !=
		     sizeof(info->rsdp_problem));
	va_start(args, fmt);
	vsnprintf(why, sizeof(info->rsdp_problem), fmt, args);
	va_end(args);
	if (!c->copy)
		info->rsdp_bad_pa = c->pa;
	info->rejected |= ACPI_REJ_RSDP;
	return false;
}

/* Copies the candidate into *r; true when it is a valid RSDP. */
static bool check_rsdp(struct acpi_info *info, const struct rsdp_cand *c,
		       struct acpi_rsdp *r)
{
	const void *p;

	memset(r, 0, sizeof(*r));
	p = cand_bytes(c, ACPI_RSDP_V1_SIZE);
	if (!p && c->copy)
		return rsdp_bad(info, c,
				"a %u-byte copy, shorter than the 20 bytes of any RSDP",
				c->copy_len);
	if (!p)
		return rsdp_bad(info, c, "cannot be mapped");
	memcpy(r, p, ACPI_RSDP_V1_SIZE);
	if (memcmp(r->signature, "RSD PTR ", 8) != 0)
		return rsdp_bad(info, c, "no \"RSD PTR \" signature");
	if (checksum(r, ACPI_RSDP_V1_SIZE) != 0)
		return rsdp_bad(info, c, "bad checksum");
	if (r->revision < 2) {
		r->length = ACPI_RSDP_V1_SIZE;
		r->xsdt_address = 0;
		return true;
	}

	p = cand_bytes(c, ACPI_RSDP_V2_SIZE);
	if (!p && c->copy)
		return rsdp_bad(info, c,
				"v%u: a %u-byte copy, shorter than the 36 bytes of revision 2",
				r->revision, c->copy_len);
	if (!p)
		return rsdp_bad(info, c, "v%u: its 36 bytes cannot be mapped",
				r->revision);
	memcpy(r, p, ACPI_RSDP_V2_SIZE);
	if (r->length < ACPI_RSDP_V2_SIZE || r->length > ACPI_RSDP_MAX_LENGTH)
		return rsdp_bad(info, c, "v%u: bad length %u", r->revision,
				r->length);
	p = cand_bytes(c, r->length);
	if (!p && c->copy)
		return rsdp_bad(info, c,
				"v%u: length %u is longer than the %u-byte copy",
				r->revision, r->length, c->copy_len);
	if (!p)
		return rsdp_bad(info, c, "v%u: its %u bytes cannot be mapped",
				r->revision, r->length);
	if (checksum(p, r->length) != 0)
		return rsdp_bad(info, c, "v%u: bad extended checksum",
				r->revision);
	return true;
}

/*
 * Looks for a valid RSDP on the 16-byte boundaries of [start, start +
 * size) (start 16-byte aligned), one chunk mapping at a time (checking a
 * candidate maps other ranges, so the chunk is mapped again after it).  A
 * chunk that cannot be mapped is skipped.  Returns its address, or 0.
 */
static phys_addr_t scan_rsdp(struct acpi_info *info, acpi_map_t map,
			     phys_addr_t start, u64 size, struct acpi_rsdp *r)
{
	for (u64 chunk = 0; chunk < size; chunk += ACPI_SCAN_CHUNK) {
		u32 n = (u32)min(size - chunk, (u64)ACPI_SCAN_CHUNK);
		u32 off = 0;

		while (off + 8 <= n) {
			const u8 *p = map(start + chunk, n);
			struct rsdp_cand c = { .map = map };

			if (!p)
				break;
			while (off + 8 <= n && memcmp(p + off, "RSD PTR ", 8))
				off += 16;
			if (off + 8 > n)
				break;
			c.pa = start + chunk + off;
			if (check_rsdp(info, &c, r))
				return c.pa;
			off += 16;
		}
	}
	return 0;
}

/* The specification's search: the EBDA's first KiB, then the BIOS ROM. */
static phys_addr_t find_rsdp(struct acpi_info *info, acpi_map_t map,
			     struct acpi_rsdp *r)
{
	const void *p = map(ACPI_EBDA_PTR_LOCATION, sizeof(u16));
	phys_addr_t pa = 0;

	if (p) {
		u16 seg;

		memcpy(&seg, p, sizeof(seg));
		/* As ACPICA: an EBDA at or below 0x400 is no EBDA. */
		if (((phys_addr_t)seg << 4) > 0x400)
			pa = scan_rsdp(info, map, (phys_addr_t)seg << 4,
				       ACPI_EBDA_WINDOW_SIZE, r);
	}
	if (!pa)
		pa = scan_rsdp(info, map, ACPI_HI_RSDP_WINDOW_BASE,
			       ACPI_HI_RSDP_WINDOW_SIZE, r);
	return pa;
}

/*
 * The last resort: the ACPI data ranges of the memory map, then its ACPI
 * NVS ranges, each in map order and below 4 GiB.  Not Linux's way (on EFI
 * it reads the RSDP's address from the EFI system table, which a
 * Multiboot 1 kernel is never given); UEFI firmware keeps its ACPI
 * tables, the RSDP among them, in these two kinds of memory.
 */
static phys_addr_t scan_fw_ranges(struct acpi_info *info, acpi_map_t map,
				  const struct acpi_rsdp_sources *src,
				  struct acpi_rsdp *r)
{
	static const u32 types[] = { MULTIBOOT_MEMORY_ACPI_RECLAIMABLE,
				     MULTIBOOT_MEMORY_NVS };

	for (unsigned int t = 0; t < ARRAY_SIZE(types); t++) {
		for (unsigned int i = 0; i < src->nr_mmap; i++) {
			const struct boot_mmap_entry *e = &src->mmap[i];
			u64 start, end;
			phys_addr_t pa;

			if (e->type != types[t] || e->addr >= FOUR_GB)
				continue;
			start = ALIGN(e->addr, 16ULL);
			end = e->len > FOUR_GB - e->addr ? FOUR_GB
							 : e->addr + e->len;
			if (end <= start)
				continue;
			pa = scan_rsdp(info, map, start, end - start, r);
			if (pa)
				return pa;
		}
	}
	return 0;
}

/* ---- tables ------------------------------------------------------------- */

static u32 table_bit(const char *sig)
{
	if (!memcmp(sig, "RSDT", 4))
		return ACPI_REJ_RSDT;
	if (!memcmp(sig, "XSDT", 4))
		return ACPI_REJ_XSDT;
	if (!memcmp(sig, "APIC", 4))
		return ACPI_REJ_MADT;
	if (!memcmp(sig, "SRAT", 4))
		return ACPI_REJ_SRAT;
	if (!memcmp(sig, "SLIT", 4))
		return ACPI_REJ_SLIT;
	return ACPI_REJ_OTHER;
}

/* A descriptor for the table at pa, or NULL when the list is full. */
static struct acpi_table_desc *new_desc(struct acpi_info *info, phys_addr_t pa)
{
	struct acpi_table_desc *d;

	if (info->nr_tables >= ACPI_MAX_TABLES) {
		info->dropped++;
		return NULL;
	}
	d = &info->tables[info->nr_tables++];
	d->pa = pa;
	return d;
}

/*
 * Records why d is not used (bit 0: skipped, not broken).  Returns 0 (no
 * length, not used), so that a check can "return table_problem(...)".
 */
static int __printf(4, 5) table_problem(struct acpi_info *info,
					 struct acpi_table_desc *d, u32 bit,
					 const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(d->problem, sizeof(d->problem), fmt, args);
	va_end(args);
	d->rejected = bit != 0;
	info->rejected |= bit;
	return 0;
}

/*
 * Reads the table at pa into table_buf and checks it.  Returns its length,
 * or 0 after recording why it is rejected.  want: the signature it must
 * have (the root tables), or NULL.
 */
static u32 fetch_table(struct acpi_info *info, acpi_map_t map,
		       struct acpi_table_desc *d, const char *want)
{
	struct acpi_table_header h;
	const void *p = map(d->pa, sizeof(h));
	u32 bit = table_bit(want ? want : "????");

	if (!p)
		return table_problem(info, d, bit, "header cannot be mapped");
	memcpy(&h, p, sizeof(h));
	d->header_read = true;
	copy_id(d->signature, h.signature, 4);
	d->length = h.length;
	d->revision = h.revision;
	copy_id(d->oem_id, h.oem_id, 6);
	copy_id(d->oem_table_id, h.oem_table_id, 8);
	d->oem_revision = h.oem_revision;
	copy_id(d->asl_compiler_id, h.asl_compiler_id, 4);
	d->asl_compiler_revision = h.asl_compiler_revision;
	if (!want)
		bit = table_bit(h.signature);

	if (want && memcmp(h.signature, want, 4) != 0)
		return table_problem(info, d, bit, "signature is not %s", want);
	if (h.length < sizeof(h))
		return table_problem(info, d, bit,
				     "length %u is shorter than the 36-byte header",
				     h.length);
	if (h.length > ACPI_TABLE_MAX)
		return table_problem(info, d, bit, "length %u is over %u",
				     h.length, ACPI_TABLE_MAX);
	p = map(d->pa, h.length);
	if (!p)
		return table_problem(info, d, bit,
				     "its %u bytes cannot be mapped", h.length);
	memcpy(table_buf, p, h.length);
	if (checksum(table_buf, h.length) != 0)
		return table_problem(info, d, bit, "bad checksum");
	return h.length;
}

/*
 * The first pass over the subtables in table_buf[off, len): each at least
 * 2 bytes, at least min_len[type] when the type is known, and inside the
 * table.  Only after it succeeded may the second pass read them.
 */
static bool subtables_ok(struct acpi_info *info, struct acpi_table_desc *d,
			 u32 bit, u32 off, u32 len, const u8 *min_len,
			 unsigned int nr_types)
{
	while (off < len) {
		struct acpi_subtable_header sh;

		if (len - off < sizeof(sh))
			return table_problem(info, d, bit,
					     "a subtable at offset %u is cut off by the end (%u)",
					     off, len);
		memcpy(&sh, table_buf + off, sizeof(sh));
		if (sh.length < sizeof(sh))
			return table_problem(info, d, bit,
					     "subtable type %u at offset %u has length %u",
					     sh.type, off, sh.length);
		if (sh.length > len - off)
			return table_problem(info, d, bit,
					     "subtable type %u at offset %u (length %u) runs past the end (%u)",
					     sh.type, off, sh.length, len);
		if (sh.type < nr_types && sh.length < min_len[sh.type])
			return table_problem(info, d, bit,
					     "subtable type %u at offset %u is %u bytes, needs %u",
					     sh.type, off, sh.length,
					     min_len[sh.type]);
		off += sh.length;
	}
	return true;
}

/* Stores an entry in one of info's arrays, or counts it dropped when full. */
#define append(info, array, nr, value)                                      \
	do {                                                                 \
		if ((info)->nr < ARRAY_SIZE((info)->array))                  \
			(info)->array[(info)->nr++] = (value);               \
		else                                                         \
			(info)->dropped++;                                   \
	} while (0)

/* The second pass: only after subtables_ok() said yes. */
#define for_each_subtable(off, sh, start, len)                               \
	for ((off) = (start);                                                \
	     (off) < (len) &&                                                \
	     (memcpy(&(sh), table_buf + (off), sizeof(sh)), true);           \
	     (off) += (sh).length)

/* Returns whether the table was used. */
static bool parse_madt(struct acpi_info *info, struct acpi_table_desc *d,
		       u32 len)
{
	struct acpi_table_madt madt;
	struct acpi_subtable_header sh;
	unsigned int nr_lapics = 0;
	u32 off;

	if (info->madt_ok)
		return table_problem(info, d, 0,
				     "a second MADT (the first is used)");
	if (len < sizeof(madt))
		return table_problem(info, d, ACPI_REJ_MADT,
				     "length %u is shorter than the MADT's 44 bytes",
				     len);
	if (!subtables_ok(info, d, ACPI_REJ_MADT, sizeof(madt), len,
			  madt_min_len, ARRAY_SIZE(madt_min_len)))
		return false;
	for_each_subtable(off, sh, sizeof(madt), len)
		if (sh.type == ACPI_MADT_TYPE_LOCAL_APIC)
			nr_lapics++;
	if (!nr_lapics)
		return table_problem(info, d, ACPI_REJ_MADT, "no processors");

	memcpy(&madt, table_buf, sizeof(madt));
	info->lapic_addr = madt.address;
	info->madt_flags = madt.flags;
	for_each_subtable(off, sh, sizeof(madt), len) {
		const void *e = table_buf + off;
		struct acpi_madt_local_apic la;
		struct acpi_madt_io_apic io;
		struct acpi_madt_interrupt_override o;
		struct acpi_madt_local_apic_nmi nmi;
		struct acpi_madt_local_apic_override ao;

		switch (sh.type) {
		case ACPI_MADT_TYPE_LOCAL_APIC:
			memcpy(&la, e, sizeof(la));
			append(info, cpus, nr_cpus,
			       ((struct acpi_cpu){
				       .apic_id = la.id,
				       .acpi_id = la.processor_id,
				       .enabled = la.lapic_flags & ACPI_MADT_ENABLED,
			       }));
			break;
		case ACPI_MADT_TYPE_IO_APIC:
			memcpy(&io, e, sizeof(io));
			append(info, ioapics, nr_ioapics,
			       ((struct acpi_ioapic){ .id = io.id,
						      .addr = io.address,
						      .gsi_base = io.global_irq_base }));
			break;
		case ACPI_MADT_TYPE_INTERRUPT_OVERRIDE:
			memcpy(&o, e, sizeof(o));
			append(info, overrides, nr_overrides,
			       ((struct acpi_irq_override){ .bus = o.bus,
							    .source = o.source_irq,
							    .gsi = o.global_irq,
							    .flags = o.inti_flags }));
			break;
		case ACPI_MADT_TYPE_LOCAL_APIC_NMI:
			memcpy(&nmi, e, sizeof(nmi));
			append(info, lapic_nmis, nr_lapic_nmis,
			       ((struct acpi_lapic_nmi){ .acpi_id = nmi.processor_id,
							 .flags = nmi.inti_flags,
							 .lint = nmi.lint }));
			break;
		case ACPI_MADT_TYPE_LOCAL_APIC_OVERRIDE:
			memcpy(&ao, e, sizeof(ao));
			/* A 64-bit address this kernel cannot map is ignored. */
			if (ao.address < FOUR_GB)
				info->lapic_addr = (u32)ao.address;
			break;
		default:
			/* NMI sources, x2APIC entries (no x2APIC mode here), ... */
			break;
		}
	}
	info->madt_ok = true;
	return true;
}

/* Returns whether the table was used. */
static bool parse_srat(struct acpi_info *info, struct acpi_table_desc *d,
		       u32 len)
{
	struct acpi_subtable_header sh;
	u32 off;

	if (info->srat_ok)
		return table_problem(info, d, 0,
				     "a second SRAT (the first is used)");
	if (len < sizeof(struct acpi_table_srat))
		return table_problem(info, d, ACPI_REJ_SRAT,
				     "length %u is shorter than the SRAT's 48 bytes",
				     len);
	if (!subtables_ok(info, d, ACPI_REJ_SRAT, sizeof(struct acpi_table_srat),
			  len, srat_min_len, ARRAY_SIZE(srat_min_len)))
		return false;

	for_each_subtable(off, sh, sizeof(struct acpi_table_srat), len) {
		const void *e = table_buf + off;

		if (sh.type == ACPI_SRAT_TYPE_CPU_AFFINITY) {
			struct acpi_srat_cpu_affinity ca;
			u32 pxm;

			memcpy(&ca, e, sizeof(ca));
			/* The high 24 bits exist from SRAT revision 2 (Linux). */
			pxm = ca.proximity_domain_lo;
			if (d->revision >= 2)
				pxm |= (u32)ca.proximity_domain_hi[0] << 8 |
				       (u32)ca.proximity_domain_hi[1] << 16 |
				       (u32)ca.proximity_domain_hi[2] << 24;
			append(info, cpu_aff, nr_cpu_aff,
			       ((struct acpi_cpu_affinity){
				       .apic_id = ca.apic_id,
				       .pxm = pxm,
				       .enabled = ca.flags & ACPI_SRAT_CPU_ENABLED,
			       }));
		} else if (sh.type == ACPI_SRAT_TYPE_MEMORY_AFFINITY) {
			struct acpi_srat_mem_affinity ma;
			u32 pxm;

			memcpy(&ma, e, sizeof(ma));
			/* Revision 1 defined only 8 bits of it (Linux). */
			pxm = ma.proximity_domain;
			if (d->revision <= 1)
				pxm &= 0xff;
			if (info->nr_mem == ARRAY_SIZE(info->mem))
				info->srat_mem_dropped = true;
			append(info, mem, nr_mem,
			       ((struct acpi_mem_affinity){
				       .base = ma.base_address,
				       .len = ma.length,
				       .pxm = pxm,
				       .enabled = ma.flags & ACPI_SRAT_MEM_ENABLED,
				       .hotplug = ma.flags & ACPI_SRAT_MEM_HOT_PLUGGABLE,
				       .nonvolatile = ma.flags & ACPI_SRAT_MEM_NON_VOLATILE,
			       }));
		}
	}
	info->srat_ok = true;
	return true;
}

/* Returns whether the table was used. */
static bool parse_slit(struct acpi_info *info, struct acpi_table_desc *d,
		       u32 len)
{
	struct acpi_table_slit slit;
	const u8 *m = table_buf + sizeof(slit);
	unsigned int n;

	if (info->slit_ok)
		return table_problem(info, d, 0,
				     "a second SLIT (the first is used)");
	if (len < sizeof(slit))
		return table_problem(info, d, ACPI_REJ_SLIT,
				     "length %u is shorter than the SLIT's 44 bytes",
				     len);
	memcpy(&slit, table_buf, sizeof(slit));
	if (slit.locality_count == 0 || slit.locality_count > ACPI_MAX_NODES)
		return table_problem(info, d, ACPI_REJ_SLIT,
				     "%llu localities (this kernel takes 1 to %u)",
				     (unsigned long long)slit.locality_count,
				     ACPI_MAX_NODES);
	n = (unsigned int)slit.locality_count;
	if (n * n > len - sizeof(slit))
		return table_problem(info, d, ACPI_REJ_SLIT,
				     "its %ux%u matrix runs past the end (%u)",
				     n, n, len);
	/* Linux's slit_valid(): 10 to itself, more than 10 to any other. */
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < n; j++) {
			u8 v = m[i * n + j];

			if (i == j ? v != ACPI_LOCAL_DISTANCE
				   : v <= ACPI_LOCAL_DISTANCE)
				return table_problem(info, d, ACPI_REJ_SLIT,
						     "distance %u -> %u is %u",
						     i, j, v);
		}
	}
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++)
			info->slit[i][j] = m[i * n + j];
	info->slit_localities = n;
	info->slit_ok = true;
	return true;
}

/* One entry of the root table: read it, and parse it if we know it. */
static void parse_entry(struct acpi_info *info, acpi_map_t map, phys_addr_t pa)
{
	struct acpi_table_desc *d = new_desc(info, pa);
	u32 len;

	if (!d)
		return;
	if (!pa) {
		table_problem(info, d, 0, "a null entry");
		return;
	}
	if (pa >= FOUR_GB) {
		table_problem(info, d, 0,
			      "above 4 GiB, out of this kernel's reach");
		return;
	}
	len = fetch_table(info, map, d, NULL);
	if (!len)
		return;
	if (!memcmp(d->signature, "APIC", 4))
		parse_madt(info, d, len);
	else if (!memcmp(d->signature, "SRAT", 4))
		parse_srat(info, d, len);
	else if (!memcmp(d->signature, "SLIT", 4))
		parse_slit(info, d, len);
	/* Any other table is only listed. */
}

/* Reads the RSDT (4-byte entries) or XSDT (8-byte) at pa and walks it. */
static int parse_root(struct acpi_info *info, acpi_map_t map, phys_addr_t pa,
		      bool xsdt)
{
	const char *sig = xsdt ? "XSDT" : "RSDT";
	u32 bit = xsdt ? ACPI_REJ_XSDT : ACPI_REJ_RSDT;
	u32 esize = xsdt ? 8 : 4;
	struct acpi_table_desc *d = new_desc(info, pa);
	phys_addr_t entry[ACPI_MAX_TABLES];
	unsigned int n, kept;
	u32 len;

	if (!d)
		return -EINVAL;
	len = fetch_table(info, map, d, sig);
	if (!len)
		return -EINVAL;
	if ((len - sizeof(struct acpi_table_header)) % esize) {
		table_problem(info, d, bit,
			      "length %u is not the header and whole %u-byte entries",
			      len, esize);
		return -EINVAL;
	}
	n = (len - sizeof(struct acpi_table_header)) / esize;

	/* Out of table_buf before the entries overwrite it. */
	kept = min(n, ACPI_MAX_TABLES - info->nr_tables);
	for (unsigned int i = 0; i < kept; i++) {
		const u8 *e = table_buf + sizeof(struct acpi_table_header) +
			      i * esize;

		if (xsdt) {
			u64 v;

			memcpy(&v, e, sizeof(v));
			entry[i] = v;
		} else {
			u32 v;

			memcpy(&v, e, sizeof(v));
			entry[i] = v;
		}
	}
	info->dropped += n - kept;
	info->root_ok = true;
	for (unsigned int i = 0; i < kept; i++)
		parse_entry(info, map, entry[i]);
	return 0;
}

int acpi_parse(struct acpi_info *info, acpi_map_t map,
	       const struct acpi_rsdp_sources *src)
{
	enum acpi_rsdp_source from = ACPI_RSDP_NONE;
	struct rsdp_cand c = { .map = map, .pa = src->hint };
	struct acpi_rsdp r;
	phys_addr_t pa = 0;

	memset(info, 0, sizeof(*info));
	if (src->hint) {
		if (check_rsdp(info, &c, &r)) {
			pa = src->hint;
			from = ACPI_RSDP_HINT;
		}
	} else {
		c.copy = src->copy;
		c.copy_len = src->copy_len;
		if (c.copy && c.copy_len && check_rsdp(info, &c, &r))
			from = ACPI_RSDP_LOADER;
		else if ((pa = find_rsdp(info, map, &r)))
			from = ACPI_RSDP_BIOS;
		else if ((pa = scan_fw_ranges(info, map, src, &r)))
			from = ACPI_RSDP_FW_RANGES;
	}
	if (from == ACPI_RSDP_NONE)
		return -ENOENT;

	info->rsdp_found = true;
	info->rsdp_source = from;
	info->rsdp_pa = pa;
	info->revision = r.revision;
	info->rsdp_length = r.length;
	copy_id(info->oem_id, r.oem_id, 6);

	/* ACPI 2.0+: the XSDT supersedes the RSDT; the RSDT is the fallback. */
	if (r.revision >= 2 && r.xsdt_address &&
	    parse_root(info, map, r.xsdt_address, true) == 0)
		return 0;
	if (r.rsdt_address && parse_root(info, map, r.rsdt_address, false) == 0)
		return 0;
	return -EINVAL;
}
