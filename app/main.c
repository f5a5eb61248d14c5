/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - xcable: a vhost-user cross cable between two VMs
 *
 * Start-up order matters: options are checked and socket paths probed
 * before the EAL starts, so that usage errors come out as one line with
 * exit status 2 and nothing is left behind. Then the topology is built
 * (ports, ends, cables: topology.c) and started (the vhost sockets
 * appear), the directions placed on lcores and wired (lcores.c), and the
 * lcores launched. The main lcore keeps house: counters, link polling,
 * cable pulling. On SIGINT/SIGTERM, or on any error once the EAL runs,
 * everything is undone by the same path (stop_all()); an error in what
 * the user wrote exits 2, any other failure 1, a clean stop 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "cmdline.h"
#include "control.h"
#include "counters.h"
#include "lcores.h"
#include "logrl.h"
#include "log.h"
#include "memguard.h"
#include "migrate.h"
#include "notify.h"
#include "pdump.h"
#include "pull.h"
#include "reconf.h"
#include "runfiles.h"
#include "sockrec.h"
#include "supervise.h"
#include "telemetry.h"
#include "topology.h"
#include "watchdog.h"

#define XC_HK_MS		100	/* housekeeping period, while busy */
/* ... and when nothing is going on (no mbuf in use, no link to poll);
 * requests, signals, link events, second frontends and traffic wake it
 * sooner. Every 2 s for the memory guard, whose scans nothing else can
 * trigger (a refused memory table sends no event), so that a leaked fd is
 * closed within 4 s: about 80 us of CPU a wake; 500 cables: 32 workers */
#define XC_HK_IDLE_MS		2000

RTE_LOG_REGISTER(xc_logtype_main, xcable.main, INFO);

/**
 * struct xc_ctx - everything xcable runs on, passed explicitly
 * @cl:		what the command line (and config file) said
 * @topo:	ports and cables
 * @lcores:	the forwarding lcores, and the quit flag
 * @out:	where and when the counters go (counters.c)
 * @rf:		files the EAL leaves behind, removed at exit
 * @ctl:	the control socket
 * @pull:	cable pulling and link propagation
 * @mg:		protection from the vhost library's guest memory faults
 * @next_mg:	TSC of the memory guard's next scan
 * @eal:	the EAL runs (cleanup must stop it)
 * @capture:	captures are served (cleanup must stop them)
 * @reconf:	cables added and removed at runtime
 * @mig:	cables' guests moving to another QEMU (xcablectl migrate)
 */
struct xc_ctx {
	struct xc_cmdline cl;
	struct xc_topo topo;
	struct xc_lcores lcores;
	struct xc_counters_out out;
	struct xc_runfiles rf;
	struct xc_control ctl;
	struct xc_pull_env pull;
	struct xc_memguard mg;
	uint64_t next_mg;
	bool eal;
	bool capture;
	struct xc_reconf reconf;
	struct xc_migrate mig;
};

/* the state a signal handler cannot be given as an argument */
static volatile bool *xc_quit_flag;
static volatile bool *xc_hup_flag;
static const struct xc_idle *xc_main_idle;	/* set once lcores exist */

/**
 * wake_main() - end the main thread's sleep (write() to an eventfd is
 *		 async-signal-safe); the signal may have gone to another
 *		 thread, and an idle main thread sleeps for seconds
 */
static void wake_main(void)
{
	const struct xc_idle *s = __atomic_load_n(&xc_main_idle,
						  __ATOMIC_ACQUIRE);

	if (s)
		xc_idle_wake(s);
}

/**
 * on_signal() - SIGINT/SIGTERM handler: ask every loop to stop
 * @sig:	signal number
 */
static void on_signal(int sig)
{
	(void)sig;
	if (xc_quit_flag)
		*xc_quit_flag = true;
	wake_main();
}

/**
 * on_hup() - SIGHUP handler: a daemon's "read your config again", which a
 *	      closing terminal sends too; never the end of xcable
 * @sig:	signal number
 */
