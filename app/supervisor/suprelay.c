/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * suprelay.c - the supervisor's streams: its workers' events and
 *		captures, passed on as one
 *
 * Theory of operation: the supervisor serves its stream clients with the
 * engine of stream.c, from its own loop (its epoll fd is in the loop's
 * poll set), never waiting for a worker or a client.
 *
 * Events: the supervisor listens to each worker that answers on its
 * control socket (events --json), all the time, and keeps each event the
 * worker says in its own log, the worker's number added ("worker":K);
 * its own events (a worker exited, restarted) go there too. So one
 * listener of the supervisor gets every worker's events and the
 * supervisor's, in the order they reached it. A worker that goes is
 * listened to again once it answers again (what it said meanwhile, while
 * it started, is not heard).
 *
 * Captures: a capture's cable ends are on one worker or several. Each of
 * those workers gets the capture request for its own ends (the same snap
 * length, count, duration and filter); their pcapng streams are merged
 * block by block into one: one section header (the supervisor's), each
 * worker's interfaces numbered on (its interface descriptions passed on
 * as they come, its frames and statistics given the new numbers). The
 * client's first bytes are an error line if a worker refused (its line),
 * else the section header once every worker accepted. A worker's stream
 * is read only while the client takes what it gives: a slow reader slows
 * the worker's stream, whose copies are then dropped, and counted, by the
 * worker. The client ending its side (Ctrl-C) ends each worker's, which
 * then write their statistics; COUNT frames passed on do too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "capspec.h"
#include "events.h"
#include "evlog.h"
#include "log.h"
#include "pcapng.h"
#include "supervise.h"

#define XC_RELAY_BUF	(1024 * 1024)	/* a worker's stream, unread */
#define XC_RELAY_IFS	256		/* interfaces of one relayed capture */
#define XC_EVUP_AGAIN_MS 500		/* a worker not listened to is tried
					 * again this often */

/**
 * up_connect() - a non-blocking connection to a worker's control socket
 *		  with a request sent (its socket takes a line at once)
 * @w:		the worker
 * @req:	the request, newline included
 *
 * Return: the connection, or -1
 */
static int up_connect(const struct xc_worker *w, const char *req)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = strlen(req);
	int fd;

	if (strlen(w->ctl) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, w->ctl);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    send(fd, req, n, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)n) {
		close(fd);
		return -1;	/* its backlog full: tried again later */
	}
	return fd;
}

/* nothing() - a watched fd is ready: the engine serves every client,
 * whose fill reads it */
static void nothing(void *arg)
{
	(void)arg;
}

/**
 * evup_close() - stop listening to a worker
 * @s:		supervisor
 * @k:		the worker
 */
static void evup_close(struct xc_sup *s, unsigned int k)
{
	struct xc_sup_evup *u = &s->evup[k];

	if (u->fd < 0)
		return;
	xc_streams_unwatch(&s->streams, u->fd);
	close(u->fd);
	u->fd = -1;
	u->have = 0;
}

/**
 * evup_line() - one line a worker said: an event is kept with its number
 * @k:		the worker
 * @line:	the line, without newline, NUL-terminated
 * @len:	its length
 */
static void evup_line(unsigned int k, const char *line, size_t len)
{
	char buf[XC_EV_LINE + 32];
	int n;

	if (len < 2 || line[0] != '{' ||
	    strstr(line, "\"event\":\"listening\""))
		return;	/* its own listener's first line is not news */
	n = snprintf(buf, sizeof(buf), "{\"worker\":%u,%s", k, line + 1);
	if (n > 0 && (size_t)n < sizeof(buf))
		xc_ev_post_line(buf, (size_t)n);
}

/**
 * evup_read() - read what a worker said of its events (a watched fd)
 * @arg:	struct xc_sup_evup
 */
