/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lcores.c - which lcore forwards which direction, and running them
 *
 * Placement: a cable's directions go to the lcore its definition names,
 * else they are spread over the worker lcores; every cable on a trunk or a
 * tunnel goes to one lcore (it alone receives from the trunk's port and
 * the tunnel socket, so that no frame crosses lcores); with no worker
 * the main lcore forwards too, between its housekeeping rounds.
 *
 * Wiring, a separate step once placement is done: ports wake the lcores
 * when their link or queues change, and pulling a cable pauses the lcores
 * that forward it (xc_lcores_pause(), given to pull.c as a callback so
 * that pulling knows nothing of the loop).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>

#include "lcores.h"
#include "log.h"

/* on_shared() - has a cable an end on a trunk or a tunnel? */
static bool on_shared(const struct xc_cable *c)
{
	return c->end[0].ops->shared || c->end[1].ops->shared;
}

/**
 * pick() - the lcore for one direction of a cable
 * @l:		lcores
 * @t:		topology
 * @i:		cable index
 * @k:		directions placed so far
 * @trunk_lc:	the lcore that serves every trunk and tunnel, NULL before
 *		the first
 *
 * Return: the lcore
 */
static struct xc_fwd_lcore *pick(struct xc_lcores *l, const struct xc_topo *t,
				 unsigned int i, unsigned int k,
				 struct xc_fwd_lcore *trunk_lc)
{
	unsigned int n = rte_lcore_count() - 1, lcore, w = 0;

	if (on_shared(&t->cables[i]) && trunk_lc)
		return trunk_lc;
	if (t->n_defs && t->defs[i].lcore >= 0)
		return &l->lc[t->defs[i].lcore];	/* checked at build */
	if (n == 0)
		return &l->lc[rte_get_main_lcore()];
	RTE_LCORE_FOREACH_WORKER(lcore)
		if (w++ == k % n)
			break;
	return &l->lc[lcore];
}

/**
 * xc_lcores_assign() - place every cable direction on an lcore
 * @l:		lcores, zeroed
 * @t:		topology, started
 * @poll:	busy-poll (--poll) instead of sleeping when idle
 * @idle_us:	microseconds without work before sleeping
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno if an lcore cannot sleep (no epoll, eventfd)
 */
int xc_lcores_assign(struct xc_lcores *l, struct xc_topo *t, bool poll,
		     unsigned int idle_us, char *err, size_t errlen)
{
	struct xc_fwd_lcore *trunk_lc = NULL, *lc;
	unsigned int lcore, i, j, k = 0;
	int rc;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		lc = &l->lc[lcore];
		lc->quit = &l->quit;
		lc->adaptive = !poll;
		lc->idle_cycles = rte_get_tsc_hz() / 1000000 * idle_us;
		lc->max_sleep_ms = (int)l->hk_ms;
		lc->idle.epfd = lc->idle.wakefd = lc->idle.timerfd = -1;
	}
	for (i = 0; i < t->n_cables; i++) {
		struct xc_cable *c = &t->cables[i];
		struct xc_fwd_lcore *feeds[2] = { NULL, NULL };

		for (j = 0; j < 2 * c->n_queues; j++, k++) {
			/* the directions feeding a steered end share one lcore:
			 * one thread sends on each of its queues (steer.h) */
			if (j >= 2 && c->end[1 - j % 2].steer != NULL)
				lc = feeds[j % 2];
			else
				lc = pick(l, t, i, k, trunk_lc);
			if (j < 2)
				feeds[j] = lc;
			if (lc->n_dirs == 0 && (rc = xc_idle_init(&lc->idle))) {
				snprintf(err, errlen,
					 "cannot create epoll/eventfd: %s",
					 strerror(-rc));
				return rc;
			}
			if (on_shared(c))
				trunk_lc = lc;
			/* ports without kicks are looked at every ms */
			if (!xc_end_wakes(&c->end[j % 2]))
				lc->max_sleep_ms = 1;
			xc_dir_build(&c->dir[j]);	/* its stages */
			lc->dirs[lc->n_dirs++] = &c->dir[j];
			if (xc_idle_watch(&lc->idle, &c->dir[j])) {
				snprintf(err, errlen, "too many queues");
				return -ENOSPC;
			}
		}
	}
	return 0;
}

