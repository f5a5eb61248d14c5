/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan.c - cable ends that are VXLAN tunnels, all over one UDP socket
 *
 * Theory of operation (see vxlan.h for the model): receiving is the
 * trunk's way. A tunnel asked for frames gets those already sorted into
 * its queue; when that is empty, up to XC_BURST datagrams are sorted
 * (fill()): those left of the last receive, else those of one recvmmsg()
 * of up to XC_BURST messages, each into a 64 KB buffer of the socket's.
 * A message is one datagram, or, with UDP GRO, several of one sender
 * glued together, all of the size the control data gives but the last
 * (the kernel hands over what a sender's UDP GSO send made, or what the
 * interface's GRO glued, in one piece). Each datagram's 8-byte VXLAN
 * header says the VNI (vxlan_wire.c), the sender's address says the
 * remote; the pair picks the tunnel, and the frame is copied into an mbuf
 * of the socket's pool (glued datagrams may belong to several tunnels of
 * one remote: each is sorted on its own). Every datagram is counted once,
 * under what became of it.
 *
 * The socket's pool is shared by its tunnels, so each tunnel's queue
 * holds at most its share of it (qcap: half the pool split evenly, at
 * least a burst): a cable whose guest stops taking frames (its direction
 * then holds a burst and stops receiving) keeps what it has and drops
 * the rest as backlog, and the other tunnels still find mbufs (a stalled
 * tunnel holds its share and the burst its direction holds: with the
 * share's floor of a burst, about 60 stalled tunnels at once use up the
 * pool). Should the pool run dry all the same (that many such cables, or
 * delay lines holding frames), what arrives is read all the same and
 * counted as no-mbuf: the socket is drained either way (a held direction
 * drains it too, vxlan_drain()), and its lcore never spins on a readable
 * socket it cannot read. Datagrams received but not sorted yet count as
 * queued for every tunnel (vxlan_queued()), so the lcore sorts them
 * before it sleeps.
 *
 * Sending is one sendmmsg() per burst, each frame one message of iovecs:
 * the tunnel's prebuilt header, then every segment of the mbuf (a chain
 * is sent as it is). A run of two or more frames of one size (the last
 * may be shorter: the segments of a guest's TSO frame) goes instead as
 * one sendmsg() with UDP_SEGMENT, up to 64 KB: the kernel builds one
 * packet and cuts it into datagrams as late as it can (often never on
 * the way to a peer on this host, and a peer with UDP GRO takes it
 * whole), which costs a third of the CPU per datagram. The kernel
 * refuses such a send whole where a datagram of it does not fit the path
 * (it fragments single ones) or with DF set: those frames then go one by
 * one as before, with each one's fate counted, and runs of that size or
 * larger go one by one for a second before UDP_SEGMENT is tried again.
 * The socket is non-blocking: a full socket buffer (EAGAIN, ENOBUFS)
 * leaves the rest of the burst with the direction, which holds it
 * (backpressure); a frame the kernel refuses (EMSGSIZE with vxlan-df, no
 * route) is dropped and counted under its reason, by the socket and by
 * the cable's direction (too-big, refused).
 *
 * Outer fragmentation is the kernel's, set as Linux's vxlan device sets
 * it by default: IPv4 packets without DF (IP_PMTUDISC_DONT), IPv6 ones
 * fragmented by the sender (IPV6_PMTUDISC_DONT); with vxlan-df, DF is set
 * and a frame that does not fit is refused instead (tx-too-big).
 *
 * An idle lcore sleeps on the socket (the wait_fd end op, idle.c): a
 * datagram wakes it at once.
 */
#include <assert.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "coalesce.h"
#include "log.h"
#include "vxlan.h"

/**
 * set_opt() - set a socket option of type int, saying what failed
 * @fd:		socket
 * @level:	its level
 * @name:	the option
 * @val:	value
 * @what:	name of the option, for the message
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -errno
 */
static int set_opt(int fd, int level, int name, int val, const char *what,
		   char *err, size_t errlen)
{
	if (setsockopt(fd, level, name, &val, sizeof(val)) == 0)
		return 0;
	snprintf(err, errlen, "vxlan socket: %s: %s", what, strerror(errno));
	return -errno;
}

/**
 * open_socket() - the tunnel socket: bound, non-blocking, fragmenting as
 *		   asked, receiving glued datagrams if the kernel can
 * @ss:		local address and port (any: a dual-stack IPv6 socket)
 * @df:		set DF instead of letting the kernel fragment
 * @gso:	set if the kernel sends with UDP_SEGMENT
 * @gro:	set if it glues received datagrams (UDP_GRO)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the fd, or -errno
 */
static int open_socket(const struct sockaddr_storage *ss, bool df, bool *gso,
		       bool *gro, char *err, size_t errlen)
{
	int fam = ss->ss_family, fd, rc = 0;
	int pmtu4 = df ? IP_PMTUDISC_DO : IP_PMTUDISC_DONT;
	int pmtu6 = df ? IPV6_PMTUDISC_DO : IPV6_PMTUDISC_DONT;

	fd = socket(fam, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "vxlan socket: %s", strerror(errno));
		return -errno;
	}
	if (fam == AF_INET6) {
		rc = set_opt(fd, IPPROTO_IPV6, IPV6_V6ONLY, 0, "IPV6_V6ONLY",
			     err, errlen);
		if (rc == 0)
			rc = set_opt(fd, IPPROTO_IPV6, IPV6_MTU_DISCOVER, pmtu6,
				     "IPV6_MTU_DISCOVER", err, errlen);
		if (rc == 0)
			rc = set_opt(fd, IPPROTO_IPV6, IPV6_DONTFRAG, df,
				     "IPV6_DONTFRAG", err, errlen);
	}
	/* on a dual-stack socket too: for its IPv4 packets */
	if (rc == 0)
		rc = set_opt(fd, IPPROTO_IP, IP_MTU_DISCOVER, pmtu4,
			     "IP_MTU_DISCOVER", err, errlen);
	/* bigger buffers if allowed; the kernel caps them (rmem_max) */
	(void)set_opt(fd, SOL_SOCKET, SO_RCVBUF, 4 << 20, "", err, errlen);
	(void)set_opt(fd, SOL_SOCKET, SO_SNDBUF, 4 << 20, "", err, errlen);
	/* UDP GSO and GRO where the kernel has them (Linux 4.18 and 5.0):
	 * a size of 0 asks for no segmenting of plain sends */
	*gso = set_opt(fd, SOL_UDP, UDP_SEGMENT, 0, "", err, errlen) == 0;
	*gro = set_opt(fd, SOL_UDP, UDP_GRO, 1, "", err, errlen) == 0;
	err[0] = '\0';
	if (rc == 0 && bind(fd, (const struct sockaddr *)ss,
			    fam == AF_INET ? sizeof(struct sockaddr_in) :
					     sizeof(struct sockaddr_in6))) {
		rc = -errno;
		snprintf(err, errlen, "vxlan socket: cannot bind UDP port %u: %s",
			 ntohs(((const struct sockaddr_in *)ss)->sin_port),
			 strerror(errno));
	}
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

#define VXLAN_CTR(name, field, meaning) \
	{ name, meaning, offsetof(struct xc_vxlan_stats, field), 1, 0 }

/* every counter of the tunnel socket, in the order shown */
static const struct xc_counter vxlan_counters[] = {
	VXLAN_CTR("rx-datagrams", rx_datagrams, "datagrams received"),
	VXLAN_CTR("rx-short", rx_short,
		  "dropped: shorter than a VXLAN and an Ethernet header"),
	VXLAN_CTR("rx-bad-flags", rx_bad_flags,
		  "dropped: VXLAN I flag (valid VNI) not set"),
	VXLAN_CTR("rx-too-big", rx_too_big,
		  "dropped: a frame larger than a tunnel carries"),
	VXLAN_CTR("unknown-vni", unknown_vni, "dropped: no tunnel has the VNI"),
	VXLAN_CTR("unknown-remote", unknown_remote,
		  "dropped: the VNI's tunnel has another remote address"),
	VXLAN_CTR("backlog", backlog,
		  "dropped: their tunnel's queue held its share of the socket's buffers"),
	VXLAN_CTR("no-mbuf", no_mbuf,
		  "dropped: every buffer of the socket was in use"),
	VXLAN_CTR("rx-gro-datagrams", rx_gro_datagrams,
		  "datagrams received glued to others of their sender (UDP GRO); counted in rx-datagrams too"),
	VXLAN_CTR("tx-datagrams", tx_datagrams, "datagrams sent"),
	VXLAN_CTR("tx-too-big", tx_too_big,
		  "frames the kernel refused as too big (vxlan-df); each cable counts them as too-big"),
	VXLAN_CTR("tx-error", tx_error,
		  "frames the kernel refused otherwise (no route...); each cable counts them as refused"),
	VXLAN_CTR("tx-gso-datagrams", tx_gso_datagrams,
		  "datagrams sent in runs of one size, one send each (UDP GSO); counted in tx-datagrams too"),
	VXLAN_CTR("tx-gso-refused", tx_gso_refused,
		  "runs the kernel refused to send at once (they do not fit the path, or DF): sent one by one"),
};

static const struct xc_counter_table vxlan_table = {
	vxlan_counters, RTE_DIM(vxlan_counters)
};

static_assert(sizeof(struct xc_vxlan_stats) <=
	      XC_HUB_STATS_MAX * sizeof(uint64_t), "tunnel counters fit a hub's");

/* hub_snapshot() - hub op: the socket's counters */
static void hub_snapshot(const struct xc_hub *h, void *s)
{
	xc_vxlan_stats((const struct xc_vxlan *)h, s);
}

/* hub_name() - hub op: the socket's local address */
static const char *hub_name(const struct xc_hub *h)
{
	return ((const struct xc_vxlan *)h)->local;
}

/* hub_title() - hub op: "vxlan LOCAL" */
static void hub_title(const struct xc_hub *h, char *buf, size_t len)
{
	snprintf(buf, len, "vxlan %s", ((const struct xc_vxlan *)h)->local);
}

/* hub_describe() - hub op: the socket's address */
static void hub_describe(const struct xc_hub *h, xc_kv_fn fn, void *arg)
{
	const struct xc_vxlan *vx = (const struct xc_vxlan *)h;

	fn(arg, "local", vx->local, 0);
	fn(arg, "df", vx->df ? "yes" : "no", 0);
	fn(arg, "udp-gso", vx->gso ? "yes" : "no", 0);
	fn(arg, "udp-gro", vx->gro ? "yes" : "no", 0);
}

static const struct xc_hub_ops vxlan_hub_ops = {
	.group = "vxlan",
	.tel = "vxlan",
	.counters = &vxlan_table,
	.snapshot = hub_snapshot,
	.name = hub_name,
	.title = hub_title,
	.describe = hub_describe,
};

/**
 * xc_vxlan_open() - open the tunnel socket and its pool
 * @out:	set to the socket's state
 * @local:	local address, NULL for any (IPv4 and IPv6)
 * @port:	UDP port
 * @df:		outer packets may not be fragmented
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL for a bad address, or -errno
 */
int xc_vxlan_open(struct xc_vxlan **out, const char *local, uint16_t port,
		  bool df, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	struct xc_vxlan *vx;
	bool gso, gro;
	char why[128];
	unsigned int i;
	int fd;

	if (xc_addr_parse(local ? local : "::", false, port, &ss, why,
			  sizeof(why))) {
		snprintf(err, errlen, "vxlan-local: %s", why);
		return -EINVAL;
	}
	fd = open_socket(&ss, df, &gso, &gro, err, errlen);
	if (fd == -EAFNOSUPPORT && local == NULL) {	/* no IPv6 here */
		xc_addr_parse("0.0.0.0", false, port, &ss, why, sizeof(why));
		fd = open_socket(&ss, df, &gso, &gro, err, errlen);
	}
	if (fd < 0)
		return fd;
	vx = calloc(1, sizeof(*vx));
	if (vx == NULL) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	vx->hub.ops = &vxlan_hub_ops;
	vx->fd = fd;
	vx->df = df;
	vx->gso = gso;
	vx->gro = gro;
	xc_addr_format(&ss, vx->local, sizeof(vx->local));
	/* pages the kernel never writes to are never backed */
	vx->rbuf = malloc((size_t)XC_BURST * XC_VXLAN_RX_BUF);
	vx->pool = rte_pktmbuf_pool_create("xc_vxlan", XC_VXLAN_POOL_MBUFS,
					   256, 0, XC_VXLAN_FRAME_MAX +
					   RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	if (vx->pool == NULL || vx->rbuf == NULL) {
		snprintf(err, errlen, "vxlan: cannot create mbuf pool: %s",
			 vx->pool ? "out of memory" : rte_strerror(rte_errno));
		xc_vxlan_close(vx);
		return -ENOMEM;
	}
	for (i = 0; i < XC_BURST; i++) {
		vx->riov[i].iov_base = vx->rbuf + (size_t)i * XC_VXLAN_RX_BUF;
		vx->riov[i].iov_len = XC_VXLAN_RX_BUF;
	}
	*out = vx;
	return 0;
}

/**
 * set_qcap() - share half the socket's pool out between its tunnels (see
 *		the theory of operation), as they come and go
 * @vx:		socket
 */
static void set_qcap(struct xc_vxlan *vx)
{
	unsigned int n = RTE_MAX(vx->n_tuns, 1u);

	__atomic_store_n(&vx->qcap,
			 (uint16_t)RTE_MAX(XC_VXLAN_QMIN + 0u,
					   RTE_MIN(XC_VXLAN_QLEN + 0u,
						   (XC_VXLAN_POOL_MBUFS - XC_BURST) /
						   (2 * n))),
			 __ATOMIC_RELAXED);
}

/**
 * same() - a tunnel with a VNI and a remote
 * @vx:		socket
 * @vni:	VNI
 * @addr:	remote (the socket's family)
 * @waiting:	one waiting beside another counts too
 *
 * Return: the tunnel, or NULL
 */
static struct xc_vxlan_tun *same(struct xc_vxlan *vx, uint32_t vni,
				 const struct sockaddr_storage *addr,
				 bool waiting)
{
	unsigned int i;

	for (i = 0; i < vx->hi; i++)
		if (vx->tun[i].end && (waiting || !vx->tun[i].pending) &&
		    vx->tun[i].vni == vni &&
		    xc_addr_same_host(&vx->tun[i].remote, addr))
			return &vx->tun[i];
	return NULL;
}

/**
 * add() - make a cable end a tunnel on the socket, in its first free
 *	   slot; its datagrams are sorted to it from now on, or, if it
 *	   waits beside another, once xc_vxlan_settle() says so (main
 *	   thread)
 * @vx:		socket
 * @e:		the end (cable, idx, label set)
 * @remote:	"ADDR[:PORT]"
 * @def_port:	the remote's port if @remote gives none
 * @vni:	VNI
 * @beside:	a tunnel with the VNI and remote is no error: the new
 *		one waits beside it
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL (bad or IPv6 remote on an IPv4 socket, a VNI
 *	   and remote used twice, too many tunnels)
 */
static int add(struct xc_vxlan *vx, struct xc_end *e, const char *remote,
	       uint16_t def_port, uint32_t vni, bool beside, char *err,
	       size_t errlen)
{
	struct sockaddr_storage local, addr;
	struct xc_vxlan_tun *t;
	socklen_t len = sizeof(local);
	char why[128], text[XC_ADDR_TEXT_MAX];
	bool pending;
	unsigned int k;

	for (k = 0; k < XC_VXLAN_MAX_TUNS && vx->tun[k].end; k++)
		;
	if (k == XC_VXLAN_MAX_TUNS) {
		snprintf(err, errlen, "too many tunnel ends (%d)",
			 XC_VXLAN_MAX_TUNS);
		return -EINVAL;
	}
	if (xc_addr_parse(remote, true, def_port, &addr, why, sizeof(why)) ||
	    vni > XC_VXLAN_VNI_MAX) {
		snprintf(err, errlen, "tunnel %s vni %u: %s", remote, vni,
			 vni > XC_VXLAN_VNI_MAX ? "VNI above 16777215" : why);
		return -EINVAL;
	}
	if (getsockname(vx->fd, (struct sockaddr *)&local, &len) == 0 &&
	    local.ss_family == AF_INET6)
		xc_addr_to_v6(&addr);
	else if (addr.ss_family == AF_INET6) {
		snprintf(err, errlen, "tunnel %s: an IPv6 remote needs an IPv6 (or no) vxlan-local",
			 remote);
		return -EINVAL;
	}
	if (!beside && same(vx, vni, &addr, true) != NULL) {
		snprintf(err, errlen, "tunnel %s vni %u: used by two cable ends",
			 remote, vni);
		return -EINVAL;
	}
	pending = same(vx, vni, &addr, false) != NULL;
	t = &vx->tun[k];
	memset(t, 0, sizeof(*t));
	t->pending = pending;
	t->remote = addr;
	t->rlen = t->remote.ss_family == AF_INET ? sizeof(struct sockaddr_in) :
						   sizeof(struct sockaddr_in6);
	t->vx = vx;
	t->end = e;
	t->vni = vni;
	xc_vxlan_encap(t->hdr, vni);
	xc_addr_format(&t->remote, text, sizeof(text));
	snprintf(t->where, sizeof(t->where), "vxlan %s vni %u", text, vni);
	e->ops = &xc_end_vxlan_ops;
	e->priv = t;
	e->hub = &vx->hub;
	e->port = NULL;
	vx->n_tuns++;
	set_qcap(vx);
	if (k >= vx->hi)
		__atomic_store_n(&vx->hi, k + 1, __ATOMIC_RELEASE);
	/* written whole before the lcore may sort a datagram to it */
	if (!pending)
		__atomic_store_n(&t->live, 1, __ATOMIC_RELEASE);
	return 0;
}

/**
 * xc_vxlan_find() - the tunnel with a VNI and a remote, waiting or not
 * @vx:		socket
 * @vni:	VNI
 * @addr:	remote, in the socket's family (xc_addr_to_v6() on an IPv6
 *		socket)
 *
 * Return: the tunnel, or NULL
 */
const struct xc_vxlan_tun *xc_vxlan_find(struct xc_vxlan *vx, uint32_t vni,
					 const struct sockaddr_storage *addr)
{
	return same(vx, vni, addr, true);
}

/* xc_vxlan_add() - add() a tunnel whose VNI and remote no other has */
int xc_vxlan_add(struct xc_vxlan *vx, struct xc_end *e, const char *remote,
		 uint16_t def_port, uint32_t vni, char *err, size_t errlen)
{
	return add(vx, e, remote, def_port, vni, false, err, errlen);
}

/**
 * xc_vxlan_add_beside() - add() a tunnel; one whose VNI and remote
 *			   another has waits beside it, nothing sorted to
 *			   it, until that one is gone and xc_vxlan_settle()
 *			   makes it live (a cable made whole before the one
 *			   it replaces goes)
 * @vx:		socket
 * @e:		the end (cable, idx, label set)
 * @remote:	"ADDR[:PORT]"
 * @def_port:	the remote's port if @remote gives none
 * @vni:	VNI
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: as add()
 */
int xc_vxlan_add_beside(struct xc_vxlan *vx, struct xc_end *e,
			const char *remote, uint16_t def_port, uint32_t vni,
			char *err, size_t errlen)
{
	return add(vx, e, remote, def_port, vni, true, err, errlen);
}

/**
 * xc_vxlan_settle() - a tunnel waiting beside another with its VNI and
 *		       remote goes live, that one gone (main thread)
 * @e:		tunnel end
 *
 * Return: 0 (or it was not waiting), -EBUSY if another tunnel with its
 *	   VNI and remote is still there (it keeps waiting)
 */
int xc_vxlan_settle(struct xc_end *e)
{
	struct xc_vxlan_tun *t = e->priv;

	if (t == NULL || !t->pending)
		return 0;
	if (same(t->vx, t->vni, &t->remote, false) != NULL)
		return -EBUSY;
	t->pending = false;
	__atomic_store_n(&t->live, 1, __ATOMIC_RELEASE);
	return 0;
}

/**
 * xc_vxlan_stop() - sort no more datagrams to a tunnel (main thread,
 *		     before the lcore lets go of the tunnel's cable)
 * @e:		tunnel end
 */
void xc_vxlan_stop(struct xc_end *e)
{
	struct xc_vxlan_tun *t = e->priv;

	__atomic_store_n(&t->live, 0, __ATOMIC_RELEASE);
}

/**
 * drop_queue() - free what was sorted to a tunnel that will not take it
 *		  any more, counted as backlog
 * @t:		tunnel
 */
static void drop_queue(struct xc_vxlan_tun *t)
{
	xc_stat_add(&t->vx->st.backlog, t->q.n);
	while (t->q.n) {
		rte_pktmbuf_free(t->q.m[t->q.head]);
		t->q.head = (uint16_t)((t->q.head + 1) % XC_VXLAN_QLEN);
		t->q.n--;
	}
}

/**
 * xc_vxlan_del() - take a tunnel away: what was sorted to it is dropped
 *		    (backlog), its slot is free (main thread, once the
 *		    socket's lcore let go of its cable)
 * @e:		tunnel end
 */
void xc_vxlan_del(struct xc_end *e)
{
	struct xc_vxlan_tun *t = e->priv;
	struct xc_vxlan *vx = t->vx;

	xc_vxlan_stop(e);
	drop_queue(t);
	t->end = NULL;
	e->priv = NULL;
	e->hub = NULL;
	vx->n_tuns--;
	set_qcap(vx);
}

/**
 * find_tun() - the tunnel a datagram is for
 * @vx:		socket
 * @vni:	its VNI
 * @from:	its sender
 *
 * Return: the tunnel, or NULL with the drop counted
 */
static struct xc_vxlan_tun *find_tun(struct xc_vxlan *vx, uint32_t vni,
				     const struct sockaddr_storage *from)
{
	unsigned int i, hi = __atomic_load_n(&vx->hi, __ATOMIC_ACQUIRE);
	bool vni_known = false;

	for (i = 0; i < hi; i++) {
		struct xc_vxlan_tun *t = &vx->tun[i];

		if (!__atomic_load_n(&t->live, __ATOMIC_ACQUIRE) ||
		    t->vni != vni)
			continue;
		if (xc_addr_same_host(&t->remote, from))
			return t;
		vni_known = true;
	}
	xc_stat_add(vni_known ? &vx->st.unknown_remote : &vx->st.unknown_vni,
		    1);
	return NULL;
}

/**
 * receive() - one recvmmsg() of up to XC_BURST messages into the socket's
 *	       buffers, all sorted before (the serving lcore)
 * @vx:		socket
 *
 * Return: messages received
 */
static unsigned int receive(struct xc_vxlan *vx)
{
	unsigned int i;
	int got;

	for (i = 0; i < XC_BURST; i++) {
		struct msghdr *h = &vx->rmsg[i].msg_hdr;

		h->msg_name = &vx->rfrom[i];
		h->msg_namelen = sizeof(vx->rfrom[i]);
		h->msg_iov = &vx->riov[i];
		h->msg_iovlen = 1;
		h->msg_control = &vx->rctl[i];
		h->msg_controllen = sizeof(vx->rctl[i]);
		h->msg_flags = 0;
	}
	got = recvmmsg(vx->fd, vx->rmsg, XC_BURST, MSG_DONTWAIT, NULL);
	vx->r_n = got > 0 ? (unsigned int)got : 0;
	vx->r_i = 0;
	vx->r_off = 0;
	return vx->r_n;
}

/**
 * glued() - the size of each datagram of a received message but the
 *	     last, if the kernel glued several together (UDP GRO)
 * @vx:		socket
 * @i:		the message
 *
 * Return: that size, or the message's length if it is one datagram
 */
static uint32_t glued(struct xc_vxlan *vx, unsigned int i)
{
	struct msghdr *h = &vx->rmsg[i].msg_hdr;
	struct cmsghdr *c;
	int size;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c))
		if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO &&
		    c->cmsg_len >= CMSG_LEN(sizeof(int))) {
			memcpy(&size, CMSG_DATA(c), sizeof(size));
			if (size > 0)
				return (uint32_t)size;
		}
	return vx->rmsg[i].msg_len;
}

