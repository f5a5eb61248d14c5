/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dir.c - a direction of a cable: receive a burst on one end, take it
 *	   through the direction's stages, send it out of the other
 *
 * Theory of operation: a direction first retries the frames its peer did
 * not take last time (the hold queue). While any are held it receives
 * nothing new: the sending guest's Tx ring fills up and the guest itself
 * slows down, which is how a slow receiver is handled without losing a
 * frame. Frames are dropped only when the peer cannot take any (its link
 * or queue is down), and every drop is counted under its reason. While
 * the guest a direction sends to moves to another QEMU (a live migration,
 * XC_PAUSED_HOLD), the direction neither sends nor receives: its frames
 * wait, here and in the sending guest's ring, until the destination runs
 * or the wait is over (control/migrate.c); so do they from the moment
 * the moving guest's frontend disables its queues, which it does just
 * before it stops its device (tx_stopping()). Which lcore polls a direction,
 * and when it sleeps, is fwd.c's.
 *
 * Between receive and transmit a frame goes through its direction's
 * stages, in order: one function each, of one signature (xc_stage_fn),
 * called once per burst with the direction and the burst (struct
 * xc_burst, the frames between receive and transmit). xc_dir_build() gives
 * each direction the stages it needs, and only those:
 *
 *   fix_offloads  always, first: takes the received frames out of the raw
 *		   queue into the burst, made fit for the receiving end (a
 *		   TSO frame may become many segments there); what does not
 *		   fit stays received, in order, for the next round
 *   xc_steer_stage a multiqueue cable between guests (steer.c): each
 *		   frame's flow, so that it goes to the receiving guest's
 *		   queue for that flow, and the queue the sending guest used
 *		   for it; its sender, xc_steer_send(), then sends each
 *		   queue's frames
 *   tx_stage	   the receiving end's kind has a stage of its own for
 *		   the frames it is sent (xc_end_ops; a trunk member's
 *		   pushes its outer tag)
 *   impair	   the direction is impaired, or frames still wait in its
 *		   impairment queue: through that queue
 *   rx_stage	   the sending end's kind has a stage of its own for the
 *		   frames received from it (xc_end_ops; a wire's kinds
 *		   join TCP segments into TSO frames for a guest that
 *		   takes them, coalesce.c)
 *   make_whole	   the receiving port's driver sends no chained mbufs:
 *		   chains are copied into one mbuf
 *
 * The burst is the (empty) hold queue, so what the receiver does not take
 * is held where the stages left it. The main thread builds the list at
 * set-up, before the lcore starts; after that only the owning lcore
 * changes it, between bursts: when it takes a new impairment configuration
 * (xcablectl may impair any cable at any time) and when an impairment
 * that was switched off has let its last frame go. A frame waiting in the
 * impairment queue keeps the direction going even when nothing new is
 * received.
 *
 * The hot path makes no system calls and no per-frame indirect calls; it
 * allocates mbufs only to segment a frame for a receiver that cannot take
 * it whole, or to copy a chained frame for a driver that takes single
 * mbufs only.
 */
#include <errno.h>
#include <stdio.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "dir.h"
#include "mbstack.h"
#include "offload.h"
#include "tap.h"

/* mbufs one received frame may take at most from a pool of default
 * mbufs: a 64 KB GSO frame with its Ethernet header and two tags, in
 * segments of RTE_MBUF_DEFAULT_DATAROOM bytes (what a guest sends beyond
 * that is its own loss, logged by the vhost library) */
#define XC_RX_SEGS_MAX \
	((65535 + 22 + RTE_MBUF_DEFAULT_DATAROOM - 1) / RTE_MBUF_DEFAULT_DATAROOM)

/**
 * xc_dir_drop() - free frames of a direction and count them under a
 *		   reason (its lcore: a stage's)
 * @d:		direction
 * @pkts:	frames
 * @n:		how many
 * @why:	reason
 */
void xc_dir_drop(struct xc_dir *d, struct rte_mbuf **pkts, unsigned int n,
		 enum xc_drop why)
{
	rte_pktmbuf_free_bulk(pkts, n);
	xc_stat_add(&d->st.drop[why], n);
}

