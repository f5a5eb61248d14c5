/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * migrate.c - a cable end's guest moving to another QEMU (a live
 *	       migration of its VM), on this host or another:
 *
 *   xcablectl migrate CABLE END [--socket PATH] [--within SECONDS]
 *   xcablectl migrate CABLE END --to-remote ADDR[:PORT] --vni N [--within S]
 *   xcablectl migrate CABLE cancel
 *
 * Theory of operation. QEMU's destination connects to its vhost-user
 * backend when it starts, long before the source lets go of the guest:
 * the source stops its device (GET_VRING_BASE: its port's link goes down)
 * only at the end, and the destination starts its own once it has the
 * guest's state. An end serves one frontend (the guard, kinds/guard.c),
 * so a move is opened explicitly, for a bounded time (the slot), and to
 * exactly one more frontend:
 *
 *   open       a standby port is made for the end by its kind (the same
 *              socket settings; struct xc_end_kind's standby), on the
 *              end's own path (bound at .NAME.migrate, and lent the
 *              public path in the decoy's place) or on --socket PATH (an
 *              end that connects to QEMU: the destination's socket); the
 *              source's socket stays guarded while its device is stopped,
 *              and its port's link going down makes frames towards the end
 *              wait (XC_PAUSED_HOLD, set by the event thread itself,
 *              port.c), instead of meeting a link down
 *   connected  one frontend connected to the standby (its fds, counted
 *              every XC_MIG_SCAN_MS): the public path gets the decoy back,
 *              any other frontend is refused; two at once fail the move
 *   stopped    the source's device stopped: frames towards the end wait
 *              (at most XC_MIG_HOLD_MS), the far guest keeps its carrier
 *              (link propagation waits for the move, pull.c)
 *   done       the standby's device started: it becomes the end (the
 *              cable taken off its lcore and given back: the directions
 *              keep what they hold, counters go on), the source's port is
 *              freed, the standby serves the end's socket from now on and
 *              what waited goes to it
 *
 * Anything else fails the move and leaves the cable as it was, with the
 * source: the destination's frontend going away (QEMU killed), a standby
 * whose device starts while the source's still runs (no destination
 * does that: refused), two frontends, the slot's time running out, or
 * xcablectl migrate CABLE cancel. A source that stops and runs again (a
 * guest's driver reset, or a migration QEMU gave up) is waited for again.
 *
 * To another host (--to-remote): the destination is another xcable's,
 * which serves the guest's socket there and a tunnel back here (a cable
 * "left = SOCK, right-vxlan = THIS-HOST" on that host, made beforehand).
 * Here nobody connects: when the source's device stops, the end becomes
 * a tunnel to that host (a change of one end, reconf.c, the other end
 * kept as it runs), the source's port kept aside; frames towards it wait
 * until the first frame comes from the tunnel (the moved guest runs and
 * announces itself), then the source's port is freed. If the source runs
 * again first, the end is its socket again (the port kept aside is found
 * by its path).
 *
 * Everything here is the main thread's: requests come through reconf.c's
 * queue, and the moves go on in the housekeeping, every few milliseconds
 * while one is under way (a link event wakes the main thread too).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "config.h"
#include "dir.h"
#include "log.h"
#include "logrl.h"
#include "migrate.h"

/* how often the standby's frontends are counted (a look at every fd) */
#define XC_MIG_SCAN_MS		100
/* how often a move under way is looked at: the slot open, and once a
 * frontend came or the source stopped */
#define XC_MIG_OPEN_MS		50
#define XC_MIG_BUSY_MS		5

/* ms() - TSC cycles in @n milliseconds */
static uint64_t ms(uint64_t n)
{
	return rte_get_tsc_hz() / 1000 * n;
}

/**
 * drops() - frames dropped so far by a cable's directions towards one end
 *	     (peer-down, cable-down, shutdown): what a move may cost
 * @c:		cable
 * @j:		the end
 *
 * Return: their sum
 */
static uint64_t drops(const struct xc_cable *c, unsigned int j)
{
	struct xc_dir_stats s;

	if (c->dir == NULL)
		return 0;
	xc_cable_stats(c, 1 - j, &s);
	return s.drop[XC_DROP_PEER_DOWN] + s.drop[XC_DROP_CABLE_DOWN] +
	       s.drop[XC_DROP_SHUTDOWN];
}

