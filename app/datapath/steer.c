/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * steer.c - multiqueue steering on the data path: one stage, one sender,
 *	     and what a direction tells the flow tables (steer.h) as it
 *	     receives, sorts and drops frames
 *
 * A direction whose receiving end has a flow table (an end of several
 * queues, all its own) sends each frame to the queue its flow was last
 * received on from that guest; the stage hashes and learns, the sender
 * sends each queue's frames in order, behind what older bursts for that
 * queue still hold in other directions (the tickets). Everything here runs
 * on the lcore that owns the direction, but the tables' making and
 * freeing (main thread, lcores stopped).
 */
#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "dir.h"
#include "steer.h"

/**
 * steer_now() - the time in ms, for the flow tables (steer.h)
 *
 * Return: milliseconds since the TSC started, modulo 2^32
 */
static inline uint32_t steer_now(void)
{
	return (uint32_t)(rte_rdtsc() / (rte_get_tsc_hz() / 1000));
}

/**
 * xc_steer_stage() - stage of a multiqueue cable: hash each frame's
 *		      flow into hash.rss, for the receiving guest's queue
 *		      choice (xc_steer_send()), and remember the queue the
 *		      sending guest used for it
 * @d:		direction whose sender or receiver has a flow table
 * @b:		burst
 */
void xc_steer_stage(struct xc_dir *d, struct xc_burst *b)
{
	struct xc_steer *learn = d->rx->steer;
	uint32_t now = learn != NULL ? steer_now() : 0;
	uint16_t i;

	for (i = 0; i < b->n; i++) {
		struct rte_mbuf *m = b->pkts[i];

		m->hash.rss = xc_steer_hash(rte_pktmbuf_mtod(m, uint8_t *),
					    m->data_len);
		if (learn != NULL)
			xc_steer_learn(learn, m->hash.rss, d->rxq, now);
	}
}

/**
 * xc_steer_send() - offer frames to the queues steering picks for their
 *		     flows: each queue's frames in one go, in order
 * @d:		direction whose receiver has a flow table
 * @pkts:	frames, owned by us, their flow hash in hash.rss
 * @n:		how many
 * @bytes:	the bytes of those sent are added here
 * @refused:	as for xc_dir_send_queue()
 *
 * A queue that does not take all its frames keeps the rest, in order;
 * those are moved to the end of @pkts, in their order, so that what was
 * taken is a prefix as for xc_dir_send_queue(). Frames for a queue for which
 * another direction feeding the same guest holds older frames are not
 * offered yet (steer.h: what was received first is delivered first).
 *
 * Return: number of frames taken
 */
unsigned int xc_steer_send(struct xc_dir *d, struct rte_mbuf **pkts,
			   unsigned int n, uint64_t *bytes, unsigned int *refused)
{
	struct xc_steer *t = d->tx->steer;
	struct rte_mbuf *mine[XC_HOLD_MAX];
	uint16_t idx[XC_HOLD_MAX];
	uint8_t q_of[XC_HOLD_MAX];
	unsigned int i, k, m, sent, taken = 0;
	uint32_t now = steer_now();
	uint64_t used = 0, held = 0;

	for (i = 0; i < n; i++) {
		q_of[i] = (uint8_t)xc_steer_pick(t, pkts[i]->hash.rss,
						 d->txq_mask, now);
		used |= 1ULL << q_of[i];
	}
	while (used) {
		uint16_t q = (uint16_t)__builtin_ctzll(used);

		used &= used - 1;
		for (i = 0, m = 0; i < n; i++)
			if (q_of[i] == q) {
				idx[m] = (uint16_t)i;
				mine[m++] = pkts[i];
			}
		/* older frames for q wait in another direction: after them */
		sent = xc_steer_may_send(t, d->rxq, q, d->ticket) ?
		       xc_dir_send_queue(d, q, mine, m, bytes, refused) : 0;
		for (k = 0; k < sent; k++)
			pkts[idx[k]] = NULL;
		if (sent < m)
			held |= 1ULL << q;
		taken += sent;
	}
	xc_steer_publish(t, d->rxq, held, d->ticket);
	for (i = n, k = n; i-- > 0;)
		if (pkts[i] != NULL)
			pkts[--k] = pkts[i];
	return taken;
}

/**
 * xc_steer_received() - a steered receiver's direction received a burst:
 *			 number it, so that what it holds is ordered against
 *			 what other directions feeding that receiver hold
 * @d:		direction, its receiver steered
 */
void xc_steer_received(struct xc_dir *d)
{
	d->ticket = __atomic_fetch_add(&d->tx->steer->ticket, 1,
				       __ATOMIC_RELAXED);
}

/**
 * xc_steer_sorted() - after the stages: frames of the burst still unsorted
 *		       (waiting for room, in the raw queue) hold back the
 *		       queues they may go to; none, none
 * @d:		direction, its receiver steered
 */
void xc_steer_sorted(struct xc_dir *d)
{
	xc_steer_unsorted(d->tx->steer, d->rxq,
			  d->raw_n ? d->ticket : XC_STEER_NONE);
}

/**
 * xc_steer_forget() - the direction dropped all it held: it holds back no
 *		       queue of its receiver any more
 * @d:		direction, its receiver steered
 */
void xc_steer_forget(struct xc_dir *d)
{
	xc_steer_publish(d->tx->steer, d->rxq, 0, XC_STEER_NONE);
	xc_steer_unsorted(d->tx->steer, d->rxq, XC_STEER_NONE);
}

/**
 * steered() - does an end get a flow table (steer.h)? It does if it has
 *	       several queues, all its own, on a port that lets several
 *	       lcores send on one queue
 * @e:		end
 * @n_queues:	queue pairs of its cable
 *
 * Return: true if so
 */
static bool steered(const struct xc_end *e, unsigned int n_queues)
{
	return n_queues > 1 && !e->ops->shared && e->port != NULL &&
	       e->port->ops->mt_txq;
}

/**
 * xc_steer_tables_make() - give each end of a cable that is steered its
 *			    flow table (main thread, before its lcores run)
 * @c:		cable, n_queues set
 * @socket:	NUMA node of its memory
 *
 * Return: 0, or -ENOMEM (what was made is freed by
 *	   xc_steer_tables_free())
 */
int xc_steer_tables_make(struct xc_cable *c, int socket)
{
	unsigned int j;

	for (j = 0; j < 2; j++) {
		if (!steered(&c->end[j], c->n_queues))
			continue;
		c->end[j].steer = rte_zmalloc_socket("xc_steer",
						     sizeof(struct xc_steer),
						     RTE_CACHE_LINE_SIZE,
						     socket);
		if (c->end[j].steer == NULL)
			return -ENOMEM;
		xc_steer_init(c->end[j].steer, c->n_queues);
	}
	return 0;
}

/**
 * xc_steer_tables_free() - free a cable's flow tables (its lcores stopped)
 * @c:		cable
 */
void xc_steer_tables_free(struct xc_cable *c)
{
	unsigned int j;

	for (j = 0; j < 2; j++) {
		rte_free(c->end[j].steer);
		c->end[j].steer = NULL;
	}
}
