/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * offload.c - adapt TSO frames and partial checksums to the receiving end
 *
 * Theory of operation: a guest with offloads hands over TCP frames of up to
 * 64 KB (TSO) and frames whose TCP/UDP checksum holds only the pseudo-header
 * sum (partial checksum). The vhost library reports them on the mbuf:
 * RTE_MBUF_F_RX_LRO with tso_segsz for the first, RX_L4_CKSUM_NONE for the
 * second. If the receiving end negotiated the matching feature
 * (GUEST_TSO4/6, GUEST_UFO, GUEST_CSUM), the frame goes through unchanged,
 * with the Tx flags that make the vhost library write the same virtio-net
 * header for the receiver. If not, xcable does the work itself: rte_gso cuts
 * TCP/IPv4 frames into segments and UDP/IPv4 datagrams into IP fragments;
 * TCP/IPv6 frames (which rte_gso 22.11 cannot do) are copied into segments
 * here; checksums are completed in software. Every frame the receiver gets
 * then carries correct checksums and fits its size limit.
 *
 * Nothing in the metadata is trusted: the headers are parsed again from
 * the bytes (rte_net_get_ptype), and a frame whose lengths, MSS or
 * protocol contradict its bytes is dropped as bad-offload. Partial checksums
 * over IPv6 extension headers are completed here rather than passed on,
 * since the vhost library's pseudo-header helper assumes there are none.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_net.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "offload.h"

/* virtio-net feature bits (virtio spec 5.1.3) */
#define VNET_F_GUEST_CSUM	1
#define VNET_F_GUEST_TSO4	7
#define VNET_F_GUEST_TSO6	8
#define VNET_F_GUEST_UFO	10
#define VNET_F_MRG_RXBUF	15

#define XC_FRAME_STD		1518	/* 1500 + Ethernet header + one tag */
#define XC_FRAME_ANY		65535	/* a receiver with large buffers */
#define XC_TAGS			8	/* up to two VLAN tags above the MTU */

#define XC_HDR_MAX		256	/* longest headers of a TSO frame */

#define TCP_FIN			0x01
#define TCP_PSH			0x08
#define TCP_CWR			0x80

/**
 * xc_caps_from_virtio() - what a guest can receive, from its features
 * @features:	negotiated virtio-net features
 * @mtu:	MTU the guest announced (VIRTIO_NET_F_MTU), or <= 0
 *
 * Return: packed capabilities (see xc_caps_pack())
 */
uint64_t xc_caps_from_virtio(uint64_t features, int mtu)
{
	uint32_t flags = 0, max;

	if (features & (1ULL << VNET_F_GUEST_CSUM)) {
		flags |= XC_CAP_CSUM;
		/* segmentation offloads require GUEST_CSUM (spec 5.1.3.1) */
		if (features & (1ULL << VNET_F_GUEST_TSO4))
			flags |= XC_CAP_TSO4;
		if (features & (1ULL << VNET_F_GUEST_TSO6))
			flags |= XC_CAP_TSO6;
		if (features & (1ULL << VNET_F_GUEST_UFO))
			flags |= XC_CAP_UFO;
	}
	/* without mergeable or large buffers a guest posts buffers for one
	 * standard frame (Linux: GOOD_PACKET_LEN), or for its MTU */
	if (features & ((1ULL << VNET_F_MRG_RXBUF) |
			(1ULL << VNET_F_GUEST_TSO4) |
			(1ULL << VNET_F_GUEST_TSO6) | (1ULL << VNET_F_GUEST_UFO)))
		max = XC_FRAME_ANY;
	else
		max = XC_FRAME_STD;
	if (mtu > 0 && (uint32_t)mtu + RTE_ETHER_HDR_LEN + XC_TAGS > max)
		max = (uint32_t)mtu + RTE_ETHER_HDR_LEN + XC_TAGS;
	return xc_caps_pack(flags, max);
}

/**
 * xc_caps_describe() - name what a receiver takes, for people
 * @caps:	packed capabilities
 * @buf:	filled with e.g. "csum tso4 tso6", or "no offloads"
 * @len:	size of @buf
 */
void xc_caps_describe(uint64_t caps, char *buf, size_t len)
{
	uint32_t f = xc_caps_flags(caps);

	snprintf(buf, len, "%s%s%s%s%s", f ? "" : " no offloads",
		 f & XC_CAP_CSUM ? " csum" : "", f & XC_CAP_TSO4 ? " tso4" : "",
		 f & XC_CAP_TSO6 ? " tso6" : "", f & XC_CAP_UFO ? " ufo" : "");
	memmove(buf, buf + (buf[0] == ' '), strlen(buf) + 1 - (buf[0] == ' '));
}

