/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stream.c - answers that go on: the stream clients of a control socket
 *
 * Theory of operation: a request whose answer is a stream (xcablectl
 * capture, xcablectl events) is taken off the control socket's engine
 * (ctlsrv.c hands its connection over) and served here, by one thread:
 * xcable's stream thread of its own, or the supervisor's loop. Each
 * client has a buffer of its kind's size; its kind fills it (a capture
 * its copies, a listener its events) as far as it has room, and the
 * engine writes it as the client takes it, never waiting: every fd is
 * non-blocking, watched by one epoll. A client that stops reading costs
 * its own stream only: its buffer stays full, and its kind's producer
 * meets no room (a capture's copies are dropped, counted, on the lcore;
 * a listener falls behind the events and is cut off, with a last line
 * saying so, as is one whose buffer stays full longer than its kind
 * allows). The thread sleeps while nothing comes: it is woken by the
 * clients' fds, by an eventfd (a new client, an event posted), and at the
 * times the kinds and the owner's tick ask for (a capture polls its ring
 * while it runs).
 *
 * Clients are handed over from another thread (the control thread) into
 * @incoming, under a lock; the engine's thread takes them from there.
 * Everything else is the engine's thread's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "stream.h"

#define TAG_WAKE	0u		/* epoll data of the eventfd */
#define TAG_CLIENT	1u		/* ... of st[i]: TAG_CLIENT + i */
#define TAG_WATCH	(TAG_CLIENT + XC_STREAM_MAX)	/* ... of w[k] */

/**
 * xc_stream_now_ms() - the engine's clock: milliseconds, CLOCK_MONOTONIC
 *
 * Return: the time
 */
uint64_t xc_stream_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/**
 * xc_stream_put() - append bytes to a client's buffer (the caller checked
 *		     xc_stream_room(): what does not fit is cut off)
 * @s:		the client
 * @b:		the bytes
 * @n:		how many
 */
void xc_stream_put(struct xc_stream *s, const void *b, size_t n)
{
	n = n < xc_stream_room(s) ? n : xc_stream_room(s);
	if (n == 0)
		return;		/* @b may be NULL (an empty first answer) */
	memcpy(s->buf + s->len, b, n);
	s->len += n;
}

/**
 * watch() - set what a client's fd is watched for: what it sends (its
 *	     end) until it ended its side, and room while bytes wait
 * @e:		engine
 * @s:		the client
 * @out:	watch for room
 */
static void watch(struct xc_streams *e, struct xc_stream *s, bool out)
{
	struct epoll_event ev = {
		.events = (s->eof ? 0 : EPOLLIN | EPOLLRDHUP) |
			  (out ? EPOLLOUT : 0),
		.data.u32 = TAG_CLIENT + (uint32_t)(s - e->st),
	};

	if (ev.events == s->events)
		return;
	if (epoll_ctl(e->epfd, EPOLL_CTL_MOD, s->fd, &ev) == 0)
		s->events = ev.events;
}

/**
 * drop() - close a client and free its slot
 * @e:		engine
 * @s:		the client
 */
static void drop(struct xc_streams *e, struct xc_stream *s)
{
	if (s->kind->gone)
		s->kind->gone(s, s->priv);
	epoll_ctl(e->epfd, EPOLL_CTL_DEL, s->fd, NULL);
	close(s->fd);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	__atomic_store_n(&e->n, e->n - 1, __ATOMIC_RELEASE);
}

/**
 * flush() - write what a client takes of its buffer
 * @e:		engine
 * @s:		the client
 * @now:	the time
 *
 * Return: 0, or -1 if it was closed (hung up, or said everything)
 */
