/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_impair.c - unit tests of the impairment queue (app/datapath/impair.c)
 *
 * Drives one direction's impairment state directly: configurations are
 * published with xc_impair_set() and taken with xc_impair_refresh(), as
 * the lcore does; numbered frames go in with xc_impair_in() and come out
 * with xc_impair_out(). Checks that delay holds frames back and keeps
 * their order (jitter too), that loss, duplication and corruption count
 * what they do, that the queue limit holds in frames and in bytes, that
 * the rate limit spaces frames by their length, and that a flush counts
 * every frame under the reason given; the gray failures (blackhole, an
 * MTU measured as an interface's, TSO frames by their segments); netem's
 * reorder with its gap, exactly and at its rate; and the measurement
 * windows (impairmeas.c): delays measured on the frames leaving the delay
 * line, drops by reason, windows that age out. The random draws use a
 * fixed seed, so every run draws the same.
 *
 * Prints "ok NAME" or "FAIL NAME: why" per check; exits 1 on any failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>

#include "impair.h"
#include "unitlib.h"

#define N_MAX	2048

static int fails;
static struct rte_mempool *pool;

/**
 * fresh() - a direction's impairment state with a configuration in force
 * @im:		state, (re)initialised
 * @st:		counters, zeroed
 * @c:		configuration; its limit 0 means the default
 */
static void fresh(struct xc_impair *im, struct xc_dir_stats *st,
		  struct xc_impair_cfg c)
{
	if (c.limit == 0)
		c.limit = XC_IMPAIR_LIMIT_DEFAULT;
	if (im->q != NULL)
		xc_impair_flush(im, st, XC_DROP_SHUTDOWN);
	xc_impair_fini(im);
	if (xc_impair_init(im, 42, SOCKET_ID_ANY)) {
		printf("FAIL xc_impair_init: no memory\n");
		exit(1);
	}
	memset(st, 0, sizeof(*st));
	xc_impair_set(im, &c);
	xc_impair_refresh(im);
}

/**
 * fresh_keep() - publish and take a new configuration, keeping the state
 *		  (the windows, the queue)
 * @im:		state
 * @c:		configuration; its limit 0 means the default
 */
static void fresh_keep(struct xc_impair *im, struct xc_impair_cfg c)
{
	if (c.limit == 0)
		c.limit = XC_IMPAIR_LIMIT_DEFAULT;
	xc_impair_set(im, &c);
	xc_impair_refresh(im);
}

/**
 * feed() - send numbered frames into the impairment queue
 * @im:		state
 * @st:		counters
 * @first:	number of the first frame
 * @n:		how many
 * @len:	their length
 */
static void feed(struct xc_impair *im, struct xc_dir_stats *st,
		 uint32_t first, unsigned int n, uint16_t len)
{
	struct rte_mbuf *b[N_MAX];
	unsigned int i;

	for (i = 0; i < n; i++)
		b[i] = unit_frame(pool, first + i, len);
	xc_impair_in(im, b, n, pool, st);
}

/**
 * take() - take what is due, check it is numbered @first, @first + 1...,
 *	    and free it
 * @im:		state
 * @first:	expected number of the first frame out
 * @in_order:	set false if a frame is out of order (unchanged otherwise)
 *
 * Return: frames taken
 */
static unsigned int take(struct xc_impair *im, uint32_t first, bool *in_order)
{
	struct rte_mbuf *out[N_MAX];
	unsigned int n = xc_impair_out(im, out, N_MAX), i;

	for (i = 0; i < n; i++) {
		if (unit_seq(out[i], 0) != first + i)
			*in_order = false;
		rte_pktmbuf_free(out[i]);
	}
	return n;
}

static void test_inactive(struct xc_impair *im, struct xc_dir_stats *st)
{
	fresh(im, st, (struct xc_impair_cfg){ 0 });
	CHECK("no impairment configured: inactive, nothing pending",
	      !im->active && !xc_impair_pending(im));
}

static void test_delay(struct xc_impair *im, struct xc_dir_stats *st)
{
	bool ordered = true;
	unsigned int early, late;

	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 20000 });
	CHECK("delay: active", im->active);
	feed(im, st, 0, 20, 100);
	early = take(im, 0, &ordered);
	CHECK("delay 20 ms: nothing leaves at once", early == 0);
	CHECK("delay: 20 frames pending, 2000 bytes",
	      xc_impair_pending(im) && im->n == 20 && im->bytes == 2000);
	rte_delay_us_sleep(25000);
	late = take(im, 0, &ordered);
	CHECK("delay 20 ms: all 20 leave after 25 ms, in order",
	      late == 20 && ordered);
	CHECK("delay: queue empty, 0 bytes", !xc_impair_pending(im) &&
	      im->bytes == 0);

	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000,
					      .jitter_us = 900 });
	feed(im, st, 0, 300, 64);
	feed(im, st, 300, 300, 64);
	rte_delay_us_sleep(3000);
	ordered = true;
	late = take(im, 0, &ordered);
	CHECK("jitter 1 ms +/- 0.9 ms: 600 frames leave in their order",
	      late == 600 && ordered);
}

