/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reconf.c - cables added, removed and changed while xcable runs
 *
 *   xcablectl add NAME left=SOCK right=SOCK [KEY=VALUE]...  a new cable,
 *			the keys of a [cable NAME] section, read by config.c
 *   xcablectl del NAME	unplug a cable (its guests see the carrier go,
 *			its sockets are removed) and forget it
 *   xcablectl reload, SIGHUP	read the config file again and apply the
 *			difference: cables it no longer has go, new ones
 *			come, changed ones take their new form (the ends
 *			whose definition did not change stay as they run;
 *			a cable whose impairments alone change keeps
 *			running and takes them in place); the others are
 *			not touched (they keep forwarding, their carrier
 *			stays)
 *
 * Theory of operation: the control thread and the signal handler only post
 * a request; the main thread carries it out in its housekeeping, the one
 * thread that makes and frees cables. A change is applied whole or not at
 * all, for every kind of end (endkind.h), in five steps:
 *
 *   plan     which running cables go, which cables come, which change
 *            in their slot keeping their unchanged ends (a cable whose
 *            every end changed goes and comes whole), whose impairments
 *            or carrier alone change (struct xc_plan)
 *   check    everything that can be checked before anything changes: the
 *            definitions, with the code that reads a config file (names,
 *            sockets, ports under their tags, tunnels: each once); room
 *            for cables and DPDK ports; lcores; and each new end with its
 *            kind's check (a socket's path, a port that is no trunk...)
 *   make     each new cable made whole in a free slot, hidden and on no
 *            lcore: its ends, pools and directions, its sockets there
 *            (xc_topo_add_cable()); first those that take nothing a
 *            cable that goes holds, or whose kind makes them beside
 *            the end that holds it (a served socket, bound at a hidden
 *            name: struct xc_end_kind's beside); then the cables that
 *            hold what the others take (QEMU's socket, a tag, a tunnel)
 *            are taken away (below), the cables that change let go of
 *            their changed ends and their directions (their counters
 *            are kept as for a cable that goes; the ports of changed
 *            ends whose kind parks them, and that no new end needs or
 *            each is made beside, stay aside, running: park(): a served
 *            socket, QEMU's socket when the end moves to another),
 *            and the rest are made: the
 *            changed ends beside the kept ones, with new directions, on
 *            the cable's pools, which the kept ends' queues use
 *            (xc_topo_release_ends(), xc_topo_remake_ends())
 *   switch   each new cable shown and given to an lcore, which takes it
 *            over at a poll boundary (lcores.c: no lock on the
 *            forwarding path)
 *   release  the other cables that go taken away: hidden, their ends
 *            stopped (nothing more is sorted to a trunk member or a
 *            tunnel), taken from their lcores, and once every lcore has
 *            let go, freed; their last counters are logged, returned to
 *            xcablectl and kept for list --json and --stats-json; the
 *            ports kept aside are freed, and the ends made beside
 *            theirs take their place (settle())
 *
 * While a change is made (struct xc_topo's changing), what ends share
 * stays up when the change takes its last end away: a [port]'s or a
 * trunk's port stays started, the tunnel socket open, a kernel
 * interface's packet socket open and bound, for the ends the change makes
 * there again (their new form, or their old one if it fails); once it is
 * over, the kinds let go of what no end took (xc_kinds_tidy()).
 *
 * A failure while making or switching undoes it all: the new cables are
 * freed, a changed cable's new ends too (a cable that goes and has not
 * gone yet is untouched), and what was let go of is made again from its
 * definition, taking the ports kept aside again (the guests of those and
 * of the kept ends saw nothing; those of the other ends made again saw
 * the carrier go and come back). If that fails too, the cable is
 * lost: its kept ends go with it, and the answer says so. So a request or
 * config with an error, found by the checks or half-way, leaves the lab
 * as it was, and says why, to xcablectl and in the log, after what the
 * change did (the last counters of each cable it replaced). Threads that read the cables
 * (control, telemetry) hold @lock for reading and look only at cables
 * shown; the main thread holds it for writing while it shows or hides one.
 *
 * [global] options and [port NAME] sections are read at start only: a
 * reload that changes a [port NAME] section is refused; a [global]
 * default that changes (queues, offloads...) changes the cables that
 * inherit it. Cables of the DPDK mode (made of the EAL's ports, with no
 * definition) cannot be removed.
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
#include "counters.h"
#include "evlog.h"
#include "fault.h"
#include "log.h"
#include "logrl.h"
#include "notify.h"
#include "pull.h"
#include "reconf.h"
#include "sockpath.h"

/**
 * xc_reconf_post() - post a request (add, del, reload) to the main thread,
 *		      which carries it out in its housekeeping (control
 *		      thread; xc_reconf_result() tells how it went)
 * @arg:	struct xc_reconf
 * @src:	who asks (xc_ctlsrv_source()): what it makes xcable log is
 *		limited as that source's
 * @argc:	number of words
 * @argv:	the request's words
 * @why:	the reason it was not posted
 * @whylen:	size of @why
 *
 * Return: 0 if posted, -EBUSY if a change is still pending, -E2BIG if the
 *	   request is too long, with @why set
 */
int xc_reconf_post(void *arg, const char *src, int argc, char *const *argv,
		   char *why, size_t whylen)
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
	snprintf(r->src, sizeof(r->src), "%s", src);
	xc_sbuf_free(&r->answer);	/* the last one's: nobody reads it now */
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
	xc_sbuf_put(out, xc_sbuf_str(&r->answer), r->answer.len);
	if (r->answer.failed)
		xc_sbuf_printf(out, "(out of memory: the rest of the answer is lost, see xcable's log)\n");
	else if (done < 0 && r->answer.len == 0)
		xc_sbuf_printf(out, "failed, see xcable's log\n");
	return done;
}

/* used() - is slot @i taken by a cable (shown, or being made)? */
static bool used(const struct xc_reconf *r, unsigned int i)
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
		if (used(r, i) && strcmp(r->t->cables[i].name, name) == 0)
			return (int)i;
	return -1;
}

/**
 * ends_ports() - how many DPDK ports some ends of a definition add to the
 *		  process (a socket end probes its own)
 * @d:		definition
 * @mask:	the ends (bit j: end j)
 *
 * Return: 0 to 2
 */
static unsigned int ends_ports(const struct xc_cable_def *d,
			       unsigned int mask)
{
	unsigned int j, n = 0;

	for (j = 0; j < 2; j++) {
		const struct xc_kind_def *k = xc_kind_def_of(&d->end[j]);

		if (mask & (1u << j))
			n += k ? k->ports : 0;
	}
	return n;
}

/**
 * changed() - the ends of add[k] that are made (those not kept)
 * @p:		the change
 * @k:		which cable that comes
 *
 * Return: bit j set for end j
 */
static unsigned int changed(const struct xc_plan *p, unsigned int k)
{
	return p->keep_slot[k] >= 0 ? ~p->keep[k] & 3u : 3u;
}

/**
 * holds() - do some ends of a running cable hold what an end definition
 *	     takes (a socket, a port under a tag, a tunnel)?
 * @r:		state
 * @s:		the running cable's slot
 * @mask:	its ends looked at (bit j: end j)
 * @e:		the end
 *
 * Return: true if so
 */
static bool holds(const struct xc_reconf *r, unsigned int s,
		  unsigned int mask, const struct xc_end_def *e)
{
	unsigned int j;

	for (j = 0; j < 2; j++)
		if ((mask & (1u << j)) &&
		    xc_end_def_clash(&r->defs[s].end[j], e, r->opts))
			return true;
	return false;
}

/**
 * freed() - does something that goes before the later cables are made
 *	     hold what an end takes: a cable that goes, or an end a
 *	     changed cable lets go of?
 * @r:		state
 * @p:		the change
 * @e:		the end
 *
 * Return: true if so
 */
static bool freed(const struct xc_reconf *r, const struct xc_plan *p,
		  const struct xc_end_def *e)
{
	unsigned int s;

	for (s = 0; s < r->t->n_cables; s++) {
		if (p->del[s] && holds(r, s, 3u, e))
			return true;
		if (p->kept_by[s] >= 0 &&
		    holds(r, s, changed(p, (unsigned int)p->kept_by[s]), e))
			return true;
	}
	return false;
}

/**
 * waits() - must a new end wait until what holds what it takes is gone?
 *	     Not if its kind makes it beside the holder and puts it in
 *	     place after (a served socket: struct xc_end_kind's beside)
 * @r:		state
 * @p:		the change
 * @e:		the end
 *
 * Return: true if so
 */
static bool waits(const struct xc_reconf *r, const struct xc_plan *p,
		  const struct xc_end_def *e)
{
	const struct xc_end_kind *k = xc_end_kind_of(e);

	return freed(r, p, e) && (k == NULL || k->beside == NULL ||
				  !k->beside(e));
}

/**
 * check_lcore() - does the lcore a new cable names forward?
 * @r:		state
 * @d:		the cable
 * @why:	the reason it does not
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int check_lcore(struct xc_reconf *r, const struct xc_cable_def *d,
		       char *why, size_t whylen)
{
	int want = d->lcore;

	if (want < 0 || (want < RTE_MAX_LCORE &&
			 rte_lcore_is_enabled((unsigned int)want) &&
			 ((unsigned int)want != rte_get_main_lcore() ||
			  r->l->main_fwd)))
		return 0;
	snprintf(why, whylen, "cable %s: lcore %d does not forward (EAL -l, or the main lcore)",
		 d->name, want);
	return -EINVAL;
}

/**
 * check_ends() - can the ends that come be made, each by its kind?
 * @r:		state
 * @p:		the change
 * @why:	the reason one cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int check_ends(struct xc_reconf *r, struct xc_plan *p, char *why,
		      size_t whylen)
{
	char err[XC_ERR_LEN];
	unsigned int i, j;
	int rc;

	for (i = 0; i < p->n_add; i++) {
		if ((rc = check_lcore(r, &p->add[i], why, whylen)))
			return rc;
		for (j = 0; j < 2; j++) {
			const struct xc_end_def *e = &p->add[i].end[j];
			const struct xc_end_kind *k = xc_end_kind_of(e);

			if (!(changed(p, i) & (1u << j)))
				continue;	/* it runs, and stays */
			if (k == NULL) {
				snprintf(why, whylen, "cable %s: %s end of no known kind",
					 p->add[i].name, j ? "right" : "left");
				return -EINVAL;
			}
			rc = k->check ? k->check(r->t, e, freed(r, p, e), err,
						 sizeof(err)) : 0;
			if (rc) {
				snprintf(why, whylen, "cable %s: %s end: %.200s",
					 p->add[i].name, j ? "right" : "left",
					 err);
				return rc;
			}
		}
	}
	return 0;
}

