/*
 * tests/snapshot_test.c - the memory snapshots (mm/snapshot.c).
 *
 * The encoder is checked on made-up states, text for text.  The live
 * snapshot is captured through a sink of the test's own, decoded run by
 * run, and held against what the allocator's own structures say: the
 * zones' free counts, the per-CPU lists, the slab layer's pages, the
 * kernel image, mem_map's frames and the page tables (the last two found
 * here independently, from the page tables themselves), and an
 * allocation the case makes.  The suite runs on a quiet machine (only the
 * tick and an idle kswapd), so the counts must agree exactly.
 */
#include "asm/pgtable.h"
#include "kernel/arch.h"
#include "kernel/cmdline.h"
#include "lib/sort.h"
#include "lib/sprintf.h"
#include "lib/string.h"
#include "mm/gfp.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"
#include "mm/snapshot.h"
#include "mm/topology.h"
#include "tests/ktest.h"

/* ---- a sink that keeps lines (for the encoder's cases) ---------------- */

#define KEEP_LINES 64
#define KEEP_LINE_LEN 256

static struct {
	struct mmsnap_sink sink;
	unsigned int n;
	bool overflow;
	char line[KEEP_LINES][KEEP_LINE_LEN];
} kept;

static void keep_line(struct mmsnap_sink *sink, const char *text)
{
	if (kept.n == KEEP_LINES || strlen(text) >= KEEP_LINE_LEN) {
		kept.overflow = true;
		return;
	}
	strscpy(kept.line[kept.n++], text, KEEP_LINE_LEN);
}

static void keep_reset(void)
{
	memset(&kept, 0, sizeof(kept));
	kept.sink.line = keep_line;
}

static struct mmsnap_rle enc;

/* A decimal number at *p, which is moved past it. */
static unsigned long parse_ul(const char **p)
{
	unsigned long v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + (unsigned long)(*(*p)++ - '0');
	return v;
}

/* ---- the encoder, on made-up states ----------------------------------- */

static void encode_states(const char *states, unsigned long start)
{
	keep_reset();
	mmsnap_rle_init(&enc, &kept.sink, start);
	for (const char *s = states; *s; s++)
		mmsnap_rle_add(&enc, *s, 1);
	mmsnap_rle_finish(&enc);
}

static void rle_merges_runs_and_omits_length_one(struct ktest *t)
{
	encode_states("xxxRKKKaabPPPPPPPPPPPPU", 0);
	KTEST_ASSERT_EQ(t, kept.n, 1u);
	KTEST_EXPECT_STREQ(t, kept.line[0], "pages 0 x3RK3a2bP12U");
	KTEST_EXPECT_EQ(t, enc.runs, 7ul);
	KTEST_EXPECT_EQ(t, enc.pages, 23ul);

	/* Runs fed in pieces merge; a run of one has no length. */
	keep_reset();
	mmsnap_rle_init(&enc, &kept.sink, 7);
	mmsnap_rle_add(&enc, 'k', 1024);
	mmsnap_rle_add(&enc, 'k', 1024);
	mmsnap_rle_add(&enc, 'U', 0);
	mmsnap_rle_add(&enc, 'S', 1);
	mmsnap_rle_add(&enc, 'k', 3);
	mmsnap_rle_finish(&enc);
	KTEST_ASSERT_EQ(t, kept.n, 1u);
	KTEST_EXPECT_STREQ(t, kept.line[0], "pages 7 k2048Sk3");
	KTEST_EXPECT_EQ(t, enc.runs, 3ul);
	KTEST_EXPECT_EQ(t, enc.pages, 2052ul);

	/* Nothing fed: no line at all. */
	encode_states("", 0);
	KTEST_EXPECT_EQ(t, kept.n, 0u);
	KTEST_EXPECT_EQ(t, enc.runs, 0ul);
}

/* Made-up states: runs of pseudo-random codes and lengths 1..~40000. */
#define FAKE_RUNS 300
static char fake_code[FAKE_RUNS];
static unsigned long fake_len[FAKE_RUNS];

