/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * options.c - parsing of xcable's own options
 *
 * Every option and config key is described once, in a table: its command
 * line name, its config key and the sections it may appear in, its type
 * and range, its help text and the fields it is stored in. The common ones
 * are xc_opt_table below; a kind of end has its own (kinddef.h), whose
 * values go to the kind's parts of an end definition and of the options.
 * The command line parser, the config file (config.c) and --help read
 * them all as one table, row by row (xc_opt_row()).
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

#include <rte_common.h>
#include <rte_kvargs.h>

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
#define PRT(f)	((int)offsetof(struct xc_port_def, f))
#define CLI	XC_OPT_CLI
#define GLOBAL	XC_OPT_GLOBAL

static const char g_simple[] = "Simple mode (no DPDK knowledge needed):";
static const char g_config[] = "Config mode:";
static const char g_dpdk[] = "DPDK mode (EAL options, then '--' if xcable's options follow):";
static const char g_all[] = "All modes:";
static const char g_ends[] = "Config file keys of an end (left-KEY, right-KEY):";
static const char g_ports[] = "Config file keys of a [port NAME]:";

/* every option, once; --help lists them in this order */
const struct xc_opt_desc xc_opt_table[] = {
	{ .name = "left", .where = CLI, .type = XC_OPT_SOCK, .once = true,
	  .side = 1, .arg = "SOCK", .group = g_simple, .opts_off = OPT(left),
	  .end_off = END(path), .help = "vhost-user socket of the first VM" },
	{ .name = "right", .where = CLI, .type = XC_OPT_SOCK, .once = true,
	  .side = 2, .arg = "SOCK", .group = g_simple, .opts_off = OPT(right),
	  .end_off = END(path), .help = "vhost-user socket of the second VM" },
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
	{ .name = "metrics-file", .where = CLI | GLOBAL, .type = XC_OPT_FILE,
	  .max = 4095, .arg = "PATH", .group = g_all,
	  .opts_off = OPT(metrics_file),
	  .help = "keep PATH current with every counter in the Prometheus text format (for node_exporter's textfile collector): rewritten atomically every --stats-interval seconds, or every 10 s without one" },
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
	{ .name = "socket", .key = "", .where = XC_OPT_END, .type = XC_OPT_SOCK,
	  .absolute = true, .declares = true, .arg = "PATH",
	  .group = g_ends, .end_off = END(path),
	  .help = "left = PATH, right = PATH: the end is a VM's vhost-user socket" },
	{ .name = "port", .where = XC_OPT_END, .type = XC_OPT_PORTREF,
	  .declares = true, .arg = "NAME", .group = g_ends,
	  .end_off = END(port),
	  .help = "the end is a DPDK port, declared by a [port NAME] section" },
	{ .name = "tag", .where = XC_OPT_END, .type = XC_OPT_UINT, .min = 1,
	  .max = 4094, .arg = "N", .what = "a VLAN id", .group = g_ends,
	  .end_off = END(tag),
	  .help = "with left-port: the end is that port's under this outer VLAN tag, a trunk shared with other cables' ends; with left-netdev: the interface's frames under this tag" },
	{ .name = "lcore", .where = XC_OPT_CABLE, .type = XC_OPT_UINT,
	  .max = XC_MAX_LCORE_ID, .arg = "N", .what = "an lcore number",
	  .group = g_config, .cable_off = CAB(lcore),
	  .help = "config key of a [cable NAME]: the lcore that forwards it (default: spread)" },
	{ .name = "devargs", .where = XC_OPT_PORT, .type = XC_OPT_DEVARGS,
	  .max = XC_DEVARGS_MAX - 1, .arg = "DEVICE[,ARGS]", .group = g_ports,
	  .port_off = PRT(devargs),
	  .help = "the device: a virtual device and its arguments (net_af_packet0,iface=eth1) or a PCI address (0000:03:00.0)" },
	{ .name = "tag-type", .where = XC_OPT_PORT, .type = XC_OPT_TPID,
	  .def = XC_TPID_8021AD, .arg = "802.1ad|802.1q", .group = g_ports,
	  .port_off = PRT(tpid),
	  .help = "the outer tag of the cables trunked over it (default 802.1ad)" },
	{ .name = "mtu", .where = XC_OPT_PORT, .type = XC_OPT_UINT, .min = 68,
	  .max = 16000, .arg = "N", .what = "an MTU", .group = g_ports,
	  .port_off = PRT(mtu),
	  .help = "the port's MTU (default: the driver's)" },
	{ .name = "help", .short_name = 'h', .where = CLI, .type = XC_OPT_ON,
	  .group = g_all, .opts_off = OPT(help), .help = "this text" },
	{ .name = "version", .short_name = 'V', .where = CLI,
	  .type = XC_OPT_ON, .group = g_all, .opts_off = OPT(version),
	  .help = "print the version" },
};