/**
 * check() - can the change be made? The cables after it (those that stay
 *	     and those that come) as a config file's, room for them, lcores
 *	     that forward, and each new end with its kind; says which cables
 *	     must go before the new ones are made
 * @r:		state
 * @p:		the change, planned; its @first and @later are set
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int check(struct xc_reconf *r, struct xc_plan *p, char *why,
		 size_t whylen)
{
	unsigned int i, j, n = 0, free_slots = XC_MAX_CABLES, early = 0;
	int ports = (int)rte_eth_dev_count_avail(), peak;
	struct xc_cable_def *all;
	bool crowded;
	int rc;

	all = calloc(XC_MAX_CABLES + p->n_add, sizeof(*all));
	if (all == NULL) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < r->t->n_cables; i++) {
		if (!used(r, i))
			continue;
		free_slots--;
		if (p->del[i] && r->defs[i].name[0] == '\0') {
			snprintf(why, whylen, "cable %s was made of the EAL's ports (the DPDK mode): it cannot be removed at runtime",
				 r->t->cables[i].name);
			free(all);
			return -EINVAL;
		}
		if (p->del[i])
			ports -= (int)ends_ports(&r->defs[i], 3u);
		else if (p->kept_by[i] >= 0)	/* its new form is added */
			ports -= (int)ends_ports(&r->defs[i],
						 changed(p, (unsigned int)p->kept_by[i]));
		else
			all[n++] = r->defs[i];
	}
	peak = (int)rte_eth_dev_count_avail();
	for (i = 0; i < p->n_add; i++) {
		all[n++] = p->add[i];
		ports += (int)ends_ports(&p->add[i], changed(p, i));
		/* a cable changed in its slot: once its old ends are gone */
		p->later[i] = p->keep_slot[i] >= 0 ||
			      waits(r, p, &p->add[i].end[0]) ||
			      waits(r, p, &p->add[i].end[1]);
		if (!p->later[i]) {
			peak += (int)ends_ports(&p->add[i], 3u);
			early++;
		}
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
		snprintf(why, whylen, "the cables would need %d DPDK ports (one per socket end), but this DPDK gives one process at most %d (RTE_MAX_ETHPORTS), that is %d socket-to-socket cables: run another xcable for more",
			 ports, RTE_MAX_ETHPORTS, RTE_MAX_ETHPORTS / 2);
		return -ENOSPC;
	}
	/* no room for the new cables beside those that go: they go first */
	crowded = peak > RTE_MAX_ETHPORTS || early > free_slots;
	if (crowded)
		for (i = 0; i < p->n_add; i++)
			p->later[i] = true;
	for (i = 0; i < r->t->n_cables; i++) {
		if (!p->del[i])
			continue;
		for (j = 0; j < p->n_add && !p->first[i]; j++)
			p->first[i] = p->later[j] &&
				      (crowded ||
				       ((changed(p, j) & 1u) &&
					holds(r, i, 3u, &p->add[j].end[0])) ||
				       ((changed(p, j) & 2u) &&
					holds(r, i, 3u, &p->add[j].end[1])));
	}
	return check_ends(r, p, why, whylen);
}