/**
 * take() - sort one received datagram: copied into an mbuf on its
 *	    tunnel's queue, or dropped and counted
 * @vx:		socket
 * @d:		the datagram: VXLAN header, then the frame
 * @len:	its length
 * @from:	its sender
 */
static void take(struct xc_vxlan *vx, const uint8_t *d, uint32_t len,
		 const struct sockaddr_storage *from)
{
	struct xc_vxlan_tun *t;
	struct rte_mbuf *m;
	uint32_t vni = 0;

	if (len > XC_VXLAN_HLEN + XC_VXLAN_FRAME_MAX) {
		xc_stat_add(&vx->st.rx_too_big, 1);
		return;
	}
	switch (xc_vxlan_decap(d, len, &vni)) {
	case XC_VXLAN_SHORT:
		xc_stat_add(&vx->st.rx_short, 1);
		return;
	case XC_VXLAN_NO_I:
		xc_stat_add(&vx->st.rx_bad_flags, 1);
		return;
	case XC_VXLAN_OK:
		break;
	}
	t = find_tun(vx, vni, from);
	if (t == NULL)
		return;
	if (t->q.n >= __atomic_load_n(&vx->qcap, __ATOMIC_RELAXED)) {
		xc_stat_add(&vx->st.backlog, 1);
		return;
	}
	m = rte_pktmbuf_alloc(vx->pool);
	if (m == NULL) {
		xc_stat_add(&vx->st.no_mbuf, 1);
		return;
	}
	len -= XC_VXLAN_HLEN;
	rte_memcpy(rte_pktmbuf_mtod(m, void *), d + XC_VXLAN_HLEN, len);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	t->q.m[(t->q.head + t->q.n++) % XC_VXLAN_QLEN] = m;
}

