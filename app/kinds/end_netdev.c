/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * end_netdev.c - the netdev kind of cable end: any Linux interface (veth,
 *		  vxlan, bridge port, tap, macvlan, NIC), frame for frame,
 *		  optionally in another network namespace
 *		  (left-netdev = IFNAME, left-netns = /run/netns/NAME | PID)
 *
 * Theory of operation
 *
 * The end is a packet socket of its own (AF_PACKET, SOCK_RAW), opened in
 * the interface's namespace: the main thread enters the namespace
 * (setns(CLONE_NEWNET) changes the calling thread only), creates the
 * socket and goes back, so the socket works from xcable's namespace
 * afterwards. It is bound to the interface's ifindex with ETH_P_ALL,
 * promiscuous (PACKET_MR_PROMISC), does not see what it sends itself
 * (PACKET_IGNORE_OUTGOING). It sends through the interface's qdisc, as
 * the kernel's own traffic does: PACKET_QDISC_BYPASS would drop every TSO
 * frame the interface cannot take whole (its direct send refuses what it
 * would have to segment in software).
 *
 * Frames move by recvmmsg()/sendmmsg(), not a TPACKET_V3 ring: a ring
 * would need a copy out of it for every frame anyway (its blocks are
 * given back to the kernel as a whole), while recvmmsg() writes each
 * frame straight into an mbuf the end holds ready, and sendmmsg() reads
 * the mbuf's segments in place. One syscall per burst each way, none
 * when the kernel has nothing (the lcore sleeps on the socket:
 * wait_fd).
 *
 * Offloads, as a tap has them: the socket has PACKET_VNET_HDR, so each
 * frame sent or received is preceded by a virtio-net header. A guest's
 * TSO frame goes to the kernel whole, its header saying how to cut it
 * (the kernel segments it where it must: at a NIC without TSO; a veth
 * hands it on whole), and a partial checksum goes with NEEDS_CSUM; the
 * pseudo-header sum in the frame is written again here, in the form the
 * kernel's segmentation expects (the TCP length included). The other
 * way, what the kernel hands over as one packet (a veth's TSO frames,
 * a NIC's GRO) arrives whole, up to 64 KB, with the header saying so:
 * it becomes a TSO frame for the offload stage, passed whole to a guest
 * that takes it and cut for one that does not. A UDP GSO packet is
 * dropped as unsupported-offload; one the kernel cannot describe in that
 * header (UDP GSO on kernels before 6.2, tunnel GSO) it drops itself,
 * counted in kernel-drops.
 *
 * The kernel takes the outer VLAN tag off every frame a packet socket
 * receives; PACKET_AUXDATA gives it back (tp_vlan_tci, and its TPID in
 * tp_vlan_tpid), and the end puts it back where it was: 4 bytes of
 * headroom are kept in front of each receive for that. So 802.1Q, QinQ
 * (0x88a8), LACP, STP, LLDP and any ethertype cross unchanged.
 *
 * Tagged ends (left-tag = N): several cables on one interface, each under
 * its outer VLAN tag (802.1ad, or 802.1Q with left-tag-type), as the
 * members of a trunk, and compatible with one on the wire. Each end has
 * its own socket, which a classic BPF filter (SO_ATTACH_FILTER, attached
 * before the socket is bound) lets take only the frames under its tag:
 * the kernel sorts them, so the ends share no queue and a guest that
 * falls behind holds up only its own cable. The tag the kernel took off
 * is not put back; a frame sent gets it between its MAC addresses and
 * the rest, as a part of its message (the mbuf is not touched), and its
 * virtio-net header's offsets count it. So a guest's TSO frame crosses
 * the interface whole, tagged, where an af_packet trunk must cut it.
 * Frames under a tag no end has are not this xcable's: it never sees
 * them (they are the interface's, as for any other tag). An end without
 * a tag takes the whole interface, so an interface has either one end
 * without a tag or ends with tags, different ones (end_netdev_def.c).
 *
 * The interface's state is followed by the main thread's housekeeping
 * (the poll end op: two ioctls on the end's socket, in its namespace):
 * IFF_UP and IFF_RUNNING are the end's carrier, its MTU what it takes;
 * an interface that goes away takes the end down (logged), and one of
 * the same name that comes back gets the socket bound to it again.
 *
 * Privileges: CAP_NET_RAW for the socket; joining another namespace
 * needs CAP_SYS_ADMIN as well. Missing ones, unknown interfaces and
 * namespaces are refused by make() with a message naming them (-EINVAL:
 * exit 2 at start-up, an error answer at runtime).
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "caps.h"
#include "coalesce.h"
#include "end_netdev_def.h"
#include "endkind.h"
#include "evlog.h"
#include "fwd.h"
#include "log.h"
#include "logrl.h"
#include "stats.h"
#include "topology.h"

extern int xc_logtype_netdev;
RTE_LOG_REGISTER(xc_logtype_netdev, xcable.netdev, INFO);

#define ND_TAG		4		/* an outer VLAN tag put back */
#define ND_FRAME_MAX	65536		/* bytes received beyond the mbuf */
#define ND_TX_SEGS	48		/* mbuf segments of a frame sent */
#define ND_VNET		sizeof(struct virtio_net_hdr)
#define ND_RCVBUF	(4 << 20)	/* socket buffers asked for */
#define ND_WHERE_MAX	(IFNAMSIZ + XC_SOCK_PATH_MAX + 4)

/**
 * struct nd_stats - counters of an end's packet socket, from the kernel
 *		     (names and meanings: nd_counters)
 * @kernel_packets:	frames the kernel queued on the socket
 * @kernel_drops:	frames it dropped, the socket's buffer full
 */
struct nd_stats {
	uint64_t kernel_packets;
	uint64_t kernel_drops;
};

/**
 * struct nd_end - one netdev end (the end's @priv)
 * @fd:		the packet socket, in the interface's namespace
 * @ifname:	the interface's name
 * @netns:	the namespace as given, empty for xcable's own
 * @where:	what people know the end by ("veth0", "eth1 in /run/...")
 * @ifindex:	the interface the socket is bound to, 0 while it is gone
 *		(main thread)
 * @bound:	the socket was bound once (main thread)
 * @up:		the interface is up and running (main thread writes;
 *		atomic)
 * @caps:	what the end takes: 0 while down (atomic)
 * @mtu:	the interface's MTU, as last seen (main thread)
 * @pool:	the cable's pool, which @rxm come from (set by start())
 * @rxm:	mbufs held ready for the next receive (forwarding lcore)
 * @n_rxm:	how many of @rxm are held
 * @big:	for each message, where a frame longer than its mbuf goes on
 *		(mapped, so that only what large frames use is memory)
 * @rmsg:	receive messages, @riov and @aux their parts
 * @riov:	three parts per message: its virtio-net header (@rvh), the
 *		mbuf, then @big
 * @rvh:	the virtio-net header of each frame received
 * @aux:	the control data of each receive (PACKET_AUXDATA)
 * @tmsg:	send messages, @tiov their parts
 * @tiov:	the virtio-net header (@tvh), then the segments of each
 *		frame sent
 * @tvh:	the virtio-net header of each frame sent
 * @tag:	the end's outer VLAN id, 0 for an end without a tag
 * @tpid:	its tag type (host order)
 * @tagged:	the tag as it goes between a frame's MAC addresses and the
 *		rest (network order), a part of every message sent
 * @hub:	what the views show of the socket: its counters
 * @st:		the socket's counters (main thread writes; atomic)
 */
struct nd_end {
	struct xc_hub hub;
	struct nd_stats st;
	int fd;
	char ifname[IFNAMSIZ];
	char netns[XC_SOCK_PATH_MAX];
	char where[ND_WHERE_MAX];
	uint16_t tag;
	uint16_t tpid;
	uint8_t tagged[ND_TAG];
	int ifindex;
	bool bound;
	uint32_t up;
	uint64_t caps;
	unsigned int mtu;
	struct rte_mempool *pool;
	struct rte_mbuf *rxm[XC_BURST];
	unsigned int n_rxm;
	uint8_t *big;
	struct mmsghdr rmsg[XC_BURST];
	struct iovec riov[XC_BURST][3];
	struct virtio_net_hdr rvh[XC_BURST];
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	} aux[XC_BURST];
	struct mmsghdr tmsg[XC_BURST];
	struct iovec tiov[XC_BURST][3 + ND_TX_SEGS];
	struct virtio_net_hdr tvh[XC_BURST];
};

/**
 * rx_drop() - count a frame the end received but cannot pass on, in the
 *	       direction that receives from it (forwarding lcore)
 * @e:		the end
 * @q:		its queue
 * @len:	the frame's length
 * @why:	enum xc_drop
 */
static void rx_drop(struct xc_end *e, uint16_t q, uint32_t len,
		    enum xc_drop why)
{
	struct xc_dir *d = &e->cable->dir[2 * q + (unsigned int)e->idx];

	xc_stat_add(&d->st.rx_pkts, 1);
	xc_stat_add(&d->st.rx_bytes, len);
	xc_stat_add(&d->st.drop[why], 1);
}

/**
 * rx_refill() - hold an mbuf ready for each receive message
 * @nd:		the end
 * @n:		messages wanted
 *
 * Return: messages ready (fewer if the pool is short)
 */
static unsigned int rx_refill(struct nd_end *nd, unsigned int n)
{
	unsigned int i, want = n - RTE_MIN(n, nd->n_rxm);

	if (want && rte_pktmbuf_alloc_bulk(nd->pool, nd->rxm + nd->n_rxm,
					   want) == 0)
		nd->n_rxm += want;
	for (i = 0; i < nd->n_rxm && i < n; i++) {
		struct rte_mbuf *m = nd->rxm[i];

		nd->riov[i][1].iov_base = rte_pktmbuf_mtod(m, char *) + ND_TAG;
		nd->riov[i][1].iov_len = rte_pktmbuf_tailroom(m) - ND_TAG;
		nd->rmsg[i].msg_hdr.msg_controllen = sizeof(nd->aux[i]);
		nd->rmsg[i].msg_hdr.msg_flags = 0;
	}
	return RTE_MIN(n, nd->n_rxm);
}

/**
 * rx_tag() - put back the outer VLAN tag the kernel took off a frame; for
 *	      an end with a tag, leave its own off (or take it out of the
 *	      frame, should the kernel have left it there)
 * @nd:		the end
 * @i:		its message
 * @m:		its mbuf, with the frame ND_TAG bytes into its data
 * @len:	bytes of the frame in @m
 * @csum:	set if the kernel left its L4 checksum to be filled (the
 *		sender's checksum offload: TP_STATUS_CSUMNOTREADY)
 *
 * Return: the bytes of the frame in @m now
 */
static uint32_t rx_tag(struct nd_end *nd, unsigned int i, struct rte_mbuf *m,
		       uint32_t len, bool *csum)
{
	struct msghdr *h = &nd->rmsg[i].msg_hdr;
	const struct tpacket_auxdata *a = NULL;
	struct cmsghdr *c;
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	uint16_t tpid, tci;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c))
		if (c->cmsg_level == SOL_PACKET &&
		    c->cmsg_type == PACKET_AUXDATA)
			a = (const void *)CMSG_DATA(c);
	*csum = a != NULL && (a->tp_status & TP_STATUS_CSUMNOTREADY);
	if (nd->tag && (a == NULL || !(a->tp_status & TP_STATUS_VLAN_VALID)) &&
	    len >= 2 * RTE_ETHER_ADDR_LEN + ND_TAG) {
		/* the end's tag (its filter's word) still in the frame:
		 * taken out */
		memmove(p + 2 * ND_TAG, p + ND_TAG, 2 * RTE_ETHER_ADDR_LEN);
		m->data_off += 2 * ND_TAG;
		return len - ND_TAG;
	}
	/* none, or the end's own, which the kernel took off */
	if (nd->tag || a == NULL || !(a->tp_status & TP_STATUS_VLAN_VALID) ||
	    len < 2 * RTE_ETHER_ADDR_LEN) {
		m->data_off += ND_TAG;
		return len;
	}
	tpid = a->tp_status & TP_STATUS_VLAN_TPID_VALID ? a->tp_vlan_tpid :
	       RTE_ETHER_TYPE_VLAN;
	tci = a->tp_vlan_tci;
	memmove(p, p + ND_TAG, 2 * RTE_ETHER_ADDR_LEN);
	tpid = rte_cpu_to_be_16(tpid);
	tci = rte_cpu_to_be_16(tci);
	memcpy(p + 2 * RTE_ETHER_ADDR_LEN, &tpid, 2);
	memcpy(p + 2 * RTE_ETHER_ADDR_LEN + 2, &tci, 2);
	return len + ND_TAG;
}

