/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reconf.c - cables added and removed while xcable runs
 *
 *   xcablectl add NAME left=SOCK right=SOCK [KEY=VALUE]...  a new cable,
 *			the keys of a [cable NAME] section, read by config.c
 *   xcablectl del NAME	unplug a cable (its guests see the carrier go,
 *			its sockets are removed) and forget it
 *   xcablectl reload, SIGHUP	read the config file again and apply the
 *			difference: cables it no longer has go, new ones
 *			come, changed ones are replaced; the others are not
 *			touched (they keep forwarding, their carrier stays)
 *
 * Theory of operation: the control thread and the signal handler only post
 * a request; the main thread carries it out in its housekeeping, the one
 * thread that builds and frees cables. Everything that can be checked is
 * checked before anything changes (the definitions, with the code that
 * reads a config file; names and sockets against the running cables; the
 * port limit; the lcores; the socket paths), so a bad request or config
 * changes nothing and says why, to xcablectl and in the log.
 *
 * A cable is added in a free slot of the topology: its vhost ports are
 * probed (rte_dev_probe), configured and started, its pools and
 * directions made, then an lcore is given its directions through the
 * lcore's published list (lcores.c, fwd.c: the lcore takes the new list
 * over at a poll boundary, so the forwarding path takes no lock). A cable
 * is removed the other way round: its directions are taken from the
 * lcores, and once every lcore has said it took its new list over, no
 * lcore touches the cable: its ports are unplugged and freed, then its
 * memory. Threads that read the cables (control, telemetry) hold @lock
 * for reading; the main thread holds it for writing while a slot changes.
 *
 * [global] options and [port NAME] sections are read at start only: a
 * reload that changes a [port NAME] section, or a cable with a port end,
 * is refused; a [global] default that changes (queues, offloads...)
 * changes the cables that inherit it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "config.h"
#include "log.h"
#include "reconf.h"
#include "sockpath.h"

/**
 * xc_reconf_post() - post a request (add, del, reload) to the main thread,
 *		      which carries it out in its housekeeping (control
 *		      thread; xc_reconf_result() tells how it went)
 * @arg:	struct xc_reconf
 * @argc:	number of words
 * @argv:	the request's words
 * @why:	the reason it was not posted
 * @whylen:	size of @why
 *
 * Return: 0 if posted, -EBUSY if a change is still pending, -E2BIG if the
 *	   request is too long, with @why set
 */
int xc_reconf_post(void *arg, int argc, char *const *argv, char *why,
		   size_t whylen)
{
	struct xc_reconf *r = arg;
	size_t used = 0;
	int k;

	if (__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE)) {
		snprintf(why, whylen, "another change is still being made");
		return -EBUSY;
	}
	r->req[0] = '\0';
	for (k = 0; k < argc; k++) {
		int n = snprintf(r->req + used, sizeof(r->req) - used, "%s%s",
				 k ? " " : "", argv[k]);

		if (n < 0 || (size_t)n >= sizeof(r->req) - used) {
			snprintf(why, whylen, "request too long");
			return -E2BIG;
		}
		used += (size_t)n;
	}
	xc_sbuf_free(&r->ans);	/* the last answer's: nobody reads it now */
	__atomic_store_n(&r->done, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&r->pending, 1, __ATOMIC_RELEASE);
	xc_lcores_wake(r->l);	/* the main thread carries it out */
	return 0;
}

/**
 * xc_reconf_result() - how the posted request went (control thread)
 * @arg:	struct xc_reconf
 * @out:	the main thread's answer is appended, lines of text: what was
 *		done, or the reason it failed
 *
 * Return: 0 while still pending (nothing appended), 1 if done, -errno if
 *	   it failed (-ENOENT: nothing was posted)
 */
int xc_reconf_result(void *arg, struct xc_sbuf *out)
{
	struct xc_reconf *r = arg;
	int done;

	if (__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE))
		return 0;
	done = __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);
	if (done == 0) {
		xc_sbuf_printf(out, "no change was posted\n");
		return -ENOENT;
	}
	xc_sbuf_put(out, xc_sbuf_str(&r->ans), r->ans.len);
	if (r->ans.failed)
		xc_sbuf_printf(out, "(out of memory: the rest of the answer is lost, see xcable's log)\n");
	else if (done < 0 && r->ans.len == 0)
		xc_sbuf_printf(out, "failed, see xcable's log\n");
	return done;
}

