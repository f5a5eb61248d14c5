/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.c - read the config file with rte_cfgfile
 *
 *   [global]                     optional: its keys are options
 *   stats-interval = 60
 *   queues = 1
 *
 *   [cable NAME]                 one per cable; NAME: letters, digits, - _ .
 *   left = /run/xcable/a.sock    each end is of one kind, declared by one
 *   right-port = uplink          key: a socket path, a [port NAME], or a
 *   right-tag = 100              kind's own (left-vxlan, left-netdev...)
 *   lcore = 1                    the cable's keys (lcore, impair...) and
 *   left-queues = 2              each end's (as left-KEY and right-KEY)
 *
 *   [port NAME]                  a DPDK port used as a cable end
 *   devargs = net_af_packet0,iface=eth1
 *   tag-type = 802.1ad
 *
 * Every key is a row of the option table (options.c, and each kind's own,
 * kinddef.h): its section, its type, its range, its message. [global]
 * and the command line give cables and ends their defaults. Each kind
 * checks what is its own (a tunnel's VNI, two ends on one interface);
 * what is common (a tag needs a port, no two ends on one port without
 * distinct tags, names used once) is checked here.
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
 * load_port() - read one [port NAME] section: its keys are the option
 *		 table's XC_OPT_PORT ones
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
	char why[XC_ERR_LEN];
	unsigned int k;
	int n, i, rc;

	while (*name == ' ')
		name++;
	if (!valid_name(name))
		return bad(c, sec, NULL, "port name must be 1-31 letters, digits, '-', '_' or '.'");
	xc_port_def_defaults(pd, name);
	n = rte_cfgfile_section_entries(cfg, sec, e, 16);
	if (n >= 16)
		return bad(c, sec, NULL, "too many keys");
	for (i = 0; i < n; i++) {
		rc = xc_opts_set_port(pd, e[i].name, e[i].value, why,
				      sizeof(why));
		if (rc == -ENOENT)
			return bad(c, sec, e[i].name, "unknown key");
		if (rc)
			return bad(c, sec, e[i].name, why);
	}
	if (pd->devargs[0] == '\0')
		return bad(c, sec, "devargs", "missing: every port needs its devargs");
	for (k = 0; k < XC_N_END_KINDS; k++)
		if (xc_kind_defs[k]->port_claim &&
		    xc_kind_defs[k]->port_claim(pd->devargs, why, sizeof(why)))
			return bad(c, sec, "devargs", why);
	xc_devargs_kiface(pd->devargs, pd->kiface, sizeof(pd->kiface));
	return 0;
}

/**
 * check_end() - check what a [cable NAME] section says of one end: one
 *		 kind, keys that go together, and its kind's own checks
 * @c:		context
 * @sec:	section name
 * @o:		options
 * @end:	the end
 * @side:	"left" or "right"
 *
 * Return: 0 or -EINVAL
 */
static int check_end(struct cfg_ctx *c, const char *sec,
		     const struct xc_opts *o, const struct xc_end_def *end,
		     const char *side)
{
	const struct xc_kind_def *kd = xc_kind_def_of(end);
	char key[CFG_NAME_LEN], why[XC_ERR_LEN];
	struct xc_opt_row r;
	unsigned int i;

	if (xc_end_def_kinds(end) != 1 || kd == NULL) {
		char keys[XC_ERR_LEN / 2], msg[XC_ERR_LEN];

		xc_end_def_keys(side, keys, sizeof(keys));
		snprintf(msg, sizeof(msg), "%s: every end is one of %s",
			 xc_end_def_kinds(end) ? "more than one kind" :
			 "missing", keys);
		return bad(c, sec, side, msg);
	}
	for (i = 0; xc_opt_row(i, &r); i++) {
		const char *k = r.d->key ? r.d->key : r.d->name;

		if (r.kind == XC_N_END_KINDS || r.kind == kd->id ||
		    !(end->keys[i / 8] >> (i % 8) & 1))
			continue;
		snprintf(key, sizeof(key), "%s-%s", side, k);
		snprintf(why, sizeof(why), "a key of %s ends, but the %s end is a %s end",
			 xc_kind_defs[r.kind]->name, side, kd->name);
		return bad(c, sec, key, why);
	}
	snprintf(key, sizeof(key), "%s-tag", side);
	if (end->tag && end->port < 0 && !kd->tags) {
		snprintf(why, sizeof(why), "a tag needs a port (%s-port = NAME) or an interface (%s-netdev = IFNAME)",
			 side, side);
		return bad(c, sec, key, why);
	}
	snprintf(key, sizeof(key), "%s-queues", side);
	if (end->port >= 0 && end->queues > 1)
		return bad(c, sec, key, "cables with a port end use one queue pair");
	if (kd->check &&
	    kd->check(end, o, side, key, sizeof(key), why, sizeof(why)))
		return bad(c, sec, key, why);
	return 0;
}

