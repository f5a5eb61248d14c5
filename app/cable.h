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
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "guard.h"
#include "impair.h"
#include "offload.h"
#include "options.h"
#include "stats.h"
#include "trunk.h"

#define XC_BURST		32	/* packets per rx burst */
#define XC_RING_SIZE		1024	/* descriptors per queue */
#define XC_HOLD_MAX		XC_SEG_MAX	/* frames ready to send */

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
 * @sock_uid:	owner given to the socket, -1 to leave it
 * @sock_gid:	group given to the socket, -1 to leave it
 * @configured:	rte_eth_dev_configure() succeeded (socket may exist)
 * @started:	rte_eth_dev_start() succeeded
 * @link_up:	link state, written by events, read by lcores (atomic)
 * @txq_on:	bit q set when Tx queue q may be used (atomic)
 * @rxq_on:	bit q set when Rx queue q is enabled (atomic)
 * @caps:	what the port can receive: offloads and largest frame, packed
 *		by xc_caps_pack() (atomic; 0 while the link is down)
 * @offloads:	offer virtio offloads to the guest (vhost ports)
 * @n_queues:	queue pairs configured
 * @vh_busy:	threads inside a vhost library call for this port's device
 * @devargs:	how to probe the port again after an unplug (vdev name,args)
 * @cable:	cable this port is an end of, and which end (@end_idx)
 * @unplugging:	being unplugged: its link events are ours, not the VM's
 * @was_up:	link up when the main thread last looked (propagation)
 *		(atomic; see xc_port_vhost_enter())
 * @notify:	called from the event thread after a link or queue change
 * @notify_arg:	argument of @notify
 * @guard:	keeps a second frontend off a vhost server socket in use
 * @trunk:	for a cable end on a trunk: the trunk (the port itself is
 *		trunk->port; @id is its id)
 * @tag:	outer VLAN id of that end
 * @member_idx:	its index among the trunk's members
 * @carries:	for a port that is a trunk: the trunk
 * @mtu:	MTU to set at configure time, 0 to keep the driver's
 * @kiface:	kernel interface under the port (af_packet, af_xdp), or ""
 * @kfd:	socket to ask the kernel about it, -1 until needed
 * @framesz:	af_packet's frame size (its framesz= argument), 0 if none
 * @own_pool:	Rx mbufs of a port that is not a guest's (its own, sized
 *		for its frames), freed at exit; NULL for vhost ports
 * @whole_only:	its driver sends single-segment frames only (no
 *		MULTI_SEGS, as af_xdp's): chains are copied into one mbuf of
 *		@own_pool before they go to it
 */
struct xc_cable;
struct xc_trunk;

struct xc_port {
	uint16_t id;
	char name[RTE_ETH_NAME_MAX_LEN];
	char label[RTE_ETH_NAME_MAX_LEN];
	char iface[XC_SOCK_PATH_MAX];
	bool is_vhost;
	bool client;
	bool lsc;
	unsigned int sock_mode;
	int sock_uid;
	int sock_gid;
	bool configured;
	bool started;
	uint32_t link_up;
	uint64_t txq_on;
	uint64_t rxq_on;
	uint64_t caps;
	bool offloads;
	uint16_t n_queues;
	uint32_t vh_busy;
	char devargs[512];
	struct xc_cable *cable;
	int end_idx;
	bool unplugging;
	bool was_up;
	void (*notify)(void *arg);
	void *notify_arg;
	struct xc_guard guard;
	struct xc_trunk *trunk;
	uint16_t tag;
	uint8_t member_idx;
	struct xc_trunk *carries;
	unsigned int mtu;
	char kiface[IF_NAMESIZE];
	int kfd;
	unsigned int framesz;
	struct rte_mempool *own_pool;
	bool whole_only;
};

struct xc_burst;
struct xc_dir;

/* one stage of a direction: works on the frames of a burst, between
 * receive and transmit (fwd.c) */
typedef void xc_stage_fn(struct xc_dir *d, struct xc_burst *b);

#define XC_DIR_STAGES		4	/* stages a direction can have */

/**
 * struct xc_dir - one direction of a cable: receive on @rx, send on @tx
 * @rx:		port frames come from
 * @tx:		port frames go to
 * @rxq:	Rx queue on @rx
 * @txq:	Tx queue on @tx, when the peer enabled it
 * @cur_txq:	Tx queue used this round (see xc_dir_pick_txq())
 * @label:	"rxname->txname", for messages
 * @raw:	frames received, not yet through the stages
 * @raw_head:	index of the first of them
 * @raw_n:	how many
 * @hold:	frames ready to send but not yet taken by @tx (backpressure)
 * @hold_head:	index of the first held frame
 * @hold_n:	number of held frames
 * @off:	software offload state
 * @im:		impairments (delay, loss, rate, ...)
 * @paused:	the cable's pause flag: set, the direction touches no port
 * @stage:	what a received burst goes through before it is sent, in
 *		order (see fwd.c): only the stages this direction needs,
 *		chosen by xc_dir_build(); written by the main thread at
 *		set-up, before the lcore starts, then only by the owning
 *		lcore, between bursts
 * @n_stages:	how many (same writers as @stage)
 * @restage:	build @stage again before the next burst: a stage no
 *		longer needed says so (written by the owning lcore)
 * @st:		counters, written only by the owning lcore
 */
struct xc_dir {
	struct xc_port *rx;
	struct xc_port *tx;
	uint16_t rxq;
	uint16_t txq;
	uint16_t cur_txq;
	char label[2 * RTE_ETH_NAME_MAX_LEN + 8];
	struct rte_mbuf *raw[XC_BURST];
	uint16_t raw_head;
	uint16_t raw_n;
	struct rte_mbuf *hold[XC_HOLD_MAX];
	uint16_t hold_head;
	uint16_t hold_n;
	struct xc_off off;
	struct xc_impair im;
	const uint32_t *paused;
	xc_stage_fn *stage[XC_DIR_STAGES];
	uint8_t n_stages;
	bool restage;
	struct xc_dir_stats st;
} __rte_cache_aligned;

/**
 * struct xc_cable - two ports joined point to point
 * @name:	cable name, e.g. "cable0"
 * @end:	the two ports
 * @n_queues:	queue pairs used on both ends
 * @dir:	dir[2q] carries end[0] -> end[1] on queue q, dir[2q + 1] the
 *		reverse
 * @pool:	mbufs for this cable only, so one cable cannot starve another
 * @ipool:	indirect mbufs for segments that point into a TSO frame
 * @paused:	lcores leave this cable's ports alone (atomic)
 * @admin_down:	taken down by an operator (xcablectl down)
 * @pulled:	end[i] is unplugged: by an operator, or because end[1-i]
 *		went away (link propagation)
 * @req:	request for the main thread: XC_REQ_* (atomic)
 * @req_done:	the main thread's answer to @req: 1 done, -errno failed
 */
struct xc_cable {
	char name[32];
	struct xc_port *end[2];
	unsigned int n_queues;
	struct xc_dir dir[2 * XC_MAX_QUEUES];
	struct rte_mempool *pool;
	struct rte_mempool *ipool;
	uint32_t paused;
	bool admin_down;
	bool pulled[2];
	uint32_t req;
	int req_done;
};

#define XC_REQ_NONE	0
#define XC_REQ_DOWN	1	/* operator: take the cable down */
#define XC_REQ_UP	2	/* operator: bring it up */

/**
 * xc_port_vhost_enter() - start a call into the vhost library about this
 *			   port's device, if it still has one
 * @p:		vhost port
 *
 * The vhost library frees a device's vrings as soon as the PMD's
 * destroy callback returns; ours (link down) waits until no thread is
 * between enter and exit, and threads entering later see the link down.
 *
 * Return: true if the device may be used; then call xc_port_vhost_exit()
 */
static inline bool xc_port_vhost_enter(struct xc_port *p)
{
	__atomic_add_fetch(&p->vh_busy, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->link_up, __ATOMIC_SEQ_CST))
		return true;
	__atomic_sub_fetch(&p->vh_busy, 1, __ATOMIC_RELEASE);
	return false;
}