static void rle_breaks_lines_between_runs_only(struct ktest *t)
{
	static const char codes[] = "xRKMTabcdefghijkPSUH";
	unsigned long total = 0, pfn = 100, runs = 0;
	unsigned int r = 0;

	for (unsigned int i = 0; i < FAKE_RUNS; i++) {
		/* A code different from the previous one: no merging. */
		char c;

		do
			c = codes[ktest_random_below(t, sizeof(codes) - 1)];
		while (i && c == fake_code[i - 1]);
		fake_code[i] = c;
		fake_len[i] = 1 + (ktest_random(t) >> (ktest_random_below(t, 32)));
		fake_len[i] = 1 + fake_len[i] % 40000;
		if (ktest_random_below(t, 3) == 0)
			fake_len[i] = 1;
		total += fake_len[i];
	}
	keep_reset();
	mmsnap_rle_init(&enc, &kept.sink, 100);
	for (unsigned int i = 0; i < FAKE_RUNS; i++)
		mmsnap_rle_add(&enc, fake_code[i], fake_len[i]);
	mmsnap_rle_finish(&enc);
	KTEST_ASSERT_TRUE(t, !kept.overflow);
	KTEST_ASSERT_TRUE(t, kept.n > 2);
	KTEST_EXPECT_EQ(t, enc.runs, (unsigned long)FAKE_RUNS);
	KTEST_EXPECT_EQ(t, enc.pages, total);

	for (unsigned int l = 0; l < kept.n; l++) {
		const char *p = kept.line[l];
		unsigned long line_pfn;
		size_t width;

		KTEST_ASSERT_TRUE(t, !strncmp(p, "pages ", 6));
		p += 6;
		line_pfn = parse_ul(&p);
		/* Each line starts where the one before stopped. */
		KTEST_EXPECT_EQ(t, line_pfn, pfn);
		KTEST_ASSERT_TRUE(t, *p == ' ');
		p++;
		width = strlen(p);
		KTEST_EXPECT_LE(t, width, (size_t)MMSNAP_RUNS_MAX);
		while (*p) {
			char c = *p++;
			unsigned long len = (*p >= '0' && *p <= '9') ?
						    parse_ul(&p) : 1;

			KTEST_ASSERT_TRUE(t, r < FAKE_RUNS);
			/* Whole runs only: a split run would differ here. */
			KTEST_EXPECT_EQ(t, c, fake_code[r]);
			KTEST_EXPECT_EQ(t, len, fake_len[r]);
			pfn += len;
			r++;
			runs++;
		}
		/* A line breaks only when the next run would not fit. */
		if (l + 1 < kept.n && r < FAKE_RUNS) {
			char next[24];
			int n = fake_len[r] == 1 ?
					snprintf(next, sizeof(next), "%c", fake_code[r]) :
					snprintf(next, sizeof(next), "%c%lu",
						 fake_code[r], fake_len[r]);

			KTEST_EXPECT_TRUE(t, width + (size_t)n > MMSNAP_RUNS_MAX);
		}
	}
	KTEST_EXPECT_EQ(t, runs, (unsigned long)FAKE_RUNS);
	KTEST_EXPECT_EQ(t, pfn, 100 + total);
}

/* ---- the live snapshot, decoded --------------------------------------- */

/* The test's own lists: page tables and mem_map frames, sorted. */
#define MAX_PT 1025
#define MAX_FRAMES 8192
static unsigned long pt[MAX_PT], nr_pt;
static unsigned long frames[MAX_FRAMES], nr_frames;

