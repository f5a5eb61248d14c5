/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impairspec.h - an impairment as people write it (--impair SPEC): what
 *		  it is, its limits, and its text (impairspec.c); the
 *		  impairment itself, on the data path, is impair.h's
 */
#ifndef XC_IMPAIRSPEC_H
#define XC_IMPAIRSPEC_H

#include <stddef.h>
#include <stdint.h>

#define XC_IMPAIR_LIMIT_DEFAULT	1000	/* frames held, as netem's limit */
#define XC_IMPAIR_LIMIT_MAX	4096
#define XC_IMPAIR_MTU_MIN	68	/* IPv4's smallest MTU */
#define XC_IMPAIR_MTU_MAX	65535
#define XC_IMPAIR_GAP_MAX	1000000

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
 * @mtu:	frames whose L2 payload (after the Ethernet header and its
 *		VLAN tags) is larger are dropped, 0 for none; a TSO frame
 *		by the size of its segments
 * @reorder_ppm: netem's reorder: once @gap - 1 frames were delayed, each
 *		frame is sent at once, ahead of the delayed ones, with this
 *		chance (needs @delay_us)
 * @gap:	netem's gap (1 when reordering, 0 otherwise)
 * @blackhole:	1: every frame is dropped, the carrier stays up
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
	uint32_t mtu;
	uint32_t reorder_ppm;
	uint32_t gap;
	uint32_t blackhole;
};

int xc_impair_parse(const char *spec, struct xc_impair_cfg *c, char *err,
		    size_t errlen);
void xc_impair_format(const struct xc_impair_cfg *c, char *buf, size_t len);

#endif /* XC_IMPAIRSPEC_H */
