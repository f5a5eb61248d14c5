/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.h - xcable's options (xc_opt_table: the command line, the config
 *	       file's option keys, --help) and what they fill in
 */
#ifndef XC_OPTIONS_H
#define XC_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <stdint.h>

#include "addr.h"
#include "bounds.h"
#include "impairspec.h"
#include "kinddef.h"
#include "pullspec.h"
#include "parse.h"

#define XC_MAX_LOG_LEVELS	8
#define XC_IDLE_US_DEFAULT	20
#define XC_SOCK_MODE_DEFAULT	0660

/**
 * struct xc_cable_spec - the two ports of a cable, as given by --cable A:B
 * @port:	port ids of the two ends
 */
struct xc_cable_spec {
	uint16_t port[2];
};

#define XC_OPT_TEXT_SLOTS	6	/* [global] keys with a string value */
#define XC_OPT_MAX		128	/* rows of the option table, kinds' too */
#define XC_OPT_TEXT_MAX		256	/* rte_cfgfile's longest value */
#define XC_GROUP_MAX		64

#define XC_MAX_PORT_DEFS	16
#define XC_DEVARGS_MAX		256
#define XC_KIFACE_MAX		16	/* IF_NAMESIZE */

/**
 * struct xc_port_def - a DPDK port a config file names as a cable end
 *			([port NAME]): a NIC, af_packet, af_xdp...
 * @name:	name the cables use (left-port = NAME)
 * @devargs:	the device and its arguments: "net_af_packet0,iface=eth1"
 *		(a virtual device) or "0000:03:00.0" (a PCI device)
 * @tpid:	outer tag of the cables trunked over it: 0x88a8 (802.1ad,
 *		the default) or 0x8100 (802.1Q)
 * @mtu:	MTU to set on the port, 0 to keep the driver's
 * @kiface:	the kernel interface an af_packet or af_xdp port is on (its
 *		devargs' iface=), "" for other ports; set once the port is
 *		read (xc_devargs_kiface())
 */
struct xc_port_def {
	char name[XC_NAME_MAX];
	char devargs[XC_DEVARGS_MAX];
	uint16_t tpid;
	unsigned int mtu;
	char kiface[XC_KIFACE_MAX];
};

/**
 * struct xc_end_def - one cable end, as the simple mode or a config file
 *		       declares it: a vhost-user socket, a DPDK port (with a
 *		       tag if the port is a trunk), or an end of a kind with
 *		       keys of its own (kinddef.h)
 * @path:	socket path (empty for other ends)
 * @port:	index into xc_opts.port_defs, -1 for an end on no [port]
 * @tag:	outer VLAN id on that port, 1..4094; 0: the port is this
 *		end's alone, untagged
 * @client:	connect to a socket QEMU listens on, instead of listening
 * @sock_mode:	permission bits of the socket, if xcable creates it
 * @sock_group:	group of the socket, empty to leave it
 * @sock_owner:	owner of the socket, empty to leave it
 * @offloads:	offer checksum and segmentation offloads to the guest
 * @iommu:	offer VIRTIO_F_IOMMU_PLATFORM (a guest behind a vIOMMU)
 * @queues:	queue pairs (the guest's mq=on,queues=N)
 * @keys:	bit i: the definition itself gave option row i (a [cable]
 *		section's key, not a default)
 * @kind:	each kind's own part (kinddef.h: xc_kind_def_area())
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
	bool iommu;
	unsigned int queues;
	uint8_t keys[XC_OPT_MAX / 8];
	uint64_t kind[XC_N_END_KINDS][XC_KIND_DEF_MAX / 8];
};

/**
 * struct xc_cable_def - a named cable between two vhost-user ends
 * @name:	cable name, used in counters and telemetry
 * @end:	left and right ends
 * @lcore:	lcore that forwards both directions, -1 to choose
 * @impair:	impairments of left->right ([0]) and right->left ([1])
 * @carrier:	ends taken down from the start, a flap schedule (down =,
 *		flap =)
 */
