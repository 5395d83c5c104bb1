/*
 * mm/gfp_names.c - a GFP mask in words, for reports: "GFP_NOFS|__GFP_NOWARN".
 *
 * Why: a failure report that says "mode:0x250" makes the reader decode
 * the bits by hand; Linux prints "mode:0x...(GFP_NOFS|__GFP_NOWARN)"
 * since 4.7 (%pGg, lib/vsprintf.c's format_flags() over
 * include/trace/events/mmflags.h's table).  The rule here is that one:
 * walk a table of names, composite masks first, the largest first, and
 * take a name when all of its bits are still in the mask, then clear
 * them; what is left after the table is printed in hex.  One change:
 * at most one composite is named, and the bits left after it by their
 * own names, since two composites side by side mislead.  The table
 * holds this kernel's values (mm/gfp.h, 2.6.11's bits), so the composite
 * names are 2.6.11's: GFP_USER has the same bits as GFP_KERNEL here and
 * is not listed (GFP_KERNEL is the name a reader expects), and GFP_DMA is
 * __GFP_DMA alone, so it prints as the bit.  A mask of 0 is GFP_NOWAIT
 * in this kernel (2.6.18's definition) and prints as that name.
 *
 * Invariants: the output is always NUL-terminated when size > 0 and
 * never longer than size - 1; the return value is the length the whole
 * description needs (as snprintf's), so a caller can see a cut.  No
 * locks, no allocation: callable from any context, failure paths
 * included.
 */
#include "lib/compiler.h"
#include "lib/string.h"
#include "lib/sprintf.h"
#include "mm/gfp.h"

struct gfp_name {
	gfp_t mask;
	const char *name;
};

/*
 * The composites, largest first; at most one is named, the first that
 * fits (after GFP_KERNEL, a 0x20 is __GFP_HIGH, not "GFP_ATOMIC", which
 * would say the caller cannot sleep).  GFP_NOIO before GFP_ATOMIC: a
 * mask with both bits reads as a sleeping allocation with __GFP_HIGH.
 */
static const struct gfp_name gfp_composites[] = {
	{ GFP_HIGHUSER, "GFP_HIGHUSER" },
	{ GFP_KERNEL, "GFP_KERNEL" },
	{ GFP_NOFS, "GFP_NOFS" },
	{ GFP_NOIO, "GFP_NOIO" },
	{ GFP_ATOMIC, "GFP_ATOMIC" },
};

/* Then every single bit left, in bit order. */
static const struct gfp_name gfp_bits[] = {
	{ __GFP_DMA, "__GFP_DMA" },
	{ __GFP_HIGHMEM, "__GFP_HIGHMEM" },
	{ __GFP_WAIT, "__GFP_WAIT" },
	{ __GFP_HIGH, "__GFP_HIGH" },
	{ __GFP_IO, "__GFP_IO" },
	{ __GFP_FS, "__GFP_FS" },
	{ __GFP_COLD, "__GFP_COLD" },
	{ __GFP_NOWARN, "__GFP_NOWARN" },
	{ __GFP_REPEAT, "__GFP_REPEAT" },
	{ __GFP_NOFAIL, "__GFP_NOFAIL" },
	{ __GFP_NORETRY, "__GFP_NORETRY" },
	{ __GFP_ZERO, "__GFP_ZERO" },
};

/* Appends s at *len, keeping what fits; *len counts the full length. */
static void put(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + 1 < size) {
		size_t room = size - 1 - *len;

		memcpy(buf + *len, s, n < room ? n : room);
	}
	*len += n;
}

int gfp_describe(char *buf, size_t size, gfp_t mask)
{
	size_t len = 0;
	char hex[2 + 8 + 1];
	size_t i;

	if (!mask)
		put(buf, size, &len, "GFP_NOWAIT");
	for (i = 0; i < ARRAY_SIZE(gfp_composites); i++) {
		if ((mask & gfp_composites[i].mask) == gfp_composites[i].mask) {
			put(buf, size, &len, gfp_composites[i].name);
			mask &= ~gfp_composites[i].mask;
			break;
		}
	}
	for (i = 0; i < ARRAY_SIZE(gfp_bits); i++) {
		if (!(mask & gfp_bits[i].mask))
			continue;
		if (len)
			put(buf, size, &len, "|");
		put(buf, size, &len, gfp_bits[i].name);
		mask &= ~gfp_bits[i].mask;
	}
	if (mask) {
		if (len)
			put(buf, size, &len, "|");
		snprintf(hex, sizeof(hex), "%#x", mask);
		put(buf, size, &len, hex);
	}
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return (int)len;
}
