/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * counters.c - the counters of every cable and trunk, for people and for
 *		programs
 *
 * For people, one line per direction ("cable0 left->right: rx-pkts 10
 * rx-bytes 640 ..."), one per queue when a cable has several, and one per
 * trunk, at every --stats-interval and at exit. For programs, one JSON
 * document, which xcablectl list --json answers and --stats-json writes
 * at the same moments as the lines:
 *
 *   { "cables": { "NAME": { "queues": N, "flap": { ... },
 *       "ends": [ { "name": LABEL, "port": ETHDEV, "link": "up",
 *                   "unplugged": WHY, ... }, .. ],
 *       "directions": { "FROM->TO": { "from": LABEL, "to": LABEL,
 *           "impair": SPEC, "measured": { ... },
 *           "counters": { COUNTER: N, ... },
 *           "queues": [ { COUNTER: N, ... }, ... ] }, ... } }, ... },
 *     "trunks": { "LABEL": { "port": ETHDEV, "counters": { ... } }, ... },
 *     "vxlan": { "local": ADDR, "counters": { ... } },
 *     "removed": [ { "name": NAME, "when": UNIX-SECONDS,
 *       "directions": { "FROM->TO": { "counters": { ... } }, ... } }, ... ],
 *     "removed-total": N }
 *
 * "removed" has the last counters of the last XC_GONE_KEEP cables removed
 * at runtime (or replaced by a reload), oldest first; "removed-total" how
 * many went since start (each was logged with its counters as it went).
 *
 * "vxlan" (the tunnel socket) appears when a cable has a tunnel end; such
 * an end has no "port" but its tunnel's facts ("kind": "vxlan", "remote",
 * "vni", "local", "df").
 * "flap" (pull.c: its schedule, state, cycles done) appears for a cable
 * that flaps or flapped; "unplugged" (why: "down", "flap",
 * "propagation") for an end that is pulled out.
 * "measured" (impairmeas.c: what the impairment did over its last
 * windows) appears for a direction that is impaired or was lately.
 * "queues" of a direction appears for cables of several queues only. The
 * counter names and their order are those of the tables in stats.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_ethdev.h>

#include "counters.h"
#include "dir.h"
#include "log.h"
#include "pull.h"

RTE_LOG_REGISTER(xc_logtype_stats, xcable.stats, INFO);

#define XC_LINE_MAX	1024

/**
 * trunks_of() - the trunks the cables' ends are on, each once
 * @cables:	cables
 * @n_cables:	how many
 * @only:	only this cable's, or NULL for all
 * @out:	filled, room for 2 * XC_MAX_CABLES
 *
 * Return: how many
 */
static unsigned int trunks_of(struct xc_cable *cables, unsigned int n_cables,
			      const struct xc_cable *only,
			      const struct xc_trunk **out)
{
	unsigned int i, j, k, n = 0;

	for (i = 0; i < n_cables; i++)
		for (j = 0; j < 2; j++) {
			const struct xc_trunk *t = cables[i].end[j].trunk;

			if (t == NULL || (only && only != &cables[i]) ||
			    !xc_cable_shown(&cables[i]))
				continue;
			for (k = 0; k < n && out[k] != t; k++)
				;
			if (k == n && n < 2 * XC_MAX_CABLES)
				out[n++] = t;
		}
	return n;
}

/**
 * xc_counters_vxlan() - the tunnel socket of the cables, if one has a
 *			 tunnel end
 * @cables:	cables
 * @n_cables:	how many
 * @only:	only if this cable has one, or NULL for all
 *
 * Return: the socket, or NULL
 */
const struct xc_vxlan *xc_counters_vxlan(const struct xc_cable *cables,
					 unsigned int n_cables,
					 const struct xc_cable *only)
{
	unsigned int i, j;

	for (i = 0; i < n_cables; i++)
		for (j = 0; j < 2; j++)
			if ((only == NULL || only == &cables[i]) &&
			    xc_cable_shown(&cables[i]) &&
			    xc_vxlan_of(&cables[i].end[j]))
				return xc_vxlan_of(&cables[i].end[j]);
	return NULL;
}

/**
 * xc_counters_trunk_stats() - read a trunk's counters and its driver's
 * @t:		trunk
 * @s:		filled
 */