static void test_loss(struct xc_impair *im, struct xc_dir_stats *st)
{
	bool ordered = true;
	unsigned int out;

	fresh(im, st, (struct xc_impair_cfg){ .loss_ppm = 1000000 });
	feed(im, st, 0, 50, 64);
	CHECK("loss 100%: 50 frames counted impair-loss, none queued",
	      st->drop[XC_DROP_IMPAIR_LOSS] == 50 && !xc_impair_pending(im));

	fresh(im, st, (struct xc_impair_cfg){ .loss_ppm = 300000,
					      .limit = XC_IMPAIR_LIMIT_MAX });
	feed(im, st, 0, 2000, 64);
	out = take(im, 0, &ordered);
	printf("  loss 30%%: %" PRIu64 " of 2000 lost, %u passed\n",
	       st->drop[XC_DROP_IMPAIR_LOSS], out);
	CHECK("loss 30%: between 25% and 35% of 2000 frames lost",
	      st->drop[XC_DROP_IMPAIR_LOSS] >= 500 &&
	      st->drop[XC_DROP_IMPAIR_LOSS] <= 700);
	CHECK("loss 30%: every frame either lost or passed",
	      out + st->drop[XC_DROP_IMPAIR_LOSS] == 2000);

	fresh(im, st, (struct xc_impair_cfg){ .ge_p_ppm = 1000000,
					      .ge_bad_ppm = 1000000 });
	feed(im, st, 0, 40, 64);
	CHECK("Gilbert-Elliott, always bad, bad loses all: 40 counted "
	      "impair-ge-loss, none impair-loss",
	      st->drop[XC_DROP_IMPAIR_GE] == 40 &&
	      st->drop[XC_DROP_IMPAIR_LOSS] == 0 && im->ge_bad);
}

static void test_limits(struct xc_impair *im, struct xc_dir_stats *st)
{
	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000000,
					      .limit = 10 });
	feed(im, st, 0, 25, 64);
	CHECK("limit 10 frames: 10 queued, 15 counted impair-queue-full",
	      im->n == 10 && st->drop[XC_DROP_IMPAIR_FULL] == 15);

	/* limit 2 holds 2 x 1518 bytes: two of 1400, one of 1600 */
	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000000,
					      .limit = 2 });
	feed(im, st, 0, 3, 1400);
	CHECK("limit 2: two 1400-byte frames queued, the third full",
	      im->n == 2 && st->drop[XC_DROP_IMPAIR_FULL] == 1);
	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000000,
					      .limit = 2 });
	feed(im, st, 0, 2, 1600);
	CHECK("limit 2: of two 1600-byte frames (> 2 x 1518 bytes) one "
	      "queued", im->n == 1 && im->bytes == 1600 &&
	      st->drop[XC_DROP_IMPAIR_FULL] == 1);
}

