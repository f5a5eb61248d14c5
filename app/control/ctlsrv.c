/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlsrv.c - a control socket server no client can stall
 *
 * Theory of operation: the protocol is one request line (ending in '\n')
 * from the client, then lines of answer, the last one "ok" or "error:
 * WHY", then the server closes. Everything a client sends is untrusted,
 * and a client may be slow, silent or hostile: it must never delay
 * another. So the listening socket and every connection are non-blocking,
 * watched by one epoll, and served from one thread (the caller's: the
 * control thread of xcable, the supervisor's poll() loop):
 *
 * - At most XC_CTLSRV_MAX_CONNS clients are served at once; the others
 *   wait in the listen backlog. When every slot is taken and another
 *   client waits, the client that has been reading its request longest
 *   (or has read none of its answer longest), for XC_CTLSRV_GRACE_MS at
 *   least, is closed to make room: a flood of silent connections costs a client
 *   that sends its request at once a few grace periods, not their
 *   deadlines.
 * - Each connection has deadlines of its own. The whole request line
 *   must arrive within XC_CTLSRV_READ_MS of its accept (in total, not
 *   per read), or the connection is closed unanswered: a request without
 *   a newline is never carried out. A line longer than XC_CTL_LINE_MAX
 *   gets "error: request too long". The answer is written as the client
 *   reads it, within XC_CTLSRV_WRITE_MS, or the client is dropped.
 * - The handler gets the request line and either answers at once
 *   (list, show), says the answer is pending (the engine then calls its
 *   poll callback every XC_CTLSRV_POLL_MS until it is done, at most
 *   @pending_ms), or says the request is serial: changes of the lab are
 *   carried out one at a time, in the order they came, each waiting at
 *   most @pending_ms for its turn (and at most XC_CTLSRV_MAX_SERIAL
 *   waiting). Meanwhile every other client is served.
 * - A client that hangs up while its request is carried out costs
 *   nothing: the request is carried out (it came whole), the answer is
 *   dropped.
 * - A request whose answer is a stream (a capture, events) is handed
 *   over, connection and all, to the stream's owner (ops->adopt), which
 *   serves it on its own deadlines; its slot is free at once.
 *
 * Clients closed for a deadline, or to make room, are counted and logged
 * at most every XC_CTLSRV_REPORT_MS (a flood must not flood the log).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ctlsrv.h"
#include "log.h"
#include "logrl.h"

RTE_LOG_REGISTER(xc_logtype_ctlsrv, xcable.ctlsrv, INFO);

/**
 * enum conn_state - where a client is
 * @C_FREE:	no client in this slot
 * @C_READING:	its request line is being read
 * @C_QUEUED:	a serial request, waiting for its turn
 * @C_PENDING:	its answer is pending: polled
 * @C_WRITING:	its answer is being written
 */
enum conn_state {
	C_FREE,
	C_READING,
	C_QUEUED,
	C_PENDING,
	C_WRITING,
};

#define TAG_LISTEN	0	/* epoll data of the listening socket */
#define TAG_WAKE	1	/* ... of the eventfd */
#define TAG_CONN	2	/* ... of conn[i]: TAG_CONN + i */

/**
 * now_ms() - milliseconds on CLOCK_MONOTONIC
 *
 * Return: the time
 */
static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/**
 * watch() - set the events a client's connection is watched for
 * @s:		server
 * @c:		client
 * @events:	EPOLLIN, EPOLLOUT, or 0 (only hang-ups and errors)
 */
static void watch(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		  uint32_t events)
{
	struct epoll_event ev = {
		.events = events,
		.data.u32 = TAG_CONN + (uint32_t)(c - s->conn),
	};

	if (epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0)
		XC_LOG(ctlsrv, ERR, "%s: epoll: %s", s->name, strerror(errno));
}

/**
 * arm_listen() - watch the listening socket, or stop watching it (every
 *		  slot is taken: the clients wait in the backlog)
 * @s:		server
 * @on:		watch it
 */
static void arm_listen(struct xc_ctlsrv *s, bool on)
{
	struct epoll_event ev = {
		.events = on ? EPOLLIN : 0,
		.data.u32 = TAG_LISTEN,
	};

	if (on == s->lfd_armed)
		return;
	if (epoll_ctl(s->epfd, EPOLL_CTL_MOD, s->lfd, &ev) < 0)
		XC_LOG(ctlsrv, ERR, "%s: epoll: %s", s->name, strerror(errno));
	else
		s->lfd_armed = on;
}

/**
 * give_up() - the handler's state of a request no longer waited for is
 *	       freed by its cancel callback
 * @s:		server
 * @c:		client
 */
static void give_up(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c)
{
	if (c->job.priv && s->ops.cancel)
		s->ops.cancel(s->ops.arg, &c->job);
	c->job.priv = NULL;
}

/**
 * drop() - close a client and free its slot
 * @s:		server
 * @c:		client
 * @count:	the counter of why, or NULL
 */
static void drop(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		 uint64_t *count)
{
	if (count)
		(*count)++;
	give_up(s, c);
	if (!c->gone)
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	xc_sbuf_free(&c->out);
	if (s->serial == c)
		s->serial = NULL;
	c->fd = -1;
	c->state = C_FREE;
	s->n_conns--;
}

/**
 * set_state() - move a client on, with the deadline of its new state
 * @c:		client
 * @state:	enum conn_state
 * @now:	the time
 * @ms:		how long it may stay there
 */
static void set_state(struct xc_ctlsrv_conn *c, int state, uint64_t now,
		      unsigned int ms)
{
	c->state = state;
	c->since_ms = now;
	c->deadline_ms = now + ms;
}

/**
 * flush() - write what the client takes of its answer; close it once
 *	     written whole
 * @s:		server
 * @c:		client, C_WRITING
 */
static void flush(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c)
{
	ssize_t n;

	while (c->sent < c->out.len) {
		n = send(c->fd, c->out.b + c->sent, c->out.len - c->sent,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;	/* the client reads on: EPOLLOUT */
		if (n <= 0) {
			XC_LOG(ctlsrv, DEBUG, "%s: answer to '%.60s' not sent: %s",
			       s->name, c->line, strerror(errno));
			drop(s, c, &s->st.hung_up);
			return;
		}
		c->sent += (size_t)n;
		c->since_ms = now_ms();	/* it reads: not one to make room */
	}
	drop(s, c, &s->st.answered);
}

/**
 * answer() - the answer of a client is ready: write it
 * @s:		server
 * @c:		client
 * @now:	the time
 */
static void answer(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		   uint64_t now)
{
	if (s->serial == c)
		s->serial = NULL;	/* the next one's turn */
	if (c->gone) {
		XC_LOG(ctlsrv, DEBUG, "%s: '%.60s': the client left before its answer",
		       s->name, c->line);
		drop(s, c, &s->st.hung_up);
		return;
	}
	if (c->out.failed) {
		xc_sbuf_free(&c->out);
		xc_sbuf_printf(&c->out, "error: out of memory\n");
	}
	set_state(c, C_WRITING, now, XC_CTLSRV_WRITE_MS);
	c->sent = 0;
	watch(s, c, EPOLLOUT);
	flush(s, c);
}

/**
 * hand_over() - a stream's request: its connection goes to the stream's
 *		 owner, with its first bytes and the handler's state; the
 *		 slot is free again
 * @s:		server
 * @c:		client
 */
static void hand_over(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c)
{
	int fd = c->fd;

	if (!c->gone)
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
	if (s->serial == c)
		s->serial = NULL;
	s->ops.adopt(s->ops.arg, &c->job, fd);	/* fd and priv are its own */
	c->job.priv = NULL;
	xc_sbuf_free(&c->out);
	c->fd = -1;
	c->state = C_FREE;
	s->n_conns--;
	s->st.streamed++;
}

/**
 * refuse() - answer a client with one error line
 * @s:		server
 * @c:		client
 * @now:	the time
 * @why:	the reason, without "error: "
 */
static void refuse(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		   uint64_t now, const char *why)
{
	give_up(s, c);
	xc_sbuf_free(&c->out);
	xc_sbuf_printf(&c->out, "error: %s\n", why);
	answer(s, c, now);
}

/**
 * n_queued() - how many serial requests wait for their turn
 * @s:		server
 *
 * Return: their number
 */
static unsigned int n_queued(const struct xc_ctlsrv *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++)
		n += s->conn[i].state == C_QUEUED;
	return n;
}

/**
 * verdict() - act on what the handler or the poll callback said
 * @s:		server
 * @c:		client
 * @v:		enum xc_ctlsrv_verdict
 * @now:	the time
 */
static void verdict(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		    enum xc_ctlsrv_verdict v, uint64_t now)
{
	char why[96];

	switch (v) {
	case XC_CTLSRV_PENDING:
		if (s->ops.poll == NULL) {
			refuse(s, c, now, "internal error: no poll callback");
			return;
		}
		if (c->state != C_PENDING) {
			set_state(c, C_PENDING, now, s->pending_ms);
			c->job.started_ms = now;
		}
		return;
	case XC_CTLSRV_SERIAL:
		if (c->job.turn) {
			refuse(s, c, now, "internal error: serial twice");
			return;
		}
		if (n_queued(s) >= XC_CTLSRV_MAX_SERIAL) {
			snprintf(why, sizeof(why),
				 "%d changes are already waiting for their turn: try again later",
				 XC_CTLSRV_MAX_SERIAL);
			refuse(s, c, now, why);
			return;
		}
		set_state(c, C_QUEUED, now, s->pending_ms);
		c->seq = ++s->seq;
		return;
	case XC_CTLSRV_STREAM:
		if (s->ops.adopt == NULL) {
			refuse(s, c, now, "internal error: no stream owner");
			return;
		}
		hand_over(s, c);
		return;
	case XC_CTLSRV_DONE:
	default:
		answer(s, c, now);
		return;
	}
}

/**
 * on_line() - a client's request line came whole: hand it over
 * @s:		server
 * @c:		client; @line holds @got bytes, a newline among them
 * @nl:		where the newline is
 * @now:	the time
 */
static void on_line(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		    char *nl, uint64_t now)
{
	*nl = '\0';
	watch(s, c, 0);	/* what it sends after its line is not read */
	if (memchr(c->line, '\0', (size_t)(nl - c->line))) {
		refuse(s, c, now, "request has a NUL byte");
		return;
	}
	c->job.line = c->line;
	c->job.out = &c->out;
	c->job.turn = false;
	c->job.started_ms = 0;
	c->job.server = s->name;
	c->job.priv = NULL;
	verdict(s, c, s->ops.handle(s->ops.arg, &c->job), now);
}

/**
 * on_readable() - read what a client sent of its request line
 * @s:		server
 * @c:		client, C_READING
 * @now:	the time
 */
static void on_readable(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
			uint64_t now)
{
	char *nl;
	ssize_t n;

	do {
		n = recv(c->fd, c->line + c->got, XC_CTL_LINE_MAX - c->got,
			 MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n < 0) {
		drop(s, c, &s->st.hung_up);
		return;
	}
	if (n == 0) {
		/* a client that only looked (a check that the socket is
		 * live) leaves quietly; one that sent part of a line and
		 * stopped is told it was not carried out */
		if (c->got == 0) {
			drop(s, c, NULL);
			return;
		}
		c->line[c->got] = '\0';
		watch(s, c, 0);
		refuse(s, c, now, "request without a newline: not carried out");
		return;
	}
	nl = memchr(c->line + c->got, '\n', (size_t)n);
	c->got += (size_t)n;
	c->line[c->got] = '\0';
	if (nl) {
		on_line(s, c, nl, now);
	} else if (c->got == XC_CTL_LINE_MAX) {
		watch(s, c, 0);
		refuse(s, c, now, "request too long");
	}
}

/**
 * peer_uid() - the user of the process at the other end of a connection
 * @fd:		the connection
 *
 * Return: its uid, or -1 if it cannot be told
 */
static int peer_uid(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return -1;
	return (int)cr.uid;
}

/**
 * victim() - the client to close to make room: the one reading its
 *	      request or not reading its answer longest, if for
 *	      XC_CTLSRV_GRACE_MS at least
 * @s:		server
 * @now:	the time
 * @when:	if none is old enough yet, set to when the oldest will be
 *		(left alone if there is none)
 *
 * Return: the client, or NULL
 */
static struct xc_ctlsrv_conn *victim(struct xc_ctlsrv *s, uint64_t now,
				     uint64_t *when)
{
	struct xc_ctlsrv_conn *v = NULL, *c;
	unsigned int i;

	for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++) {
		c = &s->conn[i];
		if ((c->state == C_READING || c->state == C_WRITING) &&
		    (v == NULL || c->since_ms < v->since_ms))
			v = c;
	}
	if (v == NULL || now >= v->since_ms + XC_CTLSRV_GRACE_MS)
		return v;
	*when = v->since_ms + XC_CTLSRV_GRACE_MS;
	return NULL;
}

/**
 * on_accept() - take the clients that wait, while there is room (making
 *		 room if one waited too long)
 * @s:		server
 * @now:	the time
 */
static void on_accept(struct xc_ctlsrv *s, uint64_t now)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct pollfd p = { .fd = s->lfd, .events = POLLIN };
	struct xc_ctlsrv_conn *c, *v;
	uint64_t later = 0;
	unsigned int i;
	int fd;

	for (;;) {
		if (s->n_conns == XC_CTLSRV_MAX_CONNS) {
			/* room is made only for a client that waits */
			if (poll(&p, 1, 0) <= 0)
				return;
			v = victim(s, now, &later);
			if (v == NULL) {
				arm_listen(s, false);	/* until a slot frees */
				return;
			}
			XC_LOG(ctlsrv, DEBUG, "%s: a client %s for %u ms closed to make room",
			       s->name, v->state == C_READING ?
			       "sending no request" : "not reading its answer",
			       (unsigned int)(now - v->since_ms));
			drop(s, v, &s->st.evicted);
		}
		fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				XC_LOG(ctlsrv, WARNING, "%s: accept: %s",
				       s->name, strerror(errno));
			return;
		}
		for (c = NULL, i = 0; i < XC_CTLSRV_MAX_CONNS && !c; i++)
			if (s->conn[i].state == C_FREE)
				c = &s->conn[i];
		if (c == NULL) {	/* n_conns says there is room */
			close(fd);
			return;
		}
		ev.data.u32 = TAG_CONN + (uint32_t)(c - s->conn);
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			XC_LOG(ctlsrv, WARNING, "%s: epoll: %s", s->name,
			       strerror(errno));
			close(fd);
			return;
		}
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->job.uid = peer_uid(fd);
		set_state(c, C_READING, now, XC_CTLSRV_READ_MS);
		s->n_conns++;
		s->st.accepted++;
		on_readable(s, c, now);	/* xcablectl sent it already */
	}
}

