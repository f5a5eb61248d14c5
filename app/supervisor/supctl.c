/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supctl.c - the supervisor's control socket: one for the whole lab
 *
 * Theory of operation: xcablectl talks to the supervisor as to any
 * xcable (one request line; lines of answer, the last "ok" or "error:
 * WHY"). The supervisor answers from its workers' control sockets:
 *
 *   list [--json]	asks every worker, and gives every cable in config
 *			order (--json: one document, the workers' merged);
 *			a cable whose worker is restarting says so
 *   show, impair, clear, down, up, migrate CABLE ...   go to the
 *			cable's worker, and its answer comes back as it is
 *			(not migrate --to-remote: a lab's tunnels are all
 *			one worker's)
 *   add, del, reload	change the lab (supervise.c): the supervisor picks
 *			the worker, or starts one
 *   workers		the workers: pid, EAL prefix (for dpdk-telemetry.py
 *			-f PREFIX), state, cables, restarts
 *   capture, events	streams, relayed from the workers (suprelay.c)
 *
 * The supervisor is one thread: its socket is served by the engine of
 * ctlsrv.c from its main loop (the engine's epoll fd is in its poll set),
 * so a slow or silent client never holds up another, nor the supervision
 * of the workers. Nor does a worker: a request that needs workers is
 * pending (the engine polls it) while they are asked, without waiting
 * (struct xc_ask: every worker at once for list), each on its own
 * deadline: XC_SUP_READ_MS for list and show, XC_SUP_CHANGE_S for a change
 * in a worker. A worker that is stopped or stuck costs its own requests
 * that wait, and they get an error naming it at their deadline; every
 * other client, signal and worker is served meanwhile. Changes of the lab
 * are carried out one at a time, in the order they came, by supervise.c
 * (struct xc_sup_change), which the loop carries on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctlsrv.h"
#include "log.h"
#include "logrl.h"
#include "sockpath.h"
#include "supervise.h"


/**
 * struct sup_job - a request of a client that waits for workers (the
 *		    engine's job->priv while it is pending)
 * @op:		its command (enum xc_ctl_op)
 * @json:	list --json
 * @begun:	a change (add, del, reload): it was started; it is over once
 *		the supervisor's change no longer is this client's
 * @worker:	a request about one cable: its worker
 * @name:	that cable
 * @src:	who asked, for the log's rate limit
 * @n:		workers asked (@ask[k] is worker k's; rc -EAGAIN: not asked,
 *		it does not answer yet)
 * @ask:	the requests to the workers
 */
struct sup_job {
	enum xc_ctl_op op;
	bool json;
	bool begun;
	unsigned int worker;
	char name[XC_NAME_MAX];
	char src[XC_CTLSRV_SRC_LEN];
	unsigned int n;
	struct xc_ask ask[];
};

/**
 * new_job() - the state of a request that waits for @n workers
 * @job:	the engine's request: job->priv is set
 * @op:		its command
 * @n:		requests to workers
 *
 * Return: the state, or NULL (out of memory)
 */
static struct sup_job *new_job(struct xc_ctlsrv_job *job, enum xc_ctl_op op,
			       unsigned int n)
{
	struct sup_job *sj = calloc(1, sizeof(*sj) + n * sizeof(sj->ask[0]));
	unsigned int k;

	if (sj == NULL)
		return NULL;
	sj->op = op;
	sj->n = n;
	for (k = 0; k < n; k++) {
		sj->ask[k].fd = -1;
		sj->ask[k].rc = -EAGAIN;
	}
	job->priv = sj;
	return sj;
}

/**
 * cancel() - a request is given up (its deadline passed, or the server
 *	      stops): the engine's cancel callback; a change it started
 *	      goes on without it
 * @arg:	supervisor
 * @job:	the request
 */
static void cancel(void *arg, struct xc_ctlsrv_job *job)
{
	struct sup_job *sj = job->priv;
	struct xc_sup *s = arg;
	unsigned int k;

	if (s->chg.job == job)
		s->chg.job = NULL;
	for (k = 0; k < sj->n; k++)
		xc_ask_end(&sj->ask[k]);
	free(sj);
	job->priv = NULL;
}

/**
 * done() - the answer of a pending request is whole: its state is freed
 * @s:		supervisor
 * @job:	the request
 *
 * Return: XC_CTLSRV_DONE
 */
static enum xc_ctlsrv_verdict done(struct xc_sup *s, struct xc_ctlsrv_job *job)
{
	cancel(s, job);
	return XC_CTLSRV_DONE;
}

/**
 * asks_left() - carry a request's asks on: are some still under way?
 * @sj:		the request
 *
 * Return: true if so
 */
static bool asks_left(struct sup_job *sj)
{
	bool left = false;
	unsigned int k;

	for (k = 0; k < sj->n; k++)
		if (sj->ask[k].rc == 1 && xc_ask_poll(&sj->ask[k]) == 1)
			left = true;
	return left;
}

/**
 * list_answer() - list [--json], metrics: every worker's cables, in config
 *		   order, once each worker answered (or did not, in time: its
 *		   cables say why); the metrics merged
 * @s:		supervisor
 * @sj:		the request, every ask over
 * @out:	the answer
 */
static void list_answer(struct xc_sup *s, struct sup_job *sj,
			struct xc_sbuf *out)
{
	const char *docs[XC_SUP_MAX_WORKERS] = { NULL }, *blk;
	char why[XC_SUP_MAX_WORKERS][XC_ERR_LEN];
	unsigned int i, k;
	size_t len;
	char *ok;
	int rc;

	for (k = 0; k < sj->n && k < XC_SUP_MAX_WORKERS; k++) {
		struct xc_ask *a = &sj->ask[k];

		why[k][0] = '\0';
		if (a->rc == 0) {
			docs[k] = a->ans.b;
			/* each document stops at its "ok" line */
			ok = sj->json || sj->op == XC_CTL_METRICS ?
			     strstr(a->ans.b, "\nok\n") : NULL;
			if (ok)
				ok[1] = '\0';
		} else if (a->rc == -EAGAIN) {
			snprintf(why[k], sizeof(why[k]), "worker %u is %s", k,
				 s->w[k].state == XC_W_RUNNING ? "starting" :
				 "restarting");
		} else {
			xc_ask_why(a, k, why[k], sizeof(why[k]));
			XC_LOG_FROM(sj->src, super, WARNING, "list: %s",
				    why[k]);
		}
	}
	if (sj->json || sj->op == XC_CTL_METRICS) {
		rc = sj->json ? xc_sup_json_merge(s, docs, sj->n, out) :
		     xc_sup_metrics_merge(docs, sj->n, out);
		xc_sbuf_printf(out, rc ? "error: out of memory\n" : "ok\n");
		return;
	}
	for (i = 0; i < s->n_cables; i++) {
		k = (unsigned int)s->cables[i].worker;
		blk = k < sj->n && docs[k] ?
		      xc_sup_cable_block(docs[k], s->cables[i].def.name, &len) :
		      NULL;
		if (blk)
			xc_sbuf_put(out, blk, len);
		else
			xc_sbuf_printf(out, "%s: not running: %s\n",
				       s->cables[i].def.name,
				       k < sj->n && why[k][0] ? why[k] :
				       "its worker does not list it");
	}
	xc_sbuf_printf(out, "ok\n");
}

/**
 * list_start() - list [--json], metrics: every worker that answers is
 *		  asked, all at once
 * @s:		supervisor
 * @job:	the request
 * @op:		XC_CTL_LIST or XC_CTL_METRICS
 * @json:	one JSON document
 *
 * Return: enum xc_ctlsrv_verdict
 */
static enum xc_ctlsrv_verdict list_start(struct xc_sup *s,
					 struct xc_ctlsrv_job *job,
					 enum xc_ctl_op op, bool json)
{
	struct sup_job *sj = new_job(job, op, s->n_w);
	unsigned int k;

	if (sj == NULL) {
		xc_sbuf_printf(job->out, "error: out of memory\n");
		return XC_CTLSRV_DONE;
	}
	sj->json = json;
	xc_ctlsrv_source(job, op == XC_CTL_LIST ? "list" : "metrics", sj->src,
			 sizeof(sj->src));
	for (k = 0; k < s->n_w; k++)
		if (xc_worker_ready(&s->w[k]))
			xc_ask_start(&sj->ask[k], &s->w[k],
				     op == XC_CTL_METRICS ? "metrics" :
				     json ? "list --json" : "list",
				     XC_SUP_READ_MS);
	if (asks_left(sj))
		return XC_CTLSRV_PENDING;
	list_answer(s, sj, job->out);
	return done(s, job);
}

/**
 * cmd_workers() - workers: one line each
 * @s:		supervisor
 * @out:	the answer
 */
static void cmd_workers(const struct xc_sup *s, struct xc_sbuf *out)
{
	static const char *const state[] = {
		[XC_W_FREE] = "free", [XC_W_RUNNING] = "running",
		[XC_W_WAITING] = "restarting", [XC_W_STOPPING] = "stopping",
	};
	unsigned int k;

	for (k = 0; k < s->n_w; k++) {
		const struct xc_worker *w = &s->w[k];

		if (w->state == XC_W_FREE)
			continue;
		xc_sbuf_printf(out, "worker %u: pid %d, %s%s, %u cable(s), %u restart(s), EAL prefix %s, control %s\n",
			       k, (int)w->pid, state[w->state],
			       w->state == XC_W_RUNNING && !xc_worker_ready(w) ?
			       " (not answering yet)" : "",
			       xc_worker_cables(s, k), w->restarts, w->prefix,
			       w->ctl);
	}
}

/**
 * forward_answer() - a request about one cable, over: its worker's answer
 *		      comes back as it is, or the reason it did not come
 * @sj:		the request, its ask over
 * @out:	the answer
 */
static void forward_answer(struct sup_job *sj, struct xc_sbuf *out)
{
	char why[XC_ERR_LEN];
	struct xc_ask *a = &sj->ask[0];

	if (a->rc == 0 || a->rc == -EINVAL) {
		xc_sbuf_put(out, xc_sbuf_str(&a->ans), a->ans.len);
		return;
	}
	xc_ask_why(a, sj->worker, why, sizeof(why));
	xc_sbuf_printf(out, "error: cable %s: %s\n", sj->name, why);
}

/**
 * forward_start() - a request about one cable goes to its worker (show
 *		     waits XC_SUP_READ_MS for it, a change XC_SUP_CHANGE_S)
 * @s:		supervisor
 * @job:	the request
 * @line:	the request as xcablectl sent it
 * @cmd:	its command
 * @name:	the cable
 *
 * Return: enum xc_ctlsrv_verdict
 */
static enum xc_ctlsrv_verdict forward_start(struct xc_sup *s,
					    struct xc_ctlsrv_job *job,
					    const char *line,
					    const struct xc_ctl_cmd *cmd,
					    const char *name)
{
	int c = xc_sup_find(s, name);
	struct sup_job *sj;
	unsigned int k;

	if (c < 0) {
		xc_sbuf_printf(job->out, "error: no cable '%.40s'\n", name);
		return XC_CTLSRV_DONE;
	}
	k = (unsigned int)s->cables[c].worker;
	if (!xc_worker_ready(&s->w[k])) {
		xc_sbuf_printf(job->out, "error: cable %s: its worker %u is %s: try again\n",
			       name, k, s->w[k].state == XC_W_RUNNING ?
			       "starting" : "restarting");
		return XC_CTLSRV_DONE;
	}
	sj = new_job(job, cmd->op, 1);
	if (sj == NULL) {
		xc_sbuf_printf(job->out, "error: out of memory\n");
		return XC_CTLSRV_DONE;
	}
	sj->worker = k;
	snprintf(sj->name, sizeof(sj->name), "%s", name);
	xc_ask_start(&sj->ask[0], &s->w[k], line, cmd->changes ?
		     XC_SUP_CHANGE_S * 1000 : XC_SUP_READ_MS);
	if (asks_left(sj))
		return XC_CTLSRV_PENDING;
	forward_answer(sj, job->out);
	return done(s, job);
}

/**
 * change_begin() - start a change whose turn came (supervise.c carries it
 *		    on), unless another is under way (SIGHUP's reload) or
 *		    a worker told to stop is still there: then it is tried
 *		    again at the next poll
 * @s:		supervisor
 * @job:	the request, its state set
 *
 * Return: enum xc_ctlsrv_verdict
 */
static enum xc_ctlsrv_verdict change_begin(struct xc_sup *s,
					   struct xc_ctlsrv_job *job)
{
	static const enum xc_sup_op ops[XC_CTL_N_OPS] = {
		[XC_CTL_ADD] = XC_SUP_ADD, [XC_CTL_DEL] = XC_SUP_DEL,
		[XC_CTL_RELOAD] = XC_SUP_RELOAD,
	};
	char line[XC_CTL_LINE_MAX], words[XC_CTL_LINE_MAX], why[XC_ERR_LEN];
	struct sup_job *sj = job->priv;
	const struct xc_ctl_cmd *cmd;
	struct xc_ctl_req r;

	/* one at a time; and what a worker told to stop holds (a UDP port,
	 * a device) is free only once it is gone */
	if (s->chg.op != XC_SUP_NONE || xc_sup_stopping(s))
		return XC_CTLSRV_PENDING;
	sj->begun = true;
	snprintf(line, sizeof(line), "%s", job->line);
	line[strcspn(line, "\r")] = '\0';
	snprintf(words, sizeof(words), "%s", line);
	if (xc_ctl_parse(words, &r, &cmd, why, sizeof(why))) {	/* it did */
		xc_sbuf_printf(job->out, "error: %s\n", why);
		return done(s, job);
	}
	xc_ctlsrv_source(job, cmd->name, sj->src, sizeof(sj->src));
	if (xc_sup_change(s, ops[sj->op], r.argc, r.argv, line, sj->src, job))
		return XC_CTLSRV_PENDING;
	return done(s, job);	/* over at once: the answer is there */
}

/**
 * poll_job() - a pending request (the engine's poll callback, every
 *		XC_CTLSRV_POLL_MS): its workers' answers read as far as they
 *		came; answered once all are there
 * @arg:	supervisor
 * @job:	the request
 *
 * Return: enum xc_ctlsrv_verdict
 */
static enum xc_ctlsrv_verdict poll_job(void *arg, struct xc_ctlsrv_job *job)
{
	struct sup_job *sj = job->priv;
	struct xc_sup *s = arg;

	switch (sj->op) {
	case XC_CTL_ADD:
	case XC_CTL_DEL:
	case XC_CTL_RELOAD:
		if (!sj->begun)
			return change_begin(s, job);
		/* over once the change under way is no longer its own */
		return s->chg.job == job ? XC_CTLSRV_PENDING : done(s, job);
	case XC_CTL_LIST:
	case XC_CTL_METRICS:
		if (asks_left(sj))
			return XC_CTLSRV_PENDING;
		list_answer(s, sj, job->out);
		return done(s, job);
	default:
		if (asks_left(sj))
			return XC_CTLSRV_PENDING;
		forward_answer(sj, job->out);
		return done(s, job);
	}
}

/**
 * remote_move() - does a migrate request move a guest to another host?
 *		   Its end would become a tunnel, and a lab's tunnels are
 *		   all one worker's (one UDP socket)
 * @r:		the request, split
 *
 * Return: true if so
 */
static bool remote_move(const struct xc_ctl_req *r)
{
	int a;

	for (a = 3; a < r->argc; a++)
		if (strcmp(r->argv[a], "--to-remote") == 0)
			return true;
	return false;
}

/**
 * handle() - a request came (the engine's handler): answered at once
 *	      (workers), or pending while its workers answer (list, a
 *	      request about one cable), or a change of the lab, carried out
 *	      one at a time in the order they came (add, del, reload)
 * @arg:	supervisor
 * @job:	the request
 *
 * Return: enum xc_ctlsrv_verdict, the answer in job->out once DONE
 */
static enum xc_ctlsrv_verdict handle(void *arg, struct xc_ctlsrv_job *job)
{
	char line[XC_CTL_LINE_MAX], words[XC_CTL_LINE_MAX], why[XC_ERR_LEN];
	const struct xc_ctl_cmd *cmd;
	struct xc_sbuf *out = job->out;
	struct xc_sup *s = arg;
	struct xc_ctl_req r;

	snprintf(line, sizeof(line), "%s", job->line);
	line[strcspn(line, "\r")] = '\0';	/* forwarded as it came */
	snprintf(words, sizeof(words), "%s", line);
	if (xc_ctl_parse(words, &r, &cmd, why, sizeof(why))) {
		xc_sbuf_printf(out, "error: %s\n", why);
		return XC_CTLSRV_DONE;
	}
	switch (cmd->op) {
	case XC_CTL_LIST:
	case XC_CTL_METRICS:
		return list_start(s, job, cmd->op, r.json);
	case XC_CTL_WORKERS:
		cmd_workers(s, out);
		xc_sbuf_printf(out, "ok\n");
		return XC_CTLSRV_DONE;
	case XC_CTL_CAPTURE:
	case XC_CTL_EVENTS:
		return xc_suprelay_begin(s, job, &r, cmd);
	case XC_CTL_ADD:
	case XC_CTL_DEL:
	case XC_CTL_RELOAD:
		if (!job->turn)
			return XC_CTLSRV_SERIAL;	/* one at a time */
		if (new_job(job, cmd->op, 0) == NULL) {
			xc_sbuf_printf(out, "error: out of memory\n");
			return XC_CTLSRV_DONE;
		}
		return change_begin(s, job);
	case XC_CTL_MIGRATE:
		if (remote_move(&r)) {
			xc_sbuf_printf(out, "error: migrate --to-remote: not under a supervisor (every tunnel of a lab is one worker's): run the cable in an xcable of its own\n");
			return XC_CTLSRV_DONE;
		}
		return forward_start(s, job, line, cmd, r.argv[1]);
	default:	/* show, impair, clear, down, up: the cable's worker */
		return forward_start(s, job, line, cmd, r.argv[1]);
	}
}

/**
 * xc_supctl_serve() - serve the clients of the control socket that are
 *		       ready, without waiting (the supervisor's poll() said
 *		       so, or the wait the engine asked for is over)
 * @s:		supervisor, its socket started
 *
 * Return: milliseconds until it must be called again, -1 if only a
 *	   client can make it needed (xc_ctlsrv_serve())
 */
int xc_supctl_serve(struct xc_sup *s)
{
	return xc_ctlsrv_serve(&s->ctl, 0);
}

/**
 * xc_supctl_start() - create the control socket (s->ctl_path), with the
 *		       mode, owner and group of the vhost sockets
 * @s:		supervisor
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno
 */
int xc_supctl_start(struct xc_sup *s, char *err, size_t errlen)
{
	const struct xc_ctlsrv_ops ops = {
		.handle = handle, .poll = poll_job, .cancel = cancel,
		.adopt = xc_suprelay_adopt, .arg = s,
	};
	int rc;

	s->ctl_fd = xc_sock_listen_own(s->ctl_path, SOCK_NONBLOCK,
				       XC_CTLSRV_BACKLOG, s->cl->opts.sock_mode,
				       s->cl->sock_uid, s->cl->sock_gid,
				       &s->ctl_id, err, errlen);
	if (s->ctl_fd < 0)
		return s->ctl_fd;
	/* the supervisor gives up on its workers first, and says why */
	rc = xc_ctlsrv_init(&s->ctl, s->ctl_fd, "supervisor control",
			    (XC_SUP_CHANGE_S + 10) * 1000, &ops, err, errlen);
	if (rc) {
		xc_sock_unlink_own(s->ctl_path, &s->ctl_id, NULL, 0);
		s->ctl_fd = -1;
	}
	return rc;
}

/**
 * xc_supctl_stop() - close and remove the control socket
 * @s:		supervisor
 */
void xc_supctl_stop(struct xc_sup *s)
{
	char why[XC_ERR_LEN + XC_SOCK_PATH_MAX];

	if (s->ctl_fd < 0)
		return;
	xc_ctlsrv_fini(&s->ctl);	/* closes s->ctl_fd */
	/* ours only: another file at the path is left, and logged */
	if (xc_sock_unlink_own(s->ctl_path, &s->ctl_id, why, sizeof(why)))
		XC_LOG(super, WARNING, "%s", why);
	s->ctl_fd = -1;
}