/**
 * xc_dir_send_queue() - offer frames to one Tx queue of the peer, in
 *			 bursts, until it takes no more
 * @d:		direction
 * @q:		the peer's queue
 * @pkts:	frames, owned by us
 * @n:		how many
 * @bytes:	the bytes of those it sent are added here
 * @refused:	the number of those it took but could not send (counted
 *		as dropped by the end, set to NULL in @pkts) is added here
 *
 * Return: number of frames the peer took (a prefix); the rest are ours
 */
unsigned int xc_dir_send_queue(struct xc_dir *d, uint16_t q,
			       struct rte_mbuf **pkts, unsigned int n,
			       uint64_t *bytes, unsigned int *refused)
{
	unsigned int done = 0, nope = 0;
	uint32_t len[XC_BURST];
	uint64_t sum = 0;

	/* sums in locals: adding to *@bytes frame by frame made each add
	 * wait for the store before it */
	while (done < n) {
		uint16_t k = (uint16_t)RTE_MIN(n - done, (unsigned int)XC_BURST);
		uint16_t i, sent;

		/* the port frees what it takes, so read lengths first */
		for (i = 0; i < k; i++)
			len[i] = pkts[done + i]->pkt_len;
		sent = xc_end_tx(d->tx, q, pkts + done, k, d->st.drop);
		for (i = 0; i < sent; i++) {
			if (unlikely(pkts[done + i] == NULL))
				nope++;
			else
				sum += len[i];
		}
		done += sent;
		if (sent < k)
			break;
	}
	*bytes += sum;
	*refused += nope;
	return done;
}

/**
 * send_all() - offer frames to the peer and count what it sent (what it
 *		took but could not send, it counted as dropped)
 * @d:		direction
 * @pkts:	frames, owned by us
 * @n:		how many
 *
 * Return: number of frames the peer took, a prefix of @pkts; the rest
 *	   are still ours
 */
static unsigned int send_all(struct xc_dir *d, struct rte_mbuf **pkts,
			     unsigned int n)
{
	uint64_t bytes = 0;
	unsigned int done, refused = 0;

	if (d->tx->steer != NULL)
		done = xc_steer_send(d, pkts, n, &bytes, &refused);
	else
		done = xc_dir_send_queue(d, d->cur_txq, pkts, n, &bytes,
					 &refused);
	xc_stat_add(&d->st.tx_pkts, done - refused);
	xc_stat_add(&d->st.tx_bytes, bytes);
	return done;
}

/**
 * send_tapped() - send_all() for a direction whose receiving end is
 *		   captured: each frame is referenced once more while it is
 *		   offered, so that those the end took (and sent: not those
 *		   it refused) can be copied after; the others are as they
 *		   were
 * @d:		direction
 * @t:		the taps of its @tx end
 * @pkts:	frames, owned by us
 * @n:		how many
 *
 * Return: as send_all()
 */
static unsigned int send_tapped(struct xc_dir *d, struct xc_tap *t,
				struct rte_mbuf **pkts, unsigned int n)
{
	struct rte_mbuf *held[XC_HOLD_MAX], *sent[XC_HOLD_MAX];
	unsigned int i, done, k = 0;

	for (i = 0; i < n; i++) {
		held[i] = pkts[i];
		xc_tap_ref(held[i], 1);
	}
	done = send_all(d, pkts, n);
	for (i = 0; i < done; i++)
		if (pkts[i] != NULL)	/* NULL: taken, but refused */
			sent[k++] = held[i];
	xc_tap_copy(t, sent, k, rte_rdtsc());
	rte_pktmbuf_free_bulk(held, done);	/* the references taken */
	for (i = done; i < n; i++)
		xc_tap_ref(held[i], -1);
	return done;
}

/**
 * xmit() - offer frames to the peer (send_all()), copying those it took
 *	    for the captures of the peer's end, if any
 * @d:		direction
 * @pkts:	frames, owned by us
 * @n:		how many
 *
 * Return: number of frames the peer took, a prefix of @pkts; the rest
 *	   are still ours
 */
static inline unsigned int xmit(struct xc_dir *d, struct rte_mbuf **pkts,
				unsigned int n)
{
	struct xc_tap *t = __atomic_load_n(&d->tap_out, __ATOMIC_ACQUIRE);

	if (unlikely(t != NULL) && n)
		return send_tapped(d, t, pkts, n);
	return send_all(d, pkts, n);
}

