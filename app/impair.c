/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impair.c - netem-style impairments of one cable direction
 *
 * Theory of operation: the control side (command line, config file,
 * xcablectl) writes a direction's configuration under a seqlock; its lcore
 * copies it when the sequence number changed, once per round, so a change
 * never stops the data path and a direction without impairments costs one
 * comparison. With any impairment set, every frame goes through a queue.
 * Frames that survive loss (random, or bursty with the
 * Gilbert-Elliott model), maybe duplicated or with one bit flipped, wait in
 * a ring with their release time: arrival + delay +/- jitter, not before
 * the previous frame (no reordering), and not before the rate-limited link
 * is free (a token bucket of one frame: each frame occupies the link for
 * its length at the configured rate). Frames leave when their time comes,
 * so a delayed link keeps its full bandwidth. The ring holds at most
 * `limit` frames (netem's default, 1000); beyond that frames are dropped
 * and counted as impair-queue-full.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "impair.h"

#define PPM	1000000u
#define XC_IMPAIR_FRAME	1518	/* bytes of a standard frame */

/**
 * xc_impair_init() - set up a direction without impairments
 * @im:		state
 * @seed:	random seed
 * @socket:	NUMA socket for the queue
 *
 * Return: 0 or -ENOMEM
 */
int xc_impair_init(struct xc_impair *im, uint64_t seed, int socket)
{
	memset(im, 0, sizeof(*im));
	im->rng = seed | 1;
	im->hz = rte_get_tsc_hz();
	im->cap = XC_IMPAIR_LIMIT_MAX;
	im->q = rte_zmalloc_socket("xc_impair", im->cap * sizeof(*im->q), 0,
				   socket);
	im->rel = rte_zmalloc_socket("xc_impair", im->cap * sizeof(*im->rel),
				     0, socket);
	im->cfg.limit = im->pub.limit = XC_IMPAIR_LIMIT_DEFAULT;
	if (im->q == NULL || im->rel == NULL) {
		xc_impair_fini(im);
		return -ENOMEM;
	}
	return 0;
}

/**
 * xc_impair_fini() - free the queue (frames must have been flushed)
 * @im:		state
 */
void xc_impair_fini(struct xc_impair *im)
{
	rte_free(im->q);
	rte_free(im->rel);
	im->q = NULL;
	im->rel = NULL;
}

/**
 * xc_impair_set() - publish a new configuration; from any one thread
 * @im:		state
 * @c:		configuration
 */
void xc_impair_set(struct xc_impair *im, const struct xc_impair_cfg *c)
{
	__atomic_add_fetch(&im->seq, 1, __ATOMIC_ACQ_REL);	/* odd */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(&im->pub, c, sizeof(*c));
	__atomic_add_fetch(&im->seq, 1, __ATOMIC_RELEASE);	/* even */
}

/**
 * read_pub() - copy the published configuration consistently
 * @im:		state
 * @c:		filled
 *
 * Return: the sequence number it belongs to
 */
static uint32_t read_pub(const struct xc_impair *im, struct xc_impair_cfg *c)
{
	uint32_t s1, s2;

	do {
		s1 = __atomic_load_n(&im->seq, __ATOMIC_ACQUIRE);
		memcpy(c, &im->pub, sizeof(*c));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&im->seq, __ATOMIC_ACQUIRE);
	} while ((s1 & 1) || s1 != s2);
	return s1;
}

/**
 * xc_impair_get() - read the configuration in force; from any thread
 * @im:		state
 * @c:		filled
 */
void xc_impair_get(const struct xc_impair *im, struct xc_impair_cfg *c)
{
	read_pub(im, c);
}

/**
 * xc_impair_refresh() - on the lcore (or before it starts): take a new
 *			 configuration if one was published
 * @im:		state
 */
void xc_impair_refresh(struct xc_impair *im)
{
	const struct xc_impair_cfg *c = &im->cfg;

	if (__atomic_load_n(&im->seq, __ATOMIC_ACQUIRE) == im->seen)
		return;
	im->seen = read_pub(im, &im->cfg);
	im->active = c->delay_us || c->rate_bps || c->loss_ppm ||
		     c->ge_p_ppm || c->dup_ppm || c->corrupt_ppm;
	if (!c->ge_p_ppm)
		im->ge_bad = false;
}

/**
 * rnd() - xorshift64* random number
 * @im:		state
 *
 * Return: 64 random bits
 */
