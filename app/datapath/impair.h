/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impair.h - netem-style impairments of one cable direction: delay with
 *	      jitter, random and bursty (Gilbert-Elliott) loss, rate limit,
 *	      duplication, corruption, reordering; gray failures (blackhole,
 *	      a mismatched MTU); and what they did, measured (impairmeas.c)
 */
#ifndef XC_IMPAIR_H
#define XC_IMPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "impairspec.h"
#include "stats.h"


/* the measurement windows: what a direction did is kept per window of
 * XC_IMPAIR_WIN_S seconds, the current one and the one before
 * (impairmeas.c reads them) */
#define XC_IMPAIR_WIN_S		5
#define XC_IMPAIR_HIST_BITS	6
#define XC_IMPAIR_HIST_SUB	(1u << XC_IMPAIR_HIST_BITS)	/* buckets
						 * per power of two */
#define XC_IMPAIR_HIST		2048	/* histogram buckets */


/**
 * struct xc_impair_win - what a direction's impairment did in one window
 *			  of XC_IMPAIR_WIN_S seconds: written by the lcore
 *			  that owns the direction (relaxed atomic stores, no
 *			  syscall, no allocation), read by the control thread
 *			  and the main thread (impairmeas.c)
 * @seq:	odd while the lcore starts the window anew (clears it)
 * @epoch:	the window's number: TSC / window length
 * @out:	frames that left the delay line
 * @out_bytes:	their bytes
 * @drop:	frames the impairment dropped, by reason (enum xc_drop)
 * @dup:	copies made (dup)
 * @reordered:	frames sent ahead of frames received before them
 * @min:	the shortest time a frame spent in the delay line, in TSC
 *		cycles (UINT64_MAX while none left it)
 * @max:	the longest
 * @hist:	the time each frame spent there, in units of 2^unit_shift
 *		cycles (struct xc_impair), in log-linear buckets:
 *		XC_IMPAIR_HIST_SUB per power of two (xc_impair_bucket())
 */
struct xc_impair_win {
	uint32_t seq;
	uint64_t epoch;
	uint64_t out;
	uint64_t out_bytes;
	uint64_t drop[XC_DROP__MAX];
	uint64_t dup;
	uint64_t reordered;
	uint64_t min;
	uint64_t max;
	uint32_t hist[XC_IMPAIR_HIST];
};

/**
 * struct xc_impair - impairment state of one direction
 * @seq:	seqlock of @pub (odd while being written)
 * @pub:	configuration set by the control side
 * @seen:	@seq value the lcore last copied
 * @cfg:	the lcore's copy of @pub
 * @active:	@cfg impairs anything: frames go through @q
 * @rng:	xorshift state
 * @ge_bad:	Gilbert-Elliott state
 * @hz:		TSC frequency
 * @next_free:	TSC at which the rate-limited link is free
 * @last_rel:	release TSC of the newest queued frame (keeps order)
 * @q:		queued frames, a ring of @cap
 * @rel:	their release TSCs
 * @head:	index of the oldest
 * @n:		number queued
 * @bytes:	their bytes: the queue holds at most limit standard
 *		frames' worth, so that 64 KB TSO frames do not make it deeper
 * @cap:	size of @q and @rel
 * @since_reorder: frames delayed since the last one sent at once
 *		(netem's counter, against @cfg.gap)
 * @arr_off:	offset of the mbuf field holding a frame's arrival TSC
 * @win:	the two measurement windows (the current one, and the one
 *		before), allocated with the state
 * @win_cur:	index of the current one in @win
 * @win_end:	TSC at which the current one ends
 * @win_len:	a window's length, in TSC cycles
 * @unit_shift:	the delay histogram counts in units of 2^unit_shift
 *		cycles, about a microsecond
 *
 * Everything but @seq and @pub is written by the lcore that owns the
 * direction (and by the main thread before it starts or after it
 * stopped); @win is also read by other threads, see struct xc_impair_win.
 */
struct xc_impair {
	uint32_t seq;
	struct xc_impair_cfg pub;
	uint32_t seen;
	struct xc_impair_cfg cfg;
	bool active;
	uint64_t rng;
	bool ge_bad;
	uint64_t hz;
	uint64_t next_free;
	uint64_t last_rel;
	struct rte_mbuf **q;
	uint64_t *rel;
	uint32_t head;
	uint32_t n;
	uint64_t bytes;
	uint32_t cap;
	uint32_t since_reorder;
	int arr_off;
	struct xc_impair_win *win;
	unsigned int win_cur;
	uint64_t win_end;
	uint64_t win_len;
	unsigned int unit_shift;
};