/**
 * rx_rest() - chain the part of a long frame that went to @big
 * @nd:		the end
 * @m:		the frame's first mbuf, full
 * @from:	the rest of the frame
 * @len:	its length
 *
 * Return: 0, or -ENOMEM (@m is left as it was)
 */
static int rx_rest(struct nd_end *nd, struct rte_mbuf *m, const uint8_t *from,
		   uint32_t len)
{
	struct rte_mbuf *last = m, *s;
	uint32_t n;

	while (len) {
		s = rte_pktmbuf_alloc(nd->pool);
		if (s == NULL) {
			rte_pktmbuf_free(m->next);
			m->next = NULL;
			m->nb_segs = 1;
			return -ENOMEM;
		}
		n = RTE_MIN(len, (uint32_t)rte_pktmbuf_tailroom(s));
		memcpy(rte_pktmbuf_mtod(s, void *), from, n);
		s->data_len = (uint16_t)n;
		last->next = s;
		last = s;
		m->nb_segs++;
		from += n;
		len -= n;
	}
	return 0;
}

/**
 * rx_gso() - a frame the kernel handed over as one packet of several
 *	      segments (its virtio-net header says how to cut it): a TSO
 *	      frame for the offload stage, as a guest's would be
 * @m:		the frame
 * @vh:		its header
 *
 * Return: 0, or -ENOTSUP for a kind of segmentation xcable cannot pass
 *	   on or do (UDP segmentation, VIRTIO_NET_HDR_GSO_UDP_L4)
 */