/**
 * xc_lcores_wake() - cut every forwarding lcore's sleep short; from any
 *		      thread (a port's notify callback, the signal path)
 * @arg:	struct xc_lcores
 */
void xc_lcores_wake(void *arg)
{
	struct xc_lcores *l = arg;
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
		if (l->lc[lcore].n_dirs)
			xc_idle_wake(&l->lc[lcore].idle);
}

/**
 * xc_lcores_pause() - stop every lcore from touching a cable's ports: set
 *		       its pause flag, wake the lcores that forward it and
 *		       wait until each has passed a poll boundary (main
 *		       thread)
 * @arg:	struct xc_lcores
 * @c:		cable
 *
 * Return: 0, or -ETIMEDOUT if an lcore did not answer within a second
 */
static int xc_lcores_pause(void *arg, struct xc_cable *c)
{
	struct xc_lcores *l = arg;
	unsigned int lcore, k, me = rte_lcore_id();
	uint64_t e0[RTE_MAX_LCORE], end;
	bool owns;

	__atomic_store_n(&c->paused, 1, __ATOMIC_SEQ_CST);
	RTE_LCORE_FOREACH(lcore) {
		struct xc_fwd_lcore *lc = &l->lc[lcore];

		e0[lcore] = __atomic_load_n(&lc->epoch, __ATOMIC_ACQUIRE);
		if (lc->n_dirs)
			xc_idle_wake(&lc->idle);
	}
	end = rte_get_tsc_cycles() + rte_get_tsc_hz();
	RTE_LCORE_FOREACH(lcore) {
		struct xc_fwd_lcore *lc = &l->lc[lcore];

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
 * xc_lcores_wire() - connect what placement decided to the rest: ports
 *		      wake the lcores on a link or queue change, pulling a
 *		      cable pauses them, the main lcore keeps house
 * @l:		lcores, assigned, with @hk set
 * @t:		topology
 * @pull:	cable pulling, whose pause callback is set
 */
void xc_lcores_wire(struct xc_lcores *l, struct xc_topo *t,
		    struct xc_pull_env *pull)
{
	struct xc_fwd_lcore *m = &l->lc[rte_get_main_lcore()];
	unsigned int i;

	for (i = 0; i < t->n_ports; i++) {
		t->ports[i].notify_arg = l;
		__atomic_store_n(&t->ports[i].notify, xc_lcores_wake,
				 __ATOMIC_RELEASE);
	}
	pull->pause = xc_lcores_pause;
	pull->pause_arg = l;
	m->hk = l->hk;
	m->hk_arg = l->hk_arg;
	m->hk_period = rte_get_tsc_hz() / 1000 * l->hk_ms;
}

/**
 * xc_lcores_run() - launch the forwarding lcores and keep house on the
 *		     main one (forwarding too if it has directions) until
 *		     @quit; then wait for them all
 * @l:		lcores, wired
 */
void xc_lcores_run(struct xc_lcores *l)
{
	unsigned int main_id = rte_get_main_lcore(), lcore;

	RTE_LCORE_FOREACH_WORKER(lcore)
		if (l->lc[lcore].n_dirs)
			rte_eal_remote_launch(xc_fwd_loop, &l->lc[lcore], lcore);
	if (l->lc[main_id].n_dirs) {
		xc_fwd_loop(&l->lc[main_id]);
	} else {
		while (!l->quit) {
			l->hk(l->hk_arg);
			usleep(l->hk_ms * 1000);
		}
	}
	xc_lcores_wake(l);
	rte_eal_mp_wait_lcore();
}

/**
 * xc_lcores_fini() - close the lcores' sleeping state
 * @l:		lcores, stopped
 */
void xc_lcores_fini(struct xc_lcores *l)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (l->lc[i].n_dirs)
			xc_idle_fini(&l->lc[i].idle);
}
