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
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "log.h"
#include "port.h"

#define XC_XDP_MBUFS		8191
#define XC_XDP_CACHE		256
/* the kernel's room in front of each AF_XDP frame (XDP_PACKET_HEADROOM) */
#define XC_XDP_HEADROOM		256

/**
 * struct xc_kport - a kernel-backed port's own state
 * @kiface:	the kernel interface (iface=), or ""
 * @kfd:	socket to ask the kernel about it, -1 until needed
 * @framesz:	af_packet's frame size (framesz=), 0 if none
 * @xdp:	the driver is af_xdp
 */
struct xc_kport {
	char kiface[IF_NAMESIZE];
	int kfd;
	unsigned int framesz;
	bool xdp;
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
	const char *v;

	k = calloc(1, sizeof(*k));
	if (k == NULL) {
		snprintf(err, errlen, "%s: out of memory", p->name);
		return -ENOMEM;
	}
	p->priv = k;
	k->kfd = -1;
	k->xdp = strcmp(info->driver_name, "net_af_xdp") == 0;
	if (da != NULL && da->args != NULL)
		kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return 0;
	v = rte_kvargs_get(kv, "iface");
	if (v != NULL && strlen(v) < sizeof(k->kiface))
		strcpy(k->kiface, v);
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

const struct xc_port_ops xc_port_kernel_ops = {
	.kind = "kernel",
	.match = kernel_match,
	.init = kernel_init,
	.prepare = kernel_prepare,
	.caps = xc_port_eth_caps,
	.link_ok = kernel_link_ok,
	.close = kernel_close,
	.fini = kernel_fini,
	.describe = kernel_describe,
};