/**
 * load_cable() - read one [cable NAME] section: each key is a row of the
 *		  option table, the cable's (impair, lcore) or an end's
 *		  (left = PATH, left-port, left-queues...)
 * @c:		context
 * @cfg:	parsed file
 * @sec:	section name ("cable NAME")
 * @o:		options, for the defaults and the [port NAME] sections
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
	int n, i, j;

	while (*name == ' ')
		name++;
	if (!valid_name(name))
		return bad(c, sec, NULL, "cable name must be 1-31 letters, digits, '-', '_' or '.'");
	memset(d, 0, sizeof(*d));
	strcpy(d->name, name);
	d->lcore = -1;
	xc_opts_inherit(o, d);

	n = rte_cfgfile_section_entries(cfg, sec, e, 64);
	if (n >= 64)
		return bad(c, sec, NULL, "too many keys");
	for (i = 0; i < n; i++) {
		const char *k = e[i].name, *val = e[i].value;
		char why[XC_ERR_LEN];
		int rc;

		rc = xc_opts_set_cable(o, d, k, val, why, sizeof(why));
		if (rc == -ENOENT)
			return bad(c, sec, k, "unknown key");
		if (rc)
			return bad(c, sec, k, why);
	}
	if (d->end[0].queues != d->end[1].queues)
		return bad(c, sec, "right-queues", "both ends need the same number of queues");
	for (j = 0; j < 2; j++)
		if (check_end(c, sec, o, &d->end[j], j ? "right" : "left"))
			return -EINVAL;
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
 * port_clash() - is @p an end on a [port NAME] whose frames @e, of a kind
 *		  of its own, would take too (kinddef.h: @port_clash)?
 * @p:		an end
 * @e:		another
 * @o:		options, with the port definitions
 *
 * Return: true if so
 */
static bool port_clash(const struct xc_end_def *p, const struct xc_end_def *e,
		       const struct xc_opts *o)
{
	const struct xc_kind_def *k = xc_kind_def_of(e);

	return p->port >= 0 && (unsigned int)p->port < o->n_port_defs &&
	       e->port < 0 && k && k->port_clash &&
	       k->port_clash(e, &o->port_defs[p->port]);
}

/**
 * xc_end_def_clash() - would two end definitions take the same thing: a
 *			port (untagged, or under one tag), an interface a
 *			port is on, or what their kind says (a socket, a
 *			tunnel...)?
 * @a:		an end
 * @b:		another
 * @o:		options (a kind's defaults)
 *
 * Return: true if so
 */
bool xc_end_def_clash(const struct xc_end_def *a, const struct xc_end_def *b,
		      const struct xc_opts *o)
{
	const struct xc_kind_def *ka = xc_kind_def_of(a);

	if (a->port >= 0 && a->port == b->port &&
	    xc_end_def_same_frames(a, b))
		return true;
	if (port_clash(a, b, o) || port_clash(b, a, o))
		return true;
	return ka && ka == xc_kind_def_of(b) && ka->clash &&
	       ka->clash(a, b, o);
}

