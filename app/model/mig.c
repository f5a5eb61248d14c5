/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mig.c - what others see of a cable end whose guest is moving (mig.h):
 *	   its state read under its sequence number, told as a line and as
 *	   JSON
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#include "json.h"
#include "mig.h"

/**
 * xc_mig_write() - begin or end a change of a move's state (the main
 *		    thread; readers retry meanwhile)
 * @m:		the move
 */
void xc_mig_write(struct xc_mig *m)
{
	__atomic_add_fetch(&m->seq, 1, __ATOMIC_ACQ_REL);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/**
 * xc_mig_read() - a cable's move as it is now; any thread
 * @src:	the cable's
 * @m:		filled
 */
void xc_mig_read(const struct xc_mig *src, struct xc_mig *m)
{
	uint32_t s1, s2;

	do {
		s1 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
		if (s1 & 1) {
			rte_pause();
			continue;
		}
		memcpy(m, src, sizeof(*m));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s2 = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
		if (s1 == s2)
			return;
	} while (1);
}

/**
 * xc_mig_phase_name() - a phase, for people and programs
 * @phase:	the phase
 *
 * Return: a static string
 */
const char *xc_mig_phase_name(enum xc_mig_phase phase)
{
	switch (phase) {
	case XC_MIG_OPEN:
		return "open";
	case XC_MIG_CONNECTED:
		return "connected";
	case XC_MIG_STOPPED:
		return "source-stopped";
	case XC_MIG_DONE:
		return "done";
	case XC_MIG_FAILED:
		return "failed";
	default:
		return "none";
	}
}

/**
 * ms_between() - milliseconds between two TSC values
 * @a:		the earlier
 * @b:		the later
 *
 * Return: the milliseconds, 0 if @b is not after @a
 */
static uint64_t ms_between(uint64_t a, uint64_t b)
{
	return b > a ? (b - a) * 1000 / rte_get_tsc_hz() : 0;
}

/**
 * xc_mig_text() - a cable's move on one line, for people; any thread
 * @src:	the cable's move
 * @label:	its ends' names
 * @buf:	filled; empty if the cable never moved
 * @len:	size of @buf
 */
void xc_mig_text(const struct xc_mig *src, const char *const label[2],
		 char *buf, size_t len)
{
	uint64_t now = rte_get_tsc_cycles(), left;
	struct xc_mig m;
	int n;

	xc_mig_read(src, &m);
	buf[0] = '\0';
	if (m.phase == XC_MIG_NONE)
		return;
	left = ms_between(now, m.deadline);
	n = snprintf(buf, len, "migration of %s to %s: ", label[m.end & 1],
		     m.to);
	if (n < 0 || (size_t)n >= len)
		return;
	buf += n;
	len -= (size_t)n;
	switch (m.phase) {
	case XC_MIG_OPEN:
		snprintf(buf, len, "open, waiting for the %s (%" PRIu64 ".%01" PRIu64 " s left)",
			 m.remote ? "source's device to stop" :
			 "destination's frontend", left / 1000,
			 left % 1000 / 100);
		break;
	case XC_MIG_CONNECTED:
		snprintf(buf, len, "the destination connected after %" PRIu64 " ms; waiting for the source's device to stop (%" PRIu64 ".%01" PRIu64 " s left)",
			 ms_between(m.opened, m.connected), left / 1000,
			 left % 1000 / 100);
		break;
	case XC_MIG_STOPPED:
		snprintf(buf, len, "the source's device stopped %" PRIu64 " ms ago: frames towards it wait for the destination's %s",
			 ms_between(m.stopped, now),
			 m.remote ? "first frame" : "device");
		break;
	case XC_MIG_DONE:
		snprintf(buf, len, "done %" PRIu64 " ms after the slot opened: frames waited %" PRIu64 ".%03" PRIu64 " ms, %" PRIu64 " dropped",
			 ms_between(m.opened, m.ended), m.waited_us / 1000,
			 m.waited_us % 1000, m.dropped);
		break;
	default:
		if (m.waited_us == 0 && m.dropped == 0)	/* never stopped */
			snprintf(buf, len, "failed: %s", m.why);
		else
			snprintf(buf, len, "failed: %s; frames waited %" PRIu64 ".%03" PRIu64 " ms, %" PRIu64 " dropped",
				 m.why, m.waited_us / 1000, m.waited_us % 1000,
				 m.dropped);
		break;
	}
}

/**
 * xc_mig_json() - a cable's move as a JSON object "migration" (none if it
 *		   never moved); any thread
 * @src:	the cable's move
 * @label:	its ends' names
 * @j:		JSON being written, in the cable's object
 */
void xc_mig_json(const struct xc_mig *src, const char *const label[2],
		 struct xc_json *j)
{
	uint64_t now = rte_get_tsc_cycles();
	struct xc_mig m;

	xc_mig_read(src, &m);
	if (m.phase == XC_MIG_NONE)
		return;
	xc_json_open(j, "migration", '{');
	xc_json_str(j, "end", label[m.end & 1]);
	xc_json_str(j, "to", m.to);
	xc_json_str(j, "phase", xc_mig_phase_name((enum xc_mig_phase)m.phase));
	if (xc_mig_active(&m))
		xc_json_u64(j, "ms-left", ms_between(now, m.deadline));
	if (m.connected)
		xc_json_u64(j, "connected-after-ms",
			    ms_between(m.opened, m.connected));
	if (m.ended)
		xc_json_u64(j, "took-ms", ms_between(m.opened, m.ended));
	xc_json_u64(j, "waited-us", m.waited_us);
	xc_json_u64(j, "dropped", m.dropped);
	if (m.why[0])
		xc_json_str(j, "why", m.why);
	xc_json_close(j, '}');
}