const unsigned int xc_opt_count = sizeof(xc_opt_table) / sizeof(xc_opt_table[0]);

/**
 * xc_opt_row() - row @i of the whole option table: the common rows first,
 *		  then each kind's, in endkinds.def's order
 * @i:		its number
 * @r:		filled
 *
 * Return: true, or false if there is no row @i (the table has fewer)
 */
bool xc_opt_row(unsigned int i, struct xc_opt_row *r)
{
	unsigned int k, n = xc_opt_count;

	r->i = i;
	if (i < n) {
		r->d = &xc_opt_table[i];
		r->kind = XC_N_END_KINDS;
		return i < XC_OPT_MAX;
	}
	for (k = 0; k < XC_N_END_KINDS; n += xc_kind_defs[k]->n_opts, k++)
		if (i < n + xc_kind_defs[k]->n_opts) {
			r->d = &xc_kind_defs[k]->opts[i - n];
			r->kind = (enum xc_kind_id)k;
			return i < XC_OPT_MAX;
		}
	return false;
}

/* the rows, as a loop: for (ROW_EACH(i, r)) ... */
#define ROW_EACH(i, r)	(i) = 0; xc_opt_row((i), (r)); (i)++

/* bit() - is bit @i of a bit map set? */
static bool bit(const uint8_t *map, unsigned int i)
{
	return map[i / 8] >> (i % 8) & 1;
}

/* set_bit() - set bit @i of a bit map */
static void set_bit(uint8_t *map, unsigned int i)
{
	map[i / 8] |= (uint8_t)(1u << (i % 8));
}

/**
 * opts_base() - where a row's value goes in the options: the struct, or
 *		 its kind's part of it
 * @o:		options
 * @r:		the row
 *
 * Return: the base its opts_off counts from
 */
static char *opts_base(struct xc_opts *o, const struct xc_opt_row *r)
{
	return r->kind == XC_N_END_KINDS ? (char *)o :
	       (char *)xc_kind_opts_area(o, r->kind);
}

/**
 * end_base() - where a row's value goes in an end definition: the struct,
 *		or its kind's part of it
 * @e:		end definition
 * @r:		the row
 *
 * Return: the base its end_off counts from
 */
static char *end_base(struct xc_end_def *e, const struct xc_opt_row *r)
{
	return r->kind == XC_N_END_KINDS ? (char *)e :
	       (char *)xc_kind_def_area(e, r->kind);
}

