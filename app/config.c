/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.c - read the config file with rte_cfgfile
 *
 *   [global]                     optional
 *   stats-interval = 60          seconds, 0: only at exit
 *   stats-json = /run/xc.json    also write the counters there as JSON
 *   poll = no                    busy-poll always
 *   idle-us = 100                idle time before sleeping
 *   socket-mode = 0660           default for every end
 *   socket-group = kvm           default for every end
 *   socket-owner = libvirt-qemu  default for every end
 *   offloads = yes               offer guests checksum/TSO offloads
 *   queues = 1                   queue pairs of every end
 *   link-propagation = yes       carrier follows the far end
 *
 *   [cable NAME]                 one per cable; NAME: letters, digits, - _ .
 *   left = /run/xcable/a.sock    socket of the left end (required)
 *   right = /run/xcable/b.sock   socket of the right end (required)
 *   left-client = no             yes: QEMU listens, xcable connects
 *   right-client = no
 *   left-socket-mode = 0660      per end, overriding [global]
 *   left-socket-group = kvm
 *   left-socket-owner = libvirt-qemu
 *   left-offloads = yes          per end, overriding [global]
 *   left-queues = 2              per end; both ends need the same number
 *   lcore = 1                    lcore forwarding this cable (default: spread)
 *   impair = delay=10ms,loss=1%  both directions (see xc_impair_parse())
 *   impair-to-right = rate=100mbit   left->right only; impair-to-left too
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
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_cfgfile.h>

#include "config.h"

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
	if (key)
		snprintf(c->err, c->errlen, "%s: [%s] %s: %s", c->file, sec,
			 key, what);
	else
		snprintf(c->err, c->errlen, "%s: [%s]: %s", c->file, sec,
			 what);
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
	if (v[0] != '/')
		return bad(c, sec, key, "socket path must be absolute");
	if (strlen(v) >= XC_SOCK_PATH_MAX)
		return bad(c, sec, key, "socket path is longer than 107 bytes");
	if (strchr(v, ','))
		return bad(c, sec, key, "socket path contains a comma");
	strcpy(dst, v);
	return 0;
}

/**
 * load_global() - apply the [global] section
 * @c:		context
 * @cfg:	parsed file
 * @o:		options; values given on the command line are kept
 *
 * Return: 0 or -EINVAL
 */
static int load_global(struct cfg_ctx *c, struct rte_cfgfile *cfg,
		       struct xc_opts *o)
{
	static char group[XC_GROUP_MAX], owner[XC_GROUP_MAX], json[PATH_MAX];
	struct rte_cfgfile_entry e[64];
	unsigned long v;
	int n, i;
	bool b;

