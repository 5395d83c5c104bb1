/*
 * labs/buddy/stubs.c - what the buddy lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB buddy: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/page_alloc.c: true when buddy_pfn is a valid pfn inside zone, of page's node and zone, the head of a free block of this order */
	return false;
/* END STUB */

/* STUB mm/page_alloc.c: split: halve the block down to order low, filing each upper half on the free list of its order */
	for (unsigned long i = 1UL << low; i < size; i += 1UL << low) {
		list_add(&page[i].lru, &zone->free_area[low].free_list);
		zone->free_area[low].nr_free++;
		set_buddy_order(page + i, low);
	}
/* END STUB */