static void test_flush(struct xc_impair *im, struct xc_dir_stats *st)
{
	bool ordered = true;
	unsigned int n;

	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000000 });
	feed(im, st, 0, 10, 200);
	n = xc_impair_flush(im, st, XC_DROP_SHUTDOWN);
	CHECK("flush: returns the 10 queued frames, counts them shutdown",
	      n == 10 && st->drop[XC_DROP_SHUTDOWN] == 10);
	CHECK("flush: queue empty, 0 bytes", !xc_impair_pending(im) &&
	      im->bytes == 0);
	n = xc_impair_flush(im, st, XC_DROP_CABLE_DOWN);
	CHECK("flush of an empty queue counts nothing",
	      n == 0 && st->drop[XC_DROP_CABLE_DOWN] == 0);

	/* after a flush, frames no longer wait behind the flushed ones */
	xc_impair_set(im, &(struct xc_impair_cfg){ .delay_us = 1,
		.limit = XC_IMPAIR_LIMIT_DEFAULT });
	xc_impair_refresh(im);
	feed(im, st, 0, 5, 64);
	rte_delay_us_sleep(1000);
	n = take(im, 0, &ordered);
	CHECK("after a flush and a new delay of 1 us, frames leave in 1 ms",
	      n == 5 && ordered);

	/* a configuration without impairment lets the queue drain */
	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000 });
	feed(im, st, 0, 5, 64);
	xc_impair_set(im, &(struct xc_impair_cfg){
		.limit = XC_IMPAIR_LIMIT_DEFAULT });
	xc_impair_refresh(im);
	rte_delay_us_sleep(2000);
	n = take(im, 0, &ordered);
	CHECK("impairment removed: inactive, the queued frames still leave",
	      !im->active && n == 5 && ordered);
}

static void test_rate(struct xc_impair *im, struct xc_dir_stats *st)
{
	uint64_t gap, g;
	bool even = true;
	unsigned int i;

	/* 1000 bytes at 8 Mbit/s hold the link for 1 ms each */
	fresh(im, st, (struct xc_impair_cfg){ .rate_bps = 8000000 });
	gap = im->hz / 1000;
	feed(im, st, 0, 10, 1000);
	for (i = 1; i < 10; i++) {
		g = im->rel[i] - im->rel[i - 1];
		if (g + 1 < gap || g > gap + 1)
			even = false;
	}
	CHECK("rate 8 Mbit/s: 1000-byte frames released 1 ms apart",
	      im->n == 10 && even);
	xc_impair_flush(im, st, XC_DROP_SHUTDOWN);
}

static void test_dup_corrupt(struct xc_impair *im, struct xc_dir_stats *st)
{
	struct rte_mbuf *out[64];
	unsigned int n, i, j, bits = 0;
	bool pairs = true;

	fresh(im, st, (struct xc_impair_cfg){ .dup_ppm = 1000000 });
	feed(im, st, 0, 10, 300);
	n = xc_impair_out(im, out, 64);
	for (i = 0; i < n; i++) {
		if (unit_seq(out[i], 0) != i / 2 ||
		    !unit_frame_ok(out[i], i / 2, 300))
			pairs = false;
		rte_pktmbuf_free(out[i]);
	}
	CHECK("dup 100%: 10 frames leave as 20, each followed by its copy",
	      n == 20 && pairs && st->duplicated == 10);

	fresh(im, st, (struct xc_impair_cfg){ .corrupt_ppm = 1000000 });
	feed(im, st, 0, 10, 100);
	n = xc_impair_out(im, out, 64);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *orig = unit_frame(pool, i, 100);

		for (j = 0; j < 100; j++)
			bits += (unsigned int)__builtin_popcount(
				*rte_pktmbuf_mtod_offset(out[i], uint8_t *, j) ^
				*rte_pktmbuf_mtod_offset(orig, uint8_t *, j));
		rte_pktmbuf_free(orig);
		rte_pktmbuf_free(out[i]);
	}
	CHECK("corrupt 100%: 10 frames, exactly one bit flipped in each",
	      n == 10 && bits == 10 && st->corrupted == 10);
}

/**
 * tagged() - a frame of @len bytes with @tags VLAN tags (the outer one
 *	      802.1ad when there are two), IPv4 after them
 * @len:	its length
 * @tags:	0 to 2
 *
 * Return: the frame (exits if the pool is empty)
 */
static struct rte_mbuf *tagged(uint16_t len, unsigned int tags)
{
	struct rte_mbuf *m = unit_frame(pool, 0, len);
	uint8_t *p;
	unsigned int k;

	if (m == NULL) {
		printf("FAIL tagged: no mbuf\n");
		exit(1);
	}
	p = rte_pktmbuf_mtod(m, uint8_t *);
	for (k = 0; k < tags; k++) {
		p[12 + 4 * k] = k == 0 && tags == 2 ? 0x88 : 0x81;
		p[13 + 4 * k] = k == 0 && tags == 2 ? 0xa8 : 0x00;
		p[14 + 4 * k] = 0;
		p[15 + 4 * k] = 100;
	}
	p[12 + 4 * tags] = 0x08;
	p[13 + 4 * tags] = 0x00;
	return m;
}