/**
 * fix_offloads() - stage, always the first: take received frames from the
 *		    raw queue into the burst, made fit for the receiving end
 *		    (offload fix-up; a TSO frame may become many segments)
 * @d:		direction
 * @b:		burst, filled up to its room; frames that do not fit this
 *		time, or find no mbufs to be segmented into, stay in the raw
 *		queue, in order, for the next round
 */
static void fix_offloads(struct xc_dir *d, struct xc_burst *b)
{
	uint64_t caps = xc_end_caps(d->tx);
	/* in locals: written back once, not per frame */
	uint16_t head = d->raw_head, left = d->raw_n, n = b->n;

	while (left) {
		struct rte_mbuf *m = d->raw[head];
		int k;

		if (likely(!xc_off_needed(m, caps))) {
			if (n == b->room)
				break;
			b->pkts[n++] = m;
		} else {
			k = xc_off_fixup(&d->off, m, caps, b->pkts + n,
					 b->room - n, &d->st);
			if (k < 0)
				break;	/* no room or no mbufs: next round */
			n += (uint16_t)k;
		}
		head++;
		left--;
	}
	d->raw_head = head;
	d->raw_n = left;
	b->n = n;
}

/**
 * impair() - stage for an impaired direction: the burst goes into the
 *	      impairment queue, behind what waits there, and the frames
 *	      whose time has come take its place
 * @d:		direction
 * @b:		burst
 *
 * Once the impairment is switched off and its queue is empty the stage
 * lets the burst pass and asks the lcore to build the stages again,
 * without this one (see xc_dir_poll()).
 */
static void impair(struct xc_dir *d, struct xc_burst *b)
{
	struct xc_impair *im = &d->im;

	if (unlikely(!im->active && !xc_impair_pending(im))) {
		d->restage = true;
		return;
	}
	if (b->n)
		xc_impair_in(im, b->pkts, b->n, d->off.pool, &d->st);
	b->n = (uint16_t)xc_impair_out(im, b->pkts, b->room);
}

/**
 * whole_pool() - the pool to make frames whole from, if the port a
 *		  direction sends to needs them so
 * @tx:		receiving end
 *
 * Return: that port's own pool, or NULL if it takes chains
 */
static inline struct rte_mempool *whole_pool(const struct xc_end *tx)
{
	return tx->port && tx->port->whole_only ? tx->port->own_pool : NULL;
}

/**
 * make_whole() - last stage for a receiver whose driver sends only
 *		  single-segment mbufs (af_xdp's in DPDK 22.11 sends the
 *		  first segment's address with the whole frame's length):
 *		  copy each chained frame (a guest's frame above 2 KB, a
 *		  software segment) into one mbuf of the port's own pool;
 *		  drop it as no-mbuf if none is left, as too-big if it does
 *		  not fit (the port's MTU bounds what reaches here)
 * @d:		direction
 * @b:		burst
 */
static void make_whole(struct xc_dir *d, struct xc_burst *b)
{
	struct rte_mempool *pool = whole_pool(d->tx);
	uint16_t i, k = 0;

	for (i = 0; i < b->n; i++) {
		struct rte_mbuf *m = b->pkts[i], *c;

		if (likely(m->nb_segs == 1)) {
			b->pkts[k++] = m;
			continue;
		}
		/* into one mbuf if it fits, else into a chain again */
		c = rte_pktmbuf_copy(m, pool, 0, UINT32_MAX);
		if (unlikely(c == NULL)) {
			xc_dir_drop(d, &m, 1, XC_DROP_NO_MBUF);
			continue;
		}
		if (unlikely(c->nb_segs > 1)) {
			rte_pktmbuf_free(c);
			xc_dir_drop(d, &m, 1, XC_DROP_TOO_BIG);
			continue;
		}
		rte_pktmbuf_free(m);
		b->pkts[k++] = c;
	}
	b->n = k;
}

/**
 * xc_dir_build() - give a direction the stages it needs, in order; the
 *		    one place that decides which stages a direction has
 * @d:		direction, with its ends, their pools and its impairment
 *		set up
 *
 * Called by the main thread at set-up, before the direction's lcore
 * starts, and after that only by that lcore, between bursts (from
 * xc_dir_poll(), when the impairment changed): the list has one writer at
 * a time, and only the owning lcore reads it. Takes the impairment
 * configuration published last (xc_impair_refresh()), the lcore's copy.
 */
