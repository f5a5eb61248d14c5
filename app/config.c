/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.c - read the config file with rte_cfgfile
 *
 *   [global]                     optional: its keys are options
 *   stats-interval = 60          (xc_opt_table: the XC_OPT_GLOBAL ones,
 *   queues = 1                   some under another name, such as
 *   link-propagation = yes       --no-link-propagation here)
 *
 *   [cable NAME]                 one per cable; NAME: letters, digits, - _ .
 *   left = /run/xcable/a.sock    socket of the left end (required)
 *   right = /run/xcable/b.sock   socket of the right end (required)
 *   lcore = 1                    lcore forwarding this cable (default: spread)
 *   impair = delay=10ms,loss=1%  options of a cable (XC_OPT_CABLE) and of
 *   left-queues = 2              each end (XC_OPT_END, as left-KEY and
 *   right-client = yes           right-KEY) from xc_opt_table; [global]
 *                                and the command line give their defaults
 *   left-port = uplink           instead of left =: the end is a DPDK port
 *   left-tag = 100               on that port, under this outer tag
 *
 *   [port NAME]                  a DPDK port used as a cable end
 *   devargs = net_af_packet0,iface=eth1   a virtual device, or a PCI
 *                                address such as 0000:03:00.0
 *   tag-type = 802.1ad           outer tag of its cables: 802.1ad
 *                                (default) or 802.1q
 *   mtu = 1504                   set the port's MTU (default: keep it)
 *
 * A port with tagged ends is a trunk: each cable over it has its own tag.
 * A port with an untagged end belongs to that end alone.
 *
 * Everything is checked before anything starts: an unknown section or key
 * (a typo), a bad value, a missing end, a socket used twice, all give one
 * line naming the file, the section and the key; syntax errors name the
 * line. The file is untrusted:
 * values are copied into fixed-size fields only after their length is
 * checked.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_cfgfile.h>

#include "config.h"
#include "sockpath.h"
#include "vxlan_wire.h"

#define XC_MAX_LCORE_ID		127

/**
 * struct cfg_ctx - what the checks need to name a problem
 * @file:	config file path
 * @err:	message buffer
 * @errlen:	size of @err
 */
struct cfg_ctx {
	const char *file;
	char *err;
	size_t errlen;
};

/**
 * bad() - format an error naming file, section and key
 * @c:		context
 * @sec:	section name
 * @key:	key name, or NULL
 * @what:	what is wrong
 *
 * Return: -EINVAL
 */
static int bad(struct cfg_ctx *c, const char *sec, const char *key,
	       const char *what)
{
	char *p;

	if (key)
		snprintf(c->err, c->errlen, "%s: [%s] %s: %s", c->file, sec,
			 key, what);
	else
		snprintf(c->err, c->errlen, "%s: [%s]: %s", c->file, sec,
			 what);
	/* names and keys come from the file or a request: untrusted, and
	 * the message goes to a terminal and the log */
	for (p = c->err; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = '?';
	return -EINVAL;
}

/**
 * valid_name() - tell whether a cable name is acceptable
 * @s:		name
 *
 * Return: true if 1..31 characters of letters, digits, '-', '_' or '.'
 */
static bool valid_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= XC_NAME_MAX)
		return false;
	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' ||
		      ch == '.'))
			return false;
	}
	return true;
}

/**
 * set_path() - check and copy a socket path
 * @c:		context
 * @sec:	section
 * @key:	key
 * @v:		value
 * @dst:	destination, XC_SOCK_PATH_MAX bytes
 *
 * Return: 0 or -EINVAL
 */
static int set_path(struct cfg_ctx *c, const char *sec, const char *key,
		    const char *v, char *dst)
{
	char why[XC_ERR_LEN];

	if (v[0] != '/')
		return bad(c, sec, key, "socket path must be absolute");
	if (strlen(v) >= XC_SOCK_PATH_MAX)
		return bad(c, sec, key, "socket path is longer than 107 bytes");
	if (xc_sock_path_chars(v, why, sizeof(why)))
		return bad(c, sec, key, why);
	strcpy(dst, v);
	return 0;
}

