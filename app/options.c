/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - parsing of xcable's own options
 *
 * Every option is described once, in xc_opt_table: its command line name,
 * its config key and the sections it may appear in, its type and range,
 * its help text and the fields it is stored in. The command line parser,
 * the config file's option keys (config.c) and --help all read the table.
 *
 * The parser is plain C with no DPDK dependency, so that it can be unit
 * tested and fuzzed on its own. It never keeps pointers to anything but
 * the argv strings it was given and its own copies of config values
 * (xc_opts.text), and every error is reported as one line in a
 * caller-provided buffer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>

#include "options.h"
#include "sockpath.h"

/**
 * parse_cable() - parse "A:B" into a cable spec
 * @s:		text
 * @c:		filled on success
 *
 * Return: 0 on success, -EINVAL on malformed text or equal ports
 */
static int parse_cable(const char *s, struct xc_cable_spec *c)
{
	const char *colon = strchr(s, ':');
	unsigned long a, b;
	char left[16];
	size_t n;

	if (colon == NULL)
		return -EINVAL;
	n = (size_t)(colon - s);
	if (n == 0 || n >= sizeof(left))
		return -EINVAL;
	memcpy(left, s, n);
	left[n] = '\0';
	if (xc_parse_uint(left, 0, UINT16_MAX - 1, &a) ||
	    xc_parse_uint(colon + 1, 0, UINT16_MAX - 1, &b) || a == b)
		return -EINVAL;
	c->port[0] = (uint16_t)a;
	c->port[1] = (uint16_t)b;
	return 0;
}

/**
 * check_path() - check a socket path given as an option
 * @path:	the path
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0 if usable as a unix socket path, -EINVAL otherwise
 */
static int check_path(const char *path, char *why, size_t whylen)
{
	if (path[0] == '\0') {
		snprintf(why, whylen, "empty socket path");
		return -EINVAL;
	}
	if (strlen(path) >= XC_SOCK_PATH_MAX) {
		snprintf(why, whylen, "socket path is %zu bytes, the limit is %d",
			 strlen(path), XC_SOCK_PATH_MAX - 1);
		return -EINVAL;
	}
	return xc_sock_path_chars(path, why, whylen);
}

#define OPT(f)	((int)offsetof(struct xc_opts, f))
#define CAB(f)	((int)offsetof(struct xc_cable_def, f))
#define END(f)	((int)offsetof(struct xc_end_def, f))
#define CLI	XC_OPT_CLI
#define GLOBAL	XC_OPT_GLOBAL

static const char g_simple[] = "Simple mode (no DPDK knowledge needed):";
static const char g_config[] = "Config mode:";
static const char g_dpdk[] = "DPDK mode (EAL options, then '--' if xcable's options follow):";
static const char g_all[] = "All modes:";
static const char g_vxlan[] = "VXLAN tunnels (simple and config modes; RFC 7348, as Linux's vxlan device):";

