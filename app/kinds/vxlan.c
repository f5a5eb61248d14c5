/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan.c - cable ends that are VXLAN tunnels, all over one UDP socket
 *
 * Theory of operation (see vxlan.h for the model): receiving is the
 * trunk's way. A tunnel asked for frames gets those already sorted into
 * its queue; when that is empty, one recvmmsg() of up to XC_BURST
 * datagrams is made, each into two iovecs: the 8-byte VXLAN header into an
 * array of the socket's, the frame straight into the data of an mbuf of
 * the socket's pool (no copy). The header says the VNI (vxlan_wire.c),
 * the sender's address says the remote; the pair picks the tunnel. A
 * datagram no tunnel takes keeps its mbuf for the next receive.
 *
 * The socket's pool is shared by its tunnels, so each tunnel's queue
 * holds at most its share of it (qcap: half the pool split evenly, at
 * least a burst): a cable whose guest stops taking frames (its direction
 * then holds a burst and stops receiving) keeps what it has and drops
 * the rest as backlog, and the other tunnels still find mbufs (a stalled
 * tunnel holds its share and the burst its direction holds: with the
 * share's floor of a burst, about 60 stalled tunnels at once use up the
 * pool). Should the pool run dry all the same (that many such cables, or
 * delay lines holding frames), what arrives is received into a scratch
 * buffer and counted as no-mbuf: the socket is drained either way (a held
 * direction drains it too, vxlan_drain()), and its lcore never spins on a
 * readable socket it cannot read.
 *
 * Sending is one sendmmsg() per burst, each frame one message of iovecs:
 * the tunnel's prebuilt header, then every segment of the mbuf (a chain
 * is sent as it is). The socket is non-blocking: a full socket buffer
 * (EAGAIN, ENOBUFS) leaves the rest of the burst with the direction,
 * which holds it (backpressure); a frame the kernel refuses (EMSGSIZE
 * with vxlan-df, no route) is dropped and counted under its reason, by
 * the socket and by the cable's direction (too-big, refused).
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

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
 *		   asked
 * @ss:		local address and port (any: a dual-stack IPv6 socket)
 * @df:		set DF instead of letting the kernel fragment
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: the fd, or -errno
 */