/* live() - is slot @i a cable? */
static bool live(const struct xc_reconf *r, unsigned int i)
{
	return r->t->cables[i].name[0] != '\0';
}

/**
 * find() - the slot of a running cable
 * @r:		state
 * @name:	its name
 *
 * Return: the slot, or -1
 */
static int find(const struct xc_reconf *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->t->n_cables; i++)
		if (live(r, i) && strcmp(r->t->cables[i].name, name) == 0)
			return (int)i;
	return -1;
}

/**
 * removable() - is a running cable one that can be removed: two socket
 *		 ends (a port end's port may carry other cables)
 * @c:		cable
 *
 * Return: true if so
 */
static bool removable(const struct xc_cable *c)
{
	return xc_port_vhost_socket(c->end[0].port) &&
	       xc_port_vhost_socket(c->end[1].port) &&
	       !c->end[0].trunk && !c->end[1].trunk;
}

/**
 * socket_ends() - how many of a definition's ends are sockets (each is a
 *		   DPDK port)
 * @d:		definition
 *
 * Return: 0 to 2
 */
static unsigned int socket_ends(const struct xc_cable_def *d)
{
	return (d->end[0].port < 0) + (d->end[1].port < 0);
}

/**
 * check_end() - can a new cable's end be made: a socket, whose owner and
 *		 group exist and whose path is free (unless a cable being
 *		 removed holds it)
 * @r:		state
 * @d:		the new cable
 * @j:		which end
 * @del:	slots being removed
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int check_end(struct xc_reconf *r, const struct xc_cable_def *d,
		     unsigned int j, const bool *del, char *why, size_t whylen)
{
	const struct xc_end_def *e = &d->end[j];
	char err[XC_ERR_LEN];
	unsigned int i;
	int uid, gid;

	if (e->port >= 0) {
		snprintf(why, whylen, "cable %s: only cables between two sockets can be added at runtime ([port] ends are set at start)",
			 d->name);
		return -EINVAL;
	}
	if (xc_sock_ids(e->sock_owner, e->sock_group, &uid, &gid, err,
			sizeof(err))) {
		snprintf(why, whylen, "cable %s: %.200s", d->name, err);
		return -EINVAL;
	}
	for (i = 0; i < r->t->n_cables; i++)
		if (del[i] && (strcmp(r->defs[i].end[0].path, e->path) == 0 ||
			       strcmp(r->defs[i].end[1].path, e->path) == 0))
			return 0;	/* ours until it is removed */
	if (xc_sock_prepare(e->path, e->client, err, sizeof(err))) {
		snprintf(why, whylen, "cable %s: %.200s", d->name, err);
		return -EINVAL;
	}
	return 0;
}

