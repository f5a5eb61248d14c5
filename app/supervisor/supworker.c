/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supworker.c - the supervisor's worker processes
 *
 * A worker is an ordinary xcable in config mode: this same binary, run as
 *   xcable [EAL options of the user] --file-prefix=PREFIX-wN --
 *          [xcable options of the user] --config RUN/worker-N.ini
 *          --control RUN/worker-N.ctl [--stats-json FILE.wN]
 *          [--metrics-file FILE.wN]
 * where RUN is the supervisor's run directory. Its config is the lab's
 * [global], the [port NAME] sections it holds and its share of the
 * [cable NAME] sections, each written as the lab's config (or xcablectl
 * add) said it. The worker gets PR_SET_PDEATHSIG: it is sent SIGTERM when
 * the supervisor goes, however it goes, and so never outlives it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "runfiles.h"
#include "sockpath.h"
#include "sockrec.h"
#include "supervise.h"

/**
 * xc_sup_rundir() - the runtime directory DPDK's EAL gives a file prefix
 *		     (eal_create_runtime_dir(): /var/run/dpdk/PREFIX for
 *		     root, else under $XDG_RUNTIME_DIR or /tmp)
 * @prefix:	the file prefix
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_sup_rundir(const char *prefix, char *buf, size_t len)
{
	char base[PATH_MAX];

	xc_sockrec_base(base, sizeof(base));
	snprintf(buf, len, "%s/%s", base, prefix);
}

/**
 * xc_worker_paths() - name a worker's prefix, config, control socket and
 *		       counters file after its slot
 * @s:		supervisor
 * @i:		the worker's slot
 */
void xc_worker_paths(struct xc_sup *s, unsigned int i)
{
	struct xc_worker *w = &s->w[i];

	/* setup() checked that the run directory leaves room for these */
	if (snprintf(w->prefix, sizeof(w->prefix), "%s-w%u", s->prefix, i) < 0 ||
	    snprintf(w->ini, sizeof(w->ini), "%s/worker-%u.ini", s->dir, i) < 0 ||
	    snprintf(w->ctl, sizeof(w->ctl), "%s/worker-%u.ctl", s->dir, i) < 0)
		w->ctl[0] = '\0';
	xc_worker_file(w->stats, sizeof(w->stats), s->cl->opts.stats_json, i);
	xc_worker_file(w->metrics, sizeof(w->metrics),
		       s->cl->opts.metrics_file, i);
}

/**
 * xc_worker_file() - a worker's own file of a lab's file it writes
 *		      (--stats-json, --metrics-file): FILE.wN, which the
 *		      supervisor merges into FILE
 * @buf:	filled; "" if there is no FILE or the name does not fit
 * @len:	size of @buf
 * @file:	FILE, or NULL
 * @i:		the worker's slot
 */
void xc_worker_file(char *buf, size_t len, const char *file, unsigned int i)
{
	if (file == NULL ||
	    snprintf(buf, len, "%s.w%u", file, i) >= (int)len)
		buf[0] = '\0';
}

/**
 * xc_worker_cables() - how many cables a worker runs
 * @s:		supervisor
 * @i:		the worker's slot
 *
 * Return: the count
 */
unsigned int xc_worker_cables(const struct xc_sup *s, unsigned int i)
{
	unsigned int k, n = 0;

	for (k = 0; k < s->n_cables; k++)
		n += s->cables[k].worker == (int)i;
	return n;
}

/**
 * xc_worker_text() - a worker's config file: [global], its [port NAME]
 *		      sections, its cables in lab order
 * @s:		supervisor
 * @i:		the worker's slot
 * @out:	the text is appended
 */
void xc_worker_text(const struct xc_sup *s, unsigned int i,
		    struct xc_sbuf *out)
{
	const struct xc_opts *o = &s->cl->opts;
	unsigned int k;

	xc_sbuf_printf(out, "; worker %u of xcable's supervisor %s (written by it: edit %s instead)\n[global]\n%s",
		       i, s->prefix, o->config, s->global ? s->global : "");
	for (k = 0; k < o->n_port_defs; k++)
		if (s->w[i].ports & (1u << k))
			xc_sbuf_printf(out, "[port %s]\n%s", o->port_defs[k].name,
				       s->port_text[k] ? s->port_text[k] : "");
	for (k = 0; k < s->n_cables; k++)
		if (s->cables[k].worker == (int)i)
			xc_sbuf_printf(out, "[cable %s]\n%s",
				       s->cables[k].def.name,
				       s->cables[k].text);
}

