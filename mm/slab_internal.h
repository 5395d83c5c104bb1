/*
 * mm/slab_internal.h - the slab allocator's data structures, shared by
 * mm/slab.c (caches and slabs), mm/slab_debug.c (poison, red zones, owner
 * tracking), mm/kmalloc.c and the tests.
 *
 * A slab is 2^gfporder pages holding num objects of buffer_size bytes,
 * starting colouroff bytes in, after the slab descriptor when it lives on
 * the slab:
 *
 *   page start | colour | struct slab | bufctl[num] | pad | obj 0 | obj 1 ...
 *                        (on-slab management only)          ^ s_mem
 *
 * bufctl[] links the free objects by index (slabp->free is the first,
 * BUFCTL_END ends the chain).  Every page of a slab has PG_slab and points
 * back at its cache and slab (page_get_cache/page_get_slab), which is how
 * kfree() finds both without being told a size.
 *
 * The structures are 2.6's: struct slab with bufctl[] after it (2.6.11),
 * a per-CPU struct array_cache (2.6.11) and a struct kmem_list3 of three
 * slab lists and a shared array_cache per node (2.6.14; the shared array
 * 2.6.11's).  kmem_bufctl_t is 16 bits here (2.6.11
 * used an unsigned int), which limits a slab to 65534 objects.
 *
 * An object with debugging on (buffer_size includes all of it):
 *
 *   | red zone 1 (8) | object (object_size, rounded to 8) | red zone 2 (8) |
 *   | last allocator (4) | last freer (4) |
 *   ^ the buffer       ^ obj_offset: what the caller gets
 *
 * It also holds the slab's fast paths, inline so that kmalloc and the
 * mempools inline them too (mm/slab.c's design comment).
 *
 * Comments "LAB <name>: BEGIN/STUB/END" mark the code a course lab takes
 * out of a student tree, and the stub it leaves (labs/<name>/README.md;
 * the format: tools/labtree.py).  Between them is the reference code.
 */
#ifndef MM_SLAB_INTERNAL_H
#define MM_SLAB_INTERNAL_H

#include "kernel/nr_cpus.h"
#include "kernel/mutex.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"
#include "lib/list.h"
#include "lib/string.h"
#include "mm/fault_inject.h"
#include "mm/mm.h"
#include "mm/mmzone.h"
#include "mm/slab.h"

/* Object indices: 16 bits keep the on-slab overhead at 2 bytes an object. */
typedef u16 kmem_bufctl_t;
#define BUFCTL_END ((kmem_bufctl_t)0xffff)
/*
 * slab_debug=F only: the bufctl of an object off its slab's free chain
 * says who has it - its caller (BUFCTL_ACTIVE, 2.6.17's name) or an
 * array, freed (BUFCTL_FREED) - so that a free finds a double free
 * exactly, wherever the first free left the object (mm/slab_debug.c).
 * Off the chain a bufctl is otherwise unused; no slab holds 0xfffd
 * objects.
 */
#define BUFCTL_ACTIVE ((kmem_bufctl_t)0xfffe)
#define BUFCTL_FREED ((kmem_bufctl_t)0xfffd)

/* One slab's descriptor (on the slab, or from a kmalloc cache). */
struct slab {
	struct list_head list;	/* on one of its node's three lists */
	unsigned long colouroff;
	void *s_mem;		/* the first object's buffer */
	unsigned int inuse;	/* objects handed out (arrays included) */
	kmem_bufctl_t free;	/* first free object, or BUFCTL_END */
	int nodeid;
	kmem_bufctl_t bufctl[];	/* num entries */
};

/*
 * A CPU's stack of free objects: entry[avail - 1] is the hottest.  A
 * CPU's array holds at most limit: 2.6's limit until a run of frees
 * grows it (mm/slab.c: cpu_array_grow), up to its cache's array_max, the
 * entries it has room for; free_run counts the objects of the run.  A
 * shared array's limit is fixed (its free_run stays 0).
 */