static void evup_read(void *arg)
{
	struct xc_sup_evup *u = arg;
	struct xc_sup *s = u->sup;
	unsigned int k = (unsigned int)(u - s->evup);
	char *nl, *p;
	ssize_t n;

	for (;;) {
		n = recv(u->fd, u->buf + u->have, sizeof(u->buf) - 1 - u->have,
			 MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {	/* the worker went, or cut us off */
			XC_LOG(super, INFO, "worker %u: its events are no longer heard: %s",
			       k, n ? strerror(errno) : "it closed them");
			evup_close(s, k);
			return;
		}
		u->have += (size_t)n;
		u->buf[u->have] = '\0';
		for (p = u->buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
			*nl = '\0';
			evup_line(k, p, (size_t)(nl - p));
		}
		u->have = (size_t)(u->buf + u->have - p);
		memmove(u->buf, p, u->have);
		if (u->have == sizeof(u->buf) - 1)
			u->have = 0;	/* no event is that long */
	}
}

/**
 * tick() - listen to the events of every worker that answers (the
 *	    engine's tick)
 * @arg:	supervisor
 *
 * Return: when to look again (stream clock), 0 if every worker is
 *	   listened to
 */
static uint64_t tick(void *arg)
{
	struct xc_sup *s = arg;
	struct xc_sup_evup *u;
	uint64_t now = xc_stream_now_ms();
	bool missing = false;
	unsigned int k;

	for (k = 0; k < XC_SUP_MAX_WORKERS; k++) {
		u = &s->evup[k];
		if (k >= s->n_w || s->w[k].state != XC_W_RUNNING) {
			evup_close(s, k);
			continue;
		}
		if (u->fd >= 0)
			continue;
		if (now < u->next_ms || !xc_worker_ready(&s->w[k])) {
			missing = true;	/* starting: tried again soon */
			continue;
		}
		u->sup = s;
		u->fd = up_connect(&s->w[k], "events --json\n");
		if (u->fd >= 0 &&
		    xc_streams_watch(&s->streams, u->fd, evup_read, u)) {
			close(u->fd);
			u->fd = -1;
		}
		if (u->fd < 0) {
			u->next_ms = now + XC_EVUP_AGAIN_MS;
			missing = true;
		}
	}
	/* a worker starting answers without a wake-up: looked at again */
	return missing ? now + XC_EVUP_AGAIN_MS : 0;
}

/**
 * struct relay_up - one worker's part of a relayed capture
 * @fd:		its stream, -1 once it ended
 * @worker:	the worker
 * @buf:	its bytes not passed on yet
 * @have:	how many
 * @started:	its section header came (it accepted)
 * @watched:	@fd is watched (not while @buf is full)
 * @map:	its interface ids, as the client's stream numbers them
 * @n_if:	its interfaces so far
 */
struct relay_up {
	int fd;
	unsigned int worker;
	uint8_t *buf;
	size_t have;
	bool started;
	bool watched;
	uint32_t map[XC_RELAY_IFS];
	unsigned int n_if;
};

/**
 * struct relay - a capture relayed from workers
 * @sup:	the supervisor
 * @n:		workers it goes to
 * @started:	the client got its section header
 * @ending:	the client ended its side, or the count was reached: the
 *		workers' ends were told
 * @count:	frames after which it ends, 0 for no limit
 * @frames:	frames passed on
 * @n_if:	interfaces numbered so far
 * @up:		each worker's part
 */
struct relay {
	struct xc_sup *sup;
	unsigned int n;
	bool started;
	bool ending;
	uint64_t count;
	uint64_t frames;
	uint32_t n_if;
	struct relay_up up[];
};

/**
 * up_watch() - watch a worker's stream while its buffer has room
 * @r:		the relay
 * @u:		the worker's part
 * @on:		watch it
 */
static void up_watch(struct relay *r, struct relay_up *u, bool on)
{
	if (u->fd < 0 || on == u->watched)
		return;
	if (on)
		on = xc_streams_watch(&r->sup->streams, u->fd, nothing, u) == 0;
	else
		xc_streams_unwatch(&r->sup->streams, u->fd);
	u->watched = on;
}

/**
 * up_end() - a worker's stream ended (or is given up)
 * @r:		the relay
 * @u:		the worker's part
 */
static void up_end(struct relay *r, struct relay_up *u)
{
	up_watch(r, u, false);
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
}

/**
 * up_read() - read what a worker's stream brought, as its buffer holds
 * @r:		the relay
 * @u:		the worker's part
 */
static void up_read(struct relay *r, struct relay_up *u)
{
	ssize_t n;

	while (u->fd >= 0 && u->have < XC_RELAY_BUF) {
		n = recv(u->fd, u->buf + u->have, XC_RELAY_BUF - u->have,
			 MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0) {
			up_end(r, u);
			break;
		}
		u->have += (size_t)n;
	}
	up_watch(r, u, u->have < XC_RELAY_BUF);
}

/**
 * pass_block() - pass one block of a worker's stream on, numbered as the
 *		  client's stream numbers its interfaces
 * @s:		the client
 * @r:		the relay
 * @u:		the worker's part
 * @blk:	the block, whole, in its buffer
 * @type:	its type
 * @len:	its length
 *
 * Return: true if it was passed on (or dropped), false if no room
 */
static bool pass_block(struct xc_stream *s, struct relay *r,
		       struct relay_up *u, uint8_t *blk, uint32_t type,
		       size_t len)
{
	uint32_t id;

	if (type == XC_PCAPNG_SHB)
		return true;	/* the client has the supervisor's */
	if (type == XC_PCAPNG_EPB && r->count && r->frames >= r->count)
		return true;	/* past the count */
	if (xc_stream_room(s) < len)
		return false;
	if (type == XC_PCAPNG_IDB) {
		if (u->n_if == XC_RELAY_IFS)
			return true;
		u->map[u->n_if++] = r->n_if++;
	} else if (type == XC_PCAPNG_EPB || type == XC_PCAPNG_ISB) {
		id = xc_pcapng_ifid(blk);
		if (id >= u->n_if)
			return true;	/* no interface of it: dropped */
		xc_pcapng_set_ifid(blk, u->map[id]);
		r->frames += type == XC_PCAPNG_EPB;
	}
	xc_stream_put(s, blk, len);
	return true;
}

/**
 * pass_on() - pass on the whole blocks a worker's stream brought, as the
 *	       client's buffer holds them
 * @s:		the client
 * @r:		the relay
 * @u:		the worker's part
 */
static void pass_on(struct xc_stream *s, struct relay *r, struct relay_up *u)
{
	size_t len, done = 0;
	uint32_t type;

	for (;;) {
		len = xc_pcapng_block(u->buf + done, u->have - done, &type);
		if (len == (size_t)-1 || (len == 0 && u->fd < 0 &&
					  done < u->have)) {
			XC_LOG(super, WARNING, "capture: worker %u's stream %s: the rest of it dropped",
			       u->worker, len ? "is no pcapng" : "broke off");
			up_end(r, u);
			done = u->have;
			break;
		}
		if (len == 0 ||
		    !pass_block(s, r, u, u->buf + done, type, len))
			break;
		done += len;
	}
	memmove(u->buf, u->buf + done, u->have - done);
	u->have -= done;
}

/**
 * refused_by() - did a worker refuse the capture? Its "error:" line then
 *		  goes to the client
 * @s:		the client
 * @u:		the worker's part, its first bytes read
 *
 * Return: true if it refused (its line passed on once whole)
 */
static bool refused_by(struct xc_stream *s, struct relay_up *u)
{
	char line[512];
	uint8_t *nl;

	if (u->have == 0 || u->buf[0] == 0x0A)	/* a section header */
		return false;
	nl = memchr(u->buf, '\n', u->have);
	if (nl == NULL && u->fd >= 0 && u->have < sizeof(line))
		return false;	/* not whole yet */
	snprintf(line, sizeof(line), "%.*s\n",
		 (int)((nl ? (size_t)(nl - u->buf) : u->have) % 400),
		 (const char *)u->buf);
	xc_stream_put(s, line, strlen(line));
	return true;
}

/**
 * relay_fill() - the stream kind's fill: read the workers' streams, and
 *		  pass them on as one
 * @s:		the client
 * @priv:	the relay
 * @now:	unused
 *
 * Return: 0 while it goes on, 1 once every worker's stream ended
 */
static int relay_fill(struct xc_stream *s, void *priv, bool now)
{
	struct relay *r = priv;
	unsigned int k, open = 0, ready = 0;

	(void)now;
	for (k = 0; k < r->n; k++) {
		up_read(r, &r->up[k]);
		if (!r->started && refused_by(s, &r->up[k]))
			return 1;
		ready += r->up[k].have > 0;
	}
	if (!r->started && ready < r->n) {
		for (k = 0; k < r->n; k++)
			if (r->up[k].fd < 0 && r->up[k].have == 0) {
				xc_stream_put(s, "error: capture: a worker closed its capture: see xcablectl workers\n",
					      68);
				return 1;
			}
		return 0;	/* the others have not answered yet */
	}
	if (!r->started) {
		struct xc_sbuf shb = { 0 };

		xc_pcapng_shb(&shb, "xcable " XC_VERSION " (supervisor)");
		xc_stream_put(s, shb.b, shb.len);
		xc_sbuf_free(&shb);
		r->started = true;
	}
	for (k = 0; k < r->n; k++) {
		pass_on(s, r, &r->up[k]);
		open += r->up[k].fd >= 0 || r->up[k].have > 0;
	}
	if (r->count && r->frames >= r->count && !r->ending) {
		r->ending = true;
		for (k = 0; k < r->n; k++)
			if (r->up[k].fd >= 0)
				shutdown(r->up[k].fd, SHUT_WR);
	}
	return open ? 0 : 1;
}

/**
 * relay_eof() - the stream kind's eof: the client ended its side; so does
 *		 each worker's (they write their statistics)
 * @s:		the client
 * @priv:	the relay
 */
static void relay_eof(struct xc_stream *s, void *priv)
{
	struct relay *r = priv;
	unsigned int k;

	(void)s;
	r->ending = true;
	for (k = 0; k < r->n; k++)
		if (r->up[k].fd >= 0)
			shutdown(r->up[k].fd, SHUT_WR);
}

/**
 * relay_gone() - the stream kind's gone: the workers' streams closed
 * @s:		the client, NULL if it was never served
 * @priv:	the relay
 */
static void relay_gone(struct xc_stream *s, void *priv)
{
	struct relay *r = priv;
	unsigned int k;

	(void)s;
	for (k = 0; k < r->n; k++) {
		up_end(r, &r->up[k]);
		free(r->up[k].buf);
	}
	free(r);
}

static const struct xc_stream_kind relay_kind = {
	.name = "capture",
	.buf_size = 2 * XC_RELAY_BUF,
	.fill = relay_fill,
	.eof = relay_eof,
	.gone = relay_gone,
};

/**
 * relay_new() - a relay of a capture to the workers of its ends
 * @s:		supervisor
 * @c:		the capture request
 * @why:	the reason it cannot be made
 * @whylen:	size of @why
 *
 * Return: the relay, each worker asked, or NULL with @why set
 */
static struct relay *relay_new(struct xc_sup *s, const struct xc_capspec *c,
			       char *why, size_t whylen)
{
	bool only[XC_CAP_TARGETS], any;
	char name[XC_NAME_MAX], line[XC_CTL_LINE_MAX + 2];
	struct relay *r = calloc(1, sizeof(*r) + XC_SUP_MAX_WORKERS *
				 sizeof(r->up[0]));
	int where[XC_CAP_TARGETS], i;
	unsigned int t, k;
	const char *end;

	if (r == NULL) {
		snprintf(why, whylen, "capture: out of memory");
		return NULL;
	}
	r->sup = s;
	r->count = c->count;
	for (t = 0; t < c->n_target; t++) {
		i = xc_capspec_target(c->target[t], name, sizeof(name), &end) ?
		    -1 : xc_sup_find(s, name);
		if (i < 0) {
			snprintf(why, whylen, "capture: no cable '%.40s'",
				 c->target[t]);
			goto fail;
		}
		where[t] = s->cables[i].worker;
		if (where[t] < 0 || !xc_worker_ready(&s->w[where[t]])) {
			snprintf(why, whylen, "capture: cable %s: its worker is %s: try again",
				 name, where[t] < 0 ? "not placed" : "restarting");
			goto fail;
		}
	}
	for (k = 0; k < s->n_w; k++) {
		for (any = false, t = 0; t < c->n_target; t++)
			any |= only[t] = where[t] == (int)k;
		if (!any)
			continue;
		if (xc_capspec_line(c, only, line, sizeof(line) - 1)) {
			snprintf(why, whylen, "capture: request too long");
			goto fail;
		}
		strcat(line, "\n");
		r->up[r->n].worker = k;
		r->up[r->n].buf = malloc(XC_RELAY_BUF);
		r->up[r->n].fd = r->up[r->n].buf ? up_connect(&s->w[k], line) : -1;
		if (r->up[r->n++].fd < 0) {
			snprintf(why, whylen, "capture: worker %u cannot be asked: try again",
				 k);
			goto fail;
		}
		up_watch(r, &r->up[r->n - 1], true);
	}
	return r;
fail:
	relay_gone(NULL, r);
	return NULL;
}

/**
 * xc_suprelay_begin() - a capture or events request of a client: events
 *			 are the supervisor's own stream; a capture is
 *			 asked of its ends' workers (job->priv: the relay)
 * @s:		supervisor
 * @job:	the request
 * @r:		its words
 * @cmd:	its command
 *
 * Return: XC_CTLSRV_STREAM, or XC_CTLSRV_DONE with the reason
 */
enum xc_ctlsrv_verdict xc_suprelay_begin(struct xc_sup *s,
					 struct xc_ctlsrv_job *job,
					 const struct xc_ctl_req *r,
					 const struct xc_ctl_cmd *cmd)
{
	char why[XC_ERR_LEN];
	struct xc_capspec c;

	if (s->streams.epfd < 0 || xc_streams_full(&s->streams)) {
		xc_sbuf_printf(job->out, "error: %s: no more streams can be served now: try again later\n",
			       cmd->name);
		return XC_CTLSRV_DONE;
	}
	if (cmd->op != XC_CTL_CAPTURE)
		return XC_CTLSRV_STREAM;
	if (xc_capspec_parse(r, &c, why, sizeof(why)) ||
	    (job->priv = relay_new(s, &c, why, sizeof(why))) == NULL) {
		xc_sbuf_printf(job->out, "error: %s\n", why);
		return XC_CTLSRV_DONE;
	}
	return XC_CTLSRV_STREAM;
}

/**
 * xc_suprelay_adopt() - a stream's connection, handed over by the engine
 *			 of the control socket (its adopt callback)
 * @arg:	supervisor
 * @job:	the request: a relay in job->priv, else events
 * @fd:		its connection
 */
void xc_suprelay_adopt(void *arg, struct xc_ctlsrv_job *job, int fd)
{
	char why[XC_ERR_LEN], who[96], line[XC_CTL_LINE_MAX];
	const struct xc_ctl_cmd *cmd;
	struct xc_sup *s = arg;
	struct xc_ctl_req r;

	if (job->priv) {
		xc_streams_adopt(&s->streams, fd, &relay_kind, job->priv, NULL,
				 why, sizeof(why));
		return;
	}
	snprintf(line, sizeof(line), "%s", job->line);
	xc_ctl_parse(line, &r, &cmd, why, sizeof(why));	/* it did before */
	snprintf(who, sizeof(who), "xcable supervisor pid %d, %u worker(s)",
		 (int)getpid(), s->n_w);
	xc_events_adopt(&s->streams, fd, r.json, who, why, sizeof(why));
}

/**
 * xc_suprelay_start() - the supervisor's stream engine, served from its
 *			 loop; its workers listened to
 * @s:		supervisor
 *
 * Return: 0, or -errno (it runs without streams)
 */
int xc_suprelay_start(struct xc_sup *s)
{
	unsigned int k;
	int rc;

	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		s->evup[k].fd = -1;
	rc = xc_streams_init(&s->streams, "supervisor");
	if (rc)
		return rc;
	s->streams.tick = tick;
	s->streams.tick_arg = s;
	xc_ev_set_wake(xc_streams_wake, &s->streams);
	return 0;
}

/**
 * xc_suprelay_stop() - end every stream and stop listening to the workers
 * @s:		supervisor
 */
void xc_suprelay_stop(struct xc_sup *s)
{
	unsigned int k;

	if (s->streams.epfd < 0)
		return;	/* never started */
	xc_ev_set_wake(NULL, NULL);
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		evup_close(s, k);
	xc_streams_fini(&s->streams);
}