/* every option, once; --help lists them in this order */
const struct xc_opt_desc xc_opt_table[] = {
	{ .name = "left", .where = CLI, .type = XC_OPT_SOCK, .once = true,
	  .arg = "SOCK", .group = g_simple, .opts_off = OPT(left),
	  .help = "vhost-user socket of the first VM" },
	{ .name = "right", .where = CLI, .type = XC_OPT_SOCK, .once = true,
	  .arg = "SOCK", .group = g_simple, .opts_off = OPT(right),
	  .help = "vhost-user socket of the second VM" },
	{ .name = "client", .where = CLI | XC_OPT_END, .type = XC_OPT_ON,
	  .group = g_simple, .opts_off = OPT(client), .end_off = END(client),
	  .help = "connect to sockets QEMU listens on (QEMU: -chardev socket,server=on); default: xcable listens, QEMU connects (reconnect=1)" },
	{ .name = "config", .where = CLI, .type = XC_OPT_FILE, .once = true,
	  .max = 4095, .arg = "FILE", .group = g_config,
	  .opts_off = OPT(config),
	  .help = "declare named cables in an INI file (see config/ and xcable(1))" },
	{ .name = "cable", .where = CLI, .type = XC_OPT_CABLES,
	  .max = XC_MAX_CABLES, .arg = "A:B", .group = g_dpdk,
	  .help = "join ports A and B (repeatable); default: ports pair up as (0,1), (2,3), ..." },
	{ .name = "stats-interval", .where = CLI | GLOBAL, .type = XC_OPT_UINT,
	  .max = 86400, .arg = "SEC", .what = "seconds", .group = g_all,
	  .opts_off = OPT(stats_interval),
	  .help = "print counters every SEC seconds (0: only at exit)" },
	{ .name = "stats-json", .where = CLI | GLOBAL, .type = XC_OPT_FILE,
	  .max = 4095, .arg = "PATH", .group = g_all,
	  .opts_off = OPT(stats_json),
	  .help = "also write every counters print (interval and final) as one JSON document to PATH" },
	{ .name = "poll", .where = CLI | GLOBAL, .type = XC_OPT_ON,
	  .group = g_all, .opts_off = OPT(poll),
	  .help = "busy-poll always; default: poll under load, sleep until a guest kicks after --idle-us without work" },
	{ .name = "idle-us", .where = CLI | GLOBAL, .type = XC_OPT_UINT,
	  .min = 1, .max = 1000000, .def = XC_IDLE_US_DEFAULT, .arg = "US",
	  .what = "microseconds", .group = g_all, .opts_off = OPT(idle_us),
	  .help = "idle time before sleeping" },
	{ .name = "no-offloads", .key = "offloads",
	  .where = CLI | GLOBAL | XC_OPT_END, .type = XC_OPT_OFF, .def = 1,
	  .group = g_all, .opts_off = OPT(offloads), .end_off = END(offloads),
	  .help = "offer guests no checksum or segmentation offloads (default: offer them; frames are adapted to what each receiving guest negotiated)" },
	{ .name = "iommu", .where = CLI | GLOBAL | XC_OPT_END, .type = XC_OPT_ON,
	  .group = g_all, .opts_off = OPT(iommu), .end_off = END(iommu),
	  .help = "offer IOMMU support, for guests behind a virtual IOMMU (QEMU: iommu_platform=on); default: not offered, and QEMU refuses such a device" },
	{ .name = "queues", .where = CLI | GLOBAL | XC_OPT_END,
	  .type = XC_OPT_UINT, .min = 1, .max = XC_MAX_QUEUES, .def = 1,
	  .arg = "N", .what = "a number of queue pairs", .group = g_all,
	  .opts_off = OPT(queues), .end_off = END(queues),
	  .help = "queue pairs per end, as the guests' mq=on,queues=N, in simple and config modes" },
	{ .name = "impair", .where = CLI | XC_OPT_CABLE, .type = XC_OPT_IMPAIR,
	  .min = 0, .max = 1, .arg = "SPEC", .group = g_all,
	  .opts_off = OPT(impair), .cable_off = CAB(impair),
	  .help = "impair both directions (of every cable), e.g. delay=10ms,jitter=1ms,loss=1%,ge=1%/30%, rate=100mbit,dup=0.1%,corrupt=0.1%,reorder=25%,gap=5,mtu=1500,blackhole,limit=1000 (or none)" },
	{ .name = "impair-to-right", .where = CLI | XC_OPT_CABLE,
	  .type = XC_OPT_IMPAIR, .min = 0, .max = 0, .arg = "SPEC",
	  .group = g_all, .opts_off = OPT(impair), .cable_off = CAB(impair),
	  .help = "impair the left->right direction only" },
	{ .name = "impair-to-left", .where = CLI | XC_OPT_CABLE,
	  .type = XC_OPT_IMPAIR, .min = 1, .max = 1, .arg = "SPEC",
	  .group = g_all, .opts_off = OPT(impair), .cable_off = CAB(impair),
	  .help = "impair the right->left direction only" },
	{ .name = "down", .where = CLI | XC_OPT_CABLE, .type = XC_OPT_SIDE,
	  .arg = "END", .group = g_all, .opts_off = OPT(carrier.down),
	  .cable_off = CAB(carrier.down),
	  .help = "take the carrier of that end (left, right or both) down from the start, as xcablectl down CABLE END does (default: none)" },
	{ .name = "flap", .where = CLI | XC_OPT_CABLE, .type = XC_OPT_FLAP,
	  .arg = "SPEC", .group = g_all, .opts_off = OPT(carrier.flap),
	  .cable_off = CAB(carrier.flap),
	  .help = "pull and plug the cable on a schedule from the start, e.g. down=2s,up=10s,count=5[,end=left] (count=forever: until xcablectl flap CABLE stop)" },
	{ .name = "no-link-propagation", .key = "link-propagation",
	  .where = CLI | GLOBAL, .type = XC_OPT_OFF, .def = 1, .negate = true,
	  .group = g_all, .opts_off = OPT(no_propagate),
	  .help = "a VM keeps its carrier when the far end goes away (default: the carrier follows the far end)" },
	{ .name = "control", .where = CLI, .type = XC_OPT_SOCK, .arg = "PATH",
	  .group = g_all, .opts_off = OPT(control),
	  .help = "control socket for xcablectl (default: xcable.ctl in the EAL runtime directory)" },
	{ .name = "socket-mode", .where = CLI | GLOBAL | XC_OPT_END,
	  .type = XC_OPT_MODE, .def = XC_SOCK_MODE_DEFAULT, .arg = "MODE",
	  .group = g_all, .opts_off = OPT(sock_mode), .end_off = END(sock_mode),
	  .help = "permissions of the sockets xcable creates" },
	{ .name = "socket-group", .where = CLI | GLOBAL | XC_OPT_END,
	  .type = XC_OPT_NAME, .max = XC_GROUP_MAX - 1, .arg = "GROUP",
	  .what = "group name", .group = g_all, .opts_off = OPT(sock_group),
	  .end_off = END(sock_group),
	  .help = "group of the sockets xcable creates" },
	{ .name = "socket-owner", .where = CLI | GLOBAL | XC_OPT_END,
	  .type = XC_OPT_NAME, .max = XC_GROUP_MAX - 1, .arg = "USER",
	  .what = "user name", .group = g_all, .opts_off = OPT(sock_owner),
	  .end_off = END(sock_owner),
	  .help = "owner of the sockets xcable creates" },
	{ .name = "log-level", .where = CLI, .type = XC_OPT_LIST,
	  .max = XC_MAX_LOG_LEVELS, .arg = "LEVEL", .group = g_all,
	  .help = "e.g. debug, or xcable.port:debug (repeatable; in DPDK mode an EAL option, before '--')" },
	{ .name = "left-vxlan", .where = CLI, .type = XC_OPT_ADDR, .once = true,
	  .max = 1, .arg = "ADDR[:PORT]", .group = g_vxlan,
	  .opts_off = OPT(left_vxlan),
	  .help = "the left end is a VXLAN tunnel to ADDR (IPv4, or IPv6 as [ADDR]:PORT), instead of --left" },
	{ .name = "right-vxlan", .where = CLI, .type = XC_OPT_ADDR,
	  .once = true, .max = 1, .arg = "ADDR[:PORT]", .group = g_vxlan,
	  .opts_off = OPT(right_vxlan),
	  .help = "the right end is a VXLAN tunnel to ADDR, instead of --right" },
	{ .name = "vxlan", .where = XC_OPT_END, .type = XC_OPT_ADDR, .max = 1,
	  .declares = true, .arg = "ADDR[:PORT]",
	  .group = g_vxlan, .end_off = END(vxlan),
	  .help = "config key left-vxlan/right-vxlan: the end is a tunnel" },
	{ .name = "vni", .where = CLI | XC_OPT_END, .type = XC_OPT_UINT,
	  .max = XC_VXLAN_VNI_MAX, .arg = "N", .what = "a VNI",
	  .group = g_vxlan, .opts_off = OPT(vni), .end_off = END(vni),
	  .help = "the tunnels' VXLAN network identifier, 0 to 16777215 (needed with a tunnel end)" },
	{ .name = "vxlan-port", .where = CLI | GLOBAL, .type = XC_OPT_UINT,
	  .min = 1, .max = 65535, .def = XC_VXLAN_PORT_DEFAULT, .arg = "PORT",
	  .what = "a UDP port", .group = g_vxlan, .opts_off = OPT(vxlan_port),
	  .help = "the one UDP port every tunnel of xcable uses, and the remotes' port unless ADDR:PORT says otherwise" },
	{ .name = "vxlan-local", .where = CLI | GLOBAL, .type = XC_OPT_ADDR,
	  .arg = "ADDR", .group = g_vxlan, .opts_off = OPT(vxlan_local),
	  .help = "local address of the tunnel socket (default: any, IPv4 and IPv6)" },
	{ .name = "vxlan-df", .where = CLI | GLOBAL, .type = XC_OPT_ON,
	  .group = g_vxlan, .opts_off = OPT(vxlan_df),
	  .help = "outer packets may not be fragmented: a frame that does not fit the path is refused and counted (default: the kernel fragments, as Linux's vxlan device does)" },
	{ .name = "netdev", .where = XC_OPT_END, .type = XC_OPT_NAME,
	  .max = 15, .declares = true, .arg = "IFNAME",
	  .what = "Linux interface name", .group = g_config,
	  .end_off = END(netdev),
	  .help = "config key left-netdev/right-netdev: the end is a Linux interface (xcable(1), netdev)" },
	{ .name = "netns", .where = XC_OPT_END, .type = XC_OPT_NAME,
	  .max = XC_SOCK_PATH_MAX - 1, .arg = "PATH|PID",
	  .what = "network namespace path or process ID", .group = g_config,
	  .end_off = END(netns),
	  .help = "config key left-netns/right-netns: the netdev end's interface is in this network namespace" },
	{ .name = "help", .short_name = 'h', .where = CLI, .type = XC_OPT_ON,
	  .group = g_all, .opts_off = OPT(help), .help = "this text" },
	{ .name = "version", .short_name = 'V', .where = CLI,
	  .type = XC_OPT_ON, .group = g_all, .opts_off = OPT(version),
	  .help = "print the version" },
};

