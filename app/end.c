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
			uint16_t n, uint64_t *drop)
{
	(void)drop;	/* the port sends what it takes */
	return rte_eth_tx_burst(e->port->id, q, pkts, n);
}

/* port_caps() - what the end's port takes now */
static uint64_t port_caps(const struct xc_end *e)
{
	return __atomic_load_n(&e->port->caps, __ATOMIC_ACQUIRE);
}

/**
 * xc_end_describe() - report what people want to know of an end: its
 *		       port's facts, or those its kind gives
 * @e:		end
 * @fn:		called once per fact
 * @arg:	its argument
 */
void xc_end_describe(const struct xc_end *e, xc_kv_fn fn, void *arg)
{
	if (e->ops->describe)
		e->ops->describe(e, fn, arg);
	else
		xc_port_describe(e->port, fn, arg);
}

/**
 * xc_cable_socket() - the NUMA socket a cable's memory belongs on: its
 *		       first port's
 * @c:		cable
 *
 * Return: the socket, 0 if unknown or the cable has no port
 */
int xc_cable_socket(const struct xc_cable *c)
{
	int j, s;

	for (j = 0; j < 2; j++)
		if (c->end[j].port) {
			s = rte_eth_dev_socket_id(c->end[j].port->id);
			return s < 0 ? 0 : s;
		}
	return 0;
}

const struct xc_end_ops xc_end_port_ops = {
	.kind = "port",
	.rx = port_rx,
	.tx = port_tx,
	.caps = port_caps,
};
