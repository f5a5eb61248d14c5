/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * impairmeas.c - what a direction's impairment did, measured: read from
 *		  the windows its lcore writes (impair.c), for xcablectl
 *		  show and list (text and JSON) and --stats-json
 *
 * Theory of operation: the lcore that owns a direction counts what its
 * impairment does in windows of XC_IMPAIR_WIN_S seconds of the TSC (window
 * number = TSC / window length), two of them: the current one, and the
 * one before. A report covers both: the whole window before the current
 * one and the current one so far, XC_IMPAIR_WIN_S to twice that, its
 * exact length given. So every reader at the same moment gets the same
 * report (nothing is reset by reading), and a change shows within
 * seconds. A window the lcore did not touch (nothing crossed the
 * direction) holds an older number and is left out: nothing happened in
 * it. Each window is copied whole under its sequence number (the lcore
 * clears one when it starts it again); the counters in it only grow,
 * with relaxed stores, so a copy is at worst a few frames behind.
 *
 * The delays are those measured on the frames as they leave the delay
 * line: from their arrival in the ring to their release, histogram
 * buckets at most 1/64 of their value wide, a percentile given as its
 * bucket's middle (and never less than the shortest measured, nor more
 * than the longest).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#include "dir.h"
#include "impair.h"
#include "json.h"

#define XC_WIN_COPY_TRIES	64

/* the drop reasons that belong to the impairment: always reported (any
 * other, a flushed delay line's, only when it happened) */
static const enum xc_drop impair_reasons[] = {
	XC_DROP_IMPAIR_LOSS, XC_DROP_IMPAIR_GE, XC_DROP_IMPAIR_BLACKHOLE,
	XC_DROP_IMPAIR_MTU, XC_DROP_IMPAIR_FULL,
};

/**
 * struct meas - a report being put together
 * @r:		the report
 * @hist:	the delay histograms added up
 * @min:	the shortest delay, TSC cycles
 * @max:	the longest delay, TSC cycles
 * @hz:		TSC frequency
 * @unit_shift:	histogram unit, 2^unit_shift cycles
 * @w:		a window being copied
 */
struct meas {
	struct xc_impair_report *r;
	uint64_t hist[XC_IMPAIR_HIST];
	uint64_t min;
	uint64_t max;
	uint64_t hz;
	unsigned int unit_shift;
	struct xc_impair_win w;
};

/**
 * win_copy() - copy a window whole, as its lcore left it
 * @src:	window
 * @dst:	filled
 *
 * Return: true if the copy is consistent (false: the lcore was clearing
 *	   it every time)
 */
static bool win_copy(const struct xc_impair_win *src, struct xc_impair_win *dst)
{
	unsigned int t, i;
	uint32_t s1, s2;

	for (t = 0; t < XC_WIN_COPY_TRIES; t++) {
		s1 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
		if (s1 & 1) {
			rte_pause();
			continue;
		}
		dst->epoch = __atomic_load_n(&src->epoch, __ATOMIC_RELAXED);
		dst->out = __atomic_load_n(&src->out, __ATOMIC_RELAXED);
		dst->out_bytes = __atomic_load_n(&src->out_bytes,
						 __ATOMIC_RELAXED);
		for (i = 0; i < XC_DROP__MAX; i++)
			dst->drop[i] = __atomic_load_n(&src->drop[i],
						       __ATOMIC_RELAXED);
		dst->dup = __atomic_load_n(&src->dup, __ATOMIC_RELAXED);
		dst->reordered = __atomic_load_n(&src->reordered,
						 __ATOMIC_RELAXED);
		dst->min = __atomic_load_n(&src->min, __ATOMIC_RELAXED);
		dst->max = __atomic_load_n(&src->max, __ATOMIC_RELAXED);
		for (i = 0; i < XC_IMPAIR_HIST; i++)
			dst->hist[i] = __atomic_load_n(&src->hist[i],
						       __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&src->seq, __ATOMIC_RELAXED);
		if (s1 == s2)
			return true;
	}
	return false;
}

/**
 * add_win() - add a window's counts to a report
 * @m:		report being put together
 * @w:		window, copied
 */
