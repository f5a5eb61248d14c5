/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supmerge.c - one answer from the workers' answers: the text list, the
 *		JSON document (list --json, --stats-json) and the metrics
 *
 * Each worker answers for its own cables; the supervisor's client wants
 * the lab's. The cables come in config order. Everything else a worker's
 * document holds at its top is merged without knowing what it is: an
 * object by its members (the hubs of a kind, "trunks": {...}, each in one
 * worker), "removed" arrays put end to end, "removed-total" summed. Metrics
 * go family by family, each family's HELP and TYPE once, then every
 * worker's samples; a sample without labels (the lab's own count) is the
 * workers' sum.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "supervise.h"

/**
 * put_members() - append the members of a document's object @part
 * @doc:	a worker's document
 * @part:	the object's key, quotes included
 * @plen:	its length
 * @out:	appended to
 * @comma:	a member was written before: write a comma first; updated
 */
static void put_members(const char *doc, const char *part, size_t plen,
			struct xc_sbuf *out, bool *comma)
{
	struct xc_json_member m, c;
	const char *p = doc, *q;

	while (xc_json_next_member(&p, &m)) {
		if (m.klen != plen || memcmp(m.key, part, plen) ||
		    m.val[0] != '{')
			continue;
		q = m.val;
		while (xc_json_next_member(&q, &c)) {
			if (*comma)
				xc_sbuf_put(out, ",", 1);
			xc_sbuf_put(out, c.key,
				    (size_t)(c.val + c.vlen - c.key));
			*comma = true;
		}
	}
}

/**
 * put_removed() - the workers' removed cables as one "removed" array, and
 *		   their "removed-total" summed (a worker restarted forgot
 *		   those it removed before: they are in the log)
 * @docs:	each worker's document, NULL for none
 * @n:		how many
 * @out:	the merged document, written into
 */
static void put_removed(const char *const *docs, unsigned int n,
			struct xc_sbuf *out)
{
	unsigned long long total = 0;
	struct xc_json_member m;
	bool comma = false;
	const char *p, *v;
	unsigned int k;
	size_t len;

	xc_sbuf_put(out, ",\"removed\":[", 12);
	for (k = 0; k < n; k++) {
		for (p = docs[k]; p && xc_json_next_member(&p, &m);) {
			if (xc_json_key_is(&m, "removed-total")) {
				total += strtoull(m.val, NULL, 10);
				continue;
			}
			if (!xc_json_key_is(&m, "removed") || m.val[0] != '[')
				continue;
			/* the elements, without the brackets */
			v = xc_json_skip_ws(m.val + 1);
			len = (size_t)(m.val + m.vlen - 1 - v);
			while (len && (v[len - 1] == ' ' || v[len - 1] == '\n'))
				len--;
			if (len == 0)
				continue;
			if (comma)
				xc_sbuf_put(out, ",", 1);
			xc_sbuf_put(out, v, len);
			comma = true;
		}
	}
	xc_sbuf_printf(out, "],\"removed-total\":%llu", total);
}

/**
 * seen_before() - did a document before @k have a top member keyed as @m?
 * @docs:	the documents
 * @k:		this one's index
 * @m:		the member
 *
 * Return: true if so (its object was merged then)
 */
static bool seen_before(const char *const *docs, unsigned int k,
			const struct xc_json_member *m)
{
	struct xc_json_member o;
	const char *p;
	unsigned int i;

	for (i = 0; i < k; i++)
		for (p = docs[i]; p && xc_json_next_member(&p, &o);)
			if (o.klen == m->klen && !memcmp(o.key, m->key, m->klen))
				return true;
	return false;
}

/**
 * put_cables() - the members of the workers' "cables" objects, in config
 *		  order: each document is read once (500 cables on 32
 *		  workers, looked up one by one in every document, took
 *		  a second)
 * @s:		supervisor (its cables, in config order)
 * @docs:	each worker's document (NULL for none)
 * @n:		how many
 * @out:	appended to
 *
 * Return: 0, or -ENOMEM
 */
static int put_cables(const struct xc_sup *s, const char *const *docs,
		      unsigned int n, struct xc_sbuf *out)
{
	struct xc_json_member m, c, *all = NULL, *more;
	size_t n_all = 0, cap = 0, j;
	bool comma = false;
	unsigned int i, k;
	const char *p, *q;

	for (k = 0; k < n; k++)
		for (p = docs[k]; p && xc_json_next_member(&p, &m);) {
			if (!xc_json_key_is(&m, "cables") || m.val[0] != '{')
				continue;
			for (q = m.val; xc_json_next_member(&q, &c);) {
				if (n_all == cap) {
					cap = cap ? 2 * cap : 64;
					more = realloc(all, cap * sizeof(*all));
					if (more == NULL) {
						free(all);
						return -ENOMEM;
					}
					all = more;
				}
				all[n_all++] = c;
			}
		}
	for (i = 0; i < s->n_cables; i++)
		for (j = 0; j < n_all; j++) {
			if (!xc_json_key_is(&all[j], s->cables[i].def.name))
				continue;
			if (comma)
				xc_sbuf_put(out, ",", 1);
			xc_sbuf_put(out, all[j].key,
				    (size_t)(all[j].val + all[j].vlen -
					     all[j].key));
			comma = true;
		}
	free(all);
	return 0;
}

/**
 * xc_sup_json_merge() - one JSON document from the workers': every cable
 *			 in config order, every other object merged by its
 *			 members (a kind's hubs), the removed cables
 * @s:		supervisor
 * @docs:	each worker's document (NULL for none)
 * @n:		how many
 * @out:	the document is appended
 *
 * Return: 0, or -ENOMEM
 */