struct array_cache {
	unsigned int avail;
	unsigned int limit;
	unsigned int batchcount;
	unsigned int touched;
	unsigned int free_run;
	void *entry[];
};

/*
 * A node's slabs of one cache, and its shared array (2.6.11's l3->shared:
 * objects the node's CPUs flushed, for any of them to refill from;
 * NULL when the cache has none); list_lock protects all of it.
 */
struct kmem_list3 {
	spinlock_t list_lock;
	struct array_cache *shared;
	struct list_head slabs_partial;	/* some objects free */
	struct list_head slabs_full;	/* none free */
	struct list_head slabs_free;	/* all free */
	unsigned long free_objects;	/* in the slabs, not the arrays */
	unsigned long free_limit;	/* more free than this: give slabs back */
	unsigned long nr_slabs;
	unsigned int colour_next;	/* the colour of this node's next slab */
};

#define CFLGS_OFF_SLAB 0x80000000UL	/* descriptor lives off the slab */
#define CFLGS_KMALLOC 0x40000000UL	/* one of kmalloc's caches */

struct kmem_cache {
	struct array_cache *array[NR_CPUS];
	unsigned int batchcount;
	unsigned int limit;
	unsigned int shared;		/* a shared array holds shared * batchcount */
	unsigned int array_max;		/* the most a CPU's array may grow to */
	unsigned int arrays_order;	/* the arrays' block: room for array_max each,
					 * as it was at creation */

	unsigned int buffer_size;	/* bytes per object, debugging included */
	u32 reciprocal_buffer_size;	/* obj_to_index's divisor (2.6.22) */
	unsigned int object_size;	/* what the creator asked for */
	unsigned int obj_offset;	/* the caller's object within the buffer */
	unsigned int align;
	unsigned int num;		/* objects per slab */
	unsigned int gfporder;		/* pages per slab: 2^gfporder */
	gfp_t gfpflags;			/* __GFP_DMA for SLAB_CACHE_DMA */
	unsigned int colour;		/* colour offsets: 0 .. colour-1 */
	unsigned int colour_off;	/* bytes per colour step */
	unsigned int slab_size;		/* descriptor + bufctl[], aligned */
	struct kmem_cache *slabp_cache;	/* off-slab descriptors come from here */
	unsigned long flags;
	void (*ctor)(void *obj);
	const char *name;
	struct list_head next;		/* on cache_chain */

	struct kmem_list3 nodelists[MAX_NUMNODES];

	/*
	 * Statistics, for slabinfo and the tests.  Each node's list_lock
	 * covers only its own node and constructors run with no lock, so
	 * two CPUs may count at once: slab_stat_inc() adds atomically.
	 */
	unsigned long grown;		/* slabs made */
	unsigned long reaped;		/* slabs given back */
	unsigned long ctor_calls;
};

static inline void slab_stat_inc(unsigned long *stat)
{
	__atomic_fetch_add(stat, 1, __ATOMIC_RELAXED);
}

/*
 * The objects a CPU's array may hold, from the object size (2.6's rule);
 * not static, so that a tree whose setup_cache() no longer calls it, as
 * exercise 7 makes it, still builds.
 */
unsigned int slab_array_limit(unsigned int buffer_size);

extern struct list_head cache_chain;
extern struct mutex cache_chain_mutex;
extern struct kmem_cache cache_cache;

static inline struct kmem_cache *page_get_cache(const struct page *page)
{
	return (struct kmem_cache *)page->owner_data[0];
}

static inline struct slab *page_get_slab(const struct page *page)
{
	return (struct slab *)page->owner_data[1];
}

/* The object (caller's pointer) at index idx of slabp. */
static inline void *index_to_obj(const struct kmem_cache *cachep,
				 const struct slab *slabp, unsigned int idx)
{
	return (char *)slabp->s_mem + idx * cachep->buffer_size +
	       cachep->obj_offset;
}

