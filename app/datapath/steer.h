/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * steer.h - multiqueue receive steering: each flow on one queue of the
 *	     receiving guest, the one it sends that flow on
 *
 * Theory of operation. A guest with several queue pairs sends each flow
 * on the Tx queue of the CPU its sender runs on, and moves a flow to
 * another queue when the sender moves to another CPU. Handing what one
 * guest sent on its queue q to the other guest's queue q would spread
 * one flow over several receive queues, processed by several CPUs, out of
 * order: TCP then retransmits. The virtio specification (1.1, "Automatic
 * receive steering in multiqueue mode") asks the device to steer by flow
 * instead, and to deliver a flow on the receive queue whose transmit
 * queue the receiving guest last used for it. xcable does exactly that:
 *
 * - each end of a multiqueue cable whose port lets several lcores send on
 *   one queue (a vhost port: the vhost library locks each ring) has a
 *   flow table, struct xc_steer: a slot per flow hash holds the queue
 *   the flow goes to in that guest, and when it last carried a frame;
 * - frames sent to that guest go to the queue its table names for their
 *   flow; for a flow it has not sent yet, to a queue chosen by a stable
 *   hash of the flow; frames that are not IPv4 or IPv6 go to the lowest
 *   enabled queue (queue 0), so that they stay in order too;
 * - a frame the guest sends of a flow on queue q moves the flow to q
 *   (the steer stage of the direction that receives it), but only once
 *   no frame of the flow has gone to the guest for XC_STEER_HOLD_MS:
 *   a guest answers one flow from several CPUs (its receive softirq, the
 *   application's window updates), and following each answer at once
 *   would spread the flow over queues again. This is the rule Linux's
 *   receive flow steering keeps: a flow moves to its new CPU only when
 *   what went to the old one has been processed.
 *
 * The flow hash is symmetric: addresses and ports are combined with XOR,
 * so a flow and its replies hash alike (what A sends to B and what B
 * answers land in the same slot). It reads IPv4 and IPv6 addresses, and
 * TCP, UDP and SCTP ports, behind up to two VLAN tags (802.1Q, 802.1ad,
 * 0x9100); a fragment, or an IPv6 packet with extension headers, is
 * hashed by its addresses only, so that all fragments of a datagram stay
 * together. Only the first segment of a frame is read: headers beyond it
 * count as not IP.
 *
 * Threads: every direction feeding a steered end runs on one lcore
 * (lcores.c), so that each of the end's queues has one sender: the vhost
 * library locks a ring, but the vhost PMD's per-queue state (its
 * statistics, the flag its link-down path waits on) expects one thread.
 * The directions receiving from the end may run on another lcore and
 * write its table too; a slot is one 32-bit word, read and written
 * atomically (relaxed): a lost update only moves a flow a moment later,
 * or keeps it where it was a moment longer. The order fields are atomic
 * as well, though today one thread reads and writes them.
 *
 * These functions are pure (no EAL), for the unit tests and the fuzzer.
 */
#ifndef XC_STEER_H
#define XC_STEER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "bounds.h"

#define XC_STEER_SLOTS	4096	/* power of two */
#define XC_STEER_HOLD_MS 100	/* a flow stays on its queue until it has
				 * been this long without a frame to it */
#define XC_STEER_TIME_MASK 0x0fffffffu	/* slot times: 28 bits of ms */

#define XC_STEER_NONE	UINT64_MAX	/* no frames held: no ticket */

/**
 * struct xc_steer - the flow table of one end, and the order of what the
 *		     directions feeding it hold
 * @slot:	per flow hash: bits 0-3 are 1 + the queue the flow goes to
 *		(0: unknown), bits 4-31 the time of the last frame sent to
 *		it or of the last move, in ms modulo 2^28 (lcores, atomic)
 * @ticket:	bursts received by the directions feeding this end, which
 *		number them in the order they were received (those
 *		directions' lcores, atomic)
 * @held:	[q][s]: the ticket of the burst whose frames the direction
 *		from the sender's queue s holds for this end's queue q,
 *		XC_STEER_NONE if it holds none (written by that direction's
 *		lcore, read by the others feeding this end; atomic)
 * @unsorted:	[s]: the ticket of frames the direction from queue s
 *		received but has not steered yet (no queue chosen), or
 *		XC_STEER_NONE (same writers and readers)
 * @n_queues:	queue pairs of the cable (set once)
 *
 * Order across directions: a guest moves a flow from one of its transmit
 * queues to another only once the frames it sent on the old one have been
 * taken from that queue (Linux's ooo_okay), but xcable may still hold
 * them in the direction that took them, waiting for room in the
 * receiver's queue, while the direction of the new queue gets the flow's
 * next frames. So a direction sends to queue q only if no other direction
 * feeding the same end holds older frames for q (xc_steer_may_send()):
 * what was received first is delivered first, per receiving queue. The
 * direction holding the oldest frames is never kept waiting, so all move.
 */
struct xc_steer {
	uint32_t slot[XC_STEER_SLOTS];
	uint64_t ticket;
	uint64_t held[XC_MAX_QUEUES][XC_MAX_QUEUES];
	uint64_t unsorted[XC_MAX_QUEUES];
	unsigned int n_queues;
};

/**
 * xc_steer_init() - an empty flow table: no flow known, nothing held
 * @t:		table
 * @n_queues:	queue pairs of the cable, at most XC_MAX_QUEUES
 */
static inline void xc_steer_init(struct xc_steer *t, unsigned int n_queues)
{
	unsigned int q, s;

	memset(t->slot, 0, sizeof(t->slot));
	t->ticket = 0;
	t->n_queues = n_queues;
	for (q = 0; q < XC_MAX_QUEUES; q++) {
		t->unsorted[q] = XC_STEER_NONE;
		for (s = 0; s < XC_MAX_QUEUES; s++)
			t->held[q][s] = XC_STEER_NONE;
	}
}

/**
 * xc_steer_may_send() - may the direction from the sender's queue @src
 *			 send frames of burst @ticket to queue @q now, or
 *			 does another direction hold older frames for it?
 * @t:		the receiving end's table
 * @src:	the direction's queue on the sending end
 * @q:		the receiving end's queue
 * @ticket:	the burst the direction's frames came in
 *
 * Return: true if no other direction holds older frames for @q, or
 *	   frames it has not steered yet
 */
static inline bool xc_steer_may_send(const struct xc_steer *t, uint16_t src,
				     uint16_t q, uint64_t ticket)
{
	unsigned int s;

	for (s = 0; s < t->n_queues; s++) {
		if (s == src)
			continue;
		if (__atomic_load_n(&t->held[q][s], __ATOMIC_ACQUIRE) < ticket ||
		    __atomic_load_n(&t->unsorted[s], __ATOMIC_ACQUIRE) < ticket)
			return false;
	}
	return true;
}

/**
 * xc_steer_publish() - say which of the receiving end's queues the
 *			direction from queue @src holds frames for
 * @t:		the receiving end's table
 * @src:	the direction's queue on the sending end
 * @held:	bit q set if it holds frames for queue q
 * @ticket:	the burst they came in
 */
static inline void xc_steer_publish(struct xc_steer *t, uint16_t src,
				    uint64_t held, uint64_t ticket)
{
	unsigned int q;

	for (q = 0; q < t->n_queues; q++) {
		uint64_t v = held >> q & 1 ? ticket : XC_STEER_NONE;

		if (__atomic_load_n(&t->held[q][src], __ATOMIC_RELAXED) != v)
			__atomic_store_n(&t->held[q][src], v, __ATOMIC_RELEASE);
	}
}

/**
 * xc_steer_unsorted() - say whether the direction from queue @src has
 *			 received frames it has not steered yet
 * @t:		the receiving end's table
 * @src:	the direction's queue on the sending end
 * @ticket:	their burst, XC_STEER_NONE if there are none
 */
static inline void xc_steer_unsorted(struct xc_steer *t, uint16_t src,
				     uint64_t ticket)
{
	if (__atomic_load_n(&t->unsorted[src], __ATOMIC_RELAXED) != ticket)
		__atomic_store_n(&t->unsorted[src], ticket, __ATOMIC_RELEASE);
}

uint32_t xc_steer_hash(const uint8_t *frame, uint32_t len);

/* xc_steer_slot() - a slot's value: flow on queue @q, at time @now */
static inline uint32_t xc_steer_slot(uint16_t q, uint32_t now)
{
	return (now & XC_STEER_TIME_MASK) << 4 | (uint32_t)(q + 1);
}

/* xc_steer_quiet() - has slot value @s seen no frame for XC_STEER_HOLD_MS
 * at time @now? */
static inline bool xc_steer_quiet(uint32_t s, uint32_t now)
{
	return ((now - (s >> 4)) & XC_STEER_TIME_MASK) >= XC_STEER_HOLD_MS;
}

/**
 * xc_steer_learn() - the guest sent a frame of flow @h on queue @q: move
 *		      the flow there, unless frames of it went to the guest
 *		      within XC_STEER_HOLD_MS (they may still wait in the
 *		      old queue: moving now could overtake them)
 * @t:		the guest's end's table
 * @h:		the flow's hash, from xc_steer_hash(); 0 (not IP) is ignored
 * @q:		queue the frame came on
 * @now:	time in ms
 */
static inline void xc_steer_learn(struct xc_steer *t, uint32_t h, uint16_t q,
				  uint32_t now)
{
	uint32_t *slot = &t->slot[h & (XC_STEER_SLOTS - 1)];
	uint32_t s;

	if (h == 0)
		return;
	s = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if ((s & 0xf) == (uint32_t)q + 1)
		return;
	if ((s & 0xf) == 0 || xc_steer_quiet(s, now))
		__atomic_store_n(slot, xc_steer_slot(q, now), __ATOMIC_RELAXED);
}

/**
 * xc_steer_pick() - the queue to send a frame of flow @h on, and note the
 *		     time, which keeps the flow there (xc_steer_learn())
 * @t:		the receiving guest's end's table
 * @h:		the frame's flow hash; 0 for a frame that is not IP
 * @on:		queues the guest enabled, bit q for queue q; not 0
 * @now:	time in ms
 *
 * Return: the flow's queue if it is enabled; else (a new flow, or its
 *	   queue was disabled) one of the enabled queues chosen by @h,
 *	   which becomes the flow's; the lowest enabled queue for a frame
 *	   that is not IP
 */
static inline uint16_t xc_steer_pick(struct xc_steer *t, uint32_t h,
				     uint64_t on, uint32_t now)
{
	uint32_t *slot = &t->slot[h & (XC_STEER_SLOTS - 1)];
	uint32_t s, v;
	unsigned int k;
	uint16_t q;

	if (h == 0)
		return (uint16_t)__builtin_ctzll(on);
	s = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if ((s & 0xf) && (on >> ((s & 0xf) - 1) & 1)) {
		q = (uint16_t)((s & 0xf) - 1);
	} else {
		for (k = (h >> 16) % (unsigned int)__builtin_popcountll(on);
		     k; k--)
			on &= on - 1;	/* drop the lowest set bit */
		q = (uint16_t)__builtin_ctzll(on);
	}
	v = xc_steer_slot(q, now);
	if (v != s)
		__atomic_store_n(slot, v, __ATOMIC_RELAXED);
	return q;
}

#endif /* XC_STEER_H */