/**
 * fill() - sort up to a burst of received datagrams: those left of the
 *	    last receive first, else those of one new receive
 * @vx:		socket
 */
static void fill(struct xc_vxlan *vx)
{
	unsigned int sorted = 0;
	bool received = false;

	while (sorted < XC_BURST) {
		struct mmsghdr *mm;
		uint32_t size, len;

		if (vx->r_i == vx->r_n) {
			if (received || receive(vx) == 0)
				return;
			received = true;
		}
		mm = &vx->rmsg[vx->r_i];
		if (mm->msg_hdr.msg_flags & MSG_TRUNC) {
			/* more than UDP carries: cannot happen */
			xc_stat_add(&vx->st.rx_datagrams, 1);
			xc_stat_add(&vx->st.rx_too_big, 1);
			vx->r_i++;
			continue;
		}
		size = glued(vx, vx->r_i);
		len = RTE_MIN(size, mm->msg_len - vx->r_off);
		xc_stat_add(&vx->st.rx_datagrams, 1);
		if (size < mm->msg_len)
			xc_stat_add(&vx->st.rx_gro_datagrams, 1);
		take(vx, (const uint8_t *)vx->riov[vx->r_i].iov_base + vx->r_off,
		     len, &vx->rfrom[vx->r_i]);
		sorted++;
		vx->r_off += len;
		if (vx->r_off >= mm->msg_len || len == 0) {
			vx->r_i++;
			vx->r_off = 0;
		}
	}
}

