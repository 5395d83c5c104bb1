/*
 * mm/slab_debug.c - catching the bugs that slab users make: writing past
 * an object, writing to it after it was freed, freeing it twice.
 *
 * Off by default; "slab_debug" on the command line turns it on for every
 * cache, "slab_debug=LETTERS" picks what (as Linux's slub_debug: F sanity
 * checks, Z red zones, P poisoning, U owner tracking), and
 * "slab_debug=LETTERS,name,name" limits it to the named caches.
 *
 *  - P: a free object is filled with 0x6b and ends in 0xa5 (Linux's
 *    POISON_FREE/POISON_END); the pattern is checked when the object is
 *    handed out again, so a write after free is found at the next alloc.
 *  - Z: eight bytes before and after each object hold RED_INACTIVE while
 *    it is free and RED_ACTIVE while it is allocated; both are checked on
 *    free (an overflow or underflow changes them; a second free finds
 *    them already inactive) and on allocation.
 *  - U: the last allocator and freer (return addresses) are kept after
 *    the red zone and named in every report.
 *  - F: an object's bufctl, unused while the object is off its slab's
 *    free chain, says whether its caller has it (BUFCTL_ACTIVE, set when
 *    it is handed out) or an array does (BUFCTL_FREED, set by its free):
 *    a free of an object its caller does not have is a double free,
 *    wherever the first free put it (a CPU's array, the node's shared
 *    array, its slab), even without red zones.
 *
 * A build with MM_DEBUG=0 (mm/mm.h; make bench-host's production build)
 * has none of this: kmem_cache_create() drops the debug flags and the
 * fast paths do not look for them, as 2.6 without CONFIG_DEBUG_SLAB.
 *
 * Every report is one "BUG:" line naming the cache, the object and what
 * was found, then details, and stops the kernel: corrupted memory must not
 * be handed out.
 *
 * Releases: the poison bytes and the red-zone-then-owner layout are those
 * of 2.6's CONFIG_DEBUG_SLAB (2.6.11 builds it in at compile time; its
 * values were not re-checked); the boot-time letters and per-cache choice
 * are SLUB's slub_debug, from after 2.6.11 (not re-checked which release).
 * See docs/linux-2.6.md.
 */
#include "kernel/arch.h"
#include "kernel/bug.h"
#include "kernel/cmdline.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/slab_internal.h"

#define POISON_FREE 0x6b
#define POISON_END 0xa5
#define RED_INACTIVE 0x09F911029D74E35BULL
#define RED_ACTIVE 0xD84156C5635688C0ULL

#define MAX_DEBUG_NAMES 8
#define DEBUG_NAME_LEN 32

static unsigned long debug_flags;	/* 0: off */
static unsigned int nr_debug_names;	/* 0: every cache */
static char debug_names[MAX_DEBUG_NAMES][DEBUG_NAME_LEN];

/* ---- slab_debug= ----------------------------------------------------- */

static int slab_debug_setup(const char *val)
{
	const char *p = val;
	unsigned long flags = 0;

	nr_debug_names = 0;
	if (!val || !*val) {
		debug_flags = SLAB_DEBUG_FLAGS;
		return 0;
	}
	for (; *p && *p != ','; p++) {
		switch (*p) {
		case 'F': case 'f': flags |= SLAB_CONSISTENCY; break;
		case 'Z': case 'z': flags |= SLAB_RED_ZONE; break;
		case 'P': case 'p': flags |= SLAB_POISON; break;
		case 'U': case 'u': flags |= SLAB_STORE_USER; break;
		default:
			pr_err("slab_debug: unknown option '%c' in '%s' (use F, Z, P, U)\n",
			       *p, val);
			return -EINVAL;
		}
	}
	debug_flags = flags ? flags : SLAB_DEBUG_FLAGS;
	while (*p == ',') {
		const char *name = ++p;
		size_t len;

		while (*p && *p != ',')
			p++;
		len = (size_t)(p - name);
		if (!len)
			continue;
		if (nr_debug_names == MAX_DEBUG_NAMES || len >= DEBUG_NAME_LEN) {
			pr_err("slab_debug: too many or too long cache names in '%s'\n",
			       val);
			return -EINVAL;
		}
		memcpy(debug_names[nr_debug_names], name, len);
		debug_names[nr_debug_names++][len] = '\0';
	}
	return 0;
}
__setup("slab_debug", slab_debug_setup);

