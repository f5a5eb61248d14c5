/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supervise.h - one xcable for more cables than one EAL process holds:
 *		 a supervisor and its worker processes
 */
#ifndef XC_SUPERVISE_H
#define XC_SUPERVISE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "bounds.h"
#include "cmdline.h"
#include "ctlsrv.h"
#include "sbuf.h"
#include "sockpath.h"
#include "options.h"

#define XC_SUP_MAX_WORKERS	80	/* worker processes: 1024 cables, 16
					 * a worker, with room to spare */
#define XC_SUP_MAX_CABLES	XC_MAX_LAB_CABLES /* what a config holds */
#define XC_SUP_MAX_ARGS		96	/* arguments passed to a worker */
#define XC_SUP_CHANGE_S		35	/* longest wait for a worker's answer to
					 * add, del, reload (it waits 30) */

/**
 * struct xc_sup_cable - a cable of the lab, and the worker that runs it
 * @def:	its definition, as config.c read it
 * @text:	its section's lines ("key = value\n"), malloc'd: what the
 *		worker's config file says of it
 * @worker:	index of its worker, -1 while not placed
 */
struct xc_sup_cable {
	struct xc_cable_def def;
	char *text;
	int worker;
};

/**
 * enum xc_worker_state - where a worker process is in its life
 * @XC_W_FREE:		no worker in this slot
 * @XC_W_RUNNING:	started (its control socket may not answer yet)
 * @XC_W_WAITING:	exited unexpectedly: started again at @restart_ms
 * @XC_W_STOPPING:	sent SIGTERM: the slot is freed once it is reaped
 */
enum xc_worker_state {
	XC_W_FREE,
	XC_W_RUNNING,
	XC_W_WAITING,
	XC_W_STOPPING,
};

/**
 * struct xc_worker - one worker: an ordinary xcable with its share of
 *		      the cables, its own EAL (file prefix) and control socket
 * @state:	enum xc_worker_state
 * @pid:	its process, 0 if none
 * @ports:	the [port NAME] sections it holds (bit i: port_defs[i]),
 *		set when it is made: a worker's ports are fixed
 * @prefix:	its EAL --file-prefix
 * @ini:	its config file
 * @ctl:	its control socket
 * @stats:	its --stats-json file, empty if none
 * @started_ms:	when it was last started (CLOCK_MONOTONIC)
 * @restart_ms:	when it is started again (state XC_W_WAITING)
 * @backoff_ms:	the wait before its next restart
 * @restarts:	how often it was restarted
 */
struct xc_worker {
	enum xc_worker_state state;
	pid_t pid;
	uint32_t ports;
	char prefix[64];
	char ini[PATH_MAX];
	char ctl[XC_SOCK_PATH_MAX];
	char stats[PATH_MAX];
	uint64_t started_ms;
	uint64_t restart_ms;
	unsigned int backoff_ms;
	unsigned int restarts;
};

/**
 * struct xc_sup - the supervisor
 * @cl:		the command line and config, as parsed (the parent's)
 * @exe:	this program, executed for each worker
 * @eal_argv:	EAL arguments the user gave, passed to every worker
 *		(without --file-prefix: each worker has its own)
 * @eal_argc:	how many
 * @app_argv:	xcable options the user gave, passed to every worker
 *		(without --config, --control and --stats-json)
 * @app_argc:	how many
 * @prefix:	the supervisor's prefix; workers are PREFIX-wN
 * @dir:	its run directory: workers' configs and control sockets
 * @ctl_path:	the control socket xcablectl talks to
 * @ctl_fd:	its listening socket (@ctl's), -1 if none
 * @ctl:	the engine serving it (ctlsrv.c)
 * @sig_fd:	signalfd of SIGCHLD, SIGTERM, SIGINT, SIGHUP
 * @global:	the config's [global] lines, malloc'd
 * @port_text:	each [port NAME] section's lines, malloc'd
 * @cables:	the lab's cables, in config order
 * @n_cables:	how many
 * @w:		the workers
 * @n_w:	slots used in @w (some may be free)
 * @ctl_id:	the control socket's device and inode (removed at stop only
 *		if the path still holds it)
 * @quit:	SIGTERM or SIGINT came: stop everything
 * @said:	what the workers answered to the change being made (the last
 *		counters of the cables they removed), passed on to xcablectl
 *		before the supervisor's own line
 */
struct xc_sup {
	struct xc_cmdline *cl;
	char exe[PATH_MAX];
	char *eal_argv[XC_SUP_MAX_ARGS];
	int eal_argc;
	char *app_argv[XC_SUP_MAX_ARGS];
	int app_argc;
	char prefix[48];
	char dir[PATH_MAX];
	char ctl_path[XC_SOCK_PATH_MAX];
	int ctl_fd;
	struct xc_sock_id ctl_id;
	struct xc_ctlsrv ctl;
	int sig_fd;
	char *global;
	char *port_text[XC_MAX_PORT_DEFS];
	struct xc_sup_cable cables[XC_SUP_MAX_CABLES];
	unsigned int n_cables;
	struct xc_worker w[XC_SUP_MAX_WORKERS];
	unsigned int n_w;
	bool quit;
	struct xc_sbuf said;
};

/**
 * xc_sup_now_ms() - milliseconds on CLOCK_MONOTONIC
 *
 * Return: the time
 */
static inline uint64_t xc_sup_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* supervise.c: the supervisor's life */
int xc_sup_run(struct xc_cmdline *cl, int argc, char **argv);
int xc_sup_add(struct xc_sup *s, int argc, char **argv, char *why,
	       size_t whylen);
int xc_sup_del(struct xc_sup *s, const char *name, char *why,
	       size_t whylen);
int xc_sup_reload(struct xc_sup *s, char *why, size_t whylen);
void xc_sup_pass_on(struct xc_sup *s, const struct xc_sbuf *ans);

/* supplace.c: which worker runs which cable */
unsigned int xc_sup_def_ports(const struct xc_cable_def *d);
uint32_t xc_sup_def_portmask(const struct xc_cable_def *d);
int xc_sup_place(struct xc_sup_cable *c, unsigned int n,
		 struct xc_worker *w, unsigned int *n_w, char *why,
		 size_t whylen);

/* supworker.c: the worker processes */
void xc_sup_rundir(const char *prefix, char *buf, size_t len);
void xc_worker_paths(struct xc_sup *s, unsigned int i);
void xc_worker_text(const struct xc_sup *s, unsigned int i,
		    struct xc_sbuf *out);
int xc_worker_write(const struct xc_sup *s, unsigned int i);
int xc_worker_start(struct xc_sup *s, unsigned int i);
void xc_worker_stop(struct xc_sup *s, unsigned int i);
void xc_worker_cleanup(struct xc_sup *s, unsigned int i, bool final);
int xc_worker_ask(const struct xc_worker *w, const char *req,
		  struct xc_sbuf *ans, unsigned int timeout_s);
int xc_worker_change(const struct xc_sup *s, unsigned int k, const char *req,
		     struct xc_sbuf *ans, char *why, size_t whylen);
bool xc_worker_ready(const struct xc_worker *w);
unsigned int xc_worker_cables(const struct xc_sup *s, unsigned int i);

/* supctl.c: the control socket of the supervisor */
int xc_supctl_start(struct xc_sup *s, char *err, size_t errlen);
int xc_supctl_serve(struct xc_sup *s);
void xc_supctl_stop(struct xc_sup *s);
int xc_sup_json_merge(const struct xc_sup *s, const char *const *docs,
		      unsigned int n, struct xc_sbuf *out);

#endif /* XC_SUPERVISE_H */
