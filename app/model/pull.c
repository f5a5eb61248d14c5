/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pull.c - pulling a cable out and plugging it back in, one end or both,
 *	    now or on a flap schedule; the carrier following the far end
 *
 * Theory of operation: a guest sees its carrier go when its vhost-user
 * connection closes, and QEMU's reconnect brings it back when the socket
 * is there again. So an end is "unplugged" by hot-unplugging its vhost
 * port (rte_dev_remove: the connection closes, the socket goes away) and
 * "plugged" by probing it again with the same device arguments and
 * configuring and starting it as at start-up (the port life cycle of
 * port.c). Before that, the cable is paused through env->pause (lcores.c):
 * every lcore that forwards one of its directions is woken and waited for
 * until it has passed a poll boundary and seen the pause, so no lcore
 * touches a port while it goes away. Pulling one end takes that guest's
 * carrier only: the other guest keeps its link, and what it sends meets
 * an end that is down (counted as peer-down).
 *
 * Everything here runs in the main thread (housekeeping): xcablectl's
 * down, up and flap requests, the carrier a cable's definition asks for
 * (down =, flap =: when the cable is made, or its definition changes in
 * place), flap schedules and link propagation. Each unplugged end says
 * why (enum xc_pull_why), and only that cause plugs it back: an end an
 * operator took down stays down until an operator brings it up; a flap
 * gives back what it took; propagation gives back what it took.
 *
 * A flap schedule pulls the cable (or one end) at once, plugs it back
 * after its down time, pulls it again after its up time, and so on, for
 * its count of cycles, ending plugged in. Its changes are due at times
 * reckoned from its start (a late housekeeping does not shift the
 * following ones); xc_pull_housekeeping() says when the next one is due,
 * and the main thread comes back then. Any down or up of the cable ends
 * its flapping; so does xcablectl flap CABLE stop. Others read a
 * schedule's state (xcablectl show) under its sequence number.
 *
 * Link propagation: when an end that was up goes away (its VM stopped),
 * the other end is unplugged, so that its guest sees the carrier go as
 * with a real cable; when the first end comes back, the other is plugged
 * again. An end whose far end never came is left alone. An end must stay
 * down for XC_PROP_DEBOUNCE_MS before its far end follows: a guest's
 * driver resets the device as it starts (a link down and up within
 * milliseconds), and that must not take the other guest's carrier; two
 * guests that go together (both VMs stopped) leave both ends as they are.
 * While an end's guest moves to another QEMU (a live migration, mig.h)
 * its device stops for a while on purpose: the cable's carrier is left
 * alone until the move is over, and so are operators' pulls (refused).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "evlog.h"
#include "json.h"
#include "log.h"
#include "logrl.h"
#include "pull.h"

/**
 * xc_pull_why_name() - why an end is unplugged, for people and programs
 * @why:	the reason
 *
 * Return: a static string: "down" (an operator), "flap", "propagation"
 *	   (its far end went away), "no"
 */
const char *xc_pull_why_name(enum xc_pull_why why)
{
	switch (why) {
	case XC_PULL_ADMIN:
		return "down";
	case XC_PULL_FLAP:
		return "flap";
	case XC_PULL_PROPAGATED:
		return "propagation";
	default:
		return "no";
	}
}

/**
 * in_set() - is end @i among the ends @only names?
 * @only:	-1 for both, else 0 or 1
 * @i:		end
 *
 * Return: true if so
 */
static inline bool in_set(int only, int i)
{
	return only < 0 || only == i;
}

/**
 * pluggable() - can the ends @only names be pulled?
 * @c:		cable
 * @only:	-1 for both, else 0 or 1
 *
 * Return: true if so
 */
static bool pluggable(const struct xc_cable *c, int only)
{
	int i;

	for (i = 0; i < 2; i++)
		if (in_set(only, i) && !xc_end_pluggable(&c->end[i]))
			return false;
	return true;
}

/**
 * ev_why() - why a carrier changed, as its event says it
 * @why:	the reason the end was (plugged) or is (unplugged) out
 * @in:		it was plugged in
 *
 * Return: "pulled" or "plugged" (an operator), "flap", "propagated" (its
 *	   far end went, or came back)
 */