unsigned long slab_debug_flags(const char *name)
{
	if (!debug_flags)
		return 0;
	if (!nr_debug_names)
		return debug_flags;
	for (unsigned int i = 0; i < nr_debug_names; i++)
		if (!strcmp(debug_names[i], name))
			return debug_flags;
	return 0;
}

/* ---- where things are in a debug object ------------------------------ */

static u64 *redzone1(const struct kmem_cache *cachep, void *objp)
{
	return (u64 *)((char *)objp - 8);
}

static u64 *redzone2(const struct kmem_cache *cachep, void *objp)
{
	return (u64 *)((char *)objp + ALIGN(cachep->object_size, 8U));
}

/* [0]: last allocated by, [1]: last freed by. */
static unsigned long *owner_words(const struct kmem_cache *cachep, void *objp)
{
	if (cachep->flags & SLAB_RED_ZONE)
		return (unsigned long *)(redzone2(cachep, objp) + 1);
	return (unsigned long *)((char *)objp +
				 ALIGN(cachep->object_size, (unsigned int)sizeof(void *)));
}

/* ---- reporting ------------------------------------------------------- */

static void print_owner(const char *what, unsigned long addr)
{
	char sym[96];

	if (!addr)
		pr_alert("  %s: never\n", what);
	else if (kallsyms_lookup(addr, sym, sizeof(sym)))
		pr_alert("  %s: %s [<%08lx>]\n", what, sym, addr);
	else
		pr_alert("  %s: [<%08lx>]\n", what, addr);
}

void slab_bug(struct kmem_cache *cachep, const void *objp, const char *fmt, ...)
{
	char msg[192];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	pr_alert("BUG: %s\n", msg);
	if (cachep && objp && virt_addr_valid(objp) &&
	    PageSlab(virt_to_page(objp)) &&
	    page_get_cache(virt_to_page(objp)) == cachep &&
	    obj_to_index(cachep, page_get_slab(virt_to_page(objp)), objp) >= 0) {
		const u8 *b = objp;
		unsigned int n = min(cachep->object_size, 16U);
		char hex[16 * 3 + 1];

		for (unsigned int i = 0; i < n; i++)
			snprintf(hex + 3 * i, 4, " %02x", b[i]);
		pr_alert("  cache %s, object %p, size %u\n", cachep->name, objp,
			 cachep->object_size);
		pr_alert("  first bytes:%s\n", hex);
		if (cachep->flags & SLAB_STORE_USER) {
			unsigned long *who = owner_words(cachep, (void *)objp);

			print_owner("last allocated by", who[0]);
			print_owner("last freed by", who[1]);
		}
	}
	dump_stack();
	panic("slab corruption or misuse");
}

/* ---- the checks ------------------------------------------------------ */

/*
 * F's mark of an object handed out: its bufctl says BUFCTL_ACTIVE until
 * its caller frees it.  The object is this CPU's alone here, and its
 * bufctl is off the free chain: nothing else writes it.
 */
static kmem_bufctl_t *obj_bufctl(struct kmem_cache *cachep, void *objp)
{
	struct slab *slabp = page_get_slab(virt_to_page(objp));

	return &slabp->bufctl[obj_to_index(cachep, slabp, objp)];
}

void slab_debug_init_obj(struct kmem_cache *cachep, void *objp)
{
	if (cachep->flags & SLAB_POISON) {
		memset(objp, POISON_FREE, cachep->object_size);
		((u8 *)objp)[cachep->object_size - 1] = POISON_END;
	}
	if (cachep->flags & SLAB_RED_ZONE)
		*redzone1(cachep, objp) = *redzone2(cachep, objp) = RED_INACTIVE;
	if (cachep->flags & SLAB_STORE_USER)
		owner_words(cachep, objp)[0] = owner_words(cachep, objp)[1] = 0;
}

static void check_poison(struct kmem_cache *cachep, void *objp)
{
	const u8 *b = objp;
	unsigned int last = cachep->object_size - 1;

	for (unsigned int i = 0; i <= last; i++) {
		u8 want = i == last ? POISON_END : POISON_FREE;

		if (b[i] != want)
			slab_bug(cachep, objp,
				 "%s: poison overwritten in free object %p at offset %u: 0x%02x instead of 0x%02x (write after free)",
				 cachep->name, objp, i, b[i], want);
	}
}

