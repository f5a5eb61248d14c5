/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pool.c - a cable's mbuf pool that starts small and grows with traffic
 *
 * Theory of operation: each cable had a pool of 8191 mbufs (about 19 MB)
 * from the start, used or not. Now a cable's pool starts with a few
 * hundred mbufs, enough for idle guests and light traffic, and the main
 * thread grows it in its housekeeping when less than a quarter is free,
 * doubling it each time up to the old size. The cap keeps what the
 * old pools gave: one cable can never take more than its own share, so
 * a busy cable cannot starve another; while its pool is short, a guest's
 * frames wait in its own ring: the vhost library takes no more frames
 * than it has head mbufs for, but it builds a large frame as a chain and
 * loses the frame (counted nowhere) if the pool runs dry in the middle,
 * so a direction from a guest asks it for no more frames than the free
 * mbufs hold at their largest (33 mbufs for a 64 KB TSO frame), and asks
 * the main thread to grow the pool to what a whole burst needs (@want,
 * dir.c's rx_budget()); and a frame that software segmentation finds no mbufs
 * for waits in the direction's raw queue for the pool to grow; only if it
 * still finds none after XC_SEG_WAIT_MS (the pool is at its cap) is it
 * dropped, counted as no-mbuf. A cable with a delay or rate impairment
 * grows its pool to the cap: its delay line holds frames on purpose (a
 * long fat link's window), and a free count sampled between two of the
 * line's releases does not show how short the pool runs (a 10 ms delay
 * line cut TCP to 0.57 of the undelayed rate, t_vm_delay_keeps_throughput).
 *
 * DPDK's mempools do not grow, but their ring is sized for the largest
 * count at creation: @mp is created empty for @max mbufs and populated
 * with the first ones; to grow, a new ordinary mbuf pool is made (its
 * mbufs initialised as usual, with their IOVAs), and its mbufs are taken
 * out and put into @mp as mbufs of @mp. They are freed to @mp from then
 * on; the chunk pool keeps their memory until the cable goes. No lcore
 * ever sees an mbuf that is not fully initialised, and growing takes no
 * lock on the forwarding path (the ring is multi-producer).
 *
 * A pool whose mbufs have all been free for XC_POOL_IDLE_MS (10 s) gives
 * its growth back, last chunk first (xc_pool_shrink()): a cable that was
 * busy once and is idle now costs what an idle cable costs.
 *
 * Free mbufs are kept last in, first out (mbstack.c, xcable's own
 * mempool driver), not in a ring: a ring hands out the mbuf freed longest
 * ago, so with a pool grown to a couple of thousand mbufs (a burst's worth
 * of 64 KB frames, dir.c's rx_budget()) every frame was copied into and
 * out of memory last touched megabytes ago, out of the CPU's caches,
 * while a stack hands back the few mbufs the last bursts freed. DPDK's
 * stack driver did that with a lock per call, so per frame the vhost PMD
 * sent (it frees them one by one), and DPDK's per-lcore mempool cache,
 * which would spare the lock, is sized for RTE_MAX_LCORE lcores, 1.5 MB a
 * pool, three times what an idle cable costs in all: the driver keeps a
 * small cache per forwarding lcore instead. What an lcore's cache holds
 * counts as in use, so the free count below is what is on the stack.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "log.h"
#include "mbstack.h"
#include "pool.h"

RTE_LOG_REGISTER(xc_logtype_pool, xcable.pool, INFO);

/**
 * free_zone() - give a pool's first chunk back, when the pool is freed
 * @hdr:	the chunk (unused)
 * @opaque:	its memzone
 */
static void free_zone(struct rte_mempool_memhdr *hdr, void *opaque)
{
	(void)hdr;
	rte_memzone_free(opaque);
}

/**
 * xc_pool_create() - a pool of @first mbufs that can grow to @max
 * @p:		filled
 * @name:	pool name, unique, short enough for a mempool name less 3
 * @first:	mbufs to start with
 * @max:	most mbufs it may have
 * @room:	data room of each (0: indirect mbufs)
 * @socket:	NUMA socket
 *
 * Return: 0, or -errno (rte_errno set)
 */
int xc_pool_create(struct xc_pool *p, const char *name, unsigned int first,
		   unsigned int max, uint16_t room, int socket)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room, .mbuf_priv_size = 0 };
	const struct rte_memzone *mz;
	struct rte_mempool *mp;
	uint32_t obj;
	size_t len;
	int rc;

	memset(p, 0, sizeof(*p));
	p->max = max;
	p->room = room;
	p->socket = socket;
	rc = xc_mbstack_register();
	if (rc) {
		/* DPDK's table of drivers is full: nothing else works */
		XC_LOG(pool, ERR, "%s: cannot register the mempool driver: %s",
		       name, rte_strerror(-rc));
		rte_errno = -rc;
		return rc;
	}
	/* no DPDK cache: the driver keeps its own (see the theory) */
	mp = rte_mempool_create_empty(name, max, sizeof(struct rte_mbuf) + room,
				      0, sizeof(priv), socket, 0);
	if (mp == NULL)
		return -rte_errno;
	p->mp = mp;
	rc = rte_mempool_set_ops_byname(mp, XC_MBSTACK_OPS, NULL);
	if (rc)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	obj = rte_mempool_calc_obj_size(mp->elt_size, mp->flags, NULL);
	len = (size_t)obj * first + RTE_CACHE_LINE_SIZE;
	mz = rte_memzone_reserve_aligned(name, len, socket,
					 RTE_MEMZONE_IOVA_CONTIG,
					 RTE_CACHE_LINE_SIZE);
	if (mz != NULL) {
		rc = rte_mempool_populate_iova(mp, mz->addr, mz->iova, mz->len,
					       free_zone,
					       (void *)(uintptr_t)mz);
	} else {
		/* no IOVA-contiguous run that long (hugepages scattered in
		 * physical memory, 4 queue pairs' worth): page by page,
		 * with room for what page ends waste */
		len += (size_t)obj * (len / RTE_PGSIZE_2M + 2);
		mz = rte_memzone_reserve_aligned(name, len, socket, 0,
						 RTE_CACHE_LINE_SIZE);
		if (mz == NULL) {
			rc = -rte_errno;
			goto fail;
		}
		rc = rte_mempool_populate_virt(mp, mz->addr, mz->len,
					       mz->hugepage_sz, free_zone,
					       (void *)(uintptr_t)mz);
	}
	if (rc <= 0) {
		rte_memzone_free(mz);
		rc = rc ? rc : -ENOMEM;
		goto fail;
	}
	/* no one has it yet: its mbufs can be initialised in place */
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	xc_mbstack_open(mp);
	p->n = (unsigned int)rc;
	/* what fit may differ from @first (objects do not cross pages) */
	XC_LOG(pool, DEBUG, "%s: %u mbufs to start with, up to %u", name,
	       p->n, max);
	return 0;
fail:
	rte_mempool_free(mp);
	p->mp = NULL;
	rte_errno = -rc;
	return rc;
}