/**
 * gone() - keep a cable's last counters: in the list of removed cables,
 *	    in the log and in the answer
 * @r:		state
 * @g:		its counters
 * @how:	"removed", "replaced", "undone"
 */
static void gone(struct xc_reconf *r, const struct xc_gone *g,
		 const char *how)
{
	struct xc_gone_list *gl = &r->t->gone;
	struct xc_sbuf lines = { 0 };
	const char *s, *nl;

	pthread_rwlock_wrlock(&r->lock);
	gl->g[gl->n % XC_GONE_KEEP] = *g;
	gl->n++;
	pthread_rwlock_unlock(&r->lock);
	xc_counters_gone(g, how, &lines);
	for (s = xc_sbuf_str(&lines); *s; s = nl + 1) {
		nl = strchr(s, '\n');
		XC_LOG_FROM(r->src, main, INFO, "%.*s", (int)(nl - s), s);
	}
	xc_sbuf_put(r->out, xc_sbuf_str(&lines), lines.len);
	xc_sbuf_free(&lines);
}

/**
 * let_go() - hide a cable, stop some of its ends and take it from its
 *	      lcores (main thread)
 * @r:		state
 * @s:		its slot
 * @mask:	the ends stopped (bit j: end j): those that go
 *
 * Return: 0, or -errno if an lcore did not let go of it (it stays, shown
 *	   again)
 */
static int let_go(struct xc_reconf *r, unsigned int s, unsigned int mask)
{
	struct xc_cable *c = &r->t->cables[s];
	unsigned int j;
	int rc;

	pthread_rwlock_wrlock(&r->lock);
	xc_topo_show_cable(r->t, s, false);
	pthread_rwlock_unlock(&r->lock);
	for (j = 0; j < 2; j++)
		if ((mask & (1u << j)) && c->end[j].kind &&
		    c->end[j].kind->stop)
			c->end[j].kind->stop(r->t, &c->end[j]);
	rc = xc_lcores_del_cable(r->l, c);
	if (rc) {
		XC_LOG(main, ERR, "%s: not removed: an lcore did not let go of it",
		       c->name);
		pthread_rwlock_wrlock(&r->lock);
		xc_topo_show_cable(r->t, s, true);
		pthread_rwlock_unlock(&r->lock);
	}
	return rc;
}

/**
 * take_away() - take a cable away: hide it, stop its ends, take it from
 *		 its lcores and, once they let go, free it and keep its last
 *		 counters (main thread)
 * @r:		state
 * @s:		its slot
 * @how:	what is said of it: "removed", "replaced", "undone"; NULL to
 *		keep no record (a cable being undone that was never shown)
 *
 * Return: 0, or -errno if an lcore did not let go of it (it stays, shown
 *	   again)
 */
static int take_away(struct xc_reconf *r, unsigned int s, const char *how)
{
	struct xc_gone g;
	int rc;

	rc = let_go(r, s, 3u);
	if (rc)
		return rc;
	xc_topo_del_cable(r->t, s, &g);
	memset(&r->defs[s], 0, sizeof(r->defs[s]));
	if (how)
		gone(r, &g, how);
	return 0;
}

/**
 * make() - make a cable in a slot, hidden and on no lcore (main thread)
 * @r:		state
 * @s:		the slot: free, or the cable's whose ends in @keep stay
 * @d:		its definition, checked
 * @keep:	the ends that run and stay (bit j: end j); 0: a new cable
 * @again:	it is a cable made again as it was (a change failed): its
 *		steps do not fail on purpose, but for the step "again"
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with the slot as it was
 */
static int make(struct xc_reconf *r, unsigned int s,
		const struct xc_cable_def *d, unsigned int keep, bool again,
		char *why, size_t whylen)
{
	struct xc_cable_def was = r->defs[s];
	int rc;

	if (again && xc_fault("again", d->name, why, whylen))
		return -EIO;
	r->defs[s] = *d;
	rc = keep ? xc_topo_remake_ends(r->t, s, d, keep, !again, why, whylen) :
		    xc_topo_add_cable(r->t, s, d, !again, why, whylen);
	if (rc)
		r->defs[s] = was;
	return rc;
}

/**
 * show() - make a cable that was made part of the lab: shown, and given
 *	    to an lcore (main thread)
 * @r:		state
 * @s:		its slot
 * @again:	it is a cable made again as it was (its step "show" does
 *		not fail on purpose)
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, -ETIMEDOUT (an lcore may take the cable yet: it is kept,
 *	   hidden), or another -errno (hidden again)
 */
static int show(struct xc_reconf *r, unsigned int s, bool again, char *why,
		size_t whylen)
{
	struct xc_cable *c = &r->t->cables[s];
	int rc;

	pthread_rwlock_wrlock(&r->lock);
	xc_topo_show_cable(r->t, s, true);
	r->pull->n_cables = r->t->n_cables;
	pthread_rwlock_unlock(&r->lock);
	if (!again && xc_fault("show", c->name, why, whylen))
		rc = -EIO;
	else
		rc = xc_lcores_add_cable(r->l, c, r->defs[s].lcore, why,
					 whylen);
	if (rc) {
		pthread_rwlock_wrlock(&r->lock);
		xc_topo_show_cable(r->t, s, false);
		pthread_rwlock_unlock(&r->lock);
		return rc;
	}
	XC_LOG_FROM(r->src, main, INFO, "%s: added: %s (%s) <-> %s (%s)",
		    c->name, c->end[0].label, xc_end_where(&c->end[0]),
		    c->end[1].label, xc_end_where(&c->end[1]));
	return 0;
}