/**
 * xc_off_init() - set up the software offload state of a direction
 * @o:		state
 * @direct:	mbufs for segment headers and copied segments
 * @indirect:	mbufs that point into the original frame (rte_gso)
 */
void xc_off_init(struct xc_off *o, struct rte_mempool *direct,
		 struct rte_mempool *indirect)
{
	memset(o, 0, sizeof(*o));
	o->gso.direct_pool = direct;
	o->gso.indirect_pool = indirect;
	o->gso.gso_types = RTE_ETH_TX_OFFLOAD_TCP_TSO |
			   RTE_ETH_TX_OFFLOAD_UDP_TSO;
	o->gso.flag = 0;	/* IPv4 ID increments per segment */
	o->pool = direct;
}

/**
 * set_ol() - set the offload flags of a frame, keeping the flag that says
 *	      where its buffer lives (an external buffer must stay one)
 * @m:		frame
 * @flags:	RTE_MBUF_F_TX_* flags
 */
static void set_ol(struct rte_mbuf *m, uint64_t flags)
{
	m->ol_flags = (m->ol_flags & RTE_MBUF_F_EXTERNAL) | flags;
}

/**
 * struct hdrs - a frame's headers, as parsed from its bytes
 * @l2:		Ethernet header length, VLAN tags included
 * @l3:		IP header length, options and IPv6 extensions included
 * @l4:		TCP or UDP header length
 * @v4:		IPv4 (else IPv6)
 * @tcp:	TCP (else UDP)
 * @l4_len:	TCP/UDP length (header and payload) the IP header gives
 */
struct hdrs {
	uint32_t l2;
	uint32_t l3;
	uint32_t l4;
	bool v4;
	bool tcp;
	uint32_t l4_len;
};

/**
 * parse() - read the headers of a frame and check them against its length
 * @m:		frame
 * @h:		filled
 * @exact:	the IP length must cover the frame exactly (TSO frames);
 *		otherwise Ethernet padding after it is allowed
 *
 * Return: 0 if the frame is TCP or UDP over IPv4/IPv6 with consistent
 *	   lengths and all headers in its first segment, -EINVAL otherwise
 */
static int parse(const struct rte_mbuf *m, struct hdrs *h, bool exact)
{
	struct rte_net_hdr_lens hl;
	uint32_t pt, l4t, ip_end;

	pt = rte_net_get_ptype(m, &hl, RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK |
			       RTE_PTYPE_L4_MASK);
	l4t = pt & RTE_PTYPE_L4_MASK;
	if (l4t != RTE_PTYPE_L4_TCP && l4t != RTE_PTYPE_L4_UDP)
		return -EINVAL;
	h->v4 = RTE_ETH_IS_IPV4_HDR(pt);
	if (!h->v4 && !RTE_ETH_IS_IPV6_HDR(pt))
		return -EINVAL;
	h->tcp = l4t == RTE_PTYPE_L4_TCP;
	h->l2 = hl.l2_len;
	h->l3 = hl.l3_len;
	h->l4 = hl.l4_len;
	if ((h->tcp && h->l4 < sizeof(struct rte_tcp_hdr)) ||
	    h->l2 + h->l3 + h->l4 > rte_pktmbuf_data_len(m))
		return -EINVAL;
	if (h->v4) {
		const struct rte_ipv4_hdr *ip =
			rte_pktmbuf_mtod_offset(m, const void *, h->l2);

		ip_end = h->l2 + rte_be_to_cpu_16(ip->total_length);
	} else {
		const struct rte_ipv6_hdr *ip =
			rte_pktmbuf_mtod_offset(m, const void *, h->l2);

		ip_end = h->l2 + sizeof(*ip) +
			 rte_be_to_cpu_16(ip->payload_len);
	}
	if (h->l3 < (h->v4 ? sizeof(struct rte_ipv4_hdr) :
			     sizeof(struct rte_ipv6_hdr)) ||
	    ip_end < h->l2 + h->l3 + h->l4 || ip_end > m->pkt_len ||
	    (exact && ip_end != m->pkt_len))
		return -EINVAL;
	h->l4_len = ip_end - h->l2 - h->l3;
	if (!h->tcp) {
		const struct rte_udp_hdr *u = rte_pktmbuf_mtod_offset(
			m, const struct rte_udp_hdr *, h->l2 + h->l3);

		if (rte_be_to_cpu_16(u->dgram_len) != h->l4_len)
			return -EINVAL;	/* UDP and IP lengths disagree */
	}
	return 0;
}