static void note_page_table(unsigned long pfn, void *unused)
{
	for (unsigned long i = 0; i < nr_pt; i++)
		if (pt[i] == pfn)
			return;
	if (nr_pt < MAX_PT)
		pt[nr_pt++] = pfn;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static bool in_sorted(const unsigned long *v, unsigned long n, unsigned long x)
{
	unsigned long lo = 0, hi = n;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (v[mid] == x)
			return true;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static void find_page_tables_and_frames(struct ktest *t)
{
	unsigned long bytes = ALIGN(max_pfn * sizeof(struct page), PAGE_SIZE);

	nr_pt = 0;
	arch_for_each_page_table(note_page_table, NULL);
	KTEST_ASSERT_TRUE(t, nr_pt < MAX_PT);
	sort(pt, nr_pt, sizeof(pt[0]), cmp_ul, NULL);
	nr_frames = 0;
	for (unsigned long off = 0; off < bytes; off += PAGE_SIZE) {
		phys_addr_t pa = kernel_page_phys((unsigned long)mem_map + off);

		KTEST_ASSERT_TRUE(t, pa != ~(phys_addr_t)0);
		KTEST_ASSERT_TRUE(t, nr_frames < MAX_FRAMES);
		frames[nr_frames++] = PFN_DOWN(pa);
	}
	sort(frames, nr_frames, sizeof(frames[0]), cmp_ul, NULL);
	for (unsigned long i = 1; i < nr_frames; i++)
		KTEST_ASSERT_TRUE(t, frames[i] != frames[i - 1]);
}

#define WATCH_MAX 16

static struct {
	struct mmsnap_sink sink;
	/* the page map */
	unsigned long next_pfn, runs, pages, bad_lines, bad_codes;
	unsigned long code_pages[128];
	unsigned long zone_free[MAX_NUMNODES][MAX_NR_ZONES][MAX_ORDER];
	/* the kernel image, mem_map, page tables */
	unsigned long img_start, img_end, img_k, img_t_pt, img_other, k_out;
	unsigned long m_not_frame, t_not_pt;
	/* pages [watch, watch + WATCH_MAX) */
	unsigned long watch;
	char watch_code[WATCH_MAX];
	/* the other lines */
	bool begin, end;
	unsigned long end_runs, end_pages;
	unsigned long free_line[MAX_NUMNODES][MAX_NR_ZONES][MAX_ORDER];
	bool free_seen[MAX_NUMNODES][MAX_NR_ZONES];
	unsigned long pcp_lines_sum;
	unsigned long kernel_line_start, kernel_line_end, mem_map_line_pages;
} live;

static int zone_index(const char *name, size_t len)
{
	for (int j = 0; j < MAX_NR_ZONES; j++)
		if (strlen(zone_names[j]) == len &&
		    !strncmp(zone_names[j], name, len))
			return j;
	return -1;
}

static unsigned long parse_hex(const char **p)
{
	unsigned long v = 0;

	if ((*p)[0] == '0' && (*p)[1] == 'x')
		*p += 2;
	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned long)(c - 'a' + 10);
		else
			return v;
	}
}

static void live_run(unsigned long start, unsigned long n, char code)
{
	unsigned long end = start + n;

	live.code_pages[(unsigned char)code & 127] += n;
	if (!((code >= 'a' && code <= 'k') || code == 'P' || code == 'x' ||
	      code == 'R' || code == 'K' || code == 'M' || code == 'T' ||
	      code == 'S' || code == 'U' || code == 'H'))
		live.bad_codes++;
	if (code >= 'a' && code <= 'k')
		for (unsigned long pfn = start; pfn < end && pfn < max_pfn; pfn++) {
			const struct page *page = pfn_to_page(pfn);

			live.zone_free[page_to_nid(page)][page_zonenum(page)]
				      [code - 'a']++;
		}
	for (unsigned long pfn = start; pfn < end; pfn++) {
		bool in_img = pfn >= live.img_start && pfn < live.img_end;

		if (pfn >= live.watch && pfn < live.watch + WATCH_MAX)
			live.watch_code[pfn - live.watch] = code;
		if (in_img && code == 'K')
			live.img_k++;
		else if (in_img && code == 'T' && in_sorted(pt, nr_pt, pfn))
			live.img_t_pt++;
		else if (in_img)
			live.img_other++;
		else if (code == 'K')
			live.k_out++;
		if (code == 'M' && !in_sorted(frames, nr_frames, pfn))
			live.m_not_frame++;
		if (code == 'T' && !in_sorted(pt, nr_pt, pfn))
			live.t_not_pt++;
	}
}

