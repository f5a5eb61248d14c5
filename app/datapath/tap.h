/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tap.h - copies of the frames crossing a cable end, for a capture: what
 *	   a direction's lcore does for the captures of its ends (tap.c)
 *
 * A capture (control/capture.c) gives each direction that receives from
 * or sends to an end it captures a tap: where the copies go (its ring, in
 * mbufs of its own pool), which frames (its filter), how much of each (its
 * snap length). The direction finds its taps on its slots (struct xc_dir's
 * @tap_in, @tap_out): one load per burst, and no more while no capture
 * runs.
 */
#ifndef XC_TAP_H
#define XC_TAP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

struct rte_bpf;
struct rte_ring;

/**
 * struct xc_tap_stats - what a tap did (written by the lcore that owns its
 *			 direction; read by others atomically)
 * @seen:	frames that crossed it
 * @accepted:	frames its filter accepted (all of them without a filter)
 * @dropped:	accepted frames whose copy could not be made (its pool was
 *		empty) or queued (its ring was full: the reader is slow)
 */
struct xc_tap_stats {
	uint64_t seen;
	uint64_t accepted;
	uint64_t dropped;
};

/**
 * struct xc_tap - one direction's copies for one capture
 * @next:	the tap of another capture on the same slot, or NULL
 *		(written under the taps' lock; read by the lcore)
 * @ring:	where the copies go (the capture's, multi-producer)
 * @pool:	what they are made of (the capture's)
 * @bpf:	the filter, NULL for every frame
 * @snaplen:	bytes of a frame copied at most
 * @ifidx:	the capture's interface (the end) the copies are of
 * @out:	copies of frames sent to the end (else received from it)
 * @slot:	the direction's slot the tap is on, NULL once it is taken
 *		off or the direction is freed (under the taps' lock)
 * @gone:	its direction was freed (its cable removed or made again):
 *		no more copies come (atomic)
 * @st:		what it did
 */
struct xc_tap {
	struct xc_tap *next;
	struct rte_ring *ring;
	struct rte_mempool *pool;
	const struct rte_bpf *bpf;
	uint32_t snaplen;
	uint16_t ifidx;
	bool out;
	struct xc_tap **slot;
	uint32_t gone;
	struct xc_tap_stats st;
};

/**
 * struct xc_tap_meta - what a copy says of its frame, in the headroom of
 *			its first mbuf, before its data
 * @tsc:	when the frame crossed the end
 * @len:	its whole length
 * @ifidx:	the capture's interface
 * @out:	1 outbound (sent to the end), 0 inbound
 */
struct xc_tap_meta {
	uint64_t tsc;
	uint32_t len;
	uint16_t ifidx;
	uint8_t out;
	uint8_t pad;
};

/**
 * xc_tap_meta_of() - where a copy's struct xc_tap_meta is
 * @c:		the copy
 *
 * Return: its metadata
 */
static inline struct xc_tap_meta *xc_tap_meta_of(struct rte_mbuf *c)
{
	return (struct xc_tap_meta *)((char *)c->buf_addr + c->data_off -
				      sizeof(struct xc_tap_meta));
}

/**
 * xc_tap_ref() - take or give back a reference on every segment of a
 *		  frame (a frame sent to a tapped end is copied once the end
 *		  took it: it must live until then)
 * @m:		the frame
 * @v:		+1 or -1
 */
static inline void xc_tap_ref(struct rte_mbuf *m, int16_t v)
{
	for (; m; m = m->next)
		rte_mbuf_refcnt_update(m, v);
}

void xc_tap_copy(struct xc_tap *t, struct rte_mbuf *const *pkts,
		 unsigned int n, uint64_t tsc);
void xc_tap_attach(struct xc_tap *t, struct xc_tap **slot);
bool xc_tap_detach(struct xc_tap *t);
void xc_tap_slot_freed(struct xc_tap **slot);

#endif /* XC_TAP_H */
