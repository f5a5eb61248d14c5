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
#include <sys/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_version.h>

#include "capture.h"
#include "config.h"
#include "control.h"
#include "counters.h"
#include "lcores.h"
#include "log.h"
#include "memguard.h"
#include "options.h"
#include "pull.h"
#include "runfiles.h"
#include "simple.h"
#include "sockpath.h"
#include "telemetry.h"
#include "topology.h"

#ifndef XC_VERSION
#define XC_VERSION "unknown"
#endif

#define XC_EXIT_USAGE		2
#define XC_HK_MS		100	/* housekeeping period */

RTE_LOG_REGISTER(xc_logtype_main, xcable.main, INFO);

/**
 * struct xc_ctx - everything xcable runs on, passed explicitly
 * @opts:	parsed options
 * @simple:	xcable builds the EAL arguments (simple mode or --config)
 * @n_defs:	number of cable definitions (0 in DPDK mode)
 * @defs:	cables declared by --left/--right or the config file
 * @sock_gid:	group of the sockets xcable creates, -1 to leave it
 * @sock_uid:	owner of the sockets xcable creates, -1 to leave it
 * @end_gid:	the group for each end of @defs, resolved once at start-up
 * @end_uid:	the same for the owner
 * @topo:	ports and cables
 * @lcores:	the forwarding lcores, and the quit flag
 * @next_stats:	TSC value at which the counters are printed next
 * @rf:		files the EAL leaves behind, removed at exit
 * @ctl:	the control socket
 * @pull:	cable pulling and link propagation
 * @mg:		protection from the vhost library's guest memory faults
 * @hk_ticks:	housekeeping rounds so far
 * @eal:	the EAL runs (cleanup must stop it)
 * @capture:	captures are served (cleanup must stop them)
 */
struct xc_ctx {
	struct xc_opts opts;
	bool simple;
	unsigned int n_defs;
	struct xc_cable_def defs[XC_MAX_CABLES];
	int sock_gid;
	int sock_uid;
	int end_gid[XC_MAX_CABLES][2];
	int end_uid[XC_MAX_CABLES][2];
	struct xc_topo topo;
	struct xc_lcores lcores;
	uint64_t next_stats;
	struct xc_runfiles rf;
	struct xc_control ctl;
	struct xc_pull_env pull;
	struct xc_memguard mg;
	uint64_t hk_ticks;
	bool eal;
	bool capture;
};

/* the one piece of state a signal handler cannot be given as an argument */
static volatile bool *xc_quit_flag;

/**
 * on_signal() - SIGINT/SIGTERM handler: ask every loop to stop
 * @sig:	signal number
 */
static void on_signal(int sig)
{
	(void)sig;
	if (xc_quit_flag)
		*xc_quit_flag = true;
}

/**
 * die_usage() - print a one-line error and exit with status 2, before the
 *		 EAL runs
 * @fmt:	printf format
 */
__attribute__((format(printf, 1, 2), noreturn))
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("xcable: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(XC_EXIT_USAGE);
}

/**
 * housekeeping() - periodic work of the main lcore: counters, link
 *		    polling for ports without link events, the guards,
 *		    cable pulling and the memory guard
 * @arg:	struct xc_ctx
 */
static void housekeeping(void *arg)
{
	struct xc_ctx *ctx = arg;
	unsigned int i;

	for (i = 0; i < ctx->topo.n_ports; i++)
		xc_port_poll(&ctx->topo.ports[i]);
	xc_pull_housekeeping(&ctx->pull);
	if (++ctx->hk_ticks % (1000 / XC_HK_MS) == 0)
		xc_memguard_scan(&ctx->mg);
	if (ctx->opts.stats_interval && rte_rdtsc() >= ctx->next_stats) {
		xc_counters_print(ctx->topo.cables, ctx->topo.n_cables, false,
				  ctx->opts.stats_json);
		ctx->next_stats = rte_rdtsc() +
			rte_get_tsc_hz() * ctx->opts.stats_interval;
	}
}

/**
 * parse_cmdline() - split and parse the command line, exiting on a usage
 *		     error, and build the EAL argv
 * @ctx:	context, whose options are filled
 * @argc:	argument count
 * @argv:	argument vector
 * @ea:		the EAL argv to use
 */
static void parse_cmdline(struct xc_ctx *ctx, int argc, char **argv,
			  struct xc_eal_argv *ea)
{
	struct xc_argsplit s;
	struct xc_host host;
	char err[XC_ERR_LEN];
	int i, j;

	if (xc_args_split(argc, argv, &s, err, sizeof(err)) ||
	    xc_opts_parse(&ctx->opts, s.app_argc, s.app_argv, err,
			  sizeof(err)))
		die_usage("%s", err);
	if (ctx->opts.help) {
		xc_opts_usage(argv[0]);
		exit(0);
	}
	if (ctx->opts.version) {
		printf("xcable %s (%s)\n", XC_VERSION, rte_version());
		exit(0);
	}
	if (ctx->opts.config) {
		if (xc_config_load(ctx->opts.config, &ctx->opts, ctx->defs,
				   &ctx->n_defs, err, sizeof(err)))
			die_usage("%s", err);
	} else if (xc_opts_simple(&ctx->opts)) {
		xc_opts_simple_defs(&ctx->opts, &ctx->defs[0]);
		ctx->n_defs = 1;
	}
	ctx->simple = ctx->n_defs > 0;
	if (!ctx->simple && !s.has_sep && !s.eal_only)
		die_usage("nothing to connect: give --left SOCK --right SOCK, --config FILE, or EAL options and ports (see --help)");
	if (!ctx->simple && ctx->opts.n_log_levels)
		die_usage("--log-level is an EAL option here: put it before '--'");