/**
 * tso_frame() - an untagged TSO frame with IPv4 and TCP headers of 20
 *		 bytes each, as the offload stage leaves it for a receiver
 *		 that takes TSO
 * @len:	its length
 * @mss:	its segments' payload
 *
 * Return: the frame
 */
static struct rte_mbuf *tso_frame(uint16_t len, uint16_t mss)
{
	struct rte_mbuf *m = tagged(len, 0);

	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 20;
	m->tso_segsz = mss;
	return m;
}

/**
 * passes() - does a frame get through the impairment? (it goes in alone;
 *	      what comes out is freed)
 * @im:		state, without delay
 * @st:		counters
 * @m:		the frame
 *
 * Return: true if it came out
 */
static bool passes(struct xc_impair *im, struct xc_dir_stats *st,
		   struct rte_mbuf *m)
{
	struct rte_mbuf *out[4];
	unsigned int n;

	xc_impair_in(im, &m, 1, pool, st);
	n = xc_impair_out(im, out, 4);
	rte_pktmbuf_free_bulk(out, n);
	return n == 1;
}

static void test_gray(struct xc_impair *im, struct xc_dir_stats *st)
{
	struct xc_impair_report r;
	const struct xc_impair *one = im;

	fresh(im, st, (struct xc_impair_cfg){ .blackhole = 1 });
	CHECK("blackhole: active", im->active);
	feed(im, st, 0, 30, 200);
	CHECK("blackhole: 30 frames counted impair-blackhole, none queued",
	      st->drop[XC_DROP_IMPAIR_BLACKHOLE] == 30 &&
	      !xc_impair_pending(im) && xc_impair_out(im, NULL, 0) == 0);
	xc_impair_measure(&one, 1, rte_get_tsc_cycles(), &r);
	CHECK("blackhole: the report says 30 impair-blackhole, nothing out",
	      r.drop[XC_DROP_IMPAIR_BLACKHOLE] == 30 && r.out == 0 &&
	      r.active);

	fresh(im, st, (struct xc_impair_cfg){ .mtu = 1400 });
	CHECK("mtu 1400: a 1414-byte frame (1400 of payload) passes",
	      passes(im, st, tagged(1414, 0)));
	CHECK("mtu 1400: a 1415-byte frame (1401) is dropped as impair-mtu",
	      !passes(im, st, tagged(1415, 0)) &&
	      st->drop[XC_DROP_IMPAIR_MTU] == 1);
	CHECK("mtu 1400: with an 802.1Q tag 1418 bytes pass, 1419 do not",
	      passes(im, st, tagged(1418, 1)) &&
	      !passes(im, st, tagged(1419, 1)) &&
	      st->drop[XC_DROP_IMPAIR_MTU] == 2);
	CHECK("mtu 1400: QinQ, 1422 bytes pass, 1423 do not",
	      passes(im, st, tagged(1422, 2)) &&
	      !passes(im, st, tagged(1423, 2)) &&
	      st->drop[XC_DROP_IMPAIR_MTU] == 3);
	/* a TSO frame of 1600 bytes, IPv4 and TCP headers of 20 each: by its
	 * segments, 40 + MSS */
	CHECK("mtu 1400: a TSO frame of 1600 bytes with MSS 1360 passes "
	      "(segments of 1400)", passes(im, st, tso_frame(1600, 1360)));
	CHECK("mtu 1400: with MSS 1361 (segments of 1401) it is dropped",
	      !passes(im, st, tso_frame(1600, 1361)) &&
	      st->drop[XC_DROP_IMPAIR_MTU] == 4);
	CHECK("mtu 1400: a TSO frame smaller than one segment, by its size",
	      passes(im, st, tso_frame(1414, 1448)) &&
	      !passes(im, st, tso_frame(1415, 1448)) &&
	      st->drop[XC_DROP_IMPAIR_MTU] == 5);
}

/**
 * early_frames() - frames that came out ahead of a frame with a smaller
 *		    number (which came out later)
 * @seq:	the numbers, in the order they came out
 * @n:		how many
 *
 * Return: how many
 */
