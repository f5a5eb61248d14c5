/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * control.c - the runtime control socket that xcablectl talks to
 *
 * Theory of operation: a thread of its own serves a unix socket (by
 * default xcable.ctl in the EAL runtime directory, created with the same
 * mode, owner and group as the vhost-user sockets) with the engine of
 * ctlsrv.c: each client sends one request line and gets lines of answer,
 * the last "ok" or "error: WHY". The engine serves up to 16 clients at
 * once, each on deadlines of its own (2 s for the whole request line, 5 s
 * for reading the answer), so a slow, silent or greedy client never
 * delays another. A request only reads counters or publishes an
 * impairment through its seqlock: nothing a client sends can stop or slow
 * a forwarding lcore.
 *
 *   list [--json]              cables, link states, counters, impairments
 *   show CABLE [--json]        one cable: each end's features, each
 *                              direction's counters and impairment
 *                              (--json: the document of counters.c)
 *   impair CABLE [to-right|to-left] SPEC   set (SPEC: see --impair, none)
 *   clear CABLE                no impairment either way
 *   down CABLE [END], up CABLE [END]   pull the cable (or one end) out,
 *                              plug it back in
 *   flap CABLE [END] --down T --up T --count N|forever, flap CABLE stop
 *                              pull and plug on a schedule (pull.c)
 *   add NAME KEY=VALUE..., del NAME, reload   cables added and removed
 *                              at runtime (reconf.c, through @change_post)
 *   capture CABLE[:END]... [-s N] [-c N] [-a duration:S] [-f FILTER]
 *                              a pcapng stream of the frames crossing
 *                              the ends (capture.c)
 *   events [--json]            a line per event from now on (events.c)
 *   migrate CABLE END [...], migrate CABLE cancel   a guest moving to
 *                              another QEMU (migrate.c, through the same)
 *
 * list, show, impair and clear are answered at once; capture and events
 * are streams, handed over to the stream thread (stream.c). The others are
 * carried out by the main thread: they are serial (the engine gives them
 * their turn one at a time, in the order they came), and once posted to
 * the main thread their answer is pending: the engine polls it every
 * 10 ms, and meanwhile serves every other client.
 *
 * Cables come and go at runtime: requests look at them holding @lock for
 * reading, never between two polls (a pending down or up looks its cable
 * up again by name: it may have gone meanwhile).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "counters.h"
#include "dir.h"
#include "evlog.h"
#include "events.h"
#include "log.h"
#include "metrics.h"
#include "logrl.h"
#include "pull.h"
#include "sockpath.h"

RTE_LOG_REGISTER(xc_logtype_control, xcable.control, INFO);

#define XC_CTL_MAIN_MS	30000	/* longest wait for the main thread */

/**
 * struct ctl_call - one request being carried out
 * @line:	a copy of its line, split in place
 * @r:		its words
 * @cmd:	its command
 * @cb:		the cable it names, for commands about a cable
 * @out:	the answer: lines, then "ok" (the reason of an error goes to
 *		@why)
 * @why:	the reason it is refused
 * @src:	who asked, as the log's rate limit knows it
 *		(xc_ctlsrv_source())
 */
struct ctl_call {
	char line[XC_CTL_LINE_MAX];
	struct xc_ctl_req r;
	const struct xc_ctl_cmd *cmd;
	struct xc_cable *cb;
	struct xc_sbuf *out;
	char why[XC_ERR_LEN];
	char src[XC_CTLSRV_SRC_LEN];
};

/**
 * find() - a shown cable by name
 * @c:		control state
 * @name:	cable name
 *
 * Return: the cable, or NULL
 */
static struct xc_cable *find(struct xc_control *c, const char *name)
{
	return xc_cable_find(c->cables, c->n_cables, name);
}

/**
 * dir_line() - one direction's counters and impairment on one line, and
 *		for an impaired direction what its impairment did, measured,
 *		on the next
 * @out:	the answer
 * @cb:		cable
 * @j:		0: end[0] -> end[1]; 1: the reverse
 */