/**
 * check() - can these cables be added once those are removed? Names and
 *	     sockets unique, room for them, ports left, lcores that forward,
 *	     sockets that can be made
 * @r:		state
 * @add:	new cables
 * @n_add:	how many
 * @del:	for each slot, whether it is being removed
 * @why:	the reason they cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int check(struct xc_reconf *r, const struct xc_cable_def *add,
		 unsigned int n_add, const bool *del, char *why, size_t whylen)
{
	unsigned int i, n = 0, ports = rte_eth_dev_count_avail(), j;
	struct xc_cable_def *all;
	int rc, want;

	all = calloc(XC_MAX_CABLES + n_add, sizeof(*all));
	if (all == NULL) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < r->t->n_cables; i++) {
		if (!live(r, i))
			continue;
		if (del[i])
			ports -= socket_ends(&r->defs[i]);
		else
			all[n++] = r->defs[i];
	}
	for (i = 0; i < n_add; i++) {
		all[n++] = add[i];
		ports += socket_ends(&add[i]);
	}
	rc = xc_config_check(r->opts, all, n, why, whylen);
	free(all);
	if (rc)
		return rc;
	if (n > XC_MAX_CABLES) {
		snprintf(why, whylen, "too many cables (at most %d)",
			 XC_MAX_CABLES);
		return -ENOSPC;
	}
	if (ports > RTE_MAX_ETHPORTS) {
		snprintf(why, whylen, "the cables would need %u DPDK ports (one per socket end), but this DPDK gives one process at most %d (RTE_MAX_ETHPORTS), that is %d socket-to-socket cables: run another xcable for more",
			 ports, RTE_MAX_ETHPORTS, RTE_MAX_ETHPORTS / 2);
		return -ENOSPC;
	}
	for (i = 0; i < n_add; i++) {
		want = add[i].lcore;
		if (want >= 0 && (want >= RTE_MAX_LCORE ||
				  !rte_lcore_is_enabled((unsigned int)want) ||
				  ((unsigned int)want == rte_get_main_lcore() &&
				   !r->l->main_fwd))) {
			snprintf(why, whylen, "cable %s: lcore %d does not forward (EAL -l, or the main lcore)",
				 add[i].name, want);
			return -EINVAL;
		}
		for (j = 0; j < 2; j++)
			if ((rc = check_end(r, &add[i], j, del, why, whylen)))
				return rc;
	}
	return 0;
}

/**
 * remove_cable() - take a cable away: from its lcores, then its ports and
 *		    memory (main thread)
 * @r:		state
 * @i:		its slot
 *
 * Return: 0, or -errno if an lcore did not let go of it (it stays)
 */
static int remove_cable(struct xc_reconf *r, unsigned int i)
{
	struct xc_cable *c = &r->t->cables[i];
	char name[XC_NAME_MAX];
	int rc;

	memcpy(name, c->name, sizeof(name));
	pthread_rwlock_wrlock(&r->lock);
	rc = xc_lcores_del_cable(r->l, c);
	if (rc == 0) {
		xc_topo_del_cable(r->t, i);
		memset(&r->defs[i], 0, sizeof(r->defs[i]));
	}
	pthread_rwlock_unlock(&r->lock);
	if (rc)
		XC_LOG(main, ERR, "%s: not removed: an lcore did not let go of it",
		       name);
	else
		XC_LOG(main, INFO, "%s: removed", name);
	return rc;
}

/**
 * add_cable() - bring a new cable up in a free slot and give it to an
 *		 lcore; undo it all on failure (main thread)
 * @r:		state
 * @d:		its definition, checked
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int add_cable(struct xc_reconf *r, const struct xc_cable_def *d,
		     char *why, size_t whylen)
{
	unsigned int i, j;
	struct xc_cable *c;
	int rc;

	for (i = 0; i < XC_MAX_CABLES && live(r, i); i++)
		;
	if (i == XC_MAX_CABLES) {
		snprintf(why, whylen, "too many cables (at most %d)",
			 XC_MAX_CABLES);
		return -ENOSPC;
	}
	c = &r->t->cables[i];
	r->defs[i] = *d;
	for (j = 0; j < 2; j++)
		xc_sock_ids(d->end[j].sock_owner, d->end[j].sock_group,
			    &r->end_uid[i][j], &r->end_gid[i][j], why, whylen);
	pthread_rwlock_wrlock(&r->lock);
	rc = xc_sock_prepare(d->end[0].path, d->end[0].client, why, whylen);
	if (rc == 0)
		rc = xc_sock_prepare(d->end[1].path, d->end[1].client, why,
				     whylen);
	if (rc == 0)
		rc = xc_topo_add_cable(r->t, i, why, whylen);
	for (j = 0; j < 2 && rc == 0; j++) {
		c->end[j].port->notify_arg = r->l;
		__atomic_store_n(&c->end[j].port->notify, xc_lcores_wake,
				 __ATOMIC_RELEASE);
	}
	if (rc == 0)
		rc = xc_lcores_add_cable(r->l, c, d->lcore, why, whylen);
	if (rc) {
		xc_topo_del_cable(r->t, i);
		memset(&r->defs[i], 0, sizeof(r->defs[i]));
	}
	r->pull->n_cables = r->t->n_cables;
	pthread_rwlock_unlock(&r->lock);
	if (rc == 0)
		XC_LOG(main, INFO, "%s: added: %s (%s) <-> %s (%s)", c->name,
		       c->end[0].label, xc_end_where(&c->end[0]),
		       c->end[1].label, xc_end_where(&c->end[1]));
	return rc;
}

/**
 * apply() - remove, then add, as check() accepted
 * @r:		state
 * @add:	new cables
 * @n_add:	how many
 * @del:	for each slot, whether to remove it
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or the first -errno (what could be done is done)
 */