/**
 * hold() - frames towards a cable's end wait, or no longer (then the
 *	    lcores are woken: what waited goes on)
 * @m:		moves
 * @c:		cable
 * @j:		the end
 * @on:		wait (true) or not
 */
static void hold(struct xc_migrate *m, struct xc_cable *c, unsigned int j,
		 bool on)
{
	if (on) {
		__atomic_fetch_or(&c->paused, XC_PAUSED_HOLD(j),
				  __ATOMIC_SEQ_CST);
		return;
	}
	__atomic_fetch_and(&c->paused, ~XC_PAUSED_HOLD(j), __ATOMIC_SEQ_CST);
	xc_lcores_wake(m->r->l);
}

/**
 * arm() - the source's link going down makes frames towards the end wait
 *	   (set by the event thread, before the lcores see the link down),
 *	   or no longer
 * @c:		cable
 * @j:		the end
 * @src:	the source's port
 * @on:		arm (true) or disarm
 */
static void arm(struct xc_cable *c, unsigned int j, struct xc_port *src,
		bool on)
{
	src->hold_bits = XC_PAUSED_HOLD(j);
	__atomic_store_n(&src->hold_word, on ? &c->paused : NULL,
			 __ATOMIC_RELEASE);
}

/**
 * set_phase() - the move's new phase, as others see it
 * @c:		cable
 * @phase:	enum xc_mig_phase
 * @now:	TSC
 */
static void set_phase(struct xc_cable *c, enum xc_mig_phase phase,
		      uint64_t now)
{
	struct xc_mig *g = &c->mig;

	xc_mig_write(g);
	if (phase == XC_MIG_CONNECTED && g->connected == 0)
		g->connected = now;
	if (phase == XC_MIG_STOPPED)
		g->stopped = now;
	else if (phase < XC_MIG_STOPPED)
		g->stopped = 0;
	g->phase = (uint8_t)phase;
	xc_mig_write(g);
}

/**
 * finish() - the move is over: done, or failed (the cable as it was);
 *	      what it cost is kept, said in the log
 * @m:		moves
 * @s:		the cable's slot
 * @phase:	XC_MIG_DONE or XC_MIG_FAILED
 * @why:	why it failed, NULL when done
 */
static void finish(struct xc_migrate *m, unsigned int s,
		   enum xc_mig_phase phase, const char *why)
{
	struct xc_cable *c = &m->r->t->cables[s];
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_mig *g = &c->mig;
	uint64_t now = rte_get_tsc_cycles(), lost;

	lost = ms_->dropped + (g->stopped ? drops(c, g->end) - ms_->drops0 :
			       0);
	xc_mig_write(g);
	g->phase = (uint8_t)phase;
	g->ended = now;
	if (g->stopped && g->waited_us == 0)
		g->waited_us = (now - g->stopped) * 1000000 /
			       rte_get_tsc_hz();
	g->dropped = lost;
	snprintf(g->why, sizeof(g->why), "%s", why ? why : "");
	xc_mig_write(g);
	if (why)
		XC_LOG_FROM(c->name, main, WARNING,
			    "%s: migration of %s failed: %s; the cable stays with the source",
			    c->name, c->end[g->end].label, why);
	else
		XC_LOG_FROM(c->name, main, INFO,
			    "%s: %s moved to %s: frames waited %" PRIu64 ".%03" PRIu64 " ms, %" PRIu64 " dropped",
			    c->name, c->end[g->end].label, g->to,
			    g->waited_us / 1000, g->waited_us % 1000, lost);
	ms_->src = ms_->twin = NULL;
}

/**
 * formed_anew() - a cable's end was made anew (to another host: the
 *		   tunnel, or the socket again): what its old form dropped
 *		   towards the end since the source stopped is kept, its
 *		   counters start again
 * @m:		moves
 * @s:		the cable's slot
 */
static void formed_anew(struct xc_migrate *m, unsigned int s)
{
	const struct xc_gone_list *gl = &m->r->t->gone;
	const struct xc_gone *g = &gl->g[(gl->n + XC_GONE_KEEP - 1) %
					 XC_GONE_KEEP];
	struct xc_cable *c = &m->r->t->cables[s];
	struct xc_mig_slot *ms_ = &m->slot[s];
	unsigned int j = c->mig.end;
	const uint64_t *d = g->st[1 - j].drop;

	if (gl->n && strcmp(g->name, c->name) == 0 && c->mig.stopped)
		ms_->dropped += d[XC_DROP_PEER_DOWN] + d[XC_DROP_CABLE_DOWN] +
				d[XC_DROP_SHUTDOWN] - ms_->drops0;
	ms_->drops0 = drops(c, j);
}

