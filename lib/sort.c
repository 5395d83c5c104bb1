/*
 * lib/sort.c - heapsort, in the "bottom-up" form Linux uses.
 *
 * The array is first arranged as a binary max-heap (element i has
 * children 2i + 1 and 2i + 2 and compares >= both); then the root, the
 * maximum, is repeatedly swapped to the end and the heap shrunk by one.
 *
 * Sifting an element down, the bottom-up variant first follows the
 * larger child all the way to a leaf (one compare per level), then climbs
 * back to where the element belongs and rotates the path.  Elements
 * usually belong near the leaves, so this needs about half the compares
 * of the textbook sift-down, and cmp is the expensive part.
 *
 * Loop invariant: elements [a, n) form a heap, elements [n, num) are the
 * largest ones, sorted.  Indices count elements, not bytes: the only
 * products are i * size with i < num, which address the array itself.
 */
#include "lib/sort.h"

#include "lib/compiler.h"

/* Word accessors that may alias whatever the caller's elements are. */
typedef u32 __attribute__((__may_alias__)) u32_alias;
typedef u64 __attribute__((__may_alias__)) u64_alias;

static void swap_words_32(void *a, void *b, int size)
{
	u32_alias *x = a, *y = b;

	for (; size > 0; size -= 4, x++, y++) {
		u32 t = *x;

		*x = *y;
		*y = t;
	}
}

static void swap_words_64(void *a, void *b, int size)
{
	u64_alias *x = a, *y = b;

	for (; size > 0; size -= 8, x++, y++) {
		u64 t = *x;

		*x = *y;
		*y = t;
	}
}

static void swap_bytes(void *a, void *b, int size)
{
	u8 *x = a, *y = b;

	for (; size > 0; size--, x++, y++) {
		u8 t = *x;

		*x = *y;
		*y = t;
	}
}

/* The widest generic swap that base's alignment and size allow. */
static swap_func_t pick_swap(const void *base, size_t size)
{
	uintptr_t align = (uintptr_t)base | size;

	if (sizeof(long) == 8 && !(align & 7))
		return swap_words_64;
	if (!(align & 3))
		return swap_words_32;
	return swap_bytes;
}

void sort(void *base, size_t num, size_t size, cmp_func_t cmp,
	  swap_func_t swap)
{
	char *b = base;
	size_t a = num / 2;	/* heap build starts at the last parent */
	size_t n = num;

#define ELEM(i) (b + (i) * size)

	if (num < 2 || size == 0)
		return;
	if (!swap)
		swap = pick_swap(base, size);

	for (;;) {
		size_t i, child;

		if (a > 0) {
			a--;			/* building: sift down a */
		} else if (--n > 0) {
			swap(ELEM(0), ELEM(n), (int)size); /* extract max */
		} else {
			break;
		}

		/* Down the path of larger children to a leaf of [0, n). */
		for (i = a; (child = 2 * i + 1) + 1 < n;)
			i = cmp(ELEM(child), ELEM(child + 1)) >= 0 ?
				child : child + 1;
		if (child < n)		/* last leaf without a sibling */
			i = child;

		/* Back up to the first element not smaller than a's. */
		while (i != a && cmp(ELEM(a), ELEM(i)) >= 0)
			i = (i - 1) / 2;

		/* Rotate a's value down into place along the path. */
		child = i;
		while (i != a) {
			i = (i - 1) / 2;
			swap(ELEM(i), ELEM(child), (int)size);
		}
	}
#undef ELEM
}