static int apply(struct xc_reconf *r, const struct xc_cable_def *add,
		 unsigned int n_add, const bool *del, char *why,
		 size_t whylen)
{
	unsigned int i;
	int rc = 0, e;

	for (i = 0; i < r->t->n_cables; i++)
		if (del[i] && (e = remove_cable(r, i)) && rc == 0) {
			snprintf(why, whylen, "an lcore did not let go of a cable: see the log");
			rc = e;
		}
	for (i = 0; i < n_add; i++)
		if ((e = add_cable(r, &add[i], why, whylen)) && rc == 0) {
			XC_LOG(main, ERR, "%s: not added: %s", add[i].name, why);
			rc = e;
		}
	return rc;
}

/**
 * cmd_add() - add NAME KEY=VALUE...
 * @r:		state
 * @argc:	words after "add"
 * @argv:	those words
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int cmd_add(struct xc_reconf *r, int argc, char **argv, char *why,
		   size_t whylen)
{
	bool del[XC_MAX_CABLES] = { false };
	int rc;

	rc = xc_config_cable(argc, argv, r->opts, &r->tmp[0], why, whylen);
	if (rc == 0)
		rc = check(r, r->tmp, 1, del, why, whylen);
	return rc ? rc : apply(r, r->tmp, 1, del, why, whylen);
}

/**
 * cmd_del() - del NAME
 * @r:		state
 * @name:	the cable
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int cmd_del(struct xc_reconf *r, const char *name, char *why,
		   size_t whylen)
{
	bool del[XC_MAX_CABLES] = { false };
	int i = find(r, name);

	if (i < 0) {
		snprintf(why, whylen, "no cable '%.40s'", name);
		return -ENOENT;
	}
	if (!removable(&r->t->cables[i])) {
		snprintf(why, whylen, "%s: only cables between two sockets can be removed at runtime",
			 name);
		return -EINVAL;
	}
	del[i] = true;
	return apply(r, NULL, 0, del, why, whylen);
}

/**
 * diff() - what a config read again changes: running cables it lacks or
 *	    defines otherwise go, its new or changed ones come
 * @r:		state; r->tmp holds the file's cables
 * @n:		how many
 * @add:	filled with the new and changed ones, from r->tmp
 * @n_add:	how many
 * @del:	for each slot, set if it goes
 * @why:	the reason the difference cannot be applied
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL (a cable with a port end would change)
 */