/**
 * on_event() - a client's connection is ready, or hung up
 * @s:		server
 * @c:		client
 * @events:	what epoll said
 * @now:	the time
 */
static void on_event(struct xc_ctlsrv *s, struct xc_ctlsrv_conn *c,
		     uint32_t events, uint64_t now)
{
	switch (c->state) {
	case C_READING:
		on_readable(s, c, now);
		return;
	case C_WRITING:
		flush(s, c);
		return;
	case C_QUEUED:
	case C_PENDING:
		if (events & (EPOLLHUP | EPOLLERR)) {
			/* carried out all the same; no more events */
			epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
			c->gone = true;
		}
		return;
	default:
		return;
	}
}

/**
 * next_serial() - give the next serial request its turn, while none is
 *		   being carried out
 * @s:		server
 */
static void next_serial(struct xc_ctlsrv *s)
{
	struct xc_ctlsrv_conn *c, *first;
	unsigned int i;

	while (s->serial == NULL) {
		first = NULL;
		for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++) {
			c = &s->conn[i];
			if (c->state == C_QUEUED &&
			    (first == NULL || c->seq < first->seq))
				first = c;
		}
		if (first == NULL)
			return;
		s->serial = first;
		first->job.turn = true;
		xc_sbuf_free(&first->out);
		set_state(first, C_PENDING, now_ms(), s->pending_ms);
		first->job.started_ms = first->since_ms;
		verdict(s, first, s->ops.handle(s->ops.arg, &first->job),
			now_ms());
	}
}