/**
 * come_back() - to another host: the end is the source's socket again
 *		 (its port kept aside is found by its path)
 * @m:		moves
 * @s:		the cable's slot
 * @why:	the reason of a failure
 * @whylen:	size of @why
 *
 * Return: 0, or -errno (the end stays the tunnel)
 */
static int come_back(struct xc_migrate *m, unsigned int s, char *why,
		     size_t whylen)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	unsigned int j = c->mig.end;
	int rc;

	if (!ms_->aside)
		return 0;
	rc = xc_reconf_change_end(m->r, s, j, &ms_->was, false, c->name, why,
				  whylen);
	if (rc)
		return rc;
	ms_->aside = false;
	formed_anew(m, s);
	return 0;
}

/**
 * fail() - the move failed or was cancelled: the cable stays with the
 *	    source, as it was; the standby is freed
 * @m:		moves
 * @s:		the cable's slot
 * @why:	why, for people
 */
static void fail(struct xc_migrate *m, unsigned int s, const char *why)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	unsigned int j = c->mig.end;
	char err[XC_ERR_LEN];

	if (come_back(m, s, err, sizeof(err)))
		XC_LOG(main, ERR, "%s: the source's socket cannot be the end again: %s",
		       c->name, err);
	arm(c, j, ms_->src, false);
	ms_->src->ops->move->close(ms_->src, ms_->twin);
	if (ms_->aside)		/* the end stays the tunnel: nobody comes back */
		xc_topo_free_port(m->r->t, ms_->src, true);
	if (__atomic_load_n(&c->paused, __ATOMIC_ACQUIRE) & XC_PAUSED_HOLD(j))
		hold(m, c, j, false);
	if (ms_->twin)
		xc_topo_free_port(m->r->t, ms_->twin, true);
	finish(m, s, XC_MIG_FAILED, why);
}

/**
 * swap() - on this host, the destination's device started: the standby
 *	    becomes the end (the cable off its lcore and back: its
 *	    directions keep what they hold), what waited goes to it, the
 *	    source's port is freed and the standby serves the end's socket
 * @m:		moves
 * @s:		the cable's slot
 *
 * Return: 0, or -errno (an lcore did not let go of the cable: nothing
 *	   changed)
 */
static int swap(struct xc_migrate *m, unsigned int s)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_reconf *r = m->r;
	struct xc_cable *c = &r->t->cables[s];
	unsigned int j = c->mig.end;
	char err[XC_ERR_LEN], label[RTE_ETH_NAME_MAX_LEN];
	struct xc_port *src = ms_->src;
	int rc;

	rc = xc_lcores_del_cable(r->l, c);
	if (rc)
		return rc;
	snprintf(label, sizeof(label), "%s", c->end[j].label);
	pthread_rwlock_wrlock(&r->lock);
	xc_kind_set_port(c, j, ms_->twin, label);
	pthread_rwlock_unlock(&r->lock);
	rc = xc_lcores_add_cable(r->l, c, r->defs[s].lcore, err, sizeof(err));
	if (rc)
		XC_LOG(main, ERR, "%s: %s", c->name, err);
	xc_mig_write(&c->mig);
	c->mig.waited_us = (rte_get_tsc_cycles() - c->mig.stopped) *
			   1000000 / rte_get_tsc_hz();
	xc_mig_write(&c->mig);
	hold(m, c, j, false);
	arm(c, j, src, false);
	src->ops->move->close(src, ms_->twin);
	xc_topo_free_port(r->t, src, true);
	ms_->twin->ops->move->adopt(ms_->twin, ms_->was.path);
	if (strcmp(ms_->to.path, ms_->was.path) != 0)
		xc_reconf_redefine(r, s, j, &ms_->to);
	return 0;
}

/**
 * stopped() - the source's device stopped: frames towards the end wait
 *	       (the event thread made them, or they do from now on); to
 *	       another host the end becomes the tunnel now
 * @m:		moves
 * @s:		the cable's slot
 * @now:	TSC
 */
