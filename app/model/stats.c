/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.c - the tables of counters, what walks them, and consistent
 *	     reads of counters
 */
#include <inttypes.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "json.h"
#include "stats.h"

#define DIR_CTR(name, field, meaning) \
	{ name, meaning, offsetof(struct xc_dir_stats, field), 1, 0 }
/* a counter of frames that came (+1) or went (-1): xc_dir_unaccounted() */
#define DIR_IO_CTR(name, field, balance, meaning) \
	{ name, meaning, offsetof(struct xc_dir_stats, field), 1, balance }
#define DROP_CTR(name, reason, meaning) \
	{ name, "dropped: " meaning, \
	  offsetof(struct xc_dir_stats, drop) + (reason) * sizeof(uint64_t), 1, 0 }

/* every counter of a cable direction, in the order shown */
static const struct xc_counter dir_counters[] = {
	DIR_IO_CTR("rx-pkts", rx_pkts, +1, "frames received from the sending end"),
	DIR_CTR("rx-bytes", rx_bytes, "bytes of those frames"),
	DIR_IO_CTR("tx-pkts", tx_pkts, -1, "frames the receiving end accepted"),
	DIR_CTR("tx-bytes", tx_bytes, "bytes of those frames"),
	{ "dropped", "frames dropped, all reasons together",
	  offsetof(struct xc_dir_stats, drop), XC_DROP__MAX, -1 },
	DROP_CTR("peer-down", XC_DROP_PEER_DOWN,
		 "the receiving end's link or queue was down"),
	DROP_CTR("shutdown", XC_DROP_SHUTDOWN,
		 "frames still held when xcable stopped or the cable was removed"),
	DROP_CTR("too-big", XC_DROP_TOO_BIG,
		 "larger than the receiving end can take"),
	DROP_CTR("bad-offload", XC_DROP_BAD_OFFLOAD,
		 "offload metadata that contradicts the frame"),
	DROP_CTR("unsupported-offload", XC_DROP_UNSUPPORTED,
		 "an offload xcable cannot do in software"),
	DROP_CTR("no-mbuf", XC_DROP_NO_MBUF,
		 "no buffers left to segment a frame into"),
	DROP_CTR("impair-loss", XC_DROP_IMPAIR_LOSS,
		 "lost on purpose (impairment loss: random)"),
	DROP_CTR("impair-ge-loss", XC_DROP_IMPAIR_GE,
		 "lost on purpose (impairment ge: bursty, Gilbert-Elliott)"),
	DROP_CTR("impair-blackhole", XC_DROP_IMPAIR_BLACKHOLE,
		 "swallowed on purpose, the carrier up (impairment blackhole)"),
	DROP_CTR("impair-mtu", XC_DROP_IMPAIR_MTU,
		 "larger than the impairment mtu lets through (a mismatched MTU)"),
	DROP_CTR("impair-queue-full", XC_DROP_IMPAIR_FULL,
		 "the impairment queue (delay, rate) was full"),
	DROP_CTR("cable-down", XC_DROP_CABLE_DOWN,
		 "held when the cable was taken down (pulled)"),
	DROP_CTR("refused", XC_DROP_REFUSED,
		 "the receiving end could not send them (a tunnel: the kernel refused the datagram, no route...)"),
	DIR_IO_CTR("segmented", seg_frames, -1,
		   "frames segmented in software (receiver without TSO)"),
	DIR_IO_CTR("segments-made", seg_out, +1, "segments made of them"),
	DIR_CTR("checksums-filled", csum_filled,
		"checksums completed in software (receiver without CSUM)"),
	DIR_IO_CTR("duplicated", duplicated, +1,
		   "extra copies sent on purpose (impairment dup)"),
	DIR_CTR("corrupted", corrupted,
		"frames with a bit flipped on purpose (impairment corrupt)"),
	DIR_CTR("reordered", reordered,
		"frames sent on purpose ahead of frames received before them (impairment reorder)"),
	DIR_IO_CTR("coalesced", coal_frames, +1,
		   "TSO frames made of a wire's TCP segments (receiver with TSO)"),
	DIR_IO_CTR("segments-coalesced", coal_in, -1,
		   "segments they were made of"),
};

const struct xc_counter_table xc_dir_counters = {
	dir_counters, RTE_DIM(dir_counters)
};

/**
 * xc_drop_name() - name of a drop reason, as printed and queried
 * @r:		reason
 *
 * Return: a static string, the reason's counter name in xc_dir_counters
 */
