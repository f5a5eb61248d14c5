/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supervise.c - one xcable for more cables than one EAL process holds
 *
 * Theory of operation: Debian's DPDK gives a process RTE_MAX_ETHPORTS (32)
 * ethdevs, and every vhost end is one. When a config's cables need more
 * (xc_simple_over_ports()), `xcable --config lab.ini` becomes a supervisor
 * instead of an EAL process: it has read and checked the whole config (a
 * usage error still exits 2 before anything starts), places the cables
 * on workers (supplace.c), writes each worker's config into its run
 * directory and starts one worker per share (supworker.c), each an
 * ordinary xcable with its own EAL prefix, lcores and control socket.
 *
 * The supervisor is one thread around poll(): a signalfd (SIGCHLD,
 * SIGTERM, SIGINT, SIGHUP) and its control socket's engine (supctl.c,
 * ctlsrv.c). A worker
 * that exits unexpectedly is logged with its exit status and started
 * again after a backoff (200 ms, doubling to 10 s while it keeps dying
 * within 10 s of its start); the other workers' cables are not touched.
 * SIGTERM or SIGINT stops every worker (SIGTERM, then SIGKILL for those
 * still there after XC_SUP_STOP_MS), removes the run directory, sockets
 * and files, and exits 0. Workers get PR_SET_PDEATHSIG, so a supervisor
 * killed outright takes them with it.
 *
 * Changes go through the supervisor: add picks a worker with room (or
 * starts one) and forwards the request to it; del forwards to the cable's
 * worker; reload (and SIGHUP) reads the config again, keeps every cable
 * that stays in its worker, places new ones, rewrites the config of each
 * worker whose share changed and has it reload, which applies only the
 * difference (reconf.c). Each worker's config always says what it runs,
 * so a restarted worker brings back its cables, added ones included.
 *
 * Lcores: every worker gets the same ones (the main lcore on the first
 * CPU this process may use, one forwarding lcore on the last, or those
 * the user gave with -l): forwarding lcores sleep when idle (unless
 * --poll), so workers share cores without costing each other when idle.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cfgfile.h>
#include <rte_common.h>

#include "config.h"
#include "counters.h"
#include "log.h"
#include "logrl.h"
#include "notify.h"
#include "sockpath.h"
#include "sockrec.h"
#include "supervise.h"

#define XC_SUP_STOP_MS		5000	/* SIGTERM to SIGKILL */
#define XC_SUP_BACKOFF_MS	200	/* first wait before a restart */
#define XC_SUP_BACKOFF_MAX_MS	10000
#define XC_SUP_STABLE_MS	10000	/* up this long: backoff starts over */

RTE_LOG_REGISTER(xc_logtype_super, xcable.super, INFO);

/**
 * section_text() - a section's lines, "key = value\n" each
 * @cfg:	the file
 * @sec:	the section
 *
 * Return: malloc'd text, or NULL
 */
static char *section_text(struct rte_cfgfile *cfg, const char *sec)
{
	struct rte_cfgfile_entry *e = calloc(64, sizeof(*e));
	struct xc_sbuf t = { 0 };
	int n, i;

	if (e == NULL)
		return NULL;
	n = rte_cfgfile_section_entries(cfg, sec, e, 64);
	for (i = 0; i < n; i++)
		xc_sbuf_printf(&t, "%s = %s\n", e[i].name, e[i].value);
	free(e);
	if (t.failed) {
		xc_sbuf_free(&t);
		return NULL;
	}
	return t.b ? t.b : strdup("");
}

/**
 * read_text() - the lines of the config's sections, to write the workers'
 *		 configs with (the file was checked by config.c already)
 * @file:	the config
 * @o:		its options, with the [port NAME] sections
 * @global:	set to [global]'s lines
 * @ports:	set to each [port NAME]'s lines
 * @c:		cables: each one's text is set
 * @n:		how many
 *
 * Return: 0, or -ENOMEM / -EINVAL (the file changed meanwhile)
 */
static int read_text(const char *file, const struct xc_opts *o, char **global,
		     char **ports, struct xc_sup_cable *c, unsigned int n)
{
	char sec[CFG_NAME_LEN + 8];
	struct rte_cfgfile *cfg = rte_cfgfile_load(file, 0);
	unsigned int i;
	int rc = 0;

	if (cfg == NULL)
		return -EINVAL;
	*global = section_text(cfg, "global");
	rc |= *global == NULL;
	for (i = 0; i < o->n_port_defs; i++) {
		snprintf(sec, sizeof(sec), "port %s", o->port_defs[i].name);
		ports[i] = section_text(cfg, sec);
		rc |= ports[i] == NULL;
	}
	for (i = 0; i < n; i++) {
		snprintf(sec, sizeof(sec), "cable %s", c[i].def.name);
		c[i].text = section_text(cfg, sec);
		rc |= c[i].text == NULL;
	}
	rte_cfgfile_close(cfg);
	return rc ? -ENOMEM : 0;
}

/**
 * split_args() - the EAL options and xcable options the workers are given:
 *		  the user's, without what each worker has of its own
 * @s:		supervisor; eal_argv, app_argv and prefix are set
 * @argc:	argument count
 * @argv:	argument vector
 *
 * Return: 0, or -E2BIG
 */
static int split_args(struct xc_sup *s, int argc, char **argv)
{
	const struct xc_opt_desc *d;
	struct xc_argsplit sp;
	char err[XC_ERR_LEN];
	int i;

	if (xc_args_split(argc, argv, &sp, err, sizeof(err)))
		return -EINVAL;	/* xc_cmdline_parse() let it through */
	snprintf(s->prefix, sizeof(s->prefix), "xcable-%d", (int)getpid());
	for (i = 1; i < sp.eal_argc; i++) {
		if (strncmp(argv[i], "--file-prefix=", 14) == 0) {
			snprintf(s->prefix, sizeof(s->prefix), "%s", argv[i] + 14);
			continue;
		}
		if (strcmp(argv[i], "--file-prefix") == 0 && i + 1 < sp.eal_argc) {
			snprintf(s->prefix, sizeof(s->prefix), "%s", argv[++i]);
			continue;
		}
		if (s->eal_argc == XC_SUP_MAX_ARGS)
			return -E2BIG;
		s->eal_argv[s->eal_argc++] = argv[i];
	}
	for (i = 0; i < sp.app_argc; i++) {
		const char *a = sp.app_argv[i];

		d = xc_opt_find(a);
		if (d && (strcmp(d->name, "config") == 0 ||
			  strcmp(d->name, "control") == 0 ||
			  strcmp(d->name, "stats-json") == 0 ||
			  strcmp(d->name, "metrics-file") == 0)) {
			if (xc_opt_takes_value(d) && !strchr(a, '='))
				i++;
			continue;
		}
		if (s->app_argc == XC_SUP_MAX_ARGS)
			return -E2BIG;
		s->app_argv[s->app_argc++] = sp.app_argv[i];
	}
	return 0;
}