static int diff(struct xc_reconf *r, unsigned int n, struct xc_cable_def *add,
		unsigned int *n_add, bool *del, char *why, size_t whylen)
{
	unsigned int i, k;
	int s;

	*n_add = 0;
	for (k = 0; k < n; k++) {
		s = find(r, r->tmp[k].name);
		if (s >= 0 && memcmp(&r->defs[s], &r->tmp[k],
				     sizeof(r->tmp[k])) == 0)
			continue;	/* unchanged: not touched */
		if (s >= 0)
			del[s] = true;
		add[(*n_add)++] = r->tmp[k];
	}
	for (i = 0; i < r->t->n_cables; i++) {
		if (!live(r, i))
			continue;
		for (k = 0; k < n && strcmp(r->tmp[k].name,
					    r->t->cables[i].name); k++)
			;
		if (k == n)
			del[i] = true;
		if (del[i] && !removable(&r->t->cables[i])) {
			snprintf(why, whylen, "cable %s: a cable with a [port] end cannot change at runtime: restart xcable",
				 r->t->cables[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * cmd_reload() - read the config file again and apply the difference
 * @r:		state
 * @why:	what was done, or the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int cmd_reload(struct xc_reconf *r, char *why, size_t whylen)
{
	bool del[XC_MAX_CABLES] = { false };
	struct xc_cable_def *add;
	unsigned int n, n_add, n_del = 0, i;
	int rc;

	if (r->config == NULL) {
		snprintf(why, whylen, "nothing to reload: xcable was started without --config");
		return -EINVAL;
	}
	r->tmp_opts = *r->opts;
	rc = xc_config_load(r->config, &r->tmp_opts, r->tmp, XC_MAX_CABLES,
			    &n, why, whylen);
	if (rc)
		return rc;
	if (r->tmp_opts.n_port_defs != r->opts->n_port_defs ||
	    memcmp(r->tmp_opts.port_defs, r->opts->port_defs,
		   sizeof(r->opts->port_defs))) {
		snprintf(why, whylen, "%s: the [port NAME] sections changed: ports are set at start, restart xcable",
			 r->config);
		return -EINVAL;
	}
	add = calloc(XC_MAX_CABLES, sizeof(*add));
	if (add == NULL) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	rc = diff(r, n, add, &n_add, del, why, whylen);
	if (rc == 0)
		rc = check(r, add, n_add, del, why, whylen);
	for (i = 0; i < XC_MAX_CABLES; i++)
		n_del += del[i];
	if (rc == 0)
		rc = apply(r, add, n_add, del, why, whylen);
	free(add);
	if (rc == 0)
		snprintf(why, whylen, "%s: %u cable(s) removed or replaced, %u added or replaced",
			 r->config, n_del, n_add);
	return rc;
}

/**
 * run() - carry out one request (main thread)
 * @r:		state
 * @line:	its words, split in place
 * @why:	the reason of a failure (or, for reload, what was done)
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int run(struct xc_reconf *r, char *line, char *why, size_t whylen)
{
	char *argv[64], *save = NULL, *w;
	int argc = 0;

	for (w = strtok_r(line, " ", &save); w && argc < 64;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	if (argc >= 2 && strcmp(argv[0], "add") == 0)
		return cmd_add(r, argc - 1, argv + 1, why, whylen);
	if (argc == 2 && strcmp(argv[0], "del") == 0)
		return cmd_del(r, argv[1], why, whylen);
	if (argc == 1 && strcmp(argv[0], "reload") == 0)
		return cmd_reload(r, why, whylen);
	snprintf(why, whylen, "expected add NAME left=SOCKET right=SOCKET [KEY=VALUE]..., del NAME or reload");
	return -EINVAL;
}

/**
 * xc_reconf_housekeeping() - carry out a posted request, or a reload on
 *			      SIGHUP; log what was done (main thread)
 * @r:		state
 */
void xc_reconf_housekeeping(struct xc_reconf *r)
{
	char why[XC_ERR_LEN] = "", line[XC_RECONF_REQ_LEN], hup[] = "reload";
	int rc;

	if (r->hup) {
		r->hup = false;
		if (r->config == NULL) {
			XC_LOG(main, INFO, "SIGHUP: nothing to reload (no --config): ignored");
		} else {
			rc = run(r, hup, why, sizeof(why));
			XC_LOG(main, INFO, "SIGHUP: reload %s: %s",
			       rc ? "refused, nothing changed" : "done", why);
		}
	}
	if (!__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE))
		return;
	snprintf(line, sizeof(line), "%s", r->req);
	why[0] = '\0';
	rc = run(r, line, why, sizeof(why));
	xc_sbuf_free(&r->ans);
	if (why[0])
		xc_sbuf_printf(&r->ans, "%s\n", why);
	XC_LOG(main, INFO, "xcablectl %s: %s%s%s", r->req,
	       rc ? "failed: " : "done", rc || why[0] ? (rc ? "" : ": ") : "",
	       why);
	__atomic_store_n(&r->done, rc ? (rc < 0 ? rc : -EINVAL) : 1,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&r->pending, 0, __ATOMIC_RELEASE);
}
