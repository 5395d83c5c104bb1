/*
 * mm/memblock.c - the boot-time physical memory allocator.
 *
 * Before the buddy allocator exists the kernel still needs memory: page
 * tables, mem_map, per-node data.  memblock keeps two lists of physical
 * ranges, memory (RAM) and reserved (RAM in use), and allocates by finding
 * a stretch of memory outside reserved and reserving it.  When the page
 * allocator is ready, memblock_free_all() hands it every free page and
 * memblock retires.  Linux 2.6 did this with bootmem (a bitmap, one bit
 * per page, 2.6.11's mm/bootmem.c); this design is memblock's, which
 * x86 uses from 2.6.35 on (not re-checked against that release): no 2.6
 * allocation rule depends on it.
 *
 * Invariants, for each memblock_type after every call returns:
 *  - regions[0..cnt) are sorted by base, have size > 0, do not overlap;
 *  - no two neighbours are mergeable (abutting with the same nid);
 *  - total_size is the sum of the sizes;
 *  - cnt <= max: the arrays are static (INIT_MEMBLOCK_REGIONS each) and
 *    never grow.  A call that would need more room fails with -ENOMEM and
 *    a pr_err, having changed nothing.
 * Ranges are [base, base + size); a size that would run past the top of
 * the physical address space is cut there (memblock_cap_size).
 *
 * Differences from Linux, and why:
 *  - Linux grows a full array (memblock_double_array), so it can afford to
 *    insert first and merge afterwards, which briefly needs spare slots.
 *    Here every operation first counts exactly the slots its result needs,
 *    so that a full array still accepts what fits: an added piece that
 *    touches a same-node neighbour grows it instead of taking a slot
 *    (and merging happens before new regions are inserted), and removal
 *    splits a region directly instead of isolating the range.
 *    Only memblock_set_node_range() isolates and so needs room for up to
 *    two splits even when merging gives them back.
 *  - An empty type has cnt == 0 (Linux keeps one zero-sized dummy region).
 *  - Regions carry no flags (dumps print "flags: 0x0"); reserved regions
 *    are on node 0.
 *
 * After memblock_free_all() the global allocator refuses every change and
 * allocation with a WARN (Linux discards memblock's code and data after
 * boot); the queries and memblock_dump_all() keep working.  There is no
 * locking: only the boot CPU runs while memblock is in use.
 */
#include "mm/memblock.h"

#include "asm/page.h"
#include "kernel/bug.h"
#include "kernel/printk.h"
#include "lib/bitops.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/string.h"

static struct memblock_region
	memblock_memory_init_regions[INIT_MEMBLOCK_REGIONS];
static struct memblock_region
	memblock_reserved_init_regions[INIT_MEMBLOCK_REGIONS];

struct memblock memblock = {
	.memory.regions = memblock_memory_init_regions,
	.memory.max = INIT_MEMBLOCK_REGIONS,
	.memory.name = "memory",
	.reserved.regions = memblock_reserved_init_regions,
	.reserved.max = INIT_MEMBLOCK_REGIONS,
	.reserved.name = "reserved",
	.bottom_up = false,
	.current_limit = MEMBLOCK_ALLOC_ANYWHERE,
};

/* Set by memblock_free_all(): from then on the buddy allocator owns RAM. */
static bool memblock_retired;

/* A refused call on the retired global allocator: say which, and WARN. */
#define memblock_gone()                                                     \
	({                                                                   \
		bool after_free_all = memblock_retired;                      \
		if (unlikely(after_free_all))                                \
			pr_err("memblock: %s() after memblock_free_all()\n", \
			       __func__);                                    \
		WARN_ON(after_free_all);                                     \
	})

/* For "0x%016llx", which prints a phys_addr_t as Linux's %pa does. */
#define PA(x) ((unsigned long long)(x))