/**
 * vxlan_rx() - end op: the frames received for a tunnel
 * @e:		tunnel end
 * @q:		queue (a tunnel has one)
 * @pkts:	filled
 * @n:		room
 *
 * Return: frames given
 */
static uint16_t vxlan_rx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	struct xc_vxlan_tun *t = e->priv;
	uint16_t i;

	(void)q;
	if (t->q.n == 0)
		fill(t->vx);
	for (i = 0; i < n && t->q.n; i++) {
		pkts[i] = t->q.m[t->q.head];
		t->q.head = (uint16_t)((t->q.head + 1) % XC_VXLAN_QLEN);
		t->q.n--;
	}
	return i;
}

/**
 * vxlan_drain() - end op: receive one burst for every tunnel (a tunnel's
 *		   direction holds frames and does not receive)
 * @e:		tunnel end
 */
static void vxlan_drain(struct xc_end *e)
{
	fill(((struct xc_vxlan_tun *)e->priv)->vx);
}

/**
 * vxlan_queued() - end op: do frames received for the tunnel wait in its
 *		    queue, or datagrams received for any tunnel wait to be
 *		    sorted?
 * @e:		tunnel end
 *
 * Return: true if so
 */
static bool vxlan_queued(const struct xc_end *e)
{
	const struct xc_vxlan_tun *t = e->priv;

	return t->q.n != 0 || t->vx->r_i != t->vx->r_n;
}