/**
 * xc_port_vhost_exit() - end what xc_port_vhost_enter() allowed
 * @p:		vhost port
 */
static inline void xc_port_vhost_exit(struct xc_port *p)
{
	__atomic_sub_fetch(&p->vh_busy, 1, __ATOMIC_RELEASE);
}

/**
 * xc_port_rx() - receive a burst from a cable end: a queue of its port,
 *		  or, for an end on a trunk, the frames carrying its tag
 * @p:		port
 * @q:		queue
 * @pkts:	filled
 * @n:		room
 *
 * Return: frames received
 */
static inline uint16_t xc_port_rx(struct xc_port *p, uint16_t q,
				  struct rte_mbuf **pkts, uint16_t n)
{
	if (unlikely(p->trunk != NULL))
		return xc_trunk_rx(p, pkts, n);
	return rte_eth_rx_burst(p->id, q, pkts, n);
}

/**
 * xc_dir_pick_txq() - choose the peer's Tx queue for this round: the
 *		       direction's own queue if the guest enabled it, else
 *		       one of those it did enable (a guest may use fewer
 *		       queue pairs than the other; the vhost library locks
 *		       each vring, so sharing one is safe)
 * @d:		direction; d->cur_txq is set
 *
 * Return: true if the peer's link is up and a queue is enabled
 */
static inline bool xc_dir_pick_txq(struct xc_dir *d)
{
	uint64_t on;
	unsigned int k;

	if (!__atomic_load_n(&d->tx->link_up, __ATOMIC_ACQUIRE))
		return false;
	on = __atomic_load_n(&d->tx->txq_on, __ATOMIC_ACQUIRE) &
	     ((1ULL << d->tx->n_queues) - 1);
	if (on >> d->txq & 1) {
		d->cur_txq = d->txq;
		return true;
	}
	if (on == 0)
		return false;
	for (k = d->txq % (unsigned int)__builtin_popcountll(on); k; k--)
		on &= on - 1;	/* drop the lowest set bit */
	d->cur_txq = (uint16_t)__builtin_ctzll(on);
	return true;
}

/**
 * xc_cable_stats() - counters of one direction of a cable, summed over its
 *		      queues
 * @c:		cable
 * @j:		0 for end[0] -> end[1], 1 for the reverse
 * @sum:	filled
 */
static inline void xc_cable_stats(const struct xc_cable *c, unsigned int j,
				  struct xc_dir_stats *sum)
{
	struct xc_dir_stats s;
	unsigned int q;

	memset(sum, 0, sizeof(*sum));
	for (q = 0; q < c->n_queues; q++) {
		xc_stats_snapshot(&c->dir[2 * q + j].st, &s);
		xc_stats_accumulate(sum, &s);
	}
}

#endif /* XC_CABLE_H */
