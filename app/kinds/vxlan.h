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
 * Where the kernel allows, a run of equal-sized frames to one tunnel (the
 * segments of a guest's TSO frame) goes in one send, which the kernel
 * cuts into datagrams (UDP GSO), and datagrams of one sender may arrive
 * glued into one buffer (UDP GRO); see vxlan.c.
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
/* a received message: one datagram, or several glued by UDP GRO */
#define XC_VXLAN_RX_BUF		65536
/* the most one UDP_SEGMENT send carries: UDP's 64 KB less the IPv6 and
 * UDP headers (IPv4 would allow 20 bytes more) */
#define XC_VXLAN_GSO_BYTES	(65535 - 40 - 8)

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
	uint64_t rx_gro_datagrams;
	uint64_t tx_datagrams;
	uint64_t tx_too_big;
	uint64_t tx_error;
	uint64_t tx_gso_datagrams;
	uint64_t tx_gso_refused;
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
 * @pending:	it waits beside a tunnel with its VNI and remote, not
 *		live until xc_vxlan_settle() (main thread)
 * @q:		frames received for it, not yet taken (@head, @n)
 * @gso_refused: the smallest datagram size of a UDP_SEGMENT send the
 *		kernel refused (it does not fit the path), 0 if none; runs
 *		of that size or larger go datagram by datagram until
 *		@gso_retry (TSC)
 * @gso_retry:	when to try UDP_SEGMENT again for them
 *
 * A free slot has @end NULL. Everything but @q and the @gso_ fields is
 * written by the main thread while @live is clear; those belong to the
 * socket's lcore while the tunnel is live.
 */
struct xc_vxlan_tun {
	uint8_t live;
	bool pending;
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
	uint32_t gso_refused;
	uint64_t gso_retry;
};

/**
 * struct xc_vxlan - the UDP socket of every tunnel
 * @hub:	what the views show of it (its counters), first
 * @fd:		the socket
 * @local:	its address, for people
 * @df:		outer packets are not fragmented (vxlan-df)
 * @gso:	the kernel sends runs of datagrams with UDP_SEGMENT
 * @gro:	it may glue received datagrams (UDP_GRO)
 * @pool:	mbufs received frames are copied into, XC_VXLAN_FRAME_MAX
 *		each
 * @n_tuns:	tunnels (main thread)
 * @hi:		slots of @tun ever used: the lcore looks at those (main
 *		thread; atomic)
 * @qcap:	frames one tunnel's queue may hold: its share of @pool, so
 *		that tunnels whose guests stop taking frames cannot empty
 *		it for the others (set by the main thread as tunnels come
 *		and go; atomic)
 * @tun:	them, by slot
 * @rbuf:	XC_BURST receive buffers of XC_VXLAN_RX_BUF bytes, one per
 *		message (the serving lcore's, as is all below)
 * @rfrom:	who sent each message
 * @rmsg:	recvmmsg()'s messages
 * @riov:	their iovecs, each its buffer
 * @rctl:	their control data: the size of glued datagrams (UDP_GRO)
 * @r_n:	messages received, of which @r_i are sorted; @r_off is where
 *		the next datagram of message @r_i starts
 * @r_i:	see @r_n
 * @r_off:	see @r_n
 * @smsg:	sendmmsg()'s messages
 * @siov:	their iovecs: the header, then the mbuf's segments
 * @giov:	a UDP_SEGMENT send's iovecs: those of its messages in turn
 * @gctl:	its control data: the datagrams' size
 * @st:		counters (one writer, the serving lcore; atomic)
 */
struct xc_vxlan {
	struct xc_hub hub;
	int fd;
	char local[XC_ADDR_TEXT_MAX];
	bool df;
	bool gso;
	bool gro;
	struct rte_mempool *pool;
	unsigned int n_tuns;
	unsigned int hi;
	uint16_t qcap;
	struct xc_vxlan_tun tun[XC_VXLAN_MAX_TUNS];
	uint8_t *rbuf;
	struct sockaddr_storage rfrom[XC_BURST];
	struct mmsghdr rmsg[XC_BURST];
	struct iovec riov[XC_BURST];
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} rctl[XC_BURST];
	unsigned int r_n;
	unsigned int r_i;
	uint32_t r_off;
	struct mmsghdr smsg[XC_BURST];
	struct iovec siov[XC_BURST][XC_VXLAN_IOV];
	struct iovec giov[XC_BURST * XC_VXLAN_IOV];
	/* aligned as a cmsghdr, not a union with one: its flexible array
	 * member inside a struct is a GNU extension clang refuses */
	char gctl[CMSG_SPACE(sizeof(uint16_t))]
		__attribute__((aligned(__alignof__(struct cmsghdr))));
	struct xc_vxlan_stats st;
};

extern const struct xc_end_ops xc_end_vxlan_ops;

int xc_vxlan_open(struct xc_vxlan **out, const char *local, uint16_t port,
		  bool df, char *err, size_t errlen);
int xc_vxlan_add(struct xc_vxlan *vx, struct xc_end *e, const char *remote,
		 uint16_t def_port, uint32_t vni, char *err, size_t errlen);
int xc_vxlan_add_beside(struct xc_vxlan *vx, struct xc_end *e,
			const char *remote, uint16_t def_port, uint32_t vni,
			char *err, size_t errlen);
int xc_vxlan_settle(struct xc_end *e);
const struct xc_vxlan_tun *xc_vxlan_find(struct xc_vxlan *vx, uint32_t vni,
					 const struct sockaddr_storage *addr);
void xc_vxlan_stop(struct xc_end *e);
void xc_vxlan_del(struct xc_end *e);
void xc_vxlan_stats(const struct xc_vxlan *vx, struct xc_vxlan_stats *s);
void xc_vxlan_flush(struct xc_vxlan *vx);
bool xc_vxlan_idle(const struct xc_vxlan *vx);
void xc_vxlan_close(struct xc_vxlan *vx);

#endif /* XC_VXLAN_H */