/**
 * set_msg() - one frame as one message: the tunnel's header, then the
 *	       frame's segments
 * @t:		tunnel
 * @k:		message slot
 * @m:		the frame
 *
 * Return: true, or false if the frame has too many segments
 */
static bool set_msg(struct xc_vxlan_tun *t, unsigned int k,
		    struct rte_mbuf *m)
{
	struct xc_vxlan *vx = t->vx;
	struct msghdr *h = &vx->smsg[k].msg_hdr;
	struct iovec *iov = vx->siov[k];
	unsigned int n = 1;

	if (m->nb_segs >= XC_VXLAN_IOV)
		return false;
	iov[0].iov_base = t->hdr;
	iov[0].iov_len = XC_VXLAN_HLEN;
	for (; m; m = m->next, n++) {
		iov[n].iov_base = rte_pktmbuf_mtod(m, void *);
		iov[n].iov_len = m->data_len;
	}
	memset(h, 0, sizeof(*h));
	h->msg_name = &t->remote;
	h->msg_namelen = t->rlen;
	h->msg_iov = iov;
	h->msg_iovlen = n;
	return true;
}

/**
 * refuse() - count a frame the tunnel took but cannot send: on the socket
 *	      and on the sending direction
 * @sock_ctr:	the socket's counter (tx_too_big, tx_error)
 * @drop:	the direction's drop counters
 * @why:	the direction's reason (XC_DROP_TOO_BIG, XC_DROP_REFUSED)
 */
