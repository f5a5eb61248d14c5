/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capspec.h - what a capture request asks for: which cable ends, which
 *	       frames, how much of each, for how long (capspec.c)
 */
#ifndef XC_CAPSPEC_H
#define XC_CAPSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctlcmd.h"

#define XC_CAP_TARGETS	32		/* CABLE[:END] words of a request */
#define XC_CAP_SNAP_MAX	262144u		/* what Wireshark reads at most */
#define XC_CAP_SECONDS_MAX 86400u	/* -a duration:S at most */
#define XC_CAP_WORD	80		/* a CABLE:END made of two words */

/**
 * struct xc_capspec - a capture request, as xcablectl sent it
 * @target:	its CABLE or CABLE:END words (pointers into the request,
 *		or into @joined)
 * @n_target:	how many
 * @joined:	CABLE:END of a CABLE word followed by an END word
 * @snaplen:	bytes of each frame kept (-s; 0 asked for means all, as
 *		tcpdump's)
 * @count:	frames after which it ends (-c), 0 for no limit
 * @seconds:	seconds after which it ends (-a duration:S), 0 for none
 * @filter:	its filter in pcap syntax (-f), NULL for every frame
 */
struct xc_capspec {
	const char *target[XC_CAP_TARGETS];
	unsigned int n_target;
	char joined[XC_CAP_TARGETS][XC_CAP_WORD];
	uint32_t snaplen;
	uint64_t count;
	unsigned int seconds;
	const char *filter;
};

int xc_capspec_parse(const struct xc_ctl_req *r, struct xc_capspec *c,
		     char *why, size_t whylen);
int xc_capspec_line(const struct xc_capspec *c, const bool *only, char *buf,
		    size_t len);
int xc_capspec_target(const char *word, char *cable, size_t clen,
		      const char **end);

#endif /* XC_CAPSPEC_H */
