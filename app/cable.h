/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cable.h - ports, cables and their directions: the data model of xcable
 *
 * A cable joins two ports. Each cable has two directions; a direction
 * receives from one port and transmits to the other, and is owned by
 * exactly one lcore, which alone writes its hold queue and counters.
 * Ports are shared between the event thread (which writes link and queue
 * state) and the forwarding lcores (which read it), through atomics.
 */
#ifndef XC_CABLE_H
#define XC_CABLE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "guard.h"
#include "options.h"
#include "stats.h"

#define XC_BURST		32	/* packets per rx burst */
#define XC_RING_SIZE		1024	/* descriptors per queue */

/**
 * struct xc_port - one ethdev used as a cable end
 * @id:		ethdev port id
 * @name:	ethdev name, e.g. "net_vhost0"
 * @label:	name shown to people: "left"/"right" in simple mode, else @name
 * @iface:	vhost-user socket path, empty for other drivers
 * @is_vhost:	driven by the vhost PMD
 * @client:	vhost client mode (QEMU listens, xcable connects)
 * @lsc:	the driver reports link changes by event
 * @sock_mode:	permission bits given to the socket, if xcable creates it
 * @sock_gid:	group given to the socket, -1 to leave it
 * @configured:	rte_eth_dev_configure() succeeded (socket may exist)
 * @started:	rte_eth_dev_start() succeeded
 * @link_up:	link state, written by events, read by lcores (atomic)
 * @txq_on:	bit q set when Tx queue q may be used (atomic)
 * @rxq_on:	bit q set when Rx queue q is enabled (atomic)
 * @notify:	called from the event thread after a link or queue change
 * @notify_arg:	argument of @notify
 * @guard:	keeps a second frontend off a vhost server socket in use
 */
struct xc_port {
	uint16_t id;
	char name[RTE_ETH_NAME_MAX_LEN];
	char label[RTE_ETH_NAME_MAX_LEN];
	char iface[XC_SOCK_PATH_MAX];
	bool is_vhost;
	bool client;
	bool lsc;
	unsigned int sock_mode;
	int sock_gid;
	bool configured;
	bool started;
	uint32_t link_up;
	uint64_t txq_on;
	uint64_t rxq_on;
	void (*notify)(void *arg);
	void *notify_arg;
	struct xc_guard guard;
};

/**
 * struct xc_dir - one direction of a cable: receive on @rx, send on @tx
 * @rx:		port frames come from
 * @tx:		port frames go to
 * @rxq:	Rx queue on @rx
 * @txq:	Tx queue on @tx
 * @label:	"rxname->txname", for messages
 * @hold:	frames received but not yet taken by @tx (backpressure)
 * @hold_head:	index of the first held frame
 * @hold_n:	number of held frames
 * @st:		counters, written only by the owning lcore
 */
struct xc_dir {
	struct xc_port *rx;
	struct xc_port *tx;
	uint16_t rxq;
	uint16_t txq;
	char label[2 * RTE_ETH_NAME_MAX_LEN + 8];
	struct rte_mbuf *hold[XC_BURST];
	uint16_t hold_head;
	uint16_t hold_n;
	struct xc_dir_stats st;
} __rte_cache_aligned;

/**
 * struct xc_cable - two ports joined point to point
 * @name:	cable name, e.g. "cable0"
 * @end:	the two ports
 * @dir:	dir[0] carries end[0] -> end[1], dir[1] the reverse
 * @pool:	mbufs for this cable only, so one cable cannot starve another
 */
struct xc_cable {
	char name[32];
	struct xc_port *end[2];
	struct xc_dir dir[2];
	struct rte_mempool *pool;
};

/**
 * xc_port_tx_ready() - tell whether a direction may transmit on its port
 * @d:		direction
 *
 * Return: true if the peer's link is up and its queue is enabled
 */
static inline bool xc_port_tx_ready(const struct xc_dir *d)
{
	return __atomic_load_n(&d->tx->link_up, __ATOMIC_ACQUIRE) &&
	       (__atomic_load_n(&d->tx->txq_on, __ATOMIC_ACQUIRE) >>
		(d->txq & 63) & 1);
}

#endif /* XC_CABLE_H */