/**
 * pseudo_sum() - one's complement sum of the pseudo-header, unfolded
 * @m:		frame, headers in its first segment
 * @h:		its headers
 * @l4_len:	TCP/UDP length to put in it
 *
 * Return: the 32-bit running sum
 */
static uint32_t pseudo_sum(const struct rte_mbuf *m, const struct hdrs *h,
			   uint32_t l4_len)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, h->l2);
	uint32_t sum;

	if (h->v4)
		sum = __rte_raw_cksum(ip + 12, 8, 0);	/* source, dest */
	else
		sum = __rte_raw_cksum(ip + 8, 32, 0);
	sum += rte_cpu_to_be_16(h->tcp ? IPPROTO_TCP : IPPROTO_UDP);
	sum += rte_cpu_to_be_16((uint16_t)(l4_len >> 16));
	sum += rte_cpu_to_be_16((uint16_t)l4_len);
	return sum;
}

/**
 * fold() - fold a 32-bit running sum to 16 bits
 * @sum:	running sum
 *
 * Return: folded sum, not complemented
 */
static uint16_t fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/**
 * set_l4_cksum() - write the TCP or UDP checksum field of a frame
 * @m:		frame, headers in its first segment
 * @h:		its headers
 * @v:		value, in network order
 */
static void set_l4_cksum(struct rte_mbuf *m, const struct hdrs *h, uint16_t v)
{
	uint8_t *l4 = rte_pktmbuf_mtod_offset(m, uint8_t *, h->l2 + h->l3);

	/* the field may be unaligned: copy bytes */
	memcpy(l4 + (h->tcp ? offsetof(struct rte_tcp_hdr, cksum) :
			      offsetof(struct rte_udp_hdr, dgram_cksum)),
	       &v, sizeof(v));
}

/**
 * fill_cksum() - complete the TCP/UDP checksum of a frame in software
 * @m:		frame, headers in its first segment
 * @h:		its headers
 *
 * Return: 0, or -EINVAL if the frame is shorter than its headers say
 */
static int fill_cksum(struct rte_mbuf *m, const struct hdrs *h)
{
	uint16_t raw, c;
	uint32_t sum;

	set_l4_cksum(m, h, 0);
	if (rte_raw_cksum_mbuf(m, h->l2 + h->l3, h->l4_len, &raw))
		return -EINVAL;
	sum = pseudo_sum(m, h, h->l4_len) + raw;
	c = (uint16_t)~fold(sum);
	if (c == 0 && !h->tcp)
		c = 0xffff;	/* UDP: 0 means "no checksum" */
	set_l4_cksum(m, h, c);
	return 0;
}

/**
 * set_partial() - leave the checksum to the receiver: pseudo-header sum in
 *		   the field and the Tx flags that make vhost say NEEDS_CSUM
 * @m:		frame, headers in its first segment
 * @h:		its headers
 */
static void set_partial(struct rte_mbuf *m, const struct hdrs *h)
{
	set_l4_cksum(m, h, fold(pseudo_sum(m, h, h->l4_len)));
	m->l2_len = h->l2;
	m->l3_len = h->l3;
	m->l4_len = h->l4;
	set_ol(m, (h->v4 ? RTE_MBUF_F_TX_IPV4 : RTE_MBUF_F_TX_IPV6) |
		      (h->tcp ? RTE_MBUF_F_TX_TCP_CKSUM :
				RTE_MBUF_F_TX_UDP_CKSUM));
}

/**
 * finish_seg() - give one segment made here or by rte_gso its checksums
 * @s:		segment, headers in its first mbuf, lengths already right
 * @h:		headers of the original frame (same lengths)
 * @partial:	the receiver completes the L4 checksum
 *
 * Return: 0, or -EINVAL if the segment cannot be summed
 */
