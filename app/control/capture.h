/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.h - xcablectl capture: the frames crossing cable ends, as a
 *	       pcapng stream on the control socket (capture.c)
 */
#ifndef XC_CAPTURE_H
#define XC_CAPTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_lcore.h>

#include "cable.h"
#include "ctlcmd.h"
#include "sbuf.h"
#include "stream.h"

#define XC_CAP_MAX	8	/* captures at once */
#define XC_CAP_IFS	32	/* cable ends one capture holds */

struct xc_capture;

/**
 * struct xc_captures - the captures of one xcable
 * @mark:	note where each forwarding lcore is, and wake them
 *		(lcores.c xc_lcores_mark())
 * @past:	has each lcore passed two poll boundaries since the mark
 *		(or stopped)? Then no lcore uses a tap taken off before it
 * @lc_arg:	their argument
 * @lock:	over @dying
 * @n:		captures running (atomic: counted by the control thread,
 *		ended by the stream thread)
 * @seq:	captures made so far (their pools' names; control thread)
 * @dying:	captures over whose taps may still be in an lcore's hands:
 *		freed once the lcores passed their mark (stream thread)
 */
struct xc_captures {
	void (*mark)(void *arg, uint64_t *mark);
	bool (*past)(void *arg, const uint64_t *mark);
	void *lc_arg;
	pthread_mutex_t lock;
	unsigned int n;
	unsigned int seq;
	struct xc_capture *dying;
};

extern const struct xc_stream_kind xc_capture_kind;

int xc_capture_begin(struct xc_captures *caps, struct xc_cable *cables,
		     unsigned int n_cables, pthread_rwlock_t *lock,
		     const struct xc_ctl_req *r, struct xc_sbuf *first,
		     void **cap, char *why, size_t whylen);
uint64_t xc_captures_reap(struct xc_captures *caps);
void xc_captures_fini(struct xc_captures *caps);

#endif /* XC_CAPTURE_H */