static void refuse(uint64_t *sock_ctr, uint64_t *drop, enum xc_drop why)
{
	xc_stat_add(sock_ctr, 1);
	xc_stat_add(&drop[why], 1);
}

/**
 * gso_run() - how many frames from @k on one UDP_SEGMENT send can take:
 *	       frames of @k's length, the last of them possibly shorter,
 *	       up to XC_VXLAN_GSO_BYTES in all
 * @t:		tunnel
 * @pkts:	the frames
 * @ok:		which have a message
 * @k:		the first
 * @n:		how many frames there are
 *
 * Return: the run's length, 0 if it is not two frames or more, or if the
 *	   kernel refused runs of that size lately
 */
static unsigned int gso_run(const struct xc_vxlan_tun *t,
			    struct rte_mbuf *const *pkts, const bool *ok,
			    unsigned int k, unsigned int n)
{
	uint32_t len = pkts[k]->pkt_len, bytes = XC_VXLAN_HLEN + len;
	unsigned int r = 1;

	if (!t->vx->gso || (t->gso_refused &&
			    XC_VXLAN_HLEN + len >= t->gso_refused &&
			    rte_rdtsc() < t->gso_retry))
		return 0;
	while (k + r < n && ok[k + r]) {
		uint32_t l = pkts[k + r]->pkt_len;

		if (l > len || bytes + XC_VXLAN_HLEN + l > XC_VXLAN_GSO_BYTES)
			break;
		bytes += XC_VXLAN_HLEN + l;
		r++;
		if (l < len)	/* a shorter one ends it */
			break;
	}
	return r >= 2 ? r : 0;
}