static int finish_seg(struct rte_mbuf *s, const struct hdrs *h, bool partial)
{
	struct hdrs sh = *h;

	sh.l4_len = s->pkt_len - h->l2 - h->l3;
	if (h->v4) {
		struct rte_ipv4_hdr *ip =
			rte_pktmbuf_mtod_offset(s, struct rte_ipv4_hdr *, h->l2);

		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	/* a segment's first mbuf is always a direct one of ours, but rte_gso
	 * copies the original's flags into it: start from none */
	s->ol_flags = 0;
	if (partial) {
		set_partial(s, &sh);
		return 0;
	}
	return fill_cksum(s, &sh);
}

/**
 * copy_range() - append bytes of one mbuf chain to another, adding mbufs
 * @dst:	chain to append to
 * @src:	chain to copy from
 * @off:	offset in @src
 * @len:	bytes to copy
 * @pool:	where new mbufs come from
 *
 * Return: 0, or -ENOMEM
 */
static int copy_range(struct rte_mbuf *dst, const struct rte_mbuf *src,
		      uint32_t off, uint32_t len, struct rte_mempool *pool)
{
	struct rte_mbuf *last = rte_pktmbuf_lastseg(dst);

	while (len) {
		uint16_t room = rte_pktmbuf_tailroom(last), n;
		const void *p;

		if (room == 0) {
			struct rte_mbuf *nm = rte_pktmbuf_alloc(pool);

			if (nm == NULL)
				return -ENOMEM;
			last->next = nm;
			last = nm;
			dst->nb_segs++;
			continue;
		}
		n = (uint16_t)RTE_MIN((uint32_t)room, len);
		p = rte_pktmbuf_read(src, off,  n,
				     rte_pktmbuf_mtod_offset(last, void *,
							     last->data_len));
		if (p == NULL)
			return -EINVAL;
		if (p != rte_pktmbuf_mtod_offset(last, void *, last->data_len))
			memcpy(rte_pktmbuf_mtod_offset(last, void *,
						       last->data_len), p, n);
		last->data_len += n;
		dst->pkt_len += n;
		off += n;
		len -= n;
	}
	return 0;
}

/**
 * seg_tcp_copy() - cut a TCP/IPv6 frame into segments by copying
 *		    (rte_gso 22.11 does not segment IPv6)
 * @o:		offload state
 * @m:		frame, headers parsed into @h
 * @h:		its headers
 * @mss:	payload bytes per segment
 * @out:	segments
 * @n:		number of segments to make
 *
 * Return: 0, or -ENOMEM (nothing is left allocated)
 */
static int seg_tcp_copy(struct xc_off *o, struct rte_mbuf *m,
			const struct hdrs *h, uint32_t mss,
			struct rte_mbuf **out, unsigned int n)
{
	uint32_t hlen = h->l2 + h->l3 + h->l4, payload = m->pkt_len - hlen;
	const struct rte_tcp_hdr *th0 =
		rte_pktmbuf_mtod_offset(m, const struct rte_tcp_hdr *,
					h->l2 + h->l3);
	uint32_t seq0 = rte_be_to_cpu_32(th0->sent_seq);
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint32_t off = i * mss, len = RTE_MIN(mss, payload - off);
		struct rte_mbuf *s = rte_pktmbuf_alloc(o->pool);
		struct rte_ipv6_hdr *ip6;
		struct rte_tcp_hdr *th;

		if (s == NULL || copy_range(s, m, 0, hlen, o->pool) ||
		    copy_range(s, m, hlen + off, len, o->pool)) {
			rte_pktmbuf_free(s);
			while (i)
				rte_pktmbuf_free(out[--i]);
			return -ENOMEM;
		}
		th = rte_pktmbuf_mtod_offset(s, struct rte_tcp_hdr *,
					     h->l2 + h->l3);
		th->sent_seq = rte_cpu_to_be_32(seq0 + off);
		if (i + 1 < n)
			th->tcp_flags &= (uint8_t)~(TCP_FIN | TCP_PSH);
		if (i > 0)
			th->tcp_flags &= (uint8_t)~TCP_CWR;
		ip6 = rte_pktmbuf_mtod_offset(s, struct rte_ipv6_hdr *, h->l2);
		ip6->payload_len = rte_cpu_to_be_16(
			(uint16_t)(s->pkt_len - h->l2 - sizeof(*ip6)));
		out[i] = s;
	}
	return 0;
}

/**
 * segment() - cut a TSO/UFO frame for a receiver that cannot take it whole
 * @o:		offload state
 * @m:		frame, headers parsed into @h; still the caller's
 * @h:		its headers
 * @partial:	the receiver completes checksums (GUEST_CSUM)
 * @out:	segments
 * @room:	size of @out
 * @why:	drop reason on failure
 *
 * Return: number of segments, or 0 on failure with @why set
 */