const unsigned int xc_opt_count = sizeof(xc_opt_table) / sizeof(xc_opt_table[0]);

_Static_assert(sizeof(xc_opt_table) / sizeof(xc_opt_table[0]) <=
	       sizeof(uint64_t) * 8, "xc_opts.given has a bit per option");

/**
 * union opt_val - a parsed option value
 * @b:		XC_OPT_ON, XC_OPT_OFF: the key's yes or no
 * @u:		XC_OPT_UINT, XC_OPT_MODE
 * @s:		XC_OPT_NAME, XC_OPT_SOCK, XC_OPT_FILE, XC_OPT_LIST
 * @im:		XC_OPT_IMPAIR
 * @cable:	XC_OPT_CABLES
 * @flap:	XC_OPT_FLAP
 * @side:	XC_OPT_SIDE
 */
union opt_val {
	bool b;
	unsigned long u;
	const char *s;
	struct xc_impair_cfg im;
	struct xc_cable_spec cable;
	struct xc_flap_cfg flap;
	uint32_t side;
};

/**
 * xc_opt_takes_value() - tell whether an option needs a value on the
 *			  command line
 * @d:		the option
 *
 * Return: false for the flags (yes/no options), true otherwise
 */
bool xc_opt_takes_value(const struct xc_opt_desc *d)
{
	return d->type != XC_OPT_ON && d->type != XC_OPT_OFF;
}