static const char *ev_why(enum xc_pull_why why, bool in)
{
	switch (why) {
	case XC_PULL_FLAP:
		return "flap";
	case XC_PULL_PROPAGATED:
		return "propagated";
	default:
		return in ? "plugged" : "pulled";
	}
}

/**
 * set_end() - unplug or plug one end of a paused cable
 * @c:		cable
 * @i:		which end
 * @in:		plug (true) or unplug
 * @why:	the reason it is unplugged (@in false)
 *
 * Return: 0 or -errno
 */
static int set_end(struct xc_cable *c, int i, bool in, enum xc_pull_why why)
{
	enum xc_pull_why was = (enum xc_pull_why)c->pull_why[i];
	int rc = 0;

	if (c->pulled[i] != !in) {
		rc = in ? xc_port_plug(c->end[i].port, c->pool) :
			  xc_port_unplug(c->end[i].port);
		if (rc == 0 || !in)
			xc_ev("carrier", c->name, c->end[i].label,
			      in ? "up" : "down", ev_why(in ? was : why, in),
			      rc ? "the port could not be unplugged cleanly" :
			      NULL);
	}
	if (rc == 0 || !in) {
		c->pulled[i] = !in;
		__atomic_store_n(&c->pull_why[i],
				 (uint8_t)(in ? XC_PULL_NONE : why),
				 __ATOMIC_RELEASE);
	}
	if (!in) {
		c->end[i].was_up = false;
		c->end[i].down_since = 0;
	}
	return rc;
}

/**
 * unpause() - let the lcores at a cable again, but for the receive side
 *	       of its unplugged ends (what they send to such an end meets
 *	       a link down, and is counted peer-down); frames towards a
 *	       moving guest wait on (mig.h)
 * @c:		cable
 */
static void unpause(struct xc_cable *c)
{
	uint32_t holds = __atomic_load_n(&c->paused, __ATOMIC_ACQUIRE) &
			 XC_PAUSED_HOLDS;

	__atomic_store_n(&c->paused, (c->pulled[0] ? XC_PAUSED_RX(0) : 0) |
				     (c->pulled[1] ? XC_PAUSED_RX(1) : 0) |
				     holds, __ATOMIC_RELEASE);
}

/**
 * cable_set() - take ends of a cable out or put them back
 * @env:	lcores and cables
 * @c:		cable
 * @up:		plug (true) or unplug
 * @only:	-1 for both ends, else the one end to change
 * @why:	the reason they are unplugged (@up false)
 *
 * Return: 0 or -errno
 */
static int cable_set(struct xc_pull_env *env, struct xc_cable *c, bool up,
		     int only, enum xc_pull_why why)
{
	int rc = env->pause(env->pause_arg, c), i;

	if (rc) {
		unpause(c);
		return rc;
	}
	for (i = 0; i < 2; i++)
		if (in_set(only, i))
			rc |= set_end(c, i, up, why);
	unpause(c);
	return rc ? -EIO : 0;
}

/**
 * plug_back() - plug in the ends among @only that are out for @why alone
 * @env:	lcores and cables
 * @c:		cable
 * @only:	-1 for both ends, else 0 or 1
 * @why:	the reason
 *
 * Return: 0 or -errno
 */
static int plug_back(struct xc_pull_env *env, struct xc_cable *c, int only,
		     enum xc_pull_why why)
{
	int rc = 0, i;

	for (i = 0; i < 2; i++)
		if (in_set(only, i) && c->pulled[i] && c->pull_why[i] == why)
			rc |= cable_set(env, c, true, i, XC_PULL_NONE);
	return rc ? -EIO : 0;
}

/**
 * flap_write() - begin or end a change of a flap's state (readers retry
 *		  meanwhile)
 * @f:		the flap
 */
