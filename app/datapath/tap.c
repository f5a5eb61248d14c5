/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tap.c - copies of the frames crossing a cable end, for a capture
 *
 * Theory of operation: a direction holds two slots, each a list of taps
 * (usually none, or one per capture of the end): @tap_in for the frames it
 * receives from its @rx end, @tap_out for those its @tx end took. Its
 * lcore loads a slot once per burst and, only when it holds a tap, runs
 * each tap's filter (rte_bpf, as dpdk-dumpcap does) over the burst and
 * copies what it accepts, at most the snap length of each frame, into an
 * mbuf of the capture's own pool, and queues the copy on the capture's
 * ring. A copy that cannot be made (the pool is empty) or queued (the ring
 * is full: its reader is slow) is counted dropped: the frame itself goes
 * on as always, and the cable's pool is never touched. Frames sent to an
 * end are copied once the end took them (dir.c keeps a reference on each
 * until then), so that a capture holds exactly what went out.
 *
 * Taps are put on and taken off by the captures (the control and stream
 * threads) while directions may be freed by the main thread (a cable
 * removed or made again): one lock, the taps' own, orders the two (never
 * taken by an lcore). An lcore may still be using a tap that was taken
 * off: its capture waits until every lcore passed a poll boundary before
 * it frees it (capture.c). A tap whose direction was freed is told so
 * (@gone): no lcore holds it any more.
 */
#include <pthread.h>

#include <rte_bpf.h>
#include <rte_ring.h>

#include "tap.h"

/* the ends' metadata fits the headroom of the copies */
_Static_assert(RTE_PKTMBUF_HEADROOM >= sizeof(struct xc_tap_meta),
	       "no room for a copy's metadata");

/* taps put on, taken off and forgotten (never taken by an lcore): one
 * lock for the process, since directions of any cable may be freed while
 * any capture ends */
static pthread_mutex_t xc_taps_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * copy_some() - one tap's copies of up to XC_TAP_CHUNK frames
 * @t:		the tap
 * @pkts:	the frames
 * @n:		how many (at most XC_TAP_CHUNK)
 * @tsc:	when they crossed
 */
#define XC_TAP_CHUNK	32
static void copy_some(struct xc_tap *t, struct rte_mbuf *const *pkts,
		      unsigned int n, uint64_t tsc)
{
	struct rte_mbuf *c[XC_TAP_CHUNK];
	uint64_t rc[XC_TAP_CHUNK];
	struct xc_tap_meta *meta;
	unsigned int i, k = 0, q, acc = 0;

	if (t->bpf)
		rte_bpf_exec_burst(t->bpf, (void **)(uintptr_t)pkts, rc, n);
	for (i = 0; i < n; i++) {
		if (t->bpf && rc[i] == 0)
			continue;
		acc++;
		c[k] = rte_pktmbuf_copy(pkts[i], t->pool, 0, t->snaplen);
		if (unlikely(c[k] == NULL))
			continue;	/* counted below */
		meta = xc_tap_meta_of(c[k]);
		meta->tsc = tsc;
		meta->len = pkts[i]->pkt_len;
		meta->ifidx = t->ifidx;
		meta->out = t->out;
		k++;
	}
	q = k ? rte_ring_mp_enqueue_burst(t->ring, (void **)c, k, NULL) : 0;
	if (unlikely(q < k))
		rte_pktmbuf_free_bulk(c + q, k - q);
	__atomic_store_n(&t->st.seen, t->st.seen + n, __ATOMIC_RELAXED);
	__atomic_store_n(&t->st.accepted, t->st.accepted + acc,
			 __ATOMIC_RELAXED);
	if (unlikely(q < acc))
		__atomic_store_n(&t->st.dropped, t->st.dropped + acc - q,
				 __ATOMIC_RELAXED);
}

/**
 * xc_tap_copy() - the copies of a burst for every tap of a slot (the
 *		   lcore that owns the direction)
 * @t:		the slot's first tap
 * @pkts:	the frames: received from the end, or taken by it (still
 *		referenced)
 * @n:		how many
 * @tsc:	when they crossed
 */
void xc_tap_copy(struct xc_tap *t, struct rte_mbuf *const *pkts,
		 unsigned int n, uint64_t tsc)
{
	unsigned int done, k;

	for (; t; t = __atomic_load_n(&t->next, __ATOMIC_ACQUIRE))
		for (done = 0; done < n; done += k) {
			k = RTE_MIN(n - done, (unsigned int)XC_TAP_CHUNK);
			copy_some(t, pkts + done, k, tsc);
		}
}

/**
 * xc_tap_attach() - put a tap on a direction's slot: its lcore copies
 *		     from its next burst on (control thread)
 * @t:		the tap, ready
 * @slot:	the slot (a direction's @tap_in or @tap_out)
 */
void xc_tap_attach(struct xc_tap *t, struct xc_tap **slot)
{
	pthread_mutex_lock(&xc_taps_lock);
	t->next = *slot;
	t->slot = slot;
	__atomic_store_n(slot, t, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&xc_taps_lock);
}

/**
 * xc_tap_detach() - take a tap off its slot, if its direction is still
 *		     there; the lcore may be using it until its next poll
 *		     boundary
 * @t:		the tap
 *
 * Return: true if it was on a slot (wait for the lcores before freeing
 *	   it), false if its direction went (no lcore holds it)
 */
bool xc_tap_detach(struct xc_tap *t)
{
	struct xc_tap **p;
	bool was = false;

	pthread_mutex_lock(&xc_taps_lock);
	for (p = t->slot; p && *p; p = &(*p)->next) {
		if (*p == t) {
			__atomic_store_n(p, t->next, __ATOMIC_RELEASE);
			was = true;
			break;
		}
	}
	t->slot = NULL;
	pthread_mutex_unlock(&xc_taps_lock);
	return was;
}

/**
 * xc_tap_slot_freed() - the direction of a slot is being freed, its lcore
 *			 gone from it: its taps are told (main thread)
 * @slot:	the slot
 */
void xc_tap_slot_freed(struct xc_tap **slot)
{
	struct xc_tap *t;

	pthread_mutex_lock(&xc_taps_lock);
	for (t = *slot; t; t = t->next) {
		t->slot = NULL;
		__atomic_store_n(&t->gone, 1, __ATOMIC_RELEASE);
	}
	*slot = NULL;
	pthread_mutex_unlock(&xc_taps_lock);
}