static inline int rx_gso(struct rte_mbuf *m, const struct virtio_net_hdr *vh)
{
	uint8_t type = vh->gso_type & (uint8_t)~VIRTIO_NET_HDR_GSO_ECN;

	if (likely(type == VIRTIO_NET_HDR_GSO_NONE))
		return 0;
	if (type != VIRTIO_NET_HDR_GSO_TCPV4 &&
	    type != VIRTIO_NET_HDR_GSO_TCPV6)
		return -ENOTSUP;
	m->ol_flags |= RTE_MBUF_F_RX_LRO;
	m->tso_segsz = vh->gso_size;
	return 0;
}

/**
 * netdev_rx() - end op: receive a burst from the interface, each frame
 *		 straight into an mbuf, its outer tag put back
 * @e:		the end
 * @q:		queue (0)
 * @pkts:	filled
 * @n:		room
 *
 * Return: frames received
 */
static uint16_t netdev_rx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			  uint16_t n)
{
	struct nd_end *nd = e->priv;
	unsigned int i, ready, got, out = 0;
	bool csum;
	int r;

	ready = rx_refill(nd, RTE_MIN(n, XC_BURST));
	if (unlikely(ready == 0)) {
		__atomic_store_n(e->cable->pool_want, n, __ATOMIC_RELAXED);
		return 0;	/* the frames wait in the socket */
	}
	r = recvmmsg(nd->fd, nd->rmsg, ready, MSG_DONTWAIT | MSG_TRUNC, NULL);
	if (r <= 0)
		return 0;
	got = (unsigned int)r;
	for (i = 0; i < got; i++) {
		struct rte_mbuf *m = nd->rxm[i];
		uint32_t len = nd->rmsg[i].msg_len - ND_VNET, first;

		if (unlikely(nd->rmsg[i].msg_len < ND_VNET)) {
			rx_drop(e, q, 0, XC_DROP_BAD_OFFLOAD);
			rte_pktmbuf_free(m);
			continue;
		}
		first = RTE_MIN(len, (uint32_t)nd->riov[i][1].iov_len);
		if (unlikely(nd->rmsg[i].msg_hdr.msg_flags & MSG_TRUNC)) {
			rx_drop(e, q, len, XC_DROP_TOO_BIG);
			rte_pktmbuf_free(m);
			continue;
		}
		m->data_len = (uint16_t)rx_tag(nd, i, m, first, &csum);
		m->pkt_len = m->data_len + (len - first);
		if (unlikely(len > first) &&
		    rx_rest(nd, m, nd->big + (size_t)i * ND_FRAME_MAX,
			    len - first)) {
			rx_drop(e, q, m->pkt_len, XC_DROP_NO_MBUF);
			rte_pktmbuf_free(m);
			continue;
		}
		/* the kernel left the checksum to the hardware: a partial
		 * checksum, as a guest's, which the offload stage completes
		 * (or leaves to a receiver that takes it) */
		if (unlikely(csum ||
			     (nd->rvh[i].flags & VIRTIO_NET_HDR_F_NEEDS_CSUM)))
			m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_NONE;
		if (unlikely(rx_gso(m, &nd->rvh[i]))) {
			rx_drop(e, q, m->pkt_len, XC_DROP_UNSUPPORTED);
			rte_pktmbuf_free(m);
			continue;
		}
		pkts[out++] = m;
	}
	memmove(nd->rxm, nd->rxm + got, (nd->n_rxm - got) * sizeof(nd->rxm[0]));
	nd->n_rxm -= got;
	return (uint16_t)out;
}