static void flap_write(struct xc_flap *f)
{
	__atomic_add_fetch(&f->seq, 1, __ATOMIC_ACQ_REL);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/**
 * xc_flap_read() - a cable's flap schedule as it runs; any thread
 * @c:		cable
 * @f:		filled
 */
void xc_flap_read(const struct xc_cable *c, struct xc_flap *f)
{
	uint32_t s1, s2;

	do {
		s1 = __atomic_load_n(&c->flap.seq, __ATOMIC_ACQUIRE);
		if (s1 & 1) {
			rte_pause();
			continue;
		}
		memcpy(f, &c->flap, sizeof(*f));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&c->flap.seq, __ATOMIC_ACQUIRE);
		if (s1 == s2)
			return;
	} while (1);
}

/**
 * side_of() - the ends @only names, for people
 * @c:		cable
 * @only:	-1 for both, else 0 or 1
 *
 * Return: "both ends" or an end's label
 */
static const char *side_of(const struct xc_cable *c, int only)
{
	return only < 0 ? "both ends" : c->end[only].label;
}

/**
 * flap_stop() - end a cable's flapping, and give back what it holds
 * @env:	lcores and cables
 * @c:		cable
 * @keep:	bit i: leave end i unplugged (an operator takes it down)
 * @how:	for the log: why it ends ("stopped"), NULL to say nothing
 */
static void flap_stop(struct xc_pull_env *env, struct xc_cable *c,
		      uint32_t keep, const char *how)
{
	struct xc_flap *f = &c->flap;
	int i;

	if (!f->on)
		return;
	flap_write(f);
	f->on = false;
	flap_write(f);
	for (i = 0; i < 2; i++)
		if (!(keep >> i & 1))
			plug_back(env, c, i, XC_PULL_FLAP);
	if (how)
		XC_LOG_FROM(c->name, main, INFO,
			    "%s: flapping %s after %u cycle(s)", c->name, how,
			    f->done);
}

/**
 * flap_start() - start a flap schedule: the carrier goes at once
 * @env:	lcores and cables
 * @c:		cable, whose ends the schedule names can be pulled
 * @cfg:	the schedule
 * @now:	TSC
 *
 * Return: 0, or -errno if the first pull failed (the schedule runs on)
 */
static int flap_start(struct xc_pull_env *env, struct xc_cable *c,
		      const struct xc_flap_cfg *cfg, uint64_t now)
{
	struct xc_flap *f = &c->flap;
	char spec[96];

	flap_stop(env, c, 0, NULL);
	flap_write(f);
	f->cfg = *cfg;
	f->on = true;
	f->down = true;
	f->done = 0;
	f->next = now + rte_get_tsc_hz() / 1000 * cfg->down_ms;
	flap_write(f);
	xc_flap_format(cfg, spec, sizeof(spec));
	XC_LOG_FROM(c->name, main, INFO, "%s: flapping %s: %s", c->name,
		    side_of(c, cfg->end), spec);
	return cable_set(env, c, false, cfg->end, XC_PULL_FLAP);
}

/**
 * flap_tick() - carry out a cable's flap schedule: the change due now,
 *		 if one is
 * @env:	lcores and cables
 * @c:		cable
 * @now:	TSC
 *
 * Return: TSC of its next change, UINT64_MAX if none
 */
static uint64_t flap_tick(struct xc_pull_env *env, struct xc_cable *c,
			  uint64_t now)
{
	struct xc_flap *f = &c->flap;
	uint64_t ms_hz = rte_get_tsc_hz() / 1000, next;
	int rc;

	if (!f->on)
		return UINT64_MAX;
	if (now < f->next)
		return f->next;
	flap_write(f);
	f->down = !f->down;
	if (!f->down)
		f->done++;
	if (f->cfg.count && f->done == f->cfg.count)
		f->on = false;
	next = f->next + ms_hz * (f->down ? f->cfg.down_ms : f->cfg.up_ms);
	/* late by a whole period (a stalled main thread): from now on */
	f->next = next > now ? next : now + ms_hz * (f->down ?
			       f->cfg.down_ms : f->cfg.up_ms);
	flap_write(f);
	if (f->down)
		rc = cable_set(env, c, false, f->cfg.end, XC_PULL_FLAP);
	else
		rc = plug_back(env, c, f->cfg.end, XC_PULL_FLAP);
	XC_LOG(main, DEBUG, "%s: flap: carrier %s, %u cycle(s) done%s",
	       c->name, f->down ? "down" : "up", f->done,
	       rc ? " (with errors, see above)" : "");
	if (!f->on)
		XC_LOG(main, INFO, "%s: flapping done: %u cycle(s)", c->name,
		       f->done);
	return f->on ? f->next : UINT64_MAX;
}