/**
 * free_slot() - a slot for a new cable: the first free one
 * @r:		state
 *
 * Return: the slot, or -1 if none is free
 */
static int free_slot(const struct xc_reconf *r)
{
	unsigned int i;

	for (i = 0; i < XC_MAX_CABLES; i++)
		if (!used(r, i))
			return (int)i;
	return -1;
}

/**
 * make_new() - make the new cables of one step (hidden, on no lcore): in
 *		a free slot each, or, for a cable whose unchanged ends stay,
 *		its other ends in its slot
 * @r:		state
 * @p:		the change
 * @later:	the step: those made once the cables that go first are gone
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or the first -errno
 */
static int make_new(struct xc_reconf *r, struct xc_plan *p, bool later,
		    char *why, size_t whylen)
{
	char err[XC_ERR_LEN];
	unsigned int k;
	int s, rc;

	for (k = 0; k < p->n_add; k++) {
		if (p->later[k] != later)
			continue;
		s = p->keep_slot[k] >= 0 ? p->keep_slot[k] : free_slot(r);
		if (s < 0) {
			snprintf(why, whylen, "too many cables (at most %d)",
				 XC_MAX_CABLES);
			return -ENOSPC;
		}
		rc = make(r, (unsigned int)s, &p->add[k],
			  p->keep_slot[k] >= 0 ? p->keep[k] : 0, false, err,
			  sizeof(err));
		if (rc) {
			snprintf(why, whylen, "%s", err);
			XC_LOG_FROM(r->src, main, ERR, "%s: not made: %s",
				    p->add[k].name, err);
			return rc;
		}
		p->slot[k] = s;
	}
	return 0;
}

/**
 * kept_text() - which ends of a cable stayed as they ran, for messages
 * @keep:	bit j: end j
 *
 * Return: static text
 */
static const char *kept_text(unsigned int keep)
{
	static const char *const text[] = {
		"", "its left end kept as it ran", "its right end kept as it ran",
		"both its ends kept as they ran",
	};

	return text[keep & 3u];
}

/**
 * in_the_way() - would a running end, kept aside while the change is
 *		  made, hold what an end the change makes takes, and that
 *		  end cannot be made beside it? (QEMU's socket, which a
 *		  socket end in client mode connects to)
 * @r:		state
 * @p:		the change
 * @old:	the running end's definition
 *
 * Return: true if so
 */
static bool in_the_way(const struct xc_reconf *r, const struct xc_plan *p,
		       const struct xc_end_def *old)
{
	const struct xc_end_kind *k;
	const struct xc_end_def *e;
	unsigned int a, j;

	for (a = 0; a < p->n_add; a++)
		for (j = 0; j < 2; j++) {
			e = &p->add[a].end[j];
			k = xc_end_kind_of(e);
			if ((changed(p, a) & (1u << j)) &&
			    xc_end_def_clash(old, e, r->opts) &&
			    !(k && k->beside && k->beside(e)))
				return true;
		}
	return false;
}

/**
 * parkable() - may the port of a changed end stay aside, running, while
 *		its new form is made? Yes for an end plugged in whose kind
 *		parks its own port, if no end the change makes needs what
 *		it holds, or each that does is made beside it (a served
 *		socket: at a hidden name); a socket in client mode that
 *		connects to another path than before, too
 * @r:		state
 * @p:		the change
 * @s:		the cable's slot
 * @j:		the end
 * @ch:		the cable's changed ends (bit j: end j)
 *
 * Return: true if so
 */
static bool parkable(const struct xc_reconf *r, const struct xc_plan *p,
		     unsigned int s, unsigned int j, unsigned int ch)
{
	const struct xc_cable *c = &r->t->cables[s];
	const struct xc_end_kind *k = c->end[j].kind;

	return (ch & (1u << j)) && c->end[j].port && !c->pulled[j] &&
	       k && k->parks && !in_the_way(r, p, &r->defs[s].end[j]);
}

/**
 * park() - keep the port of a changed end aside, running, while its new
 *	    form is made (no lcore touches it now)
 * @r:		state
 * @p:		the change
 * @k:		the cable's add[k]
 * @j:		the end
 */
static void park(struct xc_reconf *r, struct xc_plan *p, unsigned int k,
		 unsigned int j)
{
	struct xc_end *e = &r->t->cables[p->keep_slot[k]].end[j];

	p->parked[k][j] = e->port;
	e->port->parked = true;
	e->port = NULL;
}

/**
 * unpark() - the ports kept aside for add[k] are no longer: those its old
 *	      form took again stay, the others are freed (their guests see
 *	      the carrier go)
 * @r:		state
 * @p:		the change
 * @k:		the cable's add[k]
 */
static void unpark(struct xc_reconf *r, struct xc_plan *p, unsigned int k)
{
	unsigned int j;

	for (j = 0; j < 2; j++) {
		struct xc_port *port = p->parked[k][j];

		if (port == NULL)
			continue;
		port->parked = false;
		if (!xc_topo_port_held(r->t, port))
			xc_topo_free_port(r->t, port, true);
		p->parked[k][j] = NULL;
	}
}

/**
 * again() - make a cable that went for a change that failed as it was,
 *	     and say so (main thread)
 * @r:		state
 * @s:		its slot: free, or holding its kept ends
 * @d:		its definition
 * @keep:	its ends that stayed (bit j: end j)
 */
static void again(struct xc_reconf *r, unsigned int s,
		  const struct xc_cable_def *d, unsigned int keep,
		  struct xc_port *const parked[2])
{
	char why[XC_ERR_LEN];
	unsigned int j;
	bool made;
	int rc;