/**
 * parse_value() - check a value and convert it
 * @d:		the option
 * @text:	the value as given
 * @v:		the converted value
 * @why:	what is wrong, on error ("expected ...")
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
static int parse_value(const struct xc_opt_desc *d, const char *text,
		       union opt_val *v, char *why, size_t whylen)
{
	struct sockaddr_storage ss;
	unsigned int m;
	int rc = -EINVAL;

	switch (d->type) {
	case XC_OPT_ON:
	case XC_OPT_OFF:
		rc = xc_parse_bool(text, &v->b);
		if (rc)
			snprintf(why, whylen, "expected yes or no");
		break;
	case XC_OPT_UINT:
		rc = xc_parse_uint(text, d->min, d->max, &v->u);
		if (rc)
			snprintf(why, whylen, "expected %s from %lu to %lu",
				 d->what, d->min, d->max);
		break;
	case XC_OPT_MODE:
		rc = xc_parse_mode(text, &m);
		if (rc)
			snprintf(why, whylen,
				 "expected octal permission bits such as 0660");
		else
			v->u = m;
		break;
	case XC_OPT_NAME:
	case XC_OPT_FILE:
		if (text[0] && strlen(text) <= d->max)
			rc = 0;
		else if (d->type == XC_OPT_NAME)
			snprintf(why, whylen, "expected a %s (1 to %lu bytes)",
				 d->what, d->max);
		else
			snprintf(why, whylen, "expected a path (1 to %lu bytes)",
				 d->max);
		v->s = text;
		break;
	case XC_OPT_SOCK:
		rc = check_path(text, why, whylen);
		v->s = text;
		break;
	case XC_OPT_IMPAIR:
		rc = xc_impair_parse(text, &v->im, why, whylen);
		break;
	case XC_OPT_CABLES:
		rc = parse_cable(text, &v->cable);
		if (rc)
			snprintf(why, whylen,
				 "expected PORT:PORT with two different port numbers");
		break;
	case XC_OPT_LIST:
		v->s = text;
		rc = 0;
		break;
	case XC_OPT_ADDR:
		rc = xc_addr_parse(text, d->max != 0, 1, &ss, why, whylen);
		v->s = text;
		break;
	case XC_OPT_FLAP:
		rc = xc_flap_parse(text, &v->flap, why, whylen);
		break;
	case XC_OPT_SIDE:
		rc = xc_side_parse(text, &v->side);
		if (rc)
			snprintf(why, whylen,
				 "expected left, right, both or none");
		break;
	}
	return rc;
}

/**
 * store() - put a value into a struct xc_opts, xc_cable_def or xc_end_def
 * @d:		the option
 * @base:	the struct
 * @off:	offset of the option's field in it
 * @size:	for a char array (in an end): its size; 0 for a const char *
 * @v:		the value (not XC_OPT_CABLES or XC_OPT_LIST)
 */
static void store(const struct xc_opt_desc *d, void *base, int off,
		  size_t size, const union opt_val *v)
{
	char *f = (char *)base + off;
	unsigned long dir;

	switch (d->type) {
	case XC_OPT_ON:
	case XC_OPT_OFF:
		*(bool *)f = v->b != d->negate;
		break;
	case XC_OPT_UINT:
	case XC_OPT_MODE:
		*(unsigned int *)f = (unsigned int)v->u;
		break;
	case XC_OPT_NAME:
	case XC_OPT_SOCK:
	case XC_OPT_FILE:
	case XC_OPT_ADDR:
		if (size)
			snprintf(f, size, "%s", v->s);
		else
			*(const char **)f = v->s;
		break;
	case XC_OPT_IMPAIR:
		for (dir = d->min; dir <= d->max; dir++)
			((struct xc_impair_cfg *)f)[dir] = v->im;
		break;
	case XC_OPT_FLAP:
		*(struct xc_flap_cfg *)f = v->flap;
		break;
	case XC_OPT_SIDE:
		*(uint32_t *)f = v->side;
		break;
	case XC_OPT_CABLES:
	case XC_OPT_LIST:
		break;
	}
}

/**
 * cable_value_size() - the size of a whole-cable option's value (one that
 *			struct xc_opts and struct xc_cable_def both have,
 *			not an end's)
 * @d:		the option
 *
 * Return: that size, 0 for an option of another type
 */
static size_t cable_value_size(const struct xc_opt_desc *d)
{
	switch (d->type) {
	case XC_OPT_IMPAIR:
		return 2 * sizeof(struct xc_impair_cfg);
	case XC_OPT_FLAP:
		return sizeof(struct xc_flap_cfg);
	case XC_OPT_SIDE:
		return sizeof(uint32_t);
	default:
		return 0;
	}
}

/**
 * xc_opts_defaults() - fill options with the defaults of the table
 * @o:		options, cleared first
 */