/**
 * xc_pull_check() - can a cable's ends do what its definition says of
 *		     its carrier (down =, flap =)? Only a vhost port's end
 *		     can be pulled, and an end is down or flaps, not both
 * @c:		cable, its ends made
 * @cc:		what the definition says
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL with @err naming the end
 */
int xc_pull_check(const struct xc_cable *c, const struct xc_carrier_cfg *cc,
		  char *err, size_t errlen)
{
	uint32_t want = cc->down, flap = 0;
	int i;

	if (cc->flap.down_ms)
		flap = cc->flap.end < 0 ? 3u : 1u << cc->flap.end;
	if (flap & cc->down) {
		snprintf(err, errlen,
			 "cable %s: down and flap on the same end (%s): it cannot be down and flapping",
			 c->name, c->end[__builtin_ctz(flap & cc->down)].label);
		return -EINVAL;
	}
	want |= flap;
	for (i = 0; i < 2; i++)
		if ((want >> i & 1) && !xc_end_pluggable(&c->end[i])) {
			snprintf(err, errlen,
				 "cable %s: %s: the %s end cannot be pulled (only a vhost port's end can)",
				 c->name, cc->down >> i & 1 ? "down" : "flap",
				 c->end[i].label);
			return -EINVAL;
		}
	return 0;
}

/**
 * xc_pull_set_carrier() - give a cable what its definition says of its
 *			   carrier, carried out at the next housekeeping
 *			   (main thread; checked with xc_pull_check())
 * @c:		cable
 * @cc:		what the definition says
 */
void xc_pull_set_carrier(struct xc_cable *c, const struct xc_carrier_cfg *cc)
{
	c->carrier = *cc;
	c->carrier_due = true;
}

/**
 * carrier_apply() - carry out what a cable's definition says of its
 *		     carrier: ends down (or no longer), a flap schedule
 * @env:	lcores and cables
 * @c:		cable
 * @now:	TSC
 */
static void carrier_apply(struct xc_pull_env *env, struct xc_cable *c,
			  uint64_t now)
{
	const struct xc_carrier_cfg *cc = &c->carrier;
	char why[XC_ERR_LEN];
	int i;

	c->carrier_due = false;
	if (xc_pull_check(c, cc, why, sizeof(why))) {
		XC_LOG(main, WARNING, "%s", why);	/* checked before */
		return;
	}
	flap_stop(env, c, cc->down, "ended by the cable's definition");
	for (i = 0; i < 2; i++) {
		bool want = cc->down >> i & 1;

		if (want && c->pull_why[i] != XC_PULL_ADMIN) {
			cable_set(env, c, false, i, XC_PULL_ADMIN);
			XC_LOG(main, INFO, "%s: %s taken down (down = %s)",
			       c->name, c->end[i].label,
			       xc_side_name(cc->down));
		} else if (!want && c->pull_why[i] == XC_PULL_ADMIN) {
			cable_set(env, c, true, i, XC_PULL_NONE);
			XC_LOG(main, INFO, "%s: %s plugged in again (down = %s)",
			       c->name, c->end[i].label,
			       xc_side_name(cc->down));
		}
	}
	if (cc->flap.down_ms)
		flap_start(env, c, &cc->flap, now);
}

/**
 * serve_req() - carry out an operator's request for a cable (down, up,
 *		 flap, flap stop) and answer it
 * @env:	lcores and cables
 * @c:		cable
 * @req:	XC_REQ_*
 * @now:	TSC
 */