/*
 * 2.6.22's reciprocal_value(): with it, a / k is a multiply and a shift
 * (reciprocal_divide) rather than a division.  With r = ceil(2^32 / k),
 * k * r = 2^32 + e with e < k, so (i * k) * r >> 32 = i + (i * e >> 32)
 * = i exactly for every multiple i * k below 2^32; for any other a the
 * quotient may be one too large, which obj_to_index's check of the
 * product catches all the same.
 */
static inline u32 reciprocal_value(u32 k)
{
	return (u32)(((1ULL << 32) + k - 1) / k);
}

static inline u32 reciprocal_divide(u32 a, u32 r)
{
	return (u32)(((u64)a * r) >> 32);
}

/* How far objp lies from the first object's start (the caller's pointer). */
static inline u32 obj_offset_in_slab(const struct kmem_cache *cachep,
				     const struct slab *slabp, const void *objp)
{
	return (u32)((const char *)objp - (const char *)slabp->s_mem) -
	       cachep->obj_offset;
}

/* The index of an object of slabp, trusted to be one (2.6.22's obj_to_index). */
static inline unsigned int obj_index(const struct kmem_cache *cachep,
				     const struct slab *slabp, const void *objp)
{
	return reciprocal_divide(obj_offset_in_slab(cachep, slabp, objp),
				 cachep->reciprocal_buffer_size);
}

/*
 * The index of a caller's object of slabp's pages, or -1 when objp is no
 * object start: inside an object, or before the first (the offset
 * wrapped: its quotient is far beyond num) or past the last.
 */
static inline long obj_to_index(const struct kmem_cache *cachep,
				const struct slab *slabp, const void *objp)
{
	u32 off = obj_offset_in_slab(cachep, slabp, objp);
	u32 idx = reciprocal_divide(off, cachep->reciprocal_buffer_size);

	if (idx * cachep->buffer_size != off || idx >= cachep->num)
		return -1;
	return idx;
}

/* ---- debugging (mm/slab_debug.c) ---- */

/* The SLAB_* debug flags slab_debug= asks for this cache's name. */
unsigned long slab_debug_flags(const char *name);
/* Lays a new object out as free: poison and inactive red zones. */
void slab_debug_init_obj(struct kmem_cache *cachep, void *objp);
/* Checks and marks an object being handed out; caller is who asked. */
void slab_debug_alloc(struct kmem_cache *cachep, void *objp,
		      unsigned long caller);
/* Checks a free object whose slab is being given back. */
void slab_debug_check_free_obj(struct kmem_cache *cachep, void *objp);
/* Checks and marks an object being freed. */
void slab_debug_free(struct kmem_cache *cachep, void *objp,
		     unsigned long caller);
/* Reports a misuse in one "BUG:" line plus details, and stops the kernel. */
void slab_bug(struct kmem_cache *cachep, const void *objp, const char *fmt, ...)
	__printf(3, 4) __noreturn;

/* ---- the fast paths (mm/slab.c's design comment) ---- */

/* The slow halves, out of line in mm/slab.c; interrupts off (asserted). */
void *cache_alloc_cpu(struct kmem_cache *cachep, gfp_t flags);
void cache_free_cpu(struct kmem_cache *cachep, void *objp);
/* kmem_cache_free's check of what it is given (MM_DEBUG builds). */
void slab_check_free(struct kmem_cache *cachep, const void *objp,
		     const char *fn);

/* This CPU's array: for code that turned interrupts off just before. */
static __always_inline struct array_cache *__cpu_array(struct kmem_cache *cachep)
{
	return cachep->array[raw_smp_processor_id()];
}

/*
 * The top of a non-empty array: the object freed here last.  An array
 * holds no NULL - kfree() and mempool_free() return on one, and
 * kmem_cache_free() of anything but an object stops an MM_DEBUG kernel -
 * and the compiler is told so, so that a caller's test of the result for
 * "empty" is the avail test alone.
 */
