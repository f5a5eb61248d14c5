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

#include "stats.h"

/* what a receiving end can take, besides plain frames */
#define XC_CAP_CSUM	(1u << 0)	/* partial checksums (GUEST_CSUM) */
#define XC_CAP_TSO4	(1u << 1)	/* TCP/IPv4 segmentation (GUEST_TSO4) */
#define XC_CAP_TSO6	(1u << 2)	/* TCP/IPv6 segmentation (GUEST_TSO6) */
#define XC_CAP_UFO	(1u << 3)	/* UDP fragmentation (GUEST_UFO) */

/* the most segments one frame may be cut into (a 64 KB frame with an MSS
 * of 64 bytes); a frame that would need more is refused as bad-offload */
#define XC_SEG_MAX	1024

/**
 * xc_caps_pack() - put capabilities and the largest frame in one word, so
 *		    that lcores can read both atomically
 * @flags:	XC_CAP_* bits
 * @max_frame:	largest frame in bytes, Ethernet header included
 *
 * Return: the packed word
 */
static inline uint64_t xc_caps_pack(uint32_t flags, uint32_t max_frame)
{
	return (uint64_t)flags << 32 | max_frame;
}

static inline uint32_t xc_caps_flags(uint64_t caps)
{
	return (uint32_t)(caps >> 32);
}

static inline uint32_t xc_caps_max_frame(uint64_t caps)
{
	return (uint32_t)caps;
}

uint64_t xc_caps_from_virtio(uint64_t features, int mtu);
void xc_caps_describe(uint64_t caps, char *buf, size_t len);

/**
 * struct xc_off - software offload state of one direction
 * @gso:	rte_gso context (TCP and UDP over IPv4)
 * @pool:	mbufs for segments xcable copies itself (TCP over IPv6)
 */
struct xc_off {
	struct rte_gso_ctx gso;
	struct rte_mempool *pool;
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