void xc_dir_build(struct xc_dir *d)
{
	unsigned int n = 0;

	xc_impair_refresh(&d->im);
	/* at most XC_DIR_STAGES: one per stage function */
	d->stage[n++] = fix_offloads;
	if (d->rx->steer != NULL || d->tx->steer != NULL)
		d->stage[n++] = xc_steer_stage;
	if (d->tx->ops->tx_stage != NULL)
		d->stage[n++] = d->tx->ops->tx_stage;
	if (d->im.active || xc_impair_pending(&d->im))
		d->stage[n++] = impair;
	if (d->rx->ops->rx_stage != NULL)
		d->stage[n++] = d->rx->ops->rx_stage;
	if (whole_pool(d->tx) != NULL)
		d->stage[n++] = make_whole;
	d->n_stages = (uint8_t)n;
	d->restage = false;
}

/**
 * run_stages() - take received frames through the direction's stages into
 *		  the hold queue
 * @d:		direction, with an empty hold queue
 */
static inline void run_stages(struct xc_dir *d)
{
	struct xc_burst b = { .pkts = d->hold, .n = 0, .room = XC_HOLD_MAX };
	unsigned int i;

	/* the first stage is always fix_offloads (xc_dir_build()): called
	 * directly, so that a plain direction makes no indirect call */
	fix_offloads(d, &b);
	for (i = 1; i < d->n_stages; i++)
		d->stage[i](d, &b);
	d->hold_n = b.n;
}

/**
 * rx_slack() - free mbufs a direction leaves to the other lcores that
 *		share its pool: each of them may fill its cache from the
 *		pool's stack beyond its share (mbstack.c)
 * @d:		direction
 *
 * Return: the count
 */
static inline unsigned int rx_slack(const struct xc_dir *d)
{
	return (d->rx_share - 1u) * XC_MBSTACK_CACHE;
}

/**
 * rx_budget() - how many frames a direction may receive now: a whole
 *		 burst, unless its end's driver chains large frames out of
 *		 a pool too short for a burst of the largest ones (the
 *		 vhost library would lose the frame whose chain ran dry,
 *		 and count it nowhere); then what its share of the free
 *		 mbufs surely holds, and the pool is asked to grow (a
 *		 cable's pool starts small, pool.c). Frames not taken wait
 *		 in the guest's ring.
 * @d:		direction
 *
 * Return: frames to ask for, 0 to XC_BURST
 */
static inline uint16_t rx_budget(struct xc_dir *d)
{
	unsigned int per, avail, slack;

	if (likely(d->rx_pool == NULL))
		return XC_BURST;
	d->starved = false;
	per = XC_RX_SEGS_MAX * d->rx_share;
	slack = rx_slack(d);
	/* the stack's and this lcore's cache's: what its next take finds */
	avail = xc_mbstack_avail(d->rx_pool);
	if (likely(avail >= XC_BURST * per + slack))
		return XC_BURST;
	return (uint16_t)(avail > slack ? (avail - slack) / per : 0);
}

/* bursts of small frames cut short in a row before the pool is asked to
 * grow: frames of a light stream that met in a ring now and then need no
 * bigger pool */
#define XC_RX_SHORT_ASK		8

/**
 * rx_short() - a burst was cut short by rx_budget() and may have left
 *		frames behind: ask the main thread for a pool that holds a
 *		whole burst of the largest frames, at once if nothing could
 *		be taken or the frames were chains (large frames, which the
 *		cut is for), else once the cut kept happening
 * @d:		direction
 * @n:		frames received, in d->raw (0: nothing could be taken)
 */
static void rx_short(struct xc_dir *d, uint16_t n)
{
	uint32_t need = XC_BURST * XC_RX_SEGS_MAX * d->rx_share + rx_slack(d);
	bool chains = n == 0;
	uint16_t i;

	for (i = 0; i < n && !chains; i++)
		chains = d->raw[i]->nb_segs > 1;
	if (!chains && ++d->rx_cut < XC_RX_SHORT_ASK)
		return;
	d->starved = true;	/* the lcore sleeps briefly, the main thread wakes */
	d->rx_cut = 0;
	if (d->pool_want != NULL &&
	    __atomic_load_n(d->pool_want, __ATOMIC_RELAXED) < need)
		__atomic_store_n(d->pool_want, need, __ATOMIC_RELAXED);
}

/**
 * tx_stopping() - the guest this direction sends to is moving, and its
 *		   device stops: its queues are disabled before its link
 *		   goes down (and frames wait, XC_PAUSED_HOLD); what the
 *		   direction holds meanwhile waits too, not dropped
 * @d:		direction
 *
 * Return: true if so
 */