static int flush(struct xc_streams *e, struct xc_stream *s, uint64_t now)
{
	ssize_t n;

	while (s->sent < s->len) {
		n = send(s->fd, s->buf + s->sent, s->len - s->sent,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (s->stall_ms == 0)
				s->stall_ms = now;
			watch(e, s, true);
			return 0;
		}
		if (n <= 0) {
			drop(e, s);
			return -1;
		}
		s->sent += (size_t)n;
		s->stall_ms = 0;
	}
	s->len = s->sent = 0;
	s->stall_ms = 0;
	watch(e, s, false);
	if (s->ending) {
		drop(e, s);
		return -1;
	}
	return 0;
}

/**
 * serve_one() - let a client's kind fill its buffer, and write it
 * @e:		engine
 * @s:		the client
 * @now:	the time
 * @timed:	asked by its time, not by a wake-up
 */
static void serve_one(struct xc_streams *e, struct xc_stream *s, uint64_t now,
		      bool timed)
{
	int rc;

	if (s->sent && s->sent < s->len) {	/* room at the start again */
		memmove(s->buf, s->buf + s->sent, s->len - s->sent);
		s->len -= s->sent;
		s->sent = 0;
	}
	if (!s->ending) {
		rc = s->kind->fill(s, s->priv, timed);
		if (rc < 0) {
			drop(e, s);
			return;
		}
		s->ending = rc > 0;
	}
	if (flush(e, s, now))
		return;
	if (s->kind->stall_ms && s->stall_ms &&
	    now - s->stall_ms >= s->kind->stall_ms) {
		XC_LOG(control, INFO, "%s: a %s client took nothing for %u ms: cut off",
		       e->name, s->kind->name, s->kind->stall_ms);
		e->cut++;
		drop(e, s);
	}
}

/**
 * on_client() - a client's fd is ready: room, or what it sent, or its
 *		 hang-up
 * @e:		engine
 * @s:		the client
 * @events:	what epoll said
 * @now:	the time
 */