static __always_inline void *ac_pop(struct array_cache *ac)
{
	void *objp;

	ac->touched = 1;
	objp = ac->entry[--ac->avail];
	if (!objp)
		__builtin_unreachable();
	return objp;
}

/*
 * The array's hit, inline (2.6.11's ____cache_alloc): pop a non-empty
 * array here; NULL for an empty one (an array holds no NULL), which the
 * caller then refills out of line (cache_alloc_cpu).  Interrupts off (the
 * caller turned them off just before).
 */
static __always_inline void *cache_alloc_array(struct kmem_cache *cachep)
{
	/* LAB slab: BEGIN the hit, inline: pop a non-empty array here (ac_pop), without calling cache_alloc_cpu */
	struct array_cache *ac = __cpu_array(cachep);

	if (likely(ac->avail))
		return ac_pop(ac);
	/* LAB slab: END */
	return NULL;
}

/*
 * The mirror (2.6.11's __cache_free): push onto an array with room here
 * and say so; false for a full one, which the caller then flushes out of
 * line (cache_free_cpu).  Interrupts off (the caller turned them off just
 * before).
 */
static __always_inline bool cache_free_array(struct kmem_cache *cachep,
					     void *objp)
{
	/* LAB slab: BEGIN the push, inline: onto an array with room here, without calling cache_free_cpu */
	struct array_cache *ac = __cpu_array(cachep);

	if (likely(ac->avail < ac->limit)) {
		ac->entry[ac->avail++] = objp;
		return true;
	}
	/* LAB slab: END */
	return false;
}

/*
 * The out-of-line ends of __cache_alloc() and __cache_free() (mm/slab.c):
 * everything but the array's hit and the bare restore of the interrupt
 * flag, with all they need as arguments, so that the inline paths hold
 * no value across a call and need no callee-saved registers.  Entered
 * with interrupts off as the fast path left them; irqflags restores them.
 * cache_alloc_slow()'s ctx is the cache (the type of every slow end that
 * cache_alloc_fast() may call: a caller with more to do after a miss
 * passes its own, which calls cache_alloc_slow()); cache_free_fast()'s
 * slow end is cache_free_full(), which calls cache_free_slow(), or a
 * caller's own.  The arguments come in the order the inline paths
 * already hold them (a cache or pool and the flags; the object and its
 * pool), so that a miss moves no register.
 */
typedef void *cache_alloc_slow_t(void *ctx, gfp_t flags, void *objp,
				 unsigned long caller, unsigned long irqflags);
cache_alloc_slow_t cache_alloc_slow;
void cache_free_slow(struct kmem_cache *cachep, void *objp,
		     unsigned long irqflags);
typedef void cache_free_slow_t(void *objp, void *ctx,
			       struct kmem_cache *cachep, unsigned long caller,
			       unsigned long irqflags);

/*
 * The inline half of an allocation from cachep: the top of this CPU's
 * array, with a bare restore of the interrupt flag, then hit(ctx, objp)
 * (inlined: slow and hit are constants in every caller); anything else -
 * an empty array (objp NULL), zeroing, debugging, a full restore - is a
 * tail call of slow(ctx, flags, objp, caller, irqflags).  Fault injection
 * is the caller's.
 */
static __always_inline void *cache_alloc_fast(struct kmem_cache *cachep,
					      gfp_t flags, unsigned long caller,
					      cache_alloc_slow_t *slow,
					      void *(*hit)(void *ctx, void *objp),
					      void *ctx)
{
	unsigned long irqflags;
	void *objp;

	local_irq_save(irqflags);
	objp = cache_alloc_array(cachep);
	if (unlikely(!objp || (flags & __GFP_ZERO) ||
		     (MM_DEBUG && (cachep->flags & SLAB_DEBUG_FLAGS)) ||
		     !local_irq_restore_fast(irqflags)))
		return slow(ctx, flags, objp, caller, irqflags);
	return hit(ctx, objp);
}

