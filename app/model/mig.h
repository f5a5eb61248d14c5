/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mig.h - a cable end whose guest is moving (a live migration of its VM):
 *	   what others see of it, and what pulling and forwarding must
 *	   leave alone meanwhile
 *
 * The move itself is carried out by the main thread (control/migrate.c,
 * xcablectl migrate). What it shows, the phase, its times and what it
 * cost, lives in the cable (struct xc_mig), written by the main thread
 * under a sequence number, read by any thread (xc_mig_read()), and told
 * as a line (xcablectl show) or a JSON object (show --json).
 */
#ifndef XC_MIG_H
#define XC_MIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds.h"

struct xc_json;

/**
 * enum xc_mig_phase - how far a move got
 * @XC_MIG_NONE:	the cable never moved
 * @XC_MIG_OPEN:	the slot is open: waiting for the destination's
 *			frontend (on this host), or for the source's device
 *			to stop (to another host)
 * @XC_MIG_CONNECTED:	the destination's frontend is connected, and the
 *			slot closed to any other: waiting for the source's
 *			device to stop
 * @XC_MIG_STOPPED:	the source's device stopped: frames towards the end
 *			wait for the destination's
 * @XC_MIG_DONE:	the destination is the end
 * @XC_MIG_FAILED:	it failed or was cancelled: the end is the source's,
 *			as before
 */
enum xc_mig_phase {
	XC_MIG_NONE,
	XC_MIG_OPEN,
	XC_MIG_CONNECTED,
	XC_MIG_STOPPED,
	XC_MIG_DONE,
	XC_MIG_FAILED,
};

#define XC_MIG_TO_LEN	(XC_SOCK_PATH_MAX + 48)
#define XC_MIG_WHY_LEN	192

/**
 * struct xc_mig - a cable's last move, as others see it (written by the
 *		   main thread between two increments of @seq; read with
 *		   xc_mig_read())
 * @seq:	odd while the main thread changes the rest
 * @phase:	enum xc_mig_phase
 * @end:	the end that moves (0 or 1)
 * @remote:	it moves to another host (its end becomes a tunnel): the
 *		destination is seen by its first frame, not its frontend
 * @to:		where it moves, for people ("socket PATH", "tunnel ADDR
 *		vni N")
 * @why:	why it failed, "" otherwise
 * @opened:	TSC when the slot opened
 * @deadline:	TSC when it closes unless the move is over
 * @connected:	TSC when the destination's frontend came, 0 before
 * @stopped:	TSC when the source's device stopped, 0 before (or since it
 *		ran again)
 * @ended:	TSC when the move was over, 0 before
 * @waited_us:	how long frames towards the end waited (the source's stop
 *		to the destination's start, or to the end of the wait)
 * @dropped:	frames towards the end dropped from the source's stop to the
 *		end of the move (its directions' peer-down, cable-down and
 *		shutdown drops)
 */
struct xc_mig {
	uint32_t seq;
	uint8_t phase;
	uint8_t end;
	bool remote;
	char to[XC_MIG_TO_LEN];
	char why[XC_MIG_WHY_LEN];
	uint64_t opened;
	uint64_t deadline;
	uint64_t connected;
	uint64_t stopped;
	uint64_t ended;
	uint64_t waited_us;
	uint64_t dropped;
};

/**
 * xc_mig_active() - is a cable's end moving? (main thread)
 * @m:		the cable's move
 *
 * Return: true from the slot's opening to the move's end
 */
static inline bool xc_mig_active(const struct xc_mig *m)
{
	return m->phase >= XC_MIG_OPEN && m->phase <= XC_MIG_STOPPED;
}

void xc_mig_write(struct xc_mig *m);
void xc_mig_read(const struct xc_mig *src, struct xc_mig *m);
const char *xc_mig_phase_name(enum xc_mig_phase phase);
void xc_mig_text(const struct xc_mig *src, const char *const label[2],
		 char *buf, size_t len);
void xc_mig_json(const struct xc_mig *src, const char *const label[2],
		 struct xc_json *j);

#endif /* XC_MIG_H */