/**
 * load_global() - apply the [global] section: every key is an option
 *		   (xc_opt_table)
 * @c:		context
 * @cfg:	parsed file
 * @o:		options; values given on the command line are kept
 *
 * Return: 0 or -EINVAL
 */
static int load_global(struct cfg_ctx *c, struct rte_cfgfile *cfg,
		       struct xc_opts *o)
{
	struct rte_cfgfile_entry e[64];
	char why[XC_ERR_LEN];
	int n, i, rc;

	n = rte_cfgfile_section_entries(cfg, "global", e, 64);
	if (n >= 64)
		return bad(c, "global", NULL, "too many keys");
	for (i = 0; i < n; i++) {
		rc = xc_opts_set_global(o, e[i].name, e[i].value, why,
					sizeof(why));
		if (rc == -ENOENT)
			return bad(c, "global", e[i].name, "unknown key");
		if (rc)
			return bad(c, "global", e[i].name, why);
	}
	return 0;
}

/**
 * load_port() - read one [port NAME] section
 * @c:		context
 * @cfg:	parsed file
 * @sec:	section name ("port NAME")
 * @pd:		filled
 *
 * Return: 0 or -EINVAL
 */
static int load_port(struct cfg_ctx *c, struct rte_cfgfile *cfg,
		     const char *sec, struct xc_port_def *pd)
{
	struct rte_cfgfile_entry e[16];
	const char *name = sec + strlen("port ");
	unsigned long v;
	size_t k;
	int n, i;

	while (*name == ' ')
		name++;
	if (!valid_name(name))
		return bad(c, sec, NULL, "port name must be 1-31 letters, digits, '-', '_' or '.'");
	memset(pd, 0, sizeof(*pd));
	strcpy(pd->name, name);
	pd->tpid = XC_TPID_8021AD;
	n = rte_cfgfile_section_entries(cfg, sec, e, 16);
	if (n >= 16)
		return bad(c, sec, NULL, "too many keys");
	for (i = 0; i < n; i++) {
		const char *key = e[i].name, *val = e[i].value;

		if (strcmp(key, "devargs") == 0) {
			if (val[0] == '\0' || strlen(val) >= XC_DEVARGS_MAX)
				return bad(c, sec, key, "expected a device and its arguments, at most 255 bytes");
			for (k = 0; val[k]; k++)
				if (val[k] <= ' ' || val[k] > '~')
					return bad(c, sec, key, "spaces and control characters are not allowed");
			strcpy(pd->devargs, val);
		} else if (strcmp(key, "tag-type") == 0) {
			if (strcasecmp(val, "802.1ad") == 0)
				pd->tpid = XC_TPID_8021AD;
			else if (strcasecmp(val, "802.1q") == 0)
				pd->tpid = XC_TPID_8021Q;
			else
				return bad(c, sec, key, "expected 802.1ad or 802.1q");
		} else if (strcmp(key, "mtu") == 0) {
			if (xc_parse_uint(val, 68, 16000, &v))
				return bad(c, sec, key, "expected an MTU from 68 to 16000");
			pd->mtu = (unsigned int)v;
		} else {
			return bad(c, sec, key, "unknown key");
		}
	}
	if (pd->devargs[0] == '\0')
		return bad(c, sec, "devargs", "missing: every port needs its devargs");
	if (strncmp(pd->devargs, "net_vhost", 9) == 0)
		return bad(c, sec, "devargs", "vhost-user ends are declared by their socket (left = PATH), not as ports");
	return 0;
}

/**
 * find_port() - the index of a [port NAME] section
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
 * load_end_key() - read a key that declares a cable end: left, right,
 *		    left-port, left-tag, right-port, right-tag
 * @c:		context
 * @sec:	section name
 * @o:		options, for the [port NAME] sections
 * @d:		the cable
 * @k:		key
 * @val:	value
 *
 * Return: 0, -ENOENT if @k is no such key, -EINVAL for a bad value
 */