/**
 * xc_worker_write() - write a worker's config file (whole, then renamed
 *		       over the old one: a worker reading it on a restart or
 *		       reload never sees half of it)
 * @s:		supervisor
 * @i:		the worker's slot, its paths named
 *
 * Return: 0, or -errno
 */
int xc_worker_write(const struct xc_sup *s, unsigned int i)
{
	const struct xc_worker *w = &s->w[i];
	struct xc_sbuf t = { 0 };
	char tmp[PATH_MAX + 8];
	int fd, rc = 0;

	xc_worker_text(s, i, &t);
	if (t.failed) {
		xc_sbuf_free(&t);
		return -ENOMEM;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", w->ini);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, t.b, t.len) != (ssize_t)t.len)
		rc = errno ? -errno : -EIO;
	if (fd >= 0 && close(fd) && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, w->ini))
		rc = -errno;
	if (rc) {
		XC_LOG(super, ERR, "worker %u: cannot write %s: %s", i, w->ini,
		       strerror(-rc));
		unlink(tmp);
	}
	xc_sbuf_free(&t);
	return rc;
}

/**
 * worker_argv() - the command line of a worker
 * @s:		supervisor
 * @w:		the worker, paths named
 * @argv:	filled, NULL-terminated
 * @max:	room in @argv
 * @pfx:	room for its --file-prefix argument
 * @pfxlen:	size of @pfx
 *
 * Return: 0, or -E2BIG
 */
static int worker_argv(const struct xc_sup *s, const struct xc_worker *w,
		       char **argv, int max, char *pfx, size_t pfxlen)
{
	int n = 0, k;

	if (s->eal_argc + s->app_argc + 12 > max)
		return -E2BIG;
	argv[n++] = (char *)s->exe;
	for (k = 0; k < s->eal_argc; k++)
		argv[n++] = s->eal_argv[k];
	snprintf(pfx, pfxlen, "--file-prefix=%s", w->prefix);
	argv[n++] = pfx;
	argv[n++] = (char *)"--";
	for (k = 0; k < s->app_argc; k++)
		argv[n++] = s->app_argv[k];
	argv[n++] = (char *)"--config";
	argv[n++] = (char *)w->ini;
	argv[n++] = (char *)"--control";
	argv[n++] = (char *)w->ctl;
	if (w->stats[0]) {
		argv[n++] = (char *)"--stats-json";
		argv[n++] = (char *)w->stats;
	}
	if (w->metrics[0]) {
		argv[n++] = (char *)"--metrics-file";
		argv[n++] = (char *)w->metrics;
	}
	argv[n] = NULL;
	return 0;
}

/**
 * xc_worker_start() - start a worker process on its config file
 * @s:		supervisor
 * @i:		the worker's slot, its config written
 *
 * Return: 0, or -errno (the slot is then left to be started again)
 */
int xc_worker_start(struct xc_sup *s, unsigned int i)
{
	struct xc_worker *w = &s->w[i];
	char *argv[XC_SUP_MAX_ARGS * 2 + 16], pfx[96];
	pid_t parent = getpid(), pid;
	sigset_t all;
	int fd;

	xc_worker_paths(s, i);
	if (worker_argv(s, w, argv, (int)(sizeof(argv) / sizeof(argv[0])),
			pfx, sizeof(pfx)))
		return -E2BIG;
	pid = fork();
	if (pid < 0) {
		XC_LOG(super, ERR, "worker %u: fork: %s", i, strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		/* the worker: never outlive the supervisor, and take
		 * signals as any xcable does */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(1);
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != STDIN_FILENO) {
			dup2(fd, STDIN_FILENO);
			close(fd);
		}
		/* the supervisor tells the service manager, not its workers */
		unsetenv("NOTIFY_SOCKET");
		execv(s->exe, argv);
		fprintf(stderr, "xcable: worker %u: cannot run %s: %s\n", i,
			s->exe, strerror(errno));
		_exit(1);
	}
	w->pid = pid;
	w->state = XC_W_RUNNING;
	w->started_ms = xc_sup_now_ms();
	XC_LOG(super, INFO, "worker %u: pid %d, %u cable(s), EAL prefix %s, control %s",
	       i, (int)pid, xc_worker_cables(s, i), w->prefix, w->ctl);
	return 0;
}