static void add_win(struct meas *m, const struct xc_impair_win *w)
{
	struct xc_impair_report *r = m->r;
	unsigned int i;

	r->out += w->out;
	r->out_bytes += w->out_bytes;
	for (i = 0; i < XC_DROP__MAX; i++)
		r->drop[i] += w->drop[i];
	r->dup += w->dup;
	r->reordered += w->reordered;
	if (w->out)
		m->min = RTE_MIN(m->min, w->min);
	m->max = RTE_MAX(m->max, w->max);
	for (i = 0; i < XC_IMPAIR_HIST; i++)
		m->hist[i] += w->hist[i];
}

/**
 * bucket_us() - the middle of a histogram bucket, in microseconds
 * @m:		report being put together
 * @b:		bucket
 *
 * Return: the value
 */
static double bucket_us(const struct meas *m, unsigned int b)
{
	double lo, width, e;

	if (b < XC_IMPAIR_HIST_SUB) {
		lo = b;
		width = 1;
	} else {
		e = (double)(b / XC_IMPAIR_HIST_SUB - 1);
		width = (double)(1ULL << (unsigned int)e);
		lo = (XC_IMPAIR_HIST_SUB + b % XC_IMPAIR_HIST_SUB) * width;
	}
	return (lo + width / 2) * (double)(1ULL << m->unit_shift) * 1e6 /
	       (double)m->hz;
}

/**
 * percentile_us() - a percentile of the delays added up
 * @m:		report being put together
 * @total:	delays in the histogram
 * @pct:	which, 1 to 100
 *
 * Return: it, in microseconds, between the shortest and the longest
 *	   measured
 */
static uint64_t percentile_us(const struct meas *m, uint64_t total,
			      unsigned int pct)
{
	uint64_t rank = (total * pct + 99) / 100, seen = 0;
	double v = 0, max = (double)m->max * 1e6 / (double)m->hz;
	double min = (double)m->min * 1e6 / (double)m->hz;
	unsigned int b;

	for (b = 0; b < XC_IMPAIR_HIST && total; b++) {
		seen += m->hist[b];
		if (seen >= rank) {
			v = bucket_us(m, b);
			break;
		}
	}
	if (total == 0)
		return 0;
	return (uint64_t)(RTE_MAX(RTE_MIN(v, max), min) + 0.5);
}

/**
 * xc_impair_measure() - what the impairment of one direction did over
 *			 its last windows (see the top of this file); any
 *			 thread
 * @ims:	the direction's impairment states, one per queue
 * @n:		how many
 * @now:	TSC
 * @r:		filled
 */
void xc_impair_measure(const struct xc_impair *const *ims, unsigned int n,
		       uint64_t now, struct xc_impair_report *r)
{
	struct xc_impair_cfg c;
	struct meas m;
	uint64_t epoch = 0, total = 0, len = 0;
	unsigned int i, k;

	memset(r, 0, sizeof(*r));
	memset(&m, 0, sizeof(m));
	m.r = r;
	m.min = UINT64_MAX;
	for (i = 0; i < n; i++) {
		const struct xc_impair *im = ims[i];

		xc_impair_get(im, &c);
		r->active |= xc_impair_cfg_active(&c);
		if (im->win == NULL)
			continue;
		len = im->win_len;
		epoch = now / len;
		m.hz = im->hz;
		m.unit_shift = im->unit_shift;
		for (k = 0; k < 2; k++)
			if (win_copy(&im->win[k], &m.w) &&
			    (m.w.epoch == epoch || m.w.epoch + 1 == epoch))
				add_win(&m, &m.w);
	}
	if (len == 0)
		return;
	r->span_ms = (now - (epoch ? epoch - 1 : 0) * len) * 1000 / m.hz;
	for (k = 0; k < XC_IMPAIR_HIST; k++)
		total += m.hist[k];
	r->p50_us = percentile_us(&m, total, 50);
	r->p99_us = percentile_us(&m, total, 99);
	r->max_us = (uint64_t)((double)m.max * 1e6 / (double)m.hz + 0.5);
	r->min_us = total ? (uint64_t)((double)m.min * 1e6 / (double)m.hz + 0.5) :
		    0;
	if (r->span_ms)
		r->rate_bps = r->out_bytes * 8 * 1000 / r->span_ms;
}

/**
 * xc_impair_dir_report() - xc_impair_measure() for one direction of a
 *			    cable, over its queues, now
 * @c:		cable
 * @j:		0: end[0] -> end[1]; 1: the reverse
 * @r:		filled
 */