static void on_hup(int sig)
{
	(void)sig;
	if (xc_hup_flag)
		*xc_hup_flag = true;
	wake_main();
}

/**
 * housekeeping() - periodic work of the main lcore: counters, link
 *		    polling for ports without link events and for ends that
 *		    follow a kernel interface, the guards, pulling, moves
 * @arg:	struct xc_ctx
 *
 * Return: milliseconds until it wants to run again: XC_HK_MS while a
 *	   port's link is polled or a pool has mbufs in use (it may need to
 *	   grow), else XC_HK_IDLE_MS; less if pulling wants it sooner (an
 *	   end that went down is waited for, a flap's next change is due),
 *	   a guest moves, or counters or metrics are due sooner
 */
static unsigned int housekeeping(void *arg)
{
	struct xc_ctx *ctx = arg;
	uint64_t hz = rte_get_tsc_hz();
	unsigned int i, ms, pull_ms;
	bool soon = false;

	for (i = 0; i < ctx->topo.n_ports; i++) {
		xc_port_poll(&ctx->topo.ports[i]);
		soon |= ctx->topo.ports[i].started && !ctx->topo.ports[i].lsc;
	}
	xc_port_wake_poll(ctx->topo.wake_set);
	soon |= xc_ends_poll(ctx->topo.cables, ctx->topo.n_cables);
	xc_reconf_housekeeping(&ctx->reconf);
	pull_ms = RTE_MIN(xc_pull_housekeeping(&ctx->pull),	/* after new cables */
			  xc_migrate_housekeeping(&ctx->mig));
	soon |= xc_topo_pools(&ctx->topo);
	xc_logrl_tick();
	if (rte_rdtsc() >= ctx->next_mg) {
		xc_memguard_scan(&ctx->mg);
		ctx->next_mg = rte_rdtsc() + hz;
	}
	ms = RTE_MIN(soon ? (unsigned int)XC_HK_MS : (unsigned int)XC_HK_IDLE_MS,
		     pull_ms);
	return RTE_MIN(ms, xc_counters_tick(&ctx->out, ctx->topo.cables,
					    ctx->topo.n_cables,
					    &ctx->topo.gone, false));
}

/**
 * start_control() - open the control socket for xcablectl; without it
 *		     xcable still runs, and says why
 * @ctx:	context with cables started
 */
static void start_control(struct xc_ctx *ctx)
{
	struct xc_control *c = &ctx->ctl;
	char err[XC_ERR_LEN];

	if (xc_control_path(c, ctx->cl.opts.control, ctx->rf.dir)) {
		XC_LOG(main, WARNING, "no control socket: path too long");
		return;
	}
	c->mode = ctx->cl.opts.sock_mode;
	c->uid = ctx->cl.sock_uid;
	c->gid = ctx->cl.sock_gid;
	c->cables = ctx->topo.cables;
	c->n_cables = XC_MAX_CABLES;	/* the slots: cables come and go */
	c->gone = &ctx->topo.gone;
	c->lock = &ctx->reconf.lock;
	c->change_post = xc_reconf_post;
	c->change_result = xc_reconf_result;
	c->change_arg = &ctx->reconf;
	c->wake = xc_lcores_wake;
	c->wake_arg = &ctx->lcores;
	c->caps.mark = xc_lcores_mark;	/* a capture's taps are freed once */
	c->caps.past = xc_lcores_past;	/* no lcore holds them */
	c->caps.lc_arg = &ctx->lcores;
	if (xc_control_start(c, err, sizeof(err)))
		XC_LOG(main, WARNING, "no runtime control: %s", err);
	else if (ctx->cl.opts.control)
		XC_LOG(main, INFO, "control: xcablectl -s %s", c->path);
	else
		XC_LOG(main, INFO, "control: xcablectl -s %s (or -p %s)",
		       c->path, ctx->rf.prefix);
}

