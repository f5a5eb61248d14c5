/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - xcable: a vhost-user cross cable between two VMs
 *
 * Start-up order matters: options are checked and socket paths probed
 * before the EAL starts, so that usage errors come out as one line with
 * exit status 2 and nothing is left behind. Then ports are described,
 * paired into cables, configured (which creates the vhost sockets),
 * started, and the forwarding lcores launched. The main lcore keeps house:
 * counters, link polling, signals. On SIGINT/SIGTERM everything is undone
 * in reverse and the final counters printed.
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

#include "cable.h"
#include "capture.h"
#include "config.h"
#include "control.h"
#include "counters.h"
#include "fwd.h"
#include "log.h"
#include "memguard.h"
#include "options.h"
#include "ports.h"
#include "pull.h"
#include "runfiles.h"
#include "simple.h"
#include "sockpath.h"
#include "telemetry.h"

#ifndef XC_VERSION
#define XC_VERSION "unknown"
#endif

#define XC_EXIT_USAGE		2
#define XC_POOL_MBUFS		8191
#define XC_POOL_CACHE		256
#define XC_HK_MS		100

RTE_LOG_REGISTER(xc_logtype_main, xcable.main, INFO);

/**
 * struct xc_ctx - everything xcable runs on, passed explicitly
 * @opts:	parsed options
 * @simple:	xcable builds the EAL arguments (simple mode or --config)
 * @n_defs:	number of cable definitions (0 in DPDK mode)
 * @defs:	cables declared by --left/--right or the config file
 * @n_ports:	number of ports in @ports
 * @ports:	all ethdev ports, indexed by port id
 * @n_cables:	number of cables
 * @cables:	the cables
 * @lcores:	per-lcore forwarding work, indexed by lcore id
 * @quit:	set by the signal handler
 * @next_stats:	TSC value at which the counters are printed next
 * @sock_gid:	group of the sockets xcable creates, -1 to leave it
 * @sock_uid:	owner of the sockets xcable creates, -1 to leave it
 * @end_gid:	the group for each end of @defs, resolved once at start-up
 * @end_uid:	the same for the owner
 * @rf:		files the EAL leaves behind, removed at exit
 * @ctl:	the control socket
 * @pull:	cable pulling and link propagation
 * @n_members:	cable ends on trunks
 * @members:	those ends (each a member of a trunk in @trunk_of)
 * @trunk_of:	for each port id, the trunk it is, or NULL
 * @mg:		protection from the vhost library's guest memory faults
 * @hk_ticks:	housekeeping rounds so far
 */
