/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd.c - the forwarding loop: receive a burst on one end, send it out of
 *	   the other
 *
 * Theory of operation: each lcore owns a set of cable directions and visits
 * them round robin, one burst each per round, so no direction can starve
 * another. A direction first retries the frames its peer did not take last
 * time (the hold queue). While any are held it receives nothing new: the
 * sending guest's Tx ring fills up and the guest itself slows down, which is
 * how a slow receiver is handled without losing a frame. Frames are dropped
 * only when the peer cannot take any (its link or queue is down), and every
 * drop is counted under its reason.
 *
 * With adaptive polling (the default) an lcore that has had no work for
 * --idle-us sleeps until a guest kicks (see idle.c): a new frame, or, for a
 * direction whose peer is not draining, new receive buffers.
 *
 * Between receive and transmit sits xc_dir_stages(): the place for per-cable
 * stages (offload fix-up, capture, impairment). The hot path neither
 * allocates nor makes system calls.
 */
#include <sys/prctl.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "fwd.h"
#include "log.h"

/* a receiver that never takes its frames is looked at this often even
 * without a kick (a guest driver may refill without notifying) */
#define XC_BLOCKED_SLEEP_MS	1

RTE_LOG_REGISTER(xc_logtype_fwd, xcable.fwd, INFO);

/**
 * drop_burst() - free frames and count them under a reason
 * @d:		direction
 * @pkts:	frames
 * @n:		how many
 * @why:	reason
 */
static void drop_burst(struct xc_dir *d, struct rte_mbuf **pkts, uint16_t n,
		       enum xc_drop why)
{
	rte_pktmbuf_free_bulk(pkts, n);
	xc_stat_add(&d->st.drop[why], n);
}

/**
 * xmit() - offer frames to the peer and count what it took
 * @d:		direction
 * @pkts:	frames, owned by us
 * @n:		how many
 *
 * Return: number of frames the peer took; the rest are still ours
 */
static uint16_t xmit(struct xc_dir *d, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t len[XC_BURST];
	uint64_t bytes = 0;
	uint16_t i, sent;

	/* the PMD frees what it takes, so read lengths first */
	for (i = 0; i < n; i++)
		len[i] = pkts[i]->pkt_len;
	sent = rte_eth_tx_burst(d->tx->id, d->txq, pkts, n);
	for (i = 0; i < sent; i++)
		bytes += len[i];
	xc_stat_add(&d->st.tx_pkts, sent);
	xc_stat_add(&d->st.tx_bytes, bytes);
	return sent;
}

/**
 * xc_dir_stages() - per-cable stages between receive and transmit
 * @d:		direction
 * @pkts:	frames received, may be rewritten in place
 * @n:		how many
 *
 * Each stage may drop (counting the reason) or rewrite frames. None is
 * configured yet beyond the link check done by the caller.
 *
 * Return: number of frames left in @pkts to transmit
 */
static inline uint16_t xc_dir_stages(struct xc_dir *d, struct rte_mbuf **pkts,
				     uint16_t n)
{
	(void)d;
	(void)pkts;
	return n;
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
	struct rte_mbuf *pkts[XC_BURST];
	uint64_t bytes = 0;
	uint16_t n, i, sent;

	if (d->hold_n) {
		if (!xc_port_tx_ready(d)) {
			n = d->hold_n;
			drop_burst(d, d->hold + d->hold_head, n,
				   XC_DROP_PEER_DOWN);
			d->hold_head = d->hold_n = 0;
			return n;
		}
		sent = xmit(d, d->hold + d->hold_head, d->hold_n);
		d->hold_head += sent;
		d->hold_n -= sent;
		if (d->hold_n)
			return sent; /* backpressure: take nothing new */
		d->hold_head = 0;
	}

	n = rte_eth_rx_burst(d->rx->id, d->rxq, pkts, XC_BURST);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	xc_stat_add(&d->st.rx_pkts, n);
	xc_stat_add(&d->st.rx_bytes, bytes);

	if (!xc_port_tx_ready(d)) {
		drop_burst(d, pkts, n, XC_DROP_PEER_DOWN);
		return n;
	}
	n = xc_dir_stages(d, pkts, n);
	sent = xmit(d, pkts, n);
	if (sent < n) {
		for (i = sent; i < n; i++)
			d->hold[i - sent] = pkts[i];
		d->hold_head = 0;
		d->hold_n = n - sent;
	}
	return n;
}

/**
 * xc_dir_flush() - drop whatever a direction still holds
 * @d:		direction, whose lcore must not be running
 * @why:	reason to count the frames under
 */
void xc_dir_flush(struct xc_dir *d, enum xc_drop why)
{
	if (d->hold_n)
		drop_burst(d, d->hold + d->hold_head, d->hold_n, why);
	d->hold_head = d->hold_n = 0;
}

/**
 * poll_all() - one round over every direction of an lcore
 * @lc:		lcore
 * @blocked:	set if a direction still holds frames its peer did not take
 *
 * Return: frames moved or dropped in the round
 */
static unsigned int poll_all(struct xc_fwd_lcore *lc, bool *blocked)
{
	unsigned int i, work = 0;

	*blocked = false;
	for (i = 0; i < lc->n_dirs; i++) {
		work += xc_dir_poll(lc->dirs[i]);
		*blocked |= lc->dirs[i]->hold_n != 0;
	}
	return work;
}

/**
 * xc_fwd_loop() - lcore entry: poll the lcore's directions until told to
 *		   quit, sleeping on the guests' kicks when idle (adaptive)
 * @arg:	struct xc_fwd_lcore
 *
 * Return: 0
 */
int xc_fwd_loop(void *arg)
{
	struct xc_fwd_lcore *lc = arg;
	uint64_t now = rte_rdtsc(), next_hk = now + lc->hk_period;
	uint64_t last_work = now;
	unsigned int work;
	bool blocked;

	/* short sleeps must not be stretched by 50 us of timer slack */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	XC_LOG(fwd, INFO, "lcore %u forwards %u direction(s)%s, %s",
	       rte_lcore_id(), lc->n_dirs, lc->hk ? " and keeps house" : "",
	       lc->adaptive ? "sleeping when idle" : "busy polling");
	while (!*lc->quit) {
		work = poll_all(lc, &blocked);
		now = rte_rdtsc();
		if (lc->hk && now >= next_hk) {
			lc->hk(lc->hk_arg);
			next_hk = rte_rdtsc() + lc->hk_period;
		}
		if (work) {
			last_work = now;
			continue;
		}
		if (!lc->adaptive) {
			rte_pause();
			continue;
		}
		if (now - last_work < lc->idle_cycles) {
			rte_pause();
			continue;
		}
		/* no progress: ask for kicks (a new frame, or new buffers for
		 * what is held), look once more, then sleep */
		xc_idle_arm(&lc->idle);
		if (poll_all(lc, &blocked) == 0)
			xc_idle_wait(&lc->idle, blocked ? XC_BLOCKED_SLEEP_MS :
				     lc->max_sleep_ms);
		else
			xc_idle_wait(&lc->idle, 0);
		last_work = rte_rdtsc();
	}
	return 0;
}