static unsigned int segment(struct xc_off *o, struct rte_mbuf *m,
			    const struct hdrs *h, bool partial,
			    struct rte_mbuf **out, unsigned int room,
			    enum xc_drop *why)
{
	uint32_t hlen = h->l2 + h->l3 + h->l4, mss = m->tso_segsz;
	unsigned int n, i;
	int rc;

	if (!h->tcp) {
		/* UFO: one UDP datagram in IP fragments; its checksum covers
		 * the whole datagram, so complete it first */
		if (!h->v4) {
			*why = XC_DROP_UNSUPPORTED;
			return 0;
		}
		if (fill_cksum(m, h)) {
			*why = XC_DROP_BAD_OFFLOAD;
			return 0;
		}
		set_ol(m, RTE_MBUF_F_TX_UDP_SEG | RTE_MBUF_F_TX_IPV4);
	} else {
		set_ol(m, RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4);
	}
	m->l2_len = h->l2;
	m->l3_len = h->l3;
	m->l4_len = h->l4;
	n = (m->pkt_len - hlen + mss - 1) / mss;
	if (n > room) {
		*why = XC_DROP_BAD_OFFLOAD;
		return 0;
	}
	if (h->tcp && !h->v4) {
		if (seg_tcp_copy(o, m, h, mss, out, n)) {
			*why = XC_DROP_NO_MBUF;
			return 0;
		}
		rc = (int)n;
	} else {
		o->gso.gso_size = (uint16_t)RTE_MIN(hlen + mss, 65535u);
		if (!h->tcp)
			o->gso.gso_size = (uint16_t)RTE_MIN(h->l2 + h->l3 + mss,
							    65535u);
		rc = rte_gso_segment(m, &o->gso, out, (uint16_t)room);
		if (rc <= 0) {	/* 0 cannot be: the frame is > hlen + mss */
			*why = rc == -ENOMEM ? XC_DROP_NO_MBUF :
					       XC_DROP_BAD_OFFLOAD;
			return 0;
		}
		if (h->tcp)
			for (i = 1; i < (unsigned int)rc; i++) {
				struct rte_tcp_hdr *th = rte_pktmbuf_mtod_offset(
					out[i], struct rte_tcp_hdr *,
					h->l2 + h->l3);

				th->tcp_flags &= (uint8_t)~TCP_CWR;
			}
	}
	for (i = 0; i < (unsigned int)rc; i++) {
		if (!h->tcp) {
			/* fragments: only IP checksums; UDP's is done */
			struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
				out[i], struct rte_ipv4_hdr *, h->l2);

			ip->hdr_checksum = 0;
			ip->hdr_checksum = rte_ipv4_cksum(ip);
			out[i]->ol_flags = 0;	/* as in finish_seg() */
		} else if (finish_seg(out[i], h, partial)) {
			rte_pktmbuf_free_bulk(out, (unsigned int)rc);
			*why = XC_DROP_BAD_OFFLOAD;
			return 0;
		}
	}
	return (unsigned int)rc;
}

/**
 * wait_mbufs() - should a frame that found no mbufs to be segmented into
 *		  wait for its pool to grow, rather than be dropped?
 * @o:		offload state of the direction
 *
 * A cable's pool starts small and the main thread grows it (pool.c): a
 * busy guest's frames fill it before the first growth. The frame waits
 * in the raw queue (its guest's ring backs up meanwhile) for at most
 * XC_SEG_WAIT_MS, then it is dropped, which frees its mbufs: a pool at
 * its cap, held by frames that all wait for more, cannot stall the
 * direction.
 *
 * Return: true to keep the frame and try again next round
 */
static bool wait_mbufs(struct xc_off *o)
{
	uint64_t now = rte_get_tsc_cycles();

	if (o->short_since == 0) {
		o->short_since = now;
		return true;
	}
	return now - o->short_since <
	       rte_get_tsc_hz() / 1000 * XC_SEG_WAIT_MS;
}