static void dir_line(struct xc_sbuf *out, const struct xc_cable *cb,
		     unsigned int j)
{
	char imp[256], line[1024];
	struct xc_impair_report ir;
	struct xc_impair_cfg ic;
	struct xc_dir_stats s;

	xc_cable_stats(cb, j, &s);
	xc_stats_line(&xc_dir_counters, &s, line, sizeof(line));
	xc_impair_get(&cb->dir[j].im, &ic);
	xc_impair_format(&ic, imp, sizeof(imp));
	xc_sbuf_printf(out, "  %s: %s impair %s\n", cb->dir[j].label, line,
		       imp);
	xc_impair_dir_report(cb, j, &ir);
	if (!xc_impair_report_shown(&ir))
		return;
	xc_impair_report_text(&ir, line, sizeof(line));
	xc_sbuf_printf(out, "    %s: %s\n", cb->dir[j].label, line);
}

/**
 * hub_lines() - the counters of the hubs a cable's ends are on (a trunk,
 *		 the tunnel socket)
 * @out:	the answer
 * @cb:		cable
 */
static void hub_lines(struct xc_sbuf *out, const struct xc_cable *cb)
{
	const struct xc_hub *hub[2];
	char line[1024];
	unsigned int i, n;

	n = xc_hubs_of(cb, 1, NULL, hub, RTE_DIM(hub));
	for (i = 0; i < n; i++) {
		xc_hub_line(hub[i], line, sizeof(line));
		xc_sbuf_printf(out, "  %s\n", line);
	}
}

/**
 * answer_json() - answer list or show with the JSON document
 * @c:		control state
 * @k:		the request; k->cb the cable of show, NULL for list
 *
 * Return: 0, or -ENOMEM with the reason in k->why
 */
static int answer_json(struct xc_control *c, struct ctl_call *k)
{
	struct xc_json js = { 0 };
	int rc = 0;

	xc_counters_doc(c->cables, c->n_cables, k->cb, c->gone, &js);
	if (xc_json_finish(&js)) {
		snprintf(k->why, sizeof(k->why), "out of memory");
		rc = -ENOMEM;
	} else {
		xc_sbuf_put(k->out, js.text.b, js.text.len);
	}
	xc_json_free(&js);
	return rc;
}

/**
 * end_line() - one end's link, features and socket
 * @out:	the answer
 * @e:		end
 */
static void end_line(struct xc_sbuf *out, const struct xc_end *e)
{
	uint64_t caps = xc_end_caps(e);
	uint8_t why = __atomic_load_n(&e->cable->pull_why[e->idx],
				      __ATOMIC_ACQUIRE);
	char takes[64];

	xc_caps_describe(caps, takes, sizeof(takes));
	xc_sbuf_printf(out, "  %s: %s %s link %s%s%s%s, virtio features 0x%" PRIx64
		       ", takes %s, frames up to %u bytes, %u queue(s)\n",
		       e->label, e->port ? e->port->name : e->ops->kind,
		       xc_end_where(e), xc_end_is_up(e) ? "up" : "down",
		       why ? " (unplugged: " : "",
		       why ? xc_pull_why_name((enum xc_pull_why)why) : "",
		       why ? ")" : "",
		       e->port ? xc_port_features(e->port) : 0, takes,
		       xc_caps_max_frame(caps), xc_end_queues(e));
}

/**
 * flap_line() - a cable's flap schedule, if it ever had one, and its last
 *		 migration, if one was ever opened
 * @out:	the answer
 * @cb:		cable
 */
static void flap_line(struct xc_sbuf *out, const struct xc_cable *cb)
{
	char line[XC_MIG_TO_LEN + XC_MIG_WHY_LEN + 128];

	xc_flap_text(cb, line, sizeof(line));
	if (line[0])
		xc_sbuf_printf(out, "  %s\n", line);
	xc_mig_text(&cb->mig, (const char *const[2]){ cb->end[0].label,
						     cb->end[1].label },
		    line, sizeof(line));
	if (line[0])
		xc_sbuf_printf(out, "  %s\n", line);
}