static void live_pages_line(const char *p)
{
	unsigned long pfn = parse_ul(&p);

	if (pfn != live.next_pfn || *p != ' ') {
		live.bad_lines++;
		return;
	}
	p++;
	while (*p) {
		char code = *p++;
		unsigned long len = (*p >= '0' && *p <= '9') ? parse_ul(&p) : 1;

		if (!len) {
			live.bad_lines++;
			return;
		}
		live_run(pfn, len, code);
		pfn += len;
		live.runs++;
		live.pages += len;
	}
	live.next_pfn = pfn;
}

static void live_line(struct mmsnap_sink *sink, const char *text)
{
	const char *p = text;

	if (!strncmp(p, "pages ", 6)) {
		live_pages_line(p + 6);
	} else if (!strncmp(p, "begin ", 6)) {
		live.begin = true;
	} else if (!strncmp(p, "end ", 4)) {
		p += 4;
		parse_ul(&p);
		if (!strncmp(p, " runs=", 6)) {
			p += 6;
			live.end_runs = parse_ul(&p);
		}
		if (!strncmp(p, " pages=", 7)) {
			p += 7;
			live.end_pages = parse_ul(&p);
			live.end = true;
		}
	} else if (!strncmp(p, "free ", 5)) {
		unsigned long nid;
		const char *name;
		int j;

		p += 5;
		nid = parse_ul(&p);
		name = ++p;
		while (*p && *p != ' ')
			p++;
		j = zone_index(name, (size_t)(p - name));
		if (j < 0 || nid >= MAX_NUMNODES) {
			live.bad_lines++;
			return;
		}
		live.free_seen[nid][j] = true;
		for (int k = 0; k < MAX_ORDER; k++) {
			p++;
			live.free_line[nid][j][k] = parse_ul(&p);
		}
	} else if (!strncmp(p, "pcp ", 4)) {
		const char *hot = strstr(p, " hot="), *cold = strstr(p, " cold=");

		if (!hot || !cold) {
			live.bad_lines++;
			return;
		}
		hot += 5;
		cold += 6;
		live.pcp_lines_sum += parse_ul(&hot) + parse_ul(&cold);
	} else if (!strncmp(p, "kernel ", 7)) {
		p += 7;
		live.kernel_line_start = parse_hex(&p);
		p++;
		live.kernel_line_end = parse_hex(&p);
	} else if (!strncmp(p, "mem_map ", 8)) {
		unsigned long s, e;

		p += 8;
		s = parse_hex(&p);
		p++;
		e = parse_hex(&p);
		live.mem_map_line_pages += (e - s) >> PAGE_SHIFT;
	}
}

/* A snapshot of the live system, decoded into live; watch: a pfn to see. */
static void capture_live(struct ktest *t, unsigned long watch)
{
	phys_addr_t ks, ke;

	find_page_tables_and_frames(t);
	memset(&live, 0, sizeof(live));
	live.sink.line = live_line;
	live.watch = watch;
	arch_kernel_image(&ks, &ke);
	if (ke > ks) {
		live.img_start = PFN_DOWN(ks);
		live.img_end = PFN_UP(ke);
	}
	mm_snapshot_write(&live.sink, "test", true);
	KTEST_ASSERT_TRUE(t, live.begin);
	KTEST_ASSERT_TRUE(t, live.end);
	KTEST_EXPECT_EQ(t, live.bad_lines, 0ul);
	KTEST_EXPECT_EQ(t, live.bad_codes, 0ul);
}

static void pages_lines_cover_every_pfn_once(struct ktest *t)
{
	capture_live(t, 0);
	KTEST_EXPECT_EQ(t, live.next_pfn, max_pfn);
	KTEST_EXPECT_EQ(t, live.pages, max_pfn);
	KTEST_EXPECT_EQ(t, live.end_pages, max_pfn);
	KTEST_EXPECT_EQ(t, live.end_runs, live.runs);
}