static void stopped(struct xc_migrate *m, unsigned int s, uint64_t now)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	unsigned int j = c->mig.end;
	char why[XC_ERR_LEN];

	arm(c, j, ms_->src, false);	/* a hold that ends stays ended */
	hold(m, c, j, true);
	ms_->drops0 = drops(c, j);
	ms_->hold_until = now + ms(XC_MIG_HOLD_MS);
	set_phase(c, XC_MIG_STOPPED, now);
	XC_LOG_FROM(c->name, main, INFO,
		    "%s: the source's device of %s stopped: frames towards it wait for the destination",
		    c->name, c->end[j].label);
	if (!ms_->remote)
		return;
	if (xc_reconf_change_end(m->r, s, j, &ms_->to, true, c->name, why,
				 sizeof(why))) {
		fail(m, s, why);
		return;
	}
	ms_->aside = true;
	formed_anew(m, s);
	hold(m, c, j, true);
	ms_->rx0 = 0;
}

/**
 * runs_again() - the source's device runs again before the destination's
 *		  took over (a driver reset, or a migration QEMU gave up):
 *		  frames go to it again, and the move waits for it to stop
 *		  again, as long as the slot is open
 * @m:		moves
 * @s:		the cable's slot
 * @now:	TSC
 */
static void runs_again(struct xc_migrate *m, unsigned int s, uint64_t now)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	unsigned int j = c->mig.end;
	char why[XC_ERR_LEN];

	if (come_back(m, s, why, sizeof(why))) {
		fail(m, s, why);
		return;
	}
	ms_->dropped += drops(c, j) - ms_->drops0;
	ms_->drops0 = drops(c, j);
	hold(m, c, j, false);
	arm(c, j, ms_->src, true);
	set_phase(c, ms_->frontends > 0 ? XC_MIG_CONNECTED : XC_MIG_OPEN, now);
	XC_LOG_FROM(c->name, main, INFO,
		    "%s: the source's device of %s runs again: the migration waits for it to stop",
		    c->name, c->end[j].label);
}

/**
 * count() - count the standby's frontends, when due: the first closes
 *	     the slot to any other; none after one (QEMU went away) or two
 *	     (one too many slipped in before the slot closed) fail the move
 * @m:		moves
 * @s:		the cable's slot
 * @now:	TSC
 *
 * Return: true if the move goes on
 */
static bool count(struct xc_migrate *m, unsigned int s, uint64_t now)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	char why[XC_ERR_LEN];
	int n;

	if (now < ms_->next_scan)
		return true;
	ms_->next_scan = now + ms(XC_MIG_SCAN_MS);
	n = ms_->twin->ops->move->frontends(ms_->twin);
	if (n < 0)
		return true;	/* cannot tell: looked at again */
	if (n > 1) {
		snprintf(why, sizeof(why), "%d frontends connected to the migration's slot, where one may: all refused",
			 n);
		fail(m, s, why);
		return false;
	}
	if (n == 0 && ms_->frontends > 0) {
		fail(m, s, "the destination's frontend went away (is its QEMU still running?)");
		return false;
	}
	if (n == 1 && ms_->frontends == 0) {
		ms_->frontends = 1;
		ms_->src->ops->move->shut(ms_->src, ms_->twin);
		if (c->mig.phase == XC_MIG_OPEN)
			set_phase(c, XC_MIG_CONNECTED, now);
		XC_LOG_FROM(c->name, main, INFO,
			    "%s: the destination's frontend connected for %s: any other is refused",
			    c->name, c->end[c->mig.end].label);
	}
	return true;
}

/**
 * step_here() - a move on this host, looked at once
 * @m:		moves
 * @s:		the cable's slot
 * @now:	TSC
 */
static void step_here(struct xc_migrate *m, unsigned int s, uint64_t now)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	bool src_up = xc_port_is_up(ms_->src), twin_up;
	int rc;

	if (!count(m, s, now))
		return;
	/* up, with a queue to send to: its queues are enabled just after
	 * its link comes up (the vhost library tells in that order) */
	twin_up = xc_port_is_up(ms_->twin) &&
		  __atomic_load_n(&ms_->twin->txq_on, __ATOMIC_ACQUIRE) != 0;
	if (twin_up && src_up) {
		fail(m, s, "the frontend on the migration's slot started its device while the source's still runs: refused");
		return;
	}
	if (!src_up && c->mig.phase != XC_MIG_STOPPED)
		stopped(m, s, now);
	if (c->mig.phase != XC_MIG_STOPPED)
		return;
	if (twin_up) {
		rc = swap(m, s);
		if (rc == 0)
			finish(m, s, XC_MIG_DONE, NULL);
		else
			fail(m, s, "an lcore did not let go of the cable");
	} else if (src_up) {
		runs_again(m, s, now);
	}
}

