/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cmdline.h - from the command line to options, cable definitions and the
 *	       EAL's arguments
 */
#ifndef XC_CMDLINE_H
#define XC_CMDLINE_H

#include <stdbool.h>

#include "bounds.h"
#include "options.h"
#include "simple.h"

#define XC_EXIT_USAGE		2

/**
 * struct xc_cmdline - what the command line (and config file) said
 * @opts:	parsed options
 * @simple:	xcable builds the EAL arguments (simple mode or --config)
 * @supervise:	the config needs more DPDK ports than one process has:
 *		a supervisor runs it in several (supervise.c)
 * @n_defs:	number of cable definitions (0 in DPDK mode)
 * @defs:	cables declared by --left/--right or the config file
 * @sock_gid:	group of the sockets xcable creates, -1 to leave it
 * @sock_uid:	owner of the sockets xcable creates, -1 to leave it
 */
struct xc_cmdline {
	struct xc_opts opts;
	bool simple;
	bool supervise;
	unsigned int n_defs;
	struct xc_cable_def defs[XC_MAX_LAB_CABLES];
	int sock_gid;
	int sock_uid;
};

__attribute__((format(printf, 1, 2), noreturn))
void xc_die_usage(const char *fmt, ...);
void xc_cmdline_parse(struct xc_cmdline *cl, int argc, char **argv,
		      struct xc_eal_argv *ea);

#endif /* XC_CMDLINE_H */