/**
 * struct xc_impair_report - what a direction's impairment did over its
 *			     last windows (impairmeas.c), for people and
 *			     programs
 * @span_ms:	the time covered: the window before the current one and
 *		the current one so far (XC_IMPAIR_WIN_S to twice that)
 * @active:	an impairment is set now
 * @out:	frames that left the delay line
 * @out_bytes:	their bytes
 * @drop:	frames the impairment dropped, by reason
 * @dup:	copies made
 * @reordered:	frames sent ahead of frames received before them
 * @min_us:	shortest time in the delay line, measured, in microseconds
 * @p50_us:	median
 * @p99_us:	99th percentile
 * @max_us:	longest
 * @rate_bps:	bits of the frames that left the delay line, per second
 *		of @span_ms
 */
struct xc_impair_report {
	uint64_t span_ms;
	bool active;
	uint64_t out;
	uint64_t out_bytes;
	uint64_t drop[XC_DROP__MAX];
	uint64_t dup;
	uint64_t reordered;
	uint64_t min_us;
	uint64_t p50_us;
	uint64_t p99_us;
	uint64_t max_us;
	uint64_t rate_bps;
};

int xc_impair_init(struct xc_impair *im, uint64_t seed, int socket);
void xc_impair_fini(struct xc_impair *im);
void xc_impair_set(struct xc_impair *im, const struct xc_impair_cfg *c);
void xc_impair_get(const struct xc_impair *im, struct xc_impair_cfg *c);
void xc_impair_refresh(struct xc_impair *im);
void xc_impair_in(struct xc_impair *im, struct rte_mbuf **pkts,
		  unsigned int n, struct rte_mempool *pool,
		  struct xc_dir_stats *st);
unsigned int xc_impair_out(struct xc_impair *im, struct rte_mbuf **out,
			   unsigned int room);
unsigned int xc_impair_flush(struct xc_impair *im, struct xc_dir_stats *st,
			     enum xc_drop why);

/* impairmeas.c: what the impairments did, read from their windows */
struct xc_cable;
struct xc_json;
void xc_impair_measure(const struct xc_impair *const *ims, unsigned int n,
		       uint64_t now, struct xc_impair_report *r);
void xc_impair_dir_report(const struct xc_cable *c, unsigned int j,
			  struct xc_impair_report *r);
bool xc_impair_report_shown(const struct xc_impair_report *r);
void xc_impair_report_text(const struct xc_impair_report *r, char *buf,
			   size_t len);
void xc_impair_report_json(const struct xc_impair_report *r,
			   struct xc_json *j, const char *key);

/**
 * xc_impair_bucket() - the histogram bucket of a measured delay
 * @v:		the delay, in units of 2^unit_shift cycles
 *
 * Return: its bucket: @v itself below XC_IMPAIR_HIST_SUB, then
 *	   XC_IMPAIR_HIST_SUB buckets per power of two (a bucket is at most
 *	   1/64 of its value wide); the last one takes everything beyond
 */
static inline unsigned int xc_impair_bucket(uint64_t v)
{
	unsigned int e, b;

	if (v < XC_IMPAIR_HIST_SUB)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);	/* >= HIST_BITS */
	b = (e - XC_IMPAIR_HIST_BITS + 1) * XC_IMPAIR_HIST_SUB +
	    (unsigned int)((v >> (e - XC_IMPAIR_HIST_BITS)) &
			   (XC_IMPAIR_HIST_SUB - 1));
	return b < XC_IMPAIR_HIST ? b : XC_IMPAIR_HIST - 1;
}

/**
 * xc_impair_cfg_active() - does a configuration impair anything?
 * @c:		configuration
 *
 * Return: true if frames must go through the impairment queue
 */
static inline bool xc_impair_cfg_active(const struct xc_impair_cfg *c)
{
	return c->delay_us || c->rate_bps || c->loss_ppm || c->ge_p_ppm ||
	       c->dup_ppm || c->corrupt_ppm || c->blackhole || c->mtu ||
	       c->reorder_ppm;
}

/**
 * xc_impair_changed() - on the lcore: tell whether a configuration was
 *			 published since it last took one (xc_impair_refresh())
 * @im:		impairment state
 *
 * Return: true if one was
 */
static inline bool xc_impair_changed(const struct xc_impair *im)
{
	return __atomic_load_n(&im->seq, __ATOMIC_ACQUIRE) != im->seen;
}

/**
 * xc_impair_pending() - tell whether frames wait in the delay/rate queue
 * @im:		impairment state
 *
 * Return: true if some do
 */
static inline bool xc_impair_pending(const struct xc_impair *im)
{
	return im->n != 0;
}

#endif /* XC_IMPAIR_H */