void xc_opts_defaults(struct xc_opts *o)
{
	union opt_val v;
	unsigned int i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < xc_opt_count; i++) {
		const struct xc_opt_desc *d = &xc_opt_table[i];

		if (d->type == XC_OPT_IMPAIR)
			xc_impair_parse("none", &v.im, NULL, 0);
		else if (d->type == XC_OPT_FLAP)
			xc_flap_parse("none", &v.flap, NULL, 0);
		else if (d->type == XC_OPT_ON || d->type == XC_OPT_OFF)
			v.b = d->def;
		else if (d->type == XC_OPT_UINT || d->type == XC_OPT_MODE)
			v.u = d->def;
		else
			continue;
		store(d, o, d->opts_off, 0, &v);
	}
}

/**
 * find_cli() - look up a command line argument in the table
 * @arg:	"--name", "--name=value" or "-x"
 * @val:	set to the text after '=', or NULL
 *
 * Return: the option, or NULL if @arg names none
 */
static const struct xc_opt_desc *find_cli(const char *arg, const char **val)
{
	const char *eq;
	unsigned int i;
	size_t n;

	*val = NULL;
	if (arg[0] == '-' && arg[1] && arg[1] != '-' && arg[2] == '\0') {
		for (i = 0; i < xc_opt_count; i++)
			if (xc_opt_table[i].short_name == arg[1])
				return &xc_opt_table[i];
		return NULL;
	}
	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	arg += 2;
	eq = strchr(arg, '=');
	n = eq ? (size_t)(eq - arg) : strlen(arg);
	for (i = 0; i < xc_opt_count; i++) {
		if (strlen(xc_opt_table[i].name) == n &&
		    strncmp(xc_opt_table[i].name, arg, n) == 0) {
			*val = eq ? eq + 1 : NULL;
			return &xc_opt_table[i];
		}
	}
	return NULL;
}

/**
 * xc_opt_find() - the option a command line argument names
 * @arg:	"--name", "--name=value" or "-x"
 *
 * Return: the option, or NULL
 */
const struct xc_opt_desc *xc_opt_find(const char *arg)
{
	const char *val;

	return find_cli(arg, &val);
}

/**
 * cli_set() - apply one command line option
 * @o:		options
 * @d:		the option
 * @val:	its value, NULL for a flag
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with a message naming the option
 */
static int cli_set(struct xc_opts *o, const struct xc_opt_desc *d,
		   const char *val, char *err, size_t errlen)
{
	char why[XC_ERR_LEN];
	union opt_val v;

	if (!val) {
		v.b = d->type == XC_OPT_ON;
	} else if (parse_value(d, val, &v, why, sizeof(why))) {
		if (d->type == XC_OPT_IMPAIR || d->type == XC_OPT_SOCK ||
		    d->type == XC_OPT_ADDR || d->type == XC_OPT_FLAP)
			snprintf(err, errlen, "--%s: %s", d->name, why);
		else
			snprintf(err, errlen, "--%s '%.64s': %s", d->name, val,
				 why);
		return -EINVAL;
	}
	if (d->type == XC_OPT_CABLES || d->type == XC_OPT_LIST) {
		unsigned int *n = d->type == XC_OPT_CABLES ? &o->n_cables :
							      &o->n_log_levels;

		if (*n == d->max) {
			snprintf(err, errlen,
				 "too many --%s options (at most %lu)",
				 d->name, d->max);
			return -EINVAL;
		}
		if (d->type == XC_OPT_CABLES)
			o->cables[(*n)++] = v.cable;
		else
			o->log_levels[(*n)++] = v.s;
		return 0;
	}
	if (d->once && *(const char **)((char *)o + d->opts_off)) {
		snprintf(err, errlen, "option --%s given twice", d->name);
		return -EINVAL;
	}
	store(d, o, d->opts_off, 0, &v);
	o->given |= 1ULL << (d - xc_opt_table);
	return 0;
}

/**
 * unknown_arg() - say what is wrong with an argument that is no option
 * @arg:	the argument
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: -EINVAL
 */
static int unknown_arg(const char *arg, char *err, size_t errlen)
{
	if (xc_args_eal_option(arg))
		snprintf(err, errlen,
			 "'%.64s' is an EAL option: EAL options go before '--', xcable's after it",
			 arg);
	else if (arg[0] != '-')
		snprintf(err, errlen, "unexpected argument '%.64s' (see --help)",
			 arg);
	else
		snprintf(err, errlen, "unknown option '%.64s' (see --help)",
			 arg);
	return -EINVAL;
}

/**
 * given() - did the command line give an option?
 * @o:		parsed options
 * @name:	its name
 *
 * Return: true if so
 */
static bool given(const struct xc_opts *o, const char *name)
{
	unsigned int i;

	for (i = 0; i < xc_opt_count; i++)
		if (strcmp(xc_opt_table[i].name, name) == 0)
			return o->given >> i & 1;
	return false;
}

/**
 * check_modes() - check that the options ask for one mode
 * @o:		parsed options
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with a message
 */
