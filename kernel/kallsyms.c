/*
 * kernel/kallsyms.c - the kernel's own symbol table.
 *
 * The build links the kernel twice: the first image's text symbols
 * (tools/kallsyms.py over nm) become a sorted table in .rodata of the
 * second, so an oops can say "page_alloc+0x1c/0x80" instead of a bare
 * address.  The table is referenced weakly: in the first link it does not
 * exist and its address is NULL.  A symbol's size is the distance to the
 * next one.
 */
#include "kernel/kallsyms.h"
#include "kernel/sections.h"
#include "lib/compiler.h"
#include "lib/sprintf.h"

extern const unsigned long kallsyms_num __weak;
extern const unsigned long kallsyms_addresses[] __weak;
extern const char *const kallsyms_names[] __weak;

bool kallsyms_lookup(unsigned long addr, char *buf, size_t len)
{
	unsigned long lo = 0, hi, size;

	if (!&kallsyms_num)
		return false;
	hi = kallsyms_num;
	if (!hi || addr < kallsyms_addresses[0] ||
	    addr >= (unsigned long)__text_end)
		return false;
	/* The last symbol at or below addr. */
	while (hi - lo > 1) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (kallsyms_addresses[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	size = (lo + 1 < kallsyms_num ? kallsyms_addresses[lo + 1] :
					(unsigned long)__text_end) -
	       kallsyms_addresses[lo];
	snprintf(buf, len, "%s+%#lx/%#lx", kallsyms_names[lo],
		 addr - kallsyms_addresses[lo], size);
	return true;
}