/* cmd_list() - list: every cable, its links, counters and hubs */
static int cmd_list(struct xc_control *c, struct ctl_call *k)
{
	struct xc_cable *cb;
	unsigned int i;

	if (k->r.json)
		return answer_json(c, k);
	for (i = 0; i < c->n_cables; i++) {
		cb = &c->cables[i];
		if (!xc_cable_shown(cb))
			continue;	/* a slot of a cable removed */
		xc_sbuf_printf(k->out, "%s: %s %s, %s %s\n", cb->name,
			       cb->end[0].label,
			       xc_end_is_up(&cb->end[0]) ? "up" : "down",
			       cb->end[1].label,
			       xc_end_is_up(&cb->end[1]) ? "up" : "down");
		flap_line(k->out, cb);
		dir_line(k->out, cb, 0);
		dir_line(k->out, cb, 1);
		hub_lines(k->out, cb);
	}
	return 0;
}

/* cmd_show() - show CABLE: its ends in detail, counters, hubs */
static int cmd_show(struct xc_control *c, struct ctl_call *k)
{
	struct xc_cable *cb = k->cb;

	if (k->r.json)
		return answer_json(c, k);
	xc_sbuf_printf(k->out, "%s: %u queue(s)\n", cb->name, cb->n_queues);
	end_line(k->out, &cb->end[0]);
	end_line(k->out, &cb->end[1]);
	flap_line(k->out, cb);
	dir_line(k->out, cb, 0);
	dir_line(k->out, cb, 1);
	hub_lines(k->out, cb);
	return 0;
}

/**
 * cmd_metrics() - metrics: every counter, in the Prometheus text format
 * @c:		control state
 * @k:		the request
 *
 * Return: 0, or -ENOMEM with the reason in k->why
 */