static inline void *cache_alloc_hit(void *cachep, void *objp)
{
	return objp;
}

/*
 * An object from cachep: the top of this CPU's array, the rest out of
 * line (cache_alloc_slow: the refill, the debug and zeroing, the full
 * restore).  Inline in kmem_cache_alloc() and kmalloc(); caller is whom
 * owner tracking names.  Each entry point says might_sleep_if() itself,
 * so that the report names its file (MM_DEBUG builds).
 */
static __always_inline void *__cache_alloc(struct kmem_cache *cachep,
					   gfp_t flags, unsigned long caller)
{
	if (should_fail_alloc(flags))
		return NULL;
	return cache_alloc_fast(cachep, flags, caller, cache_alloc_slow,
				cache_alloc_hit, cachep);
}

/*
 * The inline half of a free to cachep: the debug checks (no others:
 * kmem_cache_free and kfree check first), then the push onto this CPU's
 * array with a bare restore of the interrupt flag.  A full array is a tail
 * call of slow(objp, ctx, cachep, caller, irqflags) (inlined when it is
 * inline: slow is a constant in every caller), a restore that must do
 * more one of local_irq_restore_slow().
 */
static __always_inline void cache_free_fast(struct kmem_cache *cachep,
					    void *objp, unsigned long caller,
					    cache_free_slow_t *slow, void *ctx)
{
	unsigned long irqflags;

	if (MM_DEBUG && unlikely(cachep->flags & SLAB_DEBUG_FLAGS))
		slab_debug_free(cachep, objp, caller);
	local_irq_save(irqflags);
	if (unlikely(!cache_free_array(cachep, objp))) {
		slow(objp, ctx, cachep, caller, irqflags);
		return;
	}
	if (unlikely(!local_irq_restore_fast(irqflags)))
		local_irq_restore_slow(irqflags);
}

/* cache_free_fast()'s slow end for a plain free: the cache's flush. */
static inline void cache_free_full(void *objp, void *ctx,
				   struct kmem_cache *cachep,
				   unsigned long caller, unsigned long irqflags)
{
	cache_free_slow(cachep, objp, irqflags);
}

/*
 * Frees objp to this CPU's array of cachep, a full array out of line
 * (cache_free_slow: the flush).
 */
static __always_inline void __cache_free(struct kmem_cache *cachep, void *objp,
					 unsigned long caller)
{
	cache_free_fast(cachep, objp, caller, cache_free_full, NULL);
}

/* The smallest kmalloc cache of at least size bytes (off-slab descriptors). */
struct kmem_cache *kmalloc_slab_for(size_t size);
void kmalloc_caches_init(void);

/* Totals over a cache's nodes and CPUs (slabinfo, tests). */
struct slab_counts {
	unsigned long num_objs, active_objs;
	unsigned long in_arrays;	/* CPU arrays and shared arrays */
	unsigned long in_shared;	/* shared arrays only */
	unsigned long num_slabs, active_slabs, free_slabs;
};
void slab_count(struct kmem_cache *cachep, struct slab_counts *c);

/* One cache's line of /proc/slabinfo (no newline). */
#define SLABINFO_LINE 160
void slabinfo_line(struct kmem_cache *cachep, char *buf, size_t len);

/* Objects handed out and not yet freed, over every cache. */
unsigned long slab_live_objects(void);

/*
 * Checks every cache's slabs, lists, counters and arrays against each
 * other, the CPUs whose arrays hold objects stopped meanwhile
 * (mm/slab_check.c).  Returns the number of violations, the first
 * described in why.  Task context.
 */
int slab_check_all(char *why, size_t len);

#endif /* MM_SLAB_INTERNAL_H */
