/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * events.c - xcablectl events: a listener of the event log, served as a
 *	      stream
 *
 * A listener reads the events that come after it started (evlog.c keeps
 * the last XC_EV_KEEP), one line each, as JSON or as text; its first line
 * is an event of its own, "listening", which says from when. It reads at
 * its own pace from the log, never holding up whoever posts an event: a
 * listener that falls behind by more than the log keeps, or takes none of
 * its lines for XC_EV_STALL_MS while more wait, is cut off with a last
 * line saying why ("error: ..."), which is always left room for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "evlog.h"
#include "events.h"
#include "log.h"

/**
 * struct listener - one listener's place in the log
 * @pos:	the number of the next event it reads
 * @json:	it reads JSON lines (else lines for people)
 * @hello:	its "listening" line was put
 * @who:	what its "listening" line says of the process
 */
struct listener {
	uint64_t pos;
	bool json;
	bool hello;
	char who[96];
};

/**
 * cut_off() - end a listener that fell behind, with a line saying so
 * @s:		the client
 * @l:		its state
 *
 * Return: 1 (it said everything)
 */
static int cut_off(struct xc_stream *s, struct listener *l)
{
	char line[160];
	int n;

	n = snprintf(line, sizeof(line), "error: events: this listener fell more than %d events behind (it did not read them): disconnected\n",
		     XC_EV_KEEP);
	XC_LOG(control, INFO, "events: a listener fell more than %d events behind: disconnected (at event %llu)",
	       XC_EV_KEEP, (unsigned long long)l->pos);
	xc_stream_put(s, line, (size_t)n);
	return 1;
}

/**
 * ev_fill() - the stream kind's fill: the events that came, as they fit
 *	       (room for the last line is always left)
 * @s:		the client
 * @priv:	struct listener
 * @now:	unused (events wake the engine)
 *
 * Return: 0, or 1 once it is cut off
 */
static int ev_fill(struct xc_stream *s, void *priv, bool now)
{
	struct listener *l = priv;
	char line[XC_EV_LINE];
	size_t n;
	int k;

	(void)now;
	if (!l->hello && xc_stream_room(s) >= 2 * XC_EV_LINE) {
		struct xc_ev e = {
			.event = "listening", .state = "started",
			.detail = l->who, .worker = -1,
		};

		n = xc_ev_format(&e, l->json, line, sizeof(line));
		xc_stream_put(s, line, n);
		l->hello = true;
	}
	while (l->hello && xc_stream_room(s) >= 2 * XC_EV_LINE) {
		k = xc_ev_read(&l->pos, l->json, line, sizeof(line));
		if (k == -ERANGE)
			return cut_off(s, l);
		if (k <= 0)
			break;
		xc_stream_put(s, line, (size_t)k);
	}
	if (xc_ev_head() > l->pos + XC_EV_KEEP)
		return cut_off(s, l);
	return 0;
}

/* ev_gone() - the stream kind's gone: the listener's state is freed */
static void ev_gone(struct xc_stream *s, void *priv)
{
	(void)s;
	free(priv);
}

const struct xc_stream_kind xc_events_kind = {
	.name = "events",
	.buf_size = 8 * XC_EV_LINE,
	.stall_ms = XC_EV_STALL_MS,
	.fill = ev_fill,
	.gone = ev_gone,
};

/**
 * xc_events_listener() - a listener's state: it reads from now on
 * @json:	JSON lines (else lines for people)
 * @who:	what its first line says of the process ("xcable pid 123,
 *		3 cables")
 *
 * Return: the state (free()), or NULL
 */
void *xc_events_listener(bool json, const char *who)
{
	struct listener *l = calloc(1, sizeof(*l));

	if (l == NULL)
		return NULL;
	l->pos = xc_ev_head();
	l->json = json;
	snprintf(l->who, sizeof(l->who), "%s", who);
	return l;
}

/**
 * xc_events_adopt() - serve a connection as a listener of the events from
 *		       now on
 * @e:		the stream engine
 * @fd:		the connection (the engine's, or closed, from now on)
 * @json:	JSON lines
 * @who:	what its first line says of the process
 * @why:	the reason it cannot be served
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with @why set (an "error:" line was sent, the
 *	   connection closed)
 */
int xc_events_adopt(struct xc_streams *e, int fd, bool json,
		    const char *who, char *why, size_t whylen)
{
	int size = XC_EV_SNDBUF;
	void *l = xc_events_listener(json, who);

	if (l == NULL) {
		snprintf(why, whylen, "out of memory");
		xc_streams_refuse(fd, "events", why);
		return -ENOMEM;
	}
	/* a listener that stops reading is seen behind sooner */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	return xc_streams_adopt(e, fd, &xc_events_kind, l, NULL, why, whylen);
}