/**
 * tx_vnet() - the virtio-net header of a frame sent: how the kernel cuts
 *	       a TSO frame, where it completes a partial checksum
 * @vh:		filled
 * @m:		the frame, as the stages left it: flags and header lengths
 *		set for TSO and partial checksums (offload.c, coalesce.c),
 *		headers in its first mbuf
 * @extra:	bytes the message puts in front of its headers (an end's
 *		tag), which the offsets count
 *
 * The kernel's segmentation takes a TSO frame's checksum field to hold
 * the pseudo-header sum over the whole TCP length, as Linux writes it; a
 * guest's TSO frame passed whole holds whatever its sender wrote, so it is
 * written again here, from the IP header (DPDK's helpers). A partial
 * checksum already holds that sum (set_partial() in offload.c).
 */
static void tx_vnet(struct virtio_net_hdr *vh, struct rte_mbuf *m,
		    uint16_t extra)
{
	uint64_t ol = m->ol_flags, l4 = ol & RTE_MBUF_F_TX_L4_MASK;
	uint16_t at = (uint16_t)(m->l2_len + m->l3_len);
	struct rte_tcp_hdr *th;
	const void *ip;

	memset(vh, 0, sizeof(*vh));
	if (likely(l4 != RTE_MBUF_F_TX_TCP_CKSUM &&
		   l4 != RTE_MBUF_F_TX_UDP_CKSUM))
		return;
	vh->flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
	vh->csum_start = (uint16_t)(at + extra);
	vh->csum_offset = l4 == RTE_MBUF_F_TX_TCP_CKSUM ?
			  offsetof(struct rte_tcp_hdr, cksum) :
			  offsetof(struct rte_udp_hdr, dgram_cksum);
	if (!(ol & RTE_MBUF_F_TX_TCP_SEG))
		return;
	ip = rte_pktmbuf_mtod_offset(m, const void *, m->l2_len);
	th = rte_pktmbuf_mtod_offset(m, struct rte_tcp_hdr *, at);
	vh->gso_type = ol & RTE_MBUF_F_TX_IPV4 ? VIRTIO_NET_HDR_GSO_TCPV4 :
						  VIRTIO_NET_HDR_GSO_TCPV6;
	vh->gso_size = m->tso_segsz;
	vh->hdr_len = (uint16_t)(at + m->l4_len + extra);
	th->cksum = ol & RTE_MBUF_F_TX_IPV4 ? rte_ipv4_phdr_cksum(ip, 0) :
					      rte_ipv6_phdr_cksum(ip, 0);
}

/**
 * tx_fill() - the send message of a frame: its segments, in place, and
 *	       an end's tag between its MAC addresses and the rest
 * @nd:		the end
 * @i:		message
 * @m:		the frame
 *
 * Return: 0, -E2BIG for a frame of more segments than a message has, or
 *	   -EINVAL for one whose first segment does not hold its MAC
 *	   addresses (it cannot be tagged)
 */
static int tx_fill(struct nd_end *nd, unsigned int i, struct rte_mbuf *m)
{
	struct msghdr *h = &nd->tmsg[i].msg_hdr;
	unsigned int k = 1;
	uint16_t skip = 0;

	if (unlikely(m->nb_segs > ND_TX_SEGS))
		return -E2BIG;
	if (nd->tag) {
		if (unlikely(m->data_len < 2 * RTE_ETHER_ADDR_LEN))
			return -EINVAL;
		skip = 2 * RTE_ETHER_ADDR_LEN;
		nd->tiov[i][k].iov_base = rte_pktmbuf_mtod(m, void *);
		nd->tiov[i][k++].iov_len = skip;
		nd->tiov[i][k].iov_base = nd->tagged;
		nd->tiov[i][k++].iov_len = ND_TAG;
	}
	tx_vnet(&nd->tvh[i], m, skip ? ND_TAG : 0);
	for (; m; m = m->next, k++, skip = 0) {
		nd->tiov[i][k].iov_base = rte_pktmbuf_mtod_offset(m, char *,
								  skip);
		nd->tiov[i][k].iov_len = m->data_len - skip;
	}
	h->msg_iov = nd->tiov[i];
	h->msg_iovlen = k;
	return 0;
}

/**
 * tx_refuse() - drop frame @i, which the kernel (or a message) refused
 * @pkts:	the frames
 * @i:		which
 * @err:	why: errno
 * @drop:	the sending direction's drop counters
 */
static void tx_refuse(struct rte_mbuf **pkts, unsigned int i, int err,
		      uint64_t *drop)
{
	enum xc_drop why = XC_DROP_REFUSED;

	if (err == EMSGSIZE || err == E2BIG)
		why = XC_DROP_TOO_BIG;
	else if (err == ENETDOWN || err == ENXIO || err == ENODEV)
		why = XC_DROP_PEER_DOWN;
	xc_stat_add(&drop[why], 1);
	rte_pktmbuf_free(pkts[i]);
	pkts[i] = NULL;
}

/**
 * netdev_tx() - end op: send a burst on the interface
 * @e:		the end
 * @q:		queue (0)
 * @pkts:	frames; those refused are freed, counted and set to NULL
 * @n:		how many
 * @drop:	the sending direction's drop counters
 *
 * Return: frames taken (sent, or refused and counted); the rest wait
 *	   because the socket's buffer is full
 */
static uint16_t netdev_tx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			  uint16_t n, uint64_t *drop)
{
	struct nd_end *nd = e->priv;
	unsigned int i = 0, k, m;
	int r;

	(void)q;
	n = RTE_MIN(n, (uint16_t)XC_BURST);
	while (i < n) {
		for (m = i, r = 0; m < n && (r = tx_fill(nd, m, pkts[m])) == 0;
		     m++)
			;
		if (m == i) {	/* too many segments, or too short to tag */
			tx_refuse(pkts, i++, -r, drop);
			continue;
		}
		r = sendmmsg(nd->fd, nd->tmsg + i, m - i, MSG_DONTWAIT);
		if (r > 0) {
			for (k = i; k < i + (unsigned int)r; k++)
				rte_pktmbuf_free(pkts[k]);
			i += (unsigned int)r;
			continue;
		}
		if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR)
			break;
		tx_refuse(pkts, i++, errno, drop);
	}
	return (uint16_t)i;
}