void xc_counters_trunk_stats(const struct xc_trunk *t, struct xc_trunk_stats *s)
{
	struct rte_eth_stats st;

	if (rte_eth_stats_get(t->port->id, &st))
		memset(&st, 0, sizeof(st));
	s->rx_pkts = __atomic_load_n(&t->rx_pkts, __ATOMIC_RELAXED);
	s->unknown_tag = __atomic_load_n(&t->unknown_tag, __ATOMIC_RELAXED);
	s->backlog = __atomic_load_n(&t->backlog, __ATOMIC_RELAXED);
	s->oerrors = st.oerrors;
	s->imissed = st.imissed;
	s->ierrors = st.ierrors;
}

/**
 * print_dir() - one direction's counters on one line, and one line per
 *		 queue when the cable has several
 * @c:		cable
 * @j:		0 for end[0] -> end[1], 1 for the reverse
 */
static void print_dir(const struct xc_cable *c, unsigned int j)
{
	char line[XC_LINE_MAX];
	struct xc_dir_stats s;
	unsigned int q;

	xc_cable_stats(c, j, &s);
	xc_stats_line(&xc_dir_counters, &s, line, sizeof(line));
	printf("%s %s: %s\n", c->name, c->dir[j].label, line);
	for (q = 0; c->n_queues > 1 && q < c->n_queues; q++) {
		xc_stats_snapshot(&c->dir[2 * q + j].st, &s);
		xc_stats_line(&xc_dir_counters, &s, line, sizeof(line));
		printf("%s %s queue %u: %s\n", c->name, c->dir[j].label, q,
		       line);
	}
}

/**
 * xc_counters_print() - print the counters of every cable and trunk, and
 *			 write them as JSON if asked
 * @cables:	cables
 * @n_cables:	how many
 * @final:	this is the print at exit
 * @json_path:	file for the JSON document (--stats-json), or NULL
 * @gone:	cables removed at runtime (in the JSON document), or NULL
 */
void xc_counters_print(struct xc_cable *cables, unsigned int n_cables,
		       bool final, const char *json_path,
		       const struct xc_gone_list *gone)
{
	const struct xc_vxlan *vx = xc_counters_vxlan(cables, n_cables, NULL);
	const struct xc_trunk *tr[2 * XC_MAX_CABLES];
	struct xc_vxlan_stats vs;
	struct xc_trunk_stats ts;
	char line[XC_LINE_MAX];
	unsigned int i, n;

	printf("%s\n", final ? "xcable: final counters" : "xcable: counters");
	for (i = 0; i < n_cables; i++) {
		if (!xc_cable_shown(&cables[i]))
			continue;	/* a slot of a cable removed */
		print_dir(&cables[i], 0);
		print_dir(&cables[i], 1);
	}
	n = trunks_of(cables, n_cables, NULL, tr);
	for (i = 0; i < n; i++) {
		xc_counters_trunk_stats(tr[i], &ts);
		xc_stats_line(&xc_trunk_counters, &ts, line, sizeof(line));
		printf("trunk %s (%s): %s\n", tr[i]->port->label,
		       tr[i]->port->name, line);
	}
	if (vx) {
		xc_vxlan_stats(vx, &vs);
		xc_stats_line(&xc_vxlan_counters, &vs, line, sizeof(line));
		printf("vxlan %s: %s\n", vx->local, line);
	}
	fflush(stdout);
	if (json_path && xc_counters_write(cables, n_cables, json_path, gone))
		XC_LOG(stats, WARNING, "counters not written to %s: %s",
		       json_path, strerror(errno));
}

/**
 * json_kv() - one fact of an end (xc_kv_fn) as a JSON member
 * @arg:	struct xc_json being written
 * @key:	name
 * @str:	text value, or NULL
 * @num:	number value if @str is NULL
 */
static void json_kv(void *arg, const char *key, const char *str, uint64_t num)
{
	if (str)
		xc_json_str(arg, key, str);
	else
		xc_json_u64(arg, key, num);
}

/**
 * end_json() - one end of a cable
 * @e:		the end
 * @j:		JSON being written (inside an array)
 * @detail:	with features, offloads, frame size and queues (show)
 */
