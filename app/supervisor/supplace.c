/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * supplace.c - which worker process runs which cable
 *
 * Theory of operation: every vhost end is an ethdev, and this DPDK gives a
 * process at most RTE_MAX_ETHPORTS of them. A worker holds cables while
 * their ports fit, counted as xc_simple_over_ports() counts them for one
 * process: one per end that is not on a [port NAME] (socket and tunnel
 * ends), plus one per [port NAME] the worker holds. Cables that share a
 * [port NAME] (trunk members) must be in the worker that opened it, and
 * all tunnel cables in one worker (one UDP socket serves them); such a
 * group is placed as a whole (with its room counted at once), and a
 * worker's ports are fixed once it runs (its config's [port NAME] sections
 * cannot change).
 *
 * At start every worker gets an even share, in config order: the fewest
 * workers that can hold the lab, each filled up to its part of the ports
 * still to place (so 100 socket cables go 14, 14, 14, 14, 15, 14, 15 into
 * 7 workers, not 16 into each of six and 4 into the seventh). The workers
 * share the forwarding CPU (the same lcores), and the kernel gives each
 * forwarding thread an equal part of it when all are busy: even shares
 * keep every cable's part of the CPU even too. Cables added at runtime
 * go first-fit (to the first worker with room, else a new one), so that
 * a change touches as few workers as it can.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_build_config.h>
#include <rte_common.h>

#include "supervise.h"

/**
 * xc_sup_def_ports() - the ethdevs a cable's own ends take (a socket
 *			end's; a [port NAME] is counted once per worker, not
 *			here)
 * @d:		the cable
 *
 * Return: 0, 1 or 2
 */
unsigned int xc_sup_def_ports(const struct xc_cable_def *d)
{
	unsigned int j, n = 0;

	for (j = 0; j < 2; j++)
		if (xc_kind_def_of(&d->end[j]))
			n += xc_kind_def_of(&d->end[j])->ports;
	return n;
}

/**
 * xc_sup_def_portmask() - the [port NAME] sections a cable is on
 * @d:		the cable
 *
 * Return: bit i set for port_defs[i]
 */
uint32_t xc_sup_def_portmask(const struct xc_cable_def *d)
{
	uint32_t m = 0;
	unsigned int j;

	for (j = 0; j < 2; j++)
		if (d->end[j].port >= 0 && d->end[j].port < 32)
			m |= 1u << d->end[j].port;
	return m;
}

/**
 * one_process() - the kinds of a cable's ends whose ends a lab must keep
 *		   in one process (a tunnel's, on the one UDP socket)
 * @d:		the cable
 *
 * Return: bit k set for such a kind k
 */
static uint32_t one_process(const struct xc_cable_def *d)
{
	uint32_t m = 0;
	unsigned int j;

	for (j = 0; j < 2; j++) {
		const struct xc_kind_def *kd = xc_kind_def_of(&d->end[j]);

		if (kd && kd->one_process)
			m |= 1u << kd->id;
	}
	return m;
}

/**
 * struct load - what a worker holds
 * @ports:	ethdevs
 * @cables:	cables
 */
struct load {
	unsigned int ports;
	unsigned int cables;
};

/**
 * worker_load() - count what a worker holds of the placed cables
 * @c:		cables
 * @n:		how many
 * @w:		the worker
 * @k:		its index
 *
 * Return: its load
 */
static struct load worker_load(const struct xc_sup_cable *c, unsigned int n,
			       const struct xc_worker *w, unsigned int k)
{
	struct load l = { .ports = (unsigned int)__builtin_popcount(w->ports) };
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (c[i].worker != (int)k)
			continue;
		l.ports += xc_sup_def_ports(&c[i].def);
		l.cables++;
	}
	return l;
}

/**
 * group_of() - the unplaced cables that must go with cable @i (sharing a
 *		port with it or with each other, or the ends of a kind that
 *		keeps one process: all tunnel cables)
 * @c:		cables
 * @n:		how many
 * @i:		the first of the group
 * @in:		filled: in[j] set for each member
 * @need:	filled with the group's ports (its [port]s counted once)
 *		and cables
 *
 * Return: the group's [port NAME] sections
 */
static uint32_t group_of(const struct xc_sup_cable *c, unsigned int n,
			 unsigned int i, bool *in, struct load *need)
{
	uint32_t mask = xc_sup_def_portmask(&c[i].def);
	uint32_t shared = one_process(&c[i].def);
	bool grew = true;
	unsigned int j;

	memset(in, 0, n * sizeof(*in));
	in[i] = true;
	while (grew) {
		grew = false;
		for (j = 0; j < n; j++) {
			if (in[j] || c[j].worker >= 0)
				continue;
			if ((xc_sup_def_portmask(&c[j].def) & mask) ||
			    (one_process(&c[j].def) & shared)) {
				in[j] = true;
				mask |= xc_sup_def_portmask(&c[j].def);
				shared |= one_process(&c[j].def);
				grew = true;
			}
		}
	}
	need->ports = (unsigned int)__builtin_popcount(mask);
	need->cables = 0;
	for (j = 0; j < n; j++) {
		if (!in[j])
			continue;
		need->ports += xc_sup_def_ports(&c[j].def);
		need->cables++;
	}
	return mask;
}