struct xc_ctx {
	struct xc_opts opts;
	bool simple;
	unsigned int n_defs;
	struct xc_cable_def defs[XC_MAX_CABLES];
	uint16_t n_ports;
	struct xc_port *ports;
	unsigned int n_cables;
	struct xc_cable cables[XC_MAX_CABLES];
	struct xc_fwd_lcore lcores[RTE_MAX_LCORE];
	volatile bool quit;
	uint64_t next_stats;
	int sock_gid;
	int sock_uid;
	int end_gid[XC_MAX_CABLES][2];
	int end_uid[XC_MAX_CABLES][2];
	struct xc_runfiles rf;
	struct xc_control ctl;
	struct xc_pull_env pull;
	unsigned int n_members;
	struct xc_port members[2 * XC_MAX_CABLES];
	struct xc_trunk *trunk_of[RTE_MAX_ETHPORTS];
	struct xc_memguard mg;
	uint64_t hk_ticks;
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
 * die_usage() - print a one-line error and exit with status 2
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
 * die_eal() - like die_usage(), once the EAL runs: close what was opened
 *	       and remove the EAL's files first
 * @ctx:	context
 * @fmt:	printf format
 */
__attribute__((format(printf, 2, 3), noreturn))
static void die_eal(struct xc_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	uint16_t i;

	fputs("xcable: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	for (i = 0; ctx->ports && i < ctx->n_ports; i++)
		if (ctx->ports[i].configured)
			xc_port_close(&ctx->ports[i]);
	rte_eal_cleanup();
	xc_runfiles_remove(&ctx->rf);
	exit(XC_EXIT_USAGE);
}

/**
 * housekeeping() - periodic work of the main lcore: counters and link
 *		    polling for ports without link events
 * @arg:	struct xc_ctx
 */
static void housekeeping(void *arg)
{
	struct xc_ctx *ctx = arg;
	unsigned int i;

	for (i = 0; i < ctx->n_cables; i++) {
		xc_port_poll_link(ctx->cables[i].end[0]);
		xc_port_poll_link(ctx->cables[i].end[1]);
	}
	xc_pull_housekeeping(&ctx->pull);
	if (++ctx->hk_ticks % (1000 / XC_HK_MS) == 0)
		xc_memguard_scan(&ctx->mg);
	if (ctx->opts.stats_interval && rte_rdtsc() >= ctx->next_stats) {
		xc_counters_print(ctx->cables, ctx->n_cables, false,
				  ctx->opts.stats_json);
		ctx->next_stats = rte_rdtsc() +
			rte_get_tsc_hz() * ctx->opts.stats_interval;
	}
}

/**
 * wake_lcores() - cut every forwarding lcore's sleep short
 * @arg:	struct xc_ctx
 *
 * Called from the event thread when a port changes, and at quit.
 */
static void wake_lcores(void *arg)
{
	struct xc_ctx *ctx = arg;
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
		if (ctx->lcores[lcore].n_dirs)
			xc_idle_wake(&ctx->lcores[lcore].idle);
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

	xc_args_split(argc, argv, &s);
	if (!s.has_sep) {
		/* no "--": everything is an xcable option */
		s.app_argc = argc - 1;
		s.app_argv = argv + 1;
		s.eal_argc = 1;
	}
	if (xc_opts_parse(&ctx->opts, s.app_argc, s.app_argv, err,
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
	if (!ctx->simple && !s.has_sep)
		die_usage("nothing to connect: give --left SOCK --right SOCK, --config FILE, or EAL options and ports before '--' (see --help)");
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
}

/**
 * set_dirs() - set up a cable's directions, two per queue pair, named
 *		after its ends
 * @c:		cable with both ends and n_queues set
 */
static void set_dirs(struct xc_cable *c)
{
	unsigned int j, q;

	for (q = 0; q < c->n_queues; q++) {
		for (j = 0; j < 2; j++) {
			struct xc_dir *d = &c->dir[2 * q + j];

			d->rx = c->end[j];
			d->tx = c->end[1 - j];
			d->rxq = d->txq = d->cur_txq = (uint16_t)q;
			d->paused = &c->paused;
			snprintf(d->label, sizeof(d->label), "%s->%s",
				 d->rx->label, d->tx->label);
		}
	}
}

/**
 * port_end() - the cable end a [port NAME] gives: the port itself, or, for
 *		a tagged end, a member of the trunk that port becomes
 * @ctx:	context with ports described
 * @c:		cable (for messages)
 * @e:		the end's definition
 *
 * Return: the end; exits with a message on error
 */
static struct xc_port *port_end(struct xc_ctx *ctx, const struct xc_cable *c,
				const struct xc_end_def *e)
{
	const struct xc_port_def *pd = &ctx->opts.port_defs[e->port];
	char name[RTE_ETH_NAME_MAX_LEN];
	struct xc_trunk *t;
	struct xc_port *m;
	uint16_t id;
	int rc;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(pd->devargs, ","),
		 pd->devargs);
	if (rte_eth_dev_get_port_by_name(name, &id) != 0 || id >= ctx->n_ports)
		die_eal(ctx, "port %s: no device %s (write PCI addresses in full, e.g. 0000:03:00.0)",
			pd->name, name);
	snprintf(ctx->ports[id].label, sizeof(ctx->ports[id].label), "%s",
		 pd->name);
	ctx->ports[id].mtu = pd->mtu;
	if (ctx->ports[id].is_vhost)
		die_eal(ctx, "port %s: a vhost port is declared by its socket",
			pd->name);
	if (e->tag == 0)
		return &ctx->ports[id];
	t = ctx->trunk_of[id];
	if (t == NULL) {
		t = calloc(1, sizeof(*t));
		if (t == NULL)
			rte_exit(EXIT_FAILURE, "out of memory\n");
		t->port = &ctx->ports[id];
		t->tpid = pd->tpid;
		ctx->ports[id].carries = t;
		ctx->trunk_of[id] = t;
	}
	m = &ctx->members[ctx->n_members++];
	memset(m, 0, sizeof(*m));
	snprintf(name, sizeof(name), "%s.%u", pd->name, e->tag);
	memcpy(m->name, name, sizeof(m->name));
	m->lsc = true;	/* its trunk port tells it */
	rc = xc_trunk_add(t, m, e->tag);
	if (rc)
		die_eal(ctx, "cable %s: port %s, tag %u: %s", c->name, pd->name,
			e->tag, rc == -ENOSPC ? "too many cables on one trunk (64)" :
			"tag used twice");
	return m;
}

/**
 * build_cables_from_defs() - cables of the simple mode or the config file:
 *			      each end is the vhost port serving its socket
 * @ctx:	context with ports described
 */
static void build_cables_from_defs(struct xc_ctx *ctx)
{
	unsigned int i, j;
	uint16_t k;

	ctx->n_cables = ctx->n_defs;
	for (i = 0; i < ctx->n_defs; i++) {
		struct xc_cable *c = &ctx->cables[i];

		RTE_BUILD_BUG_ON(sizeof(c->name) < XC_NAME_MAX);
		memcpy(c->name, ctx->defs[i].name, XC_NAME_MAX);
		for (j = 0; j < 2; j++) {
			const struct xc_end_def *e = &ctx->defs[i].end[j];

			if (e->port >= 0) {
				c->end[j] = port_end(ctx, c, e);
				snprintf(c->end[j]->label,
					 sizeof(c->end[j]->label), "%s",
					 j ? "right" : "left");
				continue;
			}
			c->end[j] = NULL;
			for (k = 0; k < ctx->n_ports; k++)
				if (ctx->ports[k].is_vhost &&
				    strcmp(ctx->ports[k].iface, e->path) == 0)
					c->end[j] = &ctx->ports[k];
			if (c->end[j] == NULL)
				die_eal(ctx, "cable %s: no port serves %s", c->name,
					  e->path);
			snprintf(c->end[j]->label, sizeof(c->end[j]->label),
				 "%s", j ? "right" : "left");
			c->end[j]->sock_mode = e->sock_mode;
			c->end[j]->sock_gid = ctx->end_gid[i][j];
			c->end[j]->sock_uid = ctx->end_uid[i][j];
			c->end[j]->offloads = e->offloads;
			c->end[j]->n_queues = (uint16_t)e->queues;
		}
		c->n_queues = ctx->defs[i].end[0].queues;
		set_dirs(c);
	}
}

/**
 * build_cables() - pair ports into cables, from --cable or in order
 * @ctx:	context with ports described
 */
static void build_cables(struct xc_ctx *ctx)
{
	const struct xc_opts *o = &ctx->opts;
	bool used[RTE_MAX_ETHPORTS] = { false };
	unsigned int i, j;

	if (ctx->n_defs) {
		build_cables_from_defs(ctx);
		return;
	}
	if (o->n_cables == 0) {
		if (ctx->n_ports % 2)
			die_eal(ctx, "%u ports cannot be paired: give an even number of ports, or name the pairs with --cable A:B",
				  ctx->n_ports);
		if (ctx->n_ports / 2 > XC_MAX_CABLES)
			die_eal(ctx, "%u ports make more than %d cables",
				  ctx->n_ports, XC_MAX_CABLES);
		ctx->n_cables = ctx->n_ports / 2;
	} else {
		ctx->n_cables = o->n_cables;
	}

	for (i = 0; i < ctx->n_cables; i++) {
		struct xc_cable *c = &ctx->cables[i];
		uint16_t p[2] = { (uint16_t)(2 * i), (uint16_t)(2 * i + 1) };

		if (o->n_cables) {
			p[0] = o->cables[i].port[0];
			p[1] = o->cables[i].port[1];
		}
		for (j = 0; j < 2; j++) {
			if (p[j] >= ctx->n_ports)
				die_eal(ctx, "--cable %u:%u: there is no port %u (ports are 0 to %d)",
					  p[0], p[1], p[j], ctx->n_ports - 1);
			if (used[p[j]])
				die_eal(ctx, "port %u is an end of two cables",
					  p[j]);
			used[p[j]] = true;
			c->end[j] = &ctx->ports[p[j]];
			c->end[j]->offloads = o->offloads;
		}
		snprintf(c->name, sizeof(c->name), "cable%u", i);
		c->n_queues = RTE_MIN(c->end[0]->n_queues, c->end[1]->n_queues);
		if (c->end[0]->n_queues != c->end[1]->n_queues)
			XC_LOG(main, WARNING,
			       "%s: ports %u and %u have %u and %u queues; %u are used",
			       c->name, p[0], p[1], c->end[0]->n_queues,
			       c->end[1]->n_queues, c->n_queues);
		set_dirs(c);
	}
	for (i = 0; i < ctx->n_ports; i++)
		if (!used[i])
			XC_LOG(main, WARNING,
			       "port %u (%s) is on no cable and stays unused",
			       i, ctx->ports[i].name);
}

/**
 * check_lcores() - make sure the lcores cables ask for are running, before
 *		    any socket is created
 * @ctx:	context
 */
static void check_lcores(struct xc_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->n_defs; i++) {
		int l = ctx->defs[i].lcore;

		if (l >= 0 && (l >= RTE_MAX_LCORE ||
			       !rte_lcore_is_enabled((unsigned int)l)))
			die_eal(ctx, "cable %s: lcore %d is not enabled (EAL -l)",
				  ctx->defs[i].name, l);
	}
}

/**
 * setup_ports() - describe every port and check vhost socket paths
 * @ctx:	context
 */
static void setup_ports(struct xc_ctx *ctx)
{
	char err[XC_ERR_LEN];
	uint16_t id;

	ctx->n_ports = rte_eth_dev_count_avail();
	if (ctx->n_ports == 0)
		die_eal(ctx, "no ports: add them with --vdev net_vhost0,iface=PATH (or use --left/--right)");
	ctx->ports = calloc(ctx->n_ports, sizeof(*ctx->ports));
	if (ctx->ports == NULL)
		rte_exit(EXIT_FAILURE, "out of memory\n");
	RTE_ETH_FOREACH_DEV(id) {
		struct xc_port *p;

		if (id >= ctx->n_ports)
			die_eal(ctx, "port ids are not contiguous");
		p = &ctx->ports[id];
		if (xc_port_init(p, id, err, sizeof(err)))
			die_eal(ctx, "%s", err);
		p->sock_mode = ctx->opts.sock_mode;
		p->sock_gid = ctx->sock_gid;
		p->sock_uid = ctx->sock_uid;
		/* the simple and config modes checked their sockets before
		 * the EAL started */
		if (p->is_vhost && !ctx->simple &&
		    xc_sock_prepare(p->iface, p->client, err, sizeof(err)))
			die_eal(ctx, "%s", err);
	}
}

/**
 * start_cables() - create mempools, configure and start the cable ports
 * @ctx:	context
 */
static void start_cables(struct xc_ctx *ctx)
{
	char err[XC_ERR_LEN], name[RTE_MEMPOOL_NAMESIZE];
	unsigned int i, j;

	for (i = 0; i < ctx->n_cables; i++) {
		struct xc_cable *c = &ctx->cables[i];
		int socket = rte_eth_dev_socket_id(c->end[0]->id);

		snprintf(name, sizeof(name), "xc_pool%u", i);
		c->pool = rte_pktmbuf_pool_create(name,
						  XC_POOL_MBUFS * c->n_queues,
						  XC_POOL_CACHE, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE,
						  socket < 0 ? 0 : socket);
		snprintf(name, sizeof(name), "xc_ipool%u", i);
		c->ipool = rte_pktmbuf_pool_create(name,
						   XC_POOL_MBUFS * c->n_queues,
						   XC_POOL_CACHE, 0, 0,
						   socket < 0 ? 0 : socket);
		if (c->pool == NULL || c->ipool == NULL)
			rte_exit(EXIT_FAILURE,
				 "%s: cannot create mbuf pool: %s\n", c->name,
				 rte_strerror(rte_errno));
		for (j = 0; j < 2 * c->n_queues; j++) {
			const struct xc_impair_cfg *ic = ctx->n_defs ?
				&ctx->defs[i].impair[j % 2] :
				&ctx->opts.impair[j % 2];

			xc_off_init(&c->dir[j].off, c->pool, c->ipool);
			if (xc_impair_init(&c->dir[j].im,
					   rte_rdtsc() ^ (2ULL * i + j) << 32,
					   socket < 0 ? 0 : socket))
				rte_exit(EXIT_FAILURE, "%s: out of memory\n",
					 c->name);
			xc_impair_set(&c->dir[j].im, ic);
		}
		for (j = 0; j < 2; j++) {
			struct xc_port *p = c->end[j];
			struct rte_mempool *pool = c->pool;
			mode_t old;
			int rc;

			if (p->trunk) {
				/* the trunk's port, once: its frames go to
				 * many cables */
				p = p->trunk->port;
				if (p->configured)
					continue;
			}
			if (!p->is_vhost) {
				if (xc_port_pool_create(p, socket < 0 ? 0 : socket,
							err, sizeof(err)))
					goto fail;
				pool = p->own_pool;
			}

			/* the vhost library binds the socket in configure:
			 * create it with no access for others at all */
			old = umask(0177);
			rc = xc_port_configure(p, pool, err, sizeof(err));
			umask(old);
			if (rc)
				goto fail;
			if (p->is_vhost && !p->client &&
			    xc_sock_secure(p->iface, p->sock_mode,
					   p->sock_uid, p->sock_gid, err,
					   sizeof(err)))
				goto fail;
		}
	}
	for (i = 0; i < ctx->n_cables; i++)
		for (j = 0; j < 2; j++) {
			struct xc_port *p = ctx->cables[i].end[j];

			if (p->trunk)
				p = p->trunk->port;
			if (!p->started && xc_port_start(p, err, sizeof(err)))
				goto fail;
		}
	for (i = 0; i < ctx->n_members; i++)
		ctx->members[i].started = true;
	return;
fail:
	die_eal(ctx, "%s", err);
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
	c->cables = ctx->cables;
	c->n_cables = ctx->n_cables;
	if (xc_control_start(c, err, sizeof(err)))
		XC_LOG(main, WARNING, "no runtime control: %s", err);
	else
		XC_LOG(main, INFO, "control: xcablectl -s %s (or -p %s)",
		       c->path, ctx->rf.prefix);
}

/* on_trunk() - has a cable an end on a trunk? */
static bool on_trunk(const struct xc_cable *c)
{
	return c->end[0]->trunk || c->end[1]->trunk;
}

/**
 * assign_lcores() - place cable directions: on the lcore a cable names,
 *		     else spread over the worker lcores; with no worker,
 *		     the main lcore forwards too
 * @ctx:	context
 *
 * Return: true if the main lcore forwards
 */
static bool assign_lcores(struct xc_ctx *ctx)
{
	unsigned int main_id = rte_get_main_lcore(), lcore, i, j, k;
	struct xc_fwd_lcore *trunk_lc = NULL;
	unsigned int workers[RTE_MAX_LCORE], n_workers = 0;

	RTE_LCORE_FOREACH_WORKER(lcore)
		workers[n_workers++] = lcore;
	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		struct xc_fwd_lcore *lc = &ctx->lcores[lcore];

		lc->quit = &ctx->quit;
		lc->adaptive = !ctx->opts.poll;
		lc->idle_cycles = rte_get_tsc_hz() / 1000000 * ctx->opts.idle_us;
		lc->max_sleep_ms = XC_HK_MS;
		lc->idle.epfd = lc->idle.wakefd = lc->idle.timerfd = -1;
	}
	for (i = 0, k = 0; i < ctx->n_cables; i++) {
		for (j = 0; j < 2 * ctx->cables[i].n_queues; j++, k++) {
			struct xc_fwd_lcore *lc;

			if (on_trunk(&ctx->cables[i]) && trunk_lc) {
				/* one lcore serves every trunk */
				lc = trunk_lc;
			} else if (ctx->n_defs && ctx->defs[i].lcore >= 0) {
				/* checked by check_lcores() */
				lc = &ctx->lcores[ctx->defs[i].lcore];
			} else {
				lc = &ctx->lcores[n_workers ?
						  workers[k % n_workers] :
						  main_id];
			}
			if (lc->n_dirs == 0 && xc_idle_init(&lc->idle))
				rte_exit(EXIT_FAILURE,
					 "cannot create epoll/eventfd\n");
			if (on_trunk(&ctx->cables[i]))
				trunk_lc = lc;
			/* ports without kicks are looked at every ms */
			if (!ctx->cables[i].end[j % 2]->is_vhost)
				lc->max_sleep_ms = 1;
			lc->dirs[lc->n_dirs++] = &ctx->cables[i].dir[j];
			if (xc_idle_watch(&lc->idle, &ctx->cables[i].dir[j]))
				rte_exit(EXIT_FAILURE, "too many queues\n");
		}
	}
	for (i = 0; i < ctx->n_ports; i++) {
		ctx->ports[i].notify_arg = ctx;
		__atomic_store_n(&ctx->ports[i].notify, wake_lcores,
				 __ATOMIC_RELEASE);
	}
	ctx->pull.lcores = ctx->lcores;
	ctx->pull.cables = ctx->cables;
	ctx->pull.n_cables = ctx->n_cables;
	ctx->pull.propagate = !ctx->opts.no_propagate;
	for (i = 0; i < ctx->n_cables; i++)
		for (j = 0; j < 2; j++) {
			ctx->cables[i].end[j]->cable = &ctx->cables[i];
			ctx->cables[i].end[j]->end_idx = (int)j;
		}
	ctx->lcores[main_id].hk = housekeeping;
	ctx->lcores[main_id].hk_arg = ctx;
	ctx->lcores[main_id].hk_period = rte_get_tsc_hz() / 1000 * XC_HK_MS;
	return ctx->lcores[main_id].n_dirs > 0;
}

/**
 * run() - launch the lcores and keep house until a signal arrives
 * @ctx:	context
 */
static void run(struct xc_ctx *ctx)
{
	unsigned int main_id = rte_get_main_lcore(), lcore;
	bool main_fwd = assign_lcores(ctx);

	ctx->next_stats = rte_rdtsc() +
		rte_get_tsc_hz() * ctx->opts.stats_interval;
	RTE_LCORE_FOREACH_WORKER(lcore)
		if (ctx->lcores[lcore].n_dirs)
			rte_eal_remote_launch(xc_fwd_loop, &ctx->lcores[lcore],
					      lcore);
	if (main_fwd) {
		xc_fwd_loop(&ctx->lcores[main_id]);
	} else {
		while (!ctx->quit) {
			housekeeping(ctx);
			usleep(XC_HK_MS * 1000);
		}
	}
	wake_lcores(ctx);
	rte_eal_mp_wait_lcore();
}

/**
 * shutdown_all() - drop held frames and what the guests still have queued
 *		    (counted as shutdown), print counters, close every port
 * @ctx:	context
 */
static void shutdown_all(struct xc_ctx *ctx)
{
	unsigned int i, j;

	for (i = 0; i < ctx->n_cables; i++)
		for (j = 0; j < 2 * ctx->cables[i].n_queues; j++) {
			xc_dir_flush(&ctx->cables[i].dir[j], XC_DROP_SHUTDOWN);
			xc_dir_drain(&ctx->cables[i].dir[j], 4 * XC_RING_SIZE);
		}
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		if (ctx->trunk_of[i])
			xc_trunk_flush(ctx->trunk_of[i]);
	xc_counters_print(ctx->cables, ctx->n_cables, true,
			  ctx->opts.stats_json);
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (ctx->lcores[i].n_dirs)
			printf("xcable: lcore %u slept %" PRIu64 " times\n", i,
			       ctx->lcores[i].idle.sleeps);
	for (i = 0; i < ctx->n_ports; i++) {
		if (ctx->ports[i].configured)
			xc_port_close(&ctx->ports[i]);
		rte_mempool_free(ctx->ports[i].own_pool);
	}
	for (i = 0; i < ctx->n_cables; i++) {
		for (j = 0; j < 2 * ctx->cables[i].n_queues; j++)
			xc_impair_fini(&ctx->cables[i].dir[j].im);
		rte_mempool_free(ctx->cables[i].pool);
		rte_mempool_free(ctx->cables[i].ipool);
	}
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (ctx->lcores[i].n_dirs)
			xc_idle_fini(&ctx->lcores[i].idle);
}

int main(int argc, char **argv)
{
	static struct xc_eal_argv ea;
	struct xc_ctx *ctx;
	bool capture;
	unsigned int i;
	int rc;

	ctx = calloc(1, sizeof(*ctx));
	if (ctx == NULL) {
		fprintf(stderr, "xcable: out of memory\n");
		return EXIT_FAILURE;
	}
	parse_cmdline(ctx, argc, argv, &ea);

	/* a peer that hangs up (a vhost-user frontend, an xcablectl or
	 * telemetry client) must cost a failed write, not the process: the
	 * default action of SIGPIPE would end xcable and every cable in it */
	signal(SIGPIPE, SIG_IGN);
	rc = rte_eal_init(ea.argc, ea.argv);
	if (rc < 0)
		die_usage("cannot start DPDK's EAL: %s (check the EAL options)",
			  rte_strerror(rte_errno));
	xc_runfiles_note(&ctx->rf);
	if (xc_memguard_init(&ctx->mg, ctx->rf.dir, ctx->rf.prefix))
		XC_LOG(main, WARNING, "no SIGBUS guard: %s", strerror(errno));
	xc_quit_flag = &ctx->quit;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	check_lcores(ctx);
	setup_ports(ctx);
	build_cables(ctx);
	start_cables(ctx);
	for (i = 0; i < ctx->n_cables; i++)
		XC_LOG(main, INFO, "%s: %s (%s) <-> %s (%s)",
		       ctx->cables[i].name, ctx->cables[i].end[0]->label,
		       ctx->cables[i].end[0]->iface[0] ?
		       ctx->cables[i].end[0]->iface : ctx->cables[i].end[0]->name,
		       ctx->cables[i].end[1]->label,
		       ctx->cables[i].end[1]->iface[0] ?
		       ctx->cables[i].end[1]->iface : ctx->cables[i].end[1]->name);
	xc_telemetry_init(ctx->cables, ctx->n_cables);
	capture = xc_capture_init(ctx->cables, ctx->n_cables);
	start_control(ctx);
	XC_LOG(main, INFO, "running; stop with Ctrl-C or SIGTERM");

	run(ctx);

	XC_LOG(main, INFO, "stopping");
	xc_control_stop(&ctx->ctl);
	xc_capture_fini(capture);
	shutdown_all(ctx);
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		free(ctx->trunk_of[i]);
	free(ctx->ports);
	rte_eal_cleanup();
	xc_runfiles_remove(&ctx->rf);
	free(ctx);
	return 0;
}
