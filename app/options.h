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

#include "impair.h"

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

#define XC_NAME_MAX		32
#define XC_GIVEN_STATS		(1u << 0)
#define XC_GIVEN_POLL		(1u << 1)
#define XC_GIVEN_IDLE		(1u << 2)
#define XC_GIVEN_MODE		(1u << 3)
#define XC_GIVEN_GROUP		(1u << 4)
#define XC_GIVEN_OWNER		(1u << 7)
#define XC_GIVEN_PROPAGATE	(1u << 8)
#define XC_GIVEN_OFFLOADS	(1u << 5)
#define XC_GIVEN_QUEUES		(1u << 6)
#define XC_MAX_QUEUES		8	/* queue pairs per cable end */
#define XC_GROUP_MAX		64

#define XC_MAX_PORT_DEFS	16
#define XC_DEVARGS_MAX		256
#define XC_TPID_8021AD		0x88a8
#define XC_TPID_8021Q		0x8100

/**
 * struct xc_port_def - a DPDK port a config file names as a cable end
 *			([port NAME]): a NIC, af_packet, af_xdp...
 * @name:	name the cables use (left-port = NAME)
 * @devargs:	the device and its arguments: "net_af_packet0,iface=eth1"
 *		(a virtual device) or "0000:03:00.0" (a PCI device)
 * @tpid:	outer tag of the cables trunked over it: 0x88a8 (802.1ad,
 *		the default) or 0x8100 (802.1Q)
 * @mtu:	MTU to set on the port, 0 to keep the driver's
 */
struct xc_port_def {
	char name[XC_NAME_MAX];
	char devargs[XC_DEVARGS_MAX];
	uint16_t tpid;
	unsigned int mtu;
};

/**
 * struct xc_end_def - one cable end, as the simple mode or a config file
 *		       declares it: a vhost-user socket, or a DPDK port
 *		       (with a tag if the port is a trunk)
 * @path:	socket path (empty for a port end)
 * @port:	index into xc_opts.port_defs, -1 for a socket end
 * @tag:	outer VLAN id on that port, 1..4094; 0: the port is this
 *		end's alone, untagged
 * @client:	connect to a socket QEMU listens on, instead of listening
 * @sock_mode:	permission bits of the socket, if xcable creates it
 * @sock_group:	group of the socket, empty to leave it
 * @sock_owner:	owner of the socket, empty to leave it
 * @offloads:	offer checksum and segmentation offloads to the guest
 * @queues:	queue pairs (the guest's mq=on,queues=N)
 */
struct xc_end_def {
	char path[XC_SOCK_PATH_MAX];
	int port;
	uint16_t tag;
	bool client;
	unsigned int sock_mode;
	char sock_group[XC_GROUP_MAX];
	char sock_owner[XC_GROUP_MAX];
	bool offloads;
	unsigned int queues;
};

/**
 * struct xc_cable_def - a named cable between two vhost-user ends
 * @name:	cable name, used in counters and telemetry
 * @end:	left and right ends
 * @lcore:	lcore that forwards both directions, -1 to choose
 * @impair:	impairments of left->right ([0]) and right->left ([1])
 */
struct xc_cable_def {
	char name[XC_NAME_MAX];
	struct xc_end_def end[2];
	int lcore;
	struct xc_impair_cfg impair[2];
};

/**
 * struct xc_opts - parsed xcable options
 * @config:		config file path, or NULL
 * @left:		simple mode: socket path of the left end, or NULL
 * @right:		simple mode: socket path of the right end, or NULL
 * @client:		simple mode: connect to sockets that QEMU listens on
 * @stats_interval:	seconds between counter prints, 0 for exit only
 * @stats_json:		file the counters are written to as JSON at every
 *			print (--stats-json), or NULL
 * @sock_mode:		permission bits of the sockets xcable creates
 * @sock_group:		group to give them, or NULL
 * @sock_owner:		owner to give them, or NULL
 * @poll:		busy-poll always (no sleeping when idle)
 * @idle_us:		microseconds without work before an lcore sleeps
 * @offloads:		offer virtio offloads to guests (--no-offloads: off)
 * @queues:		queue pairs per end (--queues)
 * @control:		control socket path (--control), or NULL for the default
 * @no_propagate:	--no-link-propagation
 * @impair:		--impair-to-right ([0]) and --impair-to-left ([1]);
 *			--impair sets both
 * @n_cables:		number of --cable options
 * @cables:		the --cable pairs, in order
 * @log_levels:	--log-level values, passed on to the EAL
 * @n_log_levels:	number of @log_levels
 * @port_defs:		[port NAME] sections of the config file
 * @n_port_defs:	how many
 * @given:		XC_GIVEN_* bits: options set on the command line, which a
 *			config file's [global] section does not override
 * @help:		--help was given
 * @version:		--version was given
 */
struct xc_opts {
	const char *config;
	const char *left;
	const char *right;
	bool client;
	unsigned int stats_interval;
	const char *stats_json;
	unsigned int sock_mode;
	const char *sock_group;
	const char *sock_owner;
	bool poll;
	unsigned int idle_us;
	bool offloads;
	unsigned int queues;
	const char *control;
	bool no_propagate;
	struct xc_impair_cfg impair[2];
	unsigned int n_cables;
	struct xc_cable_spec cables[XC_MAX_CABLES];
	const char *log_levels[XC_MAX_LOG_LEVELS];
	unsigned int n_log_levels;
	struct xc_port_def port_defs[XC_MAX_PORT_DEFS];
	unsigned int n_port_defs;
	unsigned int given;
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
int xc_parse_uint(const char *s, unsigned long min, unsigned long max,
		  unsigned long *out);
int xc_parse_mode(const char *s, unsigned int *out);
int xc_parse_bool(const char *s, bool *out);
int xc_opts_parse(struct xc_opts *o, int argc, char **argv,
		  char *err, size_t errlen);
bool xc_opts_simple(const struct xc_opts *o);
void xc_opts_simple_defs(const struct xc_opts *o, struct xc_cable_def *def);
void xc_opts_usage(const char *prog);

#endif /* XC_OPTIONS_H */
