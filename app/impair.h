/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impair.h - netem-style impairments of one cable direction: delay with
 *	      jitter, random and bursty (Gilbert-Elliott) loss, rate limit,
 *	      duplication, corruption
 */
#ifndef XC_IMPAIR_H
#define XC_IMPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "stats.h"

#define XC_IMPAIR_LIMIT_DEFAULT	1000	/* frames held, as netem's limit */
#define XC_IMPAIR_LIMIT_MAX	4096

/**
 * struct xc_impair_cfg - what one direction does to its frames
 * @delay_us:	added one-way delay
 * @jitter_us:	uniform variation of the delay, +/- (frames keep their order)
 * @loss_ppm:	random loss, parts per million
 * @ge_p_ppm:	Gilbert-Elliott: chance per frame to go from good to bad
 * @ge_r_ppm:	chance per frame to go from bad back to good
 * @ge_bad_ppm:	loss in the bad state (good state: none)
 * @rate_bps:	rate limit in bits per second of frames, 0 for none
 * @dup_ppm:	frames sent twice
 * @corrupt_ppm: frames with one bit flipped
 * @limit:	frames the delay/rate queue holds (and bytes: limit x 1518);
 *		more are dropped
 */
struct xc_impair_cfg {
	uint32_t delay_us;
	uint32_t jitter_us;
	uint32_t loss_ppm;
	uint32_t ge_p_ppm;
	uint32_t ge_r_ppm;
	uint32_t ge_bad_ppm;
	uint64_t rate_bps;
	uint32_t dup_ppm;
	uint32_t corrupt_ppm;
	uint32_t limit;
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
};

int xc_impair_parse(const char *spec, struct xc_impair_cfg *c, char *err,
		    size_t errlen);
void xc_impair_format(const struct xc_impair_cfg *c, char *buf, size_t len);
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
