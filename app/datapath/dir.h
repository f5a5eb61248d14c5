/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dir.h - a direction of a cable, and the stages its frames go through
 *	   (dir.c; multiqueue steering's stage and sender in steer.c)
 *
 * Folder app/datapath/: what the forwarding lcores run (directions,
 * stages, steering, offloads, impairments, the loop and its sleep). A
 * kind's own stage is its end ops' tx_stage, in app/kinds/, not here.
 */
#ifndef XC_DIR_H
#define XC_DIR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cable.h"
#include "impair.h"
#include "offload.h"
#include "stats.h"

#define XC_HOLD_MAX		XC_SEG_MAX	/* frames ready to send */
#define XC_DIR_STAGES		6	/* stages a direction can have */

struct xc_burst;
struct xc_dir;
struct xc_tap;

/**
 * struct xc_dir - one direction of a cable: receive on @rx, send on @tx;
 *		   set up by the main thread, then owned by one lcore, which
 *		   alone writes everything below but @im's published settings
 * @rx:		end frames come from
 * @tx:		end frames go to
 * @rxq:	Rx queue on @rx
 * @txq:	Tx queue on @tx, when the peer enabled it
 * @cur_txq:	Tx queue used this round (see xc_dir_pick_txq())
 * @txq_mask:	Tx queues the peer enabled this round, bit q for queue q
 *		(see xc_dir_pick_txq(); what steering picks from)
 * @ticket:	to a steered receiver: the number of the burst received
 *		last, which orders what this direction holds against what
 *		the other directions feeding that receiver hold (steer.h)
 * @label:	"rxname->txname", for messages
 * @raw:	frames received, not yet through the stages
 * @raw_head:	index of the first of them
 * @raw_n:	how many
 * @hold:	frames ready to send but not yet taken by @tx (backpressure)
 * @hold_head:	index of the first held frame
 * @hold_n:	number of held frames
 * @off:	software offload state
 * @im:		impairments (delay, loss, rate, ...); the control thread
 *		publishes new settings through its seqlock
 * @paused:	the cable's pause flags: XC_PAUSED_ALL, or XC_PAUSED_RX of
 *		@rx's end, and the direction touches no port
 * @stage:	what a received burst goes through before it is sent, in
 *		order (see dir.c): only the stages this direction needs,
 *		chosen by xc_dir_build(); written by the main thread at
 *		set-up, before the lcore starts, then only by the owning
 *		lcore, between bursts
 * @n_stages:	how many (same writers as @stage)
 * @restage:	build @stage again before the next burst: a stage no
 *		longer needed says so (written by the owning lcore)
 * @rx_pool:	the pool @rx builds received frames from, when its driver
 *		chains large frames and loses one whose chain runs dry
 *		(xc_port_ops.rx_chains); NULL otherwise (set up by the main
 *		thread)
 * @rx_share:	lcores that take from @rx_pool at the same time, this
 *		direction's included (set up by the main thread): each
 *		bounds its bursts by its share of the free mbufs
 * @pool_want:	where this direction asks the main thread for a bigger
 *		pool: the free mbufs a whole burst needs (written by the
 *		owning lcore, cleared by the main thread); NULL if none
 * @starved:	the last burst was cut short by @rx_pool's free mbufs and
 *		the pool asked to grow (written by the owning lcore)
 * @rx_cut:	bursts of small frames cut short in a row (the same)
 * @tap_in:	the captures of @rx: copies of the frames received from it
 *		(tap.h; put on and taken off by the captures, read by the
 *		owning lcore once per burst)
 * @tap_out:	the captures of @tx: copies of the frames it took (the same)
 * @st:		counters, written only by the owning lcore
 */
struct xc_dir {
	struct xc_end *rx;
	struct xc_end *tx;
	uint16_t rxq;
	uint16_t txq;
	uint16_t cur_txq;
	uint64_t txq_mask;
	uint64_t ticket;
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
	struct rte_mempool *rx_pool;
	uint16_t rx_share;
	uint32_t *pool_want;
	bool starved;
	uint8_t rx_cut;
	struct xc_tap *tap_in;
	struct xc_tap *tap_out;
	struct xc_dir_stats st;
} __rte_cache_aligned;

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
	const struct xc_port *p = d->tx->port;
	uint64_t on;
	unsigned int k;

	if (unlikely(p == NULL)) {	/* an end without a port: one queue */
		d->cur_txq = 0;
		return d->tx->ops->is_up(d->tx);
	}
	if (!xc_port_is_up(p))
		return false;
	on = __atomic_load_n(&p->txq_on, __ATOMIC_ACQUIRE) &
	     ((1ULL << p->conf.n_queues) - 1);
	d->txq_mask = on;
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
 *		      queues (any thread)
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

/**
 * struct xc_burst - the frames of one round of a direction, on their way
 *		     from receive to transmit (the stages' work, see dir.c)
 * @pkts:	the frames, in order
 * @n:		how many
 * @room:	size of @pkts: a stage may add frames up to it
 */
struct xc_burst {
	struct rte_mbuf **pkts;
	uint16_t n;
	uint16_t room;
};

/* dir.c */
void xc_dir_build(struct xc_dir *d);
unsigned int xc_dir_poll(struct xc_dir *d);
void xc_dir_flush(struct xc_dir *d, enum xc_drop why);
void xc_dir_drain(struct xc_dir *d, unsigned int max);
void xc_dir_drop(struct xc_dir *d, struct rte_mbuf **pkts, unsigned int n,
		 enum xc_drop why);
unsigned int xc_dir_send_queue(struct xc_dir *d, uint16_t q,
			       struct rte_mbuf **pkts, unsigned int n,
			       uint64_t *bytes, unsigned int *refused);
int xc_cable_dirs_create(struct xc_cable *c, const struct xc_impair_cfg ic[2],
			 uint64_t seed);
void xc_cable_dirs_free(struct xc_cable *c);

/* steer.c: multiqueue steering on the data path */
void xc_steer_stage(struct xc_dir *d, struct xc_burst *b);
unsigned int xc_steer_send(struct xc_dir *d, struct rte_mbuf **pkts,
			   unsigned int n, uint64_t *bytes, unsigned int *refused);
void xc_steer_received(struct xc_dir *d);
void xc_steer_sorted(struct xc_dir *d);
void xc_steer_forget(struct xc_dir *d);
int xc_steer_tables_make(struct xc_cable *c, int socket);
void xc_steer_tables_free(struct xc_cable *c);

#endif /* XC_DIR_H */