static inline uint64_t rnd(struct xc_impair *im)
{
	uint64_t x = im->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	im->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/**
 * chance() - true with probability @ppm parts per million
 * @im:		state
 * @ppm:	probability
 *
 * Return: the draw
 */
static inline bool chance(struct xc_impair *im, uint32_t ppm)
{
	return ppm && (rnd(im) >> 32) % PPM < ppm;
}

/**
 * lost() - decide whether a frame is lost (random, then Gilbert-Elliott)
 * @im:		state
 *
 * Return: true if lost
 */
static bool lost(struct xc_impair *im)
{
	const struct xc_impair_cfg *c = &im->cfg;
	bool gone = chance(im, c->loss_ppm);

	if (c->ge_p_ppm) {
		im->ge_bad = im->ge_bad ? !chance(im, c->ge_r_ppm) :
					  chance(im, c->ge_p_ppm);
		if (im->ge_bad && chance(im, c->ge_bad_ppm))
			gone = true;
	}
	return gone;
}

/**
 * corrupt() - flip one random bit of a frame
 * @im:		state
 * @m:		frame, possibly a chain
 */
static void corrupt(struct xc_impair *im, struct rte_mbuf *m)
{
	uint32_t off = (uint32_t)(rnd(im) % m->pkt_len);
	struct rte_mbuf *s = m;

	while (s && off >= s->data_len) {
		off -= s->data_len;
		s = s->next;
	}
	if (s)
		*rte_pktmbuf_mtod_offset(s, uint8_t *, off) ^=
			(uint8_t)(1u << (rnd(im) & 7));
}

/**
 * enqueue() - give a frame its release time and queue it
 * @im:		state
 * @m:		frame
 * @now:	TSC now
 *
 * Return: true if queued, false if the queue is full
 */
static bool enqueue(struct xc_impair *im, struct rte_mbuf *m, uint64_t now)
{
	const struct xc_impair_cfg *c = &im->cfg;
	int64_t d = (int64_t)c->delay_us;
	uint64_t rel;

	if (im->n >= c->limit || im->n >= im->cap ||
	    im->bytes + m->pkt_len > (uint64_t)c->limit * XC_IMPAIR_FRAME)
		return false;
	if (c->jitter_us)
		d += (int64_t)(rnd(im) % (2ULL * c->jitter_us + 1)) -
		     (int64_t)c->jitter_us;
	rel = now + (uint64_t)(d > 0 ? d : 0) * im->hz / 1000000;
	if (c->rate_bps) {
		/* the frame starts on the link when it is free, and holds it
		 * for its length at the rate */
		uint64_t start = RTE_MAX(now, im->next_free);

		im->next_free = start + (uint64_t)m->pkt_len * 8 * im->hz /
					c->rate_bps;
		rel = RTE_MAX(rel, im->next_free);
	}
	rel = RTE_MAX(rel, im->last_rel);	/* no reordering */
	im->last_rel = rel;
	im->q[(im->head + im->n) % im->cap] = m;
	im->rel[(im->head + im->n) % im->cap] = rel;
	im->n++;
	im->bytes += m->pkt_len;
	return true;
}

/**
 * xc_impair_in() - impair a burst: lose, corrupt, duplicate, and queue the
 *		    frames for their release time
 * @im:		state, refreshed and active
 * @pkts:	frames, all consumed
 * @n:		how many
 * @pool:	mbufs for duplicates
 * @st:		counters
 */
void xc_impair_in(struct xc_impair *im, struct rte_mbuf **pkts,
		  unsigned int n, struct rte_mempool *pool,
		  struct xc_dir_stats *st)
{
	const struct xc_impair_cfg *c = &im->cfg;
	uint64_t now = rte_get_tsc_cycles();
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *d = NULL;

		if (lost(im)) {
			rte_pktmbuf_free(m);
			xc_stat_add(&st->drop[XC_DROP_IMPAIR_LOSS], 1);
			continue;
		}
		if (chance(im, c->dup_ppm)) {
			d = rte_pktmbuf_copy(m, pool, 0, UINT32_MAX);
			if (d)
				xc_stat_add(&st->duplicated, 1);
		}
		if (chance(im, c->corrupt_ppm) && m->pkt_len) {
			corrupt(im, m);
			xc_stat_add(&st->corrupted, 1);
		}
		for (; m != NULL; m = d, d = NULL) {
			if (!enqueue(im, m, now)) {
				rte_pktmbuf_free(m);
				xc_stat_add(&st->drop[XC_DROP_IMPAIR_FULL], 1);
			}
		}
	}
}

/**
 * xc_impair_out() - take the queued frames whose time has come
 * @im:		state
 * @out:	where they go, in order
 * @room:	free places in @out
 *
 * Return: number of frames put in @out
 */
unsigned int xc_impair_out(struct xc_impair *im, struct rte_mbuf **out,
			   unsigned int room)
{
	uint64_t now;
	unsigned int k = 0;

	if (im->n == 0)
		return 0;
	now = rte_get_tsc_cycles();
	while (k < room && im->n && im->rel[im->head] <= now) {
		im->bytes -= im->q[im->head]->pkt_len;
		out[k++] = im->q[im->head];
		im->head = (im->head + 1) % im->cap;
		im->n--;
	}
	return k;
}

/**
 * xc_impair_flush() - drop every queued frame under a reason
 * @im:		state
 * @st:		counters
 * @why:	reason
 *
 * Return: number of frames dropped
 */
unsigned int xc_impair_flush(struct xc_impair *im, struct xc_dir_stats *st,
			     enum xc_drop why)
{
	unsigned int n = im->n;

	while (im->n) {
		rte_pktmbuf_free(im->q[im->head]);
		im->head = (im->head + 1) % im->cap;
		im->n--;
	}
	xc_stat_add(&st->drop[why], n);
	im->last_rel = 0;
	im->bytes = 0;
	return n;
}
