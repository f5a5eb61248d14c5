/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pull.c - pulling a cable out and plugging it back in; the carrier
 *	    following the far end
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
 * touches a port while it goes away.
 *
 * Everything here runs in the main thread (housekeeping): xcablectl's
 * down/up requests and link propagation are requests it carries out.
 * Link propagation: when an end that was up goes away (its VM stopped),
 * the other end is unplugged, so that its guest sees the carrier go as
 * with a real cable; when the first end comes back, the other is plugged
 * again. An end whose far end never came is left alone. An end must stay
 * down for XC_PROP_DEBOUNCE_MS before its far end follows: a guest's
 * driver resets the device as it starts (a link down and up within
 * milliseconds), and that must not take the other guest's carrier; two
 * guests that go together (both VMs stopped) leave both ends as they are.
 */
#include <errno.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "log.h"
#include "logrl.h"
#include "pull.h"

/**
 * set_end() - unplug or plug one end of a paused cable
 * @c:		cable
 * @i:		which end
 * @in:		plug (true) or unplug
 *
 * Return: 0 or -errno
 */
static int set_end(struct xc_cable *c, int i, bool in)
{
	int rc;

	if (c->pulled[i] == !in)
		return 0;
	rc = in ? xc_port_plug(c->end[i].port, c->pool) :
		  xc_port_unplug(c->end[i].port);
	if (rc == 0 || !in)
		c->pulled[i] = !in;
	if (!in) {
		c->end[i].was_up = false;
		c->end[i].down_since = 0;
	}
	return rc;
}

/**
 * cable_set() - take both ends of a cable out or put them back
 * @env:	lcores and cables
 * @c:		cable
 * @up:		plug (true) or unplug
 * @only:	-1 for both ends, else the one end to change
 *
 * Return: 0 or -errno
 */
static int cable_set(struct xc_pull_env *env, struct xc_cable *c, bool up,
		     int only)
{
	int rc = env->pause(env->pause_arg, c), i;

	if (rc) {
		__atomic_store_n(&c->paused, 0, __ATOMIC_RELEASE);
		return rc;
	}
	for (i = 0; i < 2; i++)
		if (only < 0 || only == i)
			rc |= set_end(c, i, up);
	if (!c->pulled[0] && !c->pulled[1])
		__atomic_store_n(&c->paused, 0, __ATOMIC_RELEASE);
	return rc ? -EIO : 0;
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
 * xc_pull_housekeeping() - carry out operators' down/up requests and link
 *			    propagation; the main thread calls it regularly
 * @env:	lcores and cables
 *
 * Return: true if an end went down and is waited for (see gone()): the
 *	   caller should look again soon
 */
bool xc_pull_housekeeping(struct xc_pull_env *env)
{
	uint64_t now = rte_get_tsc_cycles();
	bool pending = false;
	unsigned int k;
	int i, rc;

	for (k = 0; k < env->n_cables; k++) {
		struct xc_cable *c = &env->cables[k];
		uint32_t req = __atomic_exchange_n(&c->req, XC_REQ_NONE,
						   __ATOMIC_ACQ_REL);

		if (!xc_cable_shown(c))
			continue;	/* a slot of a cable removed */

		if (!xc_end_pluggable(&c->end[0]) ||
		    !xc_end_pluggable(&c->end[1])) {
			if (req != XC_REQ_NONE)
				__atomic_store_n(&c->req_done, -ENOTSUP,
						 __ATOMIC_RELEASE);
			continue;
		}
		if (req == XC_REQ_DOWN || req == XC_REQ_UP) {
			rc = cable_set(env, c, req == XC_REQ_UP, -1);
			c->admin_down = req == XC_REQ_DOWN;
			/* an operator's, but any client may repeat it: limited
			 * per cable */
			XC_LOG_FROM(c->name, main, INFO, "%s: cable %s%s",
				    c->name, req == XC_REQ_UP ? "plugged in" :
				    "pulled out",
				    rc ? " (with errors, see above)" : "");
			__atomic_store_n(&c->req_done, rc ? rc : 1,
					 __ATOMIC_RELEASE);
			continue;
		}
		if (!env->propagate || c->admin_down)
			continue;
		for (i = 0; i < 2; i++) {
			struct xc_end *a = &c->end[i], *b = &c->end[1 - i];
			bool a_up = xc_end_is_up(a);

			if (c->pulled[i])
				continue;
			if (a_up)
				a->down_since = 0;
			/* only a VM's carrier can follow: other ports (a
			 * trunk carries other cables) are never unplugged */
			if (!a_up && a->was_up && !c->pulled[1 - i] &&
			    xc_end_is_up(b)) {
				if (!gone(a, now, &pending))
					continue;	/* was_up kept */
				XC_LOG_FROM(c->name, main, INFO,
				       "%s: %s went away: taking %s's carrier down too",
				       c->name, a->label, b->label);
				cable_set(env, c, false, 1 - i);
			} else if (a_up && c->pulled[1 - i]) {
				XC_LOG_FROM(c->name, main, INFO,
				       "%s: %s is back: plugging %s in again",
				       c->name, a->label, b->label);
				cable_set(env, c, true, 1 - i);
			}
			a->was_up = a_up;
			if (!a_up)
				a->down_since = 0;
		}
	}
	return pending;
}