/**
 * step_away() - a move to another host, looked at once: the end becomes
 *		 the tunnel as the source stops; the first frame from it
 *		 ends the wait
 * @m:		moves
 * @s:		the cable's slot
 * @now:	TSC
 */
static void step_away(struct xc_migrate *m, unsigned int s, uint64_t now)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	unsigned int j = c->mig.end;
	struct xc_dir_stats st;

	if (c->mig.phase != XC_MIG_STOPPED) {
		if (!xc_port_is_up(ms_->src))
			stopped(m, s, now);
		return;
	}
	if (xc_port_is_up(ms_->src)) {
		runs_again(m, s, now);
		return;
	}
	xc_cable_stats(c, j, &st);
	if (st.rx_pkts <= ms_->rx0)
		return;
	xc_mig_write(&c->mig);
	c->mig.waited_us = (now - c->mig.stopped) * 1000000 / rte_get_tsc_hz();
	xc_mig_write(&c->mig);
	hold(m, c, j, false);
	ms_->src->ops->move->close(ms_->src, NULL);
	xc_topo_free_port(m->r->t, ms_->src, true);
	ms_->aside = false;
	finish(m, s, XC_MIG_DONE, NULL);
}

/**
 * step() - a move under way, looked at once: its deadline, the wait of
 *	    frames towards its end, then how far it got
 * @m:		moves
 * @s:		the cable's slot
 * @now:	TSC
 */
static void step(struct xc_migrate *m, unsigned int s, uint64_t now)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	unsigned int j = c->mig.end;
	char why[XC_ERR_LEN];

	if (now >= c->mig.deadline) {
		snprintf(why, sizeof(why), "%s within %u s",
			 c->mig.phase == XC_MIG_STOPPED ?
			 (ms_->remote ? "no frame came from the destination" :
			  "the destination's device did not start") :
			 c->mig.phase == XC_MIG_CONNECTED || ms_->remote ?
			 "the source's device did not stop" :
			 "no destination connected", ms_->within_s);
		fail(m, s, why);
		return;
	}
	if (c->mig.phase == XC_MIG_STOPPED && now >= ms_->hold_until &&
	    (__atomic_load_n(&c->paused, __ATOMIC_ACQUIRE) &
	     XC_PAUSED_HOLD(j))) {
		xc_mig_write(&c->mig);
		c->mig.waited_us = XC_MIG_HOLD_MS * 1000ULL;
		xc_mig_write(&c->mig);
		hold(m, c, j, false);
		XC_LOG_FROM(c->name, main, WARNING,
			    "%s: frames towards %s waited %u ms for the destination: they go on (and meet a link that is down, counted)",
			    c->name, c->end[j].label, XC_MIG_HOLD_MS);
	}
	/* the source stopped and ran again between two looks */
	if (c->mig.phase != XC_MIG_STOPPED && xc_port_is_up(ms_->src) &&
	    (__atomic_load_n(&c->paused, __ATOMIC_ACQUIRE) & XC_PAUSED_HOLD(j)))
		hold(m, c, j, false);
	if (ms_->remote)
		step_away(m, s, now);
	else
		step_here(m, s, now);
}

/**
 * xc_migrate_housekeeping() - the moves under way go on (main thread)
 * @m:		moves
 *
 * Return: milliseconds until it must be called again (XC_MIG_OPEN_MS, or
 *	   XC_MIG_BUSY_MS once a frontend came or a source stopped);
 *	   (unsigned)-1 if no move is under way
 */
unsigned int xc_migrate_housekeeping(struct xc_migrate *m)
{
	unsigned int s, next = (unsigned int)-1;
	uint64_t now = rte_get_tsc_cycles();

	for (s = 0; s < XC_MAX_CABLES; s++) {
		struct xc_cable *c = &m->r->t->cables[s];

		if (!xc_mig_active(&c->mig))
			continue;
		step(m, s, now);
		if (c->mig.phase == XC_MIG_OPEN && !m->slot[s].remote)
			next = RTE_MIN(next, (unsigned int)XC_MIG_OPEN_MS);
		else if (xc_mig_active(&c->mig))
			next = RTE_MIN(next, (unsigned int)XC_MIG_BUSY_MS);
	}
	return next;
}