/* netdev_caps() - end op: plain frames up to the MTU and a tag */
static uint64_t netdev_caps(const struct xc_end *e)
{
	return __atomic_load_n(&((const struct nd_end *)e->priv)->caps,
			       __ATOMIC_ACQUIRE);
}

/* netdev_is_up() - end op: is the interface there, up and running? */
static bool netdev_is_up(const struct xc_end *e)
{
	return __atomic_load_n(&((const struct nd_end *)e->priv)->up,
			       __ATOMIC_ACQUIRE) != 0;
}

/* netdev_where() - end op: "IFNAME", or "IFNAME in NETNS" */
static const char *netdev_where(const struct xc_end *e)
{
	return ((const struct nd_end *)e->priv)->where;
}

/**
 * netdev_describe() - end op: the interface's facts
 * @e:		the end
 * @fn:		called once per fact
 * @arg:	its argument
 */
static void netdev_describe(const struct xc_end *e, xc_kv_fn fn, void *arg)
{
	const struct nd_end *nd = e->priv;

	fn(arg, "kind", "netdev", 0);
	fn(arg, "link", netdev_is_up(e) ? "up" : "down", 0);
	fn(arg, "interface", nd->ifname, 0);
	fn(arg, "netns", nd->netns[0] ? nd->netns : "-", 0);
	fn(arg, "ifindex", NULL, (uint64_t)nd->ifindex);
	fn(arg, "mtu", NULL, nd->mtu);
	if (nd->tag) {
		fn(arg, "tag", NULL, nd->tag);
		fn(arg, "tag_type", NULL, nd->tpid);
	}
}

/* netdev_wait_fd() - end op: the socket, readable when a frame comes */
static int netdev_wait_fd(const struct xc_end *e)
{
	return ((const struct nd_end *)e->priv)->fd;
}

/**
 * bind_to() - bind the socket to interface @ifindex, promiscuous
 * @nd:		the end
 * @ifindex:	the interface
 *
 * Return: 0 or -errno
 */
static int bind_to(struct nd_end *nd, int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = ifindex };
	struct packet_mreq mr = { .mr_ifindex = ifindex,
				  .mr_type = PACKET_MR_PROMISC };

	if (bind(nd->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(nd->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr,
		       sizeof(mr)) < 0)
		return -errno;
	return 0;
}

/**
 * look() - the interface's index, flags and MTU, by its name, in the
 *	    socket's namespace
 * @nd:		the end
 * @flags:	set to its flags
 * @mtu:	set to its MTU
 *
 * Return: the index, or -errno (-ENODEV: no such interface)
 */
