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
 * configuring and starting it as at start-up. Before that, the cable is
 * paused: every lcore that forwards one of its directions is woken and
 * waited for until it has passed a poll boundary and seen the pause, so
 * no lcore touches a port while it goes away.
 *
 * Everything here runs in the main thread (housekeeping): xcablectl's
 * down/up requests and link propagation are requests it carries out.
 * Link propagation: when an end that was up goes away (its VM stopped),
 * the other end is unplugged, so that its guest sees the carrier go as
 * with a real cable; when the first end comes back, the other is plugged
 * again. An end whose far end never came is left alone.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_pause.h>

#include "log.h"
#include "ports.h"
#include "pull.h"
#include "sockpath.h"

/**
 * pause_cable() - stop every lcore from touching a cable's ports
 * @env:	lcores and cables
 * @c:		cable
 *
 * Return: 0, or -ETIMEDOUT if an lcore did not answer within a second
 */
static int pause_cable(struct xc_pull_env *env, struct xc_cable *c)
{
	unsigned int lcore, k, me = rte_lcore_id();
	uint64_t e0[RTE_MAX_LCORE], end;
	bool owns;

	__atomic_store_n(&c->paused, 1, __ATOMIC_SEQ_CST);
	RTE_LCORE_FOREACH(lcore) {
		struct xc_fwd_lcore *lc = &env->lcores[lcore];

		e0[lcore] = __atomic_load_n(&lc->epoch, __ATOMIC_ACQUIRE);
		if (lc->n_dirs)
			xc_idle_wake(&lc->idle);
	}
	end = rte_get_tsc_cycles() + rte_get_tsc_hz();
	RTE_LCORE_FOREACH(lcore) {
		struct xc_fwd_lcore *lc = &env->lcores[lcore];

		for (k = 0, owns = false; k < lc->n_dirs; k++)
			owns |= lc->dirs[k]->paused == &c->paused;
		/* the main lcore, forwarding too, is between two polls */
		if (!owns || lcore == me)
			continue;
		while (__atomic_load_n(&lc->epoch, __ATOMIC_ACQUIRE) <
		       e0[lcore] + 2) {
			if (rte_get_tsc_cycles() > end)
				return -ETIMEDOUT;
			xc_idle_wake(&lc->idle);
			usleep(100);
		}
	}
	return 0;
}

/**
 * unplug() - hot-unplug one end: its guest sees the carrier go
 * @p:		vhost port, plugged
 *
 * Return: 0, or -errno (the port may then be gone anyway)
 */
static int unplug(struct xc_port *p)
{
	struct rte_eth_dev_info info;
	struct rte_device *dev;
	int rc;

	rc = rte_eth_dev_info_get(p->id, &info);
	if (rc)
		return rc;
	dev = info.device;
	p->unplugging = true;
	xc_port_set_down(p);
	xc_port_close(p);
	rc = rte_dev_remove(dev);
	p->unplugging = false;
	if (rc)
		XC_LOG(main, ERR, "%s: cannot unplug %s: %s", p->label,
		       p->name, rte_strerror(-rc));
	return rc;
}

/**
 * plug() - probe an end again and start it as at start-up
 * @p:		vhost port, unplugged
 * @pool:	mbufs for its Rx queues
 *
 * Return: 0 or -errno
 */
static int plug(struct xc_port *p, struct rte_mempool *pool)
{
	char err[XC_ERR_LEN];
	uint16_t id;
	mode_t old;
	int rc;

	if (p->client == false &&
	    xc_sock_prepare(p->iface, false, err, sizeof(err))) {
		XC_LOG(main, ERR, "%s: cannot plug: %s", p->label, err);
		return -EADDRINUSE;
	}
	rc = rte_dev_probe(p->devargs);
	if (rc == 0)
		rc = rte_eth_dev_get_port_by_name(p->name, &id);
	if (rc) {
		XC_LOG(main, ERR, "%s: cannot plug %s again: %s", p->label,
		       p->devargs, rte_strerror(-rc));
		return rc;
	}
	p->id = id;
	old = umask(0177);
	rc = xc_port_configure(p, pool, err, sizeof(err));
	umask(old);
	if (rc == 0 && p->is_vhost && !p->client)
		rc = xc_sock_secure(p->iface, p->sock_mode, p->sock_uid,
				    p->sock_gid, err, sizeof(err));
	if (rc == 0)
		rc = xc_port_start(p, err, sizeof(err));
	if (rc)
		XC_LOG(main, ERR, "%s: %s", p->label, err);
	return rc;
}

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
	rc = in ? plug(c->end[i], c->pool) : unplug(c->end[i]);
	if (rc == 0 || !in)
		c->pulled[i] = !in;
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
	int rc = pause_cable(env, c), i;

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
 * xc_pull_housekeeping() - carry out operators' down/up requests and link
 *			    propagation; the main thread calls it regularly
 * @env:	lcores and cables
 */
void xc_pull_housekeeping(struct xc_pull_env *env)
{
	unsigned int k;
	int i, rc;

	for (k = 0; k < env->n_cables; k++) {
		struct xc_cable *c = &env->cables[k];
		uint32_t req = __atomic_exchange_n(&c->req, XC_REQ_NONE,
						   __ATOMIC_ACQ_REL);

		if (!c->end[0]->is_vhost || !c->end[1]->is_vhost) {
			if (req != XC_REQ_NONE)
				__atomic_store_n(&c->req_done, -ENOTSUP,
						 __ATOMIC_RELEASE);
			continue;
		}
		if (req == XC_REQ_DOWN || req == XC_REQ_UP) {
			rc = cable_set(env, c, req == XC_REQ_UP, -1);
			c->admin_down = req == XC_REQ_DOWN;
			XC_LOG(main, INFO, "%s: cable %s%s", c->name,
			       req == XC_REQ_UP ? "plugged in" : "pulled out",
			       rc ? " (with errors, see above)" : "");
			__atomic_store_n(&c->req_done, rc ? rc : 1,
					 __ATOMIC_RELEASE);
			continue;
		}
		if (!env->propagate || c->admin_down)
			continue;
		for (i = 0; i < 2; i++) {
			struct xc_port *a = c->end[i], *b = c->end[1 - i];
			bool a_up = __atomic_load_n(&a->link_up,
						    __ATOMIC_ACQUIRE);

			if (c->pulled[i])
				continue;
			/* only a VM's carrier can follow: other ports (a
			 * trunk carries other cables) are never unplugged */
			if (!a_up && a->was_up && !c->pulled[1 - i] &&
			    b->is_vhost &&
			    __atomic_load_n(&b->link_up, __ATOMIC_ACQUIRE)) {
				XC_LOG(main, INFO,
				       "%s: %s went away: taking %s's carrier down too",
				       c->name, a->label, b->label);
				cable_set(env, c, false, 1 - i);
			} else if (a_up && c->pulled[1 - i]) {
				XC_LOG(main, INFO,
				       "%s: %s is back: plugging %s in again",
				       c->name, a->label, b->label);
				cable_set(env, c, true, 1 - i);
			}
			a->was_up = a_up;
		}
	}
}