static int load_end_key(struct cfg_ctx *c, const char *sec,
			const struct xc_opts *o, struct xc_cable_def *d,
			const char *k, const char *val)
{
	const char *sub;
	struct xc_end_def *end = xc_cable_def_end(d, k, &sub);
	unsigned long v;

	if (end == NULL)
		return -ENOENT;
	if (*sub == '\0')
		return set_path(c, sec, k, val, end->path);
	if (strcmp(sub, "-port") == 0) {
		end->port = find_port(o, val);
		if (end->port < 0)
			return bad(c, sec, k, "no [port NAME] section of that name");
		return 0;
	}
	if (strcmp(sub, "-tag") == 0) {
		if (xc_parse_uint(val, 1, 4094, &v))
			return bad(c, sec, k, "expected a VLAN id from 1 to 4094");
		end->tag = (uint16_t)v;
		return 0;
	}
	return -ENOENT;
}

/**
 * vni_given() - does a [cable NAME] section give an end's VNI?
 * @cfg:	parsed file
 * @sec:	section name
 * @side:	"left" or "right"
 *
 * Return: true if it has the key SIDE-vni
 */
static bool vni_given(struct rte_cfgfile *cfg, const char *sec,
		      const char *side)
{
	char key[16];

	snprintf(key, sizeof(key), "%s-vni", side);
	return rte_cfgfile_has_entry(cfg, sec, key);
}

/**
 * load_cable() - read one [cable NAME] section: its ends and lcore here,
 *		  its options (impair, left-queues...) through xc_opt_table
 * @c:		context
 * @cfg:	parsed file
 * @sec:	section name ("cable NAME")
 * @o:		options, for the defaults
 * @d:		filled
 *
 * Return: 0 or -EINVAL
 */
static int load_cable(struct cfg_ctx *c, struct rte_cfgfile *cfg,
		      const char *sec, const struct xc_opts *o,
		      struct xc_cable_def *d)
{
	struct rte_cfgfile_entry e[64];
	const char *name = sec + strlen("cable ");
	unsigned long v;
	int n, i, j;

	while (*name == ' ')
		name++;
	if (!valid_name(name))
		return bad(c, sec, NULL, "cable name must be 1-31 letters, digits, '-', '_' or '.'");
	memset(d, 0, sizeof(*d));
	strcpy(d->name, name);
	d->lcore = -1;
	xc_opts_inherit(o, d);
	for (j = 0; j < 2; j++)
		d->end[j].port = -1;

	n = rte_cfgfile_section_entries(cfg, sec, e, 64);
	if (n >= 64)
		return bad(c, sec, NULL, "too many keys");
	for (i = 0; i < n; i++) {
		const char *k = e[i].name, *val = e[i].value;
		char why[XC_ERR_LEN];
		int rc;

		rc = load_end_key(c, sec, o, d, k, val);
		if (rc != -ENOENT) {
			if (rc)
				return rc;
			continue;
		}
		if (strcmp(k, "lcore") == 0) {
			if (xc_parse_uint(val, 0, XC_MAX_LCORE_ID, &v))
				return bad(c, sec, k, "expected an lcore number from 0 to 127");
			d->lcore = (int)v;
			continue;
		}
		rc = xc_opts_set_cable(d, k, val, why, sizeof(why));
		if (rc == -ENOENT)
			return bad(c, sec, k, "unknown key");
		if (rc)
			return bad(c, sec, k, why);
	}
	if (d->end[0].queues != d->end[1].queues)
		return bad(c, sec, "right-queues", "both ends need the same number of queues");
	for (j = 0; j < 2; j++) {
		const struct xc_end_def *end = &d->end[j];
		const char *side = j ? "right" : "left";
		char key[16], why[XC_ERR_LEN];

		snprintf(key, sizeof(key), "%s", side);
		if (xc_end_def_kinds(end) != 1) {
			char keys[XC_ERR_LEN / 2], msg[XC_ERR_LEN];

			xc_end_def_keys(side, keys, sizeof(keys));
			snprintf(msg, sizeof(msg), "%s: every end is one of %s",
				 xc_end_def_kinds(end) ? "more than one kind" :
				 "missing", keys);
			return bad(c, sec, key, msg);
		}
		snprintf(key, sizeof(key), "%s-vni", side);
		if (xc_end_def_vxlan(end) && !vni_given(cfg, sec, side))
			return bad(c, sec, key, "missing: a tunnel end needs a VNI (left-vni = N)");
		if (xc_end_def_vxlan(end) && end->queues > 1)
			return bad(c, sec, key, "tunnel ends use one queue pair");
		if (end->path[0] && xc_sock_path_fits(end->path, end->client,
						       why, sizeof(why)))
			return bad(c, sec, side, why);
		snprintf(key, sizeof(key), "%s-tag", side);
		if (end->tag && end->port < 0)
			return bad(c, sec, key, "a tag needs a port (left-port = NAME)");
		snprintf(key, sizeof(key), "%s-queues", side);
		if (end->port >= 0 && end->queues > 1)
			return bad(c, sec, key, "cables with a port end use one queue pair");
	}
	return 0;
}