	for (j = 0; j < 2; j++)	/* its old form takes them again */
		if (parked && parked[j])
			parked[j]->parked = false;
	rc = make(r, s, d, keep, true, why, sizeof(why));
	made = rc == 0;
	for (j = 0; made && parked && j < 2; j++)	/* their guests saw nothing */
		if (parked[j] && r->t->cables[s].end[j].port == parked[j])
			keep |= 1u << j;
	if (made)
		rc = show(r, s, true, why, sizeof(why));
	/* what was made of it, or what stayed, cannot forward alone; one an
	 * lcore may take yet (-ETIMEDOUT) stays, hidden */
	if (rc && rc != -ETIMEDOUT && (made || keep)) {
		xc_topo_del_cable(r->t, s, NULL);
		memset(&r->defs[s], 0, sizeof(r->defs[s]));
	}
	if (rc) {
		XC_LOG_FROM(r->src, main, ERR,
			    "%s: LOST: could not be made again: %s (its last counters are above)",
			    d->name, why);
		xc_sbuf_printf(r->out, "%s: LOST: could not be made again (%s): it is no longer in the lab; its last counters are above\n",
			       d->name, why);
		xc_ev("cable", d->name, NULL, "removed", "lost",
		      "a change failed and it could not be made again: %s",
		      why);
		return;
	}
	if (keep == 3u)
		XC_LOG_FROM(r->src, main, WARNING,
			    "%s: made again as it was (both its ends kept as they ran: its guests noticed nothing)",
			    d->name);
	else if (keep)
		XC_LOG_FROM(r->src, main, WARNING,
			    "%s: made again as it was (%s; the guest of its other end saw the carrier go and come back)",
			    d->name, kept_text(keep));
	else
		XC_LOG_FROM(r->src, main, WARNING,
			    "%s: made again as it was (its guests saw the carrier go and come back)",
			    d->name);
	xc_sbuf_printf(r->out, "%s: made again as it was%s%s%s (its counters start again; its last ones are above)\n",
		       d->name, keep ? " (" : "", kept_text(keep),
		       keep ? ")" : "");
}

/**
 * settle() - the new cables' ends made beside an end that is gone now
 *	      take its place (a socket its path)
 * @r:		state
 * @p:		the change, made, the cables that go taken away (one an
 *		lcore did not let go of keeps what it holds)
 */
static void settle(struct xc_reconf *r, const struct xc_plan *p)
{
	struct xc_cable *c;
	unsigned int k, j;

	for (k = 0; k < p->n_add; k++) {
		if (p->slot[k] < 0 || !p->shown[k])
			continue;
		c = &r->t->cables[p->slot[k]];
		for (j = 0; j < 2; j++)
			if (c->end[j].kind && c->end[j].kind->settle)
				c->end[j].kind->settle(r->t, &c->end[j],
						       &r->defs[p->slot[k]].end[j]);
	}
}

/**
 * undo() - a change failed half-way: free the new cables, and make the
 *	    cables taken away for them again (main thread)
 * @r:		state
 * @p:		the change
 */
static void undo(struct xc_reconf *r, struct xc_plan *p)
{
	struct xc_gone g;
	unsigned int k, s;

	for (k = 0; k < p->n_add; k++) {
		if (p->slot[k] < 0)
			continue;
		s = (unsigned int)p->slot[k];
		if (p->keep_slot[k] >= 0) {
			/* its new ends go, the kept ones stay */
			if (p->shown[k] && let_go(r, s, changed(p, k)))
				continue;	/* an lcore holds it: it stays */
			xc_topo_release_ends(r->t, s, p->keep[k], &g);
			r->defs[s] = p->was[s];
			if (p->shown[k])
				gone(r, &g, "undone");
		} else if (p->shown[k]) {
			if (take_away(r, s, "undone"))
				continue;	/* an lcore holds it: it stays */
		} else {
			xc_topo_del_cable(r->t, s, NULL);
			memset(&r->defs[s], 0, sizeof(r->defs[s]));
		}
		p->slot[k] = -1;
	}
	for (k = 0; k < p->n_add; k++) {
		if (p->released[k] && p->slot[k] < 0)
			again(r, (unsigned int)p->keep_slot[k],
			      &p->was[p->keep_slot[k]], p->keep[k],
			      p->parked[k]);
		unpark(r, p, k);	/* what it did not take again */
	}
	for (s = 0; s < XC_MAX_CABLES; s++)
		if (p->gone[s])
			again(r, s, &p->was[s], 0, NULL);
	settle(r, p);	/* a new form an lcore kept: its parked ports went */
}

/**
 * is_replaced() - does a cable that goes come back in a new form?
 * @p:		the change
 * @name:	its name
 *
 * Return: true if so
 */
static bool is_replaced(const struct xc_plan *p, const char *name)
{
	unsigned int k;

	for (k = 0; k < p->n_add; k++)
		if (strcmp(p->add[k].name, name) == 0)
			return true;
	return false;
}

/**
 * take_away_step() - take away the cables that go in one step, keeping
 *		      their definitions in case the change is undone
 * @r:		state
 * @p:		the change
 * @first:	the step: those that go before the later cables are made
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or the first -errno (the others are still taken away)
 */
static int take_away_step(struct xc_reconf *r, struct xc_plan *p, bool first,
			  char *why, size_t whylen)
{
	unsigned int s;
	int rc = 0, e;

	for (s = 0; s < XC_MAX_CABLES; s++) {
		if (!p->del[s] || p->gone[s] || p->first[s] != first)
			continue;
		p->was[s] = r->defs[s];
		e = take_away(r, s, is_replaced(p, p->was[s].name) ?
			      "replaced" : "removed");
		if (e == 0) {
			p->gone[s] = true;
		} else if (rc == 0) {
			snprintf(why, whylen, "cable %s: an lcore did not let go of it: see the log",
				 p->was[s].name);
			rc = e;
			if (first)
				break;
		}
	}
	return rc;
}

/**
 * release_step() - the cables that change but keep some ends let go of
 *		    their other ends: hidden, taken from their lcores, their
 *		    last counters kept, the ends that change freed
 * @r:		state
 * @p:		the change
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or -errno (an lcore did not let go of one: it is as it was)
 */