	if (xc_sock_ids(ctx->opts.sock_owner, ctx->opts.sock_group,
			&ctx->sock_uid, &ctx->sock_gid, err, sizeof(err)))
		die_usage("%s", err);
	if (!ctx->simple) {
		if (s.eal_argc > XC_SIMPLE_MAX_ARGS)
			die_usage("too many EAL arguments (at most %d)",
				  XC_SIMPLE_MAX_ARGS - 1);
		ea->argc = s.eal_argc;
		for (i = 0; i < s.eal_argc; i++)
			ea->argv[i] = argv[i];
		ea->argv[s.eal_argc] = NULL;
		return;
	}
	for (i = 0; i < (int)ctx->n_defs; i++) {
		for (j = 0; j < 2; j++) {
			const struct xc_end_def *e = &ctx->defs[i].end[j];

			if (e->port >= 0)
				continue;
			if (xc_sock_ids(e->sock_owner, e->sock_group,
					&ctx->end_uid[i][j], &ctx->end_gid[i][j],
					err, sizeof(err)))
				die_usage("cable %s: %s", ctx->defs[i].name,
					  err);
			if (xc_sock_prepare(e->path, e->client, err,
					    sizeof(err)))
				die_usage("%s", err);
		}
	}
	xc_host_probe(&host);
	if (xc_simple_eal_args(ea, argv[0], s.eal_argc - 1, argv + 1,
			       &ctx->opts, ctx->defs, ctx->n_defs, &host))
		die_usage("too many EAL arguments");
	fprintf(stderr, "xcable: %s, EAL arguments:",
		ctx->opts.config ? "config mode" : "simple mode");
	for (i = 1; i < ea->argc; i++)
		fprintf(stderr, " %s", ea->argv[i]);
	fprintf(stderr, "\n");
	if (ea->note[0])
		fprintf(stderr, "xcable: %s\n", ea->note);
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

	if ((size_t)snprintf(c->path, sizeof(c->path), "%s",
			     ctx->opts.control ? ctx->opts.control :
			     ctx->rf.dir) >= sizeof(c->path) ||
	    (!ctx->opts.control &&
	     strlen(c->path) + strlen("/xcable.ctl") >= sizeof(c->path))) {
		XC_LOG(main, WARNING, "no control socket: path too long");
		c->fd = -1;
		return;
	}
	if (!ctx->opts.control)
		strcat(c->path, "/xcable.ctl");
	c->mode = ctx->opts.sock_mode;
	c->uid = ctx->sock_uid;
	c->gid = ctx->sock_gid;
	c->cables = ctx->topo.cables;
	c->n_cables = ctx->topo.n_cables;
	if (xc_control_start(c, err, sizeof(err)))
		XC_LOG(main, WARNING, "no runtime control: %s", err);
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
	unsigned int i;

	xc_control_stop(&ctx->ctl);
	xc_capture_fini(ctx->capture);
	if (counters) {
		xc_topo_drain(&ctx->topo);
		xc_counters_print(ctx->topo.cables, ctx->topo.n_cables, true,
				  ctx->opts.stats_json);
		for (i = 0; i < RTE_MAX_LCORE; i++)
			if (ctx->lcores.lc[i].n_dirs)
				printf("xcable: lcore %u slept %" PRIu64 " times\n",
				       i, ctx->lcores.lc[i].idle.sleeps);
		fflush(stdout);
	}
	xc_topo_free(&ctx->topo);
	xc_lcores_fini(&ctx->lcores);
	if (ctx->eal)
		rte_eal_cleanup();
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
		die_usage("cannot start DPDK's EAL: %s (check the EAL options)",
			  rte_strerror(rte_errno));
	ctx->eal = true;
	xc_runfiles_note(&ctx->rf);
	if (xc_memguard_init(&ctx->mg, ctx->rf.dir, ctx->rf.prefix))
		XC_LOG(main, WARNING, "no SIGBUS guard: %s", strerror(errno));
	xc_quit_flag = &ctx->lcores.quit;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	t->opts = &ctx->opts;
	t->defs = ctx->defs;
	t->n_defs = ctx->n_defs;
	t->sock_uid = ctx->sock_uid;
	t->sock_gid = ctx->sock_gid;
	t->end_uid = (const int (*)[2])ctx->end_uid;
	t->end_gid = (const int (*)[2])ctx->end_gid;
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
	rc = xc_lcores_assign(&ctx->lcores, t, ctx->opts.poll,
			      ctx->opts.idle_us, err, sizeof(err));
	if (rc)
		fail(ctx, rc, err);
	ctx->pull.cables = t->cables;
	ctx->pull.n_cables = t->n_cables;
	ctx->pull.propagate = !ctx->opts.no_propagate;
	xc_lcores_wire(&ctx->lcores, t, &ctx->pull);
	xc_telemetry_init(t->cables, t->n_cables);
	ctx->capture = xc_capture_init(t->cables, t->n_cables);
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
	parse_cmdline(ctx, argc, argv, &ea);

	/* a peer that hangs up (a vhost-user frontend, an xcablectl or
	 * telemetry client) must cost a failed write, not the process: the
	 * default action of SIGPIPE would end xcable and every cable in it */
	signal(SIGPIPE, SIG_IGN);
	start(ctx, &ea);
	XC_LOG(main, INFO, "running; stop with Ctrl-C or SIGTERM");
	ctx->next_stats = rte_rdtsc() +
		rte_get_tsc_hz() * ctx->opts.stats_interval;
	xc_lcores_run(&ctx->lcores);
	XC_LOG(main, INFO, "stopping");
	stop_all(ctx, true);
	free(ctx);
	return 0;
}
