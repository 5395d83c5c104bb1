/*
 * mm/vmstat.h - Linux's memory reports, printed to the kernel log.
 *
 * mm86 has no /proc, so each report is printed through printk (KERN_INFO,
 * one line per printk), preceded by a line naming the file it imitates
 * ("/proc/buddyinfo:") and followed by that file's lines exactly as Linux
 * prints them.  See mm/vmstat.c for the formats.
 *
 * None of these may be called with a zone->lock held: they take each
 * zone's lock in turn to copy its counters.
 */
#ifndef MM_VMSTAT_H
#define MM_VMSTAT_H

#include "lib/compiler.h"
#include "lib/types.h"

struct zone;

/* /proc/buddyinfo: one line per populated zone, free blocks per order. */
void show_buddyinfo(void);
/* /proc/zoneinfo: watermarks, sizes, protection and counters per zone. */
void show_zoneinfo(void);
/* /proc/meminfo: MemTotal, MemFree, HighTotal, HighFree, LowTotal, LowFree. */
void show_meminfo(void);
/* buddyinfo, zoneinfo and meminfo, in that order (make run, after tests). */
void show_mem_dumps(void);
/*
 * The page allocation failure summary ("Mem-Info:", per-zone lines,
 * buddy lines, page totals) is show_free_areas(), declared in
 * mm/internal.h for the allocator.
 */


/*
 * Pure formatters (no zone, no lock, no printing), so that tests can
 * check the bytes.  Both write a line WITHOUT its newline and behave
 * like snprintf: they return the length the whole line has (so
 * "ret >= size" means it was cut), store a NUL whenever size > 0, and
 * store nothing when size == 0.
 *
 * format_buddyinfo_line: "Node %d, zone %8s " then "%6lu " for each of
 * the MAX_ORDER entries of nr_free (so the line ends in a space):
 *	"Node 0, zone      DMA      1      1      0 ...      3 "
 *
 * format_meminfo_line: name is given WITHOUT its colon and kb in kB:
 * "%-16s%8lu kB" of "name:" ("MemTotal:         130680 kB").  A name too
 * long for that ("HardwareCorrupted") gets one space after its colon and
 * a narrower number field, so that the value still ends in column 24, as
 * Linux prints "HardwareCorrupted: %5lu kB".
 */
int format_buddyinfo_line(char *buf, size_t size, int nid,
			  const char *zone_name, const unsigned long *nr_free);
int format_meminfo_line(char *buf, size_t size, const char *name,
			unsigned long kb);

#endif /* MM_VMSTAT_H */