static int look(const struct nd_end *nd, short *flags, unsigned int *mtu)
{
	struct ifreq ifr;
	int idx;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", nd->ifname);
	if (ioctl(nd->fd, SIOCGIFINDEX, &ifr) < 0)
		return -errno;
	idx = ifr.ifr_ifindex;
	if (ioctl(nd->fd, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	*flags = ifr.ifr_flags;
	if (ioctl(nd->fd, SIOCGIFMTU, &ifr) < 0)
		return -errno;
	*mtu = (unsigned int)ifr.ifr_mtu;
	return idx;
}

/**
 * kernel_stats() - add what the kernel counted on the socket since the
 *		    last look (PACKET_STATISTICS, which it then clears; main
 *		    thread)
 * @nd:		the end
 */
static void kernel_stats(struct nd_end *nd)
{
	struct tpacket_stats ts;
	socklen_t len = sizeof(ts);

	if (nd->fd < 0 ||
	    getsockopt(nd->fd, SOL_PACKET, PACKET_STATISTICS, &ts, &len) < 0)
		return;
	xc_stat_add(&nd->st.kernel_packets, ts.tp_packets);
	xc_stat_add(&nd->st.kernel_drops, ts.tp_drops);
}

/**
 * netdev_poll() - end op (main thread): follow the interface: carrier,
 *		   MTU, gone (the end down), back (bound again)
 * @e:		the end
 *
 * Return: true while the end is down (to see it come back soon)
 */
static bool netdev_poll(struct xc_end *e)
{
	struct nd_end *nd = e->priv;
	unsigned int mtu = 0, max;
	short flags = 0;
	bool up;
	int idx, rc;

	kernel_stats(nd);

	idx = look(nd, &flags, &mtu);
	if (idx < 0 && nd->ifindex) {
		XC_LOG_FROM(nd->where, netdev, WARNING, "%s: %s: interface %s is gone (%s): the end is down until it is back",
		       e->cable->name, e->label, nd->where, strerror(-idx));
		if (netdev_is_up(e))
			xc_ev("link", e->cable->name, e->label, "down",
			      "interface", "interface %s is gone", nd->where);
		nd->ifindex = 0;
		__atomic_store_n(&nd->up, 0, __ATOMIC_RELEASE);	/* said */
	}
	if (idx > 0 && idx != nd->ifindex) {
		rc = bind_to(nd, idx);
		if (rc) {
			XC_LOG_FROM(nd->where, netdev, WARNING, "%s: %s: cannot bind to interface %s again: %s",
			       e->cable->name, e->label, nd->where,
			       strerror(-rc));
			idx = -1;
		} else {
			if (nd->bound)
				XC_LOG_FROM(nd->where, netdev, INFO, "%s: %s: interface %s is back (ifindex %d)",
				       e->cable->name, e->label, nd->where,
				       idx);
			nd->ifindex = idx;
			nd->bound = true;
		}
	}
	up = idx > 0 && (flags & IFF_UP) && (flags & IFF_RUNNING);
	if (up != netdev_is_up(e)) {
		XC_LOG_FROM(nd->where, netdev, INFO, "%s: %s: interface %s is %s",
		       e->cable->name, e->label, nd->where,
		       up ? "up" : "down");
		xc_ev("link", e->cable->name, e->label, up ? "up" : "down",
		      "interface", "interface %s, MTU %u", nd->where, mtu);
	}
	nd->mtu = mtu;
	/* what the kernel sends: the MTU, its header and one 802.1Q tag;
	 * and TSO frames whose segments are that size (PACKET_VNET_HDR).
	 * An end's own tag takes 4 bytes of it; the kernel's room for a tag
	 * is for an 802.1Q one only (packet_extra_vlan_len_allowed()) */
	max = mtu + RTE_ETHER_HDR_LEN + ND_TAG;
	if (nd->tag)
		max -= nd->tpid == XC_TPID_8021Q ? ND_TAG : 2 * ND_TAG;
	__atomic_store_n(&nd->caps, up ? xc_caps_pack(XC_CAP_CSUM |
			 XC_CAP_TSO4 | XC_CAP_TSO6, RTE_MIN(max, 65535u)) : 0,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&nd->up, up, __ATOMIC_RELEASE);
	return !up;
}

#define ND_CTR(name, field, meaning) \
	{ name, meaning, offsetof(struct nd_stats, field), 1, 0 }

/* every counter of an end's socket, in the order shown */
static const struct xc_counter nd_counters[] = {
	ND_CTR("kernel-packets", kernel_packets,
	       "frames the kernel queued on the end's socket"),
	ND_CTR("kernel-drops", kernel_drops,
	       "dropped by the kernel before xcable read them: the socket's buffer was full"),
};

static const struct xc_counter_table nd_table = {
	nd_counters, RTE_DIM(nd_counters)
};

static_assert(sizeof(struct nd_stats) <= XC_HUB_STATS_MAX * sizeof(uint64_t),
	      "the socket's counters fit a hub's");

/* hub_snapshot() - hub op: the socket's counters (any thread) */
static void hub_snapshot(const struct xc_hub *h, void *s)
{
	const struct nd_end *nd = (const struct nd_end *)h;
	struct nd_stats *st = s;

	st->kernel_packets = __atomic_load_n(&nd->st.kernel_packets,
					     __ATOMIC_RELAXED);
	st->kernel_drops = __atomic_load_n(&nd->st.kernel_drops,
					   __ATOMIC_RELAXED);
}

/* hub_name() - hub op: the interface, and its namespace */
static const char *hub_name(const struct xc_hub *h)
{
	return ((const struct nd_end *)h)->where;
}

/* hub_title() - hub op: "interface NAME [in NETNS]" */
static void hub_title(const struct xc_hub *h, char *buf, size_t len)
{
	snprintf(buf, len, "interface %s", ((const struct nd_end *)h)->where);
}

/* hub_describe() - hub op: the interface and its namespace */
static void hub_describe(const struct xc_hub *h, xc_kv_fn fn, void *arg)
{
	const struct nd_end *nd = (const struct nd_end *)h;

	fn(arg, "interface", nd->ifname, 0);
	fn(arg, "netns", nd->netns[0] ? nd->netns : "-", 0);
}

/* an end's socket, counted by the kernel */
static const struct xc_hub_ops nd_hub_ops = {
	.group = "interfaces",
	.tel = "socket",
	.counters = &nd_table,
	.snapshot = hub_snapshot,
	.name = hub_name,
	.title = hub_title,
	.describe = hub_describe,
};

const struct xc_end_ops xc_end_netdev_ops = {
	.kind = "netdev",
	.rx = netdev_rx,
	.tx = netdev_tx,
	.caps = netdev_caps,
	.is_up = netdev_is_up,
	.where = netdev_where,
	.describe = netdev_describe,
	.wait_fd = netdev_wait_fd,
	.poll = netdev_poll,
	.rx_stage = xc_coalesce_stage,
	.rx_chains = true,
};

/**
 * has_cap() - is a capability in this thread's effective set?
 * @cap:	the capability (CAP_*)
 *
 * Return: true if so (false if it cannot be told)
 */
static bool has_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	return d[cap / 32].effective >> (cap % 32) & 1;
}

/**
 * enter() - enter the network namespace @netns (a path, or a process's
 *	     ID), in this thread only
 * @netns:	the namespace
 * @self:	set to an fd of the thread's own namespace, to go back to
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL (no such namespace, or no privilege to enter it)
 */
static int enter(const char *netns, int *self, char *err, size_t errlen)
{
	bool pid = strspn(netns, "0123456789") == strlen(netns);
	char path[XC_SOCK_PATH_MAX + 16];
	int fd, e;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%s/ns/net", netns);
	else
		snprintf(path, sizeof(path), "%s", netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT)
			snprintf(err, errlen, "no network namespace %s (%s)",
				 netns, strerror(e));
		else if (pid && (e == EACCES || e == EPERM))
			snprintf(err, errlen, "cannot open the network namespace of process %s (%s): another user's process needs CAP_SYS_PTRACE",
				 netns, strerror(e));
		else
			snprintf(err, errlen, "cannot open network namespace %s (%s)",
				 netns, strerror(e));
		return -EINVAL;
	}
	*self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*self < 0 || setns(fd, CLONE_NEWNET) < 0) {
		e = errno;
		if (e == EPERM && has_cap(CAP_SYS_ADMIN))
			snprintf(err, errlen, "cannot enter network namespace %s (%s), although xcable has CAP_SYS_ADMIN: a seccomp filter forbids it (under systemd, RestrictNamespaces= must allow net)",
				 netns, strerror(e));
		else if (e == EPERM)
			snprintf(err, errlen, "cannot enter network namespace %s: it needs CAP_SYS_ADMIN (%s)",
				 netns, strerror(e));
		else
			snprintf(err, errlen, "cannot enter network namespace %s (%s)",
				 netns, strerror(e));
		if (*self >= 0)
			close(*self);
		close(fd);
		return -EINVAL;
	}
	close(fd);
	return 0;
}