/**
 * struct mig_req - what a migrate request asks
 * @end:	the end, 0 or 1
 * @sock:	--socket PATH, or NULL
 * @remote:	--to-remote ADDR[:PORT], or NULL
 * @vni:	--vni N, or NULL
 * @within_s:	--within SECONDS
 */
struct mig_req {
	int end;
	const char *sock;
	const char *remote;
	const char *vni;
	unsigned int within_s;
};

/**
 * parse_words() - the options of migrate CABLE END [...]
 * @c:		the cable
 * @argc:	words, "migrate" first
 * @argv:	the words
 * @q:		filled
 * @why:	what is wrong
 * @whylen:	size of @why
 *
 * Return: 0 or -EINVAL
 */
static int parse_words(const struct xc_cable *c, int argc, char **argv,
		       struct mig_req *q, char *why, size_t whylen)
{
	unsigned long v;
	char *end;
	int a;

	memset(q, 0, sizeof(*q));
	q->within_s = XC_MIG_WITHIN_S;
	q->end = strcmp(argv[2], "left") == 0 ? 0 :
		 strcmp(argv[2], "right") == 0 ? 1 :
		 strcmp(argv[2], c->end[0].label) == 0 ? 0 :
		 strcmp(argv[2], c->end[1].label) == 0 ? 1 : -1;
	if (q->end < 0) {
		snprintf(why, whylen, "migrate: cable %s has no end '%.40s' (left or right; or cancel)",
			 c->name, argv[2]);
		return -EINVAL;
	}
	for (a = 3; a < argc; a += 2) {
		const char **to = strcmp(argv[a], "--socket") == 0 ? &q->sock :
				  strcmp(argv[a], "--to-remote") == 0 ? &q->remote :
				  strcmp(argv[a], "--vni") == 0 ? &q->vni : NULL;

		if (a + 1 == argc) {
			snprintf(why, whylen, "migrate: %.40s needs a value", argv[a]);
			return -EINVAL;
		}
		if (to) {
			*to = argv[a + 1];
			continue;
		}
		v = strtoul(argv[a + 1], &end, 10);
		if (strcmp(argv[a], "--within") || *end || end == argv[a + 1] ||
		    v == 0 || v > XC_MIG_WITHIN_MAX_S) {
			snprintf(why, whylen, strcmp(argv[a], "--within") ?
				 "migrate: unknown option '%.40s' (--socket PATH, --within SECONDS, --to-remote ADDR[:PORT] --vni N)" :
				 "migrate: --within '%.40s': expected 1 to 3600 seconds",
				 strcmp(argv[a], "--within") ? argv[a] : argv[a + 1]);
			return -EINVAL;
		}
		q->within_s = (unsigned int)v;
	}
	if ((q->remote != NULL) != (q->vni != NULL) || (q->remote && q->sock)) {
		snprintf(why, whylen, "migrate: %s", q->sock ?
			 "--socket and --to-remote: one or the other" :
			 "--to-remote ADDR[:PORT] and --vni N go together");
		return -EINVAL;
	}
	return 0;
}

/**
 * remote_end() - the end a guest that moves to another host gets: a
 *		  tunnel to that host, of the kind that reaches another
 *		  host's xcable, read with the code that reads a config
 *		  file's keys
 * @m:		moves
 * @c:		the cable
 * @q:		the request
 * @e:		filled
 * @why:	what is wrong
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int remote_end(struct xc_migrate *m, const struct xc_cable *c,
		      const struct mig_req *q, struct xc_end_def *e,
		      char *why, size_t whylen)
{
	const char *side = q->end ? "right" : "left";
	const struct xc_end_kind *k;
	char w[2][XC_SOCK_PATH_MAX], sec[64], err[XC_ERR_LEN];
	char *words[2] = { w[0], w[1] };
	unsigned int i;

	for (i = 0; i < XC_N_END_KINDS && !xc_kind_defs[i]->remote_addr; i++)
		;
	if (i == XC_N_END_KINDS) {
		snprintf(why, whylen, "migrate: no kind of end reaches another host");
		return -ENOTSUP;
	}
	snprintf(w[0], sizeof(w[0]), "%s-%s=%s", side,
		 xc_kind_defs[i]->remote_addr, q->remote);
	snprintf(w[1], sizeof(w[1]), "%s-%s=%s", side,
		 xc_kind_defs[i]->remote_id, q->vni);
	snprintf(sec, sizeof(sec), "cable %s", c->name);
	if (xc_config_end(2, words, m->r->opts, sec, (unsigned int)q->end, e,
			  why, whylen))
		return -EINVAL;
	if (c->n_queues != 1 || e->queues != 1) {
		snprintf(why, whylen, "migrate: a guest with %u queue pairs cannot move to another host: its tunnel carries one",
			 c->n_queues);
		return -EINVAL;
	}
	k = xc_end_kind_of(e);
	if (k && k->check && k->check(m->r->t, e, false, err, sizeof(err))) {
		snprintf(why, whylen, "migrate: %s", err);
		return -EINVAL;
	}
	return 0;
}

/**
 * can_move() - can a cable's end move now? A guest is attached to it (its
 *		kind lets guests move), no move is under way, the cable is
 *		not pulled, flapping, or down by its definition
 * @c:		the cable
 * @j:		the end
 * @why:	what is wrong
 * @whylen:	size of @why
 *
 * Return: 0 or -errno
 */