/**
 * xc_worker_stop() - ask a worker to stop (SIGTERM); it is reaped later
 * @s:		supervisor
 * @i:		the worker's slot
 */
void xc_worker_stop(struct xc_sup *s, unsigned int i)
{
	struct xc_worker *w = &s->w[i];

	if (w->pid > 0) {
		kill(w->pid, SIGTERM);
		w->state = XC_W_STOPPING;
		w->stop_ms = xc_sup_now_ms();
	} else if (w->state != XC_W_FREE) {
		xc_worker_cleanup(s, i, true);
	}
}

/**
 * struct reclaim_ctx - whose sockets are reclaimed, for the log
 * @i:		the worker's slot
 */
struct reclaim_ctx {
	unsigned int i;
};

/**
 * said() - log what became of a socket a worker that ended left
 * @arg:	struct reclaim_ctx
 * @removed:	it was removed
 * @msg:	what was done
 */
static void said(void *arg, bool removed, const char *msg)
{
	const struct reclaim_ctx *c = arg;

	if (removed)
		XC_LOG(super, DEBUG, "worker %u is gone: %s", c->i, msg);
	else
		XC_LOG(super, WARNING, "worker %u is gone, but not its socket: %s",
		       c->i, msg);
}

/**
 * xc_worker_cleanup() - after a worker exited: remove the sockets it left
 *			 (those its record in its run directory lists, if
 *			 they are still there: sockrec.c), then what its EAL
 *			 left (runtime directory, hugepage files); with
 *			 @final its config too, and the slot is freed
 * @s:		supervisor
 * @i:		the worker's slot
 * @final:	the worker is gone for good
 *
 * A worker that stopped by itself removed its sockets and its record; one
 * that was killed left both. Anything else at their paths (another
 * process's socket, a file) is left alone, and the log says so.
 */
void xc_worker_cleanup(struct xc_sup *s, unsigned int i, bool final)
{
	struct xc_worker *w = &s->w[i];
	struct reclaim_ctx ctx = { .i = i };
	struct xc_runfiles rf;

	if (w->prefix[0]) {
		snprintf(rf.prefix, sizeof(rf.prefix), "%s", w->prefix);
		xc_sup_rundir(w->prefix, rf.dir, sizeof(rf.dir));
		xc_sock_reclaim(rf.dir, said, &ctx);
		xc_runfiles_remove(&rf);
	}
	w->pid = 0;
	if (!final)
		return;
	if (w->ini[0])
		unlink(w->ini);
	/* a worker stopped while the lab runs (a reload took its last
	 * cable): its metrics are of cables that are gone, and must not be
	 * merged again; at exit the last merge still reads them */
	if (w->metrics[0] && !s->quit)
		unlink(w->metrics);
	w->state = XC_W_FREE;
	w->ports = 0;
	w->one_process = 0;	/* its process, and what it held, are gone */
	while (s->n_w && s->w[s->n_w - 1].state == XC_W_FREE)
		s->n_w--;
}

/**
 * xc_worker_ready() - does a worker answer on its control socket? (it
 *		       creates it once its cables are up; the supervisor
 *		       removes it when the worker exits)
 * @w:		the worker
 *
 * Return: true if so
 */
bool xc_worker_ready(const struct xc_worker *w)
{
	struct stat st;

	return w->state == XC_W_RUNNING && w->pid > 0 &&
	       lstat(w->ctl, &st) == 0 && S_ISSOCK(st.st_mode);
}

/**
 * xc_ask_start() - send a worker one xcablectl request, without waiting:
 *		    xc_ask_poll() carries the exchange on (the supervisor's
 *		    one thread never waits for a worker)
 * @a:		the exchange, ended or never started
 * @w:		the worker
 * @req:	the request, one line without newline
 * @timeout_ms:	longest wait for its whole answer
 *
 * Return: 1 while under way, or -errno if it cannot be started (a->rc)
 */
