/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fwd.c - the forwarding loop of an lcore: its directions, round robin,
 *	   and its sleep when they are idle
 *
 * Theory of operation: each lcore owns a set of cable directions and visits
 * them round robin, one burst each per round (xc_dir_poll(), dir.c), so no
 * direction can starve another. The main thread publishes a new list of
 * directions when cables come and go; the lcore adopts it at a poll
 * boundary (xc_fwd_adopt()).
 *
 * With adaptive polling (the default) an lcore that has had no work for
 * --idle-us sleeps until a guest kicks (see idle.c): a new frame, or, for a
 * direction whose peer is not draining, new receive buffers; at most until
 * the next delayed frame of an impairment is due. It keeps polling instead
 * while a port of its asks for it (busy_until()): a vIOMMU guest's rings
 * stall on each IOTLB miss and go on when QEMU's answer comes, without a
 * kick, and a strict guest misses at every frame it maps, so a sleep and
 * a wake-up per miss, and the guest's kicks that come with sleeping, cost
 * such a guest a good part of its throughput.
 *
 * An lcore keeps a few free mbufs of each pool it uses in a cache of its
 * own (mbstack.c), which counts as in use until it gives them back: all
 * of them before it sleeps and when it lets directions go, and every
 * XC_MBSTACK_SWEEP_MS those of the pools it stopped using.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#include "fwd.h"
#include "log.h"
#include "mbstack.h"

/* a receiver that never takes its frames is looked at this often even
 * without a kick (a guest driver may refill without notifying) */
#define XC_BLOCKED_SLEEP_MS	1

RTE_LOG_REGISTER(xc_logtype_fwd, xcable.fwd, INFO);

/**
 * queued() - after a round without work: do frames wait in the own queue
 *	      of a shared end (a trunk member's, a tunnel's)? A receive later
 *	      in the round may have sorted them there after that end's
 *	      direction was polled; the socket or port they came from is
 *	      drained now, so only another round takes them (not while a
 *	      direction is held back, its cable or its receiving end is
 *	      pulled, or the guest it sends to moves: it takes nothing
 *	      then)
 * @lc:		the lcore
 *
 * Return: 1 if so, else 0
 */
static unsigned int queued(const struct xc_fwd_lcore *lc)
{
	unsigned int i;

	for (i = 0; i < lc->n_dirs; i++) {
		const struct xc_dir *d = lc->dirs[i];

		if (d->rx->ops->queued != NULL &&
		    (d->hold_n | d->raw_n) == 0 &&
		    !(d->paused &&
		      (__atomic_load_n(d->paused, __ATOMIC_ACQUIRE) &
		       (XC_PAUSED_ALL | XC_PAUSED_RX(d->rx->idx) |
			XC_PAUSED_HOLD(d->tx->idx)))) &&
		    d->rx->ops->queued(d->rx))
			return 1;
	}
	return 0;
}

/**
 * want_hk() - a worker lcore's traffic may need the main thread's
 *	       housekeeping soon (its pools to grow): wake the main thread
 *	       if it does not know yet (one write when it is about to sleep
 *	       long; it leaves the flag set while it keeps house often)
 * @lc:		the lcore; nothing to do on the main lcore
 */
