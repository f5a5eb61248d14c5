/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * coalesce.c - hand a guest the TCP segments that came from a wire as TSO
 *		frames, as a NIC's GRO hands them to its kernel
 *
 * Theory of operation. A guest's 64 KB TSO frame that crosses a trunk, a
 * VXLAN tunnel or a kernel interface leaves xcable as MSS-sized segments
 * (the wire takes no more), and the xcable at the other side would hand
 * the receiving guest each segment alone: 45 frames where a local cable
 * hands over one. A guest pays per frame received (its driver, its own
 * GRO; under TCG dearly), so the wire's cable was slower than a local one
 * by what the receiver spent. This stage, which the kinds of a wire give
 * every direction from their ends (xc_end_ops.rx_stage), joins again the
 * segments of one TCP stream that arrive one after the other in a burst,
 * into one frame with a TSO header (gso_size the segments' MSS), for a
 * guest that negotiated GUEST_TSO4 (GUEST_TSO6 for IPv6); the guest's
 * kernel takes it as it takes a local cable's frames, and would cut it
 * into the same segments if it forwarded it.
 *
 * It joins only what Linux's GRO would, and keeps every frame's order:
 * - untagged TCP over IPv4 without IP options or fragments, or over IPv6
 *   without extension headers, each segment one mbuf, its IP length
 *   exactly its frame's;
 * - segments that follow each other in the burst, with nothing between
 *   them: a frame of anything else ends the run, and goes after it;
 * - of one stream: the same Ethernet addresses, IP addresses, TOS, TTL,
 *   DF (IPv6: traffic class, flow label, hop limit), ports,
 *   acknowledgement, window and TCP options; each segment's sequence
 *   number where the one before ended and (IPv4) its IP ID one more;
 * - only ACK set (a PSH segment is joined last); every segment the same
 *   size but the last, which may be shorter and ends the frame;
 * - the IPv4 header's checksum right, and the TCP checksum right or left to
 *   the receiver by a sender in xcable's host (partial): a frame with a
 *   TSO header is not checked by the guest, so a corrupted segment must
 *   not hide in one (such segments go alone, for the guest to refuse);
 * - at most XC_COALESCE_SEGS segments and 64 KB of IP length, and what
 *   the receiving end takes.
 * The frame made is the first segment's headers (its IP ID) with the new
 * IP length (and IPv4 checksum), the PSH of its last segment, and the TCP
 * pseudo-header sum (a partial checksum, as a guest's TSO frame carries);
 * the other segments' payloads are chained after it, their headers cut
 * off, without a copy. Tagged frames pass as they came.
 *
 * Counted: "coalesced" frames made, "segments-coalesced" segments they
 * took, so that the direction's invariant (stats.h) still holds. No
 * allocation, no syscall; a burst with nothing to join is looked at once.
 */
#include <stdbool.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>

#include "coalesce.h"

#define ETH_LEN		RTE_ETHER_HDR_LEN
#define IP_LEN		sizeof(struct rte_ipv4_hdr)
#define IP6_LEN		sizeof(struct rte_ipv6_hdr)
#define TCP_LEN		sizeof(struct rte_tcp_hdr)
#define IP_MAX		65535u	/* largest IP length field */

/**
 * struct seg - a segment's headers, parsed from its bytes
 * @eth:	its Ethernet header
 * @ip:		its IPv4 header, right after it, or NULL
 * @ip6:	or its IPv6 header
 * @tcp:	its TCP header, right after the IP header
 * @l3:		bytes of the IP header
 * @hlen:	bytes of the three headers
 * @payload:	bytes of TCP payload
 */
struct seg {
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_ipv6_hdr *ip6;
	struct rte_tcp_hdr *tcp;
	uint32_t l3;
	uint32_t hlen;
	uint32_t payload;
};

/**
 * struct run - the frame being made of a run of segments
 * @head:	its first segment, whose headers it keeps
 * @tail:	its last mbuf
 * @h:		the first segment's headers
 * @next_seq:	the sequence number the next segment must have
 * @next_id:	the IP ID the next segment must have (IPv4)
 * @ip_len:	its IP length field so far (IPv4: total length; IPv6:
 *		payload length)
 * @n:		segments in it
 * @closed:	a shorter or PSH segment ended it
 */
struct run {
	struct rte_mbuf *head;
	struct rte_mbuf *tail;
	struct seg h;
	uint32_t next_seq;
	uint16_t next_id;
	uint32_t ip_len;
	unsigned int n;
	bool closed;
};

/**
 * tcp_sum_ok() - is a segment's TCP checksum right?
 * @s:		the segment, headers and payload in one mbuf
 *
 * Return: true if the sum over pseudo-header, header and payload checks
 */
static bool tcp_sum_ok(const struct seg *s)
{
	uint32_t sum = s->ip ? rte_ipv4_phdr_cksum(s->ip, 0) :
			       rte_ipv6_phdr_cksum(s->ip6, 0);

	sum += rte_raw_cksum(s->tcp, s->hlen - ETH_LEN - s->l3 + s->payload);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

/**
 * ip_parse() - the IP header of a frame that may be a segment: IPv4
 *		without options or fragments, or IPv6 without extension
 *		headers, carrying TCP
 * @s:		@eth set; @ip or @ip6, @tcp and @l3 filled
 * @len:	the frame's bytes, at least ETH_LEN + IP_LEN + TCP_LEN
 *
 * Return: the bytes after the IP header its length field says, 0 if the
 *	   frame is none of those, or that length is not its own (padded,
 *	   or cut short)
 */
static uint32_t ip_parse(struct seg *s, uint32_t len)
{
	uint32_t tot;

	s->ip = NULL;
	s->ip6 = NULL;
	if (s->eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		s->ip = (struct rte_ipv4_hdr *)(s->eth + 1);
		if (s->ip->version_ihl != RTE_IPV4_VHL_DEF ||
		    s->ip->next_proto_id != IPPROTO_TCP ||
		    (s->ip->fragment_offset &
		     RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK)))
			return 0;
		tot = rte_be_to_cpu_16(s->ip->total_length);
		s->l3 = IP_LEN;
		s->tcp = (struct rte_tcp_hdr *)(s->ip + 1);
	} else if (s->eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6) &&
		   len >= ETH_LEN + IP6_LEN + TCP_LEN) {
		s->ip6 = (struct rte_ipv6_hdr *)(s->eth + 1);
		if ((rte_be_to_cpu_32(s->ip6->vtc_flow) >> 28) != 6 ||
		    s->ip6->proto != IPPROTO_TCP)
			return 0;
		tot = IP6_LEN + rte_be_to_cpu_16(s->ip6->payload_len);
		s->l3 = IP6_LEN;
		s->tcp = (struct rte_tcp_hdr *)(s->ip6 + 1);
	} else {
		return 0;
	}
	if (ETH_LEN + tot != len || tot <= s->l3)
		return 0;
	return tot - s->l3;
}

/**
 * seg_parse() - may a frame be joined to others, and its headers
 * @m:		the frame, as the stages before left it
 * @s:		filled if so
 *
 * Return: true for a data segment of TCP over IPv4 or IPv6 that
 *	   qualifies (see the top of the file; its TCP checksum is checked
 *	   only once another segment joins it: sum_ok()); false leaves the
 *	   frame as it is
 */
static bool seg_parse(struct rte_mbuf *m, struct seg *s)
{
	uint32_t len = m->data_len, l4, thl;
	uint8_t flags;

	if (m->nb_segs != 1 || len < ETH_LEN + IP_LEN + TCP_LEN ||
	    (m->ol_flags & (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_UDP_SEG)))
		return false;
	s->eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	l4 = ip_parse(s, len);
	if (l4 < TCP_LEN)
		return false;
	thl = (uint32_t)(s->tcp->data_off >> 4) * 4;
	if (thl < TCP_LEN || thl >= l4)
		return false;	/* no payload */
	flags = s->tcp->tcp_flags & (uint8_t)~RTE_TCP_PSH_FLAG;
	if (flags != RTE_TCP_ACK_FLAG)
		return false;
	s->hlen = ETH_LEN + s->l3 + thl;
	s->payload = l4 - thl;
	return s->ip == NULL || rte_raw_cksum(s->ip, IP_LEN) == 0xffff;
}

/**
 * sum_ok() - may a segment's payload go where the guest checks no sum?
 * @m:		the segment
 * @s:		its headers
 *
 * Return: true if its TCP checksum is right, or partial: left to the
 *	   receiver by a sender in this host (fix_offloads() set the flag),
 *	   whose bytes were never on a wire
 */
static bool sum_ok(const struct rte_mbuf *m, const struct seg *s)
{
	return (m->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM) || tcp_sum_ok(s);
}

/**
 * run_start() - begin a frame with a segment
 * @r:		the run
 * @m:		the segment
 * @s:		its headers
 */
static void run_start(struct run *r, struct rte_mbuf *m, const struct seg *s)
{
	r->head = m;
	r->tail = m;
	r->h = *s;
	r->next_seq = rte_be_to_cpu_32(s->tcp->sent_seq) + s->payload;
	r->next_id = s->ip ? (uint16_t)(rte_be_to_cpu_16(s->ip->packet_id) + 1) :
		     0;
	r->ip_len = s->ip ? rte_be_to_cpu_16(s->ip->total_length) :
		    rte_be_to_cpu_16(s->ip6->payload_len);
	r->n = 1;
	r->closed = (s->tcp->tcp_flags & RTE_TCP_PSH_FLAG) != 0;
}

/**
 * same_ip() - are two segments' IP headers those of one stream, the
 *	       next one's IP ID following (IPv4)?
 * @r:		the run
 * @s:		the segment's headers, of the run's IP version
 *
 * Return: true if so
 */
static bool same_ip(const struct run *r, const struct seg *s)
{
	const struct rte_ipv4_hdr *a = r->h.ip, *b = s->ip;
	const struct rte_ipv6_hdr *a6 = r->h.ip6, *b6 = s->ip6;

	if (a6 != NULL)
		return a6->vtc_flow == b6->vtc_flow &&
		       a6->hop_limits == b6->hop_limits &&
		       memcmp(a6->src_addr, b6->src_addr, 16) == 0 &&
		       memcmp(a6->dst_addr, b6->dst_addr, 16) == 0;
	return rte_be_to_cpu_16(b->packet_id) == r->next_id &&
	       a->type_of_service == b->type_of_service &&
	       a->time_to_live == b->time_to_live &&
	       a->fragment_offset == b->fragment_offset &&
	       a->src_addr == b->src_addr && a->dst_addr == b->dst_addr;
}

/**
 * joins() - does a segment continue the run's frame?
 * @r:		the run
 * @s:		the segment's headers
 * @max:	the largest frame the receiving end takes
 *
 * Return: true if it may be appended
 */
static bool joins(const struct run *r, const struct seg *s, uint32_t max)
{
	const struct rte_tcp_hdr *x = r->h.tcp, *y = s->tcp;

	if (r->closed || r->n >= XC_COALESCE_SEGS ||
	    (s->ip6 == NULL) != (r->h.ip6 == NULL) ||
	    s->hlen != r->h.hlen || s->payload > r->h.payload ||
	    r->ip_len + s->payload > IP_MAX ||
	    ETH_LEN + (r->h.ip6 ? IP6_LEN : 0) + r->ip_len + s->payload > max)
		return false;
	if (rte_be_to_cpu_32(y->sent_seq) != r->next_seq || !same_ip(r, s))
		return false;
	if (x->src_port != y->src_port || x->dst_port != y->dst_port ||
	    x->recv_ack != y->recv_ack || x->rx_win != y->rx_win ||
	    x->tcp_urp != y->tcp_urp)
		return false;
	/* Ethernet addresses, and the TCP options after the fixed header */
	return memcmp(r->h.eth, s->eth, 2 * RTE_ETHER_ADDR_LEN) == 0 &&
	       memcmp(x + 1, y + 1, s->hlen - ETH_LEN - s->l3 - TCP_LEN) == 0;
}

/**
 * run_append() - chain a segment's payload to the run's frame
 * @r:		the run
 * @m:		the segment (one mbuf), its headers cut off here
 * @s:		its headers
 */
static void run_append(struct run *r, struct rte_mbuf *m, const struct seg *s)
{
	uint8_t psh = s->tcp->tcp_flags & RTE_TCP_PSH_FLAG;

	rte_pktmbuf_adj(m, (uint16_t)s->hlen);
	r->tail->next = m;
	r->tail = m;
	r->head->nb_segs++;
	r->head->pkt_len += m->pkt_len;
	r->ip_len += s->payload;
	r->next_seq += s->payload;
	r->next_id++;
	r->n++;
	if (psh)
		r->h.tcp->tcp_flags |= psh;
	r->closed = psh || s->payload < r->h.payload;
}

/**
 * run_finish() - give a frame of several segments its headers
 * @d:		direction (its counters)
 * @r:		the run
 */
static void run_finish(struct xc_dir *d, struct run *r)
{
	struct rte_mbuf *m = r->head;
	struct rte_ipv4_hdr *ip = r->h.ip;
	struct rte_ipv6_hdr *ip6 = r->h.ip6;

	if (r->n < 2)
		return;
	if (ip != NULL) {
		ip->total_length = rte_cpu_to_be_16((uint16_t)r->ip_len);
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		r->h.tcp->cksum = rte_ipv4_phdr_cksum(ip, 0);
	} else {
		ip6->payload_len = rte_cpu_to_be_16((uint16_t)r->ip_len);
		r->h.tcp->cksum = rte_ipv6_phdr_cksum(ip6, 0);
	}
	m->l2_len = ETH_LEN;
	m->l3_len = r->h.l3;
	m->l4_len = r->h.hlen - ETH_LEN - r->h.l3;
	m->tso_segsz = (uint16_t)r->h.payload;
	m->ol_flags = (m->ol_flags & RTE_MBUF_F_EXTERNAL) |
		      (ip ? RTE_MBUF_F_TX_IPV4 : RTE_MBUF_F_TX_IPV6) |
		      RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM;
	xc_stat_add(&d->st.coal_frames, 1);
	xc_stat_add(&d->st.coal_in, r->n);
}

/**
 * xc_coalesce_stage() - stage of a direction from a wire's end: join the
 *			 TCP segments of the burst that continue each other
 *			 into TSO frames, for a receiving end that takes
 *			 them (GUEST_TSO4 for IPv4, GUEST_TSO6 for IPv6);
 *			 the burst keeps its order
 * @d:		direction
 * @b:		burst
 */
void xc_coalesce_stage(struct xc_dir *d, struct xc_burst *b)
{
	uint64_t caps = xc_end_caps(d->tx);
	struct run r = { .head = NULL };
	uint32_t max = xc_caps_max_frame(caps), fl = xc_caps_flags(caps);
	uint16_t i, k = 0;
	struct seg s;

	if (!(fl & (XC_CAP_TSO4 | XC_CAP_TSO6)) || b->n < 2)
		return;
	for (i = 0; i < b->n; i++) {
		struct rte_mbuf *m = b->pkts[i];
		bool cand = seg_parse(m, &s) &&
			    (fl & (s.ip ? XC_CAP_TSO4 : XC_CAP_TSO6));

		/* the checksums are summed only when there is something to
		 * join: a lone segment costs no pass over its payload */
		if (r.head != NULL && cand && joins(&r, &s, max) &&
		    sum_ok(m, &s) && (r.n > 1 || sum_ok(r.head, &r.h))) {
			run_append(&r, m, &s);
			continue;
		}
		if (r.head != NULL)
			run_finish(d, &r);
		r.head = NULL;
		if (cand)
			run_start(&r, m, &s);
		b->pkts[k++] = m;
	}
	if (r.head != NULL)
		run_finish(d, &r);
	b->n = k;
}
