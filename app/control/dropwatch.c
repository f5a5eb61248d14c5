/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dropwatch.c - drops starting and stopping, as events
 *
 * While someone listens to the events, the stream thread looks at every
 * cable's drop counters once a second (XC_DROPWATCH_MS): for each
 * direction and reason, drops that start (none in the last second, some
 * now) and drops that stop (some in the last second, none now, with how
 * many there were since they started) make one event per cable and
 * second at most, whatever the rate of the drops:
 *
 *   drops c1 started: left->right peer-down 1200
 *   drops c1 stopped: left->right peer-down (5311 in all)
 *
 * Nobody listening, nothing is looked at. The counters are read as any
 * reader does (the lcores are not touched), the cables held still by the
 * control socket's lock.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dir.h"
#include "dropwatch.h"
#include "evlog.h"
#include "stream.h"

/**
 * look() - one cable's drops since the last look: an event if some
 *	    started or stopped
 * @w:		the cable's slot in the watch
 * @c:		the cable
 * @fresh:	the slot was another cable's, or nobody listened: the
 *		counters now are where it starts from
 */
static void look(struct xc_dropwatch_cable *w, const struct xc_cable *c,
		 bool fresh)
{
	char on[XC_EV_DETAIL] = "", off[XC_EV_DETAIL] = "";
	size_t n_on = 0, n_off = 0;
	struct xc_dir_stats st;
	uint64_t now, d;
	unsigned int j, r;

	for (j = 0; j < 2; j++) {
		xc_cable_stats(c, j, &st);
		for (r = 0; r < XC_DROP__MAX; r++) {
			now = st.drop[r];
			/* counters that start again: a cable made again */
			d = fresh || now < w->last[j][r] ? 0 :
			    now - w->last[j][r];
			w->last[j][r] = now;
			if (d && !w->since[j][r] && n_on < sizeof(on))
				n_on += (size_t)snprintf(on + n_on, sizeof(on) - n_on,
					"%s%s %s %" PRIu64, n_on ? ", " : "",
					c->dir[j].label,
					xc_drop_name((enum xc_drop)r), d);
			if (!d && w->since[j][r] && n_off < sizeof(off))
				n_off += (size_t)snprintf(off + n_off, sizeof(off) - n_off,
					"%s%s %s (%" PRIu64 " in all)",
					n_off ? ", " : "", c->dir[j].label,
					xc_drop_name((enum xc_drop)r),
					w->since[j][r]);
			w->since[j][r] = d ? w->since[j][r] + d : 0;
		}
	}
	if (n_on && n_off)
		xc_ev("drops", c->name, NULL, "changed", NULL,
		      "started: %s; stopped: %s", on, off);
	else if (n_on || n_off)
		xc_ev("drops", c->name, NULL, n_on ? "started" : "stopped",
		      NULL, "%s", n_on ? on : off);
}

/**
 * xc_dropwatch_tick() - look at the cables' drops if a second went by and
 *			 someone listens (the stream thread's tick)
 * @w:		the watch
 * @cables:	the cable slots
 * @n:		how many
 * @lock:	held for reading while the cables are looked at, or NULL
 * @listening:	someone listens to the events
 *
 * Return: when to look again (stream clock), 0 while nobody listens
 */
uint64_t xc_dropwatch_tick(struct xc_dropwatch *w, struct xc_cable *cables,
			   unsigned int n, pthread_rwlock_t *lock,
			   bool listening)
{
	uint64_t t = xc_stream_now_ms();
	bool fresh = w->next_ms == 0;
	unsigned int i;

	if (!listening) {
		w->next_ms = 0;
		return 0;
	}
	if (!fresh && t < w->next_ms)
		return w->next_ms;
	w->next_ms = t + XC_DROPWATCH_MS;
	if (lock)
		pthread_rwlock_rdlock(lock);
	for (i = 0; i < n && i < XC_MAX_CABLES; i++) {
		struct xc_dropwatch_cable *d = &w->c[i];

		if (!xc_cable_shown(&cables[i])) {
			d->name[0] = '\0';
			continue;
		}
		if (fresh || strcmp(d->name, cables[i].name)) {
			memset(d, 0, sizeof(*d));
			snprintf(d->name, sizeof(d->name), "%s", cables[i].name);
			look(d, &cables[i], true);
			continue;
		}
		look(d, &cables[i], false);
	}
	if (lock)
		pthread_rwlock_unlock(lock);
	return w->next_ms;
}