static void end_json(const struct xc_end *e, struct xc_json *j, bool detail)
{
	const char *sock = e->port ? xc_port_vhost_socket(e->port) : NULL;
	uint64_t caps = xc_end_caps(e);
	char takes[64];
	uint8_t why;

	xc_json_open(j, NULL, '{');
	xc_json_str(j, "name", e->label);
	if (e->port) {
		xc_json_str(j, "port", e->port->name);
		xc_json_str(j, "link", xc_end_is_up(e) ? "up" : "down");
	} else {
		xc_end_describe(e, json_kv, j);	/* a tunnel's facts */
	}
	if (e->trunk) {
		xc_json_str(j, "trunk", e->trunk->port->label);
		xc_json_u64(j, "tag", e->tag);
	}
	why = __atomic_load_n(&e->cable->pull_why[e->idx], __ATOMIC_ACQUIRE);
	if (why)
		xc_json_str(j, "unplugged",
			    xc_pull_why_name((enum xc_pull_why)why));
	if (detail) {
		xc_caps_describe(caps, takes, sizeof(takes));
		if (sock)
			xc_json_str(j, "socket", sock);
		if (e->port)
			xc_json_u64(j, "virtio-features",
				    xc_port_features(e->port));
		xc_json_str(j, "takes", takes);
		xc_json_u64(j, "max-frame", xc_caps_max_frame(caps));
		xc_json_u64(j, "queues", xc_end_queues(e));
	}
	xc_json_close(j, '}');
}

/**
 * dir_json() - one direction: its impairment and counters, and each
 *		queue's when the cable has several; for an impaired
 *		direction what its impairment did, measured
 * @c:		cable
 * @k:		0 for end[0] -> end[1], 1 for the reverse
 * @j:		JSON being written
 */
static void dir_json(const struct xc_cable *c, unsigned int k,
		     struct xc_json *j)
{
	const struct xc_dir *d = &c->dir[k];
	struct xc_impair_report ir;
	struct xc_impair_cfg ic;
	struct xc_dir_stats s;
	char imp[256];
	unsigned int q;

	xc_impair_get(&d->im, &ic);
	xc_impair_format(&ic, imp, sizeof(imp));
	xc_cable_stats(c, k, &s);
	xc_json_open(j, d->label, '{');
	xc_json_str(j, "from", d->rx->label);
	xc_json_str(j, "to", d->tx->label);
	xc_json_str(j, "impair", imp);
	xc_impair_dir_report(c, k, &ir);
	if (xc_impair_report_shown(&ir))
		xc_impair_report_json(&ir, j, "measured");
	xc_stats_json(&xc_dir_counters, &s, j, "counters");
	if (c->n_queues > 1) {
		xc_json_open(j, "queues", '[');
		for (q = 0; q < c->n_queues; q++) {
			xc_stats_snapshot(&c->dir[2 * q + k].st, &s);
			xc_stats_json(&xc_dir_counters, &s, j, NULL);
		}
		xc_json_close(j, ']');
	}
	xc_json_close(j, '}');
}

/**
 * gone_json() - the cables removed at runtime, oldest first, and how many
 *		 went in all
 * @gone:	the list
 * @j:		JSON being written
 */
static void gone_json(const struct xc_gone_list *gone, struct xc_json *j)
{
	uint64_t i = gone->n > XC_GONE_KEEP ? gone->n - XC_GONE_KEEP : 0;
	unsigned int k;

	xc_json_open(j, "removed", '[');
	for (; i < gone->n; i++) {
		const struct xc_gone *g = &gone->g[i % XC_GONE_KEEP];

		xc_json_open(j, NULL, '{');
		xc_json_str(j, "name", g->name);
		xc_json_u64(j, "when", g->when);
		xc_json_open(j, "directions", '{');
		for (k = 0; k < 2; k++) {
			xc_json_open(j, g->label[k], '{');
			xc_stats_json(&xc_dir_counters, &g->st[k], j,
					 "counters");
			xc_json_close(j, '}');
		}
		xc_json_close(j, '}');
		xc_json_close(j, '}');
	}
	xc_json_close(j, ']');
	xc_json_u64(j, "removed-total", gone->n);
}

/**
 * xc_counters_gone() - the last counters of a removed cable, a line per
 *			direction ("NAME FROM->TO: COUNTERS, HOW"), for the
 *			log and the answer to the request that removed it
 * @g:		the cable's last counters
 * @how:	what happened to it ("removed", "replaced")
 * @out:	the lines are appended
 */
void xc_counters_gone(const struct xc_gone *g, const char *how,
		      struct xc_sbuf *out)
{
	char line[XC_LINE_MAX];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		xc_stats_line(&xc_dir_counters, &g->st[k], line,
				 sizeof(line));
		xc_sbuf_printf(out, "%s %s: %s (final: %s)\n", g->name,
			       g->label[k], line, how);
	}
}

