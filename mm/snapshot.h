/*
 * mm/snapshot.h - snapshots of physical memory, printed for the host's
 * pictures (the format is described at the top of mm/snapshot.c).
 *
 * mm_snapshot(label) is for tests: an on-demand snapshot, printed as
 * "case:SUITE.CASE:LABEL" when mmsnap= lets case snapshots through.  The
 * kernel's own points (boot, after each suite, end) go through
 * mm_snapshot_point().  mm_snapshot_write() sends a snapshot to any sink
 * (a test's buffer), and the run-length encoder and the page-state
 * classifier are exposed so that tests can check them on their own.
 *
 * Process context only (it may sleep on its mutex); never from an
 * interrupt.  Nothing is allocated: it works with memory exhausted.
 */
#ifndef MM_SNAPSHOT_H
#define MM_SNAPSHOT_H

#include "lib/types.h"

/* The points mmsnap= chooses among (a mask). */
enum mmsnap_point {
	MMSNAP_BOOT = 1 << 0,
	MMSNAP_SUITE = 1 << 1,
	MMSNAP_END = 1 << 2,
	MMSNAP_CASE = 1 << 3,
};
#define MMSNAP_ALL (MMSNAP_BOOT | MMSNAP_SUITE | MMSNAP_END | MMSNAP_CASE)

/*
 * Without mmsnap=: not after every suite, which costs about 0.4 s of a
 * 2-CPU TCG boot (34 snapshots); boot, end and the tests' own are cheap.
 */
#define MMSNAP_DEFAULT (MMSNAP_BOOT | MMSNAP_END | MMSNAP_CASE)

/* The points mmsnap= (or the default) lets through. */
extern unsigned int mmsnap_points;

/* Where snapshot lines go: one call per line, without "mmsnap: " or '\n'. */
struct mmsnap_sink {
	void (*line)(struct mmsnap_sink *sink, const char *text);
};

/* Longest RUNS part of a pages line, before it breaks (between runs). */
#define MMSNAP_RUNS_MAX 200

/*
 * The run-length encoder of the "pages" lines.  Feed it runs in pfn order
 * with mmsnap_rle_add() (equal neighbours merge), then mmsnap_rle_finish().
 */
struct mmsnap_rle {
	struct mmsnap_sink *sink;
	unsigned long line_pfn;	/* where the line being built starts */
	unsigned long next_pfn;	/* one past the last pfn fed in */
	char code;		/* the pending run's code; 0 when none */
	unsigned long count;	/* the pending run's length */
	unsigned long runs;	/* runs written so far */
	unsigned long pages;	/* pages in those runs */
	size_t len;		/* characters of RUNS in buf */
	char buf[MMSNAP_RUNS_MAX + 48];	/* "pages PFN ", RUNS, slack */
};
void mmsnap_rle_init(struct mmsnap_rle *r, struct mmsnap_sink *sink,
		     unsigned long start_pfn);
void mmsnap_rle_add(struct mmsnap_rle *r, char code, unsigned long n);
void mmsnap_rle_finish(struct mmsnap_rle *r);

/*
 * The state code of pfn (< max_pfn) and, in *nr, how many pages from pfn
 * on share it for certain (a buddy block or an allocation seen from its
 * head, a hole up to the next RAM): 1 at least, never past max_pfn.
 * mmsnap_prepare() must have run under the snapshot mutex (it finds the
 * page tables and mem_map's pages); mmsnap_page_state() takes that mutex.
 */
char mmsnap_page_state(unsigned long pfn, unsigned long *nr);

/* The page tables the architecture reports, counted (for the tests). */
unsigned long mmsnap_nr_page_tables(void);

/*
 * A whole snapshot to sink; physmap: with the physical-map section.  It is
 * not printed, so it does not count: its SEQ is the next printed one's.
 */
void mm_snapshot_write(struct mmsnap_sink *sink, const char *label,
		       bool physmap);
/* A snapshot printed at a named point, if mmsnap= lets point through. */
void mm_snapshot_point(enum mmsnap_point point, const char *label);
/* For tests: printed as "case:SUITE.CASE:LABEL" (LABEL: no spaces). */
void mm_snapshot(const char *label);
/*
 * The test runner says which case runs (NULLs: none), for mm_snapshot()'s
 * label; the names must outlive the case (they are the suite's own).
 */
void mm_snapshot_set_case(const char *suite, const char *name);

#endif /* MM_SNAPSHOT_H */
