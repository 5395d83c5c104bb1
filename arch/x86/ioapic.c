/*
 * arch/x86/ioapic.c - the I/O APIC: how the PC's device interrupts reach
 * the CPUs.
 *
 * The legacy 8259s are masked (arch/x86/i8259.c), so a device's interrupt
 * line reaches a CPU only through an I/O APIC.  Each of its inputs has a
 * 64-bit redirection entry that turns an edge or a level on that input
 * into a message to local APICs: which vector, how delivered, to whom.
 *
 * Registers (Intel 82093AA datasheet).  Only two are memory-mapped: an
 * index, IOREGSEL at +0x00, and a data window, IOWIN at +0x10; write a
 * register's number to the first, then read or write it through the
 * second.  Register 0x00 holds the chip's id (bits 24-27, up to 31 on
 * later chips), 0x01 its version (bits 0-7) and the number of its highest
 * redirection entry (bits 16-23: inputs - 1).  Entry n is registers
 * 0x10 + 2n (low half: vector 0-7, delivery mode 8-10, destination mode
 * 11, delivery status 12, polarity 13 (1: active low), remote IRR 14,
 * trigger 15 (1: level), mask 16) and 0x11 + 2n (high half: the
 * destination, bits 56-63 of the entry; in physical mode a local APIC
 * id).  Entries are written fixed delivery, physical destination; the
 * read-only bits are written 0.
 *
 * Which input an ISA IRQ is (ACPI, MADT).  The inputs of all I/O APICs
 * are numbered as global system interrupts (GSIs): the MADT's I/O APIC
 * entry (type 1) gives each chip's address and first GSI.  ISA IRQ n is
 * GSI n unless an interrupt source override (type 2) for bus 0 names
 * another; on most PCs (and QEMU) the PIT's IRQ 0 is GSI 2, input 0
 * carrying the 8259s' output.  An override's flags are MPS INTI flags:
 * polarity in bits 0-1 (01 active high, 11 active low), trigger in bits
 * 2-3 (01 edge, 11 level); 00 means the bus's own convention, for ISA
 * edge and active high, and so does the reserved 10 here.  The first
 * override for an IRQ wins.  One fixmap slot, one I/O APIC: the one whose
 * GSIs start at 0, which on a PC carries the ISA IRQs; any other is
 * reported and left alone, and an IRQ overridden onto it cannot be
 * routed (-ENOENT).
 *
 * Invariants:
 *  - Every entry is masked from ioapic_init() until a route programs it.
 *  - An entry is rewritten masked first, then its high half, then its low
 *    half: its input is never live with half an old entry.
 *  - Every index write and the window access after it happen under
 *    ioapic_lock with interrupts off (irqsave): the index is one register
 *    shared by every CPU, and an interrupt between the two on this CPU
 *    could move it too.
 *  - isa_gsi[], isa_mode[] and the chip's description are written only by
 *    ioapic_init(), before the other CPUs start, and only read after.
 *
 * A level-triggered entry is re-armed by the EOI that do_irq() gives the
 * local APIC, which passes it on to the I/O APICs.  By the datasheet a
 * masked input drops its edges; an emulated one may keep the last and
 * deliver it when unmasked, so a caller must allow for one stale
 * interrupt after a route.
 */
#include "asm/acpi.h"
#include "asm/ioapic.h"
#include "asm/pgtable.h"
#include "kernel/lockdep.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "lib/errno.h"

#define IOREGSEL 0x00
#define IOWIN 0x10

#define IO_APIC_ID 0x00
#define IO_APIC_VERSION 0x01
#define IO_APIC_REDTBL(n) (0x10 + 2 * (n))	/* its high half is one up */

#define RTE_DM_FIXED (0u << 8)
#define RTE_DEST_PHYSICAL (0u << 11)
#define RTE_ACTIVE_LOW (1u << 13)
#define RTE_LEVEL (1u << 15)
#define RTE_MASKED (1u << 16)
#define RTE_DEST_SHIFT 24		/* in the high half */

