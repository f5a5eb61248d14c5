/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * events.h - xcablectl events: a listener of the event log (evlog.h),
 *	      served as a stream (stream.h)
 */
#ifndef XC_EVENTS_H
#define XC_EVENTS_H

#include <stdbool.h>

#include "stream.h"

#define XC_EV_STALL_MS	5000	/* a listener that takes none of its
				 * events this long is cut off */
#define XC_EV_SNDBUF	16384	/* what a listener's socket holds for it */

extern const struct xc_stream_kind xc_events_kind;

void *xc_events_listener(bool json, const char *who);
int xc_events_adopt(struct xc_streams *e, int fd, bool json,
		    const char *who, char *why, size_t whylen);

#endif /* XC_EVENTS_H */