static void on_client(struct xc_streams *e, struct xc_stream *s,
		      uint32_t events, uint64_t now)
{
	char junk[512];
	ssize_t n;

	if (!s->eof && (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) {
		/* what it sends after its request is read and ignored; its
		 * end (EOF) ends its stream */
		do {
			n = recv(s->fd, junk, sizeof(junk), MSG_DONTWAIT);
		} while (n > 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			if (s->kind->eof == NULL || (events & EPOLLERR)) {
				drop(e, s);
				return;
			}
			s->eof = true;
			watch(e, s, s->sent < s->len);
			s->kind->eof(s, s->priv);
		}
	}
	serve_one(e, s, now, false);
}

/**
 * take_new() - take the clients handed over
 * @e:		engine
 * @now:	the time
 */
static void take_new(struct xc_streams *e, uint64_t now)
{
	struct xc_stream_new in[XC_STREAM_MAX];
	struct epoll_event ev;
	struct xc_stream *s;
	unsigned int n, k, i;

	pthread_mutex_lock(&e->lock);
	n = e->n_incoming;
	memcpy(in, e->incoming, n * sizeof(in[0]));
	e->n_incoming = 0;
	pthread_mutex_unlock(&e->lock);
	for (k = 0; k < n; k++) {
		for (s = NULL, i = 0; i < XC_STREAM_MAX && !s; i++)
			if (e->st[i].fd < 0)
				s = &e->st[i];
		ev.events = EPOLLIN | EPOLLRDHUP;
		ev.data.u32 = s ? TAG_CLIENT + (uint32_t)(s - e->st) : 0;
		if (s)
			s->buf = malloc(in[k].kind->buf_size);
		if (s == NULL || s->buf == NULL ||
		    epoll_ctl(e->epfd, EPOLL_CTL_ADD, in[k].fd, &ev) < 0) {
			XC_LOG(control, WARNING, "%s: a %s stream could not be served",
			       e->name, in[k].kind->name);
			if (s)
				free(s->buf);
			if (s)
				s->buf = NULL;
			in[k].kind->gone(NULL, in[k].priv);
			close(in[k].fd);
			xc_sbuf_free(&in[k].first);
			__atomic_store_n(&e->n, e->n - 1, __ATOMIC_RELEASE);
			continue;
		}
		s->fd = in[k].fd;
		s->kind = in[k].kind;
		s->priv = in[k].priv;
		s->cap = in[k].kind->buf_size;
		s->len = s->sent = 0;
		s->eof = s->ending = false;
		s->events = ev.events;
		s->stall_ms = 0;
		xc_stream_put(s, in[k].first.b, in[k].first.len);
		xc_sbuf_free(&in[k].first);
		serve_one(e, s, now, false);
	}
}

/**
 * next_wait() - how long the engine may sleep: until a kind or the tick
 *		 wants it, or a stalled client's time is up
 * @e:		engine
 * @now:	the time
 * @tick_due:	when the tick wants it, 0 never
 *
 * Return: milliseconds, -1 for as long as nothing happens
 */
static int next_wait(struct xc_streams *e, uint64_t now, uint64_t tick_due)
{
	uint64_t t = tick_due ? tick_due : UINT64_MAX, d;
	unsigned int i;

	for (i = 0; i < XC_STREAM_MAX; i++) {
		struct xc_stream *s = &e->st[i];

		if (s->fd < 0)
			continue;
		d = s->kind->due ? s->kind->due(s, s->priv) : 0;
		if (d && d < t)
			t = d;
		if (s->kind->stall_ms && s->stall_ms &&
		    s->stall_ms + s->kind->stall_ms < t)
			t = s->stall_ms + s->kind->stall_ms;
	}
	if (t == UINT64_MAX)
		return -1;
	return t <= now ? 0 : (int)(t - now);
}

/**
 * xc_streams_serve() - wait (at most @wait_ms) and serve what is ready:
 *			clients handed over, clients' room and hang-ups,
 *			watched fds, what the kinds and the tick want now
 * @e:		engine
 * @wait_ms:	longest wait: 0 not to wait, -1 without limit (the last
 *		return value is the right one)
 *
 * Return: milliseconds until it must be served again, -1 if only a wake
 *	   or a client can make it needed
 */
int xc_streams_serve(struct xc_streams *e, int wait_ms)
{
	struct epoll_event ev[32];
	uint64_t val, now, due, tick_due = 0;
	unsigned int i;
	uint32_t tag;
	int n, k;

	n = epoll_wait(e->epfd, ev, (int)(sizeof(ev) / sizeof(ev[0])), wait_ms);
	now = xc_stream_now_ms();
	for (k = 0; k < n; k++) {
		tag = ev[k].data.u32;
		if (tag == TAG_WAKE) {
			if (read(e->evfd, &val, sizeof(val)) < 0)
				val = 0;
		} else if (tag < TAG_WATCH) {
			if (e->st[tag - TAG_CLIENT].fd >= 0)
				on_client(e, &e->st[tag - TAG_CLIENT],
					  ev[k].events, now);
		} else if (tag - TAG_WATCH < XC_STREAM_WATCH_MAX &&
			   e->w[tag - TAG_WATCH].fd >= 0) {
			e->w[tag - TAG_WATCH].fn(e->w[tag - TAG_WATCH].arg);
		}
	}
	take_new(e, now);
	/* every client: new events may have come (they come with a wake),
	 * and kinds that poll are served at their time */
	for (i = 0; i < XC_STREAM_MAX; i++) {
		struct xc_stream *s = &e->st[i];

		if (s->fd < 0)
			continue;
		due = s->kind->due ? s->kind->due(s, s->priv) : 0;
		serve_one(e, s, now, due && due <= now);
	}
	if (e->tick)
		tick_due = e->tick(e->tick_arg);
	return next_wait(e, xc_stream_now_ms(), tick_due);
}

/**
 * xc_streams_adopt() - hand a client over to the engine (any thread): its
 *			first bytes are written first
 * @e:		engine
 * @fd:		its connection, non-blocking; the engine's from now on
 *		(closed, after an "error:" line, if it cannot be served)
 * @kind:	what it is
 * @priv:	its kind's state, the engine's from now on (freed by
 *		kind->gone, with a NULL client, if it cannot be served)
 * @first:	its first bytes, copied
 * @why:	the reason it cannot be served
 * @whylen:	size of @why
 *
 * Return: 0, or -EBUSY (too many streams: @fd was told why and closed,
 *	   @priv freed)
 */
int xc_streams_adopt(struct xc_streams *e, int fd,
		     const struct xc_stream_kind *kind, void *priv,
		     const struct xc_sbuf *first, char *why, size_t whylen)
{
	struct xc_stream_new *in;
	int rc = 0;

	pthread_mutex_lock(&e->lock);
	if (__atomic_load_n(&e->n, __ATOMIC_ACQUIRE) >= XC_STREAM_MAX) {
		snprintf(why, whylen, "%d streams (captures, event listeners) are served already: try again later",
			 XC_STREAM_MAX);
		rc = -EBUSY;
	} else {
		in = &e->incoming[e->n_incoming++];
		in->fd = fd;
		in->kind = kind;
		in->priv = priv;
		memset(&in->first, 0, sizeof(in->first));
		if (first && first->len)
			xc_sbuf_put(&in->first, first->b, first->len);
		__atomic_store_n(&e->n, e->n + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&e->lock);
	if (rc) {
		kind->gone(NULL, priv);
		xc_streams_refuse(fd, kind->name, why);
		return rc;
	}
	xc_streams_wake(e);
	return 0;
}

/**
 * xc_streams_refuse() - tell a stream's client why it is not served (what
 *			 its socket takes at once), and close it
 * @fd:		its connection
 * @what:	the stream's kind, for the line
 * @why:	the reason
 */
void xc_streams_refuse(int fd, const char *what, const char *why)
{
	char line[320];
	int n = snprintf(line, sizeof(line), "error: %s: %s\n", what, why);

	if (n > 0 && send(fd, line, (size_t)n < sizeof(line) ? (size_t)n :
			  sizeof(line) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		XC_LOG(control, DEBUG, "%s: a refused client left first", what);
	close(fd);
}

/**
 * xc_streams_count() - how many clients of a kind are served (the
 *			engine's thread)
 * @e:		engine
 * @kind:	the kind
 *
 * Return: their number
 */
unsigned int xc_streams_count(struct xc_streams *e,
			      const struct xc_stream_kind *kind)
{
	unsigned int i, n = 0;

	for (i = 0; i < XC_STREAM_MAX; i++)
		n += e->st[i].fd >= 0 && e->st[i].kind == kind;
	return n;
}

/**
 * xc_streams_watch() - have the engine call @fn when @fd is readable or
 *			hung up (the engine's thread)
 * @e:		engine
 * @fd:		the fd
 * @fn:		called in the engine's thread
 * @arg:	its argument
 *
 * Return: 0, or -ENOSPC / -errno
 */
int xc_streams_watch(struct xc_streams *e, int fd, void (*fn)(void *arg),
		     void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
	unsigned int k;

	for (k = 0; k < XC_STREAM_WATCH_MAX && e->w[k].fd >= 0; k++)
		;
	if (k == XC_STREAM_WATCH_MAX)
		return -ENOSPC;
	ev.data.u32 = TAG_WATCH + k;
	if (epoll_ctl(e->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	e->w[k] = (struct xc_stream_watch){ .fd = fd, .fn = fn, .arg = arg };
	return 0;
}

/**
 * xc_streams_unwatch() - stop watching an fd (before it is closed)
 * @e:		engine
 * @fd:		the fd
 */
void xc_streams_unwatch(struct xc_streams *e, int fd)
{
	unsigned int k;

	for (k = 0; k < XC_STREAM_WATCH_MAX; k++) {
		if (e->w[k].fd != fd || fd < 0)
			continue;
		epoll_ctl(e->epfd, EPOLL_CTL_DEL, fd, NULL);
		e->w[k].fd = -1;
	}
}

/**
 * xc_streams_wake() - end a wait of the engine (any thread: a client
 *		       handed over, an event posted, a stop)
 * @arg:	the engine
 */
void xc_streams_wake(void *arg)
{
	struct xc_streams *e = arg;
	uint64_t one = 1;

	if (e->evfd >= 0 && write(e->evfd, &one, sizeof(one)) < 0)
		return;	/* a wake-up is pending already */
}

/**
 * xc_streams_fd() - the fd to poll() for the engine, for a caller that
 *		     serves it from its own loop (the supervisor)
 * @e:		engine
 *
 * Return: its epoll fd
 */
int xc_streams_fd(const struct xc_streams *e)
{
	return e->epfd;
}

/**
 * loop() - the stream thread: serve until told to stop
 * @arg:	engine
 *
 * Return: NULL
 */
static void *loop(void *arg)
{
	struct xc_streams *e = arg;
	int wait = -1;

	while (!__atomic_load_n(&e->quit, __ATOMIC_ACQUIRE))
		wait = xc_streams_serve(e, wait);
	return NULL;
}

/**
 * xc_streams_init() - set an engine up, with no client
 * @e:		engine, uninitialised; its @tick may be set after
 * @name:	what the log calls it
 *
 * Return: 0, or -errno (it is then as after xc_streams_fini())
 */
int xc_streams_init(struct xc_streams *e, const char *name)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = TAG_WAKE };
	unsigned int i;

	memset(e, 0, sizeof(*e));
	e->name = name;
	pthread_mutex_init(&e->lock, NULL);
	for (i = 0; i < XC_STREAM_MAX; i++)
		e->st[i].fd = -1;
	for (i = 0; i < XC_STREAM_WATCH_MAX; i++)
		e->w[i].fd = -1;
	e->epfd = epoll_create1(EPOLL_CLOEXEC);
	e->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (e->epfd < 0 || e->evfd < 0 ||
	    epoll_ctl(e->epfd, EPOLL_CTL_ADD, e->evfd, &ev) < 0) {
		int rc = -errno;

		xc_streams_fini(e);
		return rc;
	}
	return 0;
}

/**
 * xc_streams_start() - give an engine a thread of its own (xcable's
 *			stream thread)
 * @e:		engine, set up
 *
 * Return: 0, or -errno
 */
int xc_streams_start(struct xc_streams *e)
{
	int rc = -pthread_create(&e->thread, NULL, loop, e);

	e->threaded = rc == 0;
	return rc;
}

/**
 * xc_streams_fini() - stop the engine's thread, close every client (their
 *		       kinds free what they hold) and the engine's fds
 * @e:		engine, set up or failed to be
 */
void xc_streams_fini(struct xc_streams *e)
{
	unsigned int i;

	if (e->threaded) {
		__atomic_store_n(&e->quit, true, __ATOMIC_RELEASE);
		xc_streams_wake(e);
		pthread_join(e->thread, NULL);
		e->threaded = false;
	}
	if (e->epfd >= 0)
		take_new(e, xc_stream_now_ms());
	for (i = 0; i < XC_STREAM_MAX; i++) {
		struct xc_stream *s = &e->st[i];

		if (s->fd < 0)
			continue;
		/* its end, as if the client ended it (a capture's
		 * statistics), and what is ready goes out if it can at once */
		if (!s->ending && !s->eof && s->kind->eof) {
			s->eof = true;
			s->kind->eof(s, s->priv);
			serve_one(e, s, xc_stream_now_ms(), false);
		} else {
			flush(e, s, xc_stream_now_ms());
		}
		if (s->fd >= 0)
			drop(e, s);
	}
	if (e->epfd >= 0)
		close(e->epfd);
	if (e->evfd >= 0)
		close(e->evfd);
	e->epfd = e->evfd = -1;
	pthread_mutex_destroy(&e->lock);
}
