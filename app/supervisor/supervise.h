/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supervise.h - one xcable for more cables than one EAL process holds:
 *		 a supervisor and its worker processes
 *
 * Folder app/supervisor/, the top layer: the supervisor, its workers, its
 * control socket and the merging of their answers. It knows a kind only
 * through its definition's flags (kinddef.h: one_process, ports).
 */
#ifndef XC_SUPERVISE_H
#define XC_SUPERVISE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>

#include "bounds.h"
#include "cmdline.h"
#include "ctlsrv.h"
#include "evlog.h"
#include "sbuf.h"
#include "stream.h"
#include "sockpath.h"
#include "options.h"

#define XC_SUP_MAX_WORKERS	80	/* worker processes: 1024 cables, 16
					 * a worker, with room to spare */
#define XC_SUP_MAX_CABLES	XC_MAX_LAB_CABLES /* what a config holds */
#define XC_SUP_MAX_ARGS		96	/* arguments passed to a worker */
#define XC_SUP_CHANGE_S		35	/* longest wait for a worker's answer to
					 * add, del, reload (it waits 30), and
					 * for a change of the supervisor's */
#define XC_SUP_READ_MS		2000	/* ... to list and show (xcablectl
					 * waits 5 s for those) */
#define XC_SUP_READY_S		20	/* a new worker's start, at most */

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
 * @metrics:	its --metrics-file, empty if none (the supervisor merges
 *		the workers' into the lab's)
 * @started_ms:	when it was last started (CLOCK_MONOTONIC)
 * @restart_ms:	when it is started again (state XC_W_WAITING)
 * @stop_ms:	when it was told to stop (state XC_W_STOPPING): SIGKILL
 *		after XC_SUP_STOP_MS
 * @one_process: the kinds keeping one process (struct xc_kind_def's
 *		one_process: the tunnels) whose cables this process ran:
 *		it may still hold what they share (a tunnel socket stays
 *		open while frames it received are out), so their next
 *		cables go there (supplace.c); cleared when its slot is
 *		free again
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
	char metrics[PATH_MAX];
	uint64_t started_ms;
	uint64_t restart_ms;
	uint64_t stop_ms;
	uint32_t one_process;
	unsigned int backoff_ms;
	unsigned int restarts;
};

/**
 * struct xc_ask - one request to a worker's control socket, carried on by
 *		   the supervisor's loop without ever waiting for it
 *		   (supworker.c)
 * @fd:		the connection, -1 once it is closed
 * @rc:		1 while under way, then 0 (answered ok), -EINVAL (refused),
 *		-ETIMEDOUT, or another -errno
 * @connected:	connect() went through
 * @sent:	bytes of @req sent
 * @deadline_ms: when it is given up (CLOCK_MONOTONIC)
 * @timeout_ms:	how long it was given, for messages
 * @sa:		the worker's control socket
 * @req:	the request line, its newline included
 * @ans:	the answer so far
 */
struct xc_ask {
	int fd;
	int rc;
	bool connected;
	size_t sent;
	uint64_t deadline_ms;
	unsigned int timeout_ms;
	struct sockaddr_un sa;
	char req[XC_CTL_LINE_MAX + 1];
	struct xc_sbuf ans;
};

/**
 * enum xc_sup_op - a change of the lab the supervisor is making
 * @XC_SUP_NONE:	none
 * @XC_SUP_ADD:		xcablectl add
 * @XC_SUP_DEL:		xcablectl del
 * @XC_SUP_RELOAD:	xcablectl reload, or SIGHUP
 */
enum xc_sup_op {
	XC_SUP_NONE,
	XC_SUP_ADD,
	XC_SUP_DEL,
	XC_SUP_RELOAD,
};

/**
 * struct xc_sup_change - the change of the lab being made: one at a time,
 *			  carried on by the supervisor's loop while its
 *			  workers answer or start (supervise.c)
 * @op:		enum xc_sup_op; XC_SUP_NONE: no change is being made
 * @job:	the client waiting for its answer, NULL for SIGHUP or once
 *		the client was given up (the change goes on)
 * @line:	the request, as xcablectl sent it ("reload" for SIGHUP)
 * @src:	who asked, for the log's rate limit (xc_ctlsrv_source())
 * @name:	add, del: the cable
 * @worker:	add, del: its worker
 * @asking:	ask[k] is under way, or ended and not looked at yet
 * @ask:	the request to worker k (add, del, reload)
 * @starting:	new workers are started, and waited for until @ready_ms
 * @fresh:	worker k was started by the change: it is waited for
 * @ready_ms:	when a new worker that does not answer yet has failed
 * @rc:		0, or the first failure
 * @why:	what was done, or the first failure
 * @n_new:	reload: the new cables, for the summary
 * @n_gone:	reload: the cables removed
 * @was:	reload: the lab before it (malloc'd, with their texts), to go
 *		back to if a worker fails its part
 * @n_was:	how many cables it had
 * @was_global:	its [global] lines
 * @emptied:	reload: worker k has no cable left: stopped once every
 *		worker did its part
 * @back:	reload: a worker failed; the others are asked to go back
 * @lost:	reload: a worker could not go back either
 */
