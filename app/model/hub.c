/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hub.c - the hubs of a set of cables (cable.h): what their ends share and
 *	   count together, each once, and a hub's counters on a line
 */
#include <stdio.h>

#include "cable.h"

/**
 * xc_hubs_of() - the hubs the shown cables' ends are on, each once, in
 *		  the order of the cables
 * @cables:	cables
 * @n_cables:	how many
 * @only:	only this cable's, or NULL for all
 * @out:	filled, room for @max
 * @max:	room in @out
 *
 * Return: how many
 */
unsigned int xc_hubs_of(const struct xc_cable *cables, unsigned int n_cables,
			const struct xc_cable *only, const struct xc_hub **out,
			unsigned int max)
{
	unsigned int i, j, k, n = 0;

	for (i = 0; i < n_cables; i++)
		for (j = 0; j < 2; j++) {
			const struct xc_hub *h = cables[i].end[j].hub;

			if (h == NULL || (only && only != &cables[i]) ||
			    !xc_cable_shown(&cables[i]))
				continue;
			for (k = 0; k < n && out[k] != h; k++)
				;
			if (k == n && n < max)
				out[n++] = h;
		}
	return n;
}

/**
 * xc_hub_line() - a hub's counters on one line, after its title
 * @h:		hub
 * @buf:	filled, always terminated
 * @len:	size of @buf
 */
void xc_hub_line(const struct xc_hub *h, char *buf, size_t len)
{
	uint64_t st[XC_HUB_STATS_MAX];
	char title[128];
	int n;

	h->ops->snapshot(h, st);
	h->ops->title(h, title, sizeof(title));
	n = snprintf(buf, len, "%s: ", title);
	if (n >= 0 && (size_t)n < len)
		xc_stats_line(h->ops->counters, st, buf + n, len - (size_t)n);
}