void memblock_init_instance(struct memblock *mb, struct memblock_region *mem,
			    unsigned long mem_max,
			    struct memblock_region *res,
			    unsigned long res_max)
{
	mb->bottom_up = false;
	mb->current_limit = MEMBLOCK_ALLOC_ANYWHERE;
	mb->memory = (struct memblock_type){
		.regions = mem, .max = mem_max, .name = "memory",
	};
	mb->reserved = (struct memblock_type){
		.regions = res, .max = res_max, .name = "reserved",
	};
}

/* ---- region array primitives ------------------------------------------ */

static phys_addr_t memblock_cap_size(phys_addr_t base, phys_addr_t size)
{
	return min(size, PHYS_ADDR_MAX - base);
}

static phys_addr_t rgn_end(const struct memblock_region *rgn)
{
	return rgn->base + rgn->size;
}

static void memblock_full(struct memblock_type *type, const char *what,
			  phys_addr_t base, phys_addr_t end)
{
	pr_err("memblock: %s array is full (%lu regions), cannot %s [0x%016llx-0x%016llx]\n",
	       type->name, type->max, what, PA(base), PA(end - 1));
}

/* Callers have checked that there is room. */
static void memblock_insert_region(struct memblock_type *type,
				   unsigned long idx, phys_addr_t base,
				   phys_addr_t size, int nid)
{
	struct memblock_region *rgn = &type->regions[idx];

	BUG_ON(type->cnt >= type->max);
	memmove(rgn + 1, rgn, (type->cnt - idx) * sizeof(*rgn));
	rgn->base = base;
	rgn->size = size;
	rgn->nid = nid;
	type->cnt++;
	type->total_size += size;
}

static void memblock_remove_region(struct memblock_type *type,
				   unsigned long idx)
{
	struct memblock_region *rgn = &type->regions[idx];

	type->total_size -= rgn->size;
	memmove(rgn, rgn + 1, (type->cnt - idx - 1) * sizeof(*rgn));
	type->cnt--;
}

/* Restores "no two mergeable neighbours" after regions grew or changed nid. */
static void memblock_merge_regions(struct memblock_type *type)
{
	unsigned long i = 0;

	while (i + 1 < type->cnt) {
		struct memblock_region *this = &type->regions[i];
		struct memblock_region *next = this + 1;

		if (rgn_end(this) != next->base || this->nid != next->nid) {
			BUG_ON(rgn_end(this) > next->base);
			i++;
			continue;
		}
		this->size += next->size;
		memmove(next, next + 1, (type->cnt - (i + 2)) * sizeof(*next));
		type->cnt--;
	}
}

/* ---- adding and removing ---------------------------------------------- */

enum place_mode {
	PLACE_COUNT,	/* change nothing */
	PLACE_GROW,	/* only grow neighbours */
	PLACE_INSERT,	/* grow, or insert a region of its own */
};

/*
 * The new piece [base, end) goes in front of regions[idx] (idx may be
 * cnt).  A piece that touches a neighbour of its node grows it instead of
 * taking a slot.  Returns the change in the region count once merged:
 * +1 for a region of its own, -1 when it closes the gap between two
 * regions of its node, else 0.
 */
static int memblock_place(struct memblock_type *type, unsigned long idx,
			  phys_addr_t base, phys_addr_t end, int nid,
			  enum place_mode mode)
{
	struct memblock_region *left = idx ? &type->regions[idx - 1] : NULL;
	struct memblock_region *right =
		idx < type->cnt ? &type->regions[idx] : NULL;
	bool to_left = left && rgn_end(left) == base && left->nid == nid;
	bool to_right = right && right->base == end && right->nid == nid;

	if (!to_left && !to_right) {
		if (mode == PLACE_INSERT)
			memblock_insert_region(type, idx, base, end - base,
					       nid);
		return 1;
	}
	if (mode != PLACE_COUNT) {
		if (to_left) {
			left->size += end - base;
		} else {
			right->base = base;
			right->size += end - base;
		}
		type->total_size += end - base;
	}
	return to_left && to_right ? -1 : 0;
}

/*
 * Linux's walk: the parts of [base, end) not yet in type are the pieces
 * between the existing regions (the overlapped parts keep their nids).
 * Returns the sum of memblock_place() over the pieces.  Every mode sees
 * the same pieces with the same neighbours: pieces never touch each
 * other, and growing a region moves only the edge facing the piece.
 */
