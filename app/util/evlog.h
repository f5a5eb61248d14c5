/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * evlog.h - what happened to the lab, for programs that follow it: a
 *	     bounded log of events that listeners read from their own
 *	     positions (xcablectl events)
 *
 * An event is one line of JSON ({"time":...,"event":"carrier",...}) with
 * its text for people in it ("text"); a listener reads either, from the
 * position it started at. Events come from every thread (the vhost event
 * thread, the main thread, the control thread), rarely; they are kept in
 * a ring under a lock, the last XC_EV_KEEP of them: a listener that falls
 * further behind has lost events, and is told so (xc_ev_read()).
 */
#ifndef XC_EVLOG_H
#define XC_EVLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XC_EV_KEEP	1024	/* events kept for listeners behind */
#define XC_EV_LINE	448	/* one event's JSON line, newline included */
#define XC_EV_DETAIL	256	/* its detail, for people */

/**
 * struct xc_ev - one event, as its producer says it
 * @event:	what happened: "link", "carrier", "cable", "impair",
 *		"drops", "worker", "listening"
 * @cable:	the cable it is about, or NULL
 * @end:	its end ("left", "right"), or NULL
 * @state:	what it is now: "up", "down", "added", "removed",
 *		"changed", "started", "stopped", "exited", "restarted"
 * @why:	what made it so ("guest", "pulled", "flap", "add"...), or
 *		NULL
 * @detail:	more, for people (features, counts), or NULL
 * @worker:	a supervisor's worker it is about, or -1
 */
struct xc_ev {
	const char *event;
	const char *cable;
	const char *end;
	const char *state;
	const char *why;
	const char *detail;
	int worker;
};

void xc_ev_post(const struct xc_ev *e);
__attribute__((format(printf, 6, 7)))
void xc_ev(const char *event, const char *cable, const char *end,
	   const char *state, const char *why, const char *fmt, ...);
void xc_ev_post_line(const char *json, size_t len);
size_t xc_ev_format(const struct xc_ev *e, bool json, char *buf, size_t len);
uint64_t xc_ev_head(void);
int xc_ev_read(uint64_t *pos, bool json, char *buf, size_t len);
void xc_ev_set_wake(void (*fn)(void *arg), void *arg);
size_t xc_ev_text_of(const char *json, size_t len, char *buf, size_t size);

#endif /* XC_EVLOG_H */