/**
 * send_gso() - send a run of frames as one UDP_SEGMENT send
 * @t:		tunnel
 * @k:		message of the first
 * @r:		how many (gso_run())
 * @size:	the datagrams' size, but the last's
 *
 * Return: the sendmsg() result: bytes sent, or -1 with errno set
 */
static ssize_t send_gso(struct xc_vxlan_tun *t, unsigned int k,
			unsigned int r, uint32_t size)
{
	struct xc_vxlan *vx = t->vx;
	struct msghdr h = {
		.msg_name = &t->remote, .msg_namelen = t->rlen,
		.msg_iov = vx->giov, .msg_control = vx->gctl,
		.msg_controllen = sizeof(vx->gctl),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&h);
	uint16_t gso = (uint16_t)size;
	unsigned int i, j, v = 0;

	for (i = k; i < k + r; i++) {
		const struct msghdr *m = &vx->smsg[i].msg_hdr;

		for (j = 0; j < m->msg_iovlen; j++)
			vx->giov[v++] = m->msg_iov[j];
	}
	h.msg_iovlen = v;
	c->cmsg_level = SOL_UDP;
	c->cmsg_type = UDP_SEGMENT;
	c->cmsg_len = CMSG_LEN(sizeof(gso));
	memcpy(CMSG_DATA(c), &gso, sizeof(gso));
	return sendmsg(vx->fd, &h, MSG_DONTWAIT);
}

/**
 * held() - is a send error the socket's full buffer (hold the frames)?
 * @err:	errno
 *
 * Return: true if so
 */
static bool held(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == ENOBUFS ||
	       err == EINTR;
}

/**
 * one_by_one() - how many frames from @k go one datagram each: a run the
 *		  kernel refused whole, or those up to the next run
 * @t:		tunnel
 * @pkts:	the frames
 * @ok:		which have a message
 * @k:		the first, which starts no run
 * @n:		how many frames there are
 *
 * Return: at least 1
 */
static unsigned int one_by_one(const struct xc_vxlan_tun *t,
			       struct rte_mbuf *const *pkts, const bool *ok,
			       unsigned int k, unsigned int n)
{
	unsigned int span = 1;

	while (k + span < n && ok[k + span] &&
	       gso_run(t, pkts, ok, k + span, n) == 0)
		span++;
	return span;
}

/**
 * vxlan_tx() - end op: send frames through the tunnel, one datagram each;
 *		runs of one size in one UDP_SEGMENT send where the kernel
 *		takes it
 * @e:		tunnel end
 * @q:		queue
 * @pkts:	frames (whole and checksummed: the end takes no offloads);
 *		those refused are set to NULL once freed
 * @n:		how many
 * @drop:	the sending direction's drop counters, for those refused
 *
 * Return: frames taken: sent, or refused by the kernel and counted; the
 *	   rest (the socket's buffer is full) stay the caller's
 */
static uint16_t vxlan_tx(struct xc_end *e, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n, uint64_t *drop)
{
	struct xc_vxlan_tun *t = e->priv;
	struct xc_vxlan *vx = t->vx;
	unsigned int k, done = 0, run, span;
	bool ok[XC_BURST], refused[XC_BURST];
	int sent;

	(void)q;
	n = RTE_MIN(n, XC_BURST);
	for (k = 0; k < n; k++) {
		ok[k] = set_msg(t, k, pkts[k]);
		refused[k] = false;
	}
	while (done < n) {
		if (!ok[done]) {
			refuse(&vx->st.tx_error, drop, XC_DROP_REFUSED);
			refused[done++] = true;
			continue;
		}
		run = gso_run(t, pkts, ok, done, n);
		span = run;
		if (run) {
			uint32_t size = XC_VXLAN_HLEN + pkts[done]->pkt_len;

			if (send_gso(t, done, run, size) >= 0) {
				xc_stat_add(&vx->st.tx_datagrams, run);
				xc_stat_add(&vx->st.tx_gso_datagrams, run);
				done += run;
				continue;
			}
			if (held(errno))
				break;	/* the socket's buffer is full */
			/* refused whole (a datagram does not fit the path,
			 * DF...): one by one, each counted as it fares */
			xc_stat_add(&vx->st.tx_gso_refused, 1);
			if (t->gso_refused == 0 || size < t->gso_refused)
				t->gso_refused = size;
			t->gso_retry = rte_rdtsc() + rte_get_tsc_hz();
		} else {
			span = one_by_one(t, pkts, ok, done, n);
		}
		sent = sendmmsg(vx->fd, &vx->smsg[done], span, MSG_DONTWAIT);
		if (sent > 0) {
			xc_stat_add(&vx->st.tx_datagrams, (uint64_t)sent);
			done += (unsigned int)sent;
			continue;
		}
		if (sent == 0 || held(errno))
			break;	/* the socket's buffer is full: hold the rest */
		if (errno == EMSGSIZE)
			refuse(&vx->st.tx_too_big, drop, XC_DROP_TOO_BIG);
		else
			refuse(&vx->st.tx_error, drop, XC_DROP_REFUSED);
		refused[done++] = true;
	}
	rte_pktmbuf_free_bulk(pkts, done);
	for (k = 0; k < done; k++)
		if (refused[k])
			pkts[k] = NULL;
	return (uint16_t)done;
}