/**
 * find_bad_line() - find the first line rte_cfgfile would reject
 * @file:	path
 * @why:	set to a description of the problem
 *
 * rte_cfgfile_load() only says that it failed; this says where.
 *
 * Return: the line number, or 0 if none looks wrong
 */
static int find_bad_line(const char *file, const char **why)
{
	char line[1024];
	bool in_section = false;
	int n = 0, found = 0;
	FILE *f = fopen(file, "r");

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = line, *end;

		n++;
		/* rte_cfgfile reads lines of up to CFG_VALUE_LEN bytes */
		if ((strchr(line, '\n') == NULL && !feof(f)) ||
		    strlen(line) >= CFG_VALUE_LEN) {
			*why = "line too long (at most 255 bytes)";
			found = n;
			break;
		}
		end = strpbrk(p, ";#\r\n");
		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (*p == '\0')
			continue;
		if (*p == '[') {
			if (end[-1] != ']' || end - p < 3) {
				*why = "a section header must look like [name]";
				found = n;
			}
			in_section = true;
		} else if (!in_section) {
			*why = "a key outside any section";
			found = n;
		} else if (strchr(p, '=') == NULL || *p == '=') {
			*why = "expected key = value";
			found = n;
		}
	}
	fclose(f);
	return found;
}

/**
 * xc_end_def_clash() - would two end definitions take the same thing: a
 *			socket, a port (untagged, or under one tag), a
 *			tunnel (its VNI and remote)?
 * @a:		an end
 * @b:		another
 * @def_port:	the UDP port of a tunnel remote that gives none
 *
 * Return: true if so
 */
bool xc_end_def_clash(const struct xc_end_def *a, const struct xc_end_def *b,
		      uint16_t def_port)
{
	struct sockaddr_storage sa, sb;
	char why[128];

	if (a->path[0] && strcmp(a->path, b->path) == 0)
		return true;
	if (a->port >= 0 && a->port == b->port &&
	    (!a->tag || !b->tag || a->tag == b->tag))
		return true;
	if (!xc_end_def_vxlan(a) || !xc_end_def_vxlan(b) || a->vni != b->vni)
		return false;
	if (xc_addr_parse(a->vxlan, true, def_port, &sa, why, sizeof(why)) ||
	    xc_addr_parse(b->vxlan, true, def_port, &sb, why, sizeof(why)))
		return strcmp(a->vxlan, b->vxlan) == 0;
	xc_addr_to_v6(&sa);
	xc_addr_to_v6(&sb);
	return xc_addr_same_host(&sa, &sb);
}

/**
 * check_ends_unique() - check that no two ends share a socket, a port
 *			 without distinct tags or a tunnel, and no two
 *			 cables a name
 * @c:		context
 * @o:		options, with the port definitions
 * @defs:	the cables
 * @n_defs:	how many
 *
 * Return: 0 or -EINVAL
 */
