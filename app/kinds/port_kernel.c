/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port_kernel.c - the kernel-backed port kind: af_packet and af_xdp on a
 *		   kernel interface (a veth, a NIC the kernel drives)
 *
 * Their PMDs report the link up whatever the interface does, so the link
 * of such a port is the PMD's and the interface's own (IFF_UP and
 * IFF_RUNNING), polled by the main thread. Their pools are their own
 * (port_eth.c), with two wishes of their drivers:
 * - af_packet copies each frame into one mbuf that must hold its whole
 *   frame size (framesz=);
 * - af_xdp (DPDK 22.11) turns the pool's memory into the socket's UMEM,
 *   one UMEM chunk per mbuf object: an object may not exceed a page (the
 *   kernel's limit for a chunk), and the driver takes the UMEM to be the
 *   objects back to back, so the pool may not leave gaps at page
 *   boundaries as pools for DMA do (else the last objects lie outside the
 *   UMEM and the kernel refuses them). Its driver also sends only
 *   single-segment frames.
 *
 * An af_packet port is a trunk only: the kernel strips a received frame's
 * outer VLAN tag into its metadata, and DPDK 22.11's af_packet driver
 * puts it back as 802.1Q (0x8100) whatever its type was (it ignores the
 * ring's tp_vlan_tpid, and the ethdev API has no field for it), so a
 * guest's QinQ frame (outer 0x88a8) would arrive changed through an
 * untagged end. On a trunk the outer tag is xcable's own, stripped into
 * the mbuf and checked against the trunk's tag. AF_XDP sees frames before
 * the kernel untags them: af_xdp may be an untagged end.
 *
 * Idle sleep: neither driver offers Rx interrupts in DPDK 22.11, but both
 * receive through a socket the lcore can wait on (EPOLLIN when a frame
 * waits in its ring). The drivers keep their sockets to themselves, so
 * xcable finds them once among its own fds: an AF_PACKET socket bound to
 * the interface (getsockname), or an AF_XDP socket on it (the kernel's
 * sock_diag says which interface and queue, as AF_XDP has no
 * getsockname; a kernel built without XDP socket diagnostics leaves the
 * order of the fds, trusted only for the process's only af_xdp port).
 * A queue whose socket is not found, and a port waiting for room to send
 * (no event tells), get brief sleeps, as before.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/xdp_diag.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "log.h"
#include "options.h"
#include "port.h"
#include "port_eth.h"

#define XC_XDP_MBUFS		8191
#define XC_XDP_CACHE		256
/* the kernel's room in front of each AF_XDP frame (XDP_PACKET_HEADROOM) */
#define XC_XDP_HEADROOM		256
#ifndef AF_XDP
#define AF_XDP			44
#endif
#define XC_RXFD_UNSEEN		-2	/* not looked for yet */

/**
 * struct xc_kport - a kernel-backed port's own state
 * @kiface:	the kernel interface (iface=), or ""
 * @kfd:	socket to ask the kernel about it, -1 until needed
 * @framesz:	af_packet's frame size (framesz=), 0 if none
 * @xdp:	the driver is af_xdp
 * @queue0:	the interface's first queue (af_xdp's start_queue=)
 * @rxfd:	the driver's socket of each Rx queue, to sleep on: -1 if not
 *		found, XC_RXFD_UNSEEN until looked for (each by the lcore
 *		that receives from the queue)
 */
struct xc_kport {
	char kiface[IF_NAMESIZE];
	int kfd;
	unsigned int framesz;
	bool xdp;
	unsigned int queue0;
	int rxfd[XC_MAX_QUEUES];
};

/* kp() - a kernel-backed port's own state */
static inline struct xc_kport *kp(const struct xc_port *p)
{
	return p->priv;
}

/* kernel_match() - is the ethdev af_packet or af_xdp? */
static bool kernel_match(const struct rte_eth_dev_info *info)
{
	return strcmp(info->driver_name, "net_af_packet") == 0 ||
	       strcmp(info->driver_name, "net_af_xdp") == 0;
}

/**
 * kernel_init() - take the interface name and frame size from the device
 *		   arguments
 * @p:		port
 * @info:	its device info
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -ENOMEM
 */
static int kernel_init(struct xc_port *p, const struct rte_eth_dev_info *info,
		       char *err, size_t errlen)
{
	const struct rte_devargs *da = rte_dev_devargs(info->device);
	struct rte_kvargs *kv = NULL;
	struct xc_kport *k;
	unsigned int q;
	const char *v;

	k = calloc(1, sizeof(*k));
	if (k == NULL) {
		snprintf(err, errlen, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	p->priv = k;
	k->kfd = -1;
	for (q = 0; q < XC_MAX_QUEUES; q++)
		k->rxfd[q] = XC_RXFD_UNSEEN;
	k->xdp = strcmp(info->driver_name, "net_af_xdp") == 0;
	if (da != NULL && da->args != NULL)
		kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return 0;
	v = rte_kvargs_get(kv, "iface");
	if (v != NULL && strlen(v) < sizeof(k->kiface))
		strcpy(k->kiface, v);
	v = rte_kvargs_get(kv, "start_queue");
	if (v != NULL)
		k->queue0 = (unsigned int)strtoul(v, NULL, 0);
	v = rte_kvargs_get(kv, "framesz");
	if (v != NULL)
		k->framesz = (unsigned int)RTE_MIN(strtoul(v, NULL, 0),
						   65536UL);
	rte_kvargs_free(kv);
	return 0;
}

/**
 * xdp_room() - the largest mbuf data room whose pool object (header, mbuf,
 *		data) fits in one page
 *
 * Return: data room in bytes
 */
static uint16_t xdp_room(void)
{
	uint32_t page = (uint32_t)getpagesize(), room;
	struct rte_mempool_objsz sz;

	for (room = page - sizeof(struct rte_mbuf); room > 2048; room -= 64)
		if (rte_mempool_calc_obj_size(sizeof(struct rte_mbuf) + room,
					      RTE_MEMPOOL_F_NO_IOVA_CONTIG,
					      &sz) <= page)
			break;
	return (uint16_t)room;
}

/**
 * packed_pool() - a pktmbuf pool whose objects lie back to back in one
 *		   memory chunk (rte_pktmbuf_pool_create() cannot be asked
 *		   for that)
 * @name:	pool name
 * @n:		number of mbufs
 * @room:	data room of each, headroom included
 * @socket:	NUMA socket
 *
 * Return: the pool, or NULL with rte_errno set
 */
static struct rte_mempool *packed_pool(const char *name, unsigned int n,
				       uint16_t room, int socket)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room,
	};
	struct rte_mempool *mp;
	int rc;

	mp = rte_mempool_create_empty(name, n, sizeof(struct rte_mbuf) + room,
				      XC_XDP_CACHE, sizeof(priv), socket,
				      RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (mp == NULL)
		return NULL;
	rc = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (rc == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		rc = rte_mempool_populate_default(mp);
		rc = rc < 0 ? rc : mp->nb_mem_chunks == 1 ? 0 : -ENOMEM;
	}
	if (rc) {
		rte_mempool_free(mp);
		rte_errno = -rc;
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

/**
 * xdp_pool() - af_xdp's pool: objects of one page, packed
 * @p:		port
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0, -EINVAL if the port's MTU does not fit a page, -ENOMEM
 */
static int xdp_pool(struct xc_port *p, char *err, size_t errlen)
{
	unsigned int mtu = p->conf.mtu ? p->conf.mtu : RTE_ETHER_MTU;
	char name[RTE_MEMPOOL_NAMESIZE];
	int socket = rte_eth_dev_socket_id(p->id);
	uint16_t room = xdp_room();
	uint32_t max = room - RTE_PKTMBUF_HEADROOM - XC_XDP_HEADROOM;

	/* the kernel writes a frame behind the mbuf's headroom and its own */
	if (mtu + RTE_ETHER_HDR_LEN > max) {
		snprintf(err, errlen,
			 "%s: af_xdp carries frames up to %u bytes (one page per frame in DPDK 22.11): mtu %u is too large, at most %u",
			 p->label, max, mtu, max - RTE_ETHER_HDR_LEN);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "xc_ppool%u", p->id);
	return xc_port_take_pool(p, packed_pool(name, XC_XDP_MBUFS, room,
						socket < 0 ? 0 : socket),
				 err, errlen);
}

/**
 * kernel_prepare() - give the port its own pool, as its driver wants it
 * @p:		port
 * @again:	plugged in again (the pool is kept)
 * @err:	one-line message on error
 * @errlen:	size of @err
 *
 * Return: 0 or -errno
 */
static int kernel_prepare(struct xc_port *p, bool again, char *err,
			  size_t errlen)
{
	(void)again;
	if (!kp(p)->xdp && !p->conf.strip_vlan) {
		snprintf(err, errlen,
			 "%s: an af_packet end needs a tag: the kernel takes a frame's outer VLAN tag off and DPDK 22.11's driver puts it back as 0x8100, changing QinQ (0x88a8) frames; use a netdev end (left-netdev = %s), af_xdp (net_af_xdp0,iface=%s) or a tag",
			 p->label, kp(p)->kiface[0] ? kp(p)->kiface : "IFACE",
			 kp(p)->kiface[0] ? kp(p)->kiface : "IFACE");
		return -EINVAL;
	}
	if (p->own_pool != NULL)
		return 0;
	if (kp(p)->xdp)
		return xdp_pool(p, err, errlen);
	return xc_port_eth_pool(p, kp(p)->framesz, err, errlen);
}

/**
 * kernel_link_ok() - is the port's kernel interface up and running?
 * @p:		port
 *
 * Return: true if so, or if it has none (or it cannot be asked)
 */
static bool kernel_link_ok(struct xc_port *p)
{
	struct xc_kport *k = kp(p);
	struct ifreq ifr;

	if (k->kiface[0] == '\0')
		return true;
	if (k->kfd < 0)
		k->kfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (k->kfd < 0)
		return true;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, k->kiface, sizeof(ifr.ifr_name) - 1);
	if (ioctl(k->kfd, SIOCGIFFLAGS, &ifr) < 0)
		return false;	/* gone */
	return (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
}

/* kernel_close() - let go of the socket that asks the kernel */
static void kernel_close(struct xc_port *p)
{
	if (kp(p)->kfd >= 0)
		close(kp(p)->kfd);
	kp(p)->kfd = -1;
}

/* kernel_fini() - free the port's own state */
static void kernel_fini(struct xc_port *p)
{
	if (p->priv == NULL)	/* its creation failed */
		return;
	kernel_close(p);
	free(p->priv);
}

/* kernel_describe() - the kernel interface under the port */
static void kernel_describe(struct xc_port *p, xc_kv_fn fn, void *arg)
{
	if (kp(p)->kiface[0])
		fn(arg, "interface", kp(p)->kiface, 0);
}

/**
 * xdp_socket_ino() - the inode of the AF_XDP socket on an interface's
 *		      queue, from the kernel's socket diagnostics (AF_XDP
 *		      sockets have no getsockname)
 * @ifindex:	interface
 * @queue:	its queue
 * @ino:	the inode, if found
 *
 * Return: 1 if found, 0 if not, -1 if the kernel cannot tell (built
 *	   without CONFIG_XDP_SOCKETS_DIAG)
 */
static int xdp_socket_ino(unsigned int ifindex, unsigned int queue,
			  uint64_t *ino)
{
	struct {
		struct nlmsghdr nh;
		struct xdp_diag_req r;
	} req = {
		.nh = { .nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_XDP, .xdiag_show = XDP_SHOW_INFO },
	};
	long buf[2048];
	int fd, rc = -1;
	ssize_t n = 0;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd >= 0 && send(fd, &req, sizeof(req), 0) == sizeof(req))
		rc = 0;
	while (rc == 0 && (n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		const struct nlmsghdr *h = (const void *)buf;

		for (; rc == 0 && NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			const struct xdp_diag_msg *m = NLMSG_DATA(h);
			const struct nlattr *a = (const void *)(m + 1);
			const struct xdp_diag_info *info = (const void *)(a + 1);

			if (h->nlmsg_type == NLMSG_ERROR)
				rc = -1;
			else if (h->nlmsg_type == NLMSG_DONE)
				rc = 2;
			else if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(*m)) +
				 sizeof(*a) + sizeof(*info) &&
				 a->nla_type == XDP_DIAG_INFO &&
				 info->ifindex == ifindex &&
				 info->queue_id == queue) {
				*ino = m->xdiag_ino;
				rc = 1;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	return rc == 2 ? 0 : rc;
}

/**
 * struct xc_sock_want - which of the process's own sockets is looked for
 * @family:	AF_PACKET or AF_XDP
 * @ifindex:	AF_PACKET: the interface it is bound to
 * @ino:	its inode, 0 if not known
 * @nth:	without @ino, which of the matching sockets, in the order of
 *		their fds (a driver opens one per queue, in order)
 */
struct xc_sock_want {
	int family;
	unsigned int ifindex;
	uint64_t ino;
	unsigned int nth;
};

/**
 * own_socket() - one of the process's own sockets
 * @w:		what it is
 *
 * Return: its fd, or -1
 */
static int own_socket(struct xc_sock_want w)
{
	DIR *dir = opendir("/proc/self/fd");
	const struct dirent *de;
	int found = -1, fd, dom;
	struct sockaddr_ll sll;
	struct stat st;
	socklen_t len;

	while (dir != NULL && found < 0 && (de = readdir(dir)) != NULL) {
		fd = atoi(de->d_name);
		len = sizeof(dom);
		if (de->d_name[0] == '.' || fd == dirfd(dir) ||
		    fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode) ||
		    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &len) < 0 ||
		    dom != w.family)
			continue;
		if (w.ino != 0) {
			if (st.st_ino == w.ino)
				found = fd;
			continue;
		}
		len = sizeof(sll);
		if (w.family == AF_PACKET &&
		    (getsockname(fd, (struct sockaddr *)&sll, &len) < 0 ||
		     sll.sll_ifindex != (int)w.ifindex))
			continue;
		if (w.nth-- == 0)
			found = fd;
	}
	if (dir != NULL)
		closedir(dir);
	return found;
}

/**
 * only_xdp_port() - is @p the process's only af_xdp port? (then its
 *		     AF_XDP sockets are the process's, one per queue in order)
 * @p:		port
 *
 * Return: true if so
 */
static bool only_xdp_port(const struct xc_port *p)
{
	struct rte_eth_dev_info info;
	uint16_t id;

	RTE_ETH_FOREACH_DEV(id)
		if (id != p->id && rte_eth_dev_info_get(id, &info) == 0 &&
		    strcmp(info.driver_name, "net_af_xdp") == 0)
			return false;
	return true;
}

/**
 * rx_socket() - find the driver's socket that Rx queue @q receives through
 * @p:		port
 * @q:		queue
 *
 * Return: its fd, or -1 (logged: the lcore then sleeps briefly)
 */
static int rx_socket(struct xc_port *p, unsigned int q)
{
	struct xc_kport *k = kp(p);
	struct xc_sock_want w = { .family = k->xdp ? AF_XDP : AF_PACKET,
				  .ifindex = if_nametoindex(k->kiface),
				  .nth = q };
	int fd = -1, rc = 0;

	if (k->xdp && w.ifindex != 0)
		rc = xdp_socket_ino(w.ifindex, k->queue0 + q, &w.ino);
	/* without the kernel's word, AF_XDP sockets by their order */
	if (w.ifindex != 0 && (rc == 1 || !k->xdp ||
			       (rc < 0 && only_xdp_port(p))))
		fd = own_socket(w);
	if (fd < 0)
		XC_LOG(port, WARNING,
		       "%s: the driver's socket of Rx queue %u on %s was not found: the idle lcore looks at it every millisecond",
		       p->label, q, k->kiface[0] ? k->kiface : "?");
	else
		XC_LOG(port, DEBUG,
		       "%s: an idle lcore sleeps on fd %d (Rx queue %u on %s)",
		       p->label, fd, q, k->kiface);
	return fd;
}

/**
 * kernel_kick_fd() - the fd an idle lcore sleeps on for a queue: the
 *		      driver's socket, readable when a frame waits in its
 *		      ring (forwarding lcore)
 * @p:		port
 * @q:		queue
 * @room:	room to send on @q (nothing tells), else frames to receive
 * @on:		the lcore is about to sleep (true) or woke (false)
 * @fd:		the socket, -1 if none (only set when @on)
 * @gen:	0: a driver's socket stays the same (only set when @on)
 *
 * Return: 0, or 1 if nothing tells when the queue can move (room to
 *	   send, or its socket was not found): the sleep must be brief
 */
static int kernel_kick_fd(struct xc_port *p, uint16_t q, bool room, bool on,
			  int *fd, int *gen)
{
	struct xc_kport *k = kp(p);

	if (!on)
		return 0;
	*gen = 0;
	*fd = -1;
	if (room || q >= XC_MAX_QUEUES)
		return 1;
	if (k->rxfd[q] == XC_RXFD_UNSEEN)
		k->rxfd[q] = rx_socket(p, q);
	*fd = k->rxfd[q];
	return *fd < 0 ? 1 : 0;
}

/**
 * kernel_absent() - port op: say why a kernel-backed port's device is not
 *		     there after the EAL probed its devargs
 * @devargs:	the port's device arguments
 * @why:	what is missing, or what refused
 * @len:	size of @why
 *
 * Return: true if @devargs are af_packet's or af_xdp's (@why is set)
 */
static bool kernel_absent(const char *devargs, char *why, size_t len)
{
	char iface[XC_KIFACE_MAX];
	int rc = xc_devargs_kiface(devargs, iface, sizeof(iface));

	if (rc == -ENOENT)
		return false;
	if (rc == -ENAMETOOLONG)
		snprintf(why, len, "%.*s: iface= is longer than an interface name (at most %d characters)",
			 (int)strcspn(devargs, ","), devargs,
			 XC_KIFACE_MAX - 1);
	else if (iface[0] == '\0')
		snprintf(why, len, "%.*s needs iface=, the kernel interface",
			 (int)strcspn(devargs, ","), devargs);
	else if (if_nametoindex(iface) == 0)
		snprintf(why, len,
			 "no interface %s in this network namespace (%s)",
			 iface, strerror(errno));
	else
		snprintf(why, len,
			 "the %.*s driver refused interface %s (its reason is logged above); a netdev end (left-netdev = %s) takes any interface",
			 (int)strcspn(devargs, "0123456789,"), devargs, iface,
			 iface);
	return true;
}

const struct xc_port_ops xc_port_kernel_ops = {
	.kind = "kernel",
	.absent = kernel_absent,
	.match = kernel_match,
	.init = kernel_init,
	.prepare = kernel_prepare,
	.caps = xc_port_eth_caps,
	.link_ok = kernel_link_ok,
	.close = kernel_close,
	.fini = kernel_fini,
	.describe = kernel_describe,
	.kick_fd = kernel_kick_fd,
	.rx_gather_us = 5,	/* af_packet: the kernel's frames come ~1-2 us apart */
};
