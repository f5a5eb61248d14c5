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
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_launch.h>

#include "lcores.h"
#include "log.h"

/* the longest sleep of an idle worker lcore: whoever needs it sooner
 * wakes it (a guest's kick, a delayed frame's timer, the main thread
 * pausing a cable, handing it new directions or stopping); the main
 * lcore sleeps at most one housekeeping period. Every wake of every
 * worker process of a lab costs CPU, so idle workers sleep long */
#define XC_WORKER_SLEEP_MS	10000

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
 * @shared_lc:	the lcore that serves every trunk and tunnel, NULL before
 *		the first
 *
 * Return: the lcore
 */
static struct xc_fwd_lcore *pick(struct xc_lcores *l, const struct xc_topo *t,
				 unsigned int i, unsigned int k,
				 struct xc_fwd_lcore *shared_lc)
{
	unsigned int n = rte_lcore_count() - 1, lcore, w = 0;

	if (on_shared(&t->cables[i]) && shared_lc)
		return shared_lc;
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
 * pool_share() - tell a cable's directions how many lcores take from its
 *		  pool at once (each bounds its bursts by its share, dir.c)
 * @c:		cable, wired
 * @on:		the lcore of each of its directions
 */
static void pool_share(struct xc_cable *c, struct xc_fwd_lcore *const *on)
{
	unsigned int j, k;
	uint16_t n = 0;

	for (j = 0; j < 2 * c->n_queues; j++) {
		for (k = 0; k < j && on[k] != on[j]; k++)
			;
		n += k == j;
	}
	for (j = 0; j < 2 * c->n_queues; j++)
		c->dir[j].rx_share = n;
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
	struct xc_fwd_lcore *shared_lc = NULL, *lc;
	unsigned int lcore, i, j, k = 0;
	int rc;

	for (lcore = 0; lcore < RTE_MAX_LCORE; lcore++) {
		lc = &l->lc[lcore];
		lc->quit = &l->quit;
		lc->adaptive = !poll;
		lc->idle_cycles = rte_get_tsc_hz() / 1000000 * idle_us;
		lc->max_sleep_ms = lcore == rte_get_main_lcore() ?
				   (int)l->hk_ms : XC_WORKER_SLEEP_MS;
		lc->idle.epfd = lc->idle.wakefd = lc->idle.timerfd = -1;
	}
	l->ready = true;
	/* every enabled lcore can sleep: cables added at runtime may go to
	 * one that has none yet */
	RTE_LCORE_FOREACH(lcore) {
		rc = xc_idle_init(&l->lc[lcore].idle);
		if (rc) {
			snprintf(err, errlen, "cannot create epoll/eventfd: %s",
				 strerror(-rc));
			return rc;
		}
	}
	for (i = 0; i < t->n_cables; i++) {
		struct xc_cable *c = &t->cables[i];
		struct xc_fwd_lcore *feeds[2] = { NULL, NULL };
		struct xc_fwd_lcore *on[2 * XC_MAX_QUEUES];

		for (j = 0; j < 2 * c->n_queues; j++, k++) {
			/* the directions feeding a steered end share one lcore:
			 * one thread sends on each of its queues (steer.h) */
			if (j >= 2 && c->end[1 - j % 2].steer != NULL)
				lc = feeds[j % 2];
			else
				lc = pick(l, t, i, k, shared_lc);
			if (j < 2)
				feeds[j] = lc;
			if (on_shared(c))
				shared_lc = lc;
			/* ports without kicks are looked at every ms */
			if (!xc_end_wakes(&c->end[j % 2]))
				lc->max_sleep_ms = 1;
			xc_dir_build(&c->dir[j]);	/* its stages */
			lc->dirs[lc->n_dirs++] = &c->dir[j];
			on[j] = lc;
			if (xc_idle_watch(&lc->idle, &c->dir[j])) {
				snprintf(err, errlen, "too many queues");
				return -ENOSPC;
			}
		}
		pool_share(c, on);
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

	if (!l->ready)
		return;
	RTE_LCORE_FOREACH(lcore)
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

	__atomic_fetch_or(&c->paused, XC_PAUSED_ALL, __ATOMIC_SEQ_CST);
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
 * forwards() - does an lcore run a forwarding loop?
 * @l:		lcores
 * @lcore:	which one
 *
 * Return: true for a worker lcore, or the main one if it forwards
 */
static bool forwards(const struct xc_lcores *l, unsigned int lcore)
{
	return lcore != rte_get_main_lcore() || l->main_fwd;
}

/**
 * xc_lcores_mark() - note where every forwarding lcore is, and wake them:
 *		      xc_lcores_past() then tells when each has passed two
 *		      poll boundaries (what was taken from the directions
 *		      before the mark is in no lcore's hands after; any
 *		      thread)
 * @arg:	struct xc_lcores
 * @mark:	RTE_MAX_LCORE values, filled
 */
void xc_lcores_mark(void *arg, uint64_t *mark)
{
	struct xc_lcores *l = arg;
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore) {
		mark[lcore] = __atomic_load_n(&l->lc[lcore].epoch,
					      __ATOMIC_ACQUIRE);
		if (forwards(l, lcore))
			xc_idle_wake(&l->lc[lcore].idle);
	}
}

/**
 * xc_lcores_past() - has every forwarding lcore passed two poll boundaries
 *		      since a mark? Those that have not are woken again
 *		      (any thread; once they stopped, nothing is in their
 *		      hands either: xcable's stop frees what waits)
 * @arg:	struct xc_lcores
 * @mark:	what xc_lcores_mark() noted
 *
 * Return: true if so
 */
bool xc_lcores_past(void *arg, const uint64_t *mark)
{
	struct xc_lcores *l = arg;
	unsigned int lcore;
	bool past = true;

	RTE_LCORE_FOREACH(lcore) {
		if (!forwards(l, lcore) ||
		    __atomic_load_n(&l->lc[lcore].epoch, __ATOMIC_ACQUIRE) >=
		    mark[lcore] + 2)
			continue;
		past = false;
		xc_idle_wake(&l->lc[lcore].idle);
	}
	return past;
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
	/* ports made at runtime too (endkind.h: their kind's start) */
	t->notify_arg = l;
	t->notify = xc_lcores_wake;
	pull->pause = xc_lcores_pause;
	pull->pause_arg = l;
	m->hk = l->hk;
	m->hk_arg = l->hk_arg;
	m->hk_period = rte_get_tsc_hz() / 1000 * l->hk_ms;
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		if (&l->lc[i] == m)
			continue;
		l->lc[i].hk_want = &l->hk_want;
		l->lc[i].hk_wake = &m->idle;
	}
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

	/* every worker, even without directions: cables added at runtime
	 * may go to it */
	RTE_LCORE_FOREACH_WORKER(lcore)
		rte_eal_remote_launch(xc_fwd_loop, &l->lc[lcore], lcore);
	l->main_fwd = l->lc[main_id].n_dirs || rte_lcore_count() == 1;
	if (l->main_fwd) {
		xc_fwd_loop(&l->lc[main_id]);
	} else {
		if (xc_idle_watch_fd(&l->lc[main_id].idle, l->hk_fd))
			XC_LOG(main, WARNING, "cannot wait on the guards' decoys: second frontends are turned away at the next housekeeping");
		/* keep house when the housekeeping asks to: often while
		 * anything is going on, seldom when nothing is. Whatever
		 * needs the main thread sooner wakes it: a request
		 * (xcablectl, a reload), a signal, a link or queue event, a
		 * second frontend on a decoy, a worker lcore whose traffic
		 * may need more mbufs */
		while (!l->quit) {
			unsigned int ms = l->hk(l->hk_arg);

			/* hk_want is cleared only before a long sleep: while
			 * the main thread keeps house often, a worker's busy
			 * rounds find it set and do not wake it again */
			if (ms > l->hk_ms &&
			    __atomic_exchange_n(&l->hk_want, 0,
						__ATOMIC_ACQ_REL))
				ms = l->hk_ms;
			if (!l->quit)
				xc_idle_wait(&l->lc[main_id].idle, (int)ms, 0);
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

	for (i = 0; l->ready && i < RTE_MAX_LCORE; i++)
		xc_idle_fini(&l->lc[i].idle);
}

#define XC_LCORE_ANSWER_S	1	/* an lcore takes a new list within */
#define XC_LCORE_STALL_S	10	/* ... or is waited for, said, up to */

/**
 * publish() - have an lcore take over the list of directions in its
 *	       @next: the lcore itself does at its next poll boundary
 *	       (xc_fwd_adopt()); wait for it (main thread). An lcore that
 *	       takes longer than XC_LCORE_ANSWER_S (its thread not run by a
 *	       busy host) is waited for, with a warning, up to
 *	       XC_LCORE_STALL_S: once published, the list is the one it
 *	       takes whenever it runs again, so the caller must know it did
 * @l:		lcores
 * @lcore:	which one
 *
 * Return: 0, or -ETIMEDOUT if it did not within XC_LCORE_STALL_S (it may
 *	   take the list later: what it had must not be freed)
 */
static int publish(struct xc_lcores *l, unsigned int lcore)
{
	struct xc_fwd_lcore *lc = &l->lc[lcore];
	uint32_t gen = __atomic_add_fetch(&lc->gen, 1, __ATOMIC_RELEASE);
	uint64_t hz = rte_get_tsc_hz(), t0 = rte_get_tsc_cycles(), now;
	bool said = false;

	/* the main lcore forwarding too is between two polls here */
	if (lcore == rte_lcore_id()) {
		xc_fwd_adopt(lc);
		return 0;
	}
	while (__atomic_load_n(&lc->seen, __ATOMIC_ACQUIRE) != gen) {
		now = rte_get_tsc_cycles();
		if (!said && now - t0 > XC_LCORE_ANSWER_S * hz) {
			XC_LOG(main, WARNING, "lcore %u has not taken over its new directions for %d s: waiting for it (up to %d s)",
			       lcore, XC_LCORE_ANSWER_S, XC_LCORE_STALL_S);
			said = true;
		}
		if (now - t0 > XC_LCORE_STALL_S * hz) {
			XC_LOG(main, ERR, "lcore %u did not take over its new directions in %d s",
			       lcore, XC_LCORE_STALL_S);
			return -ETIMEDOUT;
		}
		xc_idle_wake(&lc->idle);
		usleep(100);
	}
	if (said)
		XC_LOG(main, WARNING, "lcore %u took over its new directions after %.1f s",
		       lcore, (double)(rte_get_tsc_cycles() - t0) / (double)hz);
	return 0;
}

/**
 * settled() - has every lcore taken over what was last published?
 * @l:		lcores
 *
 * Return: true if so (a new list may be written)
 */
static bool settled(struct xc_lcores *l)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH(lcore)
		if (__atomic_load_n(&l->lc[lcore].seen, __ATOMIC_ACQUIRE) !=
		    __atomic_load_n(&l->lc[lcore].gen, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/**
 * shared_lcore() - the lcore that serves the cables with an end on a
 *		    trunk or a tunnel (it alone receives from their port or
 *		    socket), if one does
 * @l:		lcores
 *
 * Return: its id, or RTE_MAX_LCORE if none does
 */
static unsigned int shared_lcore(const struct xc_lcores *l)
{
	unsigned int lcore, k;

	RTE_LCORE_FOREACH(lcore)
		for (k = 0; k < l->lc[lcore].n_dirs; k++)
			if (on_shared(l->lc[lcore].dirs[k]->rx->cable))
				return lcore;
	return RTE_MAX_LCORE;
}

/**
 * xc_lcores_add_cable() - give a cable added at runtime to an lcore: the
 *			   one that serves the trunks and tunnels if it has
 *			   such an end, else the one its definition names,
 *			   else the forwarding lcore with the fewest
 *			   directions (main thread)
 * @l:		lcores, running
 * @c:		cable with its directions, ports started
 * @want:	lcore the definition names, -1 to choose
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (that lcore does not forward, or another serves the
 *	   trunks and tunnels), -EBUSY, -ENOSPC, or -ETIMEDOUT (the lcore
 *	   may still take the cable: it must not be freed)
 */
int xc_lcores_add_cable(struct xc_lcores *l, struct xc_cable *c, int want,
			char *err, size_t errlen)
{
	unsigned int lcore, best = RTE_MAX_LCORE, j;
	struct xc_fwd_lcore *lc;

	if (on_shared(c))
		best = shared_lcore(l);
	if (best != RTE_MAX_LCORE && want >= 0 && (unsigned int)want != best) {
		snprintf(err, errlen, "%s: lcore %u serves every cable with an end shared with other cables (%s), not lcore %d",
			 c->name, best, c->end[c->end[0].ops->shared ? 0 : 1].ops->kind,
			 want);
		return -EINVAL;
	}
	RTE_LCORE_FOREACH(lcore) {
		if (best != RTE_MAX_LCORE && on_shared(c))
			break;
		if (lcore == rte_get_main_lcore() && !l->main_fwd)
			continue;
		if (want >= 0 ? (int)lcore == want :
		    best == RTE_MAX_LCORE || l->lc[lcore].n_dirs <
					     l->lc[best].n_dirs)
			best = lcore;
	}
	if (best == RTE_MAX_LCORE) {
		snprintf(err, errlen, "%s: lcore %d does not forward (EAL -l, or the main lcore)",
			 c->name, want);
		return -EINVAL;
	}
	lc = &l->lc[best];
	if (!settled(l) || lc->n_dirs + 2 * c->n_queues > XC_MAX_DIRS_PER_LCORE) {
		snprintf(err, errlen, "%s: lcore %u %s", c->name, best,
			 settled(l) ? "has too many directions" : "is busy");
		return settled(l) ? -ENOSPC : -EBUSY;
	}
	memcpy(lc->next, lc->dirs, lc->n_dirs * sizeof(lc->dirs[0]));
	lc->n_next = lc->n_dirs;
	for (j = 0; j < 2 * c->n_queues; j++) {
		xc_dir_build(&c->dir[j]);	/* its stages */
		lc->next[lc->n_next++] = &c->dir[j];
		/* ends without kicks are looked at every ms */
		if (!xc_end_wakes(&c->end[j % 2]))
			lc->max_sleep_ms = 1;
	}
	if (publish(l, best)) {
		/* it may take the list over later: the cable must stay */
		snprintf(err, errlen, "%s: lcore %u does not answer", c->name,
			 best);
		return -ETIMEDOUT;
	}
	return 0;
}

/**
 * xc_lcores_del_cable() - take a cable's directions from every lcore
 *			   that has one, and wait until none touches them
 *			   (main thread)
 * @l:		lcores, running
 * @c:		cable
 *
 * Return: 0, -EBUSY or -ETIMEDOUT (the cable must then not be freed)
 */
int xc_lcores_del_cable(struct xc_lcores *l, const struct xc_cable *c)
{
	unsigned int lcore, k;
	int rc = 0;

	if (!settled(l))
		return -EBUSY;
	RTE_LCORE_FOREACH(lcore) {
		struct xc_fwd_lcore *lc = &l->lc[lcore];

		lc->n_next = 0;
		for (k = 0; k < lc->n_dirs; k++)
			if (lc->dirs[k]->rx->cable != c)
				lc->next[lc->n_next++] = lc->dirs[k];
		if (lc->n_next != lc->n_dirs && publish(l, lcore))
			rc = -ETIMEDOUT;
	}
	return rc;
}

/**
 * xc_lcores_report() - at exit: how often each forwarding lcore slept
 * @l:		lcores, stopped
 */
void xc_lcores_report(const struct xc_lcores *l)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (l->lc[i].n_dirs)
			printf("xcable: lcore %u slept %" PRIu64 " times\n", i,
			       l->lc[i].idle.sleeps);
	fflush(stdout);
}
