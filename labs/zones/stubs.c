/*
 * labs/zones/stubs.c - what the zones lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB zones: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/mmzone.c: append the node's populated zones from k down to ZONE_DMA */
	while (k > ZONE_DMA && !populated_zone(&pgdat->node_zones[k]))
		k--;
	if (populated_zone(&pgdat->node_zones[k]))
		zl->zones[idx++] = &pgdat->node_zones[k];
	return idx;
/* END STUB */

/* STUB mm/mmzone.c: min_free_kbytes from the lowmem size, 2.6.11's rule */
	return 1024;
/* END STUB */

/* STUB mm/mmzone.c: each zone's lowmem_reserve[] from the zones above it and lowmem_reserve_ratio */
		for (int j = 0; j < MAX_NR_ZONES; j++)
			memset(pgdat->node_zones[j].lowmem_reserve, 0,
			       sizeof(pgdat->node_zones[j].lowmem_reserve));
/* END STUB */

/* STUB mm/page_alloc.c: the reserve against classzone_idx, then the per-order check */
	return free > min;
/* END STUB */
