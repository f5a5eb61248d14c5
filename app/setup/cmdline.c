/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmdline.c - from the command line to options, cable definitions and the
 *	       EAL's arguments, before the EAL starts
 *
 * Everything here happens before anything exists: a usage error is one
 * line on stderr and exit status 2, and nothing is left behind. Socket
 * paths of the simple and config modes are checked (a stale socket is
 * removed, one in use refused) and their owners and groups resolved here,
 * once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_build_config.h>
#include <rte_version.h>

#include "cmdline.h"
#include "endkind.h"
#include "config.h"
#include "sockpath.h"

#ifndef XC_VERSION
#define XC_VERSION "unknown"
#endif

/**
 * xc_die_usage() - print a one-line error and exit with status 2, before the
 *		 EAL runs
 * @fmt:	printf format
 */
void xc_die_usage(const char *fmt, ...)
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
 * check_ports() - a config that needs more ports than this DPDK gives one
 *		   process (every vhost end is an ethdev) is run by a
 *		   supervisor and its workers (supervise.c); the simple mode
 *		   cannot need more
 * @cl:		parsed command line with its cable definitions;
 *		cl->supervise is set
 */
static void check_ports(struct xc_cmdline *cl)
{
	unsigned int need;
	int i = xc_simple_over_ports(&cl->opts, cl->defs, cl->n_defs, &need);

	/* more cables than one process has slots for (tunnel cables need
	 * no port) are for a supervisor too */
	cl->supervise = (i >= 0 || cl->n_defs > XC_MAX_CABLES) &&
			cl->opts.config;
	if (i >= 0 && !cl->supervise)
		xc_die_usage("cable %s: the cables need %u DPDK ports (one per socket end, one per [port]), but this DPDK gives one process at most %d (RTE_MAX_ETHPORTS), that is %d socket-to-socket cables: split the cables over several config files and run one xcable for each",
			     cl->defs[i].name, need, RTE_MAX_ETHPORTS,
			     RTE_MAX_ETHPORTS / 2);
}

/**
 * print_kinds() - the kinds of cable end, for --help (from the kind
 *		   table: a new kind appears here by being in it)
 */
static void print_kinds(void)
{
	unsigned int k;

	printf("\nKinds of cable end (each end of a [cable NAME], or of xcablectl add, is one):\n");
	for (k = 0; k < xc_n_end_kinds; k++)
		printf("  %-8s %s\n", xc_end_kinds[k]->def->name,
		       xc_end_kinds[k]->def->declared);
}

/**
 * xc_cmdline_parse() - split and parse the command line (and the config
 *			file it names), check the socket paths, and build the
 *			EAL argv; exits with status 2 on a usage error, 0
 *			after --help or --version
 * @cl:		filled
 * @argc:	argument count
 * @argv:	argument vector
 * @ea:		the EAL argv to use
 */
void xc_cmdline_parse(struct xc_cmdline *cl, int argc, char **argv,
		      struct xc_eal_argv *ea)
{
	struct xc_argsplit s;
	struct xc_host host;
	char err[XC_ERR_LEN];
	int i, j;

	if (xc_args_split(argc, argv, &s, err, sizeof(err)) ||
	    xc_opts_parse(&cl->opts, s.app_argc, s.app_argv, err,
			  sizeof(err)))
		xc_die_usage("%s", err);
	if (cl->opts.help) {
		xc_opts_usage(argv[0]);
		print_kinds();
		exit(0);
	}
	if (cl->opts.version) {
		printf("xcable %s (%s)\n", XC_VERSION, rte_version());
		exit(0);
	}
	if (cl->opts.config) {
		if (xc_config_load(cl->opts.config, &cl->opts, cl->defs,
				   XC_MAX_LAB_CABLES, &cl->n_defs, err,
				   sizeof(err)))
			xc_die_usage("%s", err);
	} else if (xc_opts_simple(&cl->opts)) {
		xc_opts_simple_defs(&cl->opts, &cl->defs[0]);
		cl->n_defs = 1;
	}
	cl->simple = cl->n_defs > 0;
	if (!cl->simple && !s.has_sep && !s.eal_only)
		xc_die_usage("nothing to connect: give --left SOCK --right SOCK, --config FILE, or EAL options and ports (see --help)");
	if (!cl->simple && cl->opts.n_log_levels)
		xc_die_usage("--log-level is an EAL option here: put it before '--'");

	if (xc_sock_ids(cl->opts.sock_owner, cl->opts.sock_group,
			&cl->sock_uid, &cl->sock_gid, err, sizeof(err)))
		xc_die_usage("%s", err);
	if (!cl->simple) {
		if (s.eal_argc > XC_SIMPLE_MAX_ARGS)
			xc_die_usage("too many EAL arguments (at most %d)",
				  XC_SIMPLE_MAX_ARGS - 1);
		ea->argc = s.eal_argc;
		for (i = 0; i < s.eal_argc; i++)
			ea->argv[i] = argv[i];
		ea->argv[s.eal_argc] = NULL;
		return;
	}
	check_ports(cl);
	for (i = 0; i < (int)cl->n_defs; i++) {
		for (j = 0; j < 2; j++) {
			const struct xc_end_def *e = &cl->defs[i].end[j];
			const struct xc_kind_def *kd = xc_kind_def_of(e);

			if (kd && kd->ready &&
			    kd->ready(e, err, sizeof(err)))
				xc_die_usage("cable %s: %s", cl->defs[i].name,
					  err);
		}
	}
	if (cl->supervise)
		return;	/* each worker builds its own EAL arguments */
	xc_host_probe(&host);
	if (xc_simple_eal_args(ea, argv[0], s.eal_argc - 1, argv + 1,
			       &cl->opts, cl->defs, cl->n_defs, &host))
		xc_die_usage("too many EAL arguments");
	fprintf(stderr, "xcable: %s, EAL arguments:",
		cl->opts.config ? "config mode" : "simple mode");
	for (i = 1; i < ea->argc; i++)
		fprintf(stderr, " %s", ea->argv[i]);
	fprintf(stderr, "\n");
	if (ea->note[0])
		fprintf(stderr, "xcable: %s\n", ea->note);
}