struct xc_cable_def {
	char name[XC_NAME_MAX];
	struct xc_end_def end[2];
	int lcore;
	struct xc_impair_cfg impair[2];
	struct xc_carrier_cfg carrier;
};

/**
 * struct xc_opts - parsed xcable options
 * @config:		config file path, or NULL
 * @left:		simple mode: socket path of the left end, or NULL
 * @right:		simple mode: socket path of the right end, or NULL
 * @client:		simple mode: connect to sockets that QEMU listens on
 * @stats_interval:	seconds between counter prints, 0 for exit only
 * @stats_json:		--stats-json: file for every counters print as JSON,
 *			or NULL
 * @metrics_file:	--metrics-file: file kept current with the metrics
 *			(metrics.c), or NULL
 * @sock_mode:		permission bits of the sockets xcable creates
 * @sock_group:		group to give them, or NULL
 * @sock_owner:		owner to give them, or NULL
 * @poll:		busy-poll always (no sleeping when idle)
 * @idle_us:		microseconds without work before an lcore sleeps
 * @offloads:		offer virtio offloads to guests (--no-offloads: off)
 * @iommu:		offer guests behind a vIOMMU VIRTIO_F_IOMMU_PLATFORM
 * @queues:		queue pairs per end (--queues)
 * @control:		control socket path (--control), or NULL for the default
 * @no_propagate:	--no-link-propagation
 * @impair:		--impair-to-right ([0]) and --impair-to-left ([1]);
 *			--impair sets both
 * @carrier:		--down, --flap: every cable's carrier from the start
 * @n_cables:		number of --cable options
 * @cables:		the --cable pairs, in order
 * @log_levels:	--log-level values, passed on to the EAL
 * @n_log_levels:	number of @log_levels
 * @port_defs:		[port NAME] sections of the config file
 * @n_port_defs:	how many
 * @given:		bit i: the command line set option row i
 *			(xc_opt_row()), which a config file's [global]
 *			section does not override
 * @text:		copies of the [global] string values @sock_group,
 *			@sock_owner and @stats_json may point to
 * @help:		--help was given
 * @version:		--version was given
 * @kind:		each kind's own options (kinddef.h:
 *			xc_kind_opts_area())
 */
struct xc_opts {
	const char *config;
	const char *left;
	const char *right;
	bool client;
	unsigned int stats_interval;
	const char *stats_json;
	const char *metrics_file;
	unsigned int sock_mode;
	const char *sock_group;
	const char *sock_owner;
	bool poll;
	unsigned int idle_us;
	bool offloads;
	bool iommu;
	unsigned int queues;
	const char *control;
	bool no_propagate;
	struct xc_impair_cfg impair[2];
	struct xc_carrier_cfg carrier;
	unsigned int n_cables;
	struct xc_cable_spec cables[XC_MAX_CABLES];
	const char *log_levels[XC_MAX_LOG_LEVELS];
	unsigned int n_log_levels;
	struct xc_port_def port_defs[XC_MAX_PORT_DEFS];
	unsigned int n_port_defs;
	uint8_t given[XC_OPT_MAX / 8];
	char text[XC_OPT_TEXT_SLOTS][XC_OPT_TEXT_MAX];
	bool help;
	bool version;
	uint64_t kind[XC_N_END_KINDS][XC_KIND_OPTS_MAX / 8];
};

/* where an option may appear (xc_opt_desc.where) */
#define XC_OPT_CLI	(1u << 0)	/* the command line, as --NAME */
#define XC_OPT_GLOBAL	(1u << 1)	/* a config file's [global], as KEY */
#define XC_OPT_CABLE	(1u << 2)	/* [cable NAME], as KEY */
#define XC_OPT_END	(1u << 3)	/* [cable NAME], as left-KEY, right-KEY */
#define XC_OPT_PORT	(1u << 4)	/* [port NAME], as KEY */