/**
 * vxlan_caps() - end op: a tunnel takes whole, checksummed frames of up to
 *		  XC_VXLAN_FRAME_MAX bytes; the kernel fragments the outer
 *		  packet if the path needs it (unless vxlan-df)
 * @e:		tunnel end
 *
 * Return: packed capabilities
 */
static uint64_t vxlan_caps(const struct xc_end *e)
{
	(void)e;
	return xc_caps_pack(0, XC_VXLAN_FRAME_MAX);
}

/**
 * vxlan_is_up() - end op: a tunnel is always up (like Linux's vxlan
 *		   device, it cannot know whether its remote listens)
 * @e:		tunnel end
 *
 * Return: true
 */
static bool vxlan_is_up(const struct xc_end *e)
{
	(void)e;
	return true;
}

/**
 * vxlan_where() - end op: "vxlan ADDR:PORT vni N"
 * @e:		tunnel end
 *
 * Return: the text, alive as long as the end
 */
static const char *vxlan_where(const struct xc_end *e)
{
	return ((const struct xc_vxlan_tun *)e->priv)->where;
}

/**
 * vxlan_describe() - end op: the tunnel's facts
 * @e:		tunnel end
 * @fn:		called once per fact
 * @arg:	its argument
 */
static void vxlan_describe(const struct xc_end *e, xc_kv_fn fn, void *arg)
{
	const struct xc_vxlan_tun *t = e->priv;
	char text[XC_ADDR_TEXT_MAX];

	xc_addr_format(&t->remote, text, sizeof(text));
	fn(arg, "kind", "vxlan", 0);
	fn(arg, "link", "up", 0);
	fn(arg, "remote", text, 0);
	fn(arg, "vni", NULL, t->vni);
	fn(arg, "local", t->vx->local, 0);
	fn(arg, "df", t->vx->df ? "yes" : "no", 0);
}

/**
 * vxlan_wait_fd() - end op: the socket, readable when a datagram comes
 * @e:		tunnel end
 *
 * Return: the fd
 */
static int vxlan_wait_fd(const struct xc_end *e)
{
	return ((const struct xc_vxlan_tun *)e->priv)->vx->fd;
}

const struct xc_end_ops xc_end_vxlan_ops = {
	.kind = "vxlan",
	.rx = vxlan_rx,
	.tx = vxlan_tx,
	.caps = vxlan_caps,
	.shared = true,
	.queued = vxlan_queued,
	.drain = vxlan_drain,
	.is_up = vxlan_is_up,
	.where = vxlan_where,
	.describe = vxlan_describe,
	.wait_fd = vxlan_wait_fd,
	.rx_stage = xc_coalesce_stage,
};

/**
 * xc_vxlan_stats() - read the socket's counters (any thread)
 * @vx:		socket
 * @s:		filled
 */
void xc_vxlan_stats(const struct xc_vxlan *vx, struct xc_vxlan_stats *s)
{
	const uint64_t *src = (const uint64_t *)&vx->st;
	uint64_t *dst = (uint64_t *)s;
	size_t i;

	for (i = 0; i < sizeof(*s) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/**
 * unsorted() - datagrams received and not sorted yet
 * @vx:		socket
 *
 * Return: how many
 */
static uint64_t unsorted(struct xc_vxlan *vx)
{
	uint64_t n = 0;

	while (vx->r_i < vx->r_n) {
		uint32_t size = glued(vx, vx->r_i);
		uint32_t left = vx->rmsg[vx->r_i].msg_len - vx->r_off;

		n += size ? (left + size - 1) / size : 1;
		vx->r_i++;
		vx->r_off = 0;
	}
	return n;
}

/**
 * xc_vxlan_flush() - at shutdown, free frames received for tunnels that
 *		      will not take them any more (counted as backlog, as
 *		      are datagrams received and not sorted yet)
 * @vx:		socket, whose lcore is not running
 */
void xc_vxlan_flush(struct xc_vxlan *vx)
{
	unsigned int i;
	uint64_t n = unsorted(vx);

	xc_stat_add(&vx->st.rx_datagrams, n);
	xc_stat_add(&vx->st.backlog, n);
	for (i = 0; i < vx->hi; i++)
		if (vx->tun[i].end)
			drop_queue(&vx->tun[i]);
}

/**
 * xc_vxlan_idle() - are all of the socket's mbufs back? (none is in a
 *		     delay line or a NIC's transmit ring: the socket may
 *		     close)
 * @vx:		socket, without tunnels
 *
 * Return: true if so
 */
bool xc_vxlan_idle(const struct xc_vxlan *vx)
{
	return rte_mempool_in_use_count(vx->pool) == 0;
}

/**
 * xc_vxlan_close() - close the socket and free what it holds
 * @vx:		socket, or NULL
 */
void xc_vxlan_close(struct xc_vxlan *vx)
{
	if (vx == NULL)
		return;
	if (vx->pool)
		xc_vxlan_flush(vx);
	if (vx->fd >= 0)
		close(vx->fd);
	rte_mempool_free(vx->pool);
	free(vx->rbuf);
	free(vx);
}
