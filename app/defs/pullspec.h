/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pullspec.h - what a config file, the command line or xcablectl says of
 *		a cable's carrier: ends taken down, a flap schedule
 *		(pullspec.c reads and writes it; pull.c carries it out)
 */
#ifndef XC_PULLSPEC_H
#define XC_PULLSPEC_H

#include <stddef.h>
#include <stdint.h>

#define XC_FLAP_MIN_MS		10		/* shortest down or up time */
#define XC_FLAP_MAX_MS		86400000	/* longest: a day */
#define XC_FLAP_COUNT_MAX	1000000

/**
 * struct xc_flap_cfg - a flap schedule: the carrier taken away and given
 *			back, again and again
 * @down_ms:	how long it stays down each time (0: no schedule)
 * @up_ms:	how long it stays up in between
 * @count:	how many down/up cycles; 0: until stopped
 * @end:	-1: both ends' carrier; 0 or 1: that end's only
 */
struct xc_flap_cfg {
	uint32_t down_ms;
	uint32_t up_ms;
	uint32_t count;
	int32_t end;
};

/**
 * struct xc_carrier_cfg - a cable's carrier as its definition says
 * @down:	bit j set: end j is taken down (unplugged) from the start
 * @flap:	a flap schedule that starts with the cable (if @flap.down_ms)
 */
struct xc_carrier_cfg {
	uint32_t down;
	struct xc_flap_cfg flap;
};

int xc_flap_parse(const char *spec, struct xc_flap_cfg *f, char *err,
		  size_t errlen);
int xc_flap_parse_words(int argc, char *const *argv, struct xc_flap_cfg *f,
			char *err, size_t errlen);
void xc_flap_format(const struct xc_flap_cfg *f, char *buf, size_t len);
int xc_side_parse(const char *s, uint32_t *mask);
const char *xc_side_name(uint32_t mask);

#endif /* XC_PULLSPEC_H */
