/*
 * labs/slab/stubs.c - what the slab lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB slab: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/slab.c: the colour after this one, cycling back to 0 after the last */
		next = 0;
/* END STUB */

/* STUB mm/slab.c: pop the top of this CPU's array; an empty array takes a batch from the slabs first, or from a new slab */
	int nid = numa_node_id();
	struct kmem_list3 *l3 = &cachep->nodelists[nid];
	void *objp = NULL;
	struct slab *slabp;

	lockdep_assert_irqs_disabled();
	for (;;) {
		spin_lock(&l3->list_lock);
		take_objs_locked(cachep, l3, &objp, 1);
		spin_unlock(&l3->list_lock);
		if (objp)
			return objp;
		slabp = cache_grow_begin(cachep, flags, nid);
		cache_grow_end(cachep, slabp);
		if (!slabp)
			return NULL;
	}
/* END STUB */

/* STUB mm/slab.c: push onto this CPU's array; a full array first gives its oldest batch back */
	lockdep_assert_irqs_disabled();
	free_block(cachep, &objp, 1);
/* END STUB */

/* STUB mm/slab_cache.c: how many objects (and their bufctls) fit 2^order pages, and what is left over */
	unsigned int bytes = PAGE_SIZE << order;

	*mgmt = off_slab ? 0 : ALIGN(sizeof(struct slab) + sizeof(kmem_bufctl_t), align);
	*num = *mgmt + size <= bytes ? 1 : 0;
	*left_over = 0;
/* END STUB */

/* STUB mm/slab_cache.c: the number of colours the left-over bytes give */
		cachep->colour = 0;
/* END STUB */

/* STUB mm/slab_cache.c: the colour step: how much further in each colour starts the objects */
	cachep->colour_off = ralign;
/* END STUB */
