/*
 * mm/memblock.h - the boot-time physical memory allocator (Linux's
 * memblock, newer than the 2.6 rules mm86 follows elsewhere; in 2.6.11
 * this job was done by bootmem).
 *
 * Two sorted lists of physical ranges: "memory" (RAM the firmware reported)
 * and "reserved" (RAM already in use: the kernel image, the boot loader's
 * data, early allocations).  Free memory is memory minus reserved.  Early
 * boot adds and reserves ranges, allocates page tables and mem_map from
 * it, then memblock_free_all() hands every free page to the buddy
 * allocator and memblock refuses all further changes.
 *
 * The operations that do the work take an explicit struct memblock (or
 * memblock_type), so that tests run on private instances; the functions
 * with Linux's global names are thin wrappers over the one global
 * instance, memblock.  See mm/memblock.c for the invariants.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include "lib/types.h"

#define INIT_MEMBLOCK_REGIONS 128

/* end argument: no upper limit / the allocator's current_limit. */
#define MEMBLOCK_ALLOC_ANYWHERE (~(phys_addr_t)0)
#define MEMBLOCK_ALLOC_ACCESSIBLE 0

#ifndef PHYS_ADDR_MAX
#define PHYS_ADDR_MAX (~(phys_addr_t)0)
#endif

/* The buddy allocator's order count (it owns the definition, mm/mmzone.h). */
#ifndef MAX_ORDER
#define MAX_ORDER 11
#endif

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
	int nid;
};

struct memblock_type {
	unsigned long cnt;	/* regions in use; 0 when empty */
	unsigned long max;	/* capacity of regions[]; never grows */
	phys_addr_t total_size;	/* sum of the regions' sizes */
	struct memblock_region *regions;
	const char *name;
};

struct memblock {
	bool bottom_up;		/* allocate from low addresses first */
	phys_addr_t current_limit; /* default end of memblock_phys_alloc() */
	struct memblock_type memory;
	struct memblock_type reserved;
};

extern struct memblock memblock;

/* ---- on an explicit instance (the implementation; tests use these) ---- */

void memblock_init_instance(struct memblock *mb, struct memblock_region *mem,
			    unsigned long mem_max,
			    struct memblock_region *res,
			    unsigned long res_max);

/* 0, or -ENOMEM (nothing changed) when regions[] has no room. */
int memblock_add_range(struct memblock_type *type, phys_addr_t base,
		       phys_addr_t size, int nid);
int memblock_remove_range(struct memblock_type *type, phys_addr_t base,
			  phys_addr_t size);
/* Tags the parts of [base, base + size) that are in type with nid. */
int memblock_set_node_range(struct memblock_type *type, phys_addr_t base,
			    phys_addr_t size, int nid);

/* Does [base, base + size) intersect any region of type?  Not if empty. */
bool memblock_overlaps_region(struct memblock_type *type, phys_addr_t base,
			      phys_addr_t size);
/*
 * Does type contain all of [base, base + size), without holes (abutting
 * regions of different nodes count as one)?  For size 0: is base in it?
 */
bool memblock_covers_region(struct memblock_type *type, phys_addr_t base,
			    phys_addr_t size);

/*
 * The start of the highest (lowest when mb->bottom_up) free range of size
 * bytes, aligned to align, inside [start, end); 0 when there is none.
 * Physical page 0 is never handed out.  align is a power of two (0 means
 * the cache line size); end may be MEMBLOCK_ALLOC_ANYWHERE or
 * MEMBLOCK_ALLOC_ACCESSIBLE (mb->current_limit).
 */
phys_addr_t memblock_find_in_range(struct memblock *mb, phys_addr_t size,
				   phys_addr_t align, phys_addr_t start,
				   phys_addr_t end);
/* memblock_find_in_range() and reserve what it found; 0 on failure. */
phys_addr_t memblock_alloc_range_in(struct memblock *mb, phys_addr_t size,
				    phys_addr_t align, phys_addr_t start,
				    phys_addr_t end);

/*
 * Iteration over free ranges (memory minus reserved), Linux style:
 *
 *	u64 i;
 *	phys_addr_t start, end;
 *	int nid;
 *
 *	for_each_free_mem_range(i, mb, &start, &end, &nid)
 *		...  [start, end) is free and lies on node nid
 *
 * Ranges come in ascending order, each a maximal free stretch of one
 * memory region.  Any out pointer may be NULL.  The body must not change
 * mb's regions.
 */
