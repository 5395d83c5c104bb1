/*
 * labs/pcp/stubs.c - what the pcp lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB pcp: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/page_alloc.c: zone_batchsize(): the batch from the zone's size, 2.6's rule */
	return 1;
/* END STUB */

/* STUB mm/page_alloc.c: give up to count pages from the list's cold end back, one zone lock */
	return 0;
/* END STUB */

/* STUB mm/page_alloc.c: take from this CPU's hot or cold list, refilled by a batch at low */
	struct page *page;
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	__zone_stat_inc(zone, NR_PCP_MISS);
	__zone_stat_inc(zone, NR_ZONE_LOCK);
	page = rmqueue_locked(zone, 0);
	spin_unlock_irqrestore(&zone->lock, flags);
	return page;
/* END STUB */

/* STUB mm/page_alloc.c: put on this CPU's hot or cold list, trimmed by a batch at high */
	unsigned long flags;

	spin_lock_irqsave(&zone->lock, flags);
	__zone_stat_inc(zone, NR_ZONE_LOCK);
	free_one_page_locked(page, zone, 0);
	spin_unlock_irqrestore(&zone->lock, flags);
/* END STUB */