static int check_modes(const struct xc_opts *o, char *err, size_t errlen)
{
	bool left = o->left || o->left_vxlan, right = o->right || o->right_vxlan;

	if ((o->left && o->left_vxlan) || (o->right && o->right_vxlan)) {
		snprintf(err, errlen, "an end is a socket (--%s) or a tunnel (--%s-vxlan), not both",
			 o->left && o->left_vxlan ? "left" : "right",
			 o->left && o->left_vxlan ? "left" : "right");
		return -EINVAL;
	}
	if (left != right) {
		snprintf(err, errlen,
			 "--left and --right (or --left-vxlan and --right-vxlan) must be given together");
		return -EINVAL;
	}
	if ((o->left_vxlan || o->right_vxlan) && !given(o, "vni")) {
		snprintf(err, errlen,
			 "a tunnel end (--left-vxlan, --right-vxlan) needs --vni N");
		return -EINVAL;
	}
	if (o->left && o->right && strcmp(o->left, o->right) == 0) {
		snprintf(err, errlen,
			 "--left and --right name the same socket '%.64s'",
			 o->left);
		return -EINVAL;
	}
	if (left && o->n_cables) {
		snprintf(err, errlen,
			 "--cable cannot be combined with --left/--right");
		return -EINVAL;
	}
	if (o->config && (left || o->n_cables)) {
		snprintf(err, errlen,
			 "--config declares the cables: it cannot be combined with --left/--right or --cable");
		return -EINVAL;
	}
	return 0;
}

/**
 * xc_opts_parse() - parse xcable options
 * @o:		filled with defaults, then with what the arguments say
 * @argc:	number of arguments in @argv (no program name)
 * @argv:	the arguments
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Options take their value as "--opt value" or "--opt=value".
 *
 * Return: 0 on success, -EINVAL on a usage error (message in @err)
 */
int xc_opts_parse(struct xc_opts *o, int argc, char **argv,
		  char *err, size_t errlen)
{
	int i;

	xc_opts_defaults(o);
	for (i = 0; i < argc; i++) {
		const struct xc_opt_desc *d;
		const char *val;

		d = find_cli(argv[i], &val);
		if (d == NULL)
			return unknown_arg(argv[i], err, errlen);
		if (!xc_opt_takes_value(d) && val) {
			snprintf(err, errlen, "option --%s takes no value",
				 d->name);
			return -EINVAL;
		}
		if (xc_opt_takes_value(d) && !val) {
			if (i + 1 == argc) {
				snprintf(err, errlen,
					 "option --%s needs a value", d->name);
				return -EINVAL;
			}
			val = argv[++i];
		}
		if (cli_set(o, d, val, err, errlen))
			return -EINVAL;
	}
	if (o->help || o->version)
		return 0;
	return check_modes(o, err, errlen);
}

/**
 * is_text() - is an option's value kept as text in struct xc_opts?
 * @d:		the option
 *
 * Return: true for names, file paths and addresses
 */
static bool is_text(const struct xc_opt_desc *d)
{
	return d->type == XC_OPT_NAME || d->type == XC_OPT_FILE ||
	       d->type == XC_OPT_ADDR;
}

/**
 * text_slot() - where a [global] string value is kept
 * @o:		options
 * @d:		the option (XC_OPT_NAME or XC_OPT_FILE, in [global])
 *
 * Each such option has a slot of @o->text of its own, so that a key given
 * twice overwrites its first value.
 *
 * Return: the slot, or NULL if the table has more such options than slots
 */
static char *text_slot(struct xc_opts *o, const struct xc_opt_desc *d)
{
	const struct xc_opt_desc *t;
	unsigned int n = 0;

	for (t = xc_opt_table; t != d; t++)
		if ((t->where & GLOBAL) && is_text(t))
			n++;
	return n < XC_OPT_TEXT_SLOTS ? o->text[n] : NULL;
}

/**
 * xc_opts_set_global() - apply a [global] KEY = VALUE of a config file
 * @o:		options; those the command line set are kept
 * @key:	the key
 * @val:	the value
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0, -ENOENT if @key is no [global] key, -EINVAL for a bad value
 */
int xc_opts_set_global(struct xc_opts *o, const char *key, const char *val,
		       char *why, size_t whylen)
{
	unsigned int i;
	union opt_val v;
	char *slot;

	for (i = 0; i < xc_opt_count; i++) {
		const struct xc_opt_desc *d = &xc_opt_table[i];

		if (!(d->where & GLOBAL) ||
		    strcmp(key, d->key ? d->key : d->name) != 0)
			continue;
		if (parse_value(d, val, &v, why, whylen))
			return -EINVAL;
		if (o->given & (1ULL << i))
			return 0;
		if (is_text(d)) {
			slot = text_slot(o, d);
			if (slot == NULL || strlen(val) >= XC_OPT_TEXT_MAX) {
				snprintf(why, whylen, "value too long");
				return -EINVAL;
			}
			strcpy(slot, val);
			v.s = slot;
		}
		store(d, o, d->opts_off, 0, &v);
		return 0;
	}
	return -ENOENT;
}

/**
 * end_field_size() - size of an option's field in struct xc_end_def
 * @d:		the option
 *
 * Return: the size of its char array, 0 if it is no text
 */
static size_t end_field_size(const struct xc_opt_desc *d)
{
	if (d->type == XC_OPT_ADDR)
		return XC_ADDR_TEXT_MAX;
	return d->type == XC_OPT_NAME ? d->max + 1 : 0;
}