/**
 * make_dir() - create the run directory (and its parents, mode 0700)
 * @s:		supervisor, prefix set; dir is set
 *
 * Return: 0, or -errno
 */
static int make_dir(struct xc_sup *s)
{
	char *p;

	xc_sup_rundir(s->prefix, s->dir, sizeof(s->dir));
	for (p = strchr(s->dir + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(s->dir, 0700) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(s->dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/**
 * status_text() - how a process ended, in words
 * @st:		its wait status
 * @buf:	filled
 * @len:	size of @buf
 *
 * Return: @buf
 */
static const char *status_text(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "ended (wait status 0x%x)", st);
	return buf;
}

/**
 * worker_event() - an event of the supervisor's own: a worker exited,
 *		    restarted or stopped
 * @k:		the worker
 * @state:	"exited", "restarted", "stopped"
 * @why:	how it ended, or NULL
 * @fmt:	the detail, printf-style
 */
__attribute__((format(printf, 4, 5)))
static void worker_event(unsigned int k, const char *state, const char *why,
			 const char *fmt, ...)
{
	char detail[XC_EV_DETAIL];
	struct xc_ev e = {
		.event = "worker", .state = state, .why = why,
		.detail = detail, .worker = (int)k,
	};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	xc_ev_post(&e);
}

/**
 * worker_exited() - a worker process ended: free its slot if it was asked
 *		     to stop, else plan its restart
 * @s:		supervisor
 * @k:		its slot
 * @st:		its wait status
 */
static void worker_exited(struct xc_sup *s, unsigned int k, int st)
{
	struct xc_worker *w = &s->w[k];
	uint64_t now = xc_sup_now_ms();
	char how[96];

	status_text(st, how, sizeof(how));
	if (w->state == XC_W_STOPPING || s->quit) {
		XC_LOG(super, INFO, "worker %u (pid %d) %s", k, (int)w->pid, how);
		worker_event(k, "stopped", how, "pid %d", (int)w->pid);
		xc_worker_cleanup(s, k, true);
		return;
	}
	if (now - w->started_ms >= XC_SUP_STABLE_MS || w->backoff_ms == 0)
		w->backoff_ms = XC_SUP_BACKOFF_MS;
	else
		w->backoff_ms = RTE_MIN(2 * w->backoff_ms,
					(unsigned int)XC_SUP_BACKOFF_MAX_MS);
	XC_LOG(super, WARNING, "worker %u (pid %d, %u cable(s)) %s: restarting it in %u ms",
	       k, (int)w->pid, xc_worker_cables(s, k), how, w->backoff_ms);
	worker_event(k, "exited", how, "pid %d, %u cable(s): restarting it in %u ms",
		     (int)w->pid, xc_worker_cables(s, k), w->backoff_ms);
	xc_worker_cleanup(s, k, false);
	w->state = XC_W_WAITING;
	w->restart_ms = now + w->backoff_ms;
}

/**
 * reap() - collect every worker that ended
 * @s:		supervisor
 */
static void reap(struct xc_sup *s)
{
	unsigned int k;
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (k = 0; k < s->n_w; k++) {
			if (s->w[k].pid == pid && s->w[k].state != XC_W_FREE) {
				worker_exited(s, k, st);
				break;
			}
		}
	}
}

/**
 * xc_sup_stopping() - is a worker told to stop still there? What it
 *		       holds (a UDP port, a device, an interface) is not free
 *		       yet, so a change waits until it is gone
 * @s:		supervisor
 *
 * Return: true if so
 */
bool xc_sup_stopping(const struct xc_sup *s)
{
	unsigned int k;

	for (k = 0; k < s->n_w; k++)
		if (s->w[k].state == XC_W_STOPPING && s->w[k].pid > 0)
			return true;
	return false;
}

/**
 * kill_late() - SIGKILL a worker told to stop that is still there after
 *		 XC_SUP_STOP_MS, and say so (reaped as any that exits)
 * @s:		supervisor
 * @k:		its slot
 */
static void kill_late(struct xc_sup *s, unsigned int k)
{
	XC_LOG(super, WARNING, "worker %u (pid %d) did not stop within %d ms: SIGKILL",
	       k, (int)s->w[k].pid, XC_SUP_STOP_MS);
	kill(s->w[k].pid, SIGKILL);
}

/**
 * restart_due() - start again the workers whose backoff is over, and
 *		   SIGKILL those told to stop that are still there after
 *		   XC_SUP_STOP_MS (reaped as any that exits)
 * @s:		supervisor
 *
 * Return: ms until the next one is due, -1 if none waits
 */
static int restart_due(struct xc_sup *s)
{
	uint64_t now = xc_sup_now_ms(), next = UINT64_MAX;
	unsigned int k;

	for (k = 0; k < s->n_w; k++) {
		struct xc_worker *w = &s->w[k];

		if (w->state == XC_W_STOPPING && w->pid > 0) {
			if (now < w->stop_ms + XC_SUP_STOP_MS) {
				next = RTE_MIN(next, w->stop_ms + XC_SUP_STOP_MS);
				continue;
			}
			kill_late(s, k);
			w->stop_ms = UINT64_MAX - XC_SUP_STOP_MS;	/* once */
			continue;
		}
		if (w->state != XC_W_WAITING)
			continue;
		if (w->restart_ms > now) {
			next = RTE_MIN(next, w->restart_ms);
			continue;
		}
		w->restarts++;
		if (xc_worker_start(s, k)) {
			w->restart_ms = now + XC_SUP_BACKOFF_MAX_MS;
			next = RTE_MIN(next, w->restart_ms);
		} else {
			worker_event(k, "restarted", NULL,
				     "pid %d, restart %u, %u cable(s)",
				     (int)w->pid, w->restarts,
				     xc_worker_cables(s, k));
		}
	}
	return next == UINT64_MAX ? -1 : (int)(next - now);
}

/**
 * start_new() - write the config of each worker made by xc_sup_place()
 *		 (state XC_W_WAITING, pid 0, never started) and start it,
 *		 without waiting for it
 * @s:		supervisor
 * @fresh:	set for each worker started, or NULL
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or -errno: a worker could not be started
 */
static int start_new(struct xc_sup *s, bool *fresh, char *why, size_t whylen)
{
	unsigned int k;
	int rc;

	for (k = 0; k < s->n_w; k++) {
		struct xc_worker *w = &s->w[k];

		if (w->state != XC_W_WAITING || w->pid || w->restart_ms)
			continue;
		xc_worker_paths(s, k);
		rc = xc_worker_write(s, k);
		if (rc == 0)
			rc = xc_worker_start(s, k);
		if (rc) {
			snprintf(why, whylen, "worker %u cannot be started: %s",
				 k, strerror(-rc));
			return rc;
		}
		if (fresh)
			fresh[k] = true;
	}
	return 0;
}

/**
 * drop_cable() - forget cable @i of the lab
 * @s:		supervisor
 * @i:		its index
 */
static void drop_cable(struct xc_sup *s, unsigned int i)
{
	free(s->cables[i].text);
	memmove(&s->cables[i], &s->cables[i + 1],
		(s->n_cables - i - 1) * sizeof(s->cables[0]));
	s->n_cables--;
}

/**
 * ready_ends() - make the host ready for a new cable's ends, as at
 *		  start-up (each kind's ready(): a stale socket is removed,
 *		  one in use refused), but for the ends the lab's cables
 *		  already hold (their workers hold them)
 * @nc:		the new cable
 * @old:	the lab's cables
 * @n_old:	how many
 * @o:		options (a kind's defaults)
 * @why:	the reason of a failure, "cable NAME: ..."
 * @whylen:	size of @why
 *
 * Return: 0, or -errno
 */
static int ready_ends(const struct xc_sup_cable *nc,
		      const struct xc_sup_cable *old, unsigned int n_old,
		      const struct xc_opts *o, char *why, size_t whylen)
{
	char err[XC_ERR_LEN];
	unsigned int j, k, m;
	int rc;

	for (j = 0; j < 2; j++) {
		const struct xc_end_def *e = &nc->def.end[j];
		const struct xc_kind_def *kd = xc_kind_def_of(e);
		bool held = false;

		if (kd == NULL || kd->ready == NULL)
			continue;
		for (k = 0; k < n_old && !held; k++)
			for (m = 0; m < 2; m++)
				held |= xc_end_def_clash(&old[k].def.end[m], e,
							 o);
		if (held)
			continue;
		rc = kd->ready(e, err, sizeof(err));
		if (rc) {
			snprintf(why, whylen, "cable %s: %.*s", nc->def.name,
				 (int)(whylen > XC_NAME_MAX + 8 ?
				       whylen - XC_NAME_MAX - 8 : 0), err);
			return rc;
		}
	}
	return 0;
}

/**
 * ask() - have worker @k make its part of the change being made
 * @s:		supervisor
 * @k:		the worker, ready
 * @req:	the request, one line
 */
static void ask(struct xc_sup *s, unsigned int k, const char *req)
{
	s->chg.asking[k] = true;
	xc_ask_start(&s->chg.ask[k], &s->w[k], req, XC_SUP_CHANGE_S * 1000);
}

/**
 * pass_on() - keep what a worker answered to the change, but its last
 *	       line (its "ok" or "error:"), for xcablectl (s->said): the
 *	       last counters of the cables it removed or replaced
 * @s:		supervisor
 * @ans:	the worker's whole answer
 */
static void pass_on(struct xc_sup *s, const struct xc_sbuf *ans)
{
	const char *a = xc_sbuf_str(ans), *last;
	size_t n = strlen(a);

	while (n && a[n - 1] == '\n')
		n--;
	last = memrchr(a, '\n', n);
	if (last)
		xc_sbuf_put(&s->said, a, (size_t)(last - a) + 1);
}

/**
 * fail() - a failure of the change being made: the first one is what
 *	    xcablectl is told
 * @c:		the change
 * @rc:		-errno
 * @why:	the reason
 */
static void fail(struct xc_sup_change *c, int rc, const char *why)
{
	if (c->rc)
		return;
	c->rc = rc;
	snprintf(c->why, sizeof(c->why), "%.*s", (int)sizeof(c->why) - 1, why);
}

/**
 * xc_sup_find() - a cable of the lab by name
 * @s:		supervisor
 * @name:	its name, or NULL
 *
 * Return: its index, or -1
 */
int xc_sup_find(const struct xc_sup *s, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < s->n_cables; i++)
		if (strcmp(s->cables[i].def.name, name) == 0)
			return (int)i;
	return -1;
}

/**
 * begin_add() - add NAME KEY=VALUE...: a worker with room runs it (or a
 *		 new worker): checked and placed at once, then asked of the
 *		 worker (or the worker started)
 * @s:		supervisor
 * @argc:	words, "add" first
 * @argv:	the words
 *
 * Return: 1 under way, or -errno (s->chg.why) with nothing changed
 */
static int begin_add(struct xc_sup *s, int argc, char **argv)
{
	struct xc_sup_change *ch = &s->chg;
	struct xc_cable_def *all = NULL;
	struct xc_sup_cable *c;
	struct xc_sbuf t = { 0 }, req = { 0 };
	char *why = ch->why;
	size_t whylen = sizeof(ch->why);
	unsigned int i, k;
	int rc, a;

	if (s->n_cables == XC_SUP_MAX_CABLES) {
		snprintf(why, whylen, "add: too many cables (at most %d)",
			 XC_SUP_MAX_CABLES);
		return -ENOSPC;
	}
	c = &s->cables[s->n_cables];
	memset(c, 0, sizeof(*c));
	c->worker = -1;
	rc = xc_config_cable(argc - 1, argv + 1, &s->cl->opts, &c->def, why,
			     whylen);
	if (rc)
		return rc;
	all = calloc(s->n_cables + 1, sizeof(*all));
	if (all == NULL) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i <= s->n_cables; i++)
		all[i] = s->cables[i].def;
	rc = xc_config_check(&s->cl->opts, all, s->n_cables + 1, why, whylen);
	free(all);
	if (rc == 0)
		rc = ready_ends(c, s->cables, s->n_cables, &s->cl->opts, why,
				whylen);
	if (rc)
		return rc;
	xc_sbuf_printf(&req, "add %s", argv[1]);
	for (a = 2; a < argc; a++) {
		const char *eq = strchr(argv[a], '=');

		xc_sbuf_printf(&t, "%.*s = %s\n", (int)(eq - argv[a]), argv[a],
			       eq + 1);
		xc_sbuf_printf(&req, " %s", argv[a]);
	}
	if (t.failed || req.failed) {
		snprintf(why, whylen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	c->text = t.b ? t.b : strdup("");
	t.b = NULL;
	s->n_cables++;
	snprintf(ch->name, sizeof(ch->name), "%s", c->def.name);
	rc = xc_sup_place(s->cables, s->n_cables, s->w, &s->n_w, why, whylen);
	if (rc)
		goto undo;
	k = ch->worker = (unsigned int)c->worker;
	if (s->w[k].pid == 0 && s->w[k].state == XC_W_WAITING &&
	    s->w[k].restart_ms == 0) {
		rc = start_new(s, ch->fresh, why, whylen);
		if (rc)
			goto undo;
		ch->starting = true;
		ch->ready_ms = xc_sup_now_ms() + XC_SUP_READY_S * 1000;
		snprintf(why, whylen, "%s: added, in new worker %u",
			 c->def.name, k);
		rc = 1;
		goto out;
	}
	if (!xc_worker_ready(&s->w[k])) {
		snprintf(why, whylen, "%s: its worker %u is restarting: try again",
			 c->def.name, k);
		rc = -EAGAIN;
		goto undo;
	}
	ask(s, k, xc_sbuf_str(&req));
	rc = 1;
	goto out;
undo:
	a = xc_sup_find(s, ch->name);
	if (a >= 0)
		drop_cable(s, (unsigned int)a);
out:
	xc_sbuf_free(&t);
	xc_sbuf_free(&req);
	return rc;
}

/**
 * answered() - what the worker of an add or del answered: passed on; a
 *		failure is the change's
 * @s:		supervisor
 *
 * Return: 1 if it answered ok, 0 if it was not asked, else -errno
 */
static int answered(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	unsigned int k = c->worker;

	if (!c->asking[k])
		return 0;
	pass_on(s, &c->ask[k].ans);
	if (c->ask[k].rc == 0)
		return 1;
	xc_ask_why(&c->ask[k], k, c->why, sizeof(c->why));
	return c->rc = c->ask[k].rc;
}

/**
 * end_add() - the worker answered add, or the new worker answers (or
 *	       failed): on a failure the cable is forgotten again
 * @s:		supervisor
 */
static void end_add(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	unsigned int k = c->worker;
	int i;

	if (answered(s) == 1) {
		xc_worker_write(s, k);
		snprintf(c->why, sizeof(c->why), "%s: added, in worker %u",
			 c->name, k);
	}
	if (c->rc == 0)
		return;
	i = xc_sup_find(s, c->name);
	if (i >= 0)
		drop_cable(s, (unsigned int)i);
	if (xc_worker_cables(s, k) == 0)	/* a new worker that failed */
		xc_worker_stop(s, k);
}

/**
 * begin_del() - del NAME: asked of its worker (a worker waiting for its
 *		 restart comes back without it, at once)
 * @s:		supervisor
 * @name:	the cable
 *
 * Return: 1 under way, 0 done, or -errno (s->chg.why) with nothing changed
 */
static int begin_del(struct xc_sup *s, const char *name)
{
	struct xc_sup_change *c = &s->chg;
	char req[XC_NAME_MAX + 8];
	int i = xc_sup_find(s, name);
	unsigned int k;

	if (i < 0) {
		snprintf(c->why, sizeof(c->why), "no cable '%.40s'", name);
		return -ENOENT;
	}
	k = c->worker = (unsigned int)s->cables[i].worker;
	snprintf(c->name, sizeof(c->name), "%s", name);
	if (xc_worker_ready(&s->w[k])) {
		snprintf(req, sizeof(req), "del %s", name);
		ask(s, k, req);
		return 1;
	}
	if (s->w[k].state != XC_W_WAITING) {
		snprintf(c->why, sizeof(c->why), "%s: its worker %u is starting: try again",
			 name, k);
		return -EAGAIN;
	}
	return 0;	/* end_del() */
}

/**
 * end_del() - the worker removed the cable (or was waiting for its
 *	       restart): the lab forgets it; a worker left with no cable is
 *	       stopped
 * @s:		supervisor
 */
static void end_del(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	unsigned int k = c->worker;
	int i;

	if (answered(s) < 0)
		return;
	i = xc_sup_find(s, c->name);
	if (i >= 0)
		drop_cable(s, (unsigned int)i);
	snprintf(c->why, sizeof(c->why), "%s: removed from worker %u", c->name,
		 k);
	if (xc_worker_cables(s, k) == 0)
		xc_worker_stop(s, k);
	else
		xc_worker_write(s, k);
}

/**
 * free_cables() - free the texts of a set of cables
 * @c:		cables
 * @n:		how many
 */
static void free_cables(struct xc_sup_cable *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		free(c[i].text);
}

/**
 * reload_workers() - after a reload changed the lab: have each worker
 *		      whose config text changed read it again (asked, all at
 *		      once), start new workers; those left with no cable are
 *		      stopped once the reload holds (end_reload())
 * @s:		supervisor, with the new cables
 * @old:	each worker's config text before
 *
 * A new worker that cannot be started is the reload's failure.
 */
static void reload_workers(struct xc_sup *s, struct xc_sbuf *old)
{
	struct xc_sup_change *c = &s->chg;
	char why[XC_ERR_LEN];
	struct xc_sbuf now;
	unsigned int k;
	int rc;

	for (k = 0; k < s->n_w; k++) {
		struct xc_worker *w = &s->w[k];

		if (w->state == XC_W_FREE || w->state == XC_W_STOPPING ||
		    (w->state == XC_W_WAITING && w->pid == 0 && !w->restart_ms))
			continue;	/* new ones: start_new() */
		if (xc_worker_cables(s, k) == 0) {
			c->emptied[k] = true;	/* stopped once it holds */
			continue;
		}
		memset(&now, 0, sizeof(now));
		xc_worker_text(s, k, &now);
		if (old[k].b && strcmp(xc_sbuf_str(&now), old[k].b) == 0) {
			xc_sbuf_free(&now);
			continue;	/* untouched */
		}
		xc_sbuf_free(&now);
		xc_worker_write(s, k);
		if (xc_worker_ready(w))
			ask(s, k, "reload");
		/* else restarting: it reads the new file */
	}
	rc = start_new(s, c->fresh, why, sizeof(why));
	if (rc)
		fail(c, rc, why);
	for (k = 0; k < s->n_w; k++)
		if (c->fresh[k]) {
			c->starting = true;
			c->ready_ms = xc_sup_now_ms() + XC_SUP_READY_S * 1000;
		}
}

/**
 * begin_reload() - read the config again and apply the difference: cables
 *		    it no longer has go, new ones go to a worker with room
 *		    (or a new one), changed ones are changed by their
 *		    worker, the others are not touched. The lab is the new
 *		    one at once; the workers whose share changed are asked
 *		    to read their config again, all at once, and new workers
 *		    are started
 * @s:		supervisor
 *
 * Return: 1 under way, 0 done (s->chg.rc says how), or -errno
 *	   (s->chg.why): a config with an error changes nothing
 */
static int begin_reload(struct xc_sup *s)
{
	struct xc_sbuf old[XC_SUP_MAX_WORKERS] = { 0 };
	struct xc_sup_change *ch = &s->chg;
	struct xc_sup_cable *nc = NULL;
	struct xc_cable_def *defs = NULL;
	char *global = NULL, *ports[XC_MAX_PORT_DEFS] = { NULL };
	char *why = ch->why;
	size_t whylen = sizeof(ch->why);
	unsigned int n = 0, i, k;
	struct xc_opts *o = NULL;
	int rc = -ENOMEM;

	o = malloc(sizeof(*o));
	defs = calloc(XC_SUP_MAX_CABLES, sizeof(*defs));
	nc = calloc(XC_SUP_MAX_CABLES, sizeof(*nc));
	if (o == NULL || defs == NULL || nc == NULL) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	*o = s->cl->opts;
	rc = xc_config_load(s->cl->opts.config, o, defs, XC_SUP_MAX_CABLES,
			    &n, why, whylen);
	if (rc)
		goto out;
	if (o->n_port_defs != s->cl->opts.n_port_defs ||
	    memcmp(o->port_defs, s->cl->opts.port_defs,
		   sizeof(o->port_defs))) {
		snprintf(why, whylen, "%s: the [port NAME] sections changed: ports are set at start, restart xcable",
			 s->cl->opts.config);
		rc = -EINVAL;
		goto out;
	}
	for (i = 0; i < n; i++) {
		nc[i].def = defs[i];
		nc[i].worker = -1;
		for (k = 0; k < s->n_cables; k++)
			if (strcmp(s->cables[k].def.name, defs[i].name) == 0)
				nc[i].worker = s->cables[k].worker;
		ch->n_new += nc[i].worker < 0;
	}
	rc = read_text(s->cl->opts.config, o, &global, ports, nc, n);
	if (rc) {
		snprintf(why, whylen, "%s: cannot read it again", s->cl->opts.config);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (nc[i].worker < 0 &&
		    (rc = ready_ends(&nc[i], s->cables, s->n_cables,
				     &s->cl->opts, why, whylen)))
			goto out;
	}
	for (k = 0; k < s->n_w; k++)
		if (s->w[k].state != XC_W_FREE)
			xc_worker_text(s, k, &old[k]);
	rc = xc_sup_place(nc, n, s->w, &s->n_w, why, whylen);
	if (rc)
		goto out;
	/* the new lab replaces the old one, which is kept until every
	 * worker did its part: if one fails, the others go back to it */
	ch->was = malloc(s->n_cables * sizeof(*ch->was) + 1);
	if (ch->was == NULL) {
		snprintf(why, whylen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	for (k = 0; k < s->n_cables; k++) {
		for (i = 0; i < n && strcmp(s->cables[k].def.name, nc[i].def.name); i++)
			;
		ch->n_gone += i == n;
	}
	memcpy(ch->was, s->cables, s->n_cables * sizeof(*ch->was));
	ch->n_was = s->n_cables;
	ch->was_global = s->global;
	memcpy(s->cables, nc, n * sizeof(*nc));
	s->n_cables = n;
	n = 0;
	s->global = global;
	global = NULL;
	reload_workers(s, old);
	for (k = 0, rc = 0; k < XC_SUP_MAX_WORKERS && rc == 0; k++)
		rc = ch->asking[k] || ch->fresh[k];
out:
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		xc_sbuf_free(&old[k]);
	free_cables(nc, n);
	free(global);
	for (k = 0; k < XC_MAX_PORT_DEFS; k++)
		free(ports[k]);
	free(nc);
	free(defs);
	free(o);
	return rc;
}

/**
 * forget_was() - the lab before the reload is no longer needed
 * @c:		the change
 */
static void forget_was(struct xc_sup_change *c)
{
	free_cables(c->was, c->n_was);
	free(c->was);
	free(c->was_global);
	c->was = NULL;
	c->was_global = NULL;
	c->n_was = 0;
}

/**
 * go_back() - a worker failed its part of the reload: the lab is the one
 *	       before it again, each worker's config file says so, the
 *	       workers asked are asked to read it again (a worker that did
 *	       its part undoes it; one that refused has nothing to do), and
 *	       the workers started for the reload are stopped
 * @s:		supervisor
 *
 * Return: true if workers are asked (end_reload() once they answered)
 */
static bool go_back(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	bool asked = false;
	unsigned int k;

	free_cables(s->cables, s->n_cables);
	memcpy(s->cables, c->was, c->n_was * sizeof(*c->was));
	s->n_cables = c->n_was;
	free(s->global);
	s->global = c->was_global;
	free(c->was);
	c->was = NULL;
	c->was_global = NULL;
	c->n_was = 0;
	c->back = true;
	c->starting = false;
	for (k = 0; k < s->n_w; k++) {
		struct xc_worker *w = &s->w[k];

		c->fresh[k] = false;
		if (w->state == XC_W_FREE || w->state == XC_W_STOPPING)
			continue;
		if (xc_worker_cables(s, k) == 0) {	/* new, for the reload */
			xc_worker_stop(s, k);
			continue;
		}
		xc_worker_write(s, k);
		if (!c->asking[k])
			continue;
		xc_ask_end(&c->ask[k]);
		if (xc_worker_ready(w)) {
			ask(s, k, "reload");
			asked = true;
		} else {
			c->asking[k] = false;	/* it reads the file anew */
		}
	}
	return asked;
}

/**
 * end_reload() - every worker asked answered (or not in time), every new
 *		  one answers (or failed): what each answered is passed on;
 *		  if all did their part, the workers left with no cable are
 *		  stopped; else the first failure is the reload's, and the
 *		  lab goes back to what it was (go_back())
 * @s:		supervisor
 *
 * Return: true if the workers are asked to go back (called again once
 *	   they answered)
 */
static bool end_reload(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	char err[XC_ERR_LEN], why[XC_ERR_LEN + 32];
	unsigned int k;

	for (k = 0; k < XC_SUP_MAX_WORKERS; k++) {
		if (!c->asking[k])
			continue;
		pass_on(s, &c->ask[k].ans);
		if (c->ask[k].rc) {
			xc_ask_why(&c->ask[k], k, err, sizeof(err));
			snprintf(why, sizeof(why), "%s (its part of the reload)",
				 err);
			if (c->back)
				c->lost = true;
			fail(c, c->ask[k].rc, why);
		}
		XC_LOG_FROM(c->src, super, INFO, "reload: worker %u %s", k,
			    c->ask[k].rc ? (c->back ?
			    "could not read its config as it was again" :
			    "refused its part") : c->back ?
			    "read its config as it was again" :
			    "read its config again");
	}
	if (c->back) {
		snprintf(err, sizeof(err), "%s", c->why);
		snprintf(c->why, sizeof(c->why), "%.150s; %s", err, c->lost ?
			 "the other workers could not all go back: their cables are as their configs say, see the log" :
			 "the other workers went back to the lab as it was");
		return false;
	}
	if (c->rc) {
		if (go_back(s))
			return true;
		return end_reload(s);	/* nobody to ask: it is back */
	}
	for (k = 0; k < s->n_w; k++) {
		if (!c->emptied[k])
			continue;
		XC_LOG_FROM(c->src, super, INFO, "reload: worker %u has no cable left: stopping it",
			    k);
		xc_worker_stop(s, k);
	}
	forget_was(c);
	snprintf(c->why, sizeof(c->why), "%s: %u cable(s), %u new, %u removed",
		 s->cl->opts.config, s->n_cables, c->n_new, c->n_gone);
	return false;
}

/**
 * waiting_new() - do new workers of the change still start? One that
 *		   answers is started; one that ended, or does not answer in
 *		   time, failed
 * @s:		supervisor
 *
 * Return: true while one still starts
 */
static bool waiting_new(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	char why[XC_ERR_LEN];
	bool left = false;
	unsigned int k;

	for (k = 0; k < s->n_w; k++) {
		if (!c->fresh[k])
			continue;
		if (xc_worker_ready(&s->w[k])) {
			c->fresh[k] = false;
		} else if (s->w[k].state != XC_W_RUNNING) {
			snprintf(why, sizeof(why), "worker %u ended as it started: see xcable's log",
				 k);
			fail(c, -ECHILD, why);
			c->fresh[k] = false;
		} else if (xc_sup_now_ms() >= c->ready_ms) {
			snprintf(why, sizeof(why), "worker %u did not start within %d s",
				 k, XC_SUP_READY_S);
			fail(c, -ETIMEDOUT, why);
			c->fresh[k] = false;
		} else {
			left = true;
		}
	}
	return left;
}

/**
 * end_change() - the change is over: the lab takes what the workers did,
 *		  the log and the client are told, the next change may come
 *		  (unless a reload that failed has its workers go back first)
 * @s:		supervisor
 *
 * Return: true if it is over
 */
static bool end_change(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	bool refused = c->op == XC_SUP_NONE;	/* by the checks */
	struct xc_sbuf *out;
	unsigned int k;

	switch (c->op) {
	case XC_SUP_ADD:
		end_add(s);
		break;
	case XC_SUP_DEL:
		end_del(s);
		break;
	case XC_SUP_RELOAD:
		if (end_reload(s))
			return false;	/* the workers go back first */
		break;
	default:
		break;
	}
	if (c->job == NULL && strcmp(c->src, "SIGHUP") == 0) {
		XC_LOG_FROM(c->src, super, INFO, "SIGHUP: reload %s: %s",
			    !c->rc ? "done" : refused ?
			    "refused, nothing changed" : "failed", c->why);
		xc_notify("READY=1");
	} else {
		XC_LOG_FROM(c->src, super, INFO, "xcablectl %s: %s%s",
			    c->line, c->rc ? "failed: " : "done: ", c->why);
	}
	if (c->job) {
		/* the workers' lines (the last counters of what they
		 * removed or replaced), failed or not, the outcome last */
		out = c->job->out;
		xc_sbuf_put(out, xc_sbuf_str(&s->said), s->said.len);
		if (c->rc == 0)
			xc_sbuf_printf(out, "%s\nok\n", c->why);
		else
			xc_sbuf_printf(out, "error: %s\n", c->why);
	}
	xc_sbuf_free(&s->said);
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		if (c->asking[k])
			xc_ask_end(&c->ask[k]);
	memset(c, 0, sizeof(*c));
	return true;
}

/**
 * xc_sup_change() - start a change of the lab (xcablectl add, del, reload;
 *		     SIGHUP): what can be done at once is, the rest is
 *		     carried on by xc_sup_change_step(); none may be under
 *		     way
 * @s:		supervisor
 * @op:		the change
 * @argc:	add: its words, "add" first
 * @argv:	those words (add, del: argv[1] is the cable)
 * @line:	the request, for the log
 * @src:	who asked (xc_ctlsrv_source(), or "SIGHUP")
 * @job:	the client waiting for the answer, or NULL
 *
 * Return: true while it is under way; false once it is over (the answer
 *	   is in job->out)
 */
bool xc_sup_change(struct xc_sup *s, enum xc_sup_op op, int argc,
		   char **argv, const char *line, const char *src,
		   struct xc_ctlsrv_job *job)
{
	struct xc_sup_change *c = &s->chg;
	int rc;

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->job = job;
	snprintf(c->line, sizeof(c->line), "%s", line);
	snprintf(c->src, sizeof(c->src), "%s", src);
	if (op == XC_SUP_ADD)
		rc = begin_add(s, argc, argv);
	else if (op == XC_SUP_DEL)
		rc = begin_del(s, argv[1]);
	else
		rc = begin_reload(s);
	if (rc < 0) {
		/* refused, nothing changed: end_*() have nothing to undo */
		c->rc = rc;
		c->op = XC_SUP_NONE;
	}
	if (rc <= 0)
		return !end_change(s);
	return true;
}

/**
 * xc_sup_change_step() - carry the change under way on (each pass of the
 *			  supervisor's loop): the workers' answers read as
 *			  far as they came, new workers looked at; end it
 *			  once all is there, or start a reload SIGHUP asked
 *			  for once no change is under way
 * @s:		supervisor
 *
 * Return: true while a change is under way (look again soon)
 */
bool xc_sup_change_step(struct xc_sup *s)
{
	struct xc_sup_change *c = &s->chg;
	bool busy = false;
	unsigned int k;

	if (c->op == XC_SUP_NONE) {
		if (!s->hup)
			return false;
		if (xc_sup_stopping(s))
			return true;	/* it waits until they are gone */
		s->hup = false;
		xc_notify("RELOADING=1");
		return xc_sup_change(s, XC_SUP_RELOAD, 0, NULL, "reload",
				     "SIGHUP", NULL);
	}
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		if (c->asking[k] && xc_ask_poll(&c->ask[k]) == 1)
			busy = true;
	if (c->starting && waiting_new(s))
		busy = true;
	if (busy)
		return true;
	return !end_change(s) || s->hup;
}

/**
 * on_signal() - act on a signal read from the signalfd
 * @s:		supervisor
 */
static void on_signal(struct xc_sup *s)
{
	struct signalfd_siginfo si;

	while (read(s->sig_fd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGCHLD:
			reap(s);
			break;
		case SIGHUP:
			/* a reload, once no change is under way (its log line
			 * says how it went) */
			s->hup = true;
			break;
		default:
			XC_LOG(super, INFO, "signal %u: stopping every worker",
			       si.ssi_signo);
			s->quit = true;
		}
	}
}

/**
 * stop_workers() - SIGTERM every worker, wait, SIGKILL those still there
 * @s:		supervisor
 */
static void stop_workers(struct xc_sup *s)
{
	uint64_t end = xc_sup_now_ms() + XC_SUP_STOP_MS;
	struct pollfd p = { .fd = s->sig_fd, .events = POLLIN };
	unsigned int k, left;
	int st;

	for (k = 0; k < s->n_w; k++)
		xc_worker_stop(s, k);
	for (;;) {
		reap(s);
		for (left = 0, k = 0; k < s->n_w; k++)
			left += s->w[k].pid > 0;
		if (left == 0 || xc_sup_now_ms() >= end)
			break;
		if (poll(&p, 1, 100) > 0)
			on_signal(s);
	}
	for (k = 0; k < s->n_w; k++) {
		if (s->w[k].pid <= 0)
			continue;
		kill_late(s, k);
		if (waitpid(s->w[k].pid, &st, 0) == s->w[k].pid)
			worker_exited(s, k, st);
	}
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		if (s->w[k].state != XC_W_FREE)
			xc_worker_cleanup(s, k, true);
}

/**
 * read_workers() - read each worker's file FILE.wN (--stats-json,
 *		    --metrics-file)
 * @file:	FILE
 * @in:		each worker's text, XC_SUP_MAX_WORKERS of them (free them)
 * @docs:	each worker's text, NULL if it has no file
 * @remove:	remove the files once read
 */
static void read_workers(const char *file, struct xc_sbuf *in,
			 const char **docs, bool remove)
{
	char path[PATH_MAX], buf[4096];
	unsigned int k;
	ssize_t r;
	int fd;

	for (k = 0; k < XC_SUP_MAX_WORKERS; k++) {
		xc_worker_file(path, sizeof(path), file, k);
		fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		if (fd < 0)
			continue;
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			xc_sbuf_put(&in[k], buf, (size_t)r);
		close(fd);
		if (remove)
			unlink(path);
		docs[k] = in[k].failed ? NULL : in[k].b;
	}
}

/**
 * write_merged() - write the lab's file the workers' were merged into,
 *		    atomically, or say why not
 * @file:	the lab's file (--stats-json, --metrics-file)
 * @out:	the merged text
 * @rc:		what merging them returned
 */
static void write_merged(const char *file, const struct xc_sbuf *out, int rc)
{
	if (rc == 0 && out->failed)
		rc = -ENOMEM;
	if (rc == 0)
		rc = xc_file_replace(file, out->b, out->len);
	if (rc)
		XC_LOG_FROM(file, super, WARNING, "%s not written: %s", file,
			    strerror(-rc));
}

/**
 * merge_metrics() - the lab's metrics file (--metrics-file): the
 *		     workers' own files (each of its cables) merged as
 *		     xcablectl metrics merges their answers, written
 *		     atomically
 * @s:		supervisor
 * @final:	the workers have stopped: their files are removed
 */
static void merge_metrics(struct xc_sup *s, bool final)
{
	const char *docs[XC_SUP_MAX_WORKERS] = { NULL };
	struct xc_sbuf in[XC_SUP_MAX_WORKERS] = { 0 }, out = { 0 };
	const char *file = s->cl->opts.metrics_file;
	unsigned int k;

	if (!file)
		return;
	read_workers(file, in, docs, final);
	write_merged(file, &out,
		     xc_sup_metrics_merge(docs, XC_SUP_MAX_WORKERS, &out));
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		xc_sbuf_free(&in[k]);
	xc_sbuf_free(&out);
}

/**
 * metrics_due() - merge the lab's metrics file when it is due: as often
 *		   as the workers write theirs
 * @s:		supervisor
 * @next_ms:	when it is due next (CLOCK_MONOTONIC), 0 at first
 *
 * Return: milliseconds until it is due again, -1 without a metrics file
 */
static int metrics_due(struct xc_sup *s, uint64_t *next_ms)
{
	unsigned int every = s->cl->opts.stats_interval ?
			     s->cl->opts.stats_interval : XC_METRICS_FILE_S;
	uint64_t now = xc_sup_now_ms();

	if (!s->cl->opts.metrics_file)
		return -1;
	if (*next_ms == 0)	/* the workers write theirs as they start */
		*next_ms = now + 1000;
	if (now >= *next_ms) {
		merge_metrics(s, false);
		*next_ms = now + every * 1000ULL;
	}
	return (int)RTE_MIN(*next_ms - now, (uint64_t)INT_MAX);
}

/**
 * merge_stats() - the final counters of every worker in one JSON file, as
 *		   one xcable writes it (--stats-json); the workers' own
 *		   files are removed
 * @s:		supervisor
 */
static void merge_stats(struct xc_sup *s)
{
	const char *docs[XC_SUP_MAX_WORKERS] = { NULL };
	struct xc_sbuf in[XC_SUP_MAX_WORKERS] = { 0 }, out = { 0 };
	const char *file = s->cl->opts.stats_json;
	unsigned int k;

	if (!file)
		return;
	read_workers(file, in, docs, true);
	write_merged(file, &out, xc_sup_json_merge(s, docs, XC_SUP_MAX_WORKERS,
						   &out));
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		xc_sbuf_free(&in[k]);
	xc_sbuf_free(&out);
}

/**
 * loop() - serve signals, the control socket and restarts until told
 *	    to stop
 * @s:		supervisor, workers started
 */
static void loop(struct xc_sup *s)
{
	struct pollfd p[3] = {
		{ .fd = s->sig_fd, .events = POLLIN },
		{ .fd = s->ctl_fd >= 0 ? xc_ctlsrv_fd(&s->ctl) : -1,
		  .events = POLLIN },
		{ .fd = s->streams.epfd, .events = POLLIN },
	};
	int wait_ms, ctl_ms = -1, st_ms = s->streams.epfd >= 0 ? 0 : -1;
	int m_ms;
	uint64_t next_metrics = 0;
	bool busy = false;

	while (!s->quit) {
		/* signals (a worker's exit among them) and clients end the
		 * wait; a restart due and the control engine's deadlines
		 * bound it, and a change under way, whose workers' answers
		 * are read as they come */
		wait_ms = restart_due(s);
		if (wait_ms >= 0)
			wait_ms++;
		if (ctl_ms >= 0 && (wait_ms < 0 || ctl_ms < wait_ms))
			wait_ms = ctl_ms;
		if (st_ms >= 0 && (wait_ms < 0 || st_ms < wait_ms))
			wait_ms = st_ms;
		m_ms = metrics_due(s, &next_metrics);
		if (m_ms >= 0 && (wait_ms < 0 || m_ms < wait_ms))
			wait_ms = m_ms;
		if (busy && (wait_ms < 0 || wait_ms > XC_CTLSRV_POLL_MS))
			wait_ms = XC_CTLSRV_POLL_MS;
		/* and what the log held back is said when its window ends */
		if (wait_ms < 0 || wait_ms > XC_LOGRL_WINDOW_S * 1000)
			wait_ms = XC_LOGRL_WINDOW_S * 1000;
		if (poll(p, 3, wait_ms) > 0 && p[0].revents)
			on_signal(s);
		if (s->quit)
			break;
		busy = xc_sup_change_step(s);
		if (s->ctl_fd >= 0)
			ctl_ms = xc_supctl_serve(s);
		if (s->streams.epfd >= 0)	/* captures, events */
			st_ms = xc_streams_serve(&s->streams, 0);
		xc_logrl_tick();
	}
}

/**
 * setup() - everything before the workers start: arguments, texts,
 *	     placement, run directory, signals, control socket
 * @s:		supervisor
 * @argc:	argument count
 * @argv:	argument vector
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0; -EINVAL for an error in what the user wrote, other -errno
 */
static int setup(struct xc_sup *s, int argc, char **argv, char *why,
		 size_t whylen)
{
	struct xc_cmdline *cl = s->cl;
	unsigned int i;
	sigset_t set;
	ssize_t n;
	int rc;

	n = readlink("/proc/self/exe", s->exe, sizeof(s->exe) - 1);
	if (n <= 0) {
		snprintf(why, whylen, "cannot find this program: %s", strerror(errno));
		return -errno;
	}
	s->exe[n] = '\0';
	if (split_args(s, argc, argv)) {
		snprintf(why, whylen, "too many arguments to pass to the workers (at most %d)",
			 XC_SUP_MAX_ARGS);
		return -EINVAL;
	}
	for (i = 0; i < cl->n_defs; i++) {
		s->cables[i].def = cl->defs[i];
		s->cables[i].worker = -1;
	}
	s->n_cables = cl->n_defs;
	if (read_text(cl->opts.config, &cl->opts, &s->global, s->port_text,
		      s->cables, s->n_cables)) {
		snprintf(why, whylen, "%s: cannot read it again", cl->opts.config);
		return -EINVAL;
	}
	rc = xc_sup_place(s->cables, s->n_cables, s->w, &s->n_w, why, whylen);
	if (rc)
		return -EINVAL;
	rc = make_dir(s);
	if (rc == 0 && strlen(s->dir) + sizeof("/worker-99.ctl") >
		       XC_SOCK_PATH_MAX) {
		snprintf(why, whylen, "run directory %.160s: too long for the workers' control sockets (use a shorter --file-prefix)",
			 s->dir);
		rmdir(s->dir);
		s->dir[0] = '\0';
		return -EINVAL;
	}
	if (rc) {
		snprintf(why, whylen, "cannot create %.160s: %s", s->dir,
			 strerror(-rc));
		return rc;
	}
	rc = xc_sockrec_open(s->dir);	/* its control socket's record */
	if (rc)
		XC_LOG(super, WARNING, "the control socket is not recorded in %s (%s): if a crash leaves it, the next start does not remove it",
		       s->dir, strerror(-rc));
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	s->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->sig_fd < 0) {
		snprintf(why, whylen, "signalfd: %s", strerror(errno));
		return -errno;
	}
	if ((size_t)snprintf(s->ctl_path, sizeof(s->ctl_path), "%s%s",
			     cl->opts.control ? cl->opts.control : s->dir,
			     cl->opts.control ? "" : "/xcable.ctl") >=
	    sizeof(s->ctl_path))
		XC_LOG(super, WARNING, "no control socket: path too long");
	else if (xc_supctl_start(s, why, whylen))
		XC_LOG(super, WARNING, "no runtime control: %s", why);
	else if ((rc = xc_suprelay_start(s)) != 0)
		XC_LOG(super, WARNING, "no captures, no events: %s",
		       strerror(-rc));
	return 0;
}

/**
 * teardown() - remove what the supervisor made, free what it holds
 * @s:		supervisor, workers stopped
 */
static void teardown(struct xc_sup *s)
{
	unsigned int k;

	xc_supctl_stop(s);	/* its clients first: they may wait for chg */
	xc_suprelay_stop(s);
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++)
		if (s->chg.asking[k])
			xc_ask_end(&s->chg.ask[k]);
	forget_was(&s->chg);
	if (s->sig_fd >= 0)
		close(s->sig_fd);
	xc_sockrec_close(true);
	if (s->dir[0])
		rmdir(s->dir);
	free_cables(s->cables, s->n_cables);
	free(s->global);
	for (k = 0; k < XC_MAX_PORT_DEFS; k++)
		free(s->port_text[k]);
	xc_sbuf_free(&s->said);
	free(s);
}

/**
 * xc_sup_run() - be the supervisor: start the workers, keep them running,
 *		  serve the control socket, stop them all on SIGTERM/SIGINT
 * @cl:		parsed command line, its config checked
 * @argc:	argument count
 * @argv:	argument vector
 *
 * Return: the exit status: 0 after a clean stop, 2 for an error in what
 *	   the user wrote, 1 for any other failure
 */
int xc_sup_run(struct xc_cmdline *cl, int argc, char **argv)
{
	struct xc_sup *s = calloc(1, sizeof(*s));
	char why[XC_ERR_LEN] = "";
	unsigned int k, n = 0;
	int rc;

	if (s == NULL) {
		fprintf(stderr, "xcable: out of memory\n");
		return 1;
	}
	s->cl = cl;
	s->ctl_fd = s->sig_fd = -1;
	s->streams.epfd = s->streams.evfd = -1;
	xc_logrl_init();	/* no EAL here: on stderr */
	rc = setup(s, argc, argv, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "xcable: %s\n", why);
		teardown(s);
		return rc == -EINVAL ? XC_EXIT_USAGE : 1;
	}
	for (k = 0; k < s->n_w; k++)
		n += s->w[k].state != XC_W_FREE;
	XC_LOG(super, INFO, "%u cables need more DPDK ports than one process has: supervising %u worker processes (run directory %s)",
	       s->n_cables, n, s->dir);
	if (start_new(s, NULL, why, sizeof(why)))
		XC_LOG(super, ERR, "%s", why);
	XC_LOG(super, INFO, "supervisor running: xcablectl -s %s (or -p %s); stop with Ctrl-C or SIGTERM",
	       s->ctl_path, s->prefix);
	xc_notify("READY=1\nSTATUS=supervising");
	loop(s);
	stop_workers(s);
	merge_stats(s);
	merge_metrics(s, true);
	XC_LOG(super, INFO, "supervisor: every worker stopped");
	xc_logrl_fini();
	teardown(s);
	return 0;
}
