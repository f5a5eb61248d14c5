/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pool.h - a cable's mbuf pool that starts small and grows with traffic
 */
#ifndef XC_POOL_H
#define XC_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mempool.h>

#include "mbstack.h"

#define XC_POOL_CHUNKS		16	/* growth steps at most */

/**
 * struct xc_pool - one cable's pool of mbufs, grown by the main thread
 * @mp:		the pool ports and stages take mbufs from and free them to
 * @chunk:	pools whose mbufs were handed over to @mp as it grew; they
 *		keep the memory until @mp is freed
 * @n_chunks:	number of @chunk
 * @chunk_n:	mbufs each of @chunk handed over
 * @n:		mbufs @mp has
 * @max:	most it may have: what bounds one cable's share of memory
 * @room:	data room of each mbuf (0 for indirect mbufs)
 * @socket:	NUMA socket of the memory
 * @failed:	a growth failed (logged once)
 * @idle_since:	TSC since which every mbuf of @mp has been free, as seen
 *		by housekeeping; 0 if it was not at the last look
 * @want:	free mbufs a direction needs to receive a whole burst and
 *		did not find (written by forwarding lcores, read and
 *		cleared by the main thread, which grows the pool to them)
 *
 * Only the main thread changes the struct, but for @want; lcores only
 * take mbufs from @mp and free them to it.
 */
struct xc_pool {
	struct rte_mempool *mp;
	struct rte_mempool *chunk[XC_POOL_CHUNKS];
	unsigned int n_chunks;
	unsigned int chunk_n[XC_POOL_CHUNKS];
	unsigned int n;
	unsigned int max;
	uint16_t room;
	int socket;
	bool failed;
	uint64_t idle_since;
	uint32_t want;
};

/* a pool whose mbufs have all been free this long gives its growth back */
#define XC_POOL_IDLE_MS		10000

int xc_pool_create(struct xc_pool *p, const char *name, unsigned int first,
		   unsigned int max, uint16_t room, int socket);
void xc_pool_grow(struct xc_pool *p, bool hold);
void xc_pool_shrink(struct xc_pool *p, bool hold);
void xc_pool_free(struct xc_pool *p);

/**
 * xc_pool_in_use() - has a pool mbufs out, or may an lcore still touch
 *		      it? (main thread; an lcore's cache counts as in use,
 *		      mbstack.c)
 * @p:		pool, created or zeroed
 *
 * Return: true if so
 */
static inline bool xc_pool_in_use(const struct xc_pool *p)
{
	return p->mp != NULL && (rte_mempool_avail_count(p->mp) < p->n ||
				 xc_mbstack_cached(p->mp));
}

#endif /* XC_POOL_H */