struct xc_sup_change {
	enum xc_sup_op op;
	struct xc_ctlsrv_job *job;
	char line[XC_CTL_LINE_MAX];
	char src[XC_CTLSRV_SRC_LEN];
	char name[XC_NAME_MAX];
	unsigned int worker;
	bool asking[XC_SUP_MAX_WORKERS];
	struct xc_ask ask[XC_SUP_MAX_WORKERS];
	bool starting;
	bool fresh[XC_SUP_MAX_WORKERS];
	uint64_t ready_ms;
	int rc;
	char why[XC_ERR_LEN];
	unsigned int n_new;
	unsigned int n_gone;
	struct xc_sup_cable *was;
	unsigned int n_was;
	char *was_global;
	bool emptied[XC_SUP_MAX_WORKERS];
	bool back;
	bool lost;
};

/**
 * struct xc_sup_evup - a worker's events, listened to (suprelay.c)
 * @sup:	the supervisor
 * @fd:		the connection, -1 while there is none
 * @next_ms:	when to try again to connect (stream clock)
 * @have:	bytes of @buf not a whole line yet
 * @buf:	what came of the next line
 */
struct xc_sup_evup {
	struct xc_sup *sup;
	int fd;
	uint64_t next_ms;
	size_t have;
	char buf[2 * XC_EV_LINE];
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
 * @chg:	the change being made
 * @hup:	SIGHUP came: reload once no change is being made
 * @streams:	the clients whose answer is a stream (captures, events),
 *		served from the loop (suprelay.c); its epfd -1 if none
 * @evup:	each worker's events, listened to
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
	struct xc_sup_change chg;
	bool hup;
	struct xc_streams streams;
	struct xc_sup_evup evup[XC_SUP_MAX_WORKERS];
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
int xc_sup_find(const struct xc_sup *s, const char *name);
bool xc_sup_change(struct xc_sup *s, enum xc_sup_op op, int argc,
		   char **argv, const char *line, const char *src,
		   struct xc_ctlsrv_job *job);
bool xc_sup_change_step(struct xc_sup *s);
bool xc_sup_stopping(const struct xc_sup *s);

/* supplace.c: which worker runs which cable */
unsigned int xc_sup_def_ports(const struct xc_cable_def *d);
uint32_t xc_sup_def_portmask(const struct xc_cable_def *d);
int xc_sup_place(struct xc_sup_cable *c, unsigned int n,
		 struct xc_worker *w, unsigned int *n_w, char *why,
		 size_t whylen);

/* supworker.c: the worker processes */
void xc_sup_rundir(const char *prefix, char *buf, size_t len);
void xc_worker_paths(struct xc_sup *s, unsigned int i);
void xc_worker_file(char *buf, size_t len, const char *file, unsigned int i);
void xc_worker_text(const struct xc_sup *s, unsigned int i,
		    struct xc_sbuf *out);
int xc_worker_write(const struct xc_sup *s, unsigned int i);
int xc_worker_start(struct xc_sup *s, unsigned int i);
void xc_worker_stop(struct xc_sup *s, unsigned int i);
void xc_worker_cleanup(struct xc_sup *s, unsigned int i, bool final);
int xc_ask_start(struct xc_ask *a, const struct xc_worker *w, const char *req,
		 unsigned int timeout_ms);
int xc_ask_poll(struct xc_ask *a);
void xc_ask_end(struct xc_ask *a);
void xc_ask_why(const struct xc_ask *a, unsigned int k, char *why,
		size_t whylen);
bool xc_worker_ready(const struct xc_worker *w);
unsigned int xc_worker_cables(const struct xc_sup *s, unsigned int i);

/* suprelay.c: the workers' streams passed on (captures, events) */
int xc_suprelay_start(struct xc_sup *s);
void xc_suprelay_stop(struct xc_sup *s);
enum xc_ctlsrv_verdict xc_suprelay_begin(struct xc_sup *s,
					 struct xc_ctlsrv_job *job,
					 const struct xc_ctl_req *r,
					 const struct xc_ctl_cmd *cmd);
void xc_suprelay_adopt(void *arg, struct xc_ctlsrv_job *job, int fd);

/* supctl.c: the control socket of the supervisor */
int xc_supctl_start(struct xc_sup *s, char *err, size_t errlen);
int xc_supctl_serve(struct xc_sup *s);
void xc_supctl_stop(struct xc_sup *s);
int xc_sup_metrics_merge(const char *const *docs, unsigned int n,
			 struct xc_sbuf *out);
const char *xc_sup_cable_block(const char *list, const char *name,
			       size_t *len);
int xc_sup_json_merge(const struct xc_sup *s, const char *const *docs,
		      unsigned int n, struct xc_sbuf *out);

#endif /* XC_SUPERVISE_H */