static void serve_req(struct xc_pull_env *env, struct xc_cable *c,
		      uint32_t req, uint64_t now)
{
	int only = req == XC_REQ_FLAP ? c->req_flap.end : c->req_end, rc = 0;
	bool up = req == XC_REQ_UP;

	if (req != XC_REQ_FLAP_STOP && !pluggable(c, only)) {
		__atomic_store_n(&c->req_done, -ENOTSUP, __ATOMIC_RELEASE);
		return;
	}
	if (xc_mig_active(&c->mig)) {	/* it would undo the move */
		__atomic_store_n(&c->req_done, -EBUSY, __ATOMIC_RELEASE);
		return;
	}
	switch (req) {
	case XC_REQ_DOWN:
	case XC_REQ_UP:
		flap_stop(env, c, up ? 0 : only < 0 ? 3u : 1u << only,
			  "stopped by xcablectl");
		rc = cable_set(env, c, up, only, XC_PULL_ADMIN);
		/* an operator's, but any client may repeat it: limited
		 * per cable */
		XC_LOG_FROM(c->name, main, INFO, "%s: %s %s%s", c->name,
			    side_of(c, only), up ? "plugged in" : "pulled out",
			    rc ? " (with errors, see above)" : "");
		break;
	case XC_REQ_FLAP:
		rc = flap_start(env, c, &c->req_flap, now);
		break;
	case XC_REQ_FLAP_STOP:
		flap_stop(env, c, 0, "stopped by xcablectl");
		break;
	}
	__atomic_store_n(&c->req_done, rc ? rc : 1, __ATOMIC_RELEASE);
}

/**
 * gone() - has an end that was up stayed down for XC_PROP_DEBOUNCE_MS?
 * @a:		the end, down now
 * @now:	TSC
 * @pending:	set if it went down but not long enough ago
 *
 * Return: true if so
 */
static bool gone(struct xc_end *a, uint64_t now, bool *pending)
{
	if (!a->was_up)
		return false;
	if (a->down_since == 0)
		a->down_since = now;
	if (now - a->down_since >=
	    rte_get_tsc_hz() / 1000 * XC_PROP_DEBOUNCE_MS)
		return true;
	*pending = true;
	return false;
}

/**
 * propagate() - link propagation on one cable: an end gone takes the far
 *		 end's carrier, and gives it back when it comes back
 * @env:	lcores and cables
 * @c:		cable between two pluggable ends
 * @now:	TSC
 * @pending:	set if an end went down and is waited for (see gone())
 */
static void propagate(struct xc_pull_env *env, struct xc_cable *c,
		      uint64_t now, bool *pending)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct xc_end *a = &c->end[i], *b = &c->end[1 - i];
		bool a_up = xc_end_is_up(a);

		if (c->pulled[i])
			continue;
		if (a_up)
			a->down_since = 0;
		/* only a VM's carrier can follow: other ports (a trunk
		 * carries other cables) are never unplugged */
		if (!a_up && a->was_up && !c->pulled[1 - i] &&
		    xc_end_is_up(b)) {
			if (!gone(a, now, pending))
				continue;	/* was_up kept */
			XC_LOG_FROM(c->name, main, INFO,
			       "%s: %s went away: taking %s's carrier down too",
			       c->name, a->label, b->label);
			cable_set(env, c, false, 1 - i, XC_PULL_PROPAGATED);
		} else if (a_up && c->pulled[1 - i] &&
			   c->pull_why[1 - i] == XC_PULL_PROPAGATED) {
			XC_LOG_FROM(c->name, main, INFO,
			       "%s: %s is back: plugging %s in again",
			       c->name, a->label, b->label);
			cable_set(env, c, true, 1 - i, XC_PULL_NONE);
		}
		a->was_up = a_up;
		if (!a_up)
			a->down_since = 0;
	}
}

/**
 * xc_pull_housekeeping() - carry out operators' requests, the carrier of
 *			    cables' definitions, flap schedules and link
 *			    propagation; the main thread calls it regularly
 * @env:	lcores and cables
 *
 * Return: milliseconds until it must be called again: a flap's next
 *	   change, or XC_PROP_LOOK_MS while an end that went down is waited
 *	   for (see gone()); XC_PULL_IDLE if nothing is due
 */