void xc_impair_dir_report(const struct xc_cable *c, unsigned int j,
			  struct xc_impair_report *r)
{
	const struct xc_impair *ims[XC_MAX_QUEUES];
	unsigned int q, n = 0;

	for (q = 0; q < c->n_queues && n < XC_MAX_QUEUES; q++)
		ims[n++] = &c->dir[2 * q + j].im;
	xc_impair_measure(ims, n, rte_get_tsc_cycles(), r);
}

/**
 * xc_impair_report_shown() - is there anything to report: an impairment
 *			      set, or something it did in the windows?
 * @r:		report
 *
 * Return: true if so
 */
bool xc_impair_report_shown(const struct xc_impair_report *r)
{
	unsigned int i;

	if (r->active || r->out || r->dup || r->reordered)
		return true;
	for (i = 0; i < XC_DROP__MAX; i++)
		if (r->drop[i])
			return true;
	return false;
}

/**
 * reported() - is a drop reason part of a report?
 * @r:		report
 * @why:	reason
 *
 * Return: true for the impairment's reasons, and any other that happened
 */
static bool reported(const struct xc_impair_report *r, enum xc_drop why)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(impair_reasons); i++)
		if (impair_reasons[i] == why)
			return true;
	return r->drop[why] != 0;
}

/**
 * xc_impair_report_text() - a report on one line, for people
 * @r:		report
 * @buf:	filled, always terminated
 * @len:	size of @buf
 */
void xc_impair_report_text(const struct xc_impair_report *r, char *buf,
			   size_t len)
{
	const char *sep = " (";
	uint64_t lost = 0;
	size_t o = 0;
	unsigned int i;

#define ADD(...) (o += (size_t)snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__))
	for (i = 0; i < XC_DROP__MAX; i++)
		lost += r->drop[i];
	ADD("measured over the last %" PRIu64 ".%" PRIu64 " s: delayed %" PRIu64
	    " frames, delay min %" PRIu64 ".%03" PRIu64 " ms, p50 %" PRIu64
	    ".%03" PRIu64 " ms, p99 %" PRIu64 ".%03" PRIu64 " ms, max %" PRIu64
	    ".%03" PRIu64 " ms; lost %" PRIu64,
	    r->span_ms / 1000, r->span_ms % 1000 / 100, r->out,
	    r->min_us / 1000, r->min_us % 1000, r->p50_us / 1000,
	    r->p50_us % 1000, r->p99_us / 1000, r->p99_us % 1000,
	    r->max_us / 1000, r->max_us % 1000, lost);
	for (i = 0; i < XC_DROP__MAX; i++) {
		if (r->drop[i] == 0)
			continue;
		ADD("%s%s %" PRIu64, sep, xc_drop_name((enum xc_drop)i),
		    r->drop[i]);
		sep = ", ";
	}
	if (lost)
		ADD(")");
	ADD("; duplicated %" PRIu64 ", reordered %" PRIu64
	    "; rate %" PRIu64 ".%03" PRIu64 " Mbit/s", r->dup, r->reordered,
	    r->rate_bps / 1000000, r->rate_bps % 1000000 / 1000);
#undef ADD
	if (o >= len && len)
		buf[len - 1] = '\0';
}

/**
 * xc_impair_report_json() - a report as a JSON object
 * @r:		report
 * @j:		JSON being written
 * @key:	the object's key
 */
void xc_impair_report_json(const struct xc_impair_report *r,
			   struct xc_json *j, const char *key)
{
	unsigned int i;

	xc_json_open(j, key, '{');
	xc_json_u64(j, "window-ms", r->span_ms);
	xc_json_u64(j, "delayed", r->out);
	xc_json_u64(j, "delay-min-us", r->min_us);
	xc_json_u64(j, "delay-p50-us", r->p50_us);
	xc_json_u64(j, "delay-p99-us", r->p99_us);
	xc_json_u64(j, "delay-max-us", r->max_us);
	xc_json_open(j, "dropped", '{');
	for (i = 0; i < XC_DROP__MAX; i++)
		if (reported(r, (enum xc_drop)i))
			xc_json_u64(j, xc_drop_name((enum xc_drop)i),
				    r->drop[i]);
	xc_json_close(j, '}');
	xc_json_u64(j, "duplicated", r->dup);
	xc_json_u64(j, "reordered", r->reordered);
	xc_json_u64(j, "rate-bps", r->rate_bps);
	xc_json_close(j, '}');
}