static long memblock_add_pieces(struct memblock_type *type,
				phys_addr_t base, phys_addr_t end, int nid,
				enum place_mode mode)
{
	unsigned long idx;
	long change = 0;
	int c;

	for (idx = 0; idx < type->cnt; idx++) {
		phys_addr_t rbase = type->regions[idx].base;
		phys_addr_t rend = rgn_end(&type->regions[idx]);

		if (rbase >= end)
			break;
		if (rend <= base)
			continue;
		if (rbase > base) {
			c = memblock_place(type, idx, base, rbase, nid, mode);
			change += c;
			if (c == 1 && mode == PLACE_INSERT)
				idx++;	/* step over the new region */
		}
		base = min(rend, end);
	}
	if (base < end)
		change += memblock_place(type, idx, base, end, nid, mode);
	return change;
}

/*
 * Counts first, so that a full array fails cleanly and accepts whatever
 * fits.  Growing and merging before inserting frees the slots the
 * bridging pieces give back before the lone pieces take theirs; the lone
 * pieces then touch nothing of their node, so no merge follows.
 */
int memblock_add_range(struct memblock_type *type, phys_addr_t base,
		       phys_addr_t size, int nid)
{
	phys_addr_t end;
	long change;

	size = memblock_cap_size(base, size);
	if (!size)
		return 0;
	end = base + size;

	change = memblock_add_pieces(type, base, end, nid, PLACE_COUNT);
	if (change > 0 && (unsigned long)change > type->max - type->cnt) {
		memblock_full(type, "add", base, end);
		return -ENOMEM;
	}
	memblock_add_pieces(type, base, end, nid, PLACE_GROW);
	memblock_merge_regions(type);
	memblock_add_pieces(type, base, end, nid, PLACE_INSERT);
	return 0;
}

/*
 * Trims every region overlapping [base, end).  Only a region sticking out
 * on both sides needs a slot (for its upper part).  Removing cannot make
 * neighbours mergeable, so no merge pass.
 */
int memblock_remove_range(struct memblock_type *type, phys_addr_t base,
			  phys_addr_t size)
{
	unsigned long idx;
	phys_addr_t end;

	size = memblock_cap_size(base, size);
	if (!size)
		return 0;
	end = base + size;

	for (idx = 0; idx < type->cnt; idx++) {
		const struct memblock_region *rgn = &type->regions[idx];

		if (rgn->base < base && rgn_end(rgn) > end &&
		    type->cnt == type->max) {
			memblock_full(type, "remove", base, end);
			return -ENOMEM;
		}
	}

	idx = 0;
	while (idx < type->cnt) {
		struct memblock_region *rgn = &type->regions[idx];
		phys_addr_t rbase = rgn->base, rend = rgn_end(rgn);
		int nid = rgn->nid;

		if (rbase >= end)
			break;
		if (rend <= base) {
			idx++;
		} else if (rbase < base && rend > end) {
			rgn->size = base - rbase;
			type->total_size -= rend - base;
			memblock_insert_region(type, idx + 1, end, rend - end,
					       nid);
			break;
		} else if (rbase < base) {
			rgn->size = base - rbase;
			type->total_size -= rend - base;
			idx++;
		} else if (rend > end) {
			rgn->base = end;
			rgn->size = rend - end;
			type->total_size -= end - rbase;
			break;
		} else {
			memblock_remove_region(type, idx);
		}
	}
	return 0;
}

/*
 * Splits the regions straddling base or end, so that [base, end) is made
 * of whole regions, regions[*start_rgn .. *end_rgn) (an empty span when
 * nothing of type lies there).
 */