static int release_step(struct xc_reconf *r, struct xc_plan *p, char *why,
			size_t whylen)
{
	struct xc_gone g;
	unsigned int k, s, j;

	for (k = 0; k < p->n_add; k++) {
		if (p->keep_slot[k] < 0)
			continue;
		s = (unsigned int)p->keep_slot[k];
		p->was[s] = r->defs[s];
		if (let_go(r, s, changed(p, k))) {
			snprintf(why, whylen, "cable %s: an lcore did not let go of it: see the log",
				 p->was[s].name);
			return -EBUSY;
		}
		for (j = 0; j < 2; j++)	/* no lcore touches them now */
			if (p->spare[k] & (1u << j))
				r->t->cables[s].end[j].port = NULL;
			else if (parkable(r, p, s, j, changed(p, k)))
				park(r, p, k, j);
		xc_topo_release_ends(r->t, s, p->keep[k], &g);
		p->released[k] = true;
		gone(r, &g, "replaced");
	}
	return 0;
}

/**
 * goes_named() - does a cable of this name go in the change (to come back
 *		  in a new form, when it is also added)?
 * @p:		the change
 * @name:	a cable's name
 *
 * Return: true if one of the cables that go has that name
 */
static bool goes_named(const struct xc_plan *p, const char *name)
{
	unsigned int s;

	for (s = 0; s < XC_MAX_CABLES; s++)
		if (p->gone[s] && strcmp(p->was[s].name, name) == 0)
			return true;
	return false;
}

/**
 * announce() - the events of a change made: cables added, changed (made
 *		again in a new form, some ends kept or none) and removed
 * @r:		state
 * @p:		the change, made
 */
static void announce(struct xc_reconf *r, const struct xc_plan *p)
{
	const struct xc_cable *c;
	unsigned int k, s;

	for (k = 0; k < p->n_add; k++) {
		if (p->slot[k] < 0 || !p->shown[k])
			continue;
		c = &r->t->cables[p->slot[k]];
		xc_ev("cable", c->name, NULL,
		      p->keep_slot[k] >= 0 || goes_named(p, c->name) ?
		      "changed" : "added", r->verb, "%s (%s) <-> %s (%s)%s%s",
		      c->end[0].label, xc_end_where(&c->end[0]),
		      c->end[1].label, xc_end_where(&c->end[1]),
		      p->keep_slot[k] >= 0 ? "; " : "",
		      p->keep_slot[k] >= 0 ? kept_text(p->keep[k]) : "");
	}
	for (s = 0; s < XC_MAX_CABLES; s++)
		if (p->gone[s] && !is_replaced(p, p->was[s].name))
			xc_ev("cable", p->was[s].name, NULL, "removed", r->verb,
			      NULL);
}

/**
 * make_change() - make, switch and release as check() planned; on a
 *		   failure while making or switching, undo it all
 * @r:		state
 * @p:		the change, checked
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or -errno: the lab is as it was, or (only if an lcore did
 *	   not let go of a cable that goes) the change is made but for it
 */
static int make_change(struct xc_reconf *r, struct xc_plan *p, char *why,
		       size_t whylen)
{
	unsigned int k, s, q;
	int rc;

	rc = make_new(r, p, false, why, whylen);
	if (rc == 0)
		rc = take_away_step(r, p, true, why, whylen);
	if (rc == 0)
		rc = release_step(r, p, why, whylen);
	if (rc == 0)
		rc = make_new(r, p, true, why, whylen);
	for (k = 0; k < p->n_add && rc == 0; k++) {
		rc = show(r, (unsigned int)p->slot[k], false, why, whylen);
		/* an lcore that did not answer may take it yet */
		p->shown[k] = rc == 0 || rc == -ETIMEDOUT;
	}
	if (rc) {
		undo(r, p);
		return rc;
	}
	rc = take_away_step(r, p, false, why, whylen);
	for (k = 0; k < p->n_add; k++)	/* their ends run in their new form */
		unpark(r, p, k);
	settle(r, p);
	announce(r, p);
	for (s = 0; s < XC_MAX_CABLES; s++) {
		struct xc_cable *c = &r->t->cables[s];

		if (!p->tune[s])
			continue;
		if (memcmp(r->defs[s].impair, p->tune_to[s],
			   sizeof(r->defs[s].impair))) {
			for (q = 0; q < 2 * c->n_queues; q++)
				xc_impair_set(&c->dir[q].im,
					      &p->tune_to[s][q % 2]);
			memcpy(r->defs[s].impair, p->tune_to[s],
			       sizeof(r->defs[s].impair));
			XC_LOG_FROM(r->src, main, INFO,
				    "%s: impairments changed in place",
				    c->name);
			xc_ev("impair", c->name, NULL, "changed", r->verb,
			      "in place, by the config");
		}
		if (memcmp(&r->defs[s].carrier, &p->tune_carrier[s],
			   sizeof(r->defs[s].carrier))) {
			/* checked (check_tune()); carried out by pull.c */
			xc_pull_set_carrier(c, &p->tune_carrier[s]);
			r->defs[s].carrier = p->tune_carrier[s];
			XC_LOG_FROM(r->src, main, INFO,
				    "%s: carrier (down, flap) changed in place",
				    c->name);
			xc_ev("cable", c->name, NULL, "changed", r->verb,
			      "its carrier (down, flap), in place");
		}
	}
	return rc;
}

/**
 * apply() - carry out a change checked (make_change()), the kinds keeping
 *	     what their ends share while it is made: a port or socket
 *	     whose last end the change lets go of stays up for the end it
 *	     makes there (struct xc_topo's changing), and is let go of once
 *	     it is over if none did (xc_kinds_tidy())
 * @r:		state
 * @p:		the change, checked
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: as make_change()
 */
static int apply(struct xc_reconf *r, struct xc_plan *p, char *why,
		 size_t whylen)
{
	int rc;

	r->t->changing = true;
	rc = make_change(r, p, why, whylen);
	r->t->changing = false;
	xc_kinds_tidy(r->t);
	return rc;
}

/**
 * plan_reset() - an empty change
 * @p:		the change
 */
static void plan_reset(struct xc_plan *p)
{
	unsigned int k;

	memset(p->del, 0, sizeof(p->del));
	memset(p->first, 0, sizeof(p->first));
	memset(p->gone, 0, sizeof(p->gone));
	memset(p->tune, 0, sizeof(p->tune));
	memset(p->shown, 0, sizeof(p->shown));
	memset(p->later, 0, sizeof(p->later));
	memset(p->keep, 0, sizeof(p->keep));
	memset(p->released, 0, sizeof(p->released));
	memset(p->spare, 0, sizeof(p->spare));
	memset(p->parked, 0, sizeof(p->parked));
	for (k = 0; k < XC_MAX_CABLES; k++)
		p->slot[k] = p->keep_slot[k] = p->kept_by[k] = -1;
	p->n_add = 0;
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
	struct xc_plan *p = &r->plan;
	int rc;

	plan_reset(p);
	rc = xc_config_cable(argc, argv, r->opts, &p->add[0], why, whylen);
	if (rc)
		return rc;
	p->n_add = 1;
	rc = check(r, p, why, whylen);
	return rc ? rc : apply(r, p, why, whylen);
}

