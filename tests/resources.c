/*
 * tests/resources.c - the counters every test case must leave as it found
 * them.  ktest snapshots each before a case and compares after it, so a
 * case that leaks pages fails by name.
 */
#include "mm/mmzone.h"
#include "tests/ktest.h"

/* Free pages wherever they are: the buddy lists and the per-CPU lists. */
static long free_pages_count(void)
{
	return (long)(nr_free_pages() + nr_pcp_pages());
}
KTEST_RESOURCE(free_pages, "free pages", free_pages_count);