/**
 * tick() - deadlines, pending answers, serial turns
 * @s:		server
 */
static void tick(struct xc_ctlsrv *s)
{
	struct xc_ctlsrv_conn *c;
	uint64_t now = now_ms();
	unsigned int i;
	char why[128];

	for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++) {
		c = &s->conn[i];
		switch (c->state) {
		case C_READING:
			if (now < c->deadline_ms)
				break;
			/* what came while the handler of another client ran
			 * (the supervisor's waits for its workers) counts */
			on_readable(s, c, now);
			if (c->state == C_READING) {
				XC_LOG(ctlsrv, DEBUG, "%s: no whole request line within %d ms (%zu bytes): closed",
				       s->name, XC_CTLSRV_READ_MS, c->got);
				drop(s, c, &s->st.no_line);
			}
			break;
		case C_WRITING:
			if (now >= c->deadline_ms) {
				XC_LOG(ctlsrv, DEBUG, "%s: answer to '%.60s' not read within %d ms (%zu of %zu bytes): closed",
				       s->name, c->line, XC_CTLSRV_WRITE_MS,
				       c->sent, c->out.len);
				drop(s, c, &s->st.no_read);
			}
			break;
		case C_QUEUED:
			if (now < c->deadline_ms)
				break;
			snprintf(why, sizeof(why), "timed out: waited %u s for the changes before it",
				 s->pending_ms / 1000);
			XC_LOG_FROM(s->name, ctlsrv, WARNING, "%s: '%.60s': %s",
				    s->name, c->line, why);
			refuse(s, c, now, why);
			break;
		case C_PENDING:
			if (now >= c->deadline_ms) {
				snprintf(why, sizeof(why), "timed out after %u s (it may still be carried out: see xcable's log)",
					 s->pending_ms / 1000);
				XC_LOG_FROM(s->name, ctlsrv, WARNING,
					    "%s: '%.60s': %s", s->name, c->line,
					    why);
				refuse(s, c, now, why);
				break;
			}
			verdict(s, c, s->ops.poll(s->ops.arg, &c->job), now);
			break;
		default:
			break;
		}
	}
	next_serial(s);
}