/**
 * moving() - is a running cable's guest moving? A change would undo the
 *	      move: refused until it is over
 * @r:		state
 * @s:		the cable's slot
 * @why:	the reason, if so
 * @whylen:	size of @why
 *
 * Return: true if so
 */
static bool moving(const struct xc_reconf *r, unsigned int s, char *why,
		   size_t whylen)
{
	const struct xc_cable *c = &r->t->cables[s];

	if (!xc_mig_active(&c->mig))
		return false;
	snprintf(why, whylen, "cable %s: a guest of it is moving (xcablectl migrate %s cancel, or wait for the migration to end)",
		 c->name, c->name);
	return true;
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
	struct xc_plan *p = &r->plan;
	int i = find(r, name), rc;

	if (i < 0) {
		snprintf(why, whylen, "no cable '%.40s'", name);
		return -ENOENT;
	}
	if (moving(r, (unsigned int)i, why, whylen))
		return -EBUSY;
	plan_reset(p);
	p->del[i] = true;
	rc = check(r, p, why, whylen);
	return rc ? rc : apply(r, p, why, whylen);
}

/**
 * same_but_tunable() - do two definitions of a cable differ in what a
 *			running cable takes in place alone: impairments,
 *			carrier (down =, flap =)?
 * @a:		one
 * @b:		the other
 *
 * Return: true if so
 */