static inline bool tx_stopping(const struct xc_dir *d)
{
	return d->tx->port != NULL && xc_port_stopping(d->tx->port);
}

/**
 * xc_dir_poll() - one round of a direction: retry held frames, or receive a
 *		   new burst and send it on
 * @d:		direction
 *
 * Return: number of frames moved or dropped in this round (0: idle)
 */
unsigned int xc_dir_poll(struct xc_dir *d)
{
	uint32_t paused = d->paused ? __atomic_load_n(d->paused,
						      __ATOMIC_ACQUIRE) : 0;
	uint64_t bytes = 0;
	unsigned int sent, work = 0;
	struct xc_tap *tap;
	uint16_t n, i;

	if (unlikely(paused)) {
		/* the cable is being pulled, or the end this direction
		 * receives from is out: drop what waits, touch nothing (a
		 * direction towards an end that is out sees its link down) */
		if (paused & (XC_PAUSED_ALL | XC_PAUSED_RX(d->rx->idx))) {
			if (d->hold_n || d->raw_n ||
			    xc_impair_pending(&d->im))
				xc_dir_flush(d, XC_DROP_CABLE_DOWN);
			return 0;
		}
		/* the guest it sends to is moving: what it holds waits, and
		 * what it would receive waits in the sender's ring */
		if (paused & XC_PAUSED_HOLD(d->tx->idx))
			return 0;
	}
	if (unlikely(xc_impair_changed(&d->im) || d->restage))
		xc_dir_build(d);
	if (d->hold_n || d->raw_n) {
		if (!xc_dir_pick_txq(d)) {
			if (tx_stopping(d))
				return 0;
			work = d->hold_n + d->raw_n;
			xc_dir_flush(d, XC_DROP_PEER_DOWN);
			return work;
		}
		sent = xmit(d, d->hold + d->hold_head, d->hold_n);
		d->hold_head += sent;
		d->hold_n -= sent;
		if (d->hold_n)
			return sent; /* backpressure: take nothing new */
		d->hold_head = 0;
		work = sent;
	}

	if (d->raw_n == 0) {
		uint16_t budget = rx_budget(d);

		n = budget ? xc_end_rx(d->rx, d->rxq, d->raw, budget) : 0;
		if (unlikely(n == budget && budget < XC_BURST))
			rx_short(d, n);
		else if (d->rx_pool != NULL)
			d->rx_cut = 0;
		if (n == 0 && !xc_impair_pending(&d->im))
			return work;
		for (i = 0; i < n; i++)
			bytes += d->raw[i]->pkt_len;
		tap = __atomic_load_n(&d->tap_in, __ATOMIC_ACQUIRE);
		if (unlikely(tap != NULL) && n)
			xc_tap_copy(tap, d->raw, n, rte_rdtsc());
		xc_stat_add(&d->st.rx_pkts, n);
		xc_stat_add(&d->st.rx_bytes, bytes);
		d->raw_head = 0;
		d->raw_n = n;
		work += n;
		if (d->tx->steer != NULL && n)
			xc_steer_received(d);
		if (!xc_dir_pick_txq(d)) {
			if (tx_stopping(d))
				return work;
			work += d->im.n;
			xc_dir_flush(d, XC_DROP_PEER_DOWN);
			return work;
		}
	}
	run_stages(d);
	if (d->tx->steer != NULL)
		xc_steer_sorted(d);
	sent = xmit(d, d->hold, d->hold_n);
	d->hold_head = (uint16_t)sent;
	d->hold_n = (uint16_t)(d->hold_n - sent);
	if (d->hold_n == 0)
		d->hold_head = 0;
	return work + sent;
}

/**
 * xc_dir_drain() - at shutdown, take what the sender has queued and count
 *		    it as dropped, so that nothing a guest sent is lost
 *		    without a count
 * @d:		direction, whose lcore must not be running
 * @max:	at most this many frames (a guest may keep sending)
 */
