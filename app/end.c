/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end.c - cable ends that are a whole port: frames go to and come from
 *	   the port's own queues
 */
#include <rte_ethdev.h>

#include "cable.h"

/* port_rx() - receive a burst from queue @q of the end's port */
static uint16_t port_rx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n)
{
	return rte_eth_rx_burst(e->port->id, q, pkts, n);
}

/* port_tx() - offer a burst to queue @q of the end's port */
static uint16_t port_tx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n)
{
	return rte_eth_tx_burst(e->port->id, q, pkts, n);
}

/* port_caps() - what the end's port takes now */
static uint64_t port_caps(const struct xc_end *e)
{
	return __atomic_load_n(&e->port->caps, __ATOMIC_ACQUIRE);
}

const struct xc_end_ops xc_end_port_ops = {
	.kind = "port",
	.rx = port_rx,
	.tx = port_tx,
	.caps = port_caps,
};