static int open_socket(const struct sockaddr_storage *ss, bool df, char *err,
		       size_t errlen)
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
	{ name, meaning, offsetof(struct xc_vxlan_stats, field), 1 }

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
	VXLAN_CTR("tx-datagrams", tx_datagrams, "datagrams sent"),
	VXLAN_CTR("tx-too-big", tx_too_big,
		  "frames the kernel refused as too big (vxlan-df); each cable counts them as too-big"),
	VXLAN_CTR("tx-error", tx_error,
		  "frames the kernel refused otherwise (no route...); each cable counts them as refused"),
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
	char why[128];
	int fd;

	if (xc_addr_parse(local ? local : "::", false, port, &ss, why,
			  sizeof(why))) {
		snprintf(err, errlen, "vxlan-local: %s", why);
		return -EINVAL;
	}
	fd = open_socket(&ss, df, err, errlen);
	if (fd == -EAFNOSUPPORT && local == NULL) {	/* no IPv6 here */
		xc_addr_parse("0.0.0.0", false, port, &ss, why, sizeof(why));
		fd = open_socket(&ss, df, err, errlen);
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
	xc_addr_format(&ss, vx->local, sizeof(vx->local));
	vx->pool = rte_pktmbuf_pool_create("xc_vxlan", XC_VXLAN_POOL_MBUFS,
					   256, 0, XC_VXLAN_FRAME_MAX +
					   RTE_PKTMBUF_HEADROOM, SOCKET_ID_ANY);
	if (vx->pool == NULL) {
		snprintf(err, errlen, "vxlan: cannot create mbuf pool: %s",
			 rte_strerror(rte_errno));
		xc_vxlan_close(vx);
		return -ENOMEM;
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
 * xc_vxlan_add() - make a cable end a tunnel on the socket, in its first
 *		    free slot; its datagrams are sorted to it from now on
 *		    (main thread)
 * @vx:		socket
 * @e:		the end (cable, idx, label set)
 * @remote:	"ADDR[:PORT]"
 * @def_port:	the remote's port if @remote gives none
 * @vni:	VNI
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, or -EINVAL (bad or IPv6 remote on an IPv4 socket, a VNI
 *	   and remote used twice, too many tunnels)
 */
int xc_vxlan_add(struct xc_vxlan *vx, struct xc_end *e, const char *remote,
		 uint16_t def_port, uint32_t vni, char *err, size_t errlen)
{
	struct sockaddr_storage local, addr;
	struct xc_vxlan_tun *t;
	socklen_t len = sizeof(local);
	char why[128], text[XC_ADDR_TEXT_MAX];
	unsigned int i, k;

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
	for (i = 0; i < vx->hi; i++)
		if (vx->tun[i].end && vx->tun[i].vni == vni &&
		    xc_addr_same_host(&vx->tun[i].remote, &addr)) {
			snprintf(err, errlen, "tunnel %s vni %u: used by two cable ends",
				 remote, vni);
			return -EINVAL;
		}
	t = &vx->tun[k];
	memset(t, 0, sizeof(*t));
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
 * ready() - give every receive slot an mbuf and point its iovecs at it
 * @vx:		socket
 *
 * Return: the number of slots ready, from the first (fewer if the pool is
 *	   empty)
 */
static unsigned int ready(struct xc_vxlan *vx)
{
	unsigned int i, k;

	/* the slots that still hold an mbuf first (a datagram no tunnel
	 * took left its own), so that a dry pool does not hide them */
	for (i = k = 0; i < XC_BURST; i++)
		if (vx->rxm[i] != NULL) {
			struct rte_mbuf *m = vx->rxm[i];

			vx->rxm[i] = vx->rxm[k];
			vx->rxm[k++] = m;
		}
	for (i = 0; i < XC_BURST; i++) {
		struct msghdr *h = &vx->rmsg[i].msg_hdr;

		if (vx->rxm[i] == NULL) {
			vx->rxm[i] = rte_pktmbuf_alloc(vx->pool);
			if (vx->rxm[i] == NULL)
				break;
		}
		vx->riov[i][0].iov_base = vx->rxhdr[i];
		vx->riov[i][0].iov_len = XC_VXLAN_HLEN;
		vx->riov[i][1].iov_base = rte_pktmbuf_mtod(vx->rxm[i], void *);
		vx->riov[i][1].iov_len = XC_VXLAN_FRAME_MAX;
		memset(h, 0, sizeof(*h));
		h->msg_name = &vx->rfrom[i];
		h->msg_namelen = sizeof(vx->rfrom[i]);
		h->msg_iov = vx->riov[i];
		h->msg_iovlen = 2;
	}
	return i;
}

/**
 * take() - sort one received datagram: to its tunnel's queue, or dropped
 *	    and counted (its mbuf then stays for the next receive)
 * @vx:		socket
 * @i:		its slot
 */
static void take(struct xc_vxlan *vx, unsigned int i)
{
	unsigned int len = vx->rmsg[i].msg_len;
	struct rte_mbuf *m = vx->rxm[i];
	struct xc_vxlan_tun *t;
	uint32_t vni = 0;

	if (vx->rmsg[i].msg_hdr.msg_flags & MSG_TRUNC) {
		xc_stat_add(&vx->st.rx_too_big, 1);
		return;
	}
	switch (xc_vxlan_decap(vx->rxhdr[i], len, &vni)) {
	case XC_VXLAN_SHORT:
		xc_stat_add(&vx->st.rx_short, 1);
		return;
	case XC_VXLAN_NO_I:
		xc_stat_add(&vx->st.rx_bad_flags, 1);
		return;
	case XC_VXLAN_OK:
		break;
	}
	t = find_tun(vx, vni, &vx->rfrom[i]);
	if (t == NULL)
		return;
	if (t->q.n >= __atomic_load_n(&vx->qcap, __ATOMIC_RELAXED)) {
		xc_stat_add(&vx->st.backlog, 1);
		return;
	}
	m->data_len = (uint16_t)(len - XC_VXLAN_HLEN);
	m->pkt_len = len - XC_VXLAN_HLEN;
	t->q.m[(t->q.head + t->q.n++) % XC_VXLAN_QLEN] = m;
	vx->rxm[i] = NULL;
}

/**
 * sink() - receive one burst of datagrams into the scratch buffer, when
 *	    the pool has no mbuf left, and count them as dropped
 * @vx:		socket
 */
static void sink(struct xc_vxlan *vx)
{
	unsigned int i;
	int got;

	for (i = 0; i < XC_BURST; i++) {
		struct msghdr *h = &vx->rmsg[i].msg_hdr;

		vx->riov[i][0].iov_base = vx->sink;
		vx->riov[i][0].iov_len = sizeof(vx->sink);
		memset(h, 0, sizeof(*h));
		h->msg_iov = vx->riov[i];
		h->msg_iovlen = 1;
	}
	got = recvmmsg(vx->fd, vx->rmsg, XC_BURST, MSG_DONTWAIT, NULL);
	if (got <= 0)
		return;
	xc_stat_add(&vx->st.rx_datagrams, (uint64_t)got);
	xc_stat_add(&vx->st.no_mbuf, (uint64_t)got);
}

/**
 * fill() - receive one burst of datagrams and sort them
 * @vx:		socket
 */
static void fill(struct xc_vxlan *vx)
{
	unsigned int n = ready(vx);
	int got, i;

	if (n == 0) {
		sink(vx);
		return;
	}
	got = recvmmsg(vx->fd, vx->rmsg, n, MSG_DONTWAIT, NULL);
	if (got <= 0)
		return;
	xc_stat_add(&vx->st.rx_datagrams, (uint64_t)got);
	for (i = 0; i < got; i++)
		take(vx, (unsigned int)i);
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
 *		    queue?
 * @e:		tunnel end
 *
 * Return: true if so
 */
static bool vxlan_queued(const struct xc_end *e)
{
	return ((const struct xc_vxlan_tun *)e->priv)->q.n != 0;
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
 * vxlan_tx() - end op: send frames through the tunnel, one datagram each
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
	unsigned int k, done = 0, run;
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
		for (run = 1; done + run < n && ok[done + run]; run++)
			;
		sent = sendmmsg(vx->fd, &vx->smsg[done], run, MSG_DONTWAIT);
		if (sent > 0) {
			xc_stat_add(&vx->st.tx_datagrams, (uint64_t)sent);
			done += (unsigned int)sent;
			continue;
		}
		if (sent == 0)
			break;	/* nothing taken, no error: hold the rest */
		if (errno == EAGAIN || errno == EWOULDBLOCK ||
		    errno == ENOBUFS || errno == EINTR)
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
 * xc_vxlan_flush() - at shutdown, free frames received for tunnels that
 *		      will not take them any more (counted as backlog)
 * @vx:		socket, whose lcore is not running
 */
void xc_vxlan_flush(struct xc_vxlan *vx)
{
	unsigned int i;

	for (i = 0; i < vx->hi; i++)
		if (vx->tun[i].end)
			drop_queue(&vx->tun[i]);
}

/**
 * xc_vxlan_idle() - are all of the socket's mbufs back, but those its
 *		     receive slots hold? (none is in a delay line or a
 *		     NIC's transmit ring: the socket may close)
 * @vx:		socket, without tunnels
 *
 * Return: true if so
 */
bool xc_vxlan_idle(const struct xc_vxlan *vx)
{
	unsigned int i, held = 0;

	for (i = 0; i < XC_BURST; i++)
		held += vx->rxm[i] != NULL;
	return rte_mempool_in_use_count(vx->pool) == held;
}

/**
 * xc_vxlan_close() - close the socket and free what it holds
 * @vx:		socket, or NULL
 */
void xc_vxlan_close(struct xc_vxlan *vx)
{
	unsigned int i;

	if (vx == NULL)
		return;
	xc_vxlan_flush(vx);
	for (i = 0; i < XC_BURST; i++)
		rte_pktmbuf_free(vx->rxm[i]);
	if (vx->fd >= 0)
		close(vx->fd);
	rte_mempool_free(vx->pool);
	free(vx);
}
