/*
 * labs/reclaim/stubs.c - what the reclaim lab's student tree holds in place of
 * each of the lab's solution regions: the stub that keeps the kernel
 * running (an error returned, or the simplest safe thing) so that the
 * graded cases fail but the kernel boots.
 *
 * Not compiled.  tools/labtree.py reads it when it cuts the student tree:
 * each entry is keyed by the file and the description of the region's
 * BEGIN marker, and replaces that region's code, after the line
 * "LAB reclaim: TODO <description>".  A region with no entry here leaves
 * nothing but its TODO line.  The reference kernel's files hold only the
 * markers; the stubs stay here, with the lab.
 */

/* STUB mm/page_alloc.c: the retry policy: __GFP_NORETRY, __GFP_NOFAIL, small orders, __GFP_REPEAT */
	return false;
/* END STUB */

/* STUB mm/page_alloc.c: retry as should_retry() says, sleeping HZ/50 first */
	if (should_retry(gfp_mask, order, progress, reclaimed_total))
		goto nopage;
/* END STUB */

/* STUB mm/vmscan.c: scan 1/2^priority of what s holds (scaled by its seeks), in batches, credit carried, until target */
	return;
/* END STUB */