/**
 * fits() - can a worker take more?
 * @l:		what it holds
 * @more:	what it would take
 *
 * Return: true if both stay within one process's limits
 */
static bool fits(struct load l, struct load more)
{
	return l.ports + more.ports <= RTE_MAX_ETHPORTS &&
	       l.cables + more.cables <= XC_MAX_CABLES;
}

/**
 * placeable() - may cables be placed on a worker? One that is stopping
 *		 (it has no cable left) may not: it would take them along
 * @w:		the worker
 *
 * Return: true if so
 */
static bool placeable(const struct xc_worker *w)
{
	return w->state != XC_W_FREE && w->state != XC_W_STOPPING;
}

/**
 * affinity() - the worker a cable must go to: the one holding its
 *		[port NAME], or the one with the cables whose ends share
 *		its kind's one process (the tunnel cables)
 * @c:		cables
 * @n:		how many
 * @i:		the cable
 * @w:		workers
 * @n_w:	slots used
 *
 * Return: the worker, -1 if it may go anywhere, -2 if its ports are held
 *	   by two workers
 */
static int affinity(const struct xc_sup_cable *c, unsigned int n,
		    unsigned int i, const struct xc_worker *w, unsigned int n_w)
{
	uint32_t mask = xc_sup_def_portmask(&c[i].def);
	unsigned int k, j;
	int t = -1;

	for (k = 0; mask && k < n_w; k++) {
		if (!placeable(&w[k]) || !(w[k].ports & mask))
			continue;
		if (t >= 0)
			return -2;
		t = (int)k;
	}
	if (t >= 0 || !one_process(&c[i].def))
		return t;
	for (j = 0; j < n; j++)
		if (j != i && c[j].worker >= 0 &&
		    (one_process(&c[j].def) & one_process(&c[i].def)))
			return c[j].worker;
	return -1;
}

/**
 * where_ran() - for a cable of a kind that keeps one process (a tunnel
 *		 cable) that no placed cable ties to a worker: the worker
 *		 that ran the last such cables, which may hold what they
 *		 share still (a tunnel socket whose frames are out stays
 *		 open), if it has room
 * @c:		cables
 * @n:		how many
 * @i:		the cable
 * @w:		workers
 * @n_w:	slots used
 * @need:	what the cable's group needs
 *
 * Return: the worker, or -1
 */
static int where_ran(const struct xc_sup_cable *c, unsigned int n,
		     unsigned int i, const struct xc_worker *w,
		     unsigned int n_w, struct load need)
{
	unsigned int k;

	for (k = 0; k < n_w; k++)
		if (placeable(&w[k]) &&
		    (w[k].one_process & one_process(&c[i].def)) &&
		    fits(worker_load(c, n, &w[k], k), need))
			return (int)k;
	return -1;
}

/**
 * new_worker() - take a free worker slot for cables placed now
 * @w:		workers
 * @n_w:	slots used, updated
 * @made:	made[k] set for the slot taken
 *
 * Return: its index, or -1 if every slot is taken
 */
static int new_worker(struct xc_worker *w, unsigned int *n_w, bool *made)
{
	unsigned int k;

	for (k = 0; k < XC_SUP_MAX_WORKERS; k++) {
		if (w[k].state != XC_W_FREE)
			continue;
		made[k] = true;
		w[k].state = XC_W_WAITING;
		w[k].pid = 0;
		w[k].ports = 0;
		w[k].restart_ms = 0;
		w[k].restarts = 0;
		if (k >= *n_w)
			*n_w = k + 1;
		return (int)k;
	}
	return -1;
}

/**
 * even_workers() - for a first placement, how many workers hold a lab of
 *		    @n unplaced cables at the least
 * @c:		cables
 * @n:		how many
 * @ports:	set to the ports they take ([port NAME]s counted once)
 *
 * Return: the number of workers
 */
static unsigned int even_workers(const struct xc_sup_cable *c, unsigned int n,
				 unsigned int *ports)
{
	uint32_t mask = 0;
	unsigned int i, w_ports, w_cables;

	*ports = 0;
	for (i = 0; i < n; i++) {
		*ports += xc_sup_def_ports(&c[i].def);
		mask |= xc_sup_def_portmask(&c[i].def);
	}
	*ports += (unsigned int)__builtin_popcount(mask);
	w_ports = (*ports + RTE_MAX_ETHPORTS - 1) / RTE_MAX_ETHPORTS;
	w_cables = (n + XC_MAX_CABLES - 1) / XC_MAX_CABLES;
	return RTE_MAX(RTE_MAX(w_ports, w_cables), 1u);
}

