/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * control.c - the runtime control socket that xcablectl talks to
 *
 * Theory of operation: a thread of its own accepts connections on a unix
 * socket (by default xcable.ctl in the EAL runtime directory, created
 * with the same mode, owner and group as the vhost-user sockets), reads
 * one request line, answers with lines of text and a last line "ok" or
 * "error: WHY", and closes. A request only reads counters or publishes
 * an impairment through its seqlock: nothing a client sends can stop or
 * slow a forwarding lcore, and a client that stalls only holds up other
 * clients (each read times out after a second).
 *
 *   list [--json]              cables, link states, counters, impairments
 *   show CABLE [--json]        one cable: each end's features, each
 *                              direction's counters and impairment
 *                              (--json: the document of counters.c)
 *   impair CABLE [to-right|to-left] SPEC   set (SPEC: see --impair, none)
 *   clear CABLE                no impairment either way
 *   down CABLE, up CABLE       pull the cable out, plug it back in (the
 *                              main thread does it; this waits for it)
 *   add NAME KEY=VALUE..., del NAME, reload   cables added and removed
 *                              at runtime (reconf.c, through @change: the
 *                              main thread does it; this waits for it)
 *
 * Cables come and go at runtime: requests look at them holding @lock for
 * reading, and not while they wait for the main thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"
#include "counters.h"
#include "fwd.h"
#include "log.h"
#include "sockpath.h"

RTE_LOG_REGISTER(xc_logtype_control, xcable.control, INFO);

/**
 * say() - append a formatted line to the answer
 * @c:		control state (answer buffer)
 * @fmt:	printf format, without newline
 */
__attribute__((format(printf, 2, 3)))
static void say(struct xc_control *c, const char *fmt, ...)
{
	size_t room = sizeof(c->ans) - c->ans_len;
	va_list ap;
	int n;

	if (room < 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->ans + c->ans_len, room - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	c->ans_len += RTE_MIN((size_t)n, room - 2);
	c->ans[c->ans_len++] = '\n';
	c->ans[c->ans_len] = '\0';
}

/**
 * find() - a cable by name
 * @c:		control state
 * @name:	cable name
 *
 * Return: the cable, or NULL
 */
static struct xc_cable *find(struct xc_control *c, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < c->n_cables; i++)
		if (xc_cable_shown(&c->cables[i]) &&
		    strcmp(c->cables[i].name, name) == 0)
			return &c->cables[i];
	return NULL;
}

/**
 * dir_line() - one direction's counters and impairment on one line
 * @c:		control state
 * @cb:		cable
 * @j:		0: end[0] -> end[1]; 1: the reverse
 */
static void dir_line(struct xc_control *c, const struct xc_cable *cb,
		     unsigned int j)
{
	char imp[256], line[1024];
	struct xc_impair_cfg ic;
	struct xc_dir_stats s;

	xc_cable_stats(cb, j, &s);
	xc_counters_line(&xc_dir_counters, &s, line, sizeof(line));
	xc_impair_get(&cb->dir[j].im, &ic);
	xc_impair_format(&ic, imp, sizeof(imp));
	say(c, "  %s: %s impair %s", cb->dir[j].label, line, imp);
}

/**
 * vxlan_line() - the counters of the tunnel socket, if a cable's end is a
 *		  tunnel
 * @c:		control state
 * @cb:		cable
 */
static void vxlan_line(struct xc_control *c, const struct xc_cable *cb)
{
	const struct xc_vxlan *vx = xc_counters_vxlan(cb, 1, NULL);
	struct xc_vxlan_stats vs;
	char line[1024];

	if (vx == NULL)
		return;
	xc_vxlan_stats(vx, &vs);
	xc_counters_line(&xc_vxlan_counters, &vs, line, sizeof(line));
	say(c, "  vxlan %s: %s", vx->local, line);
}

/**
 * trunk_lines() - the counters of the trunks a cable's ends are on
 * @c:		control state
 * @cb:		cable
 */
static void trunk_lines(struct xc_control *c, const struct xc_cable *cb)
{
	struct xc_trunk_stats ts;
	char line[1024];
	unsigned int j;

	for (j = 0; j < 2; j++) {
		const struct xc_trunk *t = cb->end[j].trunk;

		if (t == NULL || (j == 1 && t == cb->end[0].trunk))
			continue;
		xc_counters_trunk_stats(t, &ts);
		xc_counters_line(&xc_trunk_counters, &ts, line, sizeof(line));
		say(c, "  trunk %s (%s): %s", t->port->label, t->port->name,
		    line);
	}
	vxlan_line(c, cb);
}

/**
 * answer_json() - answer list or show with the JSON document
 * @c:		control state
 * @only:	the cable of show, NULL for list
 *
 * Return: 0, or -ENOMEM with the reason in c->why
 */
