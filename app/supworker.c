/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supworker.c - the supervisor's worker processes
 *
 * A worker is an ordinary xcable in config mode: this same binary, run as
 *   xcable [EAL options of the user] --file-prefix=PREFIX-wN --
 *          [xcable options of the user] --config RUN/worker-N.ini
 *          --control RUN/worker-N.ctl [--stats-json FILE.wN]
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
	w->stats[0] = '\0';
	if (s->cl->opts.stats_json &&
	    snprintf(w->stats, sizeof(w->stats), "%s.w%u",
		     s->cl->opts.stats_json, i) < 0)
		w->stats[0] = '\0';
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
		xc_sockrec_reclaim(rf.dir, said, &ctx);
		xc_runfiles_remove(&rf);
	}
	w->pid = 0;
	if (!final)
		return;
	if (w->ini[0])
		unlink(w->ini);
	w->state = XC_W_FREE;
	w->ports = 0;
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
 * xc_worker_ask() - send a worker one xcablectl request, read its answer
 * @w:		the worker
 * @req:	the request, one line without newline
 * @ans:	the answer is appended (its last line "ok" or "error: WHY")
 * @timeout_s:	longest wait for the answer
 *
 * Return: 0 if it answered ok, -EINVAL if it refused (the answer says
 *	   why), other -errno if it could not be asked
 */
int xc_worker_ask(const struct xc_worker *w, const char *req,
		  struct xc_sbuf *ans, unsigned int timeout_s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = timeout_s };
	size_t start = ans->len;
	char buf[4096];
	const char *last;
	ssize_t n;
	int fd, rc;

	if (strlen(w->ctl) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, w->ctl);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, req, strlen(req), MSG_NOSIGNAL) < 0 ||
	    send(fd, "\n", 1, MSG_NOSIGNAL) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		xc_sbuf_put(ans, buf, (size_t)n);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return rc == -EAGAIN ? -ETIMEDOUT : rc;
	if (ans->failed)
		return -ENOMEM;
	/* the last line says how it went */
	while (ans->len > start && ans->b[ans->len - 1] == '\n')
		ans->b[--ans->len] = '\0';
	if (ans->len == start)
		return -EPIPE;
	last = memrchr(ans->b + start, '\n', ans->len - start);
	last = last ? last + 1 : ans->b + start;
	rc = strcmp(last, "ok") == 0 ? 0 : -EINVAL;
	xc_sbuf_put(ans, "\n", 1);
	return rc;
}

/**
 * xc_worker_change() - ask worker @k of @s to make a change (add, del,
 *			reload), waiting as long as a change may take
 * @s:		supervisor
 * @k:		the worker
 * @req:	the request, one line without newline
 * @ans:	its answer is appended
 * @why:	on error: "worker K: " and the worker's reason (its "error:"
 *		line), or why it could not be asked
 * @whylen:	size of @why
 *
 * Return: 0, or -errno as for xc_worker_ask()
 */
int xc_worker_change(const struct xc_sup *s, unsigned int k, const char *req,
		     struct xc_sbuf *ans, char *why, size_t whylen)
{
	const char *e;
	int rc = xc_worker_ask(&s->w[k], req, ans, XC_SUP_CHANGE_S);

	if (rc == 0)
		return 0;
	e = strstr(xc_sbuf_str(ans), "error: ");
	snprintf(why, whylen, "worker %u: %s", k, e ? e + 7 : strerror(-rc));
	why[strcspn(why, "\n")] = '\0';
	return rc;
}