/**
 * stop_all() - undo everything, from wherever start-up got to: stop the
 *		control socket and captures, drop what is held and what
 *		the guests still have queued (counted as shutdown), print
 *		the final counters, close every port, stop the EAL, remove
 *		its files
 * @ctx:	context (lcores stopped)
 * @counters:	print the final counters (the cables ran)
 */
static void stop_all(struct xc_ctx *ctx, bool counters)
{
	xc_watchdog_arm(XC_STOP_WATCHDOG_S);	/* what follows may hang */
	xc_control_stop(&ctx->ctl);
	if (counters) {
		/* faults caught since the last housekeeping are said too */
		xc_memguard_scan(&ctx->mg);
		xc_topo_drain(&ctx->topo);
		xc_counters_tick(&ctx->out, ctx->topo.cables,
				 ctx->topo.n_cables, &ctx->topo.gone, true);
		xc_lcores_report(&ctx->lcores);
	}
	xc_pdump_fini(ctx->capture);	/* after the counters: it may hang */
	xc_topo_free(&ctx->topo);
	xc_reconf_fini(&ctx->reconf);
	/* its fds close now: no handler may write to them any more */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	__atomic_store_n(&xc_main_idle, NULL, __ATOMIC_RELEASE);
	xc_lcores_fini(&ctx->lcores);
	xc_logrl_fini();
	if (ctx->eal)
		rte_eal_cleanup();
	xc_sockrec_close(false);	/* the run directory goes, it with it */
	xc_runfiles_remove(&ctx->rf);
}

/**
 * fail() - once the EAL runs: print a one-line error, undo everything and
 *	    exit, with status 2 for an error in what the user wrote
 *	    (-EINVAL and the socket path errors), 1 for any other failure
 * @ctx:	context
 * @rc:		-errno
 * @err:	the message
 */
__attribute__((noreturn))
static void fail(struct xc_ctx *ctx, int rc, const char *err)
{
	bool usage = rc == -EINVAL || rc == -EADDRINUSE || rc == -EEXIST ||
		     rc == -ENAMETOOLONG || rc == -ENOENT || rc == -ENOTDIR ||
		     rc == -EACCES;

	fprintf(stderr, "xcable: %s\n", err);
	stop_all(ctx, false);
	free(ctx);
	exit(usage ? XC_EXIT_USAGE : EXIT_FAILURE);
}

/**
 * start_reconf() - let cables be added and removed at runtime: by
 *		    xcablectl, and by SIGHUP, which reads the config again
 * @ctx:	context with cables wired to lcores
 */
static void start_reconf(struct xc_ctx *ctx)
{
	struct xc_reconf *r = &ctx->reconf;

	r->t = &ctx->topo;
	r->l = &ctx->lcores;
	r->pull = &ctx->pull;
	r->defs = ctx->cl.defs;
	r->opts = &ctx->cl.opts;
	r->config = ctx->cl.opts.config;
	pthread_rwlock_init(&r->lock, NULL);
	xc_hup_flag = &r->hup;
	xc_migrate_init(&ctx->mig, r);
}

/**
 * start() - bring the EAL, the ports and cables, telemetry, capture and the
 *	     control socket up; exits through fail() on error
 * @ctx:	context, options parsed
 * @ea:		EAL arguments
 */