/**
 * xc_end_def_kinds() - how many keys that declare an end's kind an end
 *			definition has: a socket path, a port, and each key
 *			of the table that declares one (left-vxlan...)
 * @e:		the end
 *
 * Return: that number; 1 for an end that is well declared
 */
unsigned int xc_end_def_kinds(const struct xc_end_def *e)
{
	unsigned int i, n = xc_end_def_socket(e) + (e->port >= 0);

	for (i = 0; i < xc_opt_count; i++)
		if (xc_opt_table[i].declares &&
		    ((const char *)e)[xc_opt_table[i].end_off] != '\0')
			n++;
	return n;
}

/**
 * xc_end_def_keys() - the keys that declare an end, for people:
 *		       "left = PATH, left-port = NAME, left-vxlan = ..."
 * @side:	"left" or "right"
 * @buf:	filled
 * @len:	size of @buf
 */
void xc_end_def_keys(const char *side, char *buf, size_t len)
{
	size_t n;
	unsigned int i;

	n = (size_t)snprintf(buf, len, "%s = PATH, %s-port = NAME", side,
			     side);
	for (i = 0; i < xc_opt_count && n < len; i++)
		if (xc_opt_table[i].declares)
			n += (size_t)snprintf(buf + n, len - n, ", %s-%s = %s",
					      side, xc_opt_table[i].name,
					      xc_opt_table[i].arg);
}

/**
 * xc_cable_def_end() - the end of a cable a config key is about
 * @d:		the cable
 * @key:	the key: "left..." or "right..."
 * @rest:	set to what follows "left" or "right"
 *
 * Return: that end, or NULL if @key names neither
 */
struct xc_end_def *xc_cable_def_end(struct xc_cable_def *d, const char *key,
				    const char **rest)
{
	if (strncmp(key, "left", 4) == 0) {
		*rest = key + 4;
		return &d->end[0];
	}
	if (strncmp(key, "right", 5) == 0) {
		*rest = key + 5;
		return &d->end[1];
	}
	return NULL;
}

/**
 * xc_opts_set_cable() - apply a [cable NAME] KEY = VALUE that is an option
 *			 (impair, left-queues, right-client...)
 * @d:		the cable
 * @key:	the key
 * @val:	the value
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0, -ENOENT if @key is no option of a cable, -EINVAL for a bad
 * value
 */
int xc_opts_set_cable(struct xc_cable_def *d, const char *key,
		      const char *val, char *why, size_t whylen)
{
	const char *sub = key;
	struct xc_end_def *end = xc_cable_def_end(d, key, &sub);
	unsigned int i;
	union opt_val v;

	if (end && *sub == '-') {	/* left-KEY, right-KEY */
		sub++;
	} else {
		end = NULL;
		sub = key;
	}
	for (i = 0; i < xc_opt_count; i++) {
		const struct xc_opt_desc *t = &xc_opt_table[i];
		const char *k = t->key ? t->key : t->name;

		if (!(t->where & (end ? XC_OPT_END : XC_OPT_CABLE)) ||
		    strcmp(sub, k) != 0)
			continue;
		if (parse_value(t, val, &v, why, whylen))
			return -EINVAL;
		if (end)
			store(t, end, t->end_off, end_field_size(t), &v);
		else
			store(t, d, t->cable_off, 0, &v);
		return 0;
	}
	return -ENOENT;
}

/**
 * xc_opts_inherit() - give a cable and its ends the values of the options
 *		       that cables and ends have too (queues, impair...)
 * @o:		options
 * @d:		the cable
 */
void xc_opts_inherit(const struct xc_opts *o, struct xc_cable_def *d)
{
	unsigned int i, j;

	for (i = 0; i < xc_opt_count; i++) {
		const struct xc_opt_desc *t = &xc_opt_table[i];
		const char *f = (const char *)o + t->opts_off;
		union opt_val v;

		if (cable_value_size(t)) {
			if (t->where & XC_OPT_CABLE)
				memcpy((char *)d + t->cable_off, f,
				       cable_value_size(t));
			continue;
		}
		/* an end's key that is no option of the whole (vxlan) */
		if (!(t->where & XC_OPT_END) || !(t->where & (CLI | GLOBAL)))
			continue;
		if (t->type == XC_OPT_NAME) {
			v.s = *(const char *const *)f;
			if (v.s == NULL)
				continue;
		} else if (t->type == XC_OPT_ON || t->type == XC_OPT_OFF) {
			v.b = *(const bool *)f != t->negate;
		} else {
			v.u = *(const unsigned int *)f;
		}
		for (j = 0; j < 2; j++)
			store(t, &d->end[j], t->end_off, end_field_size(t), &v);
	}
}

/**
 * xc_opts_simple_defs() - the one cable of the simple mode, as a definition
 * @o:		parsed options, with left and right set
 * @def:	filled
 */