/**
 * xc_sup_place() - give every unplaced cable a worker: the one its port
 *		    or tunnel ties it to, else, for a tunnel cable, the one
 *		    that ran the last tunnel cables, else the first with
 *		    room (at start,
 *		    room within an even share: see the top of this file),
 *		    else a new one (a free slot, left in state XC_W_WAITING
 *		    with pid 0 for the caller to start)
 * @c:		cables; those with worker -1 are placed
 * @n:		how many
 * @w:		workers (XC_SUP_MAX_WORKERS slots)
 * @n_w:	slots used, updated
 * @why:	the reason it cannot be done
 * @whylen:	size of @why
 *
 * On error nothing is changed.
 *
 * Return: 0, or -ENOSPC (no room: a group bigger than one process, ports
 *	   that a running worker does not hold, no free slot)
 */
int xc_sup_place(struct xc_sup_cable *c, unsigned int n,
		 struct xc_worker *w, unsigned int *n_w, char *why,
		 size_t whylen)
{
	bool placed[XC_SUP_MAX_CABLES] = { false }, in[XC_SUP_MAX_CABLES];
	bool made[XC_SUP_MAX_WORKERS] = { false };
	unsigned int share[XC_SUP_MAX_WORKERS];
	uint32_t ports0[XC_SUP_MAX_WORKERS], one0[XC_SUP_MAX_WORKERS];
	unsigned int i, k, n_w0 = *n_w, even = 0, n_made = 0, left = 0;
	struct load need;
	uint32_t mask;
	int t;

	for (k = 0; k < XC_SUP_MAX_WORKERS; k++) {
		ports0[k] = w[k].ports;
		one0[k] = w[k].one_process;
		share[k] = RTE_MAX_ETHPORTS;
	}
	/* a first placement (no worker yet) shares the lab out evenly */
	for (k = 0; k < *n_w && w[k].state == XC_W_FREE; k++)
		;
	if (k == *n_w)
		even = even_workers(c, n, &left);
	for (i = 0; i < n; i++) {
		if (c[i].worker >= 0)
			continue;
		t = affinity(c, n, i, w, *n_w);
		if (t == -2) {
			snprintf(why, whylen, "cable %s: its two ports are held by two workers",
				 c[i].def.name);
			goto undo;
		}
		mask = group_of(c, n, i, in, &need);
		if (t >= 0) {
			/* a running worker's [port]s are fixed */
			if ((mask & ~w[t].ports) && !made[t]) {
				snprintf(why, whylen, "cable %s: its ports would join a running worker: restart xcable",
					 c[i].def.name);
				goto undo;
			}
			need.ports -= (unsigned int)__builtin_popcount(mask & w[t].ports);
			if (!fits(worker_load(c, n, &w[t], (unsigned int)t), need)) {
				snprintf(why, whylen, "cable %s: the worker holding its port or tunnel has no room for it (at most %d DPDK ports, %d cables a process)",
					 c[i].def.name, RTE_MAX_ETHPORTS, XC_MAX_CABLES);
				goto undo;
			}
		}
		t = t < 0 && !mask ? where_ran(c, n, i, w, *n_w, need) : t;
		for (k = 0; t < 0 && k < *n_w; k++) {
			struct load l = worker_load(c, n, &w[k], k);

			if (placeable(&w[k]) && (!mask || made[k]) &&
			    fits(l, need) && l.ports + need.ports <= share[k])
				t = (int)k;
		}
		if (t < 0 && !fits((struct load){ 0, 0 }, need)) {
			snprintf(why, whylen, "cable %s: it and the cables that share its ports or tunnel need %u DPDK ports and %u cables, more than one process holds (%d ports, %d cables)",
				 c[i].def.name, need.ports, need.cables,
				 RTE_MAX_ETHPORTS, XC_MAX_CABLES);
			goto undo;
		}
		if (t < 0) {
			t = new_worker(w, n_w, made);
			/* its part of what is left: the last of the even
			 * workers takes all the rest */
			if (t >= 0 && even && n_made < even)
				share[t] = (left + (even - n_made) - 1) /
					   (even - n_made);
			n_made += t >= 0;
		}
		if (t < 0) {
			snprintf(why, whylen, "cable %s: no room: %d worker processes at most",
				 c[i].def.name, XC_SUP_MAX_WORKERS);
			goto undo;
		}
		/* the whole group at once: its room was counted */
		for (k = i; k < n; k++) {
			if (!in[k])
				continue;
			c[k].worker = t;
			placed[k] = true;
			w[t].one_process |= one_process(&c[k].def);
		}
		left -= RTE_MIN(left, need.ports);
		if (made[t])
			w[t].ports |= mask;
	}
	return 0;
undo:
	for (i = 0; i < n; i++)
		if (placed[i])
			c[i].worker = -1;
	for (k = 0; k < XC_SUP_MAX_WORKERS; k++) {
		w[k].ports = ports0[k];
		w[k].one_process = one0[k];
		if (made[k])
			w[k].state = XC_W_FREE;
	}
	*n_w = n_w0;
	return -ENOSPC;
}