static unsigned int early_frames(const uint32_t *seq, unsigned int n)
{
	uint32_t low = UINT32_MAX;
	unsigned int early = 0;

	while (n--) {
		if (seq[n] > low)
			early++;
		low = RTE_MIN(low, seq[n]);
	}
	return early;
}

static void test_reorder(struct xc_impair *im, struct xc_dir_stats *st)
{
	static uint32_t seq[4096];
	struct rte_mbuf *out[N_MAX];
	unsigned int n, i, got = 0;
	bool pattern = true;

	/* netem's "reorder 100% gap 5 delay 10ms": every 5th at once */
	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 10000,
					      .reorder_ppm = 1000000,
					      .gap = 5 });
	feed(im, st, 0, 50, 64);
	n = xc_impair_out(im, out, N_MAX);
	for (i = 0; i < n; i++) {
		if (unit_seq(out[i], 0) != 49 - 5 * i)
			pattern = false;
		rte_pktmbuf_free(out[i]);
	}
	CHECK("reorder 100% gap 5: frames 4, 9, ... 49 leave at once, the "
	      "last first, each counted reordered",
	      n == 10 && pattern && st->reordered == 10);
	rte_delay_us_sleep(12000);
	n = xc_impair_out(im, out, N_MAX);
	for (i = 0, pattern = true; i < n; i++) {
		if (unit_seq(out[i], 0) != i + i / 4)
			pattern = false;
		rte_pktmbuf_free(out[i]);
	}
	CHECK("reorder 100% gap 5: the 40 others leave after the delay, in "
	      "order", n == 40 && pattern);

	/* "reorder 25% delay 1ms": a quarter of the frames ahead */
	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 1000,
					      .reorder_ppm = 250000, .gap = 1,
					      .limit = XC_IMPAIR_LIMIT_MAX });
	for (i = 0; i < 4000; i += 40) {
		feed(im, st, i, 40, 64);
		n = xc_impair_out(im, out, N_MAX);
		for (unsigned int k = 0; k < n; k++) {
			seq[got++] = unit_seq(out[k], 0);
			rte_pktmbuf_free(out[k]);
		}
	}
	rte_delay_us_sleep(2000);
	while ((n = xc_impair_out(im, out, N_MAX)) != 0)
		for (i = 0; i < n && got < RTE_DIM(seq); i++) {
			seq[got++] = unit_seq(out[i], 0);
			rte_pktmbuf_free(out[i]);
		}
	printf("  reorder 25%%: %" PRIu64 " of 4000 reordered, %u came out "
	       "ahead of an earlier frame\n", st->reordered,
	       early_frames(seq, got));
	/* 4000 draws at 25%: 1000 expected, sd 27; 900..1100 is 3.7 sd */
	CHECK("reorder 25%: 900 to 1100 of 4000 frames reordered",
	      got == 4000 && st->reordered >= 900 && st->reordered <= 1100);
	CHECK("reorder 25%: the counter equals the frames that came out "
	      "ahead of an earlier one", early_frames(seq, got) ==
	      st->reordered);
	CHECK("reorder: nothing dropped", xc_stats_drops(st) == 0);
}

