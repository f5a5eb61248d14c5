/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supctl.c - the supervisor's control socket: one for the whole lab
 *
 * Theory of operation: xcablectl talks to the supervisor as to any
 * xcable (one request line; lines of answer, the last "ok" or "error:
 * WHY"). The supervisor answers from its workers' control sockets:
 *
 *   list [--json]	asks every worker, and gives every cable in config
 *			order (--json: one document, the workers' merged);
 *			a cable whose worker is restarting says so
 *   show, impair, clear, down, up CABLE ...   go to the cable's worker,
 *			and its answer comes back as it is
 *   add, del, reload	change the lab (supervise.c): the supervisor picks
 *			the worker, or starts one
 *   workers		the workers: pid, EAL prefix (for dpdk-telemetry.py
 *			-f PREFIX), state, cables, restarts
 *
 * The supervisor is one thread: its socket is served by the engine of
 * ctlsrv.c from its main loop (the engine's epoll fd is in its poll set),
 * so a slow or silent client never holds up another, nor the supervision
 * of the workers. A request is answered there at once, and a worker's
 * answer is waited for there (a worker answers within its own timeouts; a
 * worker that does not is given up after them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctlsrv.h"
#include "log.h"
#include "sockpath.h"
#include "supervise.h"

#define XC_SUP_ASK_S		5	/* a worker's answer to list, show... */
				/* (XC_SUP_CHANGE_S: to add, del, reload) */

/**
 * find_cable() - a cable of the lab by name
 * @s:		supervisor
 * @name:	its name
 *
 * Return: its index, or -1
 */
static int find_cable(const struct xc_sup *s, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < s->n_cables; i++)
		if (strcmp(s->cables[i].def.name, name) == 0)
			return (int)i;
	return -1;
}

/**
 * skip_ws() - past JSON white space
 * @p:		text
 *
 * Return: the first other character
 */
static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/**
 * skip_value() - past one JSON value (a string, an object or array with
 *		  all it holds, or a literal)
 * @p:		its first character
 *
 * Return: the character after it, or NULL if the text ends first
 */
static const char *skip_value(const char *p)
{
	int depth = 0;
	bool str = false;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			if (!str && depth == 0)
				return p + 1;
			continue;
		}
		if (*p == '"') {
			str = true;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (depth == 0)
				return p;	/* a literal before it */
			if (--depth == 0)
				return p + 1;
		} else if (*p == ',' && depth == 0) {
			return p;
		}
	}
	return NULL;
}

/**
 * struct jmember - one member of a JSON object
 * @key:	its key, quotes included
 * @klen:	its length
 * @val:	its value
 * @vlen:	its length
 */
struct jmember {
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
};

/**
 * next_member() - the next member of an object
 * @p:		in: at '{' or past the previous member; out: past this one
 * @m:		filled
 *
 * Return: true if there was one
 */
static bool next_member(const char **p, struct jmember *m)
{
	const char *q = skip_ws(*p), *e;

	if (*q == '{' || *q == ',')
		q = skip_ws(q + 1);
	if (*q != '"')
		return false;
	e = skip_value(q);
	if (e == NULL)
		return false;
	m->key = q;
	m->klen = (size_t)(e - q);
	q = skip_ws(e);
	if (*q != ':')
		return false;
	q = skip_ws(q + 1);
	e = skip_value(q);
	if (e == NULL)
		return false;
	m->val = q;
	m->vlen = (size_t)(e - q);
	*p = e;
	return true;
}

/**
 * key_is() - does a member's key say @name?
 * @m:		the member
 * @name:	a name without quotes or escapes
 *
 * Return: true if so
 */
static bool key_is(const struct jmember *m, const char *name)
{
	size_t n = strlen(name);

	return m->klen == n + 2 && memcmp(m->key + 1, name, n) == 0;
}

/**
 * put_members() - append the members of a document's object @part whose
 *		   key is @only (or all of them, @only NULL)
 * @doc:	a worker's document
 * @part:	"cables" or "trunks"
 * @only:	a cable name, or NULL
 * @out:	appended to
 * @comma:	a member was written before: write a comma first; updated
 */
static void put_members(const char *doc, const char *part, const char *only,
			struct xc_sbuf *out, bool *comma)
{
	const char *p = doc, *q;
	struct jmember m, c;

	while (next_member(&p, &m)) {
		if (!key_is(&m, part) || m.val[0] != '{')
			continue;
		q = m.val;
		while (next_member(&q, &c)) {
			if (only && !key_is(&c, only))
				continue;
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
	bool comma = false;
	const char *p, *v;
	struct jmember m;
	unsigned int k;
	size_t len;

	xc_sbuf_put(out, ",\"removed\":[", 12);
	for (k = 0; k < n; k++) {
		for (p = docs[k]; p && next_member(&p, &m);) {
			if (key_is(&m, "removed-total")) {
				total += strtoull(m.val, NULL, 10);
				continue;
			}
			if (!key_is(&m, "removed") || m.val[0] != '[')
				continue;
			/* the elements, without the brackets */
			v = skip_ws(m.val + 1);
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
 * xc_sup_json_merge() - one JSON document from the workers': every cable
 *			 in config order, every trunk, the tunnel socket
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
	struct jmember m;
	const char *p;
	bool comma = false, vx = false;
	unsigned int i, k;

	xc_sbuf_put(out, "{\"cables\":{", 11);
	for (i = 0; i < s->n_cables; i++)
		for (k = 0; k < n; k++)
			if (docs[k])
				put_members(docs[k], "cables",
					    s->cables[i].def.name, out, &comma);
	xc_sbuf_put(out, "},\"trunks\":{", 12);
	comma = false;
	for (k = 0; k < n; k++)
		if (docs[k])
			put_members(docs[k], "trunks", NULL, out, &comma);
	xc_sbuf_put(out, "}", 1);
	for (k = 0; k < n && !vx; k++) {
		p = docs[k];
		while (p && !vx && next_member(&p, &m)) {
			if (!key_is(&m, "vxlan"))
				continue;
			xc_sbuf_put(out, ",\"vxlan\":", 9);
			xc_sbuf_put(out, m.val, m.vlen);
			vx = true;
		}
	}
	put_removed(docs, n, out);
	xc_sbuf_put(out, "}\n", 2);
	return out->failed ? -ENOMEM : 0;
}

/**
 * cable_block() - the lines a worker's text list gives one cable: its
 *		   "NAME: ..." line and the indented ones after it
 * @list:	the worker's answer
 * @name:	the cable
 * @len:	set to the block's length
 *
 * Return: its start, or NULL
 */
static const char *cable_block(const char *list, const char *name,
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
 * cmd_list() - list [--json]: every worker's cables, in config order
 * @s:		supervisor
 * @json:	one JSON document
 * @out:	the answer
 *
 * Return: 0, or -errno with the reason in @out
 */
static int cmd_list(struct xc_sup *s, bool json, struct xc_sbuf *out)
{
	struct xc_sbuf ans[XC_SUP_MAX_WORKERS] = { 0 };
	const char *docs[XC_SUP_MAX_WORKERS] = { NULL }, *blk;
	unsigned int i, k;
	size_t len;
	int rc = 0;

	for (k = 0; k < s->n_w; k++) {
		if (!xc_worker_ready(&s->w[k]))
			continue;
		if (xc_worker_ask(&s->w[k], json ? "list --json" : "list",
				  &ans[k], XC_SUP_ASK_S) == 0)
			docs[k] = ans[k].b;
		else
			XC_LOG(super, WARNING, "worker %u did not answer list: %s",
			       k, xc_sbuf_str(&ans[k]));
	}
	if (json) {
		/* each document stops at its "ok" line */
		for (k = 0; k < s->n_w; k++) {
			char *ok = docs[k] ? strstr(ans[k].b, "\nok\n") : NULL;

			if (ok)
				ok[1] = '\0';
		}
		rc = xc_sup_json_merge(s, docs, s->n_w, out);
	} else {
		for (i = 0; i < s->n_cables; i++) {
			k = (unsigned int)s->cables[i].worker;
			blk = docs[k] ? cable_block(docs[k],
						    s->cables[i].def.name, &len) :
			      NULL;
			if (blk)
				xc_sbuf_put(out, blk, len);
			else
				xc_sbuf_printf(out, "%s: not running: worker %u is %s\n",
					       s->cables[i].def.name, k,
					       s->w[k].state == XC_W_RUNNING ?
					       "starting" : "restarting");
		}
	}
	for (k = 0; k < s->n_w; k++)
		xc_sbuf_free(&ans[k]);
	return rc;
}

/**
 * cmd_workers() - workers: one line each
 * @s:		supervisor
 * @out:	the answer
 */
static void cmd_workers(const struct xc_sup *s, struct xc_sbuf *out)
{
	static const char *const state[] = {
		[XC_W_FREE] = "free", [XC_W_RUNNING] = "running",
		[XC_W_WAITING] = "restarting", [XC_W_STOPPING] = "stopping",
	};
	unsigned int k;

	for (k = 0; k < s->n_w; k++) {
		const struct xc_worker *w = &s->w[k];

		if (w->state == XC_W_FREE)
			continue;
		xc_sbuf_printf(out, "worker %u: pid %d, %s%s, %u cable(s), %u restart(s), EAL prefix %s, control %s\n",
			       k, (int)w->pid, state[w->state],
			       w->state == XC_W_RUNNING && !xc_worker_ready(w) ?
			       " (not answering yet)" : "",
			       xc_worker_cables(s, k), w->restarts, w->prefix,
			       w->ctl);
	}
}

/**
 * forward() - a request about one cable goes to its worker; its answer
 *	       comes back as it is
 * @s:		supervisor
 * @line:	the request as xcablectl sent it
 * @name:	the cable
 * @out:	the answer, its last line included
 *
 * Return: 0 if @out holds the worker's whole answer, else -errno with
 *	   the reason in @out
 */
static int forward(struct xc_sup *s, const char *line, const char *name,
		   struct xc_sbuf *out)
{
	int c = find_cable(s, name), rc;
	unsigned int k;

	if (c < 0) {
		xc_sbuf_printf(out, "no cable '%.40s'", name);
		return -ENOENT;
	}
	k = (unsigned int)s->cables[c].worker;
	if (!xc_worker_ready(&s->w[k])) {
		xc_sbuf_printf(out, "cable %s: its worker %u is %s: try again",
			       name, k, s->w[k].state == XC_W_RUNNING ?
			       "starting" : "restarting");
		return -EAGAIN;
	}
	rc = xc_worker_ask(&s->w[k], line, out, XC_SUP_CHANGE_S);
	if (rc == 0 || rc == -EINVAL)
		return 0;
	xc_sbuf_free(out);
	xc_sbuf_printf(out, "cable %s: worker %u did not answer: %s", name, k,
		       strerror(-rc));
	return rc;
}

/**
 * handle() - carry out one request (the engine's handler: the supervisor
 *	      answers at once, waiting for its workers within their own
 *	      timeouts)
 * @arg:	supervisor
 * @job:	the request
 *
 * Return: XC_CTLSRV_DONE, the answer in job->out, its last line included
 */
static enum xc_ctlsrv_verdict handle(void *arg, struct xc_ctlsrv_job *job)
{
	char line[XC_CTL_LINE_MAX], words[XC_CTL_LINE_MAX], why[XC_ERR_LEN];
	const struct xc_ctl_cmd *cmd;
	struct xc_sbuf *out = job->out;
	struct xc_sup *s = arg;
	struct xc_ctl_req r;
	int rc;

	why[0] = '\0';
	snprintf(line, sizeof(line), "%s", job->line);
	line[strcspn(line, "\r")] = '\0';	/* forwarded as it came */
	snprintf(words, sizeof(words), "%s", line);
	if (xc_ctl_parse(words, &r, &cmd, why, sizeof(why))) {
		xc_sbuf_printf(out, "error: %s\n", why);
		return XC_CTLSRV_DONE;
	}
	switch (cmd->op) {
	case XC_CTL_LIST:
		rc = cmd_list(s, r.json, out);
		xc_sbuf_printf(out, rc ? "error: out of memory\n" : "ok\n");
		return XC_CTLSRV_DONE;
	case XC_CTL_WORKERS:
		cmd_workers(s, out);
		xc_sbuf_printf(out, "ok\n");
		return XC_CTLSRV_DONE;
	case XC_CTL_ADD:
		rc = xc_sup_add(s, r.argc, r.argv, why, sizeof(why));
		break;
	case XC_CTL_DEL:
		rc = xc_sup_del(s, r.argv[1], why, sizeof(why));
		break;
	case XC_CTL_RELOAD:
		rc = xc_sup_reload(s, why, sizeof(why));
		break;
	default:	/* show, impair, clear, down, up: the cable's worker */
		if (forward(s, line, r.argv[1], out) == 0)
			return XC_CTLSRV_DONE;
		/* the reason alone, as the last line */
		snprintf(why, sizeof(why), "%s", xc_sbuf_str(out));
		xc_sbuf_free(out);
		xc_sbuf_printf(out, "error: %s\n", why);
		return XC_CTLSRV_DONE;
	}
	XC_LOG(super, INFO, "xcablectl %s: %s%s", line, rc ? "failed: " : "done: ",
	       why);
	if (rc == 0)
		xc_sbuf_put(out, xc_sbuf_str(&s->said), s->said.len);
	xc_sbuf_free(&s->said);
	if (rc == 0) {
		if (why[0])
			xc_sbuf_printf(out, "%s\n", why);
		xc_sbuf_printf(out, "ok\n");
	} else {
		xc_sbuf_printf(out, "error: %s\n", why);
	}
	return XC_CTLSRV_DONE;
}

/**
 * xc_supctl_serve() - serve the clients of the control socket that are
 *		       ready, without waiting (the supervisor's poll() said
 *		       so, or the wait the engine asked for is over)
 * @s:		supervisor, its socket started
 *
 * Return: milliseconds until it must be called again, -1 if only a
 *	   client can make it needed (xc_ctlsrv_serve())
 */
int xc_supctl_serve(struct xc_sup *s)
{
	return xc_ctlsrv_serve(&s->ctl, 0);
}

/**
 * xc_supctl_start() - create the control socket (s->ctl_path), with the
 *		       mode, owner and group of the vhost sockets
 * @s:		supervisor
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno
 */
int xc_supctl_start(struct xc_sup *s, char *err, size_t errlen)
{
	const struct xc_ctlsrv_ops ops = { .handle = handle, .arg = s };
	int rc;

	s->ctl_fd = xc_sock_listen_own(s->ctl_path, SOCK_NONBLOCK,
				       XC_CTLSRV_BACKLOG, s->cl->opts.sock_mode,
				       s->cl->sock_uid, s->cl->sock_gid,
				       &s->ctl_id, err, errlen);
	if (s->ctl_fd < 0)
		return s->ctl_fd;
	rc = xc_ctlsrv_init(&s->ctl, s->ctl_fd, "supervisor control",
			    XC_SUP_CHANGE_S * 1000, &ops, err, errlen);
	if (rc) {
		xc_sock_unlink_own(s->ctl_path, &s->ctl_id, NULL, 0);
		s->ctl_fd = -1;
	}
	return rc;
}

/**
 * xc_supctl_stop() - close and remove the control socket
 * @s:		supervisor
 */
void xc_supctl_stop(struct xc_sup *s)
{
	char why[XC_ERR_LEN + XC_SOCK_PATH_MAX];

	if (s->ctl_fd < 0)
		return;
	xc_ctlsrv_fini(&s->ctl);	/* closes s->ctl_fd */
	/* ours only: another file at the path is left, and logged */
	if (xc_sock_unlink_own(s->ctl_path, &s->ctl_id, why, sizeof(why)))
		XC_LOG(super, WARNING, "%s", why);
	s->ctl_fd = -1;
}