static inline void want_hk(struct xc_fwd_lcore *lc)
{
	if (lc->hk_want == NULL ||
	    __atomic_load_n(lc->hk_want, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(lc->hk_want, 1, __ATOMIC_RELEASE);
	xc_idle_wake(lc->hk_wake);
}

/**
 * poll_all() - one round over every direction of an lcore
 * @lc:		lcore
 * @blocked:	set if a direction still holds frames its peer did not take,
 *		or frames that wait for mbufs
 * @due:	set to the TSC at which the first delayed frame is due,
 *		UINT64_MAX if none
 *
 * Return: frames moved or dropped in the round; without any, 1 if frames
 *	   wait in a shared end's queue (queued())
 */
static unsigned int poll_all(struct xc_fwd_lcore *lc, bool *blocked,
			     uint64_t *due)
{
	unsigned int i, work = 0;

	*blocked = false;
	*due = UINT64_MAX;
	for (i = 0; i < lc->n_dirs; i++) {
		struct xc_dir *d = lc->dirs[i];
		struct xc_impair *im = &d->im;
		unsigned int w = xc_dir_poll(d);

		work += w;
		/* raw frames left: waiting for mbufs to segment into; or
		 * a guest's frames left in its ring for want of mbufs */
		*blocked |= (d->hold_n | d->raw_n) != 0 || d->starved;
		/* held back, it did not receive: its socket or port is read
		 * all the same, so that it does not stay readable */
		if (unlikely(d->hold_n && d->rx->ops->drain))
			d->rx->ops->drain(d->rx);
		/* traffic that may soon need the pool to grow */
		if (unlikely(w >= XC_BURST || d->raw_n || d->starved))
			want_hk(lc);
		if (unlikely(xc_impair_pending(im)))
			*due = RTE_MIN(*due, im->rel[im->head]);
	}
	return work ? work : queued(lc);
}

/**
 * due_ns() - nanoseconds until a delayed frame is due
 * @due:	its TSC, UINT64_MAX if none
 * @now:	TSC now
 *
 * Return: 0 if none, else at least 1
 */
static uint64_t due_ns(uint64_t due, uint64_t now)
{
	if (due == UINT64_MAX)
		return 0;
	if (due <= now)
		return 1;
	return RTE_MAX((due - now) * 1000000000 / rte_get_tsc_hz(), 1ULL);
}

/**
 * busy_until() - until when does a port of the lcore's directions want it
 *		  to poll (struct xc_port's @busy_until)?
 * @lc:		the lcore
 *
 * Return: the latest such TSC time still to come, or 0 if none
 */
static uint64_t busy_until(const struct xc_fwd_lcore *lc)
{
	uint64_t until = 0, t, now;
	unsigned int i;

	/* the clock before the windows: a window this lcore sees over was
	 * over before its port's next IOTLB message, which then wakes it
	 * (port_vhost.c: iotlb_post()) */
	now = rte_rdtsc_precise();
	rte_mb();

	for (i = 0; i < lc->n_dirs; i++) {
		const struct xc_end *e[2] = { lc->dirs[i]->rx, lc->dirs[i]->tx };
		unsigned int k;

		for (k = 0; k < 2; k++) {
			if (e[k]->port == NULL)
				continue;
			t = __atomic_load_n(&e[k]->port->busy_until,
					    __ATOMIC_SEQ_CST);
			if (t > now && t > until)
				until = t;
		}
	}
	return until;
}

/**
 * listed() - is a direction in a list?
 * @d:		direction
 * @list:	the list
 * @n:		its length
 *
 * Return: true if so
 */
static bool listed(const struct xc_dir *d, struct xc_dir *const *list,
		   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == d)
			return true;
	return false;
}

/**
 * xc_fwd_adopt() - take over the directions the main thread published in
 *		    @next, at a poll boundary: stop watching the kicks of
 *		    those dropped, watch those added, then say so in @seen
 *		    (the lcore itself, or the main thread for the main lcore
 *		    between two polls)
 * @lc:		lcore
 */
void xc_fwd_adopt(struct xc_fwd_lcore *lc)
{
	uint32_t gen = __atomic_load_n(&lc->gen, __ATOMIC_ACQUIRE);
	bool dropped = false;
	unsigned int i;

	for (i = 0; i < lc->n_dirs; i++)
		if (!listed(lc->dirs[i], lc->next, lc->n_next)) {
			xc_idle_unwatch(&lc->idle, lc->dirs[i]);
			dropped = true;
		}
	/* a dropped direction's cable may go as soon as @seen says so:
	 * what this lcore keeps of its pools goes back first, so that they
	 * are freed at once, not retired until a sweep (mbstack.c) */
	if (dropped)
		xc_mbstack_sweep(true);
	for (i = 0; i < lc->n_next; i++)
		if (!listed(lc->next[i], lc->dirs, lc->n_dirs) &&
		    xc_idle_watch(&lc->idle, lc->next[i]))
			XC_LOG(fwd, ERR, "%s: kicks not watched (too many)",
			       lc->next[i]->label);
	memcpy(lc->dirs, lc->next, lc->n_next * sizeof(lc->dirs[0]));
	lc->n_dirs = lc->n_next;
	__atomic_store_n(&lc->seen, gen, __ATOMIC_RELEASE);
}

/**
 * xc_fwd_loop() - lcore entry: poll the lcore's directions until told to
 *		   quit, sleeping on the guests' kicks when idle (adaptive)
 * @arg:	struct xc_fwd_lcore
 *
 * Return: 0
 */
int xc_fwd_loop(void *arg)
{
	struct xc_fwd_lcore *lc = arg;
	uint64_t now = rte_rdtsc(), next_hk = now + lc->hk_period;
	uint64_t last_work = now, due, busy = 0;
	uint64_t sweep = rte_get_tsc_hz() / 1000 * XC_MBSTACK_SWEEP_MS;
	uint64_t next_sweep = now + sweep;
	unsigned int work;
	bool blocked, woken;

	/* short sleeps must not be stretched by 50 us of timer slack */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	if (xc_mbstack_attach())
		XC_LOG(fwd, WARNING, "lcore %u: no mbuf caches: every mbuf freed takes a lock",
		       rte_lcore_id());
	XC_LOG(fwd, INFO, "lcore %u forwards %u direction(s)%s, %s",
	       rte_lcore_id(), lc->n_dirs, lc->hk ? " and keeps house" : "",
	       lc->adaptive ? "sleeping when idle" : "busy polling");
	while (!*lc->quit) {
		__atomic_add_fetch(&lc->epoch, 1, __ATOMIC_RELEASE);
		if (unlikely(__atomic_load_n(&lc->gen, __ATOMIC_ACQUIRE) !=
			     lc->seen))
			xc_fwd_adopt(lc);
		work = poll_all(lc, &blocked, &due);
		now = rte_rdtsc();
		if (lc->hk && now >= next_hk) {
			/* every period, or sooner if it asks (a flap) */
			uint64_t ms = lc->hk(lc->hk_arg);

			next_hk = rte_rdtsc() + RTE_MIN(lc->hk_period,
					ms * (rte_get_tsc_hz() / 1000));
		}
		if (unlikely(now >= next_sweep)) {
			/* the caches of pools no longer used go back */
			xc_mbstack_sweep(false);
			next_sweep = now + sweep;
		}
		if (work) {
			last_work = now;
			continue;
		}
		/* an lcore without directions (yet) sleeps even with --poll */
		if (!lc->adaptive && lc->n_dirs) {
			rte_pause();
			continue;
		}
		/* a delayed frame due within the idle time is waited for
		 * here: a sleep could wake too late */
		if (now - last_work < lc->idle_cycles || now < busy ||
		    (due != UINT64_MAX && due < now + lc->idle_cycles)) {
			rte_pause();
			continue;
		}
		/* a port whose guest waits on answers that come without a
		 * kick: poll until then, and only look again after that */
		busy = busy_until(lc);
		if (busy) {
			rte_pause();
			continue;
		}
		/* no progress: ask for kicks (a new frame, or new buffers for
		 * what is held), look once more, then sleep, at most until
		 * the next delayed frame is due */
		xc_idle_arm(&lc->idle);
		if (poll_all(lc, &blocked, &due) == 0) {
			/* what it keeps of the pools goes back: they may
			 * shrink, or go, while it sleeps */
			xc_mbstack_sweep(true);
			woken = xc_idle_wait(&lc->idle,
					     blocked || lc->idle.brief ?
					     XC_BLOCKED_SLEEP_MS :
					     lc->max_sleep_ms,
					     due_ns(due, rte_rdtsc()));
		} else {
			woken = xc_idle_wait(&lc->idle, 0, 0) || true;
		}
		/* a kick or a wake-up may bring a burst: poll the idle time
		 * before sleeping again; a sleep that merely ran out brings
		 * nothing, so one empty round will do (an idle worker of a
		 * lab wakes once a second, and spinning the idle time each time
		 * was most of what it cost) */
		last_work = rte_rdtsc();
		if (!woken)
			last_work -= lc->idle_cycles;
	}
	xc_mbstack_detach();
	return 0;
}
