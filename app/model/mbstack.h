/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mbstack.h - the cable pools' mempool driver: free mbufs on a stack,
 *	       with a small cache for each forwarding lcore
 */
#ifndef XC_MBSTACK_H
#define XC_MBSTACK_H

#include <stdbool.h>

#include <rte_mempool.h>

/* the driver's name, for rte_mempool_set_ops_byname() */
#define XC_MBSTACK_OPS		"xc_mbstack"
/* mbufs an lcore's cache of one pool holds at most */
#define XC_MBSTACK_CACHE	128
/* an lcore gives back what it kept of a pool it has not used this long */
#define XC_MBSTACK_SWEEP_MS	100

int xc_mbstack_register(void);
int xc_mbstack_attach(void);
void xc_mbstack_sweep(bool all);
void xc_mbstack_detach(void);
void xc_mbstack_open(struct rte_mempool *mp);
void xc_mbstack_give(struct rte_mempool *mp, void *const *objs,
		     unsigned int n);
int xc_mbstack_take(struct rte_mempool *mp, void **objs, unsigned int n);
unsigned int xc_mbstack_avail(struct rte_mempool *mp);
bool xc_mbstack_cached(const struct rte_mempool *mp);

#endif /* XC_MBSTACK_H */