void xc_dir_drain(struct xc_dir *d, unsigned int max)
{
	struct rte_mbuf *pkts[XC_BURST];
	uint64_t bytes, give_up = 0;
	unsigned int total = 0;
	uint16_t n, i;

	if (d->rx->port && !d->rx->port->started)	/* unplugged (pulled) */
		return;
	while (total < max) {
		n = xc_end_rx(d->rx, d->rxq, pkts, XC_BURST);
		if (n == 0) {
			/* a trunk member's frames may wait to be gathered
			 * (trunk.c): they are handed over within
			 * XC_RX_GATHER_MAX_US; a millisecond at most */
			if (d->rx->ops->queued == NULL ||
			    !d->rx->ops->queued(d->rx))
				break;
			if (give_up == 0)
				give_up = rte_rdtsc() + rte_get_tsc_hz() / 1000;
			else if (rte_rdtsc() > give_up)
				break;
			rte_pause();
			continue;
		}
		for (i = 0, bytes = 0; i < n; i++)
			bytes += pkts[i]->pkt_len;
		xc_stat_add(&d->st.rx_pkts, n);
		xc_stat_add(&d->st.rx_bytes, bytes);
		xc_dir_drop(d, pkts, n, XC_DROP_SHUTDOWN);
		total += n;
	}
}

/**
 * xc_dir_flush() - drop whatever a direction still holds
 * @d:		direction, whose lcore must not be running
 * @why:	reason to count the frames under
 */
void xc_dir_flush(struct xc_dir *d, enum xc_drop why)
{
	if (d->hold_n)
		xc_dir_drop(d, d->hold + d->hold_head, d->hold_n, why);
	if (d->raw_n)
		xc_dir_drop(d, d->raw + d->raw_head, d->raw_n, why);
	xc_impair_flush(&d->im, &d->st, why);
	d->hold_head = d->hold_n = 0;
	d->raw_head = d->raw_n = 0;
	if (d->tx->steer != NULL)
		xc_steer_forget(d);
}

/**
 * xc_cable_dirs_create() - give a cable its directions, two per queue pair,
 *			    named after its ends, each with its offload and
 *			    impairment state
 * @c:		cable with both ends, n_queues and pools set
 * @ic:		impairments to start with, end[0] -> end[1] and back
 * @seed:	seed of the impairments' random numbers
 *
 * Return: 0, or -ENOMEM
 */
int xc_cable_dirs_create(struct xc_cable *c, const struct xc_impair_cfg ic[2],
			 uint64_t seed)
{
	int socket = xc_cable_numa(c);
	unsigned int j, q;

	c->dir = rte_zmalloc_socket("xc_dir", 2 * c->n_queues * sizeof(*c->dir),
				    RTE_CACHE_LINE_SIZE, socket);
	if (c->dir == NULL)
		return -ENOMEM;
	if (xc_steer_tables_make(c, socket))
		return -ENOMEM;
	for (q = 0; q < c->n_queues; q++) {
		for (j = 0; j < 2; j++) {
			struct xc_dir *d = &c->dir[2 * q + j];

			d->rx = &c->end[j];
			d->tx = &c->end[1 - j];
			d->rxq = d->txq = d->cur_txq = (uint16_t)q;
			d->paused = &c->paused;
			snprintf(d->label, sizeof(d->label), "%s->%s",
				 d->rx->label, d->tx->label);
			xc_off_init(&d->off, c->pool, c->ipool);
			/* a guest's large frames are chains of c->pool's,
			 * and so are a netdev end's */
			if ((d->rx->ops == &xc_end_whole_ops &&
			     d->rx->port->ops->rx_chains) ||
			    d->rx->ops->rx_chains)
				d->rx_pool = c->pool;
			d->rx_share = 1;	/* lcores.c may say more */
			d->pool_want = c->pool_want;
			if (xc_impair_init(&d->im, seed ^ (2ULL * q + j) << 32,
					   socket))
				return -ENOMEM;
			xc_impair_set(&d->im, &ic[j]);
		}
	}
	return 0;
}

/**
 * xc_cable_dirs_free() - free a cable's directions (their lcores stopped)
 * @c:		cable
 */
void xc_cable_dirs_free(struct xc_cable *c)
{
	unsigned int j;

	for (j = 0; c->dir && j < 2 * c->n_queues; j++) {
		xc_impair_fini(&c->dir[j].im);
		/* its captures end here: no lcore holds their taps now */
		xc_tap_slot_freed(&c->dir[j].tap_in);
		xc_tap_slot_freed(&c->dir[j].tap_out);
	}
	rte_free(c->dir);
	c->dir = NULL;
	xc_steer_tables_free(c);
}
