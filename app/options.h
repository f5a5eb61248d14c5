/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.h - xcable's own command line (what follows "--", or everything
 *	       in the simple mode)
 */
#ifndef XC_OPTIONS_H
#define XC_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XC_MAX_CABLES		64
#define XC_ERR_LEN		256
#define XC_SOCK_PATH_MAX	108	/* sizeof(sun_path) */
#define XC_MAX_LOG_LEVELS	8
#define XC_IDLE_US_DEFAULT	100
#define XC_SOCK_MODE_DEFAULT	0660

/**
 * struct xc_cable_spec - the two ports of a cable, as given by --cable A:B
 * @port:	port ids of the two ends
 */
struct xc_cable_spec {
	uint16_t port[2];
};

/**
 * struct xc_opts - parsed xcable options
 * @left:		simple mode: socket path of the left end, or NULL
 * @right:		simple mode: socket path of the right end, or NULL
 * @client:		simple mode: connect to sockets that QEMU listens on
 * @stats_interval:	seconds between counter prints, 0 for exit only
 * @sock_mode:		permission bits of the sockets xcable creates
 * @sock_group:		group to give them, or NULL
 * @poll:		busy-poll always (no sleeping when idle)
 * @idle_us:		microseconds without work before an lcore sleeps
 * @n_cables:		number of --cable options
 * @cables:		the --cable pairs, in order
 * @log_levels:	--log-level values, passed on to the EAL
 * @n_log_levels:	number of @log_levels
 * @help:		--help was given
 * @version:		--version was given
 */
struct xc_opts {
	const char *left;
	const char *right;
	bool client;
	unsigned int stats_interval;
	unsigned int sock_mode;
	const char *sock_group;
	bool poll;
	unsigned int idle_us;
	unsigned int n_cables;
	struct xc_cable_spec cables[XC_MAX_CABLES];
	const char *log_levels[XC_MAX_LOG_LEVELS];
	unsigned int n_log_levels;
	bool help;
	bool version;
};

/**
 * struct xc_argsplit - argv cut at the first "--"
 * @eal_argc:	arguments before "--", program name included
 * @app_argc:	arguments after "--"
 * @app_argv:	first argument after "--"
 * @has_sep:	a "--" was present
 */
struct xc_argsplit {
	int eal_argc;
	int app_argc;
	char **app_argv;
	bool has_sep;
};

void xc_args_split(int argc, char **argv, struct xc_argsplit *s);
int xc_opts_parse(struct xc_opts *o, int argc, char **argv,
		  char *err, size_t errlen);
bool xc_opts_simple(const struct xc_opts *o);
void xc_opts_usage(const char *prog);

#endif /* XC_OPTIONS_H */
