/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.c - drop reason names and consistent reads of counters
 */
#include "stats.h"

static const char *const drop_names[XC_DROP__MAX] = {
	[XC_DROP_PEER_DOWN] = "peer-down",
	[XC_DROP_SHUTDOWN] = "shutdown",
	[XC_DROP_TOO_BIG] = "too-big",
	[XC_DROP_BAD_OFFLOAD] = "bad-offload",
	[XC_DROP_UNSUPPORTED] = "unsupported-offload",
	[XC_DROP_NO_MBUF] = "no-mbuf",
	[XC_DROP_IMPAIR_LOSS] = "impair-loss",
	[XC_DROP_IMPAIR_FULL] = "impair-queue-full",
	[XC_DROP_CABLE_DOWN] = "cable-down",
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
	dst->seg_frames = __atomic_load_n(&src->seg_frames, __ATOMIC_RELAXED);
	dst->seg_out = __atomic_load_n(&src->seg_out, __ATOMIC_RELAXED);
	dst->csum_filled = __atomic_load_n(&src->csum_filled,
					   __ATOMIC_RELAXED);
	dst->duplicated = __atomic_load_n(&src->duplicated, __ATOMIC_RELAXED);
	dst->corrupted = __atomic_load_n(&src->corrupted, __ATOMIC_RELAXED);
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

/**
 * xc_stats_accumulate() - add one direction's counters to a sum
 * @sum:	running sum
 * @s:		counters to add (a snapshot)
 */
void xc_stats_accumulate(struct xc_dir_stats *sum,
			 const struct xc_dir_stats *s)
{
	int i;

	sum->rx_pkts += s->rx_pkts;
	sum->rx_bytes += s->rx_bytes;
	sum->tx_pkts += s->tx_pkts;
	sum->tx_bytes += s->tx_bytes;
	for (i = 0; i < XC_DROP__MAX; i++)
		sum->drop[i] += s->drop[i];
	sum->seg_frames += s->seg_frames;
	sum->seg_out += s->seg_out;
	sum->csum_filled += s->csum_filled;
	sum->duplicated += s->duplicated;
	sum->corrupted += s->corrupted;
}