static bool same_but_tunable(const struct xc_cable_def *a,
			     const struct xc_cable_def *b)
{
	struct xc_cable_def x = *a, y = *b;

	memset(x.impair, 0, sizeof(x.impair));
	memset(y.impair, 0, sizeof(y.impair));
	memset(&x.carrier, 0, sizeof(x.carrier));
	memset(&y.carrier, 0, sizeof(y.carrier));
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/**
 * check_tune() - can the cables changed in place take their new carrier
 *		  (only a vhost port's end can be pulled)?
 * @r:		state
 * @p:		the change
 * @why:	the reason it cannot
 * @whylen:	size of @why
 *
 * Return: 0, or -EINVAL with @why set
 */
static int check_tune(struct xc_reconf *r, const struct xc_plan *p,
		      char *why, size_t whylen)
{
	unsigned int s;

	for (s = 0; s < XC_MAX_CABLES; s++)
		if (p->tune[s] &&
		    xc_pull_check(&r->t->cables[s], &p->tune_carrier[s], why,
				  whylen))
			return -EINVAL;
	return 0;
}

/**
 * kept_ends() - the ends of a running cable that can stay as they run
 *		 when it takes a new definition: those defined alike, on a
 *		 cable with as many queues (its pools stay, which their
 *		 ports' queues use); none for a cable whose carrier is
 *		 managed (an end taken down, by an operator, a flap or its
 *		 definition's down or flap: it is made anew, as defined)
 * @r:		state
 * @s:		the running cable's slot
 * @d:		its new definition
 *
 * Return: bit j set if end j stays
 */
static unsigned int kept_ends(const struct xc_reconf *r, unsigned int s,
			      const struct xc_cable_def *d)
{
	const struct xc_cable_def *o = &r->defs[s];
	const struct xc_cable *c = &r->t->cables[s];
	unsigned int j, keep = 0;

	if (o->name[0] == '\0' || o->end[0].queues != d->end[0].queues ||
	    o->end[1].queues != d->end[1].queues ||
	    o->carrier.down || o->carrier.flap.down_ms ||
	    d->carrier.down || d->carrier.flap.down_ms || c->flap.on)
		return 0;
	for (j = 0; j < 2; j++)
		if (c->pull_why[j] == XC_PULL_ADMIN ||
		    c->pull_why[j] == XC_PULL_FLAP)
			return 0;
	for (j = 0; j < 2; j++)
		if (memcmp(&o->end[j], &d->end[j], sizeof(d->end[j])) == 0)
			keep |= 1u << j;
	return keep;
}

/**
 * diff() - what a config read again changes: running cables it lacks go,
 *	    its new cables come, a changed cable takes its new form (in its
 *	    slot, its unchanged ends staying as they run, or made whole
 *	    anew if every end changed), those whose impairments or carrier
 *	    alone changed take them in place
 * @r:		state; r->tmp holds the file's cables
 * @n:		how many
 * @p:		the change, filled
 */
static void diff(struct xc_reconf *r, unsigned int n, struct xc_plan *p)
{
	unsigned int i, k, keep;
	int s;

	for (k = 0; k < n; k++) {
		s = find(r, r->tmp[k].name);
		if (s >= 0 && memcmp(&r->defs[s], &r->tmp[k],
				     sizeof(r->tmp[k])) == 0)
			continue;	/* unchanged: not touched */
		if (s >= 0 && r->defs[s].name[0] &&
		    same_but_tunable(&r->defs[s], &r->tmp[k])) {
			p->tune[s] = true;
			memcpy(p->tune_to[s], r->tmp[k].impair,
			       sizeof(p->tune_to[s]));
			p->tune_carrier[s] = r->tmp[k].carrier;
			continue;
		}
		keep = s >= 0 ? kept_ends(r, (unsigned int)s, &r->tmp[k]) : 0;
		if (keep) {
			p->keep_slot[p->n_add] = s;
			p->keep[p->n_add] = (uint8_t)keep;
			p->kept_by[s] = (int)p->n_add;
		} else if (s >= 0) {
			p->del[s] = true;
		}
		p->add[p->n_add++] = r->tmp[k];
	}
	for (i = 0; i < r->t->n_cables; i++) {
		if (!used(r, i))
			continue;
		for (k = 0; k < n && strcmp(r->tmp[k].name,
					    r->t->cables[i].name); k++)
			;
		if (k == n)
			p->del[i] = true;
	}
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
	struct xc_plan *p = &r->plan;
	unsigned int n, n_del = 0, n_tune = 0, n_kept = 0, i;
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
	plan_reset(p);
	diff(r, n, p);
	for (i = 0; i < XC_MAX_CABLES; i++) {
		if ((p->del[i] || p->tune[i] || p->kept_by[i] >= 0) &&
		    moving(r, i, why, whylen))
			return -EBUSY;
		n_del += p->del[i] || p->kept_by[i] >= 0;
		n_tune += p->tune[i];
		n_kept += p->kept_by[i] >= 0;
	}
	rc = check_tune(r, p, why, whylen);
	if (rc == 0)
		rc = check(r, p, why, whylen);
	if (rc == 0)
		rc = apply(r, p, why, whylen);
	if (rc == 0)
		snprintf(why, whylen, "%s: %u cable(s) removed or replaced, %u added or replaced, %u changed in place; %u replaced with their unchanged ends kept as they ran",
			 r->config, n_del, p->n_add, n_tune, n_kept);
	return rc;
}

/**
 * run() - carry out one request (main thread)
 * @r:		state; r->out gets the lines of what was done
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
	snprintf(r->verb, sizeof(r->verb), "%s", argc ? argv[0] : "");
	if (argc >= 2 && strcmp(argv[0], "add") == 0)
		return cmd_add(r, argc - 1, argv + 1, why, whylen);
	if (argc == 2 && strcmp(argv[0], "del") == 0)
		return cmd_del(r, argv[1], why, whylen);
	if (argc == 1 && strcmp(argv[0], "reload") == 0)
		return cmd_reload(r, why, whylen);
	if (argc >= 1 && r->request && strcmp(argv[0], "add") &&
	    strcmp(argv[0], "del") && strcmp(argv[0], "reload"))
		return r->request(r->request_arg, argc, argv, r->out, why,
				  whylen);
	snprintf(why, whylen, "expected add NAME left=SOCKET right=SOCKET [KEY=VALUE]..., del NAME or reload");
	return -EINVAL;
}

/**
 * xc_reconf_change_end() - give one end of a running cable a new
 *			    definition, its other end kept as it runs (a
 *			    guest that moved to another host: its end
 *			    becomes a tunnel there, and back if the move
 *			    fails), applied whole or not at all as any
 *			    change; what it did is logged (main thread)
 * @r:		state
 * @s:		the cable's slot
 * @j:		the end
 * @e:		its new definition
 * @spare:	the end's port is kept aside, not freed: its guest may come
 *		back to it (a socket end made later finds it by its path)
 * @src:	who asks, as the log's rate limit knows it
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with the cable as it was
 */
int xc_reconf_change_end(struct xc_reconf *r, unsigned int s, unsigned int j,
			 const struct xc_end_def *e, bool spare,
			 const char *src, char *why, size_t whylen)
{
	struct xc_sbuf lines = { 0 }, *out = r->out;
	struct xc_plan *p = &r->plan;
	const char *l, *nl;
	int rc;

	plan_reset(p);
	p->add[0] = r->defs[s];
	p->add[0].end[j] = *e;
	p->n_add = 1;
	p->keep_slot[0] = (int)s;
	p->keep[0] = (uint8_t)(1u << (1 - j));
	p->kept_by[s] = 0;
	p->spare[0] = spare ? (uint8_t)(1u << j) : 0;
	snprintf(r->src, sizeof(r->src), "%s", src);
	r->out = &lines;	/* the counters of its old form: logged */
	rc = check(r, p, why, whylen);
	if (rc == 0)
		rc = apply(r, p, why, whylen);
	r->out = out;
	for (l = xc_sbuf_str(&lines); (nl = strchr(l, '\n')); l = nl + 1)
		XC_LOG_FROM(src, main, INFO, "%.*s", (int)(nl - l), l);
	xc_sbuf_free(&lines);
	return rc;
}

/**
 * xc_reconf_redefine() - say what one end of a running cable is now, as it
 *			  runs (a guest that moved to another socket on this
 *			  host): a reload compares the config with it
 * @r:		state
 * @s:		the cable's slot
 * @j:		the end
 * @e:		its definition now
 */
void xc_reconf_redefine(struct xc_reconf *r, unsigned int s, unsigned int j,
			const struct xc_end_def *e)
{
	r->defs[s].end[j] = *e;
}

/**
 * xc_reconf_housekeeping() - carry out a posted request, or a reload on
 *			      SIGHUP; log what was done (main thread)
 * @r:		state
 */
void xc_reconf_housekeeping(struct xc_reconf *r)
{
	char why[XC_ERR_LEN] = "", line[XC_RECONF_REQ_LEN], hup[] = "reload";
	struct xc_sbuf lines = { 0 };
	int rc;

	if (r->hup) {
		r->hup = false;
		if (r->config == NULL) {
			XC_LOG(main, INFO, "SIGHUP: nothing to reload (no --config): ignored");
		} else {
			/* its lines are in the log: the control thread may be
			 * reading the last request's answer */
			r->out = &lines;
			snprintf(r->src, sizeof(r->src), "SIGHUP");
			xc_notify("RELOADING=1");
			rc = run(r, hup, why, sizeof(why));
			xc_notify("READY=1");
			xc_sbuf_free(&lines);
			XC_LOG_FROM(r->src, main, INFO, "SIGHUP: reload %s: %s",
				    rc ? "refused, nothing changed" : "done",
				    why);
		}
	}
	if (!__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE))
		return;
	snprintf(line, sizeof(line), "%s", r->req);
	why[0] = '\0';
	xc_sbuf_free(&r->answer);
	r->out = &r->answer;
	/* on a failure too, the answer keeps what was done and undone (the
	 * last counters of a cable replaced, whether it was made again),
	 * the reason last */
	rc = run(r, line, why, sizeof(why));
	if (why[0])
		xc_sbuf_printf(&r->answer, "%s\n", why);
	XC_LOG_FROM(r->src, main, INFO, "xcablectl %s: %s%s%s", r->req,
		    rc ? "failed: " : "done",
		    rc || why[0] ? (rc ? "" : ": ") : "", why);
	__atomic_store_n(&r->done, rc ? (rc < 0 ? rc : -EINVAL) : 1,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&r->pending, 0, __ATOMIC_RELEASE);
}

/**
 * xc_reconf_fini() - free what the last answer holds
 * @r:		state
 */
void xc_reconf_fini(struct xc_reconf *r)
{
	xc_sbuf_free(&r->answer);
}