const char *xc_drop_name(enum xc_drop r)
{
	size_t off = offsetof(struct xc_dir_stats, drop) +
		     (size_t)r * sizeof(uint64_t);
	unsigned int i;

	for (i = 0; (unsigned int)r < XC_DROP__MAX && i < RTE_DIM(dir_counters);
	     i++)
		if (dir_counters[i].off == off && dir_counters[i].n_sum == 1)
			return dir_counters[i].name;
	return "unknown";
}

/**
 * xc_dir_unaccounted() - a direction's balance of frames: those that came
 *			  less those that went, each counter taken with
 *			  its @balance in dir_counters
 * @s:		a snapshot of the direction's counters, idle
 *
 * Return: 0 if every frame is accounted for (struct xc_dir_stats); a
 *	   frame in flight, or one lost uncounted, shows here
 */
int64_t xc_dir_unaccounted(const struct xc_dir_stats *s)
{
	int64_t sum = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(dir_counters); i++)
		sum += dir_counters[i].balance *
		       (int64_t)xc_counter_value(&dir_counters[i], s);
	return sum;
}

/**
 * xc_counter_value() - a counter's value in a snapshot
 * @c:		the counter (an entry of a table)
 * @s:		the table's stats struct (a snapshot, not live counters)
 *
 * Return: the value, or the sum of the values it adds up
 */
uint64_t xc_counter_value(const struct xc_counter *c, const void *s)
{
	const uint64_t *v = (const uint64_t *)((const char *)s + c->off);
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < c->n_sum; i++)
		n += v[i];
	return n;
}

/**
 * xc_stats_line() - every counter of a table as "name value name value"
 * @t:		table
 * @s:		its stats struct
 * @buf:	filled, always terminated
 * @len:	size of @buf
 *
 * Return: length of the text (less than @len; cut short if it did not fit)
 */
size_t xc_stats_line(const struct xc_counter_table *t, const void *s,
			char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;
	int n;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < t->n && used < len - 1; i++) {
		n = snprintf(buf + used, len - used, "%s%s %" PRIu64,
			     i ? " " : "", t->c[i].name,
			     xc_counter_value(&t->c[i], s));
		if (n < 0)
			break;
		used += RTE_MIN((size_t)n, len - 1 - used);
	}
	return used;
}

/**
 * xc_stats_json() - every counter of a table as a JSON object
 * @t:		table
 * @s:		its stats struct
 * @j:		JSON being written
 * @key:	the object's key in the enclosing object, NULL in an array
 */
void xc_stats_json(const struct xc_counter_table *t, const void *s,
		      struct xc_json *j, const char *key)
{
	unsigned int i;

	xc_json_open(j, key, '{');
	for (i = 0; i < t->n; i++)
		xc_json_u64(j, t->c[i].name, xc_counter_value(&t->c[i], s));
	xc_json_close(j, '}');
}

/**
 * xc_tel_key() - a telemetry key "PREFIX/NAME"; '-', '>' and '.', which
 *		  telemetry does not allow in keys, become '_'
 * @buf:	output
 * @len:	size of @buf
 * @prefix:	first part
 * @name:	second part
 *
 * Return: @buf
 */
const char *xc_tel_key(char *buf, size_t len, const char *prefix,
		       const char *name)
{
	char *c;

	if (snprintf(buf, len, "%s/%s", prefix, name) >= (int)len)
		buf[len - 1] = '\0';	/* labels are short */
	for (c = buf; *c; c++)
		if (*c == '-' || *c == '>' || *c == '.')
			*c = '_';
	return buf;
}

/**
 * xc_stats_tel() - every counter of a table into a telemetry dict, as
 *		       "PREFIX/NAME" (see xc_tel_key())
 * @t:		table
 * @s:		its stats struct
 * @d:		a dict being answered
 * @prefix:	what the keys start with
 */
void xc_stats_tel(const struct xc_counter_table *t, const void *s,
		     struct rte_tel_data *d, const char *prefix)
{
	char k[RTE_TEL_MAX_STRING_LEN];
	unsigned int i;

	for (i = 0; i < t->n; i++)
		rte_tel_data_add_dict_u64(d, xc_tel_key(k, sizeof(k), prefix,
							t->c[i].name),
					  xc_counter_value(&t->c[i], s));
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
	dst->reordered = __atomic_load_n(&src->reordered, __ATOMIC_RELAXED);
	dst->coal_frames = __atomic_load_n(&src->coal_frames, __ATOMIC_RELAXED);
	dst->coal_in = __atomic_load_n(&src->coal_in, __ATOMIC_RELAXED);
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
	sum->reordered += s->reordered;
	sum->coal_frames += s->coal_frames;
	sum->coal_in += s->coal_in;
}