/**
 * report() - log the clients closed since the last report, at most every
 *	      XC_CTLSRV_REPORT_MS
 * @s:		server
 * @now:	the time
 *
 * Return: when a report is due (more was closed since), 0 if none
 */
static uint64_t report(struct xc_ctlsrv *s, uint64_t now)
{
	struct xc_ctlsrv_stats *a = &s->st, *b = &s->logged;

	if (a->no_line == b->no_line && a->no_read == b->no_read &&
	    a->evicted == b->evicted)
		return 0;
	if (now < s->report_ms)
		return s->report_ms;
	XC_LOG(ctlsrv, INFO, "%s: clients closed: %" PRIu64 " sent no whole request line within %d ms, %" PRIu64 " did not read their answer within %d ms, %" PRIu64 " made room for others (%d served at once)",
	       s->name, a->no_line - b->no_line, XC_CTLSRV_READ_MS,
	       a->no_read - b->no_read, XC_CTLSRV_WRITE_MS,
	       a->evicted - b->evicted, XC_CTLSRV_MAX_CONNS);
	*b = *a;
	s->report_ms = now + XC_CTLSRV_REPORT_MS;
	return 0;
}

/**
 * next_wait() - how long the engine may sleep: until the first deadline,
 *		 the next poll of a pending answer, the moment a client may
 *		 be closed to make room, or the next report
 * @s:		server
 *
 * Return: milliseconds, or -1 for as long as nothing happens
 */