/**
 * xc_counters_doc() - the JSON document of the cables and trunks (see the
 *		       top of this file)
 * @cables:	cables
 * @n_cables:	how many
 * @only:	one cable in detail (xcablectl show), or NULL for all of
 *		them (list, --stats-json)
 * @gone:	the cables removed at runtime (not with @only), or NULL
 * @j:		JSON written into, empty
 */
void xc_counters_doc(struct xc_cable *cables, unsigned int n_cables,
		     const struct xc_cable *only,
		     const struct xc_gone_list *gone, struct xc_json *j)
{
	const struct xc_vxlan *vx = xc_counters_vxlan(cables, n_cables, only);
	const struct xc_trunk *tr[2 * XC_MAX_CABLES];
	struct xc_vxlan_stats vs;
	struct xc_trunk_stats ts;
	unsigned int i, k, n;

	xc_json_open(j, NULL, '{');
	xc_json_open(j, "cables", '{');
	for (i = 0; i < n_cables; i++) {
		struct xc_cable *c = &cables[i];

		if ((only && only != c) || !xc_cable_shown(c))
			continue;
		xc_json_open(j, c->name, '{');
		xc_json_u64(j, "queues", c->n_queues);
		xc_flap_json(c, j);
		xc_json_open(j, "ends", '[');
		for (k = 0; k < 2; k++)
			end_json(&c->end[k], j, only != NULL);
		xc_json_close(j, ']');
		xc_json_open(j, "directions", '{');
		dir_json(c, 0, j);
		dir_json(c, 1, j);
		xc_json_close(j, '}');
		xc_json_close(j, '}');
	}
	xc_json_close(j, '}');
	xc_json_open(j, "trunks", '{');
	n = trunks_of(cables, n_cables, only, tr);
	for (i = 0; i < n; i++) {
		xc_counters_trunk_stats(tr[i], &ts);
		xc_json_open(j, tr[i]->port->label, '{');
		xc_json_str(j, "port", tr[i]->port->name);
		xc_stats_json(&xc_trunk_counters, &ts, j, "counters");
		xc_json_close(j, '}');
	}
	xc_json_close(j, '}');
	if (vx) {
		xc_vxlan_stats(vx, &vs);
		xc_json_open(j, "vxlan", '{');
		xc_json_str(j, "local", vx->local);
		xc_stats_json(&xc_vxlan_counters, &vs, j, "counters");
		xc_json_close(j, '}');
	}
	if (gone && only == NULL)
		gone_json(gone, j);
	xc_json_close(j, '}');
}

/**
 * open_tmp() - open the file the counters are written to before it is
 *		renamed into place: a regular file, never what someone put
 *		there (a FIFO would block the main thread, a link would
 *		redirect the write)
 * @tmp:	its path
 * @rc:		-errno on error
 *
 * Return: the stream, or NULL
 */
static FILE *open_tmp(const char *tmp, int *rc)
{
	struct stat st;
	FILE *f;
	int fd;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC, 0644);
	if (fd < 0) {
		*rc = -errno;
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EEXIST;	/* "File exists": not ours, left alone */
		*rc = -errno;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		*rc = -errno;
		close(fd);
	}
	return f;
}

/**
 * xc_counters_write() - write the JSON document to a file, atomically:
 *			 PATH.tmp first, then renamed to PATH
 * @cables:	cables
 * @n_cables:	how many
 * @path:	the file
 * @gone:	the cables removed at runtime, or NULL
 *
 * Return: 0, or -errno (errno set too)
 */
int xc_counters_write(struct xc_cable *cables, unsigned int n_cables,
		      const char *path, const struct xc_gone_list *gone)
{
	char tmp[PATH_MAX];
	struct xc_json j;
	FILE *f;
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -errno;
	}
	xc_json_init(&j);
	xc_counters_doc(cables, n_cables, NULL, gone, &j);
	rc = xc_json_finish(&j);
	if (rc) {
		xc_json_free(&j);
		errno = -rc;
		return rc;
	}
	f = open_tmp(tmp, &rc);
	if (f == NULL) {
		/* rc says why */
	} else {
		rc = fwrite(j.text.b, 1, j.text.len, f) == j.text.len ? 0 : -EIO;
		if (fclose(f) && rc == 0)
			rc = -errno;
		if (rc == 0 && rename(tmp, path))
			rc = -errno;
		if (rc)
			unlink(tmp);	/* ours: a regular file it made */
	}
	xc_json_free(&j);
	errno = -rc;
	return rc;
}