/**
 * hand_over() - move every mbuf of a chunk pool into the cable's pool
 * @p:		the cable's pool
 * @ch:		the chunk, whose mbufs are initialised and free
 *
 * Return: mbufs moved
 */
static unsigned int hand_over(struct xc_pool *p, struct rte_mempool *ch)
{
	void *objs[64];
	unsigned int moved = 0, i, k;

	for (k = 64; k; k /= 2) {
		while (rte_mempool_get_bulk(ch, objs, k) == 0) {
			for (i = 0; i < k; i++)
				((struct rte_mbuf *)objs[i])->pool = p->mp;
			xc_mbstack_give(p->mp, objs, k);
			moved += k;
		}
	}
	return moved;
}

/**
 * xc_pool_grow() - double a pool (up to its cap) once less than a quarter
 *		    of it is free, or whatever is free if @hold (main
 *		    thread, housekeeping)
 * @p:		pool
 * @hold:	grow whatever is free: its cable holds frames on purpose
 *		(a delay or rate impairment: the free count, sampled every
 *		100 ms between two releases of the delay line, says little,
 *		and the line may hold its whole limit, so the pool grows to
 *		its cap), or a direction asked for more free mbufs than it
 *		has (@want, xc_topo_pools())
 */
void xc_pool_grow(struct xc_pool *p, bool hold)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *ch;
	unsigned int add;

	if (p->mp == NULL || p->n >= p->max || p->n_chunks == XC_POOL_CHUNKS ||
	    (!hold && rte_mempool_avail_count(p->mp) >= p->n / 4))
		return;
	add = RTE_MIN(p->n, p->max - p->n);
	snprintf(name, sizeof(name), "%.*s+%u", (int)RTE_MEMPOOL_NAMESIZE - 5,
		 p->mp->name, p->n_chunks);
	ch = rte_pktmbuf_pool_create(name, add, 0, 0, p->room, p->socket);
	if (ch == NULL) {
		if (!p->failed)
			XC_LOG(pool, WARNING, "%s: cannot grow beyond %u mbufs: %s",
			       p->mp->name, p->n, rte_strerror(rte_errno));
		p->failed = true;
		return;
	}
	p->chunk_n[p->n_chunks] = hand_over(p, ch);
	p->n += p->chunk_n[p->n_chunks];
	p->chunk[p->n_chunks++] = ch;
	XC_LOG(pool, DEBUG, "%s: grown to %u mbufs", p->mp->name, p->n);
}