static int can_move(const struct xc_cable *c, unsigned int j, char *why,
		    size_t whylen)
{
	const struct xc_end *e = &c->end[j];

	if (xc_mig_active(&c->mig)) {
		snprintf(why, whylen, "migrate: a migration of cable %s is under way (xcablectl show %s)",
			 c->name, c->name);
		return -EBUSY;
	}
	if (e->kind == NULL || e->kind->standby == NULL || e->port == NULL ||
	    e->port->ops->move == NULL) {
		snprintf(why, whylen, "migrate: the %s end of %s is no guest's socket: only a guest can move",
			 e->label, c->name);
		return -ENOTSUP;
	}
	if (c->pulled[0] || c->pulled[1] || c->flap.on) {
		snprintf(why, whylen, "migrate: cable %s is pulled or flapping (xcablectl up %s first)",
			 c->name, c->name);
		return -EBUSY;
	}
	if (!xc_port_is_up(e->port)) {
		snprintf(why, whylen, "migrate: no guest is attached to the %s end of %s: nothing to move",
			 e->label, c->name);
		return -ENOENT;
	}
	return 0;
}

/**
 * taken() - does another cable's end use the socket a standby would serve
 *	     or connect to?
 * @m:		moves
 * @s:		the cable's slot
 * @e:		the end as it would be
 *
 * Return: true if so
 */
static bool taken(const struct xc_migrate *m, unsigned int s,
		  const struct xc_end_def *e)
{
	unsigned int i, j;

	for (i = 0; i < XC_MAX_CABLES; i++)
		for (j = 0; i != s && m->r->defs[i].name[0] && j < 2; j++)
			if (xc_end_def_clash(&m->r->defs[i].end[j], e,
					     m->r->opts))
				return true;
	return false;
}

/**
 * open_slot() - open a cable end's move: the standby made (on this host),
 *		 the source's socket guarded while it stops, its stop made
 *		 to hold frames towards it
 * @m:		moves
 * @s:		the cable's slot
 * @q:		the request
 * @why:	what is wrong
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with nothing changed
 */
static int open_slot(struct xc_migrate *m, unsigned int s,
		     const struct mig_req *q, char *why, size_t whylen)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	struct xc_end *e = &c->end[q->end];
	int rc;

	memset(ms_, 0, sizeof(*ms_));
	ms_->src = e->port;
	ms_->was = ms_->to = m->r->defs[s].end[q->end];
	ms_->remote = q->remote != NULL;
	ms_->within_s = q->within_s;
	if (ms_->remote) {
		rc = remote_end(m, c, q, &ms_->to, why, whylen);
		if (rc)
			return rc;
	} else if (q->sock) {
		snprintf(ms_->to.path, sizeof(ms_->to.path), "%s", q->sock);
		if (taken(m, s, &ms_->to)) {
			snprintf(why, whylen, "migrate: %.100s is another cable's socket",
				 q->sock);
			return -EINVAL;
		}
	}
	if (!ms_->remote &&
	    (rc = e->kind->standby(m->r->t, e, &ms_->was, q->sock, &ms_->twin,
				   why, whylen)))
		return rc;
	rc = ms_->src->ops->move->open(ms_->src, ms_->twin, why, whylen);
	if (rc) {
		xc_topo_free_port(m->r->t, ms_->twin, true);
		return rc;
	}
	arm(c, (unsigned int)q->end, ms_->src, true);
	return 0;
}