unsigned int xc_pull_housekeeping(struct xc_pull_env *env)
{
	uint64_t now = rte_get_tsc_cycles(), next = UINT64_MAX, ms;
	bool pending = false;
	unsigned int k;

	for (k = 0; k < env->n_cables; k++) {
		struct xc_cable *c = &env->cables[k];
		uint32_t req = __atomic_exchange_n(&c->req, XC_REQ_NONE,
						   __ATOMIC_ACQ_REL);

		if (!xc_cable_shown(c))
			continue;	/* a slot of a cable removed */
		if (req != XC_REQ_NONE)
			serve_req(env, c, req, now);
		if (c->carrier_due)
			carrier_apply(env, c, now);
		next = RTE_MIN(next, flap_tick(env, c, rte_get_tsc_cycles()));
		/* a guest that moves stops its device for a while: its far
		 * end keeps its carrier until the move is over */
		if (env->propagate && pluggable(c, -1) &&
		    !xc_mig_active(&c->mig))
			propagate(env, c, now, &pending);
	}
	if (next == UINT64_MAX)
		return pending ? XC_PROP_LOOK_MS : XC_PULL_IDLE;
	now = rte_get_tsc_cycles();
	ms = next > now ? (next - now) * 1000 / rte_get_tsc_hz() + 1 : 0;
	if (pending)
		ms = RTE_MIN(ms, (uint64_t)XC_PROP_LOOK_MS);
	return (unsigned int)RTE_MIN(ms, (uint64_t)INT_MAX);
}

/**
 * flap_now() - a cable's flap schedule as it is now, for people and
 *		programs
 * @c:		cable
 * @f:		filled (xc_flap_read())
 * @spec:	filled with its schedule (xc_flap_format())
 * @len:	size of @spec
 *
 * Return: milliseconds until its next change (0 if it does not run)
 */
static uint64_t flap_now(const struct xc_cable *c, struct xc_flap *f,
			 char *spec, size_t len)
{
	uint64_t now = rte_get_tsc_cycles();

	xc_flap_read(c, f);
	xc_flap_format(&f->cfg, spec, len);
	if (!f->on || f->next <= now)
		return 0;
	return (f->next - now) * 1000 / rte_get_tsc_hz();
}

/**
 * xc_flap_text() - a cable's flap schedule on one line, for people;
 *		    any thread
 * @c:		cable
 * @buf:	filled; empty if the cable never flapped
 * @len:	size of @buf
 */
void xc_flap_text(const struct xc_cable *c, char *buf, size_t len)
{
	char spec[96], of[24] = "";
	struct xc_flap f;
	uint64_t ms = flap_now(c, &f, spec, sizeof(spec));

	if (f.cfg.count)
		snprintf(of, sizeof(of), " of %u", f.cfg.count);
	if (f.cfg.down_ms == 0)
		buf[0] = '\0';
	else if (f.on)
		snprintf(buf, len, "flap %s %s: cycle %u%s, carrier %s, next change in %" PRIu64 ".%03" PRIu64 " s",
			 side_of(c, f.cfg.end), spec, f.done + 1, of,
			 f.down ? "down" : "up", ms / 1000, ms % 1000);
	else
		snprintf(buf, len, "flap %s %s: %s after %u cycle(s)",
			 side_of(c, f.cfg.end), spec,
			 f.cfg.count && f.done == f.cfg.count ? "done" :
			 "stopped", f.done);
}

/**
 * xc_flap_json() - a cable's flap schedule as a JSON object "flap" (none
 *		    if the cable never flapped); any thread
 * @c:		cable
 * @j:		JSON being written, in the cable's object
 */
void xc_flap_json(const struct xc_cable *c, struct xc_json *j)
{
	char spec[96];
	struct xc_flap f;
	uint64_t ms = flap_now(c, &f, spec, sizeof(spec));

	if (f.cfg.down_ms == 0)
		return;
	xc_json_open(j, "flap", '{');
	xc_json_str(j, "schedule", spec);
	xc_json_str(j, "ends", f.cfg.end < 0 ? "both" :
		    xc_side_name(1u << f.cfg.end));
	xc_json_str(j, "state", f.on ? "running" :
		    f.cfg.count && f.done == f.cfg.count ? "done" :
		    "stopped");
	xc_json_u64(j, "cycles-done", f.done);
	if (f.on) {
		xc_json_str(j, "carrier", f.down ? "down" : "up");
		xc_json_u64(j, "next-change-ms", ms);
	}
	xc_json_close(j, '}');
}