/**
 * union opt_val - a parsed option value
 * @b:		XC_OPT_ON, XC_OPT_OFF: the key's yes or no
 * @u:		XC_OPT_UINT, XC_OPT_MODE, XC_OPT_TPID
 * @s:		XC_OPT_NAME, XC_OPT_SOCK, XC_OPT_FILE, XC_OPT_LIST,
 *		XC_OPT_ADDR, XC_OPT_PORTREF, XC_OPT_DEVARGS
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
 * parse_text() - check a value that is kept as text
 * @d:		the option (XC_OPT_NAME, XC_OPT_FILE, XC_OPT_SOCK,
 *		XC_OPT_DEVARGS)
 * @text:	the value as given
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
static int parse_text(const struct xc_opt_desc *d, const char *text,
		      char *why, size_t whylen)
{
	size_t k;

	switch (d->type) {
	case XC_OPT_SOCK:
		if (d->absolute && text[0] != '/') {
			snprintf(why, whylen, "socket path must be absolute");
			return -EINVAL;
		}
		return check_path(text, why, whylen);
	case XC_OPT_DEVARGS:
		if (text[0] == '\0' || strlen(text) > d->max) {
			snprintf(why, whylen, "expected a device and its arguments, at most %lu bytes",
				 d->max);
			return -EINVAL;
		}
		for (k = 0; text[k]; k++)
			if (text[k] <= ' ' || text[k] > '~') {
				snprintf(why, whylen, "spaces and control characters are not allowed");
				return -EINVAL;
			}
		return 0;
	default:
		if (text[0] && strlen(text) <= d->max)
			return 0;
		if (d->type == XC_OPT_NAME)
			snprintf(why, whylen, "expected a %s (1 to %lu bytes)",
				 d->what, d->max);
		else
			snprintf(why, whylen, "expected a path (1 to %lu bytes)",
				 d->max);
		return -EINVAL;
	}
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
	case XC_OPT_SOCK:
	case XC_OPT_DEVARGS:
		rc = parse_text(d, text, why, whylen);
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
	case XC_OPT_PORTREF:	/* its section is looked up by the caller */
		v->s = text;
		rc = 0;
		break;
	case XC_OPT_ADDR:
		rc = xc_addr_parse(text, d->max != 0, 1, &ss, why, whylen);
		v->s = text;
		break;
	case XC_OPT_TPID:
		rc = 0;
		if (strcasecmp(text, "802.1ad") == 0)
			v->u = XC_TPID_8021AD;
		else if (strcasecmp(text, "802.1q") == 0)
			v->u = XC_TPID_8021Q;
		else
			rc = -EINVAL;
		if (rc)
			snprintf(why, whylen, "expected 802.1ad or 802.1q");
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
 * field_size() - size of an option's text field where it is a char array
 *		  (in an end or a port definition)
 * @d:		the option
 *
 * Return: the size of its char array, 0 if it is no text
 */
static size_t field_size(const struct xc_opt_desc *d)
{
	switch (d->type) {
	case XC_OPT_ADDR:
		return XC_ADDR_TEXT_MAX;
	case XC_OPT_SOCK:
		return XC_SOCK_PATH_MAX;
	case XC_OPT_NAME:
	case XC_OPT_DEVARGS:
		return d->max + 1;
	default:
		return 0;
	}
}

/**
 * store() - put a value into a struct xc_opts, xc_cable_def, xc_end_def,
 *	     xc_port_def or a kind's part of one
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
	case XC_OPT_TPID:
		*(uint16_t *)f = (uint16_t)v->u;
		break;
	case XC_OPT_NAME:
	case XC_OPT_SOCK:
	case XC_OPT_FILE:
	case XC_OPT_ADDR:
	case XC_OPT_DEVARGS:
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
	case XC_OPT_PORTREF:
		break;
	}
}

/**
 * default_value() - a row's default, for the types that have one
 * @d:		the option
 * @v:		filled
 *
 * Return: true if @d has a default
 */