/**
 * tag_filter() - let the socket of an end with a tag take only the frames
 *		  under that tag: in the metadata, where the kernel puts the
 *		  outer tag it takes off, or still in the frame
 * @nd:		the end, its socket open and not bound yet
 *
 * Return: 0 or -errno
 */
static int tag_filter(const struct nd_end *nd)
{
	struct sock_filter code[] = {
		/* 0: a tag taken off into the metadata? */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 (uint32_t)(SKF_AD_OFF + SKF_AD_VLAN_TAG_PRESENT)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 5, 0),
		/* 2: yes: its type and id must be the end's */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 (uint32_t)(SKF_AD_OFF + SKF_AD_VLAN_TPID)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nd->tpid, 0, 9),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 (uint32_t)(SKF_AD_OFF + SKF_AD_VLAN_TAG)),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x0fff),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nd->tag, 5, 6),
		/* 7: no: the frame's own outer tag must be the end's */
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 2 * RTE_ETHER_ADDR_LEN),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nd->tpid, 0, 4),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 2 * RTE_ETHER_ADDR_LEN + 2),
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x0fff),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nd->tag, 0, 1),
		/* 12: take the whole frame; 13: not the end's */
		BPF_STMT(BPF_RET | BPF_K, 0xffffffffu),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { .len = RTE_DIM(code), .filter = code };

	if (setsockopt(nd->fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
		       sizeof(prog)) < 0)
		return -errno;
	return 0;
}

/**
 * open_socket() - the end's packet socket, in the interface's namespace
 * @nd:		the end, with @ifname and @netns
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (missing privilege, unknown namespace), or -errno
 */
