/*
 * lib/sort.h - Linux's in-place array sort.
 */
#ifndef LIB_SORT_H
#define LIB_SORT_H

#include "lib/types.h"

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef void (*swap_func_t)(void *a, void *b, int size);

/*
 * sort - sort num elements of size bytes at base, in place.
 * @cmp: negative, zero or positive as a is less than, equal to or greater
 *	 than b.
 * @swap: exchanges two elements; NULL picks a generic one (word-wise when
 *	  base and size allow it).
 *
 * A heapsort: O(n log n) in the worst case, no recursion, no allocation,
 * and not stable.
 */
void sort(void *base, size_t num, size_t size, cmp_func_t cmp,
	  swap_func_t swap);

#endif /* LIB_SORT_H */
