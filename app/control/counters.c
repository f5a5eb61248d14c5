/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * counters.c - the counters of every cable and hub, for people and for
 *		programs
 *
 * For people, one line per direction ("cable0 left->right: rx-pkts 10
 * rx-bytes 640 ..."), one per queue when a cable has several, and one per
 * hub, at every --stats-interval and at exit. For programs, one JSON
 * document, which xcablectl list --json answers and --stats-json writes
 * at the same moments as the lines:
 *
 *   { "cables": { "NAME": { "queues": N, "flap": { ... },
 *       "migration": { ... },
 *       "ends": [ { "name": LABEL, "port": ETHDEV, "link": "up",
 *                   "unplugged": WHY, ... }, .. ],
 *       "directions": { "FROM->TO": { "from": LABEL, "to": LABEL,
 *           "impair": SPEC, "measured": { ... },
 *           "counters": { COUNTER: N, ... }, "unaccounted": N,
 *           "queues": [ { COUNTER: N, ... }, ... ] }, ... } }, ... },
 *     GROUP: { HUB: { FACT: VALUE, ..., "counters": { ... } }, ... }, ...
 *     "removed": [ { "name": NAME, "when": UNIX-SECONDS,
 *       "directions": { "FROM->TO": { "counters": { ... },
 *           "unaccounted": N }, ... } }, ... ],
 *     "removed-total": N }
 *
 * "removed" has the last counters of the last XC_GONE_KEEP cables removed
 * at runtime (or replaced by a reload), oldest first; "removed-total" how
 * many went since start (each was logged with its counters as it went).
 *
 * An end's members are its facts, as its kind describes it
 * (xc_end_describe(), with '-' for '_'): "kind", "port", "link", and
 * what the kind adds (a socket, a tunnel's remote and VNI...), and
 * "unplugged" (why: "down", "flap", "propagation") for an end that is
 * pulled out. A hub (cable.h: what the ends of several cables share and
 * count together) appears once, under its kind's GROUP, by name, when a
 * shown cable has an end on it.
 * "flap" (pull.c: its schedule, state, cycles done) appears for a cable
 * that flaps or flapped; "migration" (mig.h: the end that moves, where
 * to, its phase, how long frames waited and how many were dropped) for a
 * cable whose guest moves or moved; "measured" (impairmeas.c: what the impairment
 * did over its last windows) for a direction that is impaired or was
 * lately.
 * "queues" of a direction appears for cables of several queues only. The
 * counter names and their order are those of the tables in stats.c.
 * "unaccounted" is the direction's balance of frames (xc_dir_unaccounted():
 * those received or made less those sent, dropped or taken), 0 once it is
 * idle if every frame is accounted for: what a test or a monitor checks,
 * without writing the balance's terms again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "counters.h"
#include "dir.h"
#include "log.h"
#include "metrics.h"
#include "pull.h"

RTE_LOG_REGISTER(xc_logtype_stats, xcable.stats, INFO);

#define XC_LINE_MAX	1024

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
 * xc_counters_print() - print the counters of every cable and hub, and
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
	const struct xc_hub *hub[2 * XC_MAX_CABLES];
	char line[XC_LINE_MAX];
	unsigned int i, n;

	printf("%s\n", final ? "xcable: final counters" : "xcable: counters");
	for (i = 0; i < n_cables; i++) {
		if (!xc_cable_shown(&cables[i]))
			continue;	/* a slot of a cable removed */
		print_dir(&cables[i], 0);
		print_dir(&cables[i], 1);
	}
	n = xc_hubs_of(cables, n_cables, NULL, hub, RTE_DIM(hub));
	for (i = 0; i < n; i++) {
		xc_hub_line(hub[i], line, sizeof(line));
		printf("%s\n", line);
	}
	fflush(stdout);
	if (json_path && xc_counters_write(cables, n_cables, json_path, gone))
		XC_LOG(stats, WARNING, "counters not written to %s: %s",
		       json_path, strerror(errno));
}

/**
 * write_metrics() - write the metrics' file (--metrics-file), atomically
 * @co:		where
 * @cables:	cables
 * @n_cables:	how many
 * @gone:	the cables removed at runtime, or NULL
 */
static void write_metrics(const struct xc_counters_out *co,
			  struct xc_cable *cables, unsigned int n_cables,
			  const struct xc_gone_list *gone)
{
	struct xc_sbuf sb = { 0 };

	xc_metrics_text(cables, n_cables, gone, &sb);
	if (sb.failed || xc_file_replace(co->metrics_path, sb.b, sb.len))
		XC_LOG(stats, WARNING, "metrics not written to %s: %s",
		       co->metrics_path, sb.failed ? "out of memory" :
		       strerror(errno));
	xc_sbuf_free(&sb);
}

/**
 * xc_counters_tick() - print the counters, write the JSON document and
 *			the metrics' file when they are due (main thread's
 *			housekeeping), or now, the final ones
 * @co:		where and when; its times start at 0 (due at once)
 * @cables:	cables
 * @n_cables:	how many
 * @gone:	the cables removed at runtime, or NULL
 * @final:	at exit: everything, whatever is due
 *
 * The counters print (and the JSON document) every @co->interval_s
 * seconds, or at exit only; the metrics' file at the same moments, or
 * every XC_METRICS_FILE_S seconds without an interval.
 *
 * Return: milliseconds until something is due again (UINT_MAX: nothing)
 */