/**
 * enum xc_opt_type - what an option's value is, and how it is stored
 * @XC_OPT_ON:		yes/no (a bool); the command line flag --NAME says yes
 * @XC_OPT_OFF:		yes/no (a bool); the command line flag --NAME says no
 * @XC_OPT_UINT:	a decimal number from min to max (an unsigned int)
 * @XC_OPT_MODE:	octal permission bits (an unsigned int)
 * @XC_OPT_NAME:	a user or group name of 1 to max bytes (a const char *;
 *			a char array of max + 1 bytes in an end)
 * @XC_OPT_SOCK:	a unix socket path that DPDK's devargs can carry
 * @XC_OPT_FILE:	a file path of 1 to max bytes (a const char *)
 * @XC_OPT_IMPAIR:	an impairment spec (struct xc_impair_cfg [2]): sets
 *			directions min to max (0: to the right, 1: to the left)
 * @XC_OPT_CABLES:	PORT:PORT, repeatable, at most max (xc_opts.cables)
 * @XC_OPT_LIST:	any text, repeatable, at most max (xc_opts.log_levels)
 * @XC_OPT_ADDR:	a numeric IPv4 or IPv6 address, with a :PORT if max is
 *			1 (a const char *; a char array of XC_ADDR_TEXT_MAX
 *			bytes in an end)
 * @XC_OPT_PORTREF:	the name of a [port NAME] section (an int: its index
 *			in xc_opts.port_defs)
 * @XC_OPT_DEVARGS:	a device and its arguments, no space or control
 *			character, 1 to max bytes (a char array of max + 1)
 * @XC_OPT_TPID:	an outer tag type, 802.1ad or 802.1q (a uint16_t)
 * @XC_OPT_FLAP:	a flap schedule (struct xc_flap_cfg)
 * @XC_OPT_SIDE:	ends: left, right, both or none (a uint32_t mask)
 */
enum xc_opt_type {
	XC_OPT_ON,
	XC_OPT_OFF,
	XC_OPT_UINT,
	XC_OPT_MODE,
	XC_OPT_NAME,
	XC_OPT_SOCK,
	XC_OPT_FILE,
	XC_OPT_IMPAIR,
	XC_OPT_CABLES,
	XC_OPT_LIST,
	XC_OPT_ADDR,
	XC_OPT_PORTREF,
	XC_OPT_DEVARGS,
	XC_OPT_TPID,
	XC_OPT_FLAP,
	XC_OPT_SIDE,
};

/**
 * struct xc_opt_desc - one option, everywhere it appears
 * @name:	command line name, without "--"
 * @short_name:	one-letter command line name, or 0
 * @key:	config key, or NULL if it is @name ("" for an end's
 *		key that is the side alone: left = PATH)
 * @where:	XC_OPT_* bits: the command line, [global], [cable NAME] and
 *		its ends
 * @type:	value type
 * @min:	smallest value (XC_OPT_UINT), first direction (XC_OPT_IMPAIR)
 * @max:	largest value, longest text, last direction or most repeats
 * @def:	default of a number or yes/no (1: yes)
 * @once:	the command line may give it once only
 * @negate:	the bool field holds the opposite of the key's yes/no
 * @absolute:	a path that must be absolute (a config file's socket)
 * @declares:	an end's key that declares the end's kind: an end has
 *		exactly one such key, a socket path (left = PATH), a port
 *		(left-port = NAME) or a kind's own (left-vxlan...); the
 *		kind's is() tests the same field
 * @side:	a command line option that declares end @side - 1 in the
 *		simple mode (1: --left..., 2: --right...), its value stored
 *		as the end's @end_off field; 0 for others
 * @arg:	name of the value in --help, or NULL for a flag
 * @what:	what a value is, for the messages ("seconds")
 * @group:	heading of its part of --help
 * @help:	help text
 * @opts_off:	field in struct xc_opts (not for XC_OPT_CABLES, XC_OPT_LIST)
 * @cable_off:	field in struct xc_cable_def, if @where has XC_OPT_CABLE
 * @end_off:	field in struct xc_end_def, if @where has XC_OPT_END
 * @port_off:	field in struct xc_port_def, if @where has XC_OPT_PORT
 *
 * A kind's own rows (kinddef.h) have their @opts_off and @end_off in the
 * kind's parts of struct xc_opts and struct xc_end_def instead.
 */