/**
 * in_chunk() - is an mbuf one of a chunk pool's?
 * @ch:		chunk pool
 * @obj:	mbuf
 *
 * Return: true if its memory is the chunk's
 */
static bool in_chunk(const struct rte_mempool *ch, const void *obj)
{
	const struct rte_mempool_memhdr *hdr;

	STAILQ_FOREACH(hdr, &ch->mem_list, next)
		if ((const char *)obj >= (const char *)hdr->addr &&
		    (const char *)obj < (const char *)hdr->addr + hdr->len)
			return true;
	return false;
}

/**
 * shrink_last() - give the last growth of an idle pool back
 * @p:		pool, all of whose mbufs are free, with a chunk
 * @avail:	its free mbufs
 *
 * The mbufs of the last chunk are mixed with the others in @mp's ring:
 * all free mbufs are taken out, the chunk's are kept aside and the rest
 * put back. If every one of the chunk's came out, the chunk is freed
 * (its memory goes back to DPDK's heap, and whole hugepages to the
 * system); if an lcore took one meanwhile, all go back and the next
 * idle period tries again. While the mbufs are out, for microseconds,
 * a guest's frame waits in its ring as when the pool is short.
 *
 * Return: true if the chunk was freed
 */
static bool shrink_last(struct xc_pool *p, unsigned int avail)
{
	unsigned int i, k = 0, want;
	struct rte_mempool *ch;
	void **objs;

	ch = p->chunk[p->n_chunks - 1];
	want = p->chunk_n[p->n_chunks - 1];
	objs = malloc(sizeof(*objs) * avail);
	if (objs == NULL)
		return false;
	if (xc_mbstack_take(p->mp, objs, avail) != 0) {
		free(objs);	/* an lcore took one: not idle after all */
		return false;
	}
	/* the chunk's to the front, the others after them */
	for (i = 0; i < avail; i++)
		if (in_chunk(ch, objs[i])) {
			void *t = objs[k];

			objs[k++] = objs[i];
			objs[i] = t;
		}
	if (k != want) {
		xc_mbstack_give(p->mp, objs, avail);
		free(objs);
		return false;
	}
	xc_mbstack_give(p->mp, objs + k, avail - k);
	free(objs);
	rte_mempool_free(ch);
	p->chunk[--p->n_chunks] = NULL;
	p->n -= k;
	p->failed = false;
	XC_LOG(pool, DEBUG, "%s: idle, shrunk to %u mbufs", p->mp->name, p->n);
	return true;
}

/**
 * xc_pool_shrink() - give a pool's growth back, last growth first, once
 *		      every mbuf has been free for XC_POOL_IDLE_MS (main
 *		      thread, housekeeping)
 * @p:		pool
 * @hold:	its cable holds frames on purpose: it keeps its pool
 */
void xc_pool_shrink(struct xc_pool *p, bool hold)
{
	unsigned int avail;
	uint64_t now;

	if (p->mp == NULL)
		return;
	now = rte_get_tsc_cycles();
	avail = rte_mempool_avail_count(p->mp);
	if (hold || avail < p->n) {
		p->idle_since = 0;
		return;
	}
	if (p->idle_since == 0)
		p->idle_since = now;
	if (now - p->idle_since < rte_get_tsc_hz() / 1000 * XC_POOL_IDLE_MS)
		return;
	while (p->n_chunks && shrink_last(p, avail))
		avail = p->n;
}

/**
 * xc_pool_free() - free a pool and its chunks; no mbuf may be in use
 * @p:		pool, created or zeroed
 */
void xc_pool_free(struct xc_pool *p)
{
	unsigned int i;

	rte_mempool_free(p->mp);
	for (i = 0; i < p->n_chunks; i++)
		rte_mempool_free(p->chunk[i]);
	memset(p, 0, sizeof(*p));
}
