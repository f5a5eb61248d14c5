/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * portpool.c - the receive mbufs of a port that is not a guest's (a NIC,
 *		af_packet, af_xdp), sized for its frames
 *
 * Guests' frames arrive in the cables' pools (2 KB mbufs, chained for
 * larger frames). A port's own driver fills mbufs of its own pool, and a
 * driver may want them a particular way:
 * - af_packet copies each frame into one mbuf that must hold its whole
 *   frame size (framesz=);
 * - af_xdp (DPDK 22.11) turns the pool's memory into the socket's UMEM,
 *   one UMEM chunk per mbuf object: an object may not exceed a page (the
 *   kernel's limit for a chunk), and the driver takes the UMEM to be the
 *   objects back to back, so the pool may not leave gaps at page
 *   boundaries as pools for DMA do (else the last objects lie outside the
 *   UMEM and the kernel refuses them). Its driver also sends only
 *   single-segment frames: see make_whole() in fwd.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "ports.h"

#define XC_PPOOL_MBUFS		8191	/* frames of up to 4 KB */
#define XC_PPOOL_MBUFS_BIG	2047	/* larger ones */
#define XC_PPOOL_CACHE		256
/* the kernel's room in front of each AF_XDP frame (XDP_PACKET_HEADROOM) */
#define XC_XDP_HEADROOM		256

/**
 * xdp_room() - the largest mbuf data room whose pool object (header, mbuf,
 *		data) fits in one page
 *
 * Return: data room in bytes
 */
static uint16_t xdp_room(void)
{
	uint32_t page = (uint32_t)getpagesize(), room;
	struct rte_mempool_objsz sz;

	for (room = page - sizeof(struct rte_mbuf); room > 2048; room -= 64)
		if (rte_mempool_calc_obj_size(sizeof(struct rte_mbuf) + room,
					      RTE_MEMPOOL_F_NO_IOVA_CONTIG,
					      &sz) <= page)
			break;
	return (uint16_t)room;
}

/**
 * packed_pool() - a pktmbuf pool whose objects lie back to back in one
 *		   memory chunk (rte_pktmbuf_pool_create() cannot be asked
 *		   for that)
 * @name:	pool name
 * @n:		number of mbufs
 * @room:	data room of each, headroom included
 * @socket:	NUMA socket
 *
 * Return: the pool, or NULL with rte_errno set
 */
static struct rte_mempool *packed_pool(const char *name, unsigned int n,
				       uint16_t room, int socket)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room,
	};
	struct rte_mempool *mp;
	int rc;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room,
				      XC_PPOOL_CACHE, sizeof(priv), socket,
				      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return NULL;
	rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (rc == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		rc = rte_mempool_populate_default(mp);
		rc = rc < 0 ? rc : mp->nb_mem_chunks == 1 ? 0 : -ENOMEM;
	}
	if (rc) {
		rte_mempool_free(mp);
		rte_errno = -rc;
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/**
 * xc_port_pool_create() - give a port that is not a guest's its own pool
 *			   (@own_pool), and tell what it sends (@whole_only)
 * @p:		port, described by xc_port_init(), not yet configured
 * @socket:	NUMA socket
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -EINVAL if the port's MTU does not fit its
 *	   driver's frames, -ENOMEM if there is no memory for the pool
 */
int xc_port_pool_create(struct xc_port *p, int socket, char *err,
			size_t errlen)
{
	unsigned int mtu = p->mtu ? p->mtu : RTE_ETHER_MTU;
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_eth_dev_info info;
	uint32_t room, max;

	if (rte_eth_dev_info_get(p->id, &info)) {
		snprintf(err, errlen, "%s: cannot get device info", p->label);
		return -EINVAL;
	}
	p->whole_only = !(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	snprintf(name, sizeof(name), "xc_ppool%u", p->id);
	if (strcmp(info.driver_name, "net_af_xdp") == 0) {
		/* the kernel writes a frame behind the mbuf's headroom
		 * and its own */
		room = xdp_room();
		max = room - RTE_PKTMBUF_HEADROOM - XC_XDP_HEADROOM;
		if (mtu + RTE_ETHER_HDR_LEN > max) {
			snprintf(err, errlen,
				 "%s: af_xdp carries frames up to %u bytes (one page per frame in DPDK 22.11): mtu %u is too large, at most %u",
				 p->label, max, mtu, max - RTE_ETHER_HDR_LEN);
			return -EINVAL;
		}
		p->own_pool = packed_pool(name, XC_PPOOL_MBUFS, (uint16_t)room,
					  socket);
	} else {
		/* a power of 2, as af_packet wants for its frame size */
		room = rte_align32pow2(RTE_MAX(RTE_MAX(2048u, mtu + 32),
					       p->framesz));
		p->own_pool = rte_pktmbuf_pool_create(name,
				room > 4096 ? XC_PPOOL_MBUFS_BIG : XC_PPOOL_MBUFS,
				XC_PPOOL_CACHE, 0,
				(uint16_t)(RTE_PKTMBUF_HEADROOM + room), socket);
	}
	if (p->own_pool == NULL) {
		snprintf(err, errlen, "%s: cannot create mbuf pool: %s",
			 p->label, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}