unsigned int xc_counters_tick(struct xc_counters_out *co,
			      struct xc_cable *cables, unsigned int n_cables,
			      const struct xc_gone_list *gone, bool final)
{
	uint64_t now = rte_rdtsc(), hz = rte_get_tsc_hz(), next = UINT64_MAX;
	unsigned int every = co->interval_s ? co->interval_s :
			     XC_METRICS_FILE_S;

	if (final || (co->interval_s && now >= co->next_print)) {
		xc_counters_print(cables, n_cables, final, co->json_path,
				  gone);
		co->next_print = now + hz * co->interval_s;
	}
	if (co->metrics_path && (final || now >= co->next_metrics)) {
		write_metrics(co, cables, n_cables, gone);
		co->next_metrics = now + hz * every;
	}
	if (co->interval_s)
		next = co->next_print;
	if (co->metrics_path)
		next = RTE_MIN(next, co->next_metrics);
	if (next == UINT64_MAX)
		return UINT_MAX;
	return next > now ? (unsigned int)RTE_MIN((next - now) * 1000 / hz + 1,
						  (uint64_t)UINT_MAX) : 0;
}

/**
 * json_kv() - one fact of an end or a hub (xc_kv_fn) as a JSON member,
 *	       its key with '-' for '_' as the document's other keys
 * @arg:	struct xc_json being written
 * @key:	name
 * @str:	text value, or NULL
 * @num:	number value if @str is NULL
 */
static void json_kv(void *arg, const char *key, const char *str, uint64_t num)
{
	char k[64];
	size_t i;

	for (i = 0; key[i] && i < sizeof(k) - 1; i++)
		k[i] = key[i] == '_' ? '-' : key[i];
	k[i] = '\0';
	if (str)
		xc_json_str(arg, k, str);
	else
		xc_json_u64(arg, k, num);
}

/**
 * end_json() - one end of a cable: its facts, and in detail what it takes
 * @e:		the end
 * @j:		JSON being written (inside an array)
 * @detail:	with offloads, frame size and queues (show)
 */
static void end_json(const struct xc_end *e, struct xc_json *j, bool detail)
{
	uint64_t caps = xc_end_caps(e);
	char takes[64];
	uint8_t why;

	xc_json_open(j, NULL, '{');
	xc_json_str(j, "name", e->label);
	xc_end_describe(e, json_kv, j);
	why = __atomic_load_n(&e->cable->pull_why[e->idx], __ATOMIC_ACQUIRE);
	if (why)
		xc_json_str(j, "unplugged",
			    xc_pull_why_name((enum xc_pull_why)why));
	if (detail) {
		xc_caps_describe(caps, takes, sizeof(takes));
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
	xc_json_i64(j, "unaccounted", xc_dir_unaccounted(&s));
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
			xc_json_i64(j, "unaccounted",
				    xc_dir_unaccounted(&g->st[k]));
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
 * hubs_json() - the hubs, by group (in the order a group first comes) and
 *		 within a group by name: their facts and counters
 * @hub:	the hubs, each once
 * @n:		how many
 * @j:		JSON being written
 */
static void hubs_json(const struct xc_hub *const *hub, unsigned int n,
		      struct xc_json *j)
{
	uint64_t st[XC_HUB_STATS_MAX];
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < i && hub[k]->ops->group != hub[i]->ops->group;
		     k++)
			;
		if (k < i)
			continue;	/* its group was written */
		xc_json_open(j, hub[i]->ops->group, '{');
		for (k = i; k < n; k++) {
			const struct xc_hub *h = hub[k];

			if (h->ops->group != hub[i]->ops->group)
				continue;
			h->ops->snapshot(h, st);
			xc_json_open(j, h->ops->name(h), '{');
			h->ops->describe(h, json_kv, j);
			xc_stats_json(h->ops->counters, st, j, "counters");
			xc_json_close(j, '}');
		}
		xc_json_close(j, '}');
	}
}

/**
 * xc_counters_doc() - the JSON document of the cables and hubs (see the
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
	const struct xc_hub *hub[2 * XC_MAX_CABLES];
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
		xc_mig_json(&c->mig, (const char *const[2]){
				c->end[0].label, c->end[1].label }, j);
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
	n = xc_hubs_of(cables, n_cables, only, hub, RTE_DIM(hub));
	hubs_json(hub, n, j);
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
 * xc_file_replace() - replace a file's content atomically: PATH.tmp is
 *		       written, then renamed to PATH (a reader sees the old
 *		       content or the new, never half of one)
 * @path:	the file
 * @text:	its new content
 * @len:	its length
 *
 * Return: 0, or -errno (errno set too)
 */
int xc_file_replace(const char *path, const char *text, size_t len)
{
	char tmp[PATH_MAX];
	FILE *f;
	int rc;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -errno;
	}
	f = open_tmp(tmp, &rc);
	if (f == NULL) {
		/* rc says why */
	} else {
		rc = fwrite(text, 1, len, f) == len ? 0 : -EIO;
		if (fclose(f) && rc == 0)
			rc = -errno;
		if (rc == 0 && rename(tmp, path))
			rc = -errno;
		if (rc)
			unlink(tmp);	/* ours: a regular file it made */
	}
	errno = -rc;
	return rc;
}

/**
 * xc_counters_write() - write the JSON document to a file, atomically
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
	struct xc_json j;
	int rc;

	xc_json_init(&j);
	xc_counters_doc(cables, n_cables, NULL, gone, &j);
	rc = xc_json_finish(&j);
	if (rc == 0)
		rc = xc_file_replace(path, j.text.b, j.text.len);
	xc_json_free(&j);
	errno = -rc;
	return rc;
}