static int memblock_isolate_range(struct memblock_type *type,
				  phys_addr_t base, phys_addr_t size,
				  unsigned long *start_rgn,
				  unsigned long *end_rgn)
{
	unsigned long idx, need = 0;
	phys_addr_t end;

	*start_rgn = *end_rgn = 0;
	size = memblock_cap_size(base, size);
	if (!size)
		return 0;
	end = base + size;

	for (idx = 0; idx < type->cnt; idx++) {
		const struct memblock_region *rgn = &type->regions[idx];

		need += rgn->base < base && rgn_end(rgn) > base;
		need += rgn->base < end && rgn_end(rgn) > end;
	}
	if (need > type->max - type->cnt) {
		memblock_full(type, "split", base, end);
		return -ENOMEM;
	}

	idx = 0;
	while (idx < type->cnt) {
		struct memblock_region *rgn = &type->regions[idx];
		phys_addr_t rbase = rgn->base, rend = rgn_end(rgn);
		int nid = rgn->nid;

		if (rbase >= end)
			break;
		if (rend <= base) {
			idx++;
		} else if (rbase < base) {
			/* Split off the part below; go on with the rest. */
			rgn->base = base;
			rgn->size = rend - base;
			type->total_size -= base - rbase;
			memblock_insert_region(type, idx, rbase, base - rbase,
					       nid);
			idx++;
		} else if (rend > end) {
			/* Split off the part above; look at the rest again. */
			rgn->base = end;
			rgn->size = rend - end;
			type->total_size -= end - rbase;
			memblock_insert_region(type, idx, rbase, end - rbase,
					       nid);
		} else {
			if (!*end_rgn)
				*start_rgn = idx;
			*end_rgn = idx + 1;
			idx++;
		}
	}
	return 0;
}

int memblock_set_node_range(struct memblock_type *type, phys_addr_t base,
			    phys_addr_t size, int nid)
{
	unsigned long start_rgn, end_rgn, i;
	int ret;

	ret = memblock_isolate_range(type, base, size, &start_rgn, &end_rgn);
	if (ret)
		return ret;
	for (i = start_rgn; i < end_rgn; i++)
		type->regions[i].nid = nid;
	memblock_merge_regions(type);
	return 0;
}

/* ---- queries ------------------------------------------------------------ */

/* The index of the region holding addr, or -1. */
static long memblock_search(struct memblock_type *type, phys_addr_t addr)
{
	unsigned long lo = 0, hi = type->cnt;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		const struct memblock_region *rgn = &type->regions[mid];

		if (addr < rgn->base)
			hi = mid;
		else if (addr >= rgn_end(rgn))
			lo = mid + 1;
		else
			return (long)mid;
	}
	return -1;
}

bool memblock_overlaps_region(struct memblock_type *type, phys_addr_t base,
			      phys_addr_t size)
{
	phys_addr_t end = base + memblock_cap_size(base, size);
	unsigned long i;

	if (end == base)
		return false;	/* an empty range overlaps nothing */
	for (i = 0; i < type->cnt && type->regions[i].base < end; i++)
		if (rgn_end(&type->regions[i]) > base)
			return true;
	return false;
}

/*
 * Linux asks for a single region to hold the range; abutting regions of
 * different nodes are one stretch of RAM too, so follow them.
 */
bool memblock_covers_region(struct memblock_type *type, phys_addr_t base,
			    phys_addr_t size)
{
	phys_addr_t end = base + memblock_cap_size(base, size);
	long found = memblock_search(type, base);
	unsigned long i;
	phys_addr_t reach;

	if (found < 0)
		return false;
	i = (unsigned long)found;
	reach = rgn_end(&type->regions[i]);
	while (reach < end && ++i < type->cnt && type->regions[i].base == reach)
		reach = rgn_end(&type->regions[i]);
	return reach >= end;
}

/* ---- free range iteration --------------------------------------------- */

/*
 * Linux's __next_mem_range(): walk memory regions (index a) against the
 * gaps between reserved regions (index b; gap b lies below reserved[b],
 * gap cnt above the last one) and report their intersections.  Whichever
 * of the two ends first advances.  *idx packs a (low half) and b.
 */