static void free_codes_match_the_zones(struct ktest *t)
{
	struct zone *z;
	int nid;

	capture_live(t, 0);
	for_each_online_node(nid)
		for_each_zone_in_node(z, NODE_DATA(nid)) {
			unsigned long nr_free[MAX_ORDER], free, pages = 0, flags;
			int j = zone_idx(z);

			spin_lock_irqsave(&z->lock, flags);
			for (int k = 0; k < MAX_ORDER; k++)
				nr_free[k] = z->free_area[k].nr_free;
			free = z->free_pages;
			spin_unlock_irqrestore(&z->lock, flags);

			KTEST_EXPECT_EQ(t, live.free_seen[nid][j],
					populated_zone(z));
			for (int k = 0; k < MAX_ORDER; k++) {
				KTEST_EXPECT_EQ(t, live.zone_free[nid][j][k],
						nr_free[k] << k);
				KTEST_EXPECT_EQ(t, live.free_line[nid][j][k],
						nr_free[k]);
				pages += live.zone_free[nid][j][k];
			}
			KTEST_EXPECT_EQ(t, pages, free);
		}
}

static void pcp_and_slab_pages_match(struct ktest *t)
{
	capture_live(t, 0);
	KTEST_EXPECT_EQ(t, live.code_pages['P'], nr_pcp_pages());
	KTEST_EXPECT_EQ(t, live.pcp_lines_sum, nr_pcp_pages());
	KTEST_EXPECT_EQ(t, live.code_pages['S'], slab_total_pages());
}

static void kernel_mem_map_and_page_tables(struct ktest *t)
{
	phys_addr_t ks, ke;

	capture_live(t, 0);
	arch_kernel_image(&ks, &ke);
	/* The image: K but for the page tables inside it; K nowhere else. */
	KTEST_EXPECT_EQ(t, live.img_k + live.img_t_pt,
			live.img_end - live.img_start);
	KTEST_EXPECT_EQ(t, live.img_other, 0ul);
	KTEST_EXPECT_EQ(t, live.k_out, 0ul);
	KTEST_EXPECT_EQ(t, live.kernel_line_start,
			(unsigned long)live.img_start << PAGE_SHIFT);
	KTEST_EXPECT_EQ(t, live.kernel_line_end,
			(unsigned long)live.img_end << PAGE_SHIFT);
	if (ke > ks)
		KTEST_EXPECT_TRUE(t, live.img_k > 0);
	/* mem_map: exactly its frames. */
	KTEST_EXPECT_EQ(t, live.code_pages['M'], nr_frames);
	KTEST_EXPECT_EQ(t, live.m_not_frame, 0ul);
	KTEST_EXPECT_EQ(t, live.mem_map_line_pages, nr_frames);
	/* Page tables: exactly those the directory leads to. */
	KTEST_EXPECT_EQ(t, live.code_pages['T'], nr_pt);
	KTEST_EXPECT_EQ(t, live.t_not_pt, 0ul);
	KTEST_EXPECT_EQ(t, mmsnap_nr_page_tables(), nr_pt);
}

/*
 * An allocation of order 3 on node nid shows as 8 pages of U (H in
 * highmem: want says which zone it must have come from), then free.
 */
static void check_order3(struct ktest *t, int nid, gfp_t gfp, char want)
{
	struct page *page = alloc_pages_node(nid, gfp | __GFP_NOWARN, 3);
	unsigned long pfn, nr = 0, order;
	char code;

	KTEST_ASSERT_NOT_NULL(t, page);
	KTEST_EXPECT_EQ(t, PageHighMem(page), want == 'H');
	pfn = page_to_pfn(page);
	capture_live(t, pfn);
	for (int i = 0; i < 8; i++)
		KTEST_EXPECT_EQ(t, live.watch_code[i], want);
	code = mmsnap_page_state(pfn, &nr);
	KTEST_EXPECT_EQ(t, code, want);
	KTEST_EXPECT_EQ(t, nr, 8ul);
	/* Highmem allocations are rare at the named points: print one. */
	if (want == 'H')
		mm_snapshot("highmem_order3_held");

	__free_pages(page, 3);
	capture_live(t, pfn);
	code = live.watch_code[0];
	KTEST_ASSERT_TRUE(t, code >= 'd' && code <= 'k');
	/* The free block the page is in, by the allocator's own marks. */
	order = (unsigned long)(code - 'a');
	page = pfn_to_page(pfn & ~((1UL << order) - 1));
	KTEST_EXPECT_TRUE(t, PageBuddy(page));
	KTEST_EXPECT_EQ(t, page->private, order);
	for (int i = 1; i < 8; i++)
		KTEST_EXPECT_EQ(t, live.watch_code[i], code);
}