/**
 * check_ends_unique() - check that no two ends take the same thing, and
 *			 no two cables a name
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
			const struct xc_kind_def *kd = xc_kind_def_of(eb);
			char sec[XC_NAME_MAX + 8], key[CFG_NAME_LEN];
			char what[XC_SOCK_PATH_MAX + XC_NAME_MAX * 2 + 192];
			char thing[XC_SOCK_PATH_MAX + 64];

			snprintf(sec, sizeof(sec), "cable %s", db->name);
			if (a % 2 == 0 && b % 2 == 0 &&
			    strcmp(da->name, db->name) == 0)
				return bad(c, sec, NULL, "cable name used twice");
			if (!xc_end_def_clash(ea, eb, o))
				continue;
			xc_end_def_key(eb, side, key, sizeof(key));
			if ((ea->port >= 0) != (eb->port >= 0)) {
				/* an end of a kind of its own on an
				 * interface a [port] is on */
				const struct xc_end_def *pe =
					ea->port >= 0 ? ea : eb;
				const struct xc_end_def *ke =
					ea->port >= 0 ? eb : ea;

				xc_kind_def_of(ke)->what(ke, thing,
							 sizeof(thing));
				if (pe == ea)
					snprintf(what, sizeof(what),
						 "%s is port %s's too, an end of cable %s: each would take the other's frames; give it to one of them",
						 thing, o->port_defs[pe->port].name,
						 da->name);
				else
					snprintf(what, sizeof(what),
						 "port %s is on %s, already an end of cable %s: each would take the other's frames; give it to one of them",
						 o->port_defs[pe->port].name, thing,
						 da->name);
			} else if (ea->port >= 0 && ea->tag && eb->tag) {
				snprintf(what, sizeof(what),
					 "port %s already carries tag %u for cable %s",
					 o->port_defs[eb->port].name,
					 eb->tag, da->name);
			} else if (ea->port >= 0) {
				snprintf(what, sizeof(what),
					 "port %s is already an end of cable %s: give each end on it a tag (left-tag)",
					 o->port_defs[eb->port].name,
					 da->name);
			} else {
				/* what the end before holds: all of an
				 * interface, or a tag of it */
				kd->what(ea->tag != eb->tag ? ea : eb, thing,
					 sizeof(thing));
				snprintf(what, sizeof(what),
					 "%s is already an end of cable %s",
					 thing, da->name);
			}
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
	unsigned int k;
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
		for (k = 0; k < o->n_port_defs; k++)
			if (strcmp(o->port_defs[k].name,
				   o->port_defs[o->n_port_defs].name) == 0)
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
 * xc_config_end() - read one end of a cable given as words, SIDE-KEY=VALUE
 *		     (the keys of a [cable NAME] section for that end: the
 *		     end a guest that moved to another host gets), checked
 *		     as a section's end is; its other keys are the defaults
 * @argc:	number of words
 * @argv:	the words
 * @o:		options, for the defaults and the [port NAME] sections
 * @sec:	what the words are, for messages ("cable NAME")
 * @j:		which end: 0 left, 1 right
 * @e:		filled
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -EINVAL (message in @err)
 */
int xc_config_end(int argc, char **argv, const struct xc_opts *o,
		  const char *sec, unsigned int j, struct xc_end_def *e,
		  char *err, size_t errlen)
{
	struct cfg_ctx c = { .file = "migrate", .err = err, .errlen = errlen };
	char key[CFG_NAME_LEN], why[XC_ERR_LEN];
	const char *eq, *rest;
	struct xc_cable_def d;
	int i, rc;

	memset(&d, 0, sizeof(d));
	d.lcore = -1;
	xc_opts_inherit(o, &d);
	for (i = 0; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (eq == NULL || eq == argv[i] ||
		    (size_t)(eq - argv[i]) >= sizeof(key))
			return bad(&c, sec, NULL, "expected KEY=VALUE words");
		snprintf(key, sizeof(key), "%.*s", (int)(eq - argv[i]),
			 argv[i]);
		if (xc_cable_def_end(&d, key, &rest) != &d.end[j])
			return bad(&c, sec, key, j ? "not a key of the right end" :
				   "not a key of the left end");
		rc = xc_opts_set_cable(o, &d, key, eq + 1, why, sizeof(why));
		if (rc)
			return bad(&c, sec, key, rc == -ENOENT ? "unknown key" :
				   why);
	}
	if (check_end(&c, sec, o, &d.end[j], j ? "right" : "left"))
		return -EINVAL;
	*e = d.end[j];
	return 0;
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