static int check_ends_unique(struct cfg_ctx *c, const struct xc_opts *o,
			     const struct xc_cable_def *defs,
			     unsigned int n_defs)
{
	unsigned int a, b;

	for (a = 0; a < 2 * n_defs; a++) {
		for (b = a + 1; b < 2 * n_defs; b++) {
			const struct xc_cable_def *da = &defs[a / 2];
			const struct xc_cable_def *db = &defs[b / 2];
			const struct xc_end_def *ea = &da->end[a % 2];
			const struct xc_end_def *eb = &db->end[b % 2];
			const char *side = b % 2 ? "right" : "left";
			char sec[XC_NAME_MAX + 8], key[16];
			char what[XC_SOCK_PATH_MAX + XC_NAME_MAX * 2 + 96];

			snprintf(sec, sizeof(sec), "cable %s", db->name);
			if (a % 2 == 0 && b % 2 == 0 &&
			    strcmp(da->name, db->name) == 0)
				return bad(c, sec, NULL, "cable name used twice");
			if (!xc_end_def_clash(ea, eb, (uint16_t)o->vxlan_port))
				continue;
			snprintf(key, sizeof(key), "%s%s", side,
				 eb->port >= 0 ? "-port" :
				 xc_end_def_vxlan(eb) ? "-vxlan" : "");
			if (ea->port >= 0 && ea->tag && eb->tag)
				snprintf(what, sizeof(what),
					 "port %s already carries tag %u for cable %s",
					 o->port_defs[eb->port].name,
					 eb->tag, da->name);
			else if (ea->port >= 0)
				snprintf(what, sizeof(what),
					 "port %s is already an end of cable %s: give each end on it a tag (left-tag)",
					 o->port_defs[eb->port].name,
					 da->name);
			else if (xc_end_def_vxlan(ea))
				snprintf(what, sizeof(what),
					 "tunnel %s vni %u is already an end of cable %s",
					 eb->vxlan, eb->vni, da->name);
			else
				snprintf(what, sizeof(what),
					 "socket %s is already used by cable %s",
					 eb->path, da->name);
			return bad(c, sec, key, what);
		}
	}
	return 0;
}

/**
 * load_sections() - read every section of a loaded file
 * @c:		context
 * @cfg:	parsed file
 * @names:	its section names
 * @n:		how many
 * @o:		options, updated from [global] and the [port NAME] sections
 * @defs:	@max definitions, filled
 * @max:	most cables the file may have
 * @n_defs:	number filled
 *
 * Return: 0 or -EINVAL
 */
static int load_sections(struct cfg_ctx *c, struct rte_cfgfile *cfg,
			 char **names, int n, struct xc_opts *o,
			 struct xc_cable_def *defs, unsigned int max,
			 unsigned int *n_defs)
{
	int i;

	for (i = 0; i < n; i++)
		if (rte_cfgfile_num_sections(cfg, names[i],
					     strlen(names[i]) + 1) > 1)
			return bad(c, names[i], NULL, "section appears twice");
	if (rte_cfgfile_has_section(cfg, "global") && load_global(c, cfg, o))
		return -EINVAL;
	o->n_port_defs = 0;
	for (i = 0; i < n; i++) {
		if (strncmp(names[i], "port ", 5) != 0)
			continue;
		if (o->n_port_defs == XC_MAX_PORT_DEFS)
			return bad(c, names[i], NULL, "too many ports (at most 16)");
		if (load_port(c, cfg, names[i], &o->port_defs[o->n_port_defs]))
			return -EINVAL;
		if (find_port(o, o->port_defs[o->n_port_defs].name) >= 0)
			return bad(c, names[i], NULL, "port name used twice");
		o->n_port_defs++;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "global") == 0 ||
		    strncmp(names[i], "port ", 5) == 0)
			continue;
		if (strncmp(names[i], "cable ", 6) != 0)
			return bad(c, names[i], NULL,
				   "unknown section: expected [global], [cable NAME] or [port NAME]");
		if (*n_defs == max) {
			char why[48];

			snprintf(why, sizeof(why), "too many cables (at most %u)",
				 max);
			return bad(c, names[i], NULL, why);
		}
		if (load_cable(c, cfg, names[i], o, &defs[*n_defs]))
			return -EINVAL;
		(*n_defs)++;
	}
	if (*n_defs == 0) {
		snprintf(c->err, c->errlen, "%s: no [cable NAME] section",
			 c->file);
		return -EINVAL;
	}
	return check_ends_unique(c, o, defs, *n_defs);
}

/**
 * xc_config_load() - read a config file into cable definitions
 * @file:	path
 * @o:		options, updated from [global]
 * @defs:	@max definitions, filled
 * @max:	most cables the file may have: XC_MAX_LAB_CABLES for a lab
 *		(a supervisor shares them out), XC_MAX_CABLES for one process
 * @n_defs:	number filled
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -EINVAL (message in @err) otherwise
 */
