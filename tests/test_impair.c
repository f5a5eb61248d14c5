/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_impair.c - unit tests of the impairment queue (app/impair.c)
 *
 * Drives one direction's impairment state directly: configurations are
 * published with xc_impair_set() and taken with xc_impair_refresh(), as
 * the lcore does; numbered frames go in with xc_impair_in() and come out
 * with xc_impair_out(). Checks that delay holds frames back and keeps
 * their order (jitter too), that loss, duplication and corruption count
 * what they do, that the queue limit holds in frames and in bytes, that
 * the rate limit spaces frames by their length, and that a flush counts
 * every frame under the reason given. The random draws use a fixed seed,
 * so every run draws the same.
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
	CHECK("Gilbert-Elliott, always bad, bad loses all: 40 lost",
	      st->drop[XC_DROP_IMPAIR_LOSS] == 40 && im->ge_bad);
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
	xc_impair_flush(&im, &st, XC_DROP_SHUTDOWN);
	xc_impair_fini(&im);
	CHECK("no mbuf leaked", rte_mempool_in_use_count(pool) == 0);
	rte_mempool_free(pool);
	unit_eal_fini();
	return fails ? 1 : 0;
}