static void allocation_shows_then_frees(struct ktest *t)
{
	struct page *page;
	unsigned long pfn, nr = 0;

	int nid;

	check_order3(t, numa_node_id(), GFP_KERNEL, 'U');
	/*
	 * From a node with highmem: another node's HIGHUSER allocation takes
	 * its own lowmem before a remote node's highmem (node order).
	 */
	for_each_online_node(nid)
		if (populated_zone(&NODE_DATA(nid)->node_zones[ZONE_HIGHMEM]))
			check_order3(t, nid, GFP_HIGHUSER, 'H');

	/* Order 0 is freed to this CPU's hot list. */
	page = alloc_page(GFP_KERNEL);
	KTEST_ASSERT_NOT_NULL(t, page);
	pfn = page_to_pfn(page);
	KTEST_EXPECT_EQ(t, mmsnap_page_state(pfn, &nr), 'U');
	KTEST_EXPECT_EQ(t, nr, 1ul);
	__free_page(page);
	KTEST_EXPECT_TRUE(t, PagePcp(page));
	KTEST_EXPECT_EQ(t, mmsnap_page_state(pfn, &nr), 'P');
	KTEST_EXPECT_EQ(t, nr, 1ul);
}

/* mmsnap= through the command-line engine, as at boot. */
static int parse_mmsnap(const char *args)
{
	return parse_args(args, __start_setup_params,
			  (size_t)(__stop_setup_params - __start_setup_params),
			  CMDLINE_PASS_LATE, NULL, NULL);
}

static void mmsnap_param_chooses_points(struct ktest *t)
{
	unsigned int saved = mmsnap_points;

	KTEST_EXPECT_EQ(t, parse_mmsnap("mmsnap=boot,case"), 0);
	KTEST_EXPECT_EQ(t, mmsnap_points, (unsigned int)(MMSNAP_BOOT | MMSNAP_CASE));
	KTEST_EXPECT_EQ(t, parse_mmsnap("mmsnap=all"), 0);
	KTEST_EXPECT_EQ(t, mmsnap_points, (unsigned int)MMSNAP_ALL);
	KTEST_EXPECT_EQ(t, parse_mmsnap("mmsnap=suite,end"), 0);
	KTEST_EXPECT_EQ(t, mmsnap_points, (unsigned int)(MMSNAP_SUITE | MMSNAP_END));
	/* A bad value is an error and changes nothing. */
	KTEST_EXPECT_EQ(t, parse_mmsnap("mmsnap=boot,sometimes"), 1);
	KTEST_EXPECT_EQ(t, mmsnap_points, (unsigned int)(MMSNAP_SUITE | MMSNAP_END));
	KTEST_EXPECT_EQ(t, parse_mmsnap("mmsnap="), 1);
	KTEST_EXPECT_EQ(t, mmsnap_points, (unsigned int)(MMSNAP_SUITE | MMSNAP_END));
	KTEST_EXPECT_EQ(t, parse_mmsnap("mmsnap=off"), 0);
	KTEST_EXPECT_EQ(t, mmsnap_points, 0u);
	mmsnap_points = saved;
}

static const struct ktest_case snapshot_cases[] = {
	KTEST_CASE(mmsnap_param_chooses_points),
	KTEST_CASE(rle_merges_runs_and_omits_length_one),
	KTEST_CASE(rle_breaks_lines_between_runs_only),
	KTEST_CASE(pages_lines_cover_every_pfn_once),
	KTEST_CASE(free_codes_match_the_zones),
	KTEST_CASE(pcp_and_slab_pages_match),
	KTEST_CASE(kernel_mem_map_and_page_tables),
	KTEST_CASE(allocation_shows_then_frees),
	KTEST_END,
};

static struct ktest_suite snapshot_suite = {
	.name = "snapshot",
	.cases = snapshot_cases,
};
KTEST_SUITE(snapshot_suite);