void slab_debug_alloc(struct kmem_cache *cachep, void *objp,
		      unsigned long caller)
{
	if (cachep->flags & SLAB_POISON)
		check_poison(cachep, objp);
	if (cachep->flags & SLAB_RED_ZONE) {
		if (*redzone1(cachep, objp) != RED_INACTIVE ||
		    *redzone2(cachep, objp) != RED_INACTIVE)
			slab_bug(cachep, objp,
				 "%s: red zone of free object %p corrupted: %016llx %016llx",
				 cachep->name, objp,
				 (unsigned long long)*redzone1(cachep, objp),
				 (unsigned long long)*redzone2(cachep, objp));
		*redzone1(cachep, objp) = *redzone2(cachep, objp) = RED_ACTIVE;
	}
	if (cachep->flags & SLAB_STORE_USER)
		owner_words(cachep, objp)[0] = caller;
	if (cachep->flags & SLAB_CONSISTENCY)
		WRITE_ONCE(*obj_bufctl(cachep, objp), BUFCTL_ACTIVE);
}

/*
 * A free object about to be given back with its slab: a write after free
 * must not escape just because the object was never handed out again.
 */
void slab_debug_check_free_obj(struct kmem_cache *cachep, void *objp)
{
	if (cachep->flags & SLAB_POISON)
		check_poison(cachep, objp);
	if ((cachep->flags & SLAB_RED_ZONE) &&
	    (*redzone1(cachep, objp) != RED_INACTIVE ||
	     *redzone2(cachep, objp) != RED_INACTIVE))
		slab_bug(cachep, objp,
			 "%s: red zone of free object %p corrupted: %016llx %016llx",
			 cachep->name, objp,
			 (unsigned long long)*redzone1(cachep, objp),
			 (unsigned long long)*redzone2(cachep, objp));
}

/*
 * F's check of a free: the object must be its caller's (BUFCTL_ACTIVE),
 * and becomes an array's (BUFCTL_FREED) in one atomic step, so that of
 * two frees of one object, on one CPU or two, exactly one gets it.  An
 * object freed before sits in some CPU's array or the node's shared
 * array (BUFCTL_FREED) or back on its slab's free chain (an index):
 * either way not BUFCTL_ACTIVE, and no array needs to be read.
 */
static bool object_was_handed_out(struct kmem_cache *cachep, void *objp)
{
	kmem_bufctl_t active = BUFCTL_ACTIVE;

	return __atomic_compare_exchange_n(obj_bufctl(cachep, objp), &active,
					   BUFCTL_FREED, false,
					   __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

void slab_debug_free(struct kmem_cache *cachep, void *objp,
		     unsigned long caller)
{
	if (cachep->flags & SLAB_RED_ZONE) {
		u64 rz1 = *redzone1(cachep, objp), rz2 = *redzone2(cachep, objp);

		if (rz1 == RED_INACTIVE && rz2 == RED_INACTIVE)
			slab_bug(cachep, objp, "%s: double free of object %p",
				 cachep->name, objp);
		if (rz1 != RED_ACTIVE)
			slab_bug(cachep, objp,
				 "%s: red zone before object %p overwritten: %016llx (write before the start)",
				 cachep->name, objp, (unsigned long long)rz1);
		if (rz2 != RED_ACTIVE)
			slab_bug(cachep, objp,
				 "%s: red zone after object %p overwritten: %016llx (write past the end)",
				 cachep->name, objp, (unsigned long long)rz2);
		*redzone1(cachep, objp) = *redzone2(cachep, objp) = RED_INACTIVE;
	}
	if ((cachep->flags & SLAB_CONSISTENCY) &&
	    !object_was_handed_out(cachep, objp))
		slab_bug(cachep, objp, "%s: double free of object %p",
			 cachep->name, objp);
	if (cachep->flags & SLAB_STORE_USER)
		owner_words(cachep, objp)[1] = caller;
	if (cachep->flags & SLAB_POISON) {
		memset(objp, POISON_FREE, cachep->object_size);
		((u8 *)objp)[cachep->object_size - 1] = POISON_END;
	}
}
