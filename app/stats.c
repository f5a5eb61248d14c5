/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.c - drop reason names and consistent reads of counters
 */
#include "stats.h"

static const char *const drop_names[XC_DROP__MAX] = {
	[XC_DROP_PEER_DOWN] = "peer-down",
	[XC_DROP_SHUTDOWN] = "shutdown",
};

/**
 * xc_drop_name() - name of a drop reason, as printed and queried
 * @r:		reason
 *
 * Return: a static string
 */
const char *xc_drop_name(enum xc_drop r)
{
	return (unsigned int)r < XC_DROP__MAX ? drop_names[r] : "unknown";
}

/**
 * xc_stats_snapshot() - copy counters that another lcore is updating
 * @src:	live counters
 * @dst:	copy
 */
void xc_stats_snapshot(const struct xc_dir_stats *src,
		       struct xc_dir_stats *dst)
{
	int i;

	dst->rx_pkts = __atomic_load_n(&src->rx_pkts, __ATOMIC_RELAXED);
	dst->rx_bytes = __atomic_load_n(&src->rx_bytes, __ATOMIC_RELAXED);
	dst->tx_pkts = __atomic_load_n(&src->tx_pkts, __ATOMIC_RELAXED);
	dst->tx_bytes = __atomic_load_n(&src->tx_bytes, __ATOMIC_RELAXED);
	for (i = 0; i < XC_DROP__MAX; i++)
		dst->drop[i] = __atomic_load_n(&src->drop[i],
					       __ATOMIC_RELAXED);
}

/**
 * xc_stats_drops() - total drops over all reasons
 * @s:		counters
 *
 * Return: sum of s->drop[]
 */
uint64_t xc_stats_drops(const struct xc_dir_stats *s)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < XC_DROP__MAX; i++)
		n += s->drop[i];
	return n;
}