/**
 * begin() - the move is open: what others see of it, and what the
 *	     operator is told
 * @m:		moves
 * @s:		the cable's slot
 * @q:		the request
 * @out:	the answer
 */
static void begin(struct xc_migrate *m, unsigned int s,
		  const struct mig_req *q, struct xc_sbuf *out)
{
	struct xc_mig_slot *ms_ = &m->slot[s];
	struct xc_cable *c = &m->r->t->cables[s];
	const struct xc_kind_def *kd = xc_kind_def_of(&ms_->to);
	struct xc_mig *g = &c->mig;
	uint64_t now = rte_get_tsc_cycles();
	char what[XC_MIG_TO_LEN];

	kd->what(&ms_->to, what, sizeof(what));
	xc_mig_write(g);
	memset((char *)g + sizeof(g->seq), 0, sizeof(*g) - sizeof(g->seq));
	g->phase = XC_MIG_OPEN;
	g->end = (uint8_t)q->end;
	g->remote = ms_->remote;
	snprintf(g->to, sizeof(g->to), "%s", what);
	g->opened = now;
	g->deadline = now + ms(1000ULL * q->within_s);
	xc_mig_write(g);
	if (ms_->remote)
		xc_sbuf_printf(out, "%s: migration of %s open for %u s: when its guest's device stops, the end becomes %s; start the migration to the other host, whose xcable serves the guest's socket and a tunnel back\n",
			       c->name, c->end[q->end].label, q->within_s,
			       what);
	else
		xc_sbuf_printf(out, "%s: migration of %s open for %u s: the destination's frontend %s %s (one: any other is refused); then start the migration\n",
			       c->name, c->end[q->end].label, q->within_s,
			       ms_->to.client ? "is connected to, at" :
			       "connects to", ms_->to.path);
	XC_LOG_FROM(m->r->src, main, INFO, "%s: migration of %s to %s open for %u s",
		    c->name, c->end[q->end].label, what, q->within_s);
}

/**
 * request() - migrate CABLE END [--socket PATH] [--within S]
 *	       [--to-remote ADDR[:PORT] --vni N], migrate CABLE cancel
 *	       (reconf.c's request hook, main thread)
 * @arg:	struct xc_migrate
 * @argc:	words, "migrate" first
 * @argv:	the words
 * @out:	the answer's lines
 * @why:	the reason of a refusal
 * @whylen:	size of @why
 *
 * Return: 0, or -errno with @why set
 */
static int request(void *arg, int argc, char **argv, struct xc_sbuf *out,
		   char *why, size_t whylen)
{
	struct xc_migrate *m = arg;
	struct mig_req q;
	unsigned int s;
	int rc;

	if (argc < 3 || strcmp(argv[0], "migrate") != 0) {
		snprintf(why, whylen, "expected migrate CABLE END [OPTIONS] or migrate CABLE cancel");
		return -EINVAL;
	}
	for (s = 0; s < XC_MAX_CABLES; s++)
		if (xc_cable_shown(&m->r->t->cables[s]) &&
		    strcmp(m->r->t->cables[s].name, argv[1]) == 0)
			break;
	if (s == XC_MAX_CABLES) {
		snprintf(why, whylen, "no cable '%.40s'", argv[1]);
		return -ENOENT;
	}
	if (strcmp(argv[2], "cancel") == 0 && argc == 3) {
		if (!xc_mig_active(&m->r->t->cables[s].mig)) {
			snprintf(why, whylen, "migrate: no migration of cable %s is under way",
				 argv[1]);
			return -ENOENT;
		}
		fail(m, s, "cancelled by xcablectl");
		xc_sbuf_printf(out, "%s: migration cancelled: the cable stays with the source\n",
			       argv[1]);
		return 0;
	}
	rc = parse_words(&m->r->t->cables[s], argc, argv, &q, why, whylen);
	if (rc == 0)
		rc = can_move(&m->r->t->cables[s], (unsigned int)q.end, why,
			      whylen);
	if (rc == 0)
		rc = open_slot(m, s, &q, why, whylen);
	if (rc == 0)
		begin(m, s, &q, out);
	return rc;
}

/**
 * xc_migrate_init() - let cables' guests move: the requests come through
 *		       reconf.c's queue
 * @m:		moves
 * @r:		runtime changes, set up
 */
void xc_migrate_init(struct xc_migrate *m, struct xc_reconf *r)
{
	memset(m, 0, sizeof(*m));
	m->r = r;
	r->request = request;
	r->request_arg = m;
}