	n = rte_cfgfile_section_entries(cfg, "global", e, 64);
	for (i = 0; i < n; i++) {
		const char *k = e[i].name, *val = e[i].value;

		if (strcmp(k, "stats-interval") == 0) {
			if (xc_parse_uint(val, 0, 86400, &v))
				return bad(c, "global", k, "expected seconds from 0 to 86400");
			if (!(o->given & XC_GIVEN_STATS))
				o->stats_interval = (unsigned int)v;
		} else if (strcmp(k, "stats-json") == 0) {
			if (val[0] == '\0' || strlen(val) >= sizeof(json))
				return bad(c, "global", k, "expected a file name");
			if (o->stats_json == NULL) {	/* the command line's wins */
				strcpy(json, val);
				o->stats_json = json;
			}
		} else if (strcmp(k, "poll") == 0) {
			if (xc_parse_bool(val, &b))
				return bad(c, "global", k, "expected yes or no");
			if (!(o->given & XC_GIVEN_POLL))
				o->poll = b;
		} else if (strcmp(k, "idle-us") == 0) {
			if (xc_parse_uint(val, 1, 1000000, &v))
				return bad(c, "global", k, "expected microseconds from 1 to 1000000");
			if (!(o->given & XC_GIVEN_IDLE))
				o->idle_us = (unsigned int)v;
		} else if (strcmp(k, "socket-mode") == 0) {
			unsigned int m;

			if (xc_parse_mode(val, &m))
				return bad(c, "global", k, "expected octal permission bits such as 0660");
			if (!(o->given & XC_GIVEN_MODE))
				o->sock_mode = m;
		} else if (strcmp(k, "offloads") == 0) {
			if (xc_parse_bool(val, &b))
				return bad(c, "global", k, "expected yes or no");
			if (!(o->given & XC_GIVEN_OFFLOADS))
				o->offloads = b;
		} else if (strcmp(k, "link-propagation") == 0) {
			if (xc_parse_bool(val, &b))
				return bad(c, "global", k, "expected yes or no");
			if (!(o->given & XC_GIVEN_PROPAGATE))
				o->no_propagate = !b;
		} else if (strcmp(k, "queues") == 0) {
			if (xc_parse_uint(val, 1, XC_MAX_QUEUES, &v))
				return bad(c, "global", k, "expected a number of queue pairs from 1 to 8");
			if (!(o->given & XC_GIVEN_QUEUES))
				o->queues = (unsigned int)v;
		} else if (strcmp(k, "socket-owner") == 0) {
			if (val[0] == '\0' || strlen(val) >= sizeof(owner))
				return bad(c, "global", k, "expected a user name");
			if (!(o->given & XC_GIVEN_OWNER)) {
				strcpy(owner, val);
				o->sock_owner = owner;
			}
		} else if (strcmp(k, "socket-group") == 0) {
			if (val[0] == '\0' || strlen(val) >= sizeof(group))
				return bad(c, "global", k, "expected a group name");
			if (!(o->given & XC_GIVEN_GROUP)) {
				strcpy(group, val);
				o->sock_group = group;
			}
		} else {
			return bad(c, "global", k, "unknown key");
		}
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
 * load_cable() - read one [cable NAME] section
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
	d->impair[0] = o->impair[0];
	d->impair[1] = o->impair[1];
	for (j = 0; j < 2; j++) {
		d->end[j].port = -1;
		d->end[j].client = o->client;
		d->end[j].sock_mode = o->sock_mode;
		d->end[j].offloads = o->offloads;
		d->end[j].queues = o->queues;
		if (o->sock_group)
			snprintf(d->end[j].sock_group,
				 sizeof(d->end[j].sock_group), "%s",
				 o->sock_group);
		if (o->sock_owner)
			snprintf(d->end[j].sock_owner,
				 sizeof(d->end[j].sock_owner), "%s",
				 o->sock_owner);
	}

	n = rte_cfgfile_section_entries(cfg, sec, e, 64);
	if (n >= 64)
		return bad(c, sec, NULL, "too many keys");
	for (i = 0; i < n; i++) {
		const char *k = e[i].name, *val = e[i].value, *sub;
		struct xc_end_def *end;

		if (strncmp(k, "impair", 6) == 0 &&
		    (!k[6] || !strcmp(k + 6, "-to-right") ||
		     !strcmp(k + 6, "-to-left"))) {
			struct xc_impair_cfg ic;
			char why[XC_ERR_LEN];

			if (xc_impair_parse(val, &ic, why, sizeof(why)))
				return bad(c, sec, k, why);
			if (!k[6] || k[10] == 'r')
				d->impair[0] = ic;
			if (!k[6] || k[10] == 'l')
				d->impair[1] = ic;
			continue;
		}
		if (strcmp(k, "lcore") == 0) {
			if (xc_parse_uint(val, 0, XC_MAX_LCORE_ID, &v))
				return bad(c, sec, k, "expected an lcore number from 0 to 127");
			d->lcore = (int)v;
			continue;
		}
		if (strncmp(k, "left", 4) == 0) {
			end = &d->end[0];
			sub = k + 4;
		} else if (strncmp(k, "right", 5) == 0) {
			end = &d->end[1];
			sub = k + 5;
		} else {
			return bad(c, sec, k, "unknown key");
		}
		if (*sub == '\0') {
			if (set_path(c, sec, k, val, end->path))
				return -EINVAL;
		} else if (strcmp(sub, "-port") == 0) {
			end->port = find_port(o, val);
			if (end->port < 0)
				return bad(c, sec, k, "no [port NAME] section of that name");
		} else if (strcmp(sub, "-tag") == 0) {
			if (xc_parse_uint(val, 1, 4094, &v))
				return bad(c, sec, k, "expected a VLAN id from 1 to 4094");
			end->tag = (uint16_t)v;
		} else if (strcmp(sub, "-client") == 0) {
			if (xc_parse_bool(val, &end->client))
				return bad(c, sec, k, "expected yes or no");
		} else if (strcmp(sub, "-socket-mode") == 0) {
			if (xc_parse_mode(val, &end->sock_mode))
				return bad(c, sec, k, "expected octal permission bits such as 0660");
		} else if (strcmp(sub, "-socket-group") == 0) {
			if (val[0] == '\0' ||
			    strlen(val) >= sizeof(end->sock_group))
				return bad(c, sec, k, "expected a group name");
			strcpy(end->sock_group, val);
		} else if (strcmp(sub, "-socket-owner") == 0) {
			if (val[0] == '\0' ||
			    strlen(val) >= sizeof(end->sock_owner))
				return bad(c, sec, k, "expected a user name");
			strcpy(end->sock_owner, val);
		} else if (strcmp(sub, "-offloads") == 0) {
			if (xc_parse_bool(val, &end->offloads))
				return bad(c, sec, k, "expected yes or no");
		} else if (strcmp(sub, "-queues") == 0) {
			if (xc_parse_uint(val, 1, XC_MAX_QUEUES, &v))
				return bad(c, sec, k, "expected a number of queue pairs from 1 to 8");
			end->queues = (unsigned int)v;
		} else {
			return bad(c, sec, k, "unknown key");
		}
	}
	if (d->end[0].queues != d->end[1].queues)
		return bad(c, sec, "right-queues", "both ends need the same number of queues");
	for (j = 0; j < 2; j++) {
		const struct xc_end_def *end = &d->end[j];
		const char *side = j ? "right" : "left";
		char key[16];

		snprintf(key, sizeof(key), "%s", side);
		if (end->path[0] && end->port >= 0)
			return bad(c, sec, key, "an end is a socket or a port, not both");
		if (!end->path[0] && end->port < 0)
			return bad(c, sec, key, "missing: every end needs a socket (left = PATH) or a port (left-port = NAME)");
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
 * xc_config_load() - read a config file into cable definitions
 * @file:	path
 * @o:		options, updated from [global]
 * @defs:	XC_MAX_CABLES definitions, filled
 * @n_defs:	number filled
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 on success, -EINVAL (message in @err) otherwise
 */
int xc_config_load(const char *file, struct xc_opts *o,
		   struct xc_cable_def *defs, unsigned int *n_defs,
		   char *err, size_t errlen)
{
	struct cfg_ctx c = { .file = file, .err = err, .errlen = errlen };
	struct rte_cfgfile *cfg;
	char **names = NULL;
	int n, i, rc = -EINVAL;
	unsigned int a, b;
	FILE *f;

	*n_defs = 0;
	f = fopen(file, "r");
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -EINVAL;
	}
	fclose(f);
	{
		const char *why = NULL;
		int line = find_bad_line(file, &why);

		if (line) {
			snprintf(err, errlen, "%s: line %d: %s", file, line,
				 why);
			return -EINVAL;
		}
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

	for (i = 0; i < n; i++) {
		if (rte_cfgfile_num_sections(cfg, names[i],
					     strlen(names[i]) + 1) > 1) {
			bad(&c, names[i], NULL, "section appears twice");
			goto out;
		}
	}
	if (rte_cfgfile_has_section(cfg, "global") &&
	    load_global(&c, cfg, o))
		goto out;
	o->n_port_defs = 0;
	for (i = 0; i < n; i++) {
		if (strncmp(names[i], "port ", 5) != 0)
			continue;
		if (o->n_port_defs == XC_MAX_PORT_DEFS) {
			bad(&c, names[i], NULL, "too many ports (at most 16)");
			goto out;
		}
		if (load_port(&c, cfg, names[i],
			      &o->port_defs[o->n_port_defs]))
			goto out;
		if (find_port(o, o->port_defs[o->n_port_defs].name) >= 0) {
			bad(&c, names[i], NULL, "port name used twice");
			goto out;
		}
		o->n_port_defs++;
	}
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "global") == 0 ||
		    strncmp(names[i], "port ", 5) == 0)
			continue;
		if (strncmp(names[i], "cable ", 6) != 0) {
			bad(&c, names[i], NULL,
			    "unknown section: expected [global], [cable NAME] or [port NAME]");
			goto out;
		}
		if (*n_defs == XC_MAX_CABLES) {
			bad(&c, names[i], NULL, "too many cables (at most 64)");
			goto out;
		}
		if (load_cable(&c, cfg, names[i], o, &defs[*n_defs]))
			goto out;
		(*n_defs)++;
	}
	if (*n_defs == 0) {
		snprintf(err, errlen, "%s: no [cable NAME] section", file);
		goto out;
	}
	/* names and sockets are unique across the file */
	for (a = 0; a < 2 * *n_defs; a++) {
		for (b = a + 1; b < 2 * *n_defs; b++) {
			const struct xc_cable_def *da = &defs[a / 2];
			const struct xc_cable_def *db = &defs[b / 2];

			char sec[XC_NAME_MAX + 8];

			snprintf(sec, sizeof(sec), "cable %s", db->name);
			if (a % 2 == 0 && b % 2 == 0 &&
			    strcmp(da->name, db->name) == 0) {
				bad(&c, sec, NULL, "cable name used twice");
				goto out;
			}
			if (da->end[a % 2].port >= 0 &&
			    da->end[a % 2].port == db->end[b % 2].port &&
			    (!da->end[a % 2].tag || !db->end[b % 2].tag ||
			     da->end[a % 2].tag == db->end[b % 2].tag)) {
				char what[XC_NAME_MAX * 2 + 96];
				const struct xc_end_def *ea = &da->end[a % 2];
				const struct xc_end_def *eb = &db->end[b % 2];

				if (ea->tag && eb->tag)
					snprintf(what, sizeof(what),
						 "port %s already carries tag %u for cable %s",
						 o->port_defs[eb->port].name,
						 eb->tag, da->name);
				else
					snprintf(what, sizeof(what),
						 "port %s is already an end of cable %s: give each end on it a tag (left-tag)",
						 o->port_defs[eb->port].name,
						 da->name);
				bad(&c, sec, b % 2 ? "right-port" : "left-port",
				    what);
				goto out;
			}
			if (da->end[a % 2].path[0] &&
			    strcmp(da->end[a % 2].path,
				   db->end[b % 2].path) == 0) {
				char what[XC_SOCK_PATH_MAX + 64];

				snprintf(what, sizeof(what),
					 "socket %s is already used by cable %s",
					 db->end[b % 2].path, da->name);
				bad(&c, sec, b % 2 ? "right" : "left", what);
				goto out;
			}
		}
	}
	rc = 0;
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