void __next_free_mem_range(struct memblock *mb, u64 *idx,
			   phys_addr_t *out_start, phys_addr_t *out_end,
			   int *out_nid)
{
	struct memblock_type *mem = &mb->memory, *res = &mb->reserved;
	unsigned long a = (u32)*idx, b = (u32)(*idx >> 32);

	for (; a < mem->cnt; a++) {
		const struct memblock_region *m = &mem->regions[a];
		phys_addr_t m_start = m->base, m_end = rgn_end(m);

		for (; b < res->cnt + 1; b++) {
			phys_addr_t r_start, r_end;

			r_start = b ? rgn_end(&res->regions[b - 1]) : 0;
			r_end = b < res->cnt ? res->regions[b].base
					     : PHYS_ADDR_MAX;
			if (r_start >= m_end)
				break;
			if (r_start == r_end || m_start >= r_end)
				continue;
			if (out_start)
				*out_start = max(m_start, r_start);
			if (out_end)
				*out_end = min(m_end, r_end);
			if (out_nid)
				*out_nid = m->nid;
			if (m_end <= r_end)
				a++;
			else
				b++;
			*idx = (u64)a | (u64)b << 32;
			return;
		}
	}
	*idx = ~0ULL;
}

/* ---- allocation --------------------------------------------------------- */

phys_addr_t memblock_find_in_range(struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start,
				   phys_addr_t end)
{
	phys_addr_t this_start, this_end, cand, found = 0;
	u64 i;

	if (!size)
		return 0;
	if (!align)
		align = L1_CACHE_BYTES;	/* Linux's SMP_CACHE_BYTES default */
	if (WARN_ON(align & (align - 1)))
		return 0;
	if (end == MEMBLOCK_ALLOC_ACCESSIBLE)
		end = mb->current_limit;
	/* 0 is how failure reads, so page 0 is never handed out. */
	start = max(start, (phys_addr_t)PAGE_SIZE);
	end = max(start, end);

	/*
	 * Linux finds top-down by walking the free ranges in reverse and
	 * taking the first fit; keeping the last fit of a forward walk gives
	 * the same answer with one iterator.
	 */
	for_each_free_mem_range(i, mb, &this_start, &this_end, NULL) {
		this_start = clamp(this_start, start, end);
		this_end = clamp(this_end, start, end);
		if (mb->bottom_up) {
			cand = ALIGN(this_start, align);
			if (cand >= this_start && cand < this_end &&
			    this_end - cand >= size)
				return cand;
		} else if (this_end >= size) {
			cand = ALIGN_DOWN(this_end - size, align);
			if (cand >= this_start)
				found = cand;
		}
	}
	return found;
}

phys_addr_t memblock_alloc_range_in(struct memblock *mb, phys_addr_t size,
				    phys_addr_t align, phys_addr_t start,
				    phys_addr_t end)
{
	phys_addr_t found = memblock_find_in_range(mb, size, align, start, end);

	if (!found || memblock_add_range(&mb->reserved, found, size, 0))
		return 0;
	return found;
}

/* ---- handing memory to the buddy allocator ----------------------------- */

/*
 * Linux's __free_pages_memory(): at each pfn the largest block that is
 * naturally aligned there, fits before end and is at most MAX_ORDER - 1.
 * Page by page would cost the buddy allocator a merge cascade per page.
 */
static unsigned long memblock_free_pages_range(
	unsigned long start, unsigned long end,
	void (*release)(unsigned long pfn, unsigned int order, void *arg),
	void *arg)
{
	unsigned long count = end - start;

	while (start < end) {
		unsigned int order = MAX_ORDER - 1;

		if (start)
			order = min(order, (unsigned int)__ffs(start));
		order = min(order, (unsigned int)ilog2(end - start));
		release(start, order, arg);
		start += 1UL << order;
	}
	return count;
}