/**
 * xc_off_fixup() - make one frame fit for the receiving end
 * @o:		offload state of the direction
 * @m:		frame as received; consumed unless -ENOSPC or -ENOBUFS is
 *		returned
 * @caps:	packed capabilities of the receiving end
 * @out:	where the frame, or its segments, go
 * @room:	free entries in @out
 * @st:		counters of the direction (drops, software work)
 *
 * Return: number of frames put in @out (0: dropped and counted), or
 *	   -ENOSPC if the frame needs more than @room entries and @room is
 *	   less than XC_SEG_MAX (try again with more room; @m is untouched),
 *	   or -ENOBUFS if no mbufs were left to segment it into (try again
 *	   later; @m is as received; see wait_mbufs())
 */
int xc_off_fixup(struct xc_off *o, struct rte_mbuf *m, uint64_t caps,
		 struct rte_mbuf **out, unsigned int room,
		 struct xc_dir_stats *st)
{
	uint32_t flags = xc_caps_flags(caps), max = xc_caps_max_frame(caps);
	uint64_t ol = m->ol_flags;
	enum xc_drop why = XC_DROP_BAD_OFFLOAD;
	struct hdrs h;
	unsigned int n;

	if (room == 0)
		return -ENOSPC;
	if (ol & RTE_MBUF_F_RX_LRO) {
		uint32_t mss = m->tso_segsz, need;
		bool whole;

		if (mss == 0 || parse(m, &h, true) ||
		    h.l2 + h.l3 + h.l4 > XC_HDR_MAX)
			goto drop;
		if (h.l2 + h.l3 + h.l4 + mss > max) {
			why = XC_DROP_TOO_BIG;
			goto drop;
		}
		if (m->pkt_len <= h.l2 + h.l3 + h.l4 + mss) {
			/* a "TSO" frame of one segment: a checksum job */
			goto csum;
		}
		whole = h.tcp ? (flags & (h.v4 ? XC_CAP_TSO4 : XC_CAP_TSO6)) :
				(flags & XC_CAP_UFO);
		if (whole && h.v4 == false && h.l3 != sizeof(struct rte_ipv6_hdr))
			whole = false;	/* see the note at the top */
		if (whole) {
			if (m->pkt_len > XC_FRAME_ANY) {
				why = XC_DROP_TOO_BIG;
				goto drop;
			}
			m->l2_len = h.l2;
			m->l3_len = h.l3;
			m->l4_len = h.l4;
			set_ol(m, (h.v4 ? RTE_MBUF_F_TX_IPV4 :
					      RTE_MBUF_F_TX_IPV6) |
				      (h.tcp ? RTE_MBUF_F_TX_TCP_SEG |
					       RTE_MBUF_F_TX_TCP_CKSUM :
					       RTE_MBUF_F_TX_UDP_SEG |
					       RTE_MBUF_F_TX_UDP_CKSUM));
			out[0] = m;
			return 1;
		}
		need = (m->pkt_len - h.l2 - h.l3 - h.l4 + mss - 1) / mss;
		if (need > room && room < XC_SEG_MAX)
			return -ENOSPC;
		n = segment(o, m, &h, (flags & XC_CAP_CSUM) != 0, out, room,
			    &why);
		if (n == 0 && why == XC_DROP_NO_MBUF && wait_mbufs(o)) {
			m->ol_flags = ol;	/* as received, for next time */
			return -ENOBUFS;
		}
		o->short_since = 0;
		if (n == 0)
			goto drop;
		rte_pktmbuf_free(m);
		xc_stat_add(&st->seg_frames, 1);
		xc_stat_add(&st->seg_out, n);
		if (!(flags & XC_CAP_CSUM))
			xc_stat_add(&st->csum_filled, n);
		return (int)n;
	}
	if (m->pkt_len > max) {
		why = XC_DROP_TOO_BIG;
		goto drop;
	}
	if ((ol & RTE_MBUF_F_RX_L4_CKSUM_MASK) != RTE_MBUF_F_RX_L4_CKSUM_NONE) {
		set_ol(m, 0);	/* complete as it is */
		out[0] = m;
		return 1;
	}
	if (parse(m, &h, false))
		goto drop;
csum:
	if ((flags & XC_CAP_CSUM) &&
	    (h.v4 || h.l3 == sizeof(struct rte_ipv6_hdr))) {
		set_partial(m, &h);
	} else {
		if (fill_cksum(m, &h))
			goto drop;
		set_ol(m, 0);
		xc_stat_add(&st->csum_filled, 1);
	}
	out[0] = m;
	return 1;
drop:
	rte_pktmbuf_free(m);
	xc_stat_add(&st->drop[why], 1);
	return 0;
}
