/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port_eth.c - the ethdev port kind: any DPDK port that is not a guest's
 *		(a NIC, a ring, a TAP...), and what kernel-backed ports share
 *		with it: a pool of their own, sized for their frames, and
 *		frames up to their MTU
 *
 * Guests' frames arrive in the cables' pools (2 KB mbufs, chained for
 * larger frames). A port's own driver fills mbufs of its own pool, and
 * its driver may send single-segment frames only (no MULTI_SEGS): then
 * chains are copied whole before they go to it (make_whole() in dir.c).
 * NIC offloads are not used: frames to such ports are segmented and
 * checksummed by xcable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "port.h"
#include "port_eth.h"

#define XC_PPOOL_MBUFS		8191	/* frames of up to 4 KB */
#define XC_PPOOL_MBUFS_BIG	2047	/* larger ones */
#define XC_PPOOL_CACHE		256

/**
 * sends_chains() - does the port's driver send chained mbufs?
 * @p:		port
 *
 * Return: true if it announces MULTI_SEGS
 */
static bool sends_chains(const struct xc_port *p)
{
	struct rte_eth_dev_info info;

	return rte_eth_dev_info_get(p->id, &info) == 0 &&
	       (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
}

/**
 * xc_port_take_pool() - make a new pool the port's own (@own_pool), and
 *			 tell whether its driver sends chains (@whole_only)
 * @p:		port, not yet configured
 * @mp:		the pool, NULL if it could not be created (rte_errno says
 *		why)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -ENOMEM if @mp is NULL
 */
int xc_port_take_pool(struct xc_port *p, struct rte_mempool *mp, char *err,
		      size_t errlen)
{
	if (mp == NULL) {
		snprintf(err, errlen, "%s: cannot create mbuf pool: %s",
			 p->label, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	p->own_pool = mp;
	p->whole_only = !sends_chains(p);
	return 0;
}

/**
 * xc_port_eth_pool() - give a port its own pool of mbufs that each hold a
 *			whole frame of its MTU
 * @p:		port, not yet configured
 * @framesz:	at least this much room per mbuf (af_packet's frame size),
 *		0 if no such need
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -ENOMEM if there is no memory for the pool
 */
int xc_port_eth_pool(struct xc_port *p, unsigned int framesz, char *err,
		     size_t errlen)
{
	unsigned int mtu = p->conf.mtu ? p->conf.mtu : RTE_ETHER_MTU;
	char name[RTE_MEMPOOL_NAMESIZE];
	int socket = rte_eth_dev_socket_id(p->id);
	uint32_t room;

	if (p->own_pool != NULL)	/* plugged in again */
		return 0;
	snprintf(name, sizeof(name), "xc_ppool%u", p->id);
	/* a power of 2, as af_packet wants for its frame size */
	room = rte_align32pow2(RTE_MAX(RTE_MAX(2048u, mtu + 32), framesz));
	return xc_port_take_pool(p, rte_pktmbuf_pool_create(name,
			room > 4096 ? XC_PPOOL_MBUFS_BIG : XC_PPOOL_MBUFS,
			XC_PPOOL_CACHE, 0,
			(uint16_t)(RTE_PKTMBUF_HEADROOM + room),
			socket < 0 ? 0 : socket), err, errlen);
}

/**
 * xc_port_eth_caps() - what a port that is not a guest's takes: frames up
 *			to its MTU plus the Ethernet header (Linux takes 4
 *			bytes more only for frames tagged 802.1Q), no
 *			offloads
 * @p:		port
 *
 * Return: packed capabilities
 */
uint64_t xc_port_eth_caps(struct xc_port *p)
{
	uint16_t mtu = 0;

	if (p->conf.mtu)
		mtu = (uint16_t)p->conf.mtu;
	else if (rte_eth_dev_get_mtu(p->id, &mtu) != 0)
		mtu = RTE_ETHER_MTU;
	return xc_caps_pack(0, (uint32_t)mtu + RTE_ETHER_HDR_LEN);
}

/* eth_match() - the last kind tried: any ethdev */
static bool eth_match(const struct rte_eth_dev_info *info)
{
	(void)info;
	return true;
}

/**
 * eth_prepare() - give the port its own pool
 * @p:		port
 * @again:	plugged in again (the pool is kept)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -errno
 */
static int eth_prepare(struct xc_port *p, bool again, char *err,
		       size_t errlen)
{
	(void)again;
	return xc_port_eth_pool(p, 0, err, errlen);
}

const struct xc_port_ops xc_port_eth_ops = {
	.kind = "ethdev",
	.match = eth_match,
	.prepare = eth_prepare,
	.caps = xc_port_eth_caps,
};