static int next_wait(struct xc_ctlsrv *s)
{
	uint64_t now = now_ms(), t = UINT64_MAX, r;
	const struct xc_ctlsrv_conn *c;
	unsigned int i;

	for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++) {
		c = &s->conn[i];
		if (c->state == C_FREE)
			continue;
		if (c->deadline_ms < t)
			t = c->deadline_ms;
		if (c->state == C_PENDING && now + XC_CTLSRV_POLL_MS < t)
			t = now + XC_CTLSRV_POLL_MS;
	}
	if (s->n_conns == XC_CTLSRV_MAX_CONNS) {
		r = UINT64_MAX;
		if (victim(s, now, &r))
			arm_listen(s, true);	/* room can be made */
		else if (r < t)
			t = r;
	} else {
		arm_listen(s, true);
	}
	r = report(s, now);
	if (r && r < t)
		t = r;
	if (t == UINT64_MAX)
		return -1;
	return t <= now ? 0 : (int)(t - now);
}

/**
 * xc_ctlsrv_serve() - wait for clients (at most @wait_ms), serve what is
 *		       ready, act on deadlines and pending answers
 * @s:		server
 * @wait_ms:	longest wait: 0 not to wait (a caller's poll() said the
 *		engine's fd is ready), -1 without limit; the engine's last
 *		return value is the right one
 *
 * Return: milliseconds until the engine must be served again, -1 if only
 *	   a client or xc_ctlsrv_wake() can make it needed
 */
int xc_ctlsrv_serve(struct xc_ctlsrv *s, int wait_ms)
{
	struct epoll_event ev[XC_CTLSRV_MAX_CONNS + 2];
	uint64_t val, now;
	uint32_t tag;
	int n, i;

	n = epoll_wait(s->epfd, ev, (int)(sizeof(ev) / sizeof(ev[0])), wait_ms);
	if (n < 0 && errno != EINTR)
		XC_LOG(ctlsrv, ERR, "%s: epoll_wait: %s", s->name,
		       strerror(errno));
	for (i = 0; i < n; i++) {
		tag = ev[i].data.u32;
		now = now_ms();	/* a handler may have taken its time */
		if (tag == TAG_LISTEN) {
			on_accept(s, now);
		} else if (tag == TAG_WAKE) {
			if (read(s->evfd, &val, sizeof(val)) < 0)
				val = 0;	/* already read */
		} else if (tag - TAG_CONN < XC_CTLSRV_MAX_CONNS &&
			   s->conn[tag - TAG_CONN].state != C_FREE) {
			on_event(s, &s->conn[tag - TAG_CONN], ev[i].events,
				 now);
		}
	}
	tick(s);
	return next_wait(s);
}