struct xc_opt_desc {
	const char *name;
	char short_name;
	const char *key;
	unsigned int where;
	enum xc_opt_type type;
	unsigned long min, max, def;
	bool once;
	bool negate;
	bool absolute;
	bool declares;
	uint8_t side;
	const char *arg;
	const char *what;
	const char *group;
	const char *help;
	int opts_off;
	int cable_off;
	int end_off;
	int port_off;
};

/**
 * struct xc_opt_row - one row of the option table: the common ones
 *		       (xc_opt_table), then each kind's own
 * @d:		the option
 * @kind:	the kind whose row it is, XC_N_END_KINDS for a common one
 * @i:		its number among all rows (bit i of xc_opts.given)
 */
struct xc_opt_row {
	const struct xc_opt_desc *d;
	enum xc_kind_id kind;
	unsigned int i;
};

extern const struct xc_opt_desc xc_opt_table[];
extern const unsigned int xc_opt_count;

bool xc_opt_row(unsigned int i, struct xc_opt_row *r);

/**
 * struct xc_argsplit - argv cut into the EAL's arguments and xcable's
 * @eal_argc:	arguments for the EAL, program name included (argv[0..])
 * @app_argc:	xcable's arguments
 * @app_argv:	first of xcable's arguments
 * @has_sep:	a "--" was present
 * @eal_only:	no "--", and every argument is the EAL's (DPDK mode, as
 *		dpdk-testpmd is run)
 */
struct xc_argsplit {
	int eal_argc;
	int app_argc;
	char **app_argv;
	bool has_sep;
	bool eal_only;
};

int xc_args_split(int argc, char **argv, struct xc_argsplit *s,
		  char *err, size_t errlen);
bool xc_args_eal_option(const char *arg);
const struct xc_opt_desc *xc_opt_find(const char *arg);
bool xc_opt_takes_value(const struct xc_opt_desc *d);
bool xc_opt_given(const struct xc_opts *o, const char *name);
bool xc_end_def_given(const struct xc_end_def *e, const char *key);

/**
 * xc_end_def_same_frames() - would two ends on one shared thing (a
 *			      trunk's port, an interface) take the same
 *			      frames: one of them without a tag (it takes
 *			      all), or both under one tag?
 * @a:		an end
 * @b:		another, on the same thing
 *
 * Return: true if so: they clash
 */
static inline bool xc_end_def_same_frames(const struct xc_end_def *a,
					  const struct xc_end_def *b)
{
	return !a->tag || !b->tag || a->tag == b->tag;
}
void xc_opts_defaults(struct xc_opts *o);
int xc_opts_parse(struct xc_opts *o, int argc, char **argv,
		  char *err, size_t errlen);
int xc_opts_set_global(struct xc_opts *o, const char *key, const char *val,
		       char *why, size_t whylen);
unsigned int xc_end_def_kinds(const struct xc_end_def *e);
void xc_end_def_key(const struct xc_end_def *e, const char *side, char *buf,
		    size_t len);
void xc_end_def_keys(const char *side, char *buf, size_t len);
void xc_port_def_defaults(struct xc_port_def *pd, const char *name);
int xc_devargs_kiface(const char *devargs, char *buf, size_t len);
struct xc_end_def *xc_cable_def_end(struct xc_cable_def *d, const char *key,
				    const char **rest);
int xc_opts_set_cable(const struct xc_opts *o, struct xc_cable_def *d,
		      const char *key, const char *val, char *why,
		      size_t whylen);
int xc_opts_set_port(struct xc_port_def *pd, const char *key,
		     const char *val, char *why, size_t whylen);
void xc_opts_inherit(const struct xc_opts *o, struct xc_cable_def *d);
bool xc_opts_simple(const struct xc_opts *o);
void xc_opts_simple_defs(const struct xc_opts *o, struct xc_cable_def *def);
void xc_opts_help(FILE *f, const char *prog);
void xc_opts_usage(const char *prog);

#endif /* XC_OPTIONS_H */