static int cmd_metrics(struct xc_control *c, struct ctl_call *k)
{
	xc_metrics_text(c->cables, c->n_cables, c->gone, k->out);
	if (k->out->failed) {
		snprintf(k->why, sizeof(k->why), "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* cmd_clear() - clear CABLE: no impairment either way */
static int cmd_clear(struct xc_control *c, struct ctl_call *k)
{
	struct xc_impair_cfg ic;
	unsigned int i;

	(void)c;
	xc_impair_parse("none", &ic, NULL, 0);
	for (i = 0; i < 2 * k->cb->n_queues; i++)
		xc_impair_set(&k->cb->dir[i].im, &ic);
	XC_LOG_FROM(k->src, control, INFO, "%s: impairments cleared",
		    k->cb->name);
	xc_ev("impair", k->cb->name, NULL, "changed", "clear",
	      "both ways: none");
	return 0;
}

/**
 * cmd_impair() - impair CABLE [to-right|to-left] SPEC
 * @c:		control state
 * @k:		request
 *
 * Return: 0, or -EINVAL with the reason in k->why
 */
static int cmd_impair(struct xc_control *c, struct ctl_call *k)
{
	const struct xc_ctl_req *r = &k->r;
	const char *spec = r->argv[r->argc - 1];
	struct xc_impair_cfg ic;
	unsigned int i;
	int j = -1;	/* both */

	(void)c;
	if (r->argc == 4 && strcmp(r->argv[2], "to-right") == 0) {
		j = 0;
	} else if (r->argc == 4 && strcmp(r->argv[2], "to-left") == 0) {
		j = 1;
	} else if (r->argc == 4) {
		snprintf(k->why, sizeof(k->why),
			 "direction '%.20s': expected to-right or to-left",
			 r->argv[2]);
		return -EINVAL;
	}
	if (xc_impair_parse(spec, &ic, k->why, sizeof(k->why)))
		return -EINVAL;
	for (i = 0; i < 2 * k->cb->n_queues; i++)
		if (j < 0 || (int)(i % 2) == j)
			xc_impair_set(&k->cb->dir[i].im, &ic);
	XC_LOG_FROM(k->src, control, INFO, "%s: impairment %s%s set to %s",
		    k->cb->name, j < 0 ? "both ways" : "",
		    j == 0 ? "to-right" : j == 1 ? "to-left" : "", spec);
	xc_ev("impair", k->cb->name, NULL, "changed", "impair", "%s: %s",
	      j < 0 ? "both ways" : j == 0 ? "to-right" : "to-left", spec);
	return 0;
}

/**
 * struct ctl_now - what a request answered at once does
 * @run:	carries it out, the cables held still: 0, or -errno with
 *		the reason in k->why
 * @wakes:	it changes what the main thread's housekeeping acts on (an
 *		impairment's pool): wake it once done
 */
struct ctl_now {
	int (*run)(struct xc_control *c, struct ctl_call *k);
	bool wakes;
};

static const struct ctl_now ctl_now[XC_CTL_N_OPS] = {
	[XC_CTL_LIST]   = { cmd_list,   false },
	[XC_CTL_SHOW]   = { cmd_show,   false },
	[XC_CTL_METRICS] = { cmd_metrics, false },
	[XC_CTL_IMPAIR] = { cmd_impair, true },
	[XC_CTL_CLEAR]  = { cmd_clear,  true },
};

/**
 * split() - a request line's words and command
 * @k:		filled
 * @job:	the request
 *
 * Return: 0, or -EINVAL with the reason in k->why
 */
static int split(struct ctl_call *k, struct xc_ctlsrv_job *job)
{
	memset(k, 0, sizeof(*k));
	k->out = job->out;
	snprintf(k->line, sizeof(k->line), "%s", job->line);
	if (xc_ctl_parse(k->line, &k->r, &k->cmd, k->why, sizeof(k->why)))
		return -EINVAL;
	xc_ctlsrv_source(job, k->cmd->name, k->src, sizeof(k->src));
	if (k->cmd->op == XC_CTL_WORKERS) {
		snprintf(k->why, sizeof(k->why),
			 "workers: this xcable runs its cables itself (only an xcable that supervises worker processes has workers)");
		return -EINVAL;
	}
	return 0;
}

/**
 * finish() - end the answer: "ok" after its lines, or the reason alone
 * @k:		the request
 * @rc:		0, or -errno with the reason in k->why
 *
 * Return: XC_CTLSRV_DONE
 */
static enum xc_ctlsrv_verdict finish(struct ctl_call *k, int rc)
{
	if (rc == 0) {
		xc_sbuf_printf(k->out, "ok\n");
	} else {
		xc_sbuf_free(k->out);
		xc_sbuf_printf(k->out, "error: %s\n", k->why);
	}
	return XC_CTLSRV_DONE;
}

/**
 * run_now() - carry out a request that is answered at once, with the
 *	       cables held still
 * @c:		control state
 * @k:		the request
 *
 * Return: 0, or -errno with the reason in k->why
 */
static int run_now(struct xc_control *c, struct ctl_call *k)
{
	const struct ctl_now *n = &ctl_now[k->cmd->op];
	int rc;

	if (c->lock)
		pthread_rwlock_rdlock(c->lock);
	if (k->cmd->cable && (k->cb = find(c, k->r.argv[1])) == NULL) {
		snprintf(k->why, sizeof(k->why), "no cable '%.40s'",
			 k->r.argv[1]);
		rc = -ENOENT;
	} else {
		rc = n->run(c, k);
	}
	if (c->lock)
		pthread_rwlock_unlock(c->lock);
	if (rc == 0 && n->wakes && c->wake)
		c->wake(c->wake_arg);
	return rc;
}

/**
 * pull_args() - what down, up or flap asks of the main thread
 * @cb:		the cable it names
 * @k:		the request: down CABLE [END], up CABLE [END],
 *		flap CABLE [END] --down T --up T --count N|forever,
 *		flap CABLE stop
 * @req:	set to XC_REQ_*
 * @end:	set to the end it is about, -1 for both
 * @f:		set to the flap schedule of XC_REQ_FLAP
 *
 * Return: 0, or -EINVAL with the reason in k->why
 */
static int pull_args(const struct xc_cable *cb, struct ctl_call *k,
		     uint32_t *req, int *end, struct xc_flap_cfg *f)
{
	const struct xc_ctl_req *r = &k->r;
	int a = 2;

	*end = -1;
	memset(f, 0, sizeof(*f));
	if (k->cmd->op == XC_CTL_FLAP && r->argc == 3 &&
	    strcmp(r->argv[2], "stop") == 0) {
		*req = XC_REQ_FLAP_STOP;
		return 0;
	}
	if (a < r->argc && strncmp(r->argv[a], "--", 2) != 0) {
		*end = xc_cable_end_named(cb, r->argv[a]);
		if (*end < 0) {
			snprintf(k->why, sizeof(k->why),
				 "%s: cable %s has no end '%.40s' (left or right)",
				 k->cmd->name, cb->name, r->argv[a]);
			return -EINVAL;
		}
		a++;
	}
	if (k->cmd->op != XC_CTL_FLAP) {
		*req = k->cmd->op == XC_CTL_DOWN ? XC_REQ_DOWN : XC_REQ_UP;
		return 0;
	}
	if (xc_flap_parse_words(r->argc - a, r->argv + a, f, k->why,
				sizeof(k->why)))
		return -EINVAL;
	f->end = *end;
	*req = XC_REQ_FLAP;
	return 0;
}

/**
 * pull_post() - down, up, flap: ask the main thread to pull the cable (or
 *		 one end) out, plug it in, or flap it
 * @c:		control state
 * @k:		the request
 *
 * Return: 0 if asked, or -errno with the reason in k->why (nothing asked)
 */
static int pull_post(struct xc_control *c, struct ctl_call *k)
{
	struct xc_flap_cfg f;
	struct xc_cable *cb;
	uint32_t req = 0;
	int end = -1, rc = -ENOENT;

	if (c->lock)
		pthread_rwlock_rdlock(c->lock);
	cb = find(c, k->r.argv[1]);
	if (cb == NULL)
		snprintf(k->why, sizeof(k->why), "no cable '%.40s'",
			 k->r.argv[1]);
	else
		rc = pull_args(cb, k, &req, &end, &f);
	if (rc == 0) {
		/* read by the main thread after it takes @req */
		cb->req_end = end;
		cb->req_flap = f;
		__atomic_store_n(&cb->req_done, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&cb->req, req, __ATOMIC_RELEASE);
	}
	if (c->lock)
		pthread_rwlock_unlock(c->lock);
	if (rc == 0 && c->wake)	/* the main thread carries it out */
		c->wake(c->wake_arg);
	return rc;
}

/**
 * pull_result() - the main thread's answer to down, up or flap, the cable
 *		   looked up again by name (it may have gone meanwhile)
 * @c:		control state
 * @k:		the request
 *
 * Return: 0 while pending, 1 if done, -errno with the reason in k->why
 */
static int pull_result(struct xc_control *c, struct ctl_call *k)
{
	const char *name = k->r.argv[1];
	struct xc_flap_cfg f;
	struct xc_cable *cb;
	char label[RTE_ETH_NAME_MAX_LEN] = "";
	uint32_t req;
	int done = 0, end = -1;

	if (c->lock)
		pthread_rwlock_rdlock(c->lock);
	cb = find(c, name);
	if (cb) {
		done = __atomic_load_n(&cb->req_done, __ATOMIC_ACQUIRE);
		if (pull_args(cb, k, &req, &end, &f) == 0 && end >= 0)
			snprintf(label, sizeof(label), "%s",
				 cb->end[end].label);
	}
	if (c->lock)
		pthread_rwlock_unlock(c->lock);
	if (cb == NULL) {
		snprintf(k->why, sizeof(k->why),
			 "%s %.40s: the cable was removed meanwhile",
			 k->cmd->name, name);
		return -ENOENT;
	}
	if (done == 0 || done == 1)
		return done;
	if (done == -EBUSY)
		snprintf(k->why, sizeof(k->why),
			 "%s %.40s: a guest of the cable is moving (xcablectl migrate %.40s cancel, or wait for the migration to end)",
			 k->cmd->name, name, name);
	else if (done == -ENOTSUP && label[0])
		snprintf(k->why, sizeof(k->why),
			 "%s %.40s: the %s end cannot be pulled (only a guest's end can: not a shared port or a tunnel)",
			 k->cmd->name, name, label);
	else
		snprintf(k->why, sizeof(k->why), "%s %.40s: %s", k->cmd->name,
			 name, done == -ENOTSUP ?
			 "only cables whose ends can both be unplugged (guests' ends, not shared ports or tunnels) can be pulled" :
			 "failed, see xcable's log");
	return -EINVAL;
}

/**
 * change_result() - the main thread's answer to add, del or reload: its
 *		     lines, the last one the reason of a failure
 * @c:		control state
 * @k:		the request
 *
 * Return: 0 while pending, 1 if done (its lines in k->out), -errno with
 *	   the reason in k->why (lines before it in k->out)
 */
static int change_result(struct xc_control *c, struct ctl_call *k)
{
	struct xc_sbuf ans = { 0 };
	const char *last;
	int rc;

	rc = c->change_result(c->change_arg, &ans);
	while (ans.len && ans.b[ans.len - 1] == '\n')
		ans.b[--ans.len] = '\0';
	last = ans.len ? memrchr(ans.b, '\n', ans.len) : NULL;
	if (rc == 1 && ans.len) {
		xc_sbuf_printf(k->out, "%s\n", ans.b);
	} else if (rc < 0) {
		if (last)
			xc_sbuf_put(k->out, ans.b, (size_t)(last + 1 - ans.b));
		snprintf(k->why, sizeof(k->why), "%s",
			 last ? last + 1 : xc_sbuf_str(&ans));
	}
	xc_sbuf_free(&ans);
	return rc;
}

/* is_pull() - is a request one of pull.c's (down, up, flap)? */
static bool is_pull(const struct ctl_call *k)
{
	return k->cmd->op == XC_CTL_DOWN || k->cmd->op == XC_CTL_UP ||
	       k->cmd->op == XC_CTL_FLAP;
}

/* is_main() - is a request carried out by the main thread? */
static bool is_main(const struct ctl_call *k)
{
	return ctl_now[k->cmd->op].run == NULL;
}

/**
 * stream_begin() - capture, events: a request whose answer is a stream;
 *		    a capture is made now (its first blocks in job->out,
 *		    its state in job->priv), then the connection goes to the
 *		    stream thread (adopt())
 * @c:		control state
 * @k:		the request
 * @job:	the engine's request
 *
 * Return: XC_CTLSRV_STREAM, or XC_CTLSRV_DONE with the reason
 */
static enum xc_ctlsrv_verdict stream_begin(struct xc_control *c,
					   struct ctl_call *k,
					   struct xc_ctlsrv_job *job)
{
	int rc = 0;

	if (xc_streams_full(&c->streams)) {
		snprintf(k->why, sizeof(k->why), "%s: %d streams (captures, event listeners) are served already: try again later",
			 k->cmd->name, XC_STREAM_MAX);
		rc = -EBUSY;
	} else if (k->cmd->op == XC_CTL_CAPTURE) {
		rc = xc_capture_begin(&c->caps, c->cables, c->n_cables,
				      c->lock, &k->r, job->out, &job->priv,
				      k->why, sizeof(k->why));
		if (rc == 0)
			XC_LOG_FROM(k->src, control, INFO, "capture for uid %d: %.200s",
				    job->uid, job->line);
	}
	return rc ? finish(k, rc) : XC_CTLSRV_STREAM;
}

/**
 * adopt() - a stream's connection, handed over by the engine: to the
 *	     stream thread, as a capture (its state in job->priv) or a
 *	     listener of the events
 * @arg:	control state
 * @job:	the request
 * @fd:		its connection
 */
static void adopt(void *arg, struct xc_ctlsrv_job *job, int fd)
{
	struct xc_control *c = arg;
	char why[XC_ERR_LEN], who[64];
	struct ctl_call k;

	if (job->priv) {
		xc_streams_adopt(&c->streams, fd, &xc_capture_kind, job->priv,
				 job->out, why, sizeof(why));
		return;
	}
	split(&k, job);	/* it did before */
	snprintf(who, sizeof(who), "xcable pid %d", (int)getpid());
	xc_events_adopt(&c->streams, fd, k.r.json, who, why, sizeof(why));
}

/**
 * tick() - the stream thread's own work: captures over freed once no
 *	    lcore holds their taps, drops starting and stopping while
 *	    someone listens
 * @arg:	control state
 *
 * Return: when it wants to run again (stream clock), 0 for never
 */
static uint64_t tick(void *arg)
{
	struct xc_control *c = arg;
	uint64_t a = xc_captures_reap(&c->caps), b;

	b = xc_dropwatch_tick(&c->drops, c->cables, c->n_cables, c->lock,
			      xc_streams_count(&c->streams,
					       &xc_events_kind) > 0);
	return a && b ? RTE_MIN(a, b) : a | b;
}

/**
 * handle() - a request came (the engine's handler): answer it at once, or
 *	      post it to the main thread once its turn has come
 * @arg:	control state
 * @job:	the request
 *
 * Return: enum xc_ctlsrv_verdict
 */
static enum xc_ctlsrv_verdict handle(void *arg, struct xc_ctlsrv_job *job)
{
	struct xc_control *c = arg;
	struct ctl_call k;
	int rc;

	rc = split(&k, job);
	if (rc == 0 && k.cmd->stream)
		return stream_begin(c, &k, job);
	if (rc || !is_main(&k))
		return finish(&k, rc ? rc : run_now(c, &k));
	if (!job->turn)
		return XC_CTLSRV_SERIAL;	/* one change at a time */
	if (is_pull(&k)) {
		rc = pull_post(c, &k);
	} else if (c->change_post == NULL) {
		snprintf(k.why, sizeof(k.why), "%s: not available",
			 k.cmd->name);
		rc = -ENOTSUP;
	} else {
		rc = c->change_post(c->change_arg, k.src, k.r.argc, k.r.argv,
				    k.why, sizeof(k.why));
	}
	return rc ? finish(&k, rc) : XC_CTLSRV_PENDING;
}

/**
 * poll_main() - is the main thread's answer there? (the engine's poll
 *		 callback, every 10 ms)
 * @arg:	control state
 * @job:	the request, posted by handle()
 *
 * Return: XC_CTLSRV_PENDING, or XC_CTLSRV_DONE with the answer in
 *	   job->out
 */
static enum xc_ctlsrv_verdict poll_main(void *arg, struct xc_ctlsrv_job *job)
{
	struct xc_control *c = arg;
	struct ctl_call k;
	int rc;

	rc = split(&k, job);
	if (rc == 0)
		rc = is_pull(&k) ? pull_result(c, &k) : change_result(c, &k);
	if (rc == 0)
		return XC_CTLSRV_PENDING;
	if (rc == 1)
		return finish(&k, 0);
	xc_sbuf_printf(job->out, "error: %s\n", k.why);	/* its lines kept */
	return XC_CTLSRV_DONE;
}

/**
 * loop() - the control thread: serve the socket until told to stop
 * @arg:	control state
 *
 * Return: NULL
 */
static void *loop(void *arg)
{
	struct xc_control *c = arg;
	int wait = -1;

	while (!__atomic_load_n(&c->quit, __ATOMIC_ACQUIRE))
		wait = xc_ctlsrv_serve(&c->srv, wait);
	return NULL;
}

/**
 * stop_streams() - end every stream (captures write what they can of
 *		    their end), the stream thread, and free the captures
 *		    over (the lcores stopped)
 * @c:		control state
 */
static void stop_streams(struct xc_control *c)
{
	xc_ev_set_wake(NULL, NULL);
	xc_streams_fini(&c->streams);
	xc_captures_fini(&c->caps);
	pthread_mutex_destroy(&c->caps.lock);
}

/**
 * xc_control_start() - create the control socket and its thread
 * @c:		control state; path, mode, uid, gid, cables set by the caller
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno (xcable then runs without runtime control)
 */
int xc_control_start(struct xc_control *c, char *err, size_t errlen)
{
	const struct xc_ctlsrv_ops ops = {
		.handle = handle, .poll = poll_main, .adopt = adopt, .arg = c,
	};
	int rc;

	pthread_mutex_init(&c->caps.lock, NULL);
	rc = xc_streams_init(&c->streams, "control");
	if (rc == 0) {
		c->streams.tick = tick;
		c->streams.tick_arg = c;
		xc_ev_set_wake(xc_streams_wake, &c->streams);
		rc = xc_streams_start(&c->streams);
	}
	if (rc) {
		snprintf(err, errlen, "stream thread: %s", strerror(-rc));
		xc_streams_fini(&c->streams);
		return rc;
	}

	c->fd = xc_sock_listen_own(c->path, SOCK_NONBLOCK, XC_CTLSRV_BACKLOG,
				   c->mode, c->uid, c->gid, &c->id, err,
				   errlen);
	if (c->fd < 0)
		return c->fd;
	rc = xc_ctlsrv_init(&c->srv, c->fd, "control", XC_CTL_MAIN_MS, &ops,
			    err, errlen);
	if (rc == 0) {
		rc = -pthread_create(&c->thread, NULL, loop, c);
		if (rc) {
			snprintf(err, errlen, "control socket '%s': %s",
				 c->path, strerror(-rc));
			xc_ctlsrv_fini(&c->srv);
		}
	}
	if (rc) {
		xc_sock_unlink_own(c->path, &c->id, NULL, 0);
		c->fd = -1;
		stop_streams(c);
	}
	return rc;
}

/**
 * xc_control_stop() - stop the thread and remove the socket
 * @c:		control state, started or not
 */
void xc_control_stop(struct xc_control *c)
{
	char why[XC_ERR_LEN + XC_SOCK_PATH_MAX];

	if (c->fd < 0)
		return;
	__atomic_store_n(&c->quit, true, __ATOMIC_RELEASE);
	xc_ctlsrv_wake(&c->srv);	/* ends its wait */
	pthread_join(c->thread, NULL);
	xc_ctlsrv_fini(&c->srv);
	stop_streams(c);
	/* ours only: another file at the path is left, and logged */
	if (xc_sock_unlink_own(c->path, &c->id, why, sizeof(why)))
		XC_LOG(control, WARNING, "%s", why);
	c->fd = -1;
}

/**
 * xc_control_path() - where the control socket goes: the path given, or
 *		       xcable.ctl in the EAL's runtime directory
 * @c:		control state, its @path set (or its @fd -1 on error)
 * @given:	--control, or NULL
 * @dir:	the EAL's runtime directory
 *
 * Return: 0, or -ENAMETOOLONG
 */
int xc_control_path(struct xc_control *c, const char *given, const char *dir)
{
	int n = snprintf(c->path, sizeof(c->path), "%s%s", given ? given : dir,
			 given ? "" : "/xcable.ctl");

	if (n < 0 || (size_t)n >= sizeof(c->path)) {
		c->fd = -1;
		return -ENAMETOOLONG;
	}
	return 0;
}
