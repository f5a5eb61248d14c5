/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impair.c - netem-style impairments of one cable direction
 *
 * Theory of operation: the control side (command line, config file,
 * xcablectl) writes a direction's configuration under a seqlock; its lcore
 * copies it when the sequence number changed, once per round, so a change
 * never stops the data path and a direction without impairments costs one
 * comparison. With any impairment set, every frame goes through a queue.
 * A frame is first judged by the gray failures: a blackhole swallows it
 * (the carrier stays up), an MTU drops it if its L2 payload is larger, as a
 * receiver with a smaller MTU would. Frames that survive loss (random, or
 * bursty with the Gilbert-Elliott model), maybe duplicated or with one bit
 * flipped, wait in a ring with their release time: arrival + delay +/-
 * jitter, not before the previous frame (jitter does not reorder), and not
 * before the rate-limited link is free (a token bucket of one frame: each
 * frame occupies the link for its length at the configured rate). Frames
 * leave when their time comes, so a delayed link keeps its full bandwidth.
 * Reordering is netem's: once gap - 1 frames were delayed, each frame has
 * the reorder chance to go to the head of the ring, due at once, ahead of
 * the frames that wait there. The ring holds at most `limit` frames
 * (netem's default, 1000); beyond that frames are dropped and counted as
 * impair-queue-full. Every drop is counted under its reason.
 *
 * What the impairment did is measured on the frames as they leave the
 * ring (each carries its arrival time in an mbuf field): the time each
 * spent there goes into a histogram, with the drops by reason, the copies,
 * the reordered frames and the bytes, in the window of XC_IMPAIR_WIN_S
 * seconds the lcore is in (struct xc_impair_win; two of them, the current
 * and the one before). The lcore writes them with plain relaxed stores,
 * no syscall and no allocation; starting a window anew (clearing it) is
 * done under the window's own sequence number, so that impairmeas.c, in
 * the control thread, reads each window whole.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>

#include "impair.h"

#define PPM	1000000u
#define XC_IMPAIR_FRAME	1518	/* bytes of a standard frame */
#define XC_VLAN_TAGS_MAX	4	/* stacked tags skipped to the payload */

/* the mbuf field where a frame keeps the TSC of its arrival in the ring */
static const struct rte_mbuf_dynfield arrival_field = {
	.name = "xcable_impair_arrival",
	.size = sizeof(uint64_t),
	.align = __alignof__(uint64_t),
};

/**
 * xc_impair_init() - set up a direction without impairments
 * @im:		state
 * @seed:	random seed
 * @socket:	NUMA socket for the queue
 *
 * Return: 0, -ENOMEM, or -ENOSPC if no mbuf field is left for the
 *	   arrival time
 */
int xc_impair_init(struct xc_impair *im, uint64_t seed, int socket)
{
	uint64_t us;

	memset(im, 0, sizeof(*im));
	im->rng = seed | 1;
	im->hz = rte_get_tsc_hz();
	im->cap = XC_IMPAIR_LIMIT_MAX;
	im->arr_off = rte_mbuf_dynfield_register(&arrival_field);
	if (im->arr_off < 0)
		return -ENOSPC;
	im->q = rte_zmalloc_socket("xc_impair", im->cap * sizeof(*im->q), 0,
				   socket);
	im->rel = rte_zmalloc_socket("xc_impair", im->cap * sizeof(*im->rel),
				     0, socket);
	im->win = rte_zmalloc_socket("xc_impair_win", 2 * sizeof(*im->win),
				     RTE_CACHE_LINE_SIZE, socket);
	im->cfg.limit = im->pub.limit = XC_IMPAIR_LIMIT_DEFAULT;
	if (im->q == NULL || im->rel == NULL || im->win == NULL) {
		xc_impair_fini(im);
		return -ENOMEM;
	}
	im->win_len = im->hz * XC_IMPAIR_WIN_S;
	for (us = im->hz / 1000000; us > 1; us >>= 1)
		im->unit_shift++;	/* 2^unit_shift cycles: about 1 us */
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
	rte_free(im->win);
	im->q = NULL;
	im->rel = NULL;
	im->win = NULL;
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
	im->active = xc_impair_cfg_active(c);
	if (!c->ge_p_ppm)
		im->ge_bad = false;
	im->since_reorder = 0;	/* netem's counter starts again */
}

/**
 * win_next() - start the measurement window the TSC @now is in: the
 *		older of the two is cleared and takes its place
 * @im:		state
 * @now:	TSC
 */
static void win_next(struct xc_impair *im, uint64_t now)
{
	uint64_t epoch = now / im->win_len;
	struct xc_impair_win *w = &im->win[epoch & 1];

	__atomic_add_fetch(&w->seq, 1, __ATOMIC_ACQ_REL);	/* odd */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memset((char *)w + offsetof(struct xc_impair_win, out), 0,
	       sizeof(*w) - offsetof(struct xc_impair_win, out));
	w->min = UINT64_MAX;
	__atomic_store_n(&w->epoch, epoch, __ATOMIC_RELAXED);
	__atomic_add_fetch(&w->seq, 1, __ATOMIC_RELEASE);	/* even */
	im->win_cur = (unsigned int)(epoch & 1);
	im->win_end = (epoch + 1) * im->win_len;
}

/**
 * win_at() - the measurement window of the TSC @now (the lcore's)
 * @im:		state
 * @now:	TSC, not before the last one given
 *
 * Return: the window
 */
static inline struct xc_impair_win *win_at(struct xc_impair *im,
					   uint64_t now)
{
	if (unlikely(now >= im->win_end))
		win_next(im, now);
	return &im->win[im->win_cur];
}

/**
 * drop() - free a frame the impairment drops and count it under its
 *	    reason, in the direction's counters and the window's
 * @m:		frame
 * @st:		counters
 * @w:		window
 * @why:	reason
 */
static inline void drop(struct rte_mbuf *m, struct xc_dir_stats *st,
			struct xc_impair_win *w, enum xc_drop why)
{
	rte_pktmbuf_free(m);
	xc_stat_add(&st->drop[why], 1);
	xc_stat_add(&w->drop[why], 1);
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
 * lost() - decide whether a frame is lost: random loss, then
 *	    Gilbert-Elliott
 * @im:		state
 *
 * Return: the reason it is lost under, or XC_DROP__MAX if it is not
 */
static enum xc_drop lost(struct xc_impair *im)
{
	const struct xc_impair_cfg *c = &im->cfg;
	enum xc_drop why = chance(im, c->loss_ppm) ? XC_DROP_IMPAIR_LOSS :
						     XC_DROP__MAX;

	if (c->ge_p_ppm) {
		im->ge_bad = im->ge_bad ? !chance(im, c->ge_r_ppm) :
					  chance(im, c->ge_p_ppm);
		if (im->ge_bad && chance(im, c->ge_bad_ppm) &&
		    why == XC_DROP__MAX)
			why = XC_DROP_IMPAIR_GE;
	}
	return why;
}

/**
 * l2_payload() - what of a frame an interface MTU counts: the bytes after
 *		  the Ethernet header and its VLAN tags (802.1Q, 802.1ad,
 *		  0x9100; a 1514-byte untagged frame has 1500, so has a
 *		  1518-byte frame with one tag); a TSO frame, which a
 *		  link carries as segments, by its largest segment: its IP
 *		  and TCP/UDP headers and the MSS
 * @m:		frame
 *
 * Return: that size (a frame too short for its headers: 0)
 */
static uint32_t l2_payload(const struct rte_mbuf *m)
{
	uint32_t off = 2 * RTE_ETHER_ADDR_LEN, all = m->pkt_len, seg;
	unsigned int tags;
	uint16_t buf;
	const uint16_t *t;

	for (tags = 0; tags <= XC_VLAN_TAGS_MAX; tags++) {
		t = rte_pktmbuf_read(m, off, sizeof(buf), &buf);
		if (t == NULL)
			return 0;
		if (*t != rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN) &&
		    *t != rte_cpu_to_be_16(RTE_ETHER_TYPE_QINQ) &&
		    *t != rte_cpu_to_be_16(RTE_ETHER_TYPE_QINQ1))
			break;
		off += sizeof(struct rte_vlan_hdr);
	}
	off += sizeof(buf);	/* the ethertype */
	if (all <= off)
		return 0;
	if ((m->ol_flags & (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG)) &&
	    m->tso_segsz) {
		seg = (uint32_t)m->l3_len + m->l4_len + m->tso_segsz;
		return RTE_MIN(seg, all - off);
	}
	return all - off;
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
 * arrival() - where a frame keeps the TSC of its arrival in the ring
 * @im:		state
 * @m:		frame
 *
 * Return: the field
 */
static inline uint64_t *arrival(const struct xc_impair *im,
				struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, im->arr_off, uint64_t *);
}

/**
 * reordered() - does a frame go ahead of the delayed ones? netem's
 *		 reorder: not while fewer than gap - 1 frames were delayed
 *		 since the last one that did, then with the reorder chance
 * @im:		state
 *
 * Return: true if it does (the count starts again), false if it is
 *	   delayed (counted)
 */
static bool reordered(struct xc_impair *im)
{
	const struct xc_impair_cfg *c = &im->cfg;

	if (c->reorder_ppm && im->since_reorder + 1 >= c->gap &&
	    chance(im, c->reorder_ppm)) {
		im->since_reorder = 0;
		return true;
	}
	im->since_reorder++;
	return false;
}

/**
 * enqueue() - give a frame its release time and queue it: at the tail, or
 *	       (reordered) at the head, due at once
 * @im:		state
 * @m:		frame
 * @now:	TSC now
 * @st:		counters
 * @w:		measurement window
 *
 * Return: true if queued, false if the queue is full
 */
static bool enqueue(struct xc_impair *im, struct rte_mbuf *m, uint64_t now,
		    struct xc_dir_stats *st, struct xc_impair_win *w)
{
	const struct xc_impair_cfg *c = &im->cfg;
	int64_t d = (int64_t)c->delay_us;
	uint32_t at;
	uint64_t rel;

	if (im->n >= c->limit || im->n >= im->cap ||
	    im->bytes + m->pkt_len > (uint64_t)c->limit * XC_IMPAIR_FRAME)
		return false;
	*arrival(im, m) = now;
	if (reordered(im)) {
		/* ahead of every frame waiting, as netem's queue head */
		if (im->n) {
			xc_stat_add(&st->reordered, 1);
			xc_stat_add(&w->reordered, 1);
		}
		im->head = (im->head + im->cap - 1) % im->cap;
		im->q[im->head] = m;
		im->rel[im->head] = now;
		im->n++;
		im->bytes += m->pkt_len;
		return true;
	}
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
	rel = RTE_MAX(rel, im->last_rel);	/* jitter keeps the order */
	im->last_rel = rel;
	at = (im->head + im->n) % im->cap;
	im->q[at] = m;
	im->rel[at] = rel;
	im->n++;
	im->bytes += m->pkt_len;
	return true;
}

/**
 * xc_impair_in() - impair a burst: swallow, lose, corrupt, duplicate, and
 *		    queue the frames for their release time
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
	struct xc_impair_win *w = win_at(im, now);
	enum xc_drop why;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *d = NULL;

		if (c->blackhole) {
			drop(m, st, w, XC_DROP_IMPAIR_BLACKHOLE);
			continue;
		}
		if (c->mtu && l2_payload(m) > c->mtu) {
			drop(m, st, w, XC_DROP_IMPAIR_MTU);
			continue;
		}
		why = lost(im);
		if (why != XC_DROP__MAX) {
			drop(m, st, w, why);
			continue;
		}
		if (chance(im, c->dup_ppm)) {
			d = rte_pktmbuf_copy(m, pool, 0, UINT32_MAX);
			if (d) {
				xc_stat_add(&st->duplicated, 1);
				xc_stat_add(&w->dup, 1);
			}
		}
		if (chance(im, c->corrupt_ppm) && m->pkt_len) {
			corrupt(im, m);
			xc_stat_add(&st->corrupted, 1);
		}
		for (; m != NULL; m = d, d = NULL)
			if (!enqueue(im, m, now, st, w))
				drop(m, st, w, XC_DROP_IMPAIR_FULL);
	}
}

/**
 * measure() - count a frame that leaves the delay line in the window: its
 *	       time there, its bytes
 * @im:		state
 * @w:		window
 * @m:		frame
 * @now:	TSC
 */
static inline void measure(const struct xc_impair *im,
			   struct xc_impair_win *w, struct rte_mbuf *m,
			   uint64_t now)
{
	uint64_t t = now - *arrival(im, m);
	unsigned int b = xc_impair_bucket(t >> im->unit_shift);

	xc_stat_add(&w->out, 1);
	xc_stat_add(&w->out_bytes, m->pkt_len);
	if (t < w->min)
		__atomic_store_n(&w->min, t, __ATOMIC_RELAXED);
	if (t > w->max)
		__atomic_store_n(&w->max, t, __ATOMIC_RELAXED);
	__atomic_store_n(&w->hist[b], w->hist[b] + 1, __ATOMIC_RELAXED);
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
	struct xc_impair_win *w;
	uint64_t now;
	unsigned int k = 0;

	if (im->n == 0)
		return 0;
	now = rte_get_tsc_cycles();
	w = win_at(im, now);
	while (k < room && im->n && im->rel[im->head] <= now) {
		struct rte_mbuf *m = im->q[im->head];

		im->bytes -= m->pkt_len;
		measure(im, w, m, now);
		out[k++] = m;
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
	if (n) {
		xc_stat_add(&st->drop[why], n);
		xc_stat_add(&win_at(im, rte_get_tsc_cycles())->drop[why], n);
	}
	im->last_rel = 0;
	im->bytes = 0;
	return n;
}
