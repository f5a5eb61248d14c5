/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * offload.h - adapt TSO frames and partial checksums to what the receiving
 *	       end negotiated
 */
#ifndef XC_OFFLOAD_H
#define XC_OFFLOAD_H

#include <stdint.h>

#include <rte_gso.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "caps.h"
#include "stats.h"

/* the most segments one frame may be cut into (a 64 KB frame with an MSS
 * of 64 bytes); a frame that would need more is refused as bad-offload */
#define XC_SEG_MAX	1024

/* how long a frame waits for mbufs to be segmented into before it is
 * dropped as no-mbuf: the main thread grows a short pool within one
 * housekeeping period (pool.c), so a frame waits only while its cable's
 * pool is at its cap or cannot grow */
#define XC_SEG_WAIT_MS	300

/**
 * struct xc_off - software offload state of one direction (its lcore's)
 * @gso:	rte_gso context (TCP and UDP over IPv4)
 * @pool:	mbufs for segments xcable copies itself (TCP over IPv6)
 * @short_since: TSC at which the frame at the head of the raw queue
 *		first found no mbufs to be segmented into; 0 if it did not
 */
struct xc_off {
	struct rte_gso_ctx gso;
	struct rte_mempool *pool;
	uint64_t short_since;
};

void xc_off_init(struct xc_off *o, struct rte_mempool *direct,
		 struct rte_mempool *indirect);

/**
 * xc_off_needed() - tell whether a frame needs the offload stage at all
 * @m:		frame as received
 * @caps:	packed capabilities of the receiving end
 *
 * Return: true unless the frame is a plain frame that fits
 */
static inline int xc_off_needed(const struct rte_mbuf *m, uint64_t caps)
{
	return (m->ol_flags & (RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_MASK)) ||
	       m->pkt_len > xc_caps_max_frame(caps);
}

int xc_off_fixup(struct xc_off *o, struct rte_mbuf *m, uint64_t caps,
		 struct rte_mbuf **out, unsigned int room,
		 struct xc_dir_stats *st);

#endif /* XC_OFFLOAD_H */