static int open_socket(struct nd_end *nd, char *err, size_t errlen)
{
	int one = 1, buf = ND_RCVBUF, self = -1, rc = 0, e;

	if (nd->netns[0] && enter(nd->netns, &self, err, errlen))
		return -EINVAL;
	nd->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	e = errno;
	if (self >= 0) {
		if (setns(self, CLONE_NEWNET) < 0)	/* cannot fail: ours */
			rte_panic("cannot go back to xcable's network namespace: %s\n",
				  strerror(errno));
		close(self);
	}
	if (nd->fd < 0) {
		snprintf(err, errlen, e == EPERM ?
			 "interface %s: a packet socket needs CAP_NET_RAW (%s)" :
			 "interface %s: cannot open a packet socket (%s)",
			 nd->where, strerror(e));
		return e == EPERM ? -EINVAL : -e;
	}
	if (setsockopt(nd->fd, SOL_PACKET, PACKET_AUXDATA, &one,
		       sizeof(one)) < 0 ||
	    setsockopt(nd->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		       sizeof(one)) < 0 ||
	    setsockopt(nd->fd, SOL_PACKET, PACKET_VNET_HDR, &one,
		       sizeof(one)) < 0) {
		rc = -errno;
		snprintf(err, errlen, "interface %s: packet socket options: %s",
			 nd->where, strerror(errno));
	} else if (nd->tag && (rc = tag_filter(nd)) != 0) {
		snprintf(err, errlen, "interface %s: the filter of tag %u: %s",
			 nd->where, nd->tag, strerror(-rc));
	}
	(void)setsockopt(nd->fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	(void)setsockopt(nd->fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	return rc;
}

/**
 * init() - the end's state, its messages pointing at its buffers
 * @nd:		zeroed
 * @e:		the definition
 */
static void init(struct nd_end *nd, const struct xc_end_def *e)
{
	unsigned int i;

	nd->fd = -1;
	nd->hub.ops = &nd_hub_ops;
	snprintf(nd->ifname, sizeof(nd->ifname), "%s", xc_netdev_def(e)->ifname);
	snprintf(nd->netns, sizeof(nd->netns), "%s", xc_netdev_def(e)->netns);
	snprintf(nd->where, sizeof(nd->where), "%s%s%s", nd->ifname,
		 nd->netns[0] ? " in " : "", nd->netns);
	nd->tag = e->tag;
	nd->tpid = xc_netdev_def(e)->tpid ? xc_netdev_def(e)->tpid :
		   XC_TPID_8021AD;
	nd->tagged[0] = (uint8_t)(nd->tpid >> 8);
	nd->tagged[1] = (uint8_t)nd->tpid;
	nd->tagged[2] = (uint8_t)(nd->tag >> 8);
	nd->tagged[3] = (uint8_t)nd->tag;
	for (i = 0; i < XC_BURST; i++) {
		nd->riov[i][0].iov_base = &nd->rvh[i];
		nd->riov[i][0].iov_len = ND_VNET;
		nd->riov[i][2].iov_base = nd->big + (size_t)i * ND_FRAME_MAX;
		nd->riov[i][2].iov_len = ND_FRAME_MAX;
		nd->rmsg[i].msg_hdr.msg_iov = nd->riov[i];
		nd->rmsg[i].msg_hdr.msg_iovlen = 3;
		nd->rmsg[i].msg_hdr.msg_control = nd->aux[i].buf;
		nd->tiov[i][0].iov_base = &nd->tvh[i];
		nd->tiov[i][0].iov_len = ND_VNET;
	}
}

/**
 * struct nd_kept - a packet socket whose end went during a change, kept
 *		    open, bound, for an end the change makes on the same
 *		    interface (its new form, or its old one if the change
 *		    fails): what the interface received meanwhile waits in
 *		    it, and its promiscuity never drops (main thread)
 * @next:	the next one kept
 * @fd:		the socket
 * @ifindex:	the interface it is bound to, 0 if none
 * @ifname:	the interface's name
 * @netns:	its namespace as given
 * @tag:	the tag its filter lets through, 0 for none
 * @tpid:	and its type
 */
struct nd_kept {
	struct nd_kept *next;
	int fd;
	int ifindex;
	char ifname[IFNAMSIZ];
	char netns[XC_SOCK_PATH_MAX];
	uint16_t tag;
	uint16_t tpid;
};

/* kept() - the kind's state: the sockets kept through a change */
static struct nd_kept **kept(struct xc_topo *t)
{
	return (struct nd_kept **)xc_kind_state(t, &xc_kind_netdev);
}

/**
 * keep() - during a change, keep the socket of an end that goes for an
 *	    end the change makes on its interface (take_kept())
 * @t:		topology
 * @nd:		the end, its socket open
 *
 * Return: true if kept (no change is being made, or no memory: false,
 *	   the caller closes it)
 */
static bool keep(struct xc_topo *t, const struct nd_end *nd)
{
	struct nd_kept *k;

	if (!t->changing || (k = calloc(1, sizeof(*k))) == NULL)
		return false;
	k->fd = nd->fd;
	k->ifindex = nd->ifindex;
	memcpy(k->ifname, nd->ifname, sizeof(k->ifname));
	memcpy(k->netns, nd->netns, sizeof(k->netns));
	k->tag = nd->tag;
	k->tpid = nd->tpid;
	k->next = *kept(t);
	*kept(t) = k;
	return true;
}

/**
 * take_kept() - give a new end the socket an end on the same interface
 *		 and tag kept (keep()), if there is one
 * @t:		topology
 * @nd:		the new end, with @ifname and @netns
 *
 * Return: true if it has it now (open and bound as it was)
 */
static bool take_kept(struct xc_topo *t, struct nd_end *nd)
{
	struct nd_kept **at, *k;

	for (at = kept(t); (k = *at) != NULL; at = &k->next) {
		if (strcmp(k->ifname, nd->ifname) ||
		    strcmp(k->netns, nd->netns) || k->tag != nd->tag ||
		    k->tpid != nd->tpid)
			continue;
		nd->fd = k->fd;
		nd->ifindex = k->ifindex;
		nd->bound = k->ifindex != 0;
		*at = k->next;
		free(k);
		return true;
	}
	return false;
}

/**
 * netdev_tidy() - kind op: a change is over: close the sockets it kept
 *		   that no end took
 * @t:		topology
 */
static void netdev_tidy(struct xc_topo *t)
{
	struct nd_kept *k;

	while ((k = *kept(t)) != NULL) {
		*kept(t) = k->next;
		close(k->fd);
		free(k);
	}
}

/**
 * netdev_free() - close the socket (during a change, keep it for an end
 *		   the change makes on the same interface: keep()), give
 *		   back the mbufs held
 * @t:		topology
 * @e:		the end
 */
static void netdev_free(struct xc_topo *t, struct xc_end *e)
{
	struct nd_end *nd = e->priv;

	if (nd == NULL)
		return;
	kernel_stats(nd);
	if (nd->st.kernel_drops)
		XC_LOG(netdev, INFO, "%s: %s: interface %s: the kernel dropped %" PRIu64 " of %" PRIu64 " frames before xcable read them",
		       e->cable->name, e->label, nd->where, nd->st.kernel_drops,
		       nd->st.kernel_packets);
	if (nd->n_rxm)
		rte_pktmbuf_free_bulk(nd->rxm, nd->n_rxm);
	if (nd->fd >= 0 && !keep(t, nd))
		close(nd->fd);
	if (nd->big != NULL)
		munmap(nd->big, (size_t)XC_BURST * ND_FRAME_MAX);
	rte_free(nd);
	e->priv = NULL;
	e->hub = NULL;
}

/**
 * netdev_make() - make an end on an interface: its socket opened in the
 *		   interface's namespace and bound to it
 * @t:		topology
 * @c:		cable
 * @j:		which end
 * @e:		the end's definition
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL (no such interface or namespace, missing privilege,
 *	   several queues), -ENOMEM or -errno
 */
static int netdev_make(struct xc_topo *t, struct xc_cable *c, unsigned int j,
		       const struct xc_end_def *e, char *err, size_t errlen)
{
	struct xc_end *end = &c->end[j];
	struct nd_end *nd;
	char why[XC_ERR_LEN];
	int rc;

	nd = rte_zmalloc("xc_netdev", sizeof(*nd), RTE_CACHE_LINE_SIZE);
	if (nd) {
		/* 2 MB of addresses; memory only where large frames land */
		nd->big = mmap(NULL, (size_t)XC_BURST * ND_FRAME_MAX,
			       PROT_READ | PROT_WRITE, MAP_PRIVATE |
			       MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (nd->big == MAP_FAILED)
			nd->big = NULL;
	}
	if (nd == NULL || nd->big == NULL) {
		rte_free(nd);
		snprintf(err, errlen, "cable %s: %s: no memory", c->name,
			 end->label);
		return -ENOMEM;
	}
	init(nd, e);
	end->priv = nd;
	end->ops = &xc_end_netdev_ops;
	end->hub = &nd->hub;
	rc = take_kept(t, nd) ? 0 : open_socket(nd, why, sizeof(why));
	if (rc == 0) {
		netdev_poll(end);
		if (nd->ifindex == 0) {
			snprintf(why, sizeof(why), "no interface %s%s",
				 nd->where, nd->netns[0] ? "" :
				 " in xcable's network namespace");
			rc = -EINVAL;
		}
	}
	if (rc) {
		snprintf(err, errlen, "cable %s: %s: %s", c->name, end->label,
			 why);
		netdev_free(t, end);
		return rc;
	}
	return 0;
}

/* netdev_start() - the end receives into its cable's pool */
static int netdev_start(struct xc_topo *t, struct xc_end *e, char *err,
			size_t errlen)
{
	(void)t;
	(void)err;
	(void)errlen;
	((struct nd_end *)e->priv)->pool = e->cable->pool;
	return 0;
}

const struct xc_end_kind xc_kind_netdev = {
	.def = &xc_kind_def_netdev,
	.make = netdev_make,
	.start = netdev_start,
	.free = netdev_free,
	.tidy = netdev_tidy,
	.fini = netdev_tidy,
};
