/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stream.h - answers that go on: clients of the control socket whose
 *	      request is a stream (a capture, events), served without ever
 *	      waiting for one of them (stream.c)
 */
#ifndef XC_STREAM_H
#define XC_STREAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

#define XC_STREAM_MAX		64	/* stream clients at once */
#define XC_STREAM_WATCH_MAX	(2 * XC_STREAM_MAX + 96) /* fds watched */

struct xc_stream;
struct xc_streams;

/**
 * struct xc_stream_kind - what one kind of stream does (events, a
 *			   capture, a supervisor's relay); every callback
 *			   runs in the engine's thread
 * @name:	what the log calls it
 * @buf_size:	bytes its client's buffer holds before they are sent
 * @stall_ms:	a client that takes none of its bytes this long while more
 *		wait is cut off (0: never; a capture's copies are dropped,
 *		and counted, instead)
 * @fill:	put what is ready into the client's buffer, as it fits
 *		(xc_stream_room()); @now says it is asked without a wake-up
 *		of its own. Return 0 while the stream goes on, 1 once it
 *		said everything (the client is closed once its buffer is
 *		written), -1 to close it at once
 * @eof:	the client ended its side (xcablectl's Ctrl-C: a capture
 *		writes its end); NULL: it is closed
 * @due:	when @fill must be called next without a wake-up (ms, the
 *		engine's clock), 0 for never (may be NULL)
 * @gone:	the client is closed: free what @priv holds
 */
struct xc_stream_kind {
	const char *name;
	size_t buf_size;
	unsigned int stall_ms;
	int (*fill)(struct xc_stream *s, void *priv, bool now);
	void (*eof)(struct xc_stream *s, void *priv);
	uint64_t (*due)(struct xc_stream *s, void *priv);
	void (*gone)(struct xc_stream *s, void *priv);
};

/**
 * struct xc_stream - one stream client (the engine's thread's)
 * @fd:		its connection, -1 for a free slot
 * @kind:	what it is
 * @priv:	its kind's state
 * @buf:	bytes not written yet: @sent to @len
 * @len:	bytes in @buf
 * @sent:	bytes of @buf written
 * @cap:	size of @buf
 * @events:	what its fd is watched for
 * @eof:	it ended its side: what it sends is no longer watched
 * @ending:	it said everything: closed once @buf is written
 * @stall_ms:	since when its bytes wait and it takes none, 0 if not
 */
struct xc_stream {
	int fd;
	const struct xc_stream_kind *kind;
	void *priv;
	uint8_t *buf;
	size_t len;
	size_t sent;
	size_t cap;
	uint32_t events;
	bool eof;
	bool ending;
	uint64_t stall_ms;
};

/**
 * struct xc_stream_watch - an fd whose readiness an owner handles in the
 *			    engine's thread (a supervisor's connections to
 *			    its workers)
 * @fd:		the fd, -1 for a free slot
 * @fn:		called when it is readable (or hung up)
 * @arg:	its argument
 */
struct xc_stream_watch {
	int fd;
	void (*fn)(void *arg);
	void *arg;
};

/**
 * struct xc_stream_new - a client handed over, waiting for the engine's
 *			  thread to take it (under @lock)
 * @fd:		its connection
 * @kind:	what it is
 * @priv:	its kind's state
 * @first:	its first bytes
 */
struct xc_stream_new {
	int fd;
	const struct xc_stream_kind *kind;
	void *priv;
	struct xc_sbuf first;
};

/**
 * struct xc_streams - the stream clients of one control socket
 * @name:	what the log calls it
 * @epfd:	epoll of @evfd, the clients and the watched fds
 * @evfd:	eventfd that wakes the engine (a new client, an event)
 * @lock:	over @incoming and @n_incoming (other threads hand over)
 * @incoming:	clients handed over, not taken yet
 * @n_incoming:	how many
 * @tick:	the owner's periodic work (drop summaries, captures to
 *		free), called every time the engine serves; returns when it
 *		wants to be called again (ms, the engine's clock), 0 never
 * @tick_arg:	its argument
 * @quit:	the thread ends (atomic)
 * @thread:	the engine's thread, if it has its own
 * @threaded:	it has
 * @st:		the clients
 * @n:		clients being served
 * @w:		fds watched for their owners
 * @cut:	clients cut off for not reading, since the last log line
 */
struct xc_streams {
	const char *name;
	int epfd;
	int evfd;
	pthread_mutex_t lock;
	struct xc_stream_new incoming[XC_STREAM_MAX];
	unsigned int n_incoming;
	uint64_t (*tick)(void *arg);
	void *tick_arg;
	bool quit;
	pthread_t thread;
	bool threaded;
	struct xc_stream st[XC_STREAM_MAX];
	unsigned int n;
	struct xc_stream_watch w[XC_STREAM_WATCH_MAX];
	uint64_t cut;
};

/**
 * xc_stream_room() - room for more bytes in a client's buffer
 * @s:		the client
 *
 * Return: bytes that fit at @s->buf + @s->len
 */
static inline size_t xc_stream_room(const struct xc_stream *s)
{
	return s->cap - s->len;
}

/**
 * xc_streams_full() - are as many clients served as can be? (any thread)
 * @e:		engine
 *
 * Return: true if so
 */
static inline bool xc_streams_full(struct xc_streams *e)
{
	return __atomic_load_n(&e->n, __ATOMIC_ACQUIRE) >= XC_STREAM_MAX;
}

uint64_t xc_stream_now_ms(void);
void xc_stream_put(struct xc_stream *s, const void *b, size_t n);
int xc_streams_init(struct xc_streams *e, const char *name);
int xc_streams_start(struct xc_streams *e);
void xc_streams_fini(struct xc_streams *e);
int xc_streams_fd(const struct xc_streams *e);
int xc_streams_serve(struct xc_streams *e, int wait_ms);
void xc_streams_wake(void *arg);
int xc_streams_adopt(struct xc_streams *e, int fd,
		     const struct xc_stream_kind *kind, void *priv,
		     const struct xc_sbuf *first, char *why, size_t whylen);
void xc_streams_refuse(int fd, const char *what, const char *why);
int xc_streams_watch(struct xc_streams *e, int fd, void (*fn)(void *arg),
		     void *arg);
void xc_streams_unwatch(struct xc_streams *e, int fd);
unsigned int xc_streams_count(struct xc_streams *e,
			      const struct xc_stream_kind *kind);

#endif /* XC_STREAM_H */
