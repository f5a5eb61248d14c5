/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ctlsrv.h - a control socket server no client can stall: one request
 *	      line in, lines of answer out, every connection on deadlines
 *	      of its own (xcable's control thread and the supervisor)
 */
#ifndef XC_CTLSRV_H
#define XC_CTLSRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctlcmd.h"
#include "sbuf.h"

#define XC_CTLSRV_MAX_CONNS	16	/* served at once; the rest wait in
					 * the listen backlog */
#define XC_CTLSRV_BACKLOG	64	/* listen() backlog to give the socket */
#define XC_CTLSRV_MAX_SERIAL	8	/* serial requests waiting their turn */
#define XC_CTLSRV_READ_MS	2000	/* the whole request line, from accept */
#define XC_CTLSRV_WRITE_MS	5000	/* the whole answer, once it is ready */
#define XC_CTLSRV_POLL_MS	10	/* pending answers are polled this often */
#define XC_CTLSRV_GRACE_MS	100	/* a client reading or written to this
					 * long may be closed to make room */
#define XC_CTLSRV_REPORT_MS	10000	/* closed clients logged this often */

/**
 * enum xc_ctlsrv_verdict - what a handler says of a request
 * @XC_CTLSRV_DONE:	its whole answer is in the job's @out
 * @XC_CTLSRV_PENDING:	the answer comes later: call the poll callback
 *			every XC_CTLSRV_POLL_MS until it says DONE
 * @XC_CTLSRV_SERIAL:	it must be carried out alone among such requests,
 *			in the order they came (changes of the lab): call
 *			the handler again, with @turn set, when its turn
 *			comes; the handler has done nothing yet
 * @XC_CTLSRV_STREAM:	its answer is a stream (capture, events): the
 *			connection is handed over to ops->adopt with @out,
 *			the stream's first bytes, and @priv
 */
enum xc_ctlsrv_verdict {
	XC_CTLSRV_DONE,
	XC_CTLSRV_PENDING,
	XC_CTLSRV_SERIAL,
	XC_CTLSRV_STREAM,
};

/**
 * struct xc_ctlsrv_job - a request, as its handler sees it
 * @line:	the request line, NUL-terminated, without its newline (the
 *		engine's: a handler that splits it works on a copy)
 * @out:	the answer: lines, the last one "ok" or "error: WHY"
 * @turn:	a serial request's turn has come
 * @started_ms:	when the handler said PENDING (CLOCK_MONOTONIC)
 * @server:	what the log calls the server (struct xc_ctlsrv's @name)
 * @uid:	the client's user (SO_PEERCRED), -1 if unknown
 * @priv:	the handler's own state of a pending request, NULL if none:
 *		the engine calls ops->cancel on it if it gives the request up
 */
struct xc_ctlsrv_job {
	const char *line;
	struct xc_sbuf *out;
	bool turn;
	uint64_t started_ms;
	const char *server;
	int uid;
	void *priv;
};

#define XC_CTLSRV_SRC_LEN	64	/* xc_ctlsrv_source()'s text */

/**
 * struct xc_ctlsrv_ops - what the engine calls back
 * @handle:	a request line came: answer, or say it is pending or serial
 * @poll:	a pending answer: DONE once @out holds it, PENDING until then
 *		(NULL if the handler never says PENDING)
 * @cancel:	a pending request whose @priv is set is given up (its
 *		deadline passed, the server stops): free what @priv holds
 *		(NULL if the handler never sets @priv)
 * @adopt:	a request whose answer is a stream: take the connection
 *		@fd (non-blocking; the callee's from now on, closed by it
 *		even on failure), write @job->out first, and take what
 *		@job->priv holds (NULL if the handler never says STREAM)
 * @arg:	their first argument
 */
struct xc_ctlsrv_ops {
	enum xc_ctlsrv_verdict (*handle)(void *arg, struct xc_ctlsrv_job *job);
	enum xc_ctlsrv_verdict (*poll)(void *arg, struct xc_ctlsrv_job *job);
	void (*cancel)(void *arg, struct xc_ctlsrv_job *job);
	void (*adopt)(void *arg, struct xc_ctlsrv_job *job, int fd);
	void *arg;
};

/**
 * struct xc_ctlsrv_stats - what became of the clients
 * @accepted:	connections taken
 * @answered:	answers written whole
 * @no_line:	closed without a whole request line within the deadline
 * @no_read:	closed, their answer not read within the deadline
 * @evicted:	closed to make room for other clients
 * @hung_up:	left before their answer was written whole
 * @streamed:	handed over to a stream's owner
 */
struct xc_ctlsrv_stats {
	uint64_t accepted;
	uint64_t answered;
	uint64_t no_line;
	uint64_t no_read;
	uint64_t evicted;
	uint64_t hung_up;
	uint64_t streamed;
};

/**
 * struct xc_ctlsrv_conn - one client (engine's own)
 * @fd:		its connection, -1 for a free slot
 * @state:	where it is (ctlsrv.c's enum conn_state)
 * @since_ms:	when it got there (writing: when it last read some of its
 *		answer)
 * @deadline_ms: when it must have left it
 * @seq:	arrival order of a serial request
 * @got:	bytes of @line read
 * @sent:	bytes of @out written
 * @gone:	the client hung up while its request was carried out
 * @line:	the request line
 * @out:	the answer
 * @job:	the request, as its handler sees it
 */
struct xc_ctlsrv_conn {
	int fd;
	int state;
	uint64_t since_ms;
	uint64_t deadline_ms;
	uint64_t seq;
	size_t got;
	size_t sent;
	bool gone;
	char line[XC_CTL_LINE_MAX + 1];
	struct xc_sbuf out;
	struct xc_ctlsrv_job job;
};

/**
 * struct xc_ctlsrv - a control socket server
 * @name:	what the log calls it ("control", "supervisor")
 * @pending_ms:	longest wait for a pending answer, and for a serial
 *		request's turn
 * @ops:	the handler
 * @lfd:	the listening socket (the engine's: closed by fini)
 * @epfd:	epoll of @lfd, @evfd and the clients
 * @evfd:	eventfd that ends a wait (xc_ctlsrv_wake())
 * @lfd_armed:	@lfd is watched (not while every slot is taken)
 * @n_conns:	clients being served
 * @seq:	serial requests so far
 * @serial:	the serial request being carried out, NULL if none
 * @st:		what became of the clients
 * @logged:	@st as last logged
 * @report_ms:	when closed clients may be logged again
 * @conn:	the clients
 */
struct xc_ctlsrv {
	const char *name;
	unsigned int pending_ms;
	struct xc_ctlsrv_ops ops;
	int lfd;
	int epfd;
	int evfd;
	bool lfd_armed;
	unsigned int n_conns;
	uint64_t seq;
	struct xc_ctlsrv_conn *serial;
	struct xc_ctlsrv_stats st;
	struct xc_ctlsrv_stats logged;
	uint64_t report_ms;
	struct xc_ctlsrv_conn conn[XC_CTLSRV_MAX_CONNS];
};

int xc_ctlsrv_init(struct xc_ctlsrv *s, int lfd, const char *name,
		   unsigned int pending_ms, const struct xc_ctlsrv_ops *ops,
		   char *err, size_t errlen);
int xc_ctlsrv_fd(const struct xc_ctlsrv *s);
int xc_ctlsrv_serve(struct xc_ctlsrv *s, int wait_ms);
void xc_ctlsrv_wake(const struct xc_ctlsrv *s);
void xc_ctlsrv_source(const struct xc_ctlsrv_job *job, const char *verb,
		      char *buf, size_t len);
void xc_ctlsrv_fini(struct xc_ctlsrv *s);

#endif /* XC_CTLSRV_H */
