/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * stats.h - per-direction counters and drop reasons
 *
 * Every counter xcable shows is described once, in a table (stats.c):
 * its name, as the exit/interval lines, xcablectl, its JSON and telemetry
 * all spell it, and what it means. The functions below walk a table to
 * fill a text line, a JSON object or a telemetry dict, so that a counter
 * added to a table appears everywhere at once.
 */
#ifndef XC_STATS_H
#define XC_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rte_tel_data;
struct xc_json;

/**
 * enum xc_drop - why a frame was dropped; every drop has exactly one
 * (each reason's name and meaning are written once, in dir_counters of
 * stats.c: XC_DROP__MAX is the number of reasons)
 */
enum xc_drop {
	XC_DROP_PEER_DOWN,
	XC_DROP_SHUTDOWN,
	XC_DROP_TOO_BIG,
	XC_DROP_BAD_OFFLOAD,
	XC_DROP_UNSUPPORTED,
	XC_DROP_NO_MBUF,
	XC_DROP_IMPAIR_LOSS,
	XC_DROP_IMPAIR_GE,
	XC_DROP_IMPAIR_BLACKHOLE,
	XC_DROP_IMPAIR_MTU,
	XC_DROP_IMPAIR_FULL,
	XC_DROP_CABLE_DOWN,
	XC_DROP_REFUSED,
	XC_DROP__MAX,
};

/**
 * struct xc_dir_stats - counters of one cable direction
 * (each counter's name and meaning are written once, in dir_counters of
 * stats.c)
 *
 * Invariant once the direction is idle: every frame received, or made
 * or taken by a stage, was sent or dropped. Each counter's term in that
 * balance is written beside it in dir_counters (@balance), and
 * xc_dir_unaccounted() adds them up (0 when the invariant holds):
 * rx_pkts - seg_frames + seg_out + duplicated - coal_in + coal_frames
 *	- tx_pkts - sum(drop).
 */
struct xc_dir_stats {
	uint64_t rx_pkts;
	uint64_t rx_bytes;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t drop[XC_DROP__MAX];
	uint64_t seg_frames;
	uint64_t seg_out;
	uint64_t csum_filled;
	uint64_t duplicated;
	uint64_t corrupted;
	uint64_t reordered;
	uint64_t coal_frames;
	uint64_t coal_in;
};

/**
 * xc_stat_add() - add to a counter owned by the calling lcore
 * @c:		counter
 * @n:		amount
 *
 * Single writer; the relaxed atomic store lets other threads read whole
 * values without slowing the writer down.
 */
static inline void xc_stat_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/**
 * struct xc_counter - one counter of a table
 * @name:	its name everywhere (text lines, JSON, xcablectl); telemetry,
 *		which allows no '-', writes '_' instead
 * @meaning:	what it counts, in one line
 * @off:	offset of its uint64_t in the stats struct of the table
 * @n_sum:	how many consecutive uint64_t from @off it adds up (1, or
 *		XC_DROP__MAX for the total of drops)
 * @balance:	its term in the table's balance of frames: +1 for frames
 *		that came (received, or made by a stage), -1 for frames
 *		that went (sent, dropped, or taken by a stage), 0 if it is
 *		not one (bytes, a drop reason already in the total)
 */
struct xc_counter {
	const char *name;
	const char *meaning;
	size_t off;
	unsigned int n_sum;
	int balance;
};

/**
 * struct xc_counter_table - a table and its length
 * @c:		the counters, in the order they are shown
 * @n:		how many
 */
struct xc_counter_table {
	const struct xc_counter *c;
	unsigned int n;
};

extern const struct xc_counter_table xc_dir_counters;

const char *xc_drop_name(enum xc_drop r);
uint64_t xc_counter_value(const struct xc_counter *c, const void *s);
int64_t xc_dir_unaccounted(const struct xc_dir_stats *s);
size_t xc_stats_line(const struct xc_counter_table *t, const void *s,
			char *buf, size_t len);
void xc_stats_json(const struct xc_counter_table *t, const void *s,
		      struct xc_json *j, const char *key);
void xc_stats_tel(const struct xc_counter_table *t, const void *s,
		     struct rte_tel_data *d, const char *prefix);
const char *xc_tel_key(char *buf, size_t len, const char *prefix,
		       const char *name);
void xc_stats_snapshot(const struct xc_dir_stats *src,
		       struct xc_dir_stats *dst);
uint64_t xc_stats_drops(const struct xc_dir_stats *s);
void xc_stats_accumulate(struct xc_dir_stats *sum,
			 const struct xc_dir_stats *s);

#endif /* XC_STATS_H */
