/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan.h - cable ends that are VXLAN tunnels (RFC 7348), all over one UDP
 *	     socket
 *
 * A tunnel end is no ethdev (DPDK has no UDP socket driver): it is a
 * struct xc_end whose ops (xc_end_vxlan_ops) send each frame as one UDP
 * datagram, an 8-byte VXLAN header then the frame, to the remote's
 * address, and receive the datagrams that carry its VNI from that remote.
 * The kernel does all of IP: routing, neighbours, fragmentation, IPv4 and
 * IPv6 (one dual-stack socket, or an IPv4 one if the local address is
 * IPv4). No privilege is needed: any port above 1023 will do.
 *
 * One socket (struct xc_vxlan) carries every tunnel of an xcable, like a
 * trunk's port carries its members: received datagrams are sorted by VNI
 * and remote address into per-tunnel queues; the rest is dropped and
 * counted by reason. One lcore serves every cable with a tunnel end (the
 * end ops are shared, lcores.c), so the socket and the queues have one
 * user and need no locks.
 *
 * Tunnels come and go while that lcore runs (cables added and removed at
 * runtime): the main thread fills a free slot of @tun and then marks it
 * @live, and takes a tunnel away in two steps, @live first
 * (xc_vxlan_stop(): its datagrams are unknown from then on), its slot
 * once the lcore has let go of the tunnel's cable (xc_vxlan_del()), so the
 * lcore never sorts a datagram into a queue being emptied.
 */
#ifndef XC_VXLAN_H
#define XC_VXLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <rte_mbuf.h>

#include "cable.h"
#include "addr.h"
#include "stats.h"
#include "vxlan_wire.h"

#define XC_VXLAN_MAX_TUNS	(2 * XC_MAX_CABLES)
#define XC_VXLAN_QLEN		512	/* frames waiting per tunnel */
#define XC_VXLAN_FRAME_MAX	9216	/* largest frame a tunnel carries */
#define XC_VXLAN_IOV		18	/* header + segments of a frame */
#define XC_VXLAN_POOL_MBUFS	4095
#define XC_VXLAN_QMIN		XC_BURST	/* the least share of a tunnel */

struct xc_vxlan;

/**
 * struct xc_vxlan_stats - counters of the tunnel socket (vxlan.c)
 * (names and meanings: vxlan_counters in vxlan.c)
 */
struct xc_vxlan_stats {
	uint64_t rx_datagrams;
	uint64_t rx_short;
	uint64_t rx_bad_flags;
	uint64_t rx_too_big;
	uint64_t unknown_vni;
	uint64_t unknown_remote;
	uint64_t backlog;
	uint64_t no_mbuf;
	uint64_t tx_datagrams;
	uint64_t tx_too_big;
	uint64_t tx_error;
};

/**
 * struct xc_vxlan_tun - one tunnel end
 * @vx:		the socket it is on
 * @end:	the cable end it is
 * @remote:	where its frames go (the socket's family)
 * @rlen:	length of @remote
 * @vni:	its VNI
 * @hdr:	the VXLAN header of its frames
 * @where:	"vxlan ADDR:PORT vni N", for people
 * @live:	datagrams are sorted to it: set by the main thread once the
 *		rest is written, cleared before it goes (atomic)
 * @q:		frames received for it, not yet taken (@head, @n)
 *
 * A free slot has @end NULL. Everything but @q is written by the main
 * thread while @live is clear; @q belongs to the socket's lcore while the
 * tunnel is live.
 */
struct xc_vxlan_tun {
	uint8_t live;
	struct xc_vxlan *vx;
	struct xc_end *end;
	struct sockaddr_storage remote;
	socklen_t rlen;
	uint32_t vni;
	uint8_t hdr[XC_VXLAN_HLEN];
	char where[XC_ADDR_TEXT_MAX + 32];
	struct {
		struct rte_mbuf *m[XC_VXLAN_QLEN];
		uint16_t head;
		uint16_t n;
	} q;
};

/**
 * struct xc_vxlan - the UDP socket of every tunnel
 * @hub:	what the views show of it (its counters), first
 * @fd:		the socket
 * @local:	its address, for people
 * @df:		outer packets are not fragmented (vxlan-df)
 * @pool:	mbufs datagrams are received into, XC_VXLAN_FRAME_MAX each
 * @n_tuns:	tunnels (main thread)
 * @hi:		slots of @tun ever used: the lcore looks at those (main
 *		thread; atomic)
 * @qcap:	frames one tunnel's queue may hold: its share of @pool, so
 *		that tunnels whose guests stop taking frames cannot empty
 *		it for the others (set by the main thread as tunnels come
 *		and go; atomic)
 * @tun:	them, by slot
 * @rxm:	mbufs ready to receive into (the serving lcore's)
 * @rxhdr:	where each received datagram's VXLAN header goes
 * @rfrom:	who sent each
 * @rmsg:	recvmmsg()'s messages
 * @riov:	their iovecs: the header, then the mbuf's data
 * @smsg:	sendmmsg()'s messages
 * @siov:	their iovecs: the header, then the mbuf's segments
 * @sink:	where datagrams go that no mbuf is left for (dropped)
 * @st:		counters (one writer, the serving lcore; atomic)
 */
struct xc_vxlan {
	struct xc_hub hub;
	int fd;
	char local[XC_ADDR_TEXT_MAX];
	bool df;
	struct rte_mempool *pool;
	unsigned int n_tuns;
	unsigned int hi;
	uint16_t qcap;
	struct xc_vxlan_tun tun[XC_VXLAN_MAX_TUNS];
	struct rte_mbuf *rxm[XC_BURST];
	uint8_t rxhdr[XC_BURST][XC_VXLAN_HLEN];
	struct sockaddr_storage rfrom[XC_BURST];
	struct mmsghdr rmsg[XC_BURST];
	struct iovec riov[XC_BURST][2];
	struct mmsghdr smsg[XC_BURST];
	struct iovec siov[XC_BURST][XC_VXLAN_IOV];
	uint8_t sink[XC_VXLAN_HLEN];
	struct xc_vxlan_stats st;
};

extern const struct xc_end_ops xc_end_vxlan_ops;

int xc_vxlan_open(struct xc_vxlan **out, const char *local, uint16_t port,
		  bool df, char *err, size_t errlen);
int xc_vxlan_add(struct xc_vxlan *vx, struct xc_end *e, const char *remote,
		 uint16_t def_port, uint32_t vni, char *err, size_t errlen);
void xc_vxlan_stop(struct xc_end *e);
void xc_vxlan_del(struct xc_end *e);
void xc_vxlan_stats(const struct xc_vxlan *vx, struct xc_vxlan_stats *s);
void xc_vxlan_flush(struct xc_vxlan *vx);
bool xc_vxlan_idle(const struct xc_vxlan *vx);
void xc_vxlan_close(struct xc_vxlan *vx);

#endif /* XC_VXLAN_H */