int xc_config_load(const char *file, struct xc_opts *o,
		   struct xc_cable_def *defs, unsigned int max,
		   unsigned int *n_defs, char *err, size_t errlen)
{
	struct cfg_ctx c = { .file = file, .err = err, .errlen = errlen };
	const char *why = NULL;
	struct rte_cfgfile *cfg;
	char **names = NULL;
	int n, i, line, rc = -EINVAL;
	FILE *f;

	*n_defs = 0;
	f = fopen(file, "r");
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -EINVAL;
	}
	fclose(f);
	line = find_bad_line(file, &why);
	if (line) {
		snprintf(err, errlen, "%s: line %d: %s", file, line, why);
		return -EINVAL;
	}
	cfg = rte_cfgfile_load(file, 0);
	if (cfg == NULL) {
		snprintf(err, errlen, "%s: not a valid INI file", file);
		return -EINVAL;
	}
	n = rte_cfgfile_num_sections(cfg, NULL, 0);
	if (n <= 0) {
		snprintf(err, errlen, "%s: no sections: declare at least one [cable NAME]", file);
		goto out;
	}
	names = calloc((size_t)n, sizeof(*names));
	if (names == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		names[i] = calloc(1, CFG_NAME_LEN);
		if (names[i] == NULL)
			goto out;
	}
	rte_cfgfile_sections(cfg, names, n);
	rc = load_sections(&c, cfg, names, n, o, defs, max, n_defs);
out:
	if (names)
		for (i = 0; i < n; i++)
			free(names[i]);
	free(names);
	rte_cfgfile_close(cfg);
	if (rc)
		*n_defs = 0;
	return rc;
}

/**
 * xc_config_cable() - read a cable given as words, NAME KEY=VALUE... (the
 *		       keys of a [cable NAME] section: xcablectl add), with
 *		       the code that reads the section
 * @argc:	number of words
 * @argv:	the words
 * @o:		options, for the defaults and the [port NAME] sections
 * @d:		filled
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL (message in @err)
 */
int xc_config_cable(int argc, char **argv, const struct xc_opts *o,
		    struct xc_cable_def *d, char *err, size_t errlen)
{
	struct cfg_ctx c = { .file = "add", .err = err, .errlen = errlen };
	char sec[CFG_NAME_LEN], key[CFG_NAME_LEN];
	struct rte_cfgfile *cfg;
	int i, rc = -EINVAL;
	const char *eq;

	if (argc < 1 || snprintf(sec, sizeof(sec), "cable %s", argv[0]) >=
			(int)sizeof(sec)) {
		snprintf(err, errlen, "add: expected NAME left=SOCKET right=SOCKET [KEY=VALUE]...");
		return -EINVAL;
	}
	cfg = rte_cfgfile_create(0);
	if (cfg == NULL || rte_cfgfile_add_section(cfg, sec)) {
		snprintf(err, errlen, "add: out of memory");
		goto out;
	}
	for (i = 1; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (eq == NULL || eq == argv[i] ||
		    (size_t)(eq - argv[i]) >= sizeof(key) ||
		    strlen(eq + 1) >= CFG_VALUE_LEN) {
			bad(&c, sec, NULL, "expected KEY=VALUE words");
			goto out;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - argv[i]),
			 argv[i]);
		if (rte_cfgfile_has_entry(cfg, sec, key)) {
			bad(&c, sec, key, "given twice");
			goto out;
		}
		if (rte_cfgfile_add_entry(cfg, sec, key, eq + 1)) {
			snprintf(err, errlen, "add: out of memory");
			goto out;
		}
	}
	rc = load_cable(&c, cfg, sec, o, d);
out:
	if (cfg)
		rte_cfgfile_close(cfg);
	return rc;
}

/**
 * xc_config_check() - check a set of cables as a config file's are: no
 *		       two share a name, a socket, or a port without tags
 * @o:		options, with the port definitions
 * @defs:	the cables
 * @n_defs:	how many
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL
 */
int xc_config_check(const struct xc_opts *o, const struct xc_cable_def *defs,
		    unsigned int n_defs, char *err, size_t errlen)
{
	struct cfg_ctx c = { .file = "add", .err = err, .errlen = errlen };

	return check_ends_unique(&c, o, defs, n_defs);
}