static int answer_json(struct xc_control *c, const struct xc_cable *only)
{
	xc_json_free(&c->js);
	xc_counters_doc(c->cables, c->n_cables, only, c->gone, &c->js);
	if (xc_json_finish(&c->js)) {
		xc_json_free(&c->js);
		snprintf(c->why, sizeof(c->why), "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/**
 * end_line() - one end's link, features and socket
 * @c:		control state
 * @e:		end
 */
static void end_line(struct xc_control *c, const struct xc_end *e)
{
	uint64_t caps = xc_end_caps(e);
	char takes[64];

	xc_caps_describe(caps, takes, sizeof(takes));
	say(c, "  %s: %s %s link %s, virtio features 0x%" PRIx64
	    ", takes %s, frames up to %u bytes, %u queue(s)",
	    e->label, e->port ? e->port->name : e->ops->kind, xc_end_where(e),
	    xc_end_is_up(e) ? "up" : "down",
	    e->port ? xc_port_features(e->port) : 0, takes,
	    xc_caps_max_frame(caps), xc_end_queues(e));
}

/**
 * struct xc_ctl_req - one request, split
 * @argv:	its words, "--json" left out
 * @argc:	how many
 * @json:	"--json" was among them
 * @cb:		the cable named by argv[1], for commands about a cable
 */
struct xc_ctl_req {
	char *argv[XC_CTL_WORDS];
	int argc;
	bool json;
	struct xc_cable *cb;
};

/* cmd_list() - list: every cable, its links, counters and trunks */
static int cmd_list(struct xc_control *c, const struct xc_ctl_req *r)
{
	struct xc_cable *cb;
	unsigned int i;

	if (r->json)
		return answer_json(c, NULL);
	for (i = 0; i < c->n_cables; i++) {
		cb = &c->cables[i];
		if (!xc_cable_shown(cb))
			continue;	/* a slot of a cable removed */
		say(c, "%s: %s %s, %s %s", cb->name, cb->end[0].label,
		    xc_end_is_up(&cb->end[0]) ? "up" : "down", cb->end[1].label,
		    xc_end_is_up(&cb->end[1]) ? "up" : "down");
		dir_line(c, cb, 0);
		dir_line(c, cb, 1);
		trunk_lines(c, cb);
	}
	return 0;
}

/* cmd_show() - show CABLE: its ends in detail, counters, trunks */
static int cmd_show(struct xc_control *c, const struct xc_ctl_req *r)
{
	struct xc_cable *cb = r->cb;

	if (r->json)
		return answer_json(c, cb);
	say(c, "%s: %u queue(s)", cb->name, cb->n_queues);
	end_line(c, &cb->end[0]);
	end_line(c, &cb->end[1]);
	dir_line(c, cb, 0);
	dir_line(c, cb, 1);
	trunk_lines(c, cb);
	return 0;
}

/**
 * cmd_pull() - down CABLE, up CABLE: ask the main thread to pull the
 *		cable out or plug it in, and wait for its answer
 * @c:		control state
 * @r:		request
 *
 * Return: 0, or -EINVAL with the reason in c->why
 */
static int cmd_pull(struct xc_control *c, const struct xc_ctl_req *r)
{
	struct xc_cable *cb = r->cb;
	char name[XC_NAME_MAX];
	unsigned int i;
	int done = 0;

	memcpy(name, cb->name, sizeof(name));
	__atomic_store_n(&cb->req_done, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&cb->req, r->argv[0][0] == 'd' ? XC_REQ_DOWN :
			 XC_REQ_UP, __ATOMIC_RELEASE);
	if (c->wake)	/* the main thread carries it out */
		c->wake(c->wake_arg);
	/* the main thread may need the lock meanwhile (SIGHUP) */
	if (c->lock)
		pthread_rwlock_unlock(c->lock);
	for (i = 0; i < 1000 && done == 0; i++) {
		usleep(10000);
		done = __atomic_load_n(&cb->req_done, __ATOMIC_ACQUIRE);
	}
	if (c->lock)
		pthread_rwlock_rdlock(c->lock);
	if (done == 1)
		return 0;
	snprintf(c->why, sizeof(c->why), "%s %s: %s", r->argv[0], name,
		 done == 0 ? "timed out" :
		 done == -ENOTSUP ? "only cables between two vhost ports can be pulled" :
		 "failed, see xcable's log");
	return -EINVAL;
}

/* cmd_clear() - clear CABLE: no impairment either way */
static int cmd_clear(struct xc_control *c, const struct xc_ctl_req *r)
{
	struct xc_impair_cfg ic;
	unsigned int i;

	(void)c;
	xc_impair_parse("none", &ic, NULL, 0);
	for (i = 0; i < 2 * r->cb->n_queues; i++)
		xc_impair_set(&r->cb->dir[i].im, &ic);
	XC_LOG(control, INFO, "%s: impairments cleared", r->cb->name);
	return 0;
}

/**
 * cmd_impair() - impair CABLE [to-right|to-left] SPEC
 * @c:		control state
 * @r:		request
 *
 * Return: 0, or -EINVAL with the reason in c->why
 */
static int cmd_impair(struct xc_control *c, const struct xc_ctl_req *r)
{
	const char *spec = r->argv[r->argc - 1];
	struct xc_impair_cfg ic;
	unsigned int i;
	int j = -1;	/* both */

	if (r->argc == 4 && strcmp(r->argv[2], "to-right") == 0) {
		j = 0;
	} else if (r->argc == 4 && strcmp(r->argv[2], "to-left") == 0) {
		j = 1;
	} else if (r->argc == 4) {
		snprintf(c->why, sizeof(c->why),
			 "direction '%.20s': expected to-right or to-left",
			 r->argv[2]);
		return -EINVAL;
	}
	if (xc_impair_parse(spec, &ic, c->why, sizeof(c->why)))
		return -EINVAL;
	for (i = 0; i < 2 * r->cb->n_queues; i++)
		if (j < 0 || (int)(i % 2) == j)
			xc_impair_set(&r->cb->dir[i].im, &ic);
	XC_LOG(control, INFO, "%s: impairment %s%s set to %s", r->cb->name,
	       j < 0 ? "both ways" : "", j == 0 ? "to-right" :
	       j == 1 ? "to-left" : "", spec);
	return 0;
}

/**
 * cmd_change() - add, del, reload: the main thread changes the set of
 *		  cables (reconf.c); wait for its answer
 * @c:		control state
 * @r:		request
 *
 * Return: 0, or -EINVAL with the reason in c->why
 */
static int cmd_change(struct xc_control *c, const struct xc_ctl_req *r)
{
	if (c->change == NULL) {
		snprintf(c->why, sizeof(c->why), "%s: not available",
			 r->argv[0]);
		return -EINVAL;
	}
	return c->change(c->change_arg, r->argc, r->argv, c->why,
			 sizeof(c->why)) ? -EINVAL : 0;
}

/**
 * struct xc_ctl_cmd - one request xcablectl can make
 * @name:	its first word
 * @min_args:	fewest words, the name included
 * @max_args:	most words
 * @cable:	its second word names a cable
 * @json:	it can answer in JSON
 * @wakes:	it changes what the main thread's housekeeping acts on (an
 *		impairment's pool): wake it once done
 * @run:	carries it out: 0, or -EINVAL with the reason in c->why
 */
struct xc_ctl_cmd {
	const char *name;
	int min_args;
	int max_args;
	bool cable;
	bool json;
	bool wakes;
	int (*run)(struct xc_control *c, const struct xc_ctl_req *r);
};

static const struct xc_ctl_cmd xc_ctl_cmds[] = {
	{ "list",   1, 1, false, true,  false, cmd_list },
	{ "show",   2, 2, true,  true,  false, cmd_show },
	{ "impair", 3, 4, true,  false, true,  cmd_impair },
	{ "clear",  2, 2, true,  false, true,  cmd_clear },
	{ "down",   2, 2, true,  false, false, cmd_pull },	/* wakes itself */
	{ "up",     2, 2, true,  false, false, cmd_pull },
	{ "add",    2, XC_CTL_WORDS, false, false, false, cmd_change },
	{ "del",    2, 2, false, false, false, cmd_change },
	{ "reload", 1, 1, false, false, false, cmd_change },
};

/**
 * usage() - say what the requests are
 * @c:		control state
 * @word:	the request's first word
 *
 * Return: -EINVAL, the reason in c->why
 */
static int usage(struct xc_control *c, const char *word)
{
	snprintf(c->why, sizeof(c->why),
		 "bad request '%.40s' (list [--json], show CABLE [--json], impair CABLE [to-right|to-left] SPEC, clear CABLE, down CABLE, up CABLE, add NAME left=SOCKET right=SOCKET [KEY=VALUE]..., del NAME, reload)",
		 word);
	return -EINVAL;
}

/**
 * run_locked() - find the cable a request names and carry it out, with
 *		  the cables held still
 * @c:		control state
 * @cmd:	the command, NULL if unknown
 * @r:		request
 *
 * Return: 0, or -EINVAL with the reason in c->why
 */
static int run_locked(struct xc_control *c, const struct xc_ctl_cmd *cmd,
		      struct xc_ctl_req *r)
{
	if (cmd && cmd->cable && r->argc < 2) {
		snprintf(c->why, sizeof(c->why), "%s: which cable?", r->argv[0]);
		return -EINVAL;
	}
	if (cmd && cmd->cable && (r->cb = find(c, r->argv[1])) == NULL) {
		snprintf(c->why, sizeof(c->why), "no cable '%.40s'", r->argv[1]);
		return -EINVAL;
	}
	if (cmd && r->argc >= cmd->min_args && r->argc <= cmd->max_args)
		return cmd->run(c, r);
	return usage(c, r->argv[0]);
}

/**
 * handle() - carry out one request
 * @c:		control state
 * @req:	the request line, split in place
 *
 * Return: 0, or -EINVAL with the reason in c->why
 */
static int handle(struct xc_control *c, char *req)
{
	const struct xc_ctl_cmd *cmd = NULL;
	struct xc_ctl_req r = { .argc = 0 };
	char *save = NULL, *t;
	unsigned int i;
	int rc;

	for (t = strtok_r(req, " \t\r\n", &save); t && r.argc < XC_CTL_WORDS;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (strcmp(t, "--json") == 0)
			r.json = true;	/* list and show answer in JSON */
		else
			r.argv[r.argc++] = t;
	}
	if (r.argc == 0) {
		snprintf(c->why, sizeof(c->why), "empty request");
		return -EINVAL;
	}
	for (i = 0; i < RTE_DIM(xc_ctl_cmds) && cmd == NULL; i++)
		if (strcmp(r.argv[0], xc_ctl_cmds[i].name) == 0)
			cmd = &xc_ctl_cmds[i];
	if (r.json && (cmd == NULL || !cmd->json)) {
		snprintf(c->why, sizeof(c->why),
			 "--json: only list and show answer in JSON");
		return -EINVAL;
	}
	if (cmd && cmd->run == cmd_change)	/* waits, without the lock */
		return r.argc >= cmd->min_args && r.argc <= cmd->max_args ?
		       cmd_change(c, &r) : usage(c, r.argv[0]);
	if (c->lock)
		pthread_rwlock_rdlock(c->lock);
	rc = run_locked(c, cmd, &r);
	if (c->lock)
		pthread_rwlock_unlock(c->lock);
	if (rc == 0 && cmd->wakes && c->wake)
		c->wake(c->wake_arg);
	return rc;
}

/**
 * serve() - answer one client
 * @c:		control state
 * @fd:		its connection
 */
static void serve(struct xc_control *c, int fd)
{
	char req[1024];
	int rc = xc_sock_read_request(fd, req, sizeof(req));

	c->ans_len = 0;
	c->ans[0] = '\0';
	if (rc) {
		say(c, "error: request too long");
	} else if (handle(c, req) == 0) {
		say(c, "ok");
		if (c->js.buf && send(fd, c->js.buf, c->js.len,
				      MSG_NOSIGNAL) < 0)
			XC_LOG(control, DEBUG, "answer not sent: %s",
			       strerror(errno));
		xc_json_free(&c->js);
	} else {
		c->ans_len = 0;
		say(c, "error: %s", c->why);
	}
	if (send(fd, c->ans, c->ans_len, MSG_NOSIGNAL) < 0)
		XC_LOG(control, DEBUG, "answer not sent: %s", strerror(errno));
}

/**
 * loop() - the control thread: accept, serve, until closed
 * @arg:	control state
 *
 * Return: NULL
 */
static void *loop(void *arg)
{
	struct xc_control *c = arg;
	int fd;

	while (!__atomic_load_n(&c->quit, __ATOMIC_ACQUIRE)) {
		fd = accept4(c->fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			break;
		}
		serve(c, fd);
		close(fd);
	}
	return NULL;
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
	int rc;

	c->fd = xc_sock_listen(c->path, 0, 8, c->mode, c->uid, c->gid, err,
			       errlen);
	if (c->fd < 0)
		return c->fd;
	rc = pthread_create(&c->thread, NULL, loop, c);
	if (rc) {
		snprintf(err, errlen, "control socket '%s': %s", c->path,
			 strerror(rc));
		close(c->fd);
		unlink(c->path);
		c->fd = -1;
		return -rc;
	}
	return 0;
}

/**
 * xc_control_stop() - stop the thread and remove the socket
 * @c:		control state, started or not
 */
void xc_control_stop(struct xc_control *c)
{
	if (c->fd < 0)
		return;
	__atomic_store_n(&c->quit, true, __ATOMIC_RELEASE);
	shutdown(c->fd, SHUT_RDWR);	/* ends a blocked accept() */
	pthread_join(c->thread, NULL);
	close(c->fd);
	unlink(c->path);
	c->fd = -1;
}