static void start(struct xc_ctx *ctx, struct xc_eal_argv *ea)
{
	struct xc_topo *t = &ctx->topo;
	char err[XC_ERR_LEN];
	unsigned int i;
	int rc;

	if (rte_eal_init(ea->argc, ea->argv) < 0)
		xc_die_usage("cannot start DPDK's EAL: %s (check the EAL options)",
			  rte_strerror(rte_errno));
	ctx->eal = true;
	rc = xc_logrl_init();
	if (rc)
		XC_LOG(main, WARNING, "the log is not rate-limited: %s",
		       strerror(-rc));
	xc_runfiles_note(&ctx->rf);
	/* from here on the sockets it binds are recorded: those a crash
	 * leaves can be proven xcable's by the next start */
	rc = xc_sockrec_open(ctx->rf.dir);
	if (rc)
		XC_LOG(main, WARNING, "the sockets it binds are not recorded in %s (%s): those a crash leaves are not removed by the next start",
		       ctx->rf.dir, strerror(-rc));
	if (xc_memguard_init(&ctx->mg, ctx->rf.dir, ctx->rf.prefix))
		XC_LOG(main, WARNING, "no SIGBUS guard: %s", strerror(errno));
	xc_quit_flag = &ctx->lcores.quit;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_hup);	/* ignored until cables can be changed */

	t->opts = &ctx->cl.opts;
	t->defs = ctx->cl.defs;
	t->n_defs = ctx->cl.n_defs;
	t->sock_uid = ctx->cl.sock_uid;
	t->sock_gid = ctx->cl.sock_gid;
	if ((rc = xc_topo_build(t, err, sizeof(err))) ||
	    (rc = xc_topo_start(t, err, sizeof(err))))
		fail(ctx, rc, err);
	for (i = 0; i < t->n_cables; i++)
		XC_LOG(main, INFO, "%s: %s (%s) <-> %s (%s)", t->cables[i].name,
		       t->cables[i].end[0].label,
		       xc_end_where(&t->cables[i].end[0]),
		       t->cables[i].end[1].label,
		       xc_end_where(&t->cables[i].end[1]));
	ctx->lcores.hk = housekeeping;
	ctx->lcores.hk_arg = ctx;
	ctx->lcores.hk_ms = XC_HK_MS;
	ctx->lcores.hk_fd = t->wake_set;
	rc = xc_lcores_assign(&ctx->lcores, t, ctx->cl.opts.poll,
			      ctx->cl.opts.idle_us, err, sizeof(err));
	if (rc)
		fail(ctx, rc, err);
	ctx->pull.cables = t->cables;
	ctx->pull.n_cables = t->n_cables;
	ctx->pull.propagate = !ctx->cl.opts.no_propagate;
	xc_lcores_wire(&ctx->lcores, t, &ctx->pull);
	__atomic_store_n(&xc_main_idle,
			 &ctx->lcores.lc[rte_get_main_lcore()].idle,
			 __ATOMIC_RELEASE);
	start_reconf(ctx);
	xc_telemetry_lock(&ctx->reconf.lock);
	xc_telemetry_init(t->cables, XC_MAX_CABLES);
	ctx->capture = xc_pdump_init(t->cables, t->n_cables);
	start_control(ctx);
}

int main(int argc, char **argv)
{
	static struct xc_eal_argv ea;
	struct xc_ctx *ctx;

	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL) {
		fprintf(stderr, "xcable: out of memory\n");
		return EXIT_FAILURE;
	}
	ctx->ctl.fd = -1;
	ctx->topo.wake_set = -1;
	xc_cmdline_parse(&ctx->cl, argc, argv, &ea);

	/* a peer that hangs up (a vhost-user frontend, an xcablectl or
	 * telemetry client) must cost a failed write, not the process: the
	 * default action of SIGPIPE would end xcable and every cable in it */
	signal(SIGPIPE, SIG_IGN);
	if (ctx->cl.supervise) {
		int rc = xc_sup_run(&ctx->cl, argc, argv);

		free(ctx);
		return rc;
	}
	start(ctx, &ea);
	XC_LOG(main, INFO, "running; stop with Ctrl-C or SIGTERM");
	xc_notify("READY=1\nSTATUS=forwarding");
	ctx->out = (struct xc_counters_out){
		.interval_s = ctx->cl.opts.stats_interval,
		.json_path = ctx->cl.opts.stats_json,
		.metrics_path = ctx->cl.opts.metrics_file,
		.next_print = rte_rdtsc() +
			      rte_get_tsc_hz() * ctx->cl.opts.stats_interval };
	xc_lcores_run(&ctx->lcores);
	XC_LOG(main, INFO, "stopping");
	xc_notify("STOPPING=1");
	stop_all(ctx, true);
	free(ctx);
	return 0;
}