void __next_free_mem_range(struct memblock *mb, u64 *idx,
			   phys_addr_t *out_start, phys_addr_t *out_end,
			   int *out_nid);

#define for_each_free_mem_range(i, mb, p_start, p_end, p_nid)               \
	for ((i) = 0,                                                        \
	     __next_free_mem_range(mb, &(i), p_start, p_end, p_nid);          \
	     (i) != (u64)~0ULL;                                              \
	     __next_free_mem_range(mb, &(i), p_start, p_end, p_nid))

/*
 * Releases every whole free page below limit, in the largest naturally
 * aligned blocks (order <= MAX_ORDER - 1), through release(pfn, order,
 * arg).  Returns the number of pages released.  Changes nothing in mb.
 */
unsigned long __memblock_free_all(struct memblock *mb, phys_addr_t limit,
				  void (*release)(unsigned long pfn,
						  unsigned int order,
						  void *arg),
				  void *arg);

/* Prints mb in the format of memblock_dump_all(). */
void __memblock_dump_all(struct memblock *mb);

/* ---- the global allocator, Linux's API ---- */

/*
 * Changes and allocations: after memblock_free_all() they WARN and fail
 * (-EPERM, 0 or NULL).  The int ones return 0 or -ENOMEM otherwise.
 */
int memblock_add_node(phys_addr_t base, phys_addr_t size, int nid);
int memblock_remove(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);
/* Un-reserves a range: Linux 2.6's free_bootmem(). */
int memblock_phys_free(phys_addr_t base, phys_addr_t size);
/* Tags the memory in the range with nid, splitting regions as needed. */
int memblock_set_node(phys_addr_t base, phys_addr_t size, int nid);

/* Reserved physical address, or 0 when nothing fits. */
phys_addr_t memblock_phys_alloc_range(phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
/* Zeroed, below min(current_limit, MAXMEM), through __va; NULL + pr_err. */
void *memblock_alloc(phys_addr_t size, phys_addr_t align);

/* Hands all free pages below 4 GiB to the buddy allocator; see above. */
unsigned long memblock_free_all(void);

/* Provided by the page allocator: takes a free block of 2^order pages. */
extern void memblock_free_pages(unsigned long pfn, unsigned int order);

static inline int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return memblock_add_node(base, size, 0);
}

/* Below memblock.current_limit. */
static inline phys_addr_t memblock_phys_alloc(phys_addr_t size,
					      phys_addr_t align)
{
	return memblock_phys_alloc_range(size, align, 0,
					 MEMBLOCK_ALLOC_ACCESSIBLE);
}

static inline void memblock_set_current_limit(phys_addr_t limit)
{
	memblock.current_limit = limit;
}

/* Queries: valid before and after memblock_free_all(). */
static inline phys_addr_t memblock_phys_mem_size(void)
{
	return memblock.memory.total_size;
}

static inline phys_addr_t memblock_reserved_size(void)
{
	return memblock.reserved.total_size;
}

/* 0 while there is no memory. */
static inline phys_addr_t memblock_start_of_DRAM(void)
{
	return memblock.memory.cnt ? memblock.memory.regions[0].base : 0;
}

/* The end (exclusive) of the highest memory region; 0 without memory. */
static inline phys_addr_t memblock_end_of_DRAM(void)
{
	const struct memblock_type *m = &memblock.memory;

	return m->cnt ? m->regions[m->cnt - 1].base +
				m->regions[m->cnt - 1].size : 0;
}

static inline bool memblock_is_memory(phys_addr_t addr)
{
	return memblock_covers_region(&memblock.memory, addr, 1);
}

static inline bool memblock_is_reserved(phys_addr_t addr)
{
	return memblock_overlaps_region(&memblock.reserved, addr, 1);
}

/* All of the range is memory. */
static inline bool memblock_is_region_memory(phys_addr_t base,
					     phys_addr_t size)
{
	return memblock_covers_region(&memblock.memory, base, size);
}

/* Any part of the range is reserved (Linux's meaning). */
static inline bool memblock_is_region_reserved(phys_addr_t base,
					       phys_addr_t size)
{
	return memblock_overlaps_region(&memblock.reserved, base, size);
}

static inline void memblock_dump_all(void)
{
	__memblock_dump_all(&memblock);
}

#endif /* MM_MEMBLOCK_H */