static bool default_value(const struct xc_opt_desc *d, union opt_val *v)
{
	switch (d->type) {
	case XC_OPT_IMPAIR:
		xc_impair_parse("none", &v->im, NULL, 0);
		return true;
	case XC_OPT_FLAP:
		xc_flap_parse("none", &v->flap, NULL, 0);
		return true;
	case XC_OPT_ON:
	case XC_OPT_OFF:
		v->b = d->def;
		return true;
	case XC_OPT_UINT:
	case XC_OPT_MODE:
	case XC_OPT_TPID:
		v->u = d->def;
		return true;
	default:
		return false;
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
	struct xc_opt_row r;
	union opt_val v;
	unsigned int i;

	memset(o, 0, sizeof(*o));
	for (ROW_EACH(i, &r)) {
		if (!(r.d->where & (CLI | GLOBAL)) || !default_value(r.d, &v))
			continue;
		store(r.d, opts_base(o, &r), r.d->opts_off, 0, &v);
	}
}

/**
 * find_cli() - look up a command line argument in the table
 * @arg:	"--name", "--name=value" or "-x"
 * @val:	set to the text after '=', or NULL
 * @r:		filled with the row
 *
 * Return: true if @arg names an option
 */
static bool find_cli(const char *arg, const char **val, struct xc_opt_row *r)
{
	const char *eq;
	unsigned int i;
	size_t n;

	*val = NULL;
	if (arg[0] == '-' && arg[1] && arg[1] != '-' && arg[2] == '\0') {
		for (ROW_EACH(i, r))
			if ((r->d->where & CLI) && r->d->short_name == arg[1])
				return true;
		return false;
	}
	if (strncmp(arg, "--", 2) != 0)
		return false;
	arg += 2;
	eq = strchr(arg, '=');
	n = eq ? (size_t)(eq - arg) : strlen(arg);
	for (ROW_EACH(i, r)) {
		if ((r->d->where & CLI) && strlen(r->d->name) == n &&
		    strncmp(r->d->name, arg, n) == 0) {
			*val = eq ? eq + 1 : NULL;
			return true;
		}
	}
	return false;
}

/**
 * xc_opt_find() - the option a command line argument names
 * @arg:	"--name", "--name=value" or "-x"
 *
 * Return: the option, or NULL
 */
const struct xc_opt_desc *xc_opt_find(const char *arg)
{
	struct xc_opt_row r;
	const char *val;

	return find_cli(arg, &val, &r) ? r.d : NULL;
}

/**
 * cli_set() - apply one command line option
 * @o:		options
 * @r:		the option's row
 * @val:	its value, NULL for a flag
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with a message naming the option
 */
static int cli_set(struct xc_opts *o, const struct xc_opt_row *r,
		   const char *val, char *err, size_t errlen)
{
	const struct xc_opt_desc *d = r->d;
	char why[XC_ERR_LEN], *base = opts_base(o, r);
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
	if (d->once && bit(o->given, r->i)) {
		snprintf(err, errlen, "option --%s given twice", d->name);
		return -EINVAL;
	}
	store(d, base, d->opts_off, 0, &v);
	set_bit(o->given, r->i);
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
 * xc_opt_given() - did the command line give an option?
 * @o:		parsed options
 * @name:	its name
 *
 * Return: true if so
 */
bool xc_opt_given(const struct xc_opts *o, const char *name)
{
	struct xc_opt_row r;
	unsigned int i;

	for (ROW_EACH(i, &r))
		if ((r.d->where & CLI) && strcmp(r.d->name, name) == 0)
			return bit(o->given, i);
	return false;
}

/**
 * side_options() - the command line options that declare one end of the
 *		    simple mode, and how many of them were given
 * @o:		parsed options
 * @side:	1 for the left end, 2 for the right
 * @names:	filled with "--left, --left-..."
 * @len:	size of @names
 * @first:	set to the row of the first one given
 *
 * Return: how many were given
 */
static unsigned int side_options(const struct xc_opts *o, unsigned int side,
				 char *names, size_t len,
				 struct xc_opt_row *first)
{
	struct xc_opt_row r;
	unsigned int i, n = 0;
	size_t used = 0;

	names[0] = '\0';
	for (ROW_EACH(i, &r)) {
		if (r.d->side != side)
			continue;
		if (used < len)
			used += (size_t)snprintf(names + used, len - used,
						 "%s--%s", used ? ", " : "",
						 r.d->name);
		if (bit(o->given, i) && n++ == 0)
			*first = r;
	}
	return n;
}

/**
 * check_modes() - check that the options ask for one mode, and for the
 *		   simple mode two ends, each of one kind
 * @o:		parsed options
 * @err:	message buffer
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with a message
 */
static int check_modes(const struct xc_opts *o, char *err, size_t errlen)
{
	char names[2][256];
	struct xc_opt_row r[2];
	unsigned int n[2], k;

	for (k = 0; k < 2; k++) {
		n[k] = side_options(o, k + 1, names[k], sizeof(names[k]),
				    &r[k]);
		if (n[k] > 1) {
			snprintf(err, errlen, "the %s end is declared twice: give one of %s",
				 k ? "right" : "left", names[k]);
			return -EINVAL;
		}
	}
	if (n[0] != n[1]) {
		snprintf(err, errlen, "the %s end is missing: give one of %s (the simple mode has two ends)",
			 n[0] ? "right" : "left", names[n[0] ? 1 : 0]);
		return -EINVAL;
	}
	for (k = 0; n[0] && k < XC_N_END_KINDS; k++)
		if (xc_kind_defs[k]->simple &&
		    xc_kind_defs[k]->simple(o, err, errlen))
			return -EINVAL;
	if (o->left && o->right && strcmp(o->left, o->right) == 0) {
		snprintf(err, errlen,
			 "--left and --right name the same socket '%.64s'",
			 o->left);
		return -EINVAL;
	}
	if (n[0] && o->n_cables) {
		snprintf(err, errlen,
			 "--cable cannot be combined with --left/--right");
		return -EINVAL;
	}
	if (o->config && (n[0] || o->n_cables)) {
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
	struct xc_opt_row r;
	int i;

	xc_opts_defaults(o);
	for (i = 0; i < argc; i++) {
		const char *val;

		if (!find_cli(argv[i], &val, &r))
			return unknown_arg(argv[i], err, errlen);
		if (!xc_opt_takes_value(r.d) && val) {
			snprintf(err, errlen, "option --%s takes no value",
				 r.d->name);
			return -EINVAL;
		}
		if (xc_opt_takes_value(r.d) && !val) {
			if (i + 1 == argc) {
				snprintf(err, errlen,
					 "option --%s needs a value", r.d->name);
				return -EINVAL;
			}
			val = argv[++i];
		}
		if (cli_set(o, &r, val, err, errlen))
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
 * @row:	the option's row (XC_OPT_NAME, XC_OPT_FILE or XC_OPT_ADDR, in
 *		[global])
 *
 * Each such option has a slot of @o->text of its own, so that a key given
 * twice overwrites its first value.
 *
 * Return: the slot, or NULL if the table has more such options than slots
 */
static char *text_slot(struct xc_opts *o, unsigned int row)
{
	struct xc_opt_row r;
	unsigned int i, n = 0;

	for (ROW_EACH(i, &r)) {
		if (i == row)
			break;
		if ((r.d->where & GLOBAL) && is_text(r.d))
			n++;
	}
	return n < XC_OPT_TEXT_SLOTS ? o->text[n] : NULL;
}

/**
 * key_of() - an option's config key
 * @d:		the option
 *
 * Return: its key
 */
static const char *key_of(const struct xc_opt_desc *d)
{
	return d->key ? d->key : d->name;
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
	struct xc_opt_row r;
	unsigned int i;
	union opt_val v;
	char *slot;

	for (ROW_EACH(i, &r)) {
		if (!(r.d->where & GLOBAL) || strcmp(key, key_of(r.d)) != 0)
			continue;
		if (parse_value(r.d, val, &v, why, whylen))
			return -EINVAL;
		if (bit(o->given, i))
			return 0;
		if (is_text(r.d)) {
			slot = text_slot(o, i);
			if (slot == NULL || strlen(val) >= XC_OPT_TEXT_MAX) {
				snprintf(why, whylen, "value too long");
				return -EINVAL;
			}
			strcpy(slot, val);
			v.s = slot;
		}
		store(r.d, opts_base(o, &r), r.d->opts_off, 0, &v);
		return 0;
	}
	return -ENOENT;
}

/**
 * declared_by() - does an end definition give a declaring row's field?
 * @e:		the end
 * @r:		a row that declares an end's kind
 *
 * Return: true if its field is set (a text, or a port)
 */
static bool declared_by(const struct xc_end_def *e, const struct xc_opt_row *r)
{
	const char *f = end_base((struct xc_end_def *)e, r) + r->d->end_off;

	if (r->d->type == XC_OPT_PORTREF)
		return *(const int *)f >= 0;
	return f[0] != '\0';
}

/**
 * xc_end_def_kinds() - how many keys that declare an end's kind an end
 *			definition has (left = PATH, left-port = NAME, and
 *			each kind's own, left-vxlan...)
 * @e:		the end
 *
 * Return: that number; 1 for an end that is well declared
 */
unsigned int xc_end_def_kinds(const struct xc_end_def *e)
{
	struct xc_opt_row r;
	unsigned int i, n = 0;

	for (ROW_EACH(i, &r))
		if (r.d->declares && (r.d->where & XC_OPT_END))
			n += declared_by(e, &r);
	return n;
}

/**
 * xc_end_def_key() - the key that declares an end, as a section gives it
 * @e:		the end
 * @side:	"left" or "right"
 * @buf:	filled: "left", "left-port", "left-vxlan"...
 * @len:	size of @buf
 */
void xc_end_def_key(const struct xc_end_def *e, const char *side, char *buf,
		    size_t len)
{
	struct xc_opt_row r;
	unsigned int i;

	snprintf(buf, len, "%s", side);
	for (ROW_EACH(i, &r))
		if (r.d->declares && (r.d->where & XC_OPT_END) &&
		    declared_by(e, &r)) {
			snprintf(buf, len, "%s%s%s", side,
				 key_of(r.d)[0] ? "-" : "", key_of(r.d));
			return;
		}
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
	struct xc_opt_row r;
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (ROW_EACH(i, &r))
		if (r.d->declares && (r.d->where & XC_OPT_END) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s = %s",
					      n ? ", " : "", side,
					      key_of(r.d)[0] ? "-" : "",
					      key_of(r.d), r.d->arg);
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
 * find_port() - the index of a [port NAME] section
 * @o:		options, with the port definitions
 * @name:	its name
 *
 * Return: index, or -1
 */
static int find_port(const struct xc_opts *o, const char *name)
{
	unsigned int i;

	for (i = 0; i < o->n_port_defs; i++)
		if (strcmp(o->port_defs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/**
 * xc_end_def_given() - did an end's definition give one of its keys
 *			itself (not as a default)?
 * @e:		the end
 * @key:	the key, without "left-"/"right-"
 *
 * Return: true if so
 */
bool xc_end_def_given(const struct xc_end_def *e, const char *key)
{
	struct xc_opt_row r;
	unsigned int i;

	for (ROW_EACH(i, &r))
		if ((r.d->where & XC_OPT_END) && strcmp(key_of(r.d), key) == 0)
			return bit(e->keys, i);
	return false;
}

/**
 * xc_opts_set_cable() - apply a [cable NAME] KEY = VALUE: a key of the
 *			 cable (impair, lcore...) or of one of its ends
 *			 (left = PATH, left-port, left-queues, right-client...)
 * @o:		options, for the [port NAME] sections
 * @d:		the cable
 * @key:	the key
 * @val:	the value
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0, -ENOENT if @key is no key of a cable, -EINVAL for a bad
 * value
 */
int xc_opts_set_cable(const struct xc_opts *o, struct xc_cable_def *d,
		      const char *key, const char *val, char *why,
		      size_t whylen)
{
	const char *sub = key;
	struct xc_end_def *end = xc_cable_def_end(d, key, &sub);
	struct xc_opt_row r;
	unsigned int i;
	union opt_val v;
	int port;

	if (end && *sub == '-')		/* left-KEY, right-KEY */
		sub++;
	else if (end && *sub != '\0')	/* leftover, rightx */
		end = NULL;
	if (end == NULL)
		sub = key;
	for (ROW_EACH(i, &r)) {
		const struct xc_opt_desc *t = r.d;

		if (!(t->where & (end ? XC_OPT_END : XC_OPT_CABLE)) ||
		    strcmp(sub, key_of(t)) != 0)
			continue;
		if (parse_value(t, val, &v, why, whylen))
			return -EINVAL;
		if (end == NULL) {
			store(t, d, t->cable_off, 0, &v);
			return 0;
		}
		if (t->type == XC_OPT_PORTREF) {
			port = find_port(o, val);
			if (port < 0) {
				snprintf(why, whylen, "no [port NAME] section of that name");
				return -EINVAL;
			}
			*(int *)(end_base(end, &r) + t->end_off) = port;
		} else {
			store(t, end_base(end, &r), t->end_off, field_size(t),
			      &v);
		}
		set_bit(end->keys, i);
		return 0;
	}
	return -ENOENT;
}

/**
 * xc_opts_set_port() - apply a [port NAME] KEY = VALUE
 * @pd:		the port, its defaults set (xc_port_def_defaults())
 * @key:	the key
 * @val:	the value
 * @why:	what is wrong, on error
 * @whylen:	size of @why
 *
 * Return: 0, -ENOENT if @key is no key of a port, -EINVAL for a bad value
 */
int xc_opts_set_port(struct xc_port_def *pd, const char *key,
		     const char *val, char *why, size_t whylen)
{
	unsigned int i;
	union opt_val v;

	for (i = 0; i < xc_opt_count; i++) {
		const struct xc_opt_desc *t = &xc_opt_table[i];

		if (!(t->where & XC_OPT_PORT) || strcmp(key, key_of(t)) != 0)
			continue;
		if (parse_value(t, val, &v, why, whylen))
			return -EINVAL;
		store(t, pd, t->port_off, field_size(t), &v);
		return 0;
	}
	return -ENOENT;
}

/**
 * xc_port_def_defaults() - a [port NAME] as its keys' defaults make it
 * @pd:		filled
 * @name:	its name, checked by the caller
 */
void xc_port_def_defaults(struct xc_port_def *pd, const char *name)
{
	union opt_val v;
	unsigned int i;

	memset(pd, 0, sizeof(*pd));
	snprintf(pd->name, sizeof(pd->name), "%s", name);
	for (i = 0; i < xc_opt_count; i++) {
		const struct xc_opt_desc *t = &xc_opt_table[i];

		if ((t->where & XC_OPT_PORT) && default_value(t, &v))
			store(t, pd, t->port_off, 0, &v);
	}
}

/*
 * The drivers whose devargs name a kernel interface (iface=), by every
 * name the EAL knows them by: DPDK registers af_packet as eth_af_packet
 * too (RTE_PMD_REGISTER_ALIAS)
 */
static const char *const kiface_drivers[] = {
	"net_af_packet", "eth_af_packet", "net_af_xdp",
};

/**
 * xc_devargs_kiface() - the kernel interface devargs of a kernel-backed
 *			 driver (kiface_drivers[]) name: iface=
 * @devargs:	a port's devargs
 * @buf:	filled with the interface, "" if they name none or one too
 *		long for @buf
 * @len:	size of @buf
 *
 * Return: 0, -ENAMETOOLONG if iface= does not fit @buf, -ENOENT if
 *	   @devargs are not af_packet's or af_xdp's
 */
int xc_devargs_kiface(const char *devargs, char *buf, size_t len)
{
	const char *args = strchr(devargs, ',');
	struct rte_kvargs *kv;
	const char *v;
	size_t i;
	int rc = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < RTE_DIM(kiface_drivers); i++)
		if (strncmp(devargs, kiface_drivers[i], strlen(kiface_drivers[i])) == 0)
			break;
	if (i == RTE_DIM(kiface_drivers))
		return -ENOENT;
	kv = args ? rte_kvargs_parse(args + 1, NULL) : NULL;
	if (kv == NULL)
		return 0;
	v = rte_kvargs_get(kv, "iface");
	if (v != NULL && strlen(v) < len)
		strcpy(buf, v);
	else if (v != NULL)
		rc = -ENAMETOOLONG;
	rte_kvargs_free(kv);
	return rc;
}

/**
 * copy_field() - copy an option's value from the options to an end: what
 *		  the command line or [global] says, an end's default
 * @r:		the row
 * @o:		options
 * @e:		the end
 */
static void copy_field(const struct xc_opt_row *r, const struct xc_opts *o,
		       struct xc_end_def *e)
{
	const struct xc_opt_desc *t = r->d;
	const char *f = opts_base((struct xc_opts *)o, r) + t->opts_off;
	union opt_val v;

	if (t->type == XC_OPT_NAME || t->type == XC_OPT_SOCK ||
	    t->type == XC_OPT_ADDR) {
		v.s = *(const char *const *)f;
		if (v.s == NULL)
			return;
	} else if (t->type == XC_OPT_ON || t->type == XC_OPT_OFF) {
		v.b = *(const bool *)f != t->negate;
	} else {
		v.u = *(const unsigned int *)f;
	}
	store(t, end_base(e, r), t->end_off, field_size(t), &v);
}

/**
 * xc_opts_inherit() - give a cable and its ends the values of the options
 *		       that cables and ends have too (queues, impair...)
 * @o:		options
 * @d:		the cable
 */
void xc_opts_inherit(const struct xc_opts *o, struct xc_cable_def *d)
{
	struct xc_opt_row r;
	unsigned int i, j;

	for (j = 0; j < 2; j++)
		d->end[j].port = -1;
	for (ROW_EACH(i, &r)) {
		const struct xc_opt_desc *t = r.d;

		if (cable_value_size(t)) {
			if (t->where & XC_OPT_CABLE)
				memcpy((char *)d + t->cable_off,
				       (const char *)o + t->opts_off,
				       cable_value_size(t));
			continue;
		}
		/* an end's key that is no option of the whole (vxlan) */
		if (!(t->where & XC_OPT_END) || !(t->where & (CLI | GLOBAL)))
			continue;
		for (j = 0; j < 2; j++)
			copy_field(&r, o, &d->end[j]);
	}
}

/**
 * xc_opts_simple_defs() - the one cable of the simple mode, as a definition
 * @o:		parsed options, with both ends declared
 * @def:	filled
 */
void xc_opts_simple_defs(const struct xc_opts *o, struct xc_cable_def *def)
{
	struct xc_opt_row r;
	unsigned int i;

	memset(def, 0, sizeof(*def));
	snprintf(def->name, sizeof(def->name), "cable0");
	def->lcore = -1;
	xc_opts_inherit(o, def);
	for (ROW_EACH(i, &r))
		if (r.d->side && bit(o->given, i))
			copy_field(&r, o, &def->end[r.d->side - 1]);
}

/**
 * xc_opts_simple() - tell whether the options ask for the simple mode
 * @o:		parsed options
 *
 * Return: true if its ends were declared (--left/--right...)
 */
bool xc_opts_simple(const struct xc_opts *o)
{
	struct xc_opt_row r;
	unsigned int i;

	for (ROW_EACH(i, &r))
		if (r.d->side && bit(o->given, i))
			return true;
	return false;
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
 * @where:	XC_OPT_GLOBAL, XC_OPT_CABLE, XC_OPT_END or XC_OPT_PORT
 * @title:	first column
 * @more:	what to add, or ""
 */
static void help_keys(FILE *f, unsigned int where, const char *title,
		      const char *more)
{
	struct xc_opt_row r;
	char text[1024];
	unsigned int i;
	size_t n = 0;

	text[0] = '\0';
	for (ROW_EACH(i, &r))
		if ((r.d->where & where) && key_of(r.d)[0] && n < sizeof(text))
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s ",
					      key_of(r.d));
	if (n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, "%s", more);
	wrap(f, fprintf(f, "  %s", title), text);
}

/**
 * xc_opts_help() - print the usage text, its options from the table
 * @f:		where
 * @prog:	program name
 */
void xc_opts_help(FILE *f, const char *prog)
{
	const char *group = NULL;
	struct xc_opt_row r;
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
	for (ROW_EACH(i, &r)) {
		if (!(r.d->where & CLI))
			continue;	/* a config key only */
		if (r.d->group != group) {
			group = r.d->group;
			fprintf(f, "\n%s\n", group);
		}
		help_entry(f, r.d);
	}
	fprintf(f, "\nConfig file keys (the command line overrides [global]):\n");
	help_keys(f, XC_OPT_GLOBAL, "[global]", "");
	help_keys(f, XC_OPT_PORT, "[port NAME]", "");
	help_keys(f, XC_OPT_CABLE, "[cable NAME]",
		  "(and its ends: left = PATH, right = PATH for sockets)");
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

/**
 * xc_kind_def_area() - a kind's own part of an end definition, where the
 *			values of its XC_OPT_END rows go
 * @e:		the definition
 * @k:		the kind
 *
 * Return: XC_KIND_DEF_MAX bytes, laid out by a struct of the kind's
 */
void *xc_kind_def_area(struct xc_end_def *e, enum xc_kind_id k)
{
	return e->kind[k];
}

/* xc_kind_def_carea() - xc_kind_def_area() of a definition read only */
const void *xc_kind_def_carea(const struct xc_end_def *e, enum xc_kind_id k)
{
	return e->kind[k];
}

/**
 * xc_kind_opts_area() - a kind's own part of the options, where the
 *			 values of its command line and [global] rows go
 * @o:		the options
 * @k:		the kind
 *
 * Return: XC_KIND_OPTS_MAX bytes, laid out by a struct of the kind's
 */
void *xc_kind_opts_area(struct xc_opts *o, enum xc_kind_id k)
{
	return o->kind[k];
}

/* xc_kind_opts_carea() - xc_kind_opts_area() of options read only */
const void *xc_kind_opts_carea(const struct xc_opts *o, enum xc_kind_id k)
{
	return o->kind[k];
}