unsigned long __memblock_free_all(struct memblock *mb, phys_addr_t limit,
				  void (*release)(unsigned long pfn,
						  unsigned int order,
						  void *arg),
				  void *arg)
{
	phys_addr_t start, end, start_pfn, end_pfn;
	unsigned long count = 0;
	u64 i;

	/* pfns are unsigned long: on i386 they end at 2^32 pages. */
	if (sizeof(unsigned long) < sizeof(phys_addr_t))
		limit = min(limit, (phys_addr_t)~0UL << PAGE_SHIFT);
	for_each_free_mem_range(i, mb, &start, &end, NULL) {
		if (start >= limit)
			break;
		end = min(end, limit);
		/* Only whole pages: round inward. */
		start_pfn = (start >> PAGE_SHIFT) + !!(start & (PAGE_SIZE - 1));
		end_pfn = end >> PAGE_SHIFT;
		if (start_pfn >= end_pfn)
			continue;
		count += memblock_free_pages_range((unsigned long)start_pfn,
						   (unsigned long)end_pfn,
						   release, arg);
	}
	return count;
}

/* ---- dumping ------------------------------------------------------------ */

static void memblock_dump(struct memblock_type *type)
{
	unsigned long idx;

	pr_info(" %s.cnt  = 0x%lx\n", type->name, type->cnt);
	for (idx = 0; idx < type->cnt; idx++) {
		const struct memblock_region *rgn = &type->regions[idx];

		pr_info(" %s[0x%x]\t[0x%016llx-0x%016llx], 0x%016llx bytes on node %d flags: 0x%x\n",
			type->name, (unsigned int)idx, PA(rgn->base),
			PA(rgn_end(rgn) - 1), PA(rgn->size), rgn->nid, 0u);
	}
}

void __memblock_dump_all(struct memblock *mb)
{
	pr_info("MEMBLOCK configuration:\n");
	pr_info(" memory size = 0x%016llx reserved size = 0x%016llx\n",
		PA(mb->memory.total_size), PA(mb->reserved.total_size));
	memblock_dump(&mb->memory);
	memblock_dump(&mb->reserved);
}

/* ---- the global allocator ----------------------------------------------- */

int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid)
{
	if (memblock_gone())
		return -EPERM;
	return memblock_add_range(&memblock.memory, base, size, nid);
}

int memblock_remove(phys_addr_t base, phys_addr_t size)
{
	if (memblock_gone())
		return -EPERM;
	return memblock_remove_range(&memblock.memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	if (memblock_gone())
		return -EPERM;
	return memblock_add_range(&memblock.reserved, base, size, 0);
}

/* Linux 2.6 called it free_bootmem(). */
int memblock_phys_free(phys_addr_t base, phys_addr_t size)
{
	if (memblock_gone())
		return -EPERM;
	return memblock_remove_range(&memblock.reserved, base, size);
}

int memblock_set_node(phys_addr_t base, phys_addr_t size, int nid)
{
	if (memblock_gone())
		return -EPERM;
	return memblock_set_node_range(&memblock.memory, base, size, nid);
}

phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	if (memblock_gone())
		return 0;
	return memblock_alloc_range_in(&memblock, size, align, start, end);
}

/* Zeroed memory the kernel can address at once: below the linear map's end. */
void *memblock_alloc(phys_addr_t size, phys_addr_t align)
{
	phys_addr_t limit = min(memblock.current_limit, (phys_addr_t)MAXMEM);
	phys_addr_t pa;
	void *ptr;

	if (memblock_gone())
		return NULL;
	pa = memblock_alloc_range_in(&memblock, size, align, 0, limit);
	if (!pa) {
		pr_err("memblock_alloc: Failed to allocate %llu bytes align=0x%llx below 0x%016llx\n",
		       PA(size), PA(align), PA(limit));
		return NULL;
	}
	ptr = __va(pa);
	memset(ptr, 0, (size_t)size);
	return ptr;
}

static void memblock_release_to_buddy(unsigned long pfn, unsigned int order,
				      void *arg)
{
	memblock_free_pages(pfn, order);
}

unsigned long memblock_free_all(void)
{
	unsigned long pages;

	if (memblock_gone())
		return 0;
	pages = __memblock_free_all(&memblock, (phys_addr_t)1 << 32,
				    memblock_release_to_buddy, NULL);
	memblock_retired = true;
	return pages;
}