void xc_opts_simple_defs(const struct xc_opts *o, struct xc_cable_def *def)
{
	int j;

	memset(def, 0, sizeof(*def));
	snprintf(def->name, sizeof(def->name), "cable0");
	def->lcore = -1;
	xc_opts_inherit(o, def);
	for (j = 0; j < 2; j++) {
		struct xc_end_def *e = &def->end[j];

		const char *vx = j ? o->right_vxlan : o->left_vxlan;

		if (vx)
			snprintf(e->vxlan, sizeof(e->vxlan), "%s", vx);
		else
			snprintf(e->path, sizeof(e->path), "%s",
				 j ? o->right : o->left);
		e->port = -1;
	}
}

/**
 * xc_opts_simple() - tell whether the options ask for the simple mode
 * @o:		parsed options
 *
 * Return: true if --left/--right were given
 */
bool xc_opts_simple(const struct xc_opts *o)
{
	return o->left != NULL || o->left_vxlan != NULL;
}

#define HELP_COL	24
#define HELP_WIDTH	79

/**
 * wrap() - print text in the second column of --help, wrapped at
 *	    HELP_WIDTH columns, and end the line
 * @f:		where
 * @col:	column the cursor is at
 * @text:	words, separated by spaces
 */
static void wrap(FILE *f, int col, const char *text)
{
	char buf[1024], *w, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", text);
	if (col >= HELP_COL) {
		fputc('\n', f);
		col = 0;
	}
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int n = (int)strlen(w);

		if (col > HELP_COL && col + 1 + n > HELP_WIDTH) {
			fputc('\n', f);
			col = 0;
		}
		if (col < HELP_COL)
			col += fprintf(f, "%*s", HELP_COL - col, "");
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%s", w);
	}
	fputc('\n', f);
}

/**
 * help_entry() - print one option of --help
 * @f:		where
 * @d:		the option
 */
static void help_entry(FILE *f, const struct xc_opt_desc *d)
{
	char text[512];
	int col;

	if (d->short_name)
		col = fprintf(f, "  -%c, --%s", d->short_name, d->name);
	else
		col = fprintf(f, "  --%s", d->name);
	if (d->arg)
		col += fprintf(f, " %s", d->arg);
	if (d->type == XC_OPT_UINT && d->def)
		snprintf(text, sizeof(text), "%s (default %lu)", d->help, d->def);
	else if (d->type == XC_OPT_MODE)
		snprintf(text, sizeof(text), "%s (default 0%lo)", d->help, d->def);
	else
		snprintf(text, sizeof(text), "%s", d->help);
	wrap(f, col, text);
}

/**
 * help_keys() - print the config keys of the options that have one
 * @f:		where
 * @where:	XC_OPT_GLOBAL, XC_OPT_CABLE or XC_OPT_END
 * @title:	first column
 * @more:	keys that are not options, to add, or ""
 */
static void help_keys(FILE *f, unsigned int where, const char *title,
		      const char *more)
{
	char text[1024];
	size_t n = 0;
	unsigned int i;

	text[0] = '\0';
	for (i = 0; i < xc_opt_count && n < sizeof(text); i++) {
		const struct xc_opt_desc *d = &xc_opt_table[i];

		if (d->where & where)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s ",
					      d->key ? d->key : d->name);
	}
	if (n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, "%s", more);
	wrap(f, fprintf(f, "  %s", title), text);
}

/**
 * xc_opts_help() - print the usage text, its options from xc_opt_table
 * @f:		where
 * @prog:	program name
 */
void xc_opts_help(FILE *f, const char *prog)
{
	const char *group = NULL;
	unsigned int i;

	fprintf(f, "Usage:\n"
		"  %s --left SOCK --right SOCK [options]\n"
		"  %s --config FILE [options]\n"
		"  %s [EAL options] [-- [--cable A:B]... [options]]\n"
		"\n"
		"A vhost-user cross cable: joins the virtio-net NICs of two VMs.\n"
		"In DPDK mode any ethdev may sit at either end, e.g.\n"
		"  %s -l 0-1 --vdev net_vhost0,iface=/tmp/left.sock \\\n"
		"     --vdev net_vhost1,iface=/tmp/right.sock [-- --stats-interval 10]\n",
		prog, prog, prog, prog);
	for (i = 0; i < xc_opt_count; i++) {
		if (!(xc_opt_table[i].where & CLI))
			continue;	/* a config key only */
		if (xc_opt_table[i].group != group) {
			group = xc_opt_table[i].group;
			fprintf(f, "\n%s\n", group);
		}
		help_entry(f, &xc_opt_table[i]);
	}
	fprintf(f, "\nConfig file keys (the command line overrides [global]):\n");
	help_keys(f, XC_OPT_GLOBAL, "[global]", "");
	help_keys(f, XC_OPT_CABLE, "[cable NAME]",
		  "(besides its ends and lcore: see xcable(1))");
	help_keys(f, XC_OPT_END, "  per end", "(as left-KEY and right-KEY)");
	fprintf(f, "\n"
		"Exit status: 0 on a clean stop (SIGINT/SIGTERM), 1 on a runtime\n"
		"failure, 2 on a usage or setup error.\n");
}

/**
 * xc_opts_usage() - print the usage text on stdout
 * @prog:	program name
 */
void xc_opts_usage(const char *prog)
{
	xc_opts_help(stdout, prog);
}