/* The most entries an 8-bit register index reaches (0x10 + 2n + 1). */
#define IO_APIC_MAX_PINS 120

#define INTI_POLARITY_MASK 0x3
#define INTI_ACTIVE_LOW 0x3
#define INTI_TRIGGER_MASK 0xc
#define INTI_LEVEL 0xc

static DEFINE_SPINLOCK(ioapic_lock);
static volatile u32 *ioapic_regs;	/* NULL: no I/O APIC in use */
static unsigned int ioapic_nr_pins;	/* its GSIs are 0 .. nr_pins - 1 */

static u32 isa_gsi[NR_ISA_IRQS];
static u32 isa_mode[NR_ISA_IRQS];	/* RTE_ACTIVE_LOW, RTE_LEVEL */

static u32 io_apic_read(unsigned int reg)
{
	lockdep_assert_held(&ioapic_lock);
	ioapic_regs[IOREGSEL / 4] = reg;
	return ioapic_regs[IOWIN / 4];
}

static void io_apic_write(unsigned int reg, u32 v)
{
	lockdep_assert_held(&ioapic_lock);
	ioapic_regs[IOREGSEL / 4] = reg;
	ioapic_regs[IOWIN / 4] = v;
}

/* Masked first: never live with a half-written entry. */
static void rte_write(unsigned int pin, u32 low, u32 high)
{
	io_apic_write(IO_APIC_REDTBL(pin), RTE_MASKED);
	io_apic_write(IO_APIC_REDTBL(pin) + 1, high);
	io_apic_write(IO_APIC_REDTBL(pin), low);
}

static u32 inti_to_rte_mode(u16 flags)
{
	u32 mode = 0;

	if ((flags & INTI_POLARITY_MASK) == INTI_ACTIVE_LOW)
		mode |= RTE_ACTIVE_LOW;
	if ((flags & INTI_TRIGGER_MASK) == INTI_LEVEL)
		mode |= RTE_LEVEL;
	return mode;
}

/*
 * Identity, edge, active high; then the overrides, the first one winning
 * (a GSI that an int cannot hold is firmware garbage, ignored).
 */
static void isa_irqs_init(const struct acpi_info *acpi)
{
	for (unsigned int irq = 0; irq < NR_ISA_IRQS; irq++) {
		isa_gsi[irq] = irq;
		isa_mode[irq] = 0;
	}
	for (unsigned int i = acpi->nr_overrides; i-- > 0;) {
		const struct acpi_irq_override *o = &acpi->overrides[i];

		if (o->bus != 0 || o->source >= NR_ISA_IRQS || (int)o->gsi < 0)
			continue;
		isa_gsi[o->source] = o->gsi;
		isa_mode[o->source] = inti_to_rte_mode(o->flags);
	}
}

/* The MADT's I/O APIC whose GSIs start at 0; reports the others. */
static const struct acpi_ioapic *find_isa_ioapic(const struct acpi_info *acpi)
{
	const struct acpi_ioapic *found = NULL;

	for (unsigned int i = 0; i < acpi->nr_ioapics; i++) {
		const struct acpi_ioapic *io = &acpi->ioapics[i];

		if (!found && io->gsi_base == 0) {
			found = io;
			continue;
		}
		pr_info("IOAPIC[%u]: apic_id %u, address %#x, GSI base %u: not used (only the one at GSI 0 is)\n",
			i, io->id, io->addr, io->gsi_base);
	}
	return found;
}

/*
 * Maps the chip (its registers never cross a page: the 82093AA's base is
 * 256-byte aligned) and reads its version register; 0 when nothing
 * answers there (an unbacked address reads all ones).
 */