int xc_sup_json_merge(const struct xc_sup *s, const char *const *docs,
		      unsigned int n, struct xc_sbuf *out)
{
	struct xc_json_member m;
	unsigned int k, j;
	bool comma = false;
	const char *p;

	xc_sbuf_put(out, "{\"cables\":{", 11);
	if (put_cables(s, docs, n, out) < 0)
		return -ENOMEM;
	xc_sbuf_put(out, "}", 1);
	for (k = 0; k < n; k++) {
		for (p = docs[k]; p && xc_json_next_member(&p, &m);) {
			if (xc_json_key_is(&m, "cables") ||
			    xc_json_key_is(&m, "removed") ||
			    xc_json_key_is(&m, "removed-total") ||
			    m.val[0] != '{' || seen_before(docs, k, &m))
				continue;
			xc_sbuf_put(out, ",", 1);
			xc_sbuf_put(out, m.key, m.klen);
			xc_sbuf_put(out, ":{", 2);
			comma = false;
			for (j = k; j < n; j++)
				if (docs[j])
					put_members(docs[j], m.key, m.klen,
						    out, &comma);
			xc_sbuf_put(out, "}", 1);
		}
	}
	put_removed(docs, n, out);
	xc_sbuf_put(out, "}\n", 2);
	return out->failed ? -ENOMEM : 0;
}

/**
 * xc_sup_cable_block() - the lines a worker's text list gives one cable:
 *			  its "NAME: ..." line and the indented ones after it
 * @list:	the worker's answer
 * @name:	the cable
 * @len:	set to the block's length
 *
 * Return: its start, or NULL
 */
const char *xc_sup_cable_block(const char *list, const char *name,
			       size_t *len)
{
	size_t n = strlen(name);
	const char *p = list, *e, *nl;

	while (p && *p) {
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			e = p;
			do {
				nl = strchr(e, '\n');
				e = nl ? nl + 1 : e + strlen(e);
			} while (*e == ' ');
			*len = (size_t)(e - p);
			return p;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

/**
 * family_of() - the name of the family a metrics line is about: the
 *		 metric of a sample, the third word of "# HELP NAME ..."
 * @line:	the line
 * @len:	set to the name's length
 *
 * Return: the name's start, or NULL for a line of none
 */
static const char *family_of(const char *line, size_t *len)
{
	const char *p = line;

	if (strncmp(p, "# HELP ", 7) == 0 || strncmp(p, "# TYPE ", 7) == 0)
		p += 7;
	else if (*p == '#')
		return NULL;
	*len = strcspn(p, " {\n");
	return *len ? p : NULL;
}

/**
 * put_family() - one family: its HELP and TYPE lines (the first worker's
 *		  that has them), then every worker's samples; the samples
 *		  without labels summed into one
 * @docs:	each worker's metrics (NULL for none)
 * @n:		how many
 * @name:	the family's name
 * @nlen:	its length
 * @out:	appended to
 */
static void put_family(const char *const *docs, unsigned int n,
		       const char *name, size_t nlen, struct xc_sbuf *out)
{
	unsigned long long sum = 0;
	bool meta = false, bare = false;
	const char *p, *f, *nl;
	unsigned int k;
	size_t len, fl;

	for (k = 0; k < n; k++) {
		bool had = false;

		for (p = docs[k]; p && *p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			len = nl ? (size_t)(nl - p) : strlen(p);
			f = family_of(p, &fl);
			if (f == NULL || fl != nlen || memcmp(f, name, nlen))
				continue;
			if (*p == '#') {
				if (!meta)
					xc_sbuf_printf(out, "%.*s\n", (int)len, p);
				had = true;
			} else if (f[fl] == ' ') {
				sum += strtoull(f + fl + 1, NULL, 10);
				bare = true;
			} else {
				xc_sbuf_printf(out, "%.*s\n", (int)len, p);
			}
		}
		meta |= had;
	}
	if (bare)
		xc_sbuf_printf(out, "%.*s %llu\n", (int)nlen, name, sum);
}

/**
 * xc_sup_metrics_merge() - the lab's metrics from the workers': family by
 *			    family, in the order they first come
 * @docs:	each worker's metrics (NULL for none)
 * @n:		how many
 * @out:	appended to
 *
 * Return: 0, or -ENOMEM
 */
int xc_sup_metrics_merge(const char *const *docs, unsigned int n,
			 struct xc_sbuf *out)
{
	const char *p, *f, *nl, *q, *g;
	unsigned int k, i;
	size_t fl, gl;
	bool seen;

	for (k = 0; k < n; k++) {
		for (p = docs[k]; p && *p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			if (strncmp(p, "# HELP ", 7) != 0 ||
			    (f = family_of(p, &fl)) == NULL)
				continue;
			/* written with an earlier worker's, or earlier here */
			seen = false;
			for (i = 0; i <= k && !seen; i++)
				for (q = docs[i]; q && *q && !seen &&
				     (i < k || q < p);
				     q = strchr(q, '\n') ? strchr(q, '\n') + 1 : NULL)
					seen = strncmp(q, "# HELP ", 7) == 0 &&
					       (g = family_of(q, &gl)) &&
					       gl == fl && !memcmp(g, f, fl);
			if (!seen)
				put_family(docs, n, f, fl, out);
		}
	}
	return out->failed ? -ENOMEM : 0;
}