static void test_measure(struct xc_impair *im, struct xc_dir_stats *st)
{
	const struct xc_impair *one = im;
	struct xc_impair_report r;
	struct rte_mbuf *out[64];
	unsigned int got = 0, n;
	uint64_t t0, end, seen_us;

	fresh(im, st, (struct xc_impair_cfg){ .delay_us = 20000 });
	t0 = rte_get_tsc_cycles();
	feed(im, st, 0, 20, 100);
	end = t0 + im->hz;	/* taken as soon as due, as the lcore does */
	while (got < 20 && rte_get_tsc_cycles() < end) {
		n = xc_impair_out(im, out, 64);
		rte_pktmbuf_free_bulk(out, n);
		got += n;
	}
	seen_us = (rte_get_tsc_cycles() - t0) * 1000000 / im->hz;
	xc_impair_measure(&one, 1, rte_get_tsc_cycles(), &r);
	printf("  delay 20 ms, measured: %" PRIu64 " frames, min %" PRIu64
	       " us, p50 %" PRIu64 " us, p99 %" PRIu64 " us, max %" PRIu64
	       " us, over %" PRIu64 " ms; the test saw them all out after %"
	       PRIu64 " us\n", r.out, r.min_us, r.p50_us, r.p99_us,
	       r.max_us, r.span_ms, seen_us);
	CHECK("measured: 20 frames out of the delay line, 2000 bytes",
	      r.out == 20 && r.out_bytes == 2000 && got == 20);
	/* no frame leaves before its 20 ms, none can have waited longer
	 * than the test took to see them all (a loaded machine may delay
	 * that); a percentile is its bucket's middle, within min and max */
	CHECK("measured: max at least the 20 ms, at most what the test saw",
	      r.max_us >= 20000 && r.max_us <= seen_us);
	CHECK("measured: min at least the 20 ms; p50 and p99 between the min "
	      "and the max",
	      r.min_us >= 20000 && r.min_us <= r.p50_us &&
	      r.p50_us <= r.p99_us && r.p99_us <= r.max_us);
	CHECK("measured: the window is 5 to 10 s long",
	      r.span_ms >= 5000 && r.span_ms < 10000);

	fresh(im, st, (struct xc_impair_cfg){ .loss_ppm = 1000000,
					      .dup_ppm = 0 });
	feed(im, st, 0, 7, 64);
	fresh_keep(im, (struct xc_impair_cfg){ .ge_p_ppm = 1000000,
					      .ge_bad_ppm = 1000000 });
	feed(im, st, 0, 5, 64);
	fresh_keep(im, (struct xc_impair_cfg){ .dup_ppm = 1000000 });
	feed(im, st, 0, 3, 64);
	n = xc_impair_out(im, out, 64);
	rte_pktmbuf_free_bulk(out, n);
	xc_impair_measure(&one, 1, rte_get_tsc_cycles(), &r);
	CHECK("measured: loss by reason (7 impair-loss, 5 impair-ge-loss), "
	      "3 duplicated, 6 out",
	      r.drop[XC_DROP_IMPAIR_LOSS] == 7 &&
	      r.drop[XC_DROP_IMPAIR_GE] == 5 && r.dup == 3 && r.out == 6 &&
	      n == 6);

	/* windows of 10 ms: what happened 25 ms ago is no longer reported */
	fresh(im, st, (struct xc_impair_cfg){ .loss_ppm = 1000000 });
	im->win_len = im->hz / 100;
	im->win_end = 0;
	feed(im, st, 0, 4, 64);
	xc_impair_measure(&one, 1, rte_get_tsc_cycles(), &r);
	CHECK("measured: 4 lost in this window", r.drop[XC_DROP_IMPAIR_LOSS] == 4);
	rte_delay_us_sleep(25000);
	xc_impair_measure(&one, 1, rte_get_tsc_cycles(), &r);
	CHECK("measured: two windows later they are no longer reported",
	      r.drop[XC_DROP_IMPAIR_LOSS] == 0 && st->drop[XC_DROP_IMPAIR_LOSS] == 4);
	feed(im, st, 0, 2, 64);
	xc_impair_measure(&one, 1, rte_get_tsc_cycles(), &r);
	CHECK("measured: a new window counts anew", r.drop[XC_DROP_IMPAIR_LOSS] == 2);
}

int main(int argc, char **argv)
{
	static struct xc_impair im;
	static struct xc_dir_stats st;

	(void)argc;
	if (unit_eal_init(argv[0]))
		return 2;
	pool = rte_pktmbuf_pool_create("t_pool", 8191, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	if (pool == NULL) {
		fprintf(stderr, "test_impair: no mbuf pool\n");
		return 2;
	}
	test_inactive(&im, &st);
	test_delay(&im, &st);
	test_loss(&im, &st);
	test_limits(&im, &st);
	test_flush(&im, &st);
	test_rate(&im, &st);
	test_dup_corrupt(&im, &st);
	test_gray(&im, &st);
	test_reorder(&im, &st);
	test_measure(&im, &st);
	xc_impair_flush(&im, &st, XC_DROP_SHUTDOWN);
	xc_impair_fini(&im);
	CHECK("no mbuf leaked", rte_mempool_in_use_count(pool) == 0);
	rte_mempool_free(pool);
	unit_eal_fini();
	return fails ? 1 : 0;
}
