/*
 * labs/kmalloc/stubs.c - what the kmalloc lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB kmalloc: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/kmalloc.c: the smallest class of at least size bytes; NULL above the largest */
	for (unsigned int i = 0; i < ARRAY_SIZE(malloc_sizes); i++)
		if (malloc_sizes[i].cs_size >= size &&
		    is_power_of_2(malloc_sizes[i].cs_size))
			return &malloc_sizes[i];
	return NULL;
/* END STUB */

/* STUB mm/kmalloc.c: GFP_DMA takes the class's "(DMA)" twin, whose slabs lie in ZONE_DMA */
	if (flags & GFP_DMA)
		return NULL;
	return cs->cs_cachep;
/* END STUB */

/* STUB mm/kmalloc.c: the usable size: the class's, or the whole block of pages */
	return cachep ? cachep->object_size : PAGE_SIZE;
/* END STUB */

/* STUB mm/kmalloc.c: resize in place while the new size fits, else move the contents */
	return NULL;
/* END STUB */