/**
 * xc_ctlsrv_source() - who makes xcable log what a request does, for the
 *			log's rate limit (logrl.h): the server, the client's
 *			user and the request's verb (a client repeating a
 *			request is limited, not another user, nor another
 *			request of the same user)
 * @job:	the request
 * @verb:	its verb, from the table of commands (never the client's
 *		text: a client could then make up new sources at will)
 * @buf:	filled
 * @len:	size of @buf (XC_CTLSRV_SRC_LEN)
 */
void xc_ctlsrv_source(const struct xc_ctlsrv_job *job, const char *verb,
		      char *buf, size_t len)
{
	snprintf(buf, len, "%s socket, uid %d: %s",
		 job->server ? job->server : "control", job->uid, verb);
}

/**
 * xc_ctlsrv_fd() - the fd to poll() for the engine: readable when it has
 *		    something to serve
 * @s:		server
 *
 * Return: the epoll fd
 */
int xc_ctlsrv_fd(const struct xc_ctlsrv *s)
{
	return s->epfd;
}

/**
 * xc_ctlsrv_wake() - end a wait of xc_ctlsrv_serve() at once (from another
 *		      thread: a stop)
 * @s:		server
 */
void xc_ctlsrv_wake(const struct xc_ctlsrv *s)
{
	uint64_t one = 1;

	if (s->evfd >= 0 && write(s->evfd, &one, sizeof(one)) < 0)
		XC_LOG(ctlsrv, DEBUG, "%s: wake: %s", s->name,
		       strerror(errno));
}

/**
 * xc_ctlsrv_init() - set a server up on a listening socket
 * @s:		server, uninitialised
 * @lfd:	the listening socket (the engine's from now on, even on
 *		error: made non-blocking, closed by xc_ctlsrv_fini())
 * @name:	what the log calls it
 * @pending_ms:	longest wait for a pending answer, and for a serial
 *		request's turn
 * @ops:	the handler and its poll callback
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno (@s is then as after xc_ctlsrv_fini())
 */
int xc_ctlsrv_init(struct xc_ctlsrv *s, int lfd, const char *name,
		   unsigned int pending_ms, const struct xc_ctlsrv_ops *ops,
		   char *err, size_t errlen)
{
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned int i;
	int rc, fl;

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->pending_ms = pending_ms;
	s->ops = *ops;
	s->lfd = lfd;
	for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++)
		s->conn[i].fd = -1;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fl = fcntl(lfd, F_GETFL);
	if (s->epfd < 0 || s->evfd < 0 || fl < 0 ||
	    fcntl(lfd, F_SETFL, fl | O_NONBLOCK) < 0)
		goto fail;
	ev.data.u32 = TAG_LISTEN;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, lfd, &ev) < 0)
		goto fail;
	s->lfd_armed = true;
	ev.data.u32 = TAG_WAKE;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->evfd, &ev) < 0)
		goto fail;
	return 0;
fail:
	rc = -errno;
	snprintf(err, errlen, "%s socket: %s", name, strerror(errno));
	xc_ctlsrv_fini(s);
	return rc;
}

/**
 * xc_ctlsrv_fini() - close every client (a pending request's answer is
 *		      lost: say so), the listening socket and the engine's fds
 * @s:		server, set up or failed to be
 */
void xc_ctlsrv_fini(struct xc_ctlsrv *s)
{
	unsigned int i;

	for (i = 0; i < XC_CTLSRV_MAX_CONNS; i++) {
		struct xc_ctlsrv_conn *c = &s->conn[i];

		if (c->state == C_FREE)
			continue;
		if (c->state == C_QUEUED || c->state == C_PENDING)
			XC_LOG(ctlsrv, WARNING, "%s: stopping: '%.60s' not answered",
			       s->name, c->line);
		drop(s, c, NULL);
	}
	report(s, UINT64_MAX);
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->evfd >= 0)
		close(s->evfd);
	if (s->lfd >= 0)
		close(s->lfd);
	s->epfd = s->evfd = s->lfd = -1;
}