int xc_ask_start(struct xc_ask *a, const struct xc_worker *w, const char *req,
		 unsigned int timeout_ms)
{
	memset(a, 0, sizeof(*a));
	a->fd = -1;
	a->rc = 1;
	a->deadline_ms = xc_sup_now_ms() + timeout_ms;
	a->timeout_ms = timeout_ms;
	if (strlen(w->ctl) >= sizeof(a->sa.sun_path) ||
	    (size_t)snprintf(a->req, sizeof(a->req), "%s\n", req) >=
	    sizeof(a->req))
		return a->rc = -ENAMETOOLONG;
	a->sa.sun_family = AF_UNIX;
	strcpy(a->sa.sun_path, w->ctl);
	a->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (a->fd < 0)
		return a->rc = -errno;
	return xc_ask_poll(a);
}

/**
 * finish() - the worker closed: how did it answer? (its last line says)
 * @a:		the exchange, its answer read whole
 *
 * Return: 0 if it answered ok, -EINVAL if it refused, -EPIPE if it said
 *	   nothing, -ENOMEM
 */
static int finish(struct xc_ask *a)
{
	struct xc_sbuf *ans = &a->ans;
	const char *last;

	if (ans->failed)
		return -ENOMEM;
	while (ans->len && ans->b[ans->len - 1] == '\n')
		ans->b[--ans->len] = '\0';
	if (ans->len == 0)
		return -EPIPE;
	last = memrchr(ans->b, '\n', ans->len);
	last = last ? last + 1 : ans->b;
	xc_sbuf_put(ans, "\n", 1);
	return strncmp(last, "ok\n", 3) == 0 ? 0 : -EINVAL;
}

/**
 * xc_ask_poll() - carry an exchange on as far as it goes without waiting:
 *		   connect (again, while the worker's backlog is full), send
 *		   what is left of the request, read what came of the answer
 * @a:		the exchange
 *
 * Return: a->rc: 1 while under way; 0 if the worker answered ok, -EINVAL
 *	   if it refused (its answer says why), -ETIMEDOUT past the
 *	   deadline, other -errno if it could not be asked
 */
int xc_ask_poll(struct xc_ask *a)
{
	char buf[4096];
	ssize_t n;

	while (a->rc == 1) {
		if (!a->connected) {
			if (connect(a->fd, (struct sockaddr *)&a->sa,
				    sizeof(a->sa)) == 0 || errno == EISCONN)
				a->connected = true;
			else if (errno != EAGAIN && errno != EINTR)
				a->rc = -errno;
			else
				break;	/* its backlog is full: later */
		} else if (a->sent < strlen(a->req)) {
			n = send(a->fd, a->req + a->sent,
				 strlen(a->req) - a->sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n > 0)
				a->sent += (size_t)n;
			else if (errno == EAGAIN || errno == EINTR)
				break;
			else
				a->rc = -errno;
		} else {
			n = recv(a->fd, buf, sizeof(buf), MSG_DONTWAIT);
			if (n > 0)
				xc_sbuf_put(&a->ans, buf, (size_t)n);
			else if (n == 0)
				a->rc = finish(a);
			else if (errno == EAGAIN || errno == EINTR)
				break;
			else
				a->rc = -errno;
		}
	}
	if (a->rc == 1 && xc_sup_now_ms() >= a->deadline_ms)
		a->rc = -ETIMEDOUT;
	if (a->rc != 1 && a->fd >= 0) {
		close(a->fd);
		a->fd = -1;
	}
	return a->rc;
}

/**
 * xc_ask_end() - close an exchange, under way or not, and free its answer
 * @a:		the exchange (started, or zeroed with fd -1)
 */
void xc_ask_end(struct xc_ask *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
	xc_sbuf_free(&a->ans);
}

/**
 * xc_ask_why() - why an exchange that ended did not go well, one line
 * @a:		the exchange, ended
 * @k:		its worker's slot
 * @why:	filled: the worker's reason (its "error:" line), or what
 *		kept it from answering
 * @whylen:	size of @why
 */
void xc_ask_why(const struct xc_ask *a, unsigned int k, char *why,
		size_t whylen)
{
	const char *e = strstr(xc_sbuf_str(&a->ans), "error: ");

	if (a->rc == -EINVAL && e)
		snprintf(why, whylen, "worker %u: %s", k, e + 7);
	else if (a->rc == -ETIMEDOUT)
		snprintf(why, whylen, "worker %u did not answer within %u ms (stopped, or busy? xcablectl workers)",
			 k, a->timeout_ms);
	else
		snprintf(why, whylen, "worker %u could not be asked: %s", k,
			 strerror(-a->rc));
	why[strcspn(why, "\n")] = '\0';
}