static u32 ioapic_map(u32 addr)
{
	unsigned long va = __fix_to_virt(FIX_IO_APIC_BASE);
	unsigned long flags;
	u32 ver;

	set_kernel_pte_uncached(va, addr >> PAGE_SHIFT);
	ioapic_regs = (volatile u32 *)(va + (addr & ~PAGE_MASK));
	spin_lock_irqsave(&ioapic_lock, flags);
	ver = io_apic_read(IO_APIC_VERSION);
	spin_unlock_irqrestore(&ioapic_lock, flags);
	if (ver != 0xffffffffu)
		return ver;
	ioapic_regs = NULL;
	clear_kernel_pte(va);
	return 0;
}

static void mask_all_pins(void)
{
	unsigned long flags;

	spin_lock_irqsave(&ioapic_lock, flags);
	for (unsigned int pin = 0; pin < ioapic_nr_pins; pin++)
		rte_write(pin, RTE_MASKED, 0);
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

void ioapic_init(void)
{
	const struct acpi_info *acpi = acpi_boot_tables();
	const struct acpi_ioapic *io = find_isa_ioapic(acpi);
	unsigned long flags;
	u32 ver, id;

	isa_irqs_init(acpi);
	if (!io) {
		pr_info("IOAPIC: none at GSI 0 in the MADT: ISA interrupts stay unrouted\n");
		return;
	}
	ver = ioapic_map(io->addr);
	if (!ver) {
		pr_warn("IOAPIC: nothing answers at %#x (MADT apic_id %u): not used\n",
			io->addr, io->id);
		return;
	}
	ioapic_nr_pins = min(((ver >> 16) & 0xff) + 1, (u32)IO_APIC_MAX_PINS);
	mask_all_pins();
	spin_lock_irqsave(&ioapic_lock, flags);
	id = io_apic_read(IO_APIC_ID) >> 24;
	spin_unlock_irqrestore(&ioapic_lock, flags);
	if (id != io->id)
		pr_warn("IOAPIC: the chip says apic_id %u, the MADT %u\n", id,
			io->id);
	pr_info("IOAPIC[%u]: apic_id %u, version %#x, address %#x, GSI 0-%u\n",
		(unsigned int)(io - acpi->ioapics), id, ver & 0xff, io->addr,
		ioapic_nr_pins - 1);
}

int ioapic_isa_irq_to_gsi(unsigned int isa_irq)
{
	if (isa_irq >= NR_ISA_IRQS)
		return -EINVAL;
	if (!ioapic_regs)
		return -ENOENT;
	return (int)isa_gsi[isa_irq];
}

/* The input carrying isa_irq, or a negative error. */
static int isa_irq_pin(unsigned int isa_irq)
{
	int gsi = ioapic_isa_irq_to_gsi(isa_irq);

	if (gsi < 0)
		return gsi;
	return (unsigned int)gsi < ioapic_nr_pins ? gsi : -ENOENT;
}

int ioapic_route_isa_irq(unsigned int isa_irq, unsigned int vector,
			 unsigned int dest_apic_id)
{
	int pin = isa_irq_pin(isa_irq);
	unsigned long flags;

	if (pin < 0)
		return pin;
	if (vector < 32 || vector > 0xfe || dest_apic_id > 0xff)
		return -EINVAL;
	spin_lock_irqsave(&ioapic_lock, flags);
	rte_write((unsigned int)pin,
		  vector | RTE_DM_FIXED | RTE_DEST_PHYSICAL | isa_mode[isa_irq],
		  dest_apic_id << RTE_DEST_SHIFT);
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return 0;
}

int ioapic_mask_isa_irq(unsigned int isa_irq)
{
	int pin = isa_irq_pin(isa_irq);
	unsigned long flags;
	unsigned int reg;

	if (pin < 0)
		return pin;
	reg = IO_APIC_REDTBL((unsigned int)pin);
	spin_lock_irqsave(&ioapic_lock, flags);
	io_apic_write(reg, io_apic_read(reg) | RTE_MASKED);
	spin_unlock_irqrestore(&ioapic_lock, flags);
	return 0;
}
